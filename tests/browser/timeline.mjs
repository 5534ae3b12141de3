// timeline.mjs REPORT.html [BIG.html [MORE.html...]] [--shots DIR] - the timeline and flame
// graph of callgraph's HTML report in headless Chromium.
//
// REPORT.html: the report of tests/browser/report.desc (run.sh makes it).
// BIG.html: a report of a generated trace of about 3 million calls
// (tests/browser/big.desc); it must be under BIG_MAX bytes and show its
// timeline and flame graph within LOAD_MS of navigation.  --shots DIR writes
// timeline.png and flame.png there (for docs/; never during `make test`).
// Prints one line per failure and closes with "timeline: N passed, N failed".
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch, watch } from './lib.mjs';

const { check, done } = checks('timeline');

// A report of any trace: at most TL_BUDGET (60 000) spans at ~25 bytes,
// 100 000 flame frames at ~20 bytes, plus the tables: a few MB.
const BIG_MAX = 4 * 1024 * 1024;
// A hang guard, not a speed goal: load time is measured, never asserted tightly.
const LOAD_MS = 30000;

const attr = (page, sel, a) => page.getAttribute(sel, a);
const range = async page => +(await attr(page, '#tl', 'data-t1')) - +(await attr(page, '#tl', 'data-t0'));

async function testReport(browser, file, shots) {
  const url = pathToFileURL(resolve(file)).href;
  const html = readFileSync(file, 'utf8');
  check('no http(s) reference in the file', !/https?:\/\//.test(html));
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const w = watch(page, url);
  await page.goto(url, { waitUntil: 'load' });

  // Tabs: each part one click away from the sticky bar.
  const nav = await page.$$eval('.bar #cg-nav a', as => as.map(a => a.getAttribute('href')));
  check('nav links to every part', ['#summary', '#graph', '#profile', '#topdown', '#bottomup', '#timeline', '#flame']
    .every(h => nav.includes(h)), JSON.stringify(nav));

  // One row per thread, with bars.
  const nthreads = (await page.$$('#thread option')).length - 1;
  // Threads with no recorded time are folded into one row (data-folded).
  check('one timeline row per thread', +(await attr(page, '#tl', 'data-rows')) +
    +(await attr(page, '#tl', 'data-folded')) === nthreads,
    `${await attr(page, '#tl', 'data-rows')} rows, ${nthreads} threads`);
  check('timeline draws bars', +(await attr(page, '#tl', 'data-bars')) > 0);
  const coloured = await page.$eval('#tl-canvas', c => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] && !(d[i] === d[i + 1] && d[i + 1] === d[i + 2])) n++;
    return n;
  });
  check('bars are coloured pixels on the canvas', coloured > 100, coloured);

  // Zoom and pan.
  const full = await range(page);
  await page.$eval('#timeline', s => s.scrollIntoView());
  const box = await page.$eval('#tl-canvas', c => { const r = c.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; });
  await page.mouse.move(box[0] + box[2] * 0.6, box[1] + 30);
  await page.mouse.wheel(0, -300);
  const zoomed = await range(page);
  check('wheel zoom narrows the visible time range', zoomed < full, `${zoomed} vs ${full}`);
  const t0 = +(await attr(page, '#tl', 'data-t0'));
  await page.mouse.down();
  await page.mouse.move(box[0] + box[2] * 0.3, box[1] + 30, { steps: 4 });
  await page.mouse.up();
  check('drag pans later in time', +(await attr(page, '#tl', 'data-t0')) > t0);
  await page.focus('#tl-canvas');
  await page.keyboard.press('+');
  check('+ key zooms in', (await range(page)) < zoomed);
  const t0k = +(await attr(page, '#tl', 'data-t0'));
  await page.keyboard.press('ArrowLeft');
  check('arrow key pans', +(await attr(page, '#tl', 'data-t0')) < t0k);
  await page.click('#tl-all');
  check('whole trace button restores the range', (await range(page)) === full);

  // Hover shows method, start and duration.
  const y = box[1] + 18 + 4;
  let tipText = '';
  for (let x = box[0] + 175; x < box[0] + box[2] && !tipText; x += 7) {
    await page.mouse.move(x, y);
    if (!(await page.$eval('#cg-tip', t => t.hidden))) tipText = await page.textContent('#cg-tip');
  }
  check('hover on a bar shows method, start and duration',
    /starts .* ms after/.test(tipText) && /duration .* ms \(wall clock\)/.test(tipText) &&
    !/thread time/.test(tipText), tipText);

  // Selecting a method in the profile table marks its calls.
  check('no marks before a selection', +(await attr(page, '#tl', 'data-marks')) === 0);
  await page.click('#flat tbody tr.row .mname');
  const marks = +(await attr(page, '#tl', 'data-marks'));
  check('selecting a table row marks its calls', marks > 0, marks);
  await page.evaluate(() => window.cgTimelineSelect(-1));
  check('cgTimelineSelect(-1) clears the marks', +(await attr(page, '#tl', 'data-marks')) === 0);
  if (shots) {
    await page.evaluate(() => window.cgTimelineSelect(0));
    await page.$eval('#timeline', s => s.scrollIntoView());
    await page.screenshot({ path: join(shots, 'timeline.png') });
  }

  // Thread selector drives the timeline.
  if (nthreads > 1) {
    await page.selectOption('#thread', '2');
    check('thread selector shows one row', +(await attr(page, '#tl', 'data-rows')) === 1);
    await page.selectOption('#thread', '0');
  }

  // Flame graph: click zooms, search reports a share.
  const before = await attr(page, '#fl', 'data-zoom');
  check('flame starts at all threads', before === 'all threads', before);
  await page.$eval('#flame', s => s.scrollIntoView());
  const fb = await page.$eval('#fl-canvas', c => { const r = c.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; });
  await page.mouse.click(fb[0] + 5, fb[1] + 16 * 2 + 8); // first frame under the first thread
  const after = await attr(page, '#fl', 'data-zoom');
  check('click zooms into a frame', after !== before && after !== '', after);
  await page.mouse.move(fb[0] + 5, fb[1] + 16 * 2 + 8);
  const ft = await page.textContent('#cg-tip');
  check('flame hover shows inclusive and exclusive ms', /inclusive .* ms/.test(ft) && /exclusive .* ms/.test(ft), ft);
  await page.click('#fl-reset');
  check('reset zoom', (await attr(page, '#fl', 'data-zoom')) === 'all threads');
  await page.fill('#fl-search', 'onCreate');
  const m = await page.textContent('#fl-matched');
  check('search shows the matched share', /Matched: \d+\.\d\d%/.test(m) && +(await attr(page, '#fl', 'data-matched')) > 0, m);
  if (shots) {
    await page.$eval('#flame', s => s.scrollIntoView());
    await page.screenshot({ path: join(shots, 'flame.png') });
  }
  await page.fill('#fl-search', '');
  check('no script errors', w.errors.length === 0, JSON.stringify(w.errors));
  check('no network request', w.requests.length === 0, JSON.stringify(w.requests));
  await page.close();
}

async function testBig(browser, file, timed) {
  const url = pathToFileURL(resolve(file)).href;
  const size = statSync(file).size;
  check(`big report under ${BIG_MAX} bytes`, size < BIG_MAX, size);
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const w = watch(page, url);
  const t = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#tl[data-bars]');
  await page.waitForSelector('#fl[data-frames]');
  const ms = Date.now() - t;
  console.log(`timeline: ${file}: ${size} bytes, loaded and drawn in ${ms} ms`);
  if (timed) check(`big report loads in under ${LOAD_MS} ms`, ms < LOAD_MS, ms);
  // A trace of only short calls keeps no span: busy strips then.
  check('big report draws bars or busy strips',
    +(await attr(page, '#tl', 'data-bars')) + +(await attr(page, '#tl', 'data-busy')) > 0);
  const full = await range(page);
  await page.focus('#tl-canvas');
  for (let i = 0; i < 20; i++) await page.keyboard.press('+');
  check('big report zooms', (await range(page)) < full / 50);
  check('big report: no script errors', w.errors.length === 0, JSON.stringify(w.errors));
  check('big report: no network request', w.requests.length === 0);
  await page.close();
}

const argv = process.argv.slice(2);
let shots = null;
const si = argv.indexOf('--shots');
if (si >= 0) { shots = argv[si + 1]; argv.splice(si, 2); }
const browser = await launch();
try {
  await testReport(browser, argv[0], shots);
  // The first big report is timed; others (the corpus) are checked for size and errors.
  for (let i = 1; i < argv.length; i++) await testBig(browser, argv[i], i === 1);
} catch (e) {
  check('exception', false, e && e.stack);
} finally {
  await browser.close();
}
done();
