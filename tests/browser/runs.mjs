// runs.mjs RUNS.html TEXT [SHOT.png] - the repeated-runs page (callgraph -d
// 'before/*' after/* --html RUNS.html) in headless Chromium at the width of
// a 1280-px window.  TEXT is callgraph's text report of the same runs: the
// page's rows must come in its order with its numbers, for the first metric
// and after switching to the second.  Every row's strip holds one dot per
// run.  SHOT.png, when given, gets a screenshot of the second metric's
// view.  Prints one line per failure and closes with "runs: N passed, N
// failed"; exits 1 when anything failed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch, watch } from './lib.mjs';

const { check, eq, done, fail } = checks('runs');

// The text report's tables: label -> rows of [base, range, later, range,
// change, p, calls, name]; the name starts at column 78.
function tables(text) {
  const out = new Map();
  let cur = null;
  for (const l of text.split('\n')) {
    const h = l.match(/^(\S.*), significant changes first$/);
    if (h) { cur = []; out.set(h[1], cur); continue; }
    if (!cur || !l.trim() || /^\s+base\s/.test(l)) continue;
    const f = l.slice(0, 76), name = l.slice(78);
    const num = i => f.slice(i[0], i[1]).trim();
    cur.push([num([0, 14]), num([15, 20]), num([21, 35]), num([36, 41]), num([42, 51]),
      num([52, 58]), num([59, 76]), name]);
  }
  return out;
}

async function rowsOf(page) {
  return page.$$eval('#runs tbody tr:not(.more)', trs => trs.map(tr => ({
    cells: Array.from(tr.cells, td => td.textContent),
    dots: tr.querySelectorAll('span.dot').length,
    left: Array.from(tr.querySelectorAll('span.dot'), d => d.getBoundingClientRect().left),
    strip: (() => { const s = tr.querySelector('div.runs'); const r = s && s.getBoundingClientRect(); return r ? [r.left, r.right] : null; })(),
  })));
}

async function main() {
  const [file, textFile, shot] = process.argv.slice(2);
  if (!file || !textFile) {
    console.error('usage: node runs.mjs RUNS.html TEXT [SHOT.png]');
    process.exit(2);
  }
  const text = tables(readFileSync(textFile, 'utf8'));
  const labels = [...text.keys()];
  check('the text report has tables', labels.length >= 2, labels);
  const html = readFileSync(file, 'utf8');
  check('no http(s) reference in the file', !/https?:\/\//.test(html));
  const data = JSON.parse(html.match(/<script type="application\/json" id="cg-runs-data">\n([^]*?)\n<\/script>/)[1]);
  const nruns = data.nb + data.nl;
  const url = pathToFileURL(resolve(file)).href;
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const w = watch(page, url);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#runs tbody tr');
    eq('metric buttons are the text tables', await page.$$eval('#metrics button', b => b.map(x => x.textContent)), labels);

    for (let k = 0; k < 2; k++) {
      if (k) await page.click(`#metrics button:nth-child(${k + 1})`);
      const want = text.get(labels[k]);
      const rows = await rowsOf(page);
      eq(`${labels[k]}: rows, at most 300`, rows.length, Math.min(300, want.length));
      let same = 0;
      rows.forEach((r, i) => {
        const t = want[i], c = r.cells;
        // Row, base (median range), later, change, p, calls, strip
        const side = (m, rg) => [m, rg].filter(Boolean).join(' ');
        if (t && c[0] === t[7] && c[1].trim() === side(t[0], t[1]) &&
            c[2].trim() === side(t[2], t[3]) && c[3] === t[4] && c[4] === t[5] &&
            c[5] === t[6].replace('->', '\u2192')) same++;
        else if (same === i) console.log(`first differing row ${i}: ${JSON.stringify(c)} / ${JSON.stringify(t)}`);
      });
      eq(`${labels[k]}: rows in the text report's order with its numbers`, same, rows.length);
      check(`${labels[k]}: one dot per run in every strip`, rows.every(r => r.dots === nruns),
        rows.map(r => r.dots).slice(0, 5));
      check(`${labels[k]}: dots inside their strip`, rows.every(r => r.left.every(x => x >= r.strip[0] - 4 && x <= r.strip[1])));
      const fit = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
        right: document.getElementById('runs').getBoundingClientRect().right,
      }));
      check(`${labels[k]}: no horizontal scroll at 1280 px`, fit.scroll <= fit.inner, `${fit.scroll} > ${fit.inner}`);
      check(`${labels[k]}: the table ends inside the window`, fit.right <= fit.inner, `${fit.right} > ${fit.inner}`);
    }
    // Significant rows first among the methods, flagged by colour.
    const firstSig = await page.$$eval('#runs tbody td:nth-child(4)', tds => tds.map(t => t.className));
    check('a significant change is coloured', firstSig.some(c => /\b(up|down)\b/.test(c)));
    if (shot) await page.screenshot({ path: shot });

    // Search: smart case, with the count.
    await page.fill('#search', 'bench.m3(');
    let r = await rowsOf(page);
    check('search keeps only matches', r.length > 0 && r.every(x => x.cells[0].toLowerCase().includes('bench.m3(')),
      JSON.stringify(r.map(x => x.cells[0])));
    check('search says how many match', /^\d+ of \d+ rows match$/.test(await page.textContent('#matched')));
    await page.fill('#search', 'NoSuchMethodAnywhere');
    eq('no match leaves the table empty', (await rowsOf(page)).length, 0);
    await page.fill('#search', '');
    r = await page.$eval('#runs tbody td.name', td => td.title);
    check('full name on hover', r.length > 0, r);
    eq('no network request', w.requests, []);
    eq('no script or console error', w.errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
  done();
}

main().catch(fail);
