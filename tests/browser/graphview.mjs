// graphview.mjs REPORT.html... - the first view of the HTML report's call
// graph in headless Chromium: with the graph section scrolled into the
// window, at least one node label lies inside both the graph box and the
// window, at a rendered size of at least 80 % of the page's font; the same
// for every thread that has a graph; "Fit" makes the graph as wide as the
// box (never above 1:1).  Closes with "graphview: N passed, N failed".
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch } from './lib.mjs';

const { check, done } = checks('graphview');

// Node labels of the shown graph visible in the box and the window, with
// their rendered font size in px (font-size in SVG units times the SVG's
// px per unit), and the page's font size.
function readable(page) {
  return page.evaluate(() => {
    const box = document.getElementById('graphs').getBoundingClientRect();
    const div = Array.from(document.querySelectorAll('#graphs div.graphview')).find(d => !d.hidden);
    const svg = div && div.querySelector('svg');
    if (!svg) return { labels: [], page: 0 };
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const seen = [];
    div.querySelectorAll('g.node:not(.legend) text').forEach(t => {
      const r = t.getBoundingClientRect();
      if (r.width > 0 && r.left >= Math.max(box.left, 0) && r.right <= Math.min(box.right, innerWidth) &&
          r.top >= Math.max(box.top, 0) && r.bottom <= Math.min(box.bottom, innerHeight))
        seen.push(parseFloat(t.getAttribute('font-size')) * scale);
    });
    return { labels: seen, page: parseFloat(getComputedStyle(document.body).fontSize) };
  });
}

async function firstView(page, what) {
  await page.$eval('#graph', s => s.scrollIntoView({ block: 'start' }));
  const r = await readable(page);
  const big = r.labels.filter(px => px >= 0.8 * r.page);
  check(`${what}: a node label in view at a readable size`, big.length > 0,
    `${r.labels.length} labels in view, sizes ${r.labels.slice(0, 5).map(x => x.toFixed(1))} px, page ${r.page} px`);
}

async function testFile(browser, file) {
  const url = pathToFileURL(resolve(file)).href;
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const requests = [], errors = [];
  page.on('request', r => { if (r.url() !== url) requests.push(r.url()); });
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#flat tbody tr.row');
  await firstView(page, `${file} all threads`);
  // Every thread that has a graph of its own.
  const threads = await page.$eval('#cg-data', s => JSON.parse(s.textContent).views
    .map((v, i) => [i, v.g]).filter(x => x[0] > 0 && x[1] > 0).map(x => x[0]));
  for (const vi of threads.slice(0, 3)) {
    await page.selectOption('#thread', String(vi));
    await firstView(page, `${file} thread view ${vi}`);
  }
  await page.selectOption('#thread', '0');
  await page.click('#zoom-fit');
  const fit = await page.evaluate(() => {
    const box = document.getElementById('graphs'), svg = box.querySelector('div.graphview:not([hidden]) svg');
    const w = svg.getBoundingClientRect().width, w1 = parseFloat(svg.getAttribute('data-w')) * 4 / 3;
    return { w, box: box.clientWidth, w1 };
  });
  check(`${file}: Fit fits the width`, fit.w <= fit.box &&
    (fit.w >= fit.box - 8 || Math.abs(fit.w - fit.w1) < 1), JSON.stringify(fit));
  check(`${file}: no script errors`, errors.length === 0, errors.join('; '));
  check(`${file}: no network request`, requests.length === 0, requests.join(' '));
  await page.close();
}

async function main() {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error('usage: node graphview.mjs REPORT.html...');
    process.exit(2);
  }
  const browser = await launch();
  try {
    for (const f of files) await testFile(browser, f);
  } catch (e) {
    check('run', false, e && e.stack ? e.stack : String(e));
  } finally {
    await browser.close();
  }
  done();
}

main();
