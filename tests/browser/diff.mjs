// diff.mjs DIFF.html TEXT - the comparison page (callgraph -d BASE --html
// DIFF.html LATER) in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core), at the width of a 1280-px window.  TEXT is callgraph's
// text comparison of the same two traces (-d BASE LATER): the page's rows
// must hold the same numbers.  Prints one line per failure and closes with
// "diff: N passed, N failed"; exits 1 when anything failed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch } from './lib.mjs';

const { check, eq, done, fail } = checks('diff');

// "-12.345" / "+12.345" / "12.345" ms -> microseconds.
const us = s => Number(s.replace('+', '').replace('.', ''));

async function cells(page, id) {
  return page.$$eval(`#${id} tbody tr:not(.more)`, trs => trs.map(tr =>
    Array.from(tr.cells, td => td.textContent)));
}

async function main() {
  const [file, textFile] = process.argv.slice(2);
  if (!file || !textFile) {
    console.error('usage: node diff.mjs DIFF.html TEXT');
    process.exit(2);
  }
  // The text comparison's "both" rows: incl base, later, diff, ratio, [cpu
  // diff], excl base, later, diff, [cpu diff], calls base, later, method.
  const text = new Map();
  for (const l of readFileSync(textFile, 'utf8').split('\n')) {
    const m = l.match(/^\s*((?:-?[\d.]+|-)(?:\s+(?:-?[\d.]+|-))*)\s+(\d+\+\d+)\s+(\d+\+\d+)\s\s(.*)$/);
    if (!m || text.has(m[4])) continue;
    const n = m[1].trim().split(/\s+/);
    const v = n.length === 9 ? [n[0], n[1], n[2], n[3], n[5], n[6], n[7]] : n.slice(0, 7);
    // t[9], t[10]: the other clock's inclusive and self change, when shown.
    const o = n.length === 9 ? [n[4], n[8]] : [];
    if (n.length === 7 || n.length === 9) text.set(m[4], [...v, m[2], m[3], ...o]);
  }
  check('the text comparison has rows', text.size > 10, text.size);
  const url = pathToFileURL(resolve(file)).href;
  const html = readFileSync(file, 'utf8');
  check('no http(s) reference in the file', !/https?:\/\//.test(html));
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const w = { requests: [], errors: [] };
    page.on('request', r => { if (r.url() !== url) w.requests.push(r.url()); });
    page.on('pageerror', e => w.errors.push(String(e)));
    page.on('console', m => { if (m.type() === 'error') w.errors.push(m.text()); });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#both tbody tr');

    // Fits the window: no horizontal scroll, the widest table inside it.
    const fit = await page.evaluate(() => {
      let widest = null, wmax = 0;
      document.querySelectorAll('table').forEach(t => {
        const r = t.getBoundingClientRect();
        if (r.width > wmax) { wmax = r.width; widest = t.id || t.className; }
      });
      return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, widest,
        right: Math.max(...Array.from(document.querySelectorAll('table'), t => t.getBoundingClientRect().right)) };
    });
    eq('the widest table is the one of methods in both runs', fit.widest, 'both');
    check('no horizontal scroll at 1280 px', fit.scroll <= fit.inner, `${fit.scroll} > ${fit.inner}`);
    check('every table ends inside the window', fit.right <= fit.inner, `${fit.right} > ${fit.inner}`);
    const over = await page.$$eval('td', tds => tds.filter(td => td.scrollWidth > td.clientWidth + 1).length);
    eq('no cell overflows', over, 0);

    // Rows: the numbers of the text comparison, self change included; the
    // full name in the tooltip.
    let r = await cells(page, 'both');
    check('at most 300 rows in the document', r.length <= 300, r.length);
    const heads = await page.$$eval('#both thead th', ths => ths.map(t => t.textContent));
    // With both clocks in both traces, the other clock's changes sit beside.
    const other = [...text.values()].some(t => t.length > 9);
    const oclock = (await page.$eval('#cg-diff-data', e => JSON.parse(e.textContent).other));
    eq('the other clock is named when the text shows it', oclock, other ? 'cpu' : null);
    eq('columns', heads, ['Method', 'Incl base', 'Incl later', 'Incl \u0394', 'Ratio', 'Self base',
      'Self later', 'Self \u0394', ...(other ? ['Incl \u0394 cpu', 'Self \u0394 cpu'] : []),
      'Calls base', 'Calls later']);
    const sign = x => x.startsWith('-') || us(x) === 0 ? x : '+' + x;
    let same = 0;
    for (const row of r) {
      const t = text.get(row[0]);
      if (t && row.slice(1).join(' ') === [t[0], t[1], sign(t[2]), t[3], t[4], t[5], sign(t[6]),
        ...(other ? [sign(t[9]), sign(t[10])] : []), t[7], t[8]].join(' ')) same++;
    }
    eq('rows equal the text comparison', same, Math.min(r.length, text.size));
    check('self change = self later - self base', r.every(x => us(x[7]) === us(x[6]) - us(x[5])));
    const title = await page.$eval('#both tbody td.name', td => td.title);
    check('full name on hover', title.length > 0 && title.includes('('), title);

    // Sort by any column, both ways.
    for (let c = 0; c < heads.length; c++) {
      await page.click(`#both thead th:nth-child(${c + 1}) button`);
      const down = (await cells(page, 'both')).map(x => x[c]);
      await page.click(`#both thead th:nth-child(${c + 1}) button`);
      const up = (await cells(page, 'both')).map(x => x[c]);
      const val = s => (c === 0 ? s : s === '-' ? Infinity : /^\d+\+\d+$/.test(s) ? s.split('+').reduce((a, b) => a + +b, 0) : us(s));
      const ok = (xs, dir) => xs.every((x, i) => i === 0 || (dir * (val(x) < val(xs[i - 1]) ? -1 : val(x) > val(xs[i - 1]) ? 1 : 0)) >= 0);
      check(`sorts by ${heads[c]}`, ok(down, c === 0 ? 1 : -1) && ok(up, c === 0 ? -1 : 1),
        `${down.slice(0, 4)} / ${up.slice(0, 4)}`);
    }

    // Search: smart case over every table, with the count.
    const some = r[0][0].split('.').slice(-1)[0].replace(/\(.*/, '');
    await page.fill('#search', some.toLowerCase());
    r = await cells(page, 'both');
    check('search keeps only matches', r.length > 0 && r.every(x => x[0].toLowerCase().includes(some.toLowerCase())),
      JSON.stringify(r.slice(0, 3)));
    const m = await page.textContent('#matched');
    check('search says how many match', /^\d+ of \d+ methods match$/.test(m), m);
    await page.fill('#search', 'NoSuchMethodAnywhere');
    eq('no match leaves the tables empty', (await cells(page, 'both')).length, 0);
    await page.fill('#search', '');

    eq('no network request', w.requests, []);
    eq('no script or console error', w.errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
  done();
}

main().catch(fail);
