// clocks.mjs CLOCKS.html - the clock switch of the HTML report in headless
// Chromium.  CLOCKS.html is the report of tests/browser/clocks.desc made
// with -t 0 (run.sh does that).  The expected numbers are worked out by hand
// from clocks.desc:
//   wall: onCreate incl 1300 excl 200, wait 800, parse 300, frame 500; total 1800
//   cpu:  onCreate incl  400 excl  90, wait  10, parse 300, frame 450; total  850
// Closes with "clocks: N passed, N failed"; exits 1 when anything failed.
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL clocks ${name}${detail !== undefined ? ': ' + detail : ''}`);
  }
}
function eq(name, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  check(name, g === w, `got ${g}, want ${w}`);
}

// Names of the visible rows, top to bottom.
const order = page => page.$$eval('#flat tbody tr.row', trs =>
  trs.map(tr => tr.querySelector('.mname').textContent.replace('com.example.', '')
    .replace('java.lang.', '')));
// The fill of a node's shape and the stroke of an edge's path, by SVG title.
const nodeFill = (page, id) => page.$eval(`#graph-0 g[id="${id}"]`, g =>
  g.querySelector('polygon, ellipse, path').getAttribute('fill'));
const edgeStroke = (page, title) => page.$$eval('#graph-0 g.edge', (gs, t) => {
  const g = gs.find(x => x.querySelector('title').textContent === t);
  const p = g && g.querySelector('path');
  return p ? [p.getAttribute('stroke'), p.getAttribute('stroke-width')] : null;
}, title);

// Hover the canvas at (fx of its width, y px) and read the tooltip lines.
async function tipAt(page, canvas, fx, y) {
  await page.locator(canvas).scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  const box = await page.locator(canvas).boundingBox();
  await page.mouse.move(box.x + box.width * fx, box.y + y);
  return page.$$eval('#cg-tip div', ds => ds.map(d => d.textContent));
}
// The timeline's first row (main), depth 0, at the middle of the plot:
// onCreate, 0 to 1300 us of a 1300 us range.  LABEL 170 px, 8 px margin.
async function timelineTip(page) {
  const w = (await page.locator('#tl-canvas').boundingBox()).width;
  return tipAt(page, '#tl-canvas', (170 + (w - 178) / 2) / w, 18 + 5);
}
// The flame graph's third row (methods) at 30 % of its width: onCreate,
// under main, which takes the first 1300/1800 of the width.
const flameTip = page => tipAt(page, '#fl-canvas', 0.3, 2 * 16 + 8);

async function main() {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node clocks.mjs CLOCKS.html');
    process.exit(2);
  }
  const url = pathToFileURL(resolve(file)).href;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const requests = [], errors = [];
    page.on('request', r => { if (r.url() !== url) requests.push(r.url()); });
    page.on('pageerror', e => errors.push(String(e)));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#flat tbody tr.row');

    // Both clocks' columns, cpu first as in Traceview, and the off-CPU share.
    const heads = await page.$$eval('#flat th', ths => ths.map(th => th.textContent));
    eq('both clocks in the header', heads, ['Method', 'Incl cpu ms', 'Incl %', 'Excl cpu ms',
      'Excl %', 'Incl wall ms', 'Incl %', 'Excl wall ms', 'Excl %', 'Off-CPU %', 'Calls+Rec',
      'ms/call']);
    const onCreate = await page.$$eval('#row-m0x4 td.num', tds => tds.map(td => td.textContent));
    // cpu 400/850 = 47.06 %, 90/850 = 10.59 %; wall 1300/1800 = 72.22 %,
    // 200/1800 = 11.11 %; off-CPU 1 - 400/1300 = 69.23 %
    eq('onCreate on both clocks', onCreate, ['0.400', '47.06', '0.090', '10.59', '1.300',
      '72.22', '0.200', '11.11', '69.23', '1+0', '1.300']);
    eq('switch starts on the primary clock', await page.$eval('#clock', s => s.value), 'wall');
    eq('table sorted by wall inclusive time', await order(page),
      ['App.onCreate', 'Object.wait', 'Draw.frame', 'Parser.parse']);
    const fill0 = await nodeFill(page, 'm0x4');
    const edge0 = await edgeStroke(page, 't1->m0x4');
    const tl0 = await timelineTip(page);
    eq('timeline tooltip names the clock', tl0, ['com.example.App.onCreate',
      'starts 0.000 ms after the thread\'s first event', 'duration 1.300 ms (wall clock)',
      'method in this view, wall clock: incl 1.300 ms, excl 0.200 ms']);
    const fl0 = await flameTip(page);
    eq('flame tooltip names the clock', fl0, ['com.example.App.onCreate',
      'inclusive 1.300 ms (72.22%, wall clock)', 'exclusive 0.200 ms (11.11%)',
      'method in this view, wall clock: incl 1.300 ms, excl 0.200 ms']);

    // Switch to cpu: re-sorted in place, recoloured, tooltips follow.
    await page.selectOption('#clock', 'cpu');
    eq('table re-sorted by cpu inclusive time', await order(page),
      ['Draw.frame', 'App.onCreate', 'Parser.parse', 'Object.wait']);
    eq('the cpu column is the sorted one', await page.$$eval('#flat th[aria-sort]', ths =>
      ths.map(th => th.getAttribute('data-key') + ' ' + th.getAttribute('data-clock'))),
      ['incl cpu']);
    check('matched line names the clock', (await page.textContent('#matched'))
      .includes('total 0.850 ms (cpu clock)'));
    // 400/850: permille 470, scale sqrt(470000) = 685, hue 240 - 164 = 76:
    // x = 140 * (60 - 16) / 60 = 102 -> (102, 140, 0) + 115 = #d9ff73.
    eq('graph node recoloured on the cpu clock', await nodeFill(page, 'm0x4'), '#d9ff73');
    // The root edge into onCreate: the same share; pen 1 + 4 * 0.685 = 3.74.
    eq('graph edge recoloured on the cpu clock', await edgeStroke(page, 't1->m0x4'),
      ['#d9ff73', '3.74']);
    // frame 450/850: permille 529, scale 727, hue 66, x = 126 -> #f1ff73.
    eq('other node recoloured', await nodeFill(page, 'm0x14'), '#f1ff73');
    eq('timeline tooltip follows the switch', (await timelineTip(page)).slice(2),
      ['duration 1.300 ms (wall clock)', 'method in this view, cpu clock: incl 0.400 ms, excl 0.090 ms']);
    eq('flame tooltip follows the switch', (await flameTip(page)).slice(3),
      ['method in this view, cpu clock: incl 0.400 ms, excl 0.090 ms']);
    await page.click('#row-m0x4 button.tog');
    const det = await page.$$eval('#row-m0x4 + tr.detail tr', trs =>
      trs.map(tr => Array.from(tr.children, td => td.textContent)));
    // children by cpu time: parse 300 (75.00 % of 400), wait 10 (2.50 %)
    eq('parents and children on both clocks, by the shown clock', det, [
      ['', 'calls', '% incl cpu', 'incl cpu ms', 'incl wall ms', 'method'],
      ['parent', '1', '100.00', '0.400', '1.300', 'main (thread 1)'],
      ['method', '1+0', '100.00', '0.400', '1.300', 'com.example.App.onCreate'],
      ['child', '1', '75.00', '0.300', '0.300', 'com.example.Parser.parse'],
      ['child', '1', '2.50', '0.010', '0.800', 'java.lang.Object.wait'],
    ]);
    await page.click('#flat th[data-key="off"] button');
    eq('sorted by off-CPU share', await order(page),
      ['Object.wait', 'App.onCreate', 'Draw.frame', 'Parser.parse']);
    await page.click('#flat th[data-key="excl"][data-clock="wall"] button');
    eq('sorted by the other clock\'s column', await order(page),
      ['Object.wait', 'Draw.frame', 'Parser.parse', 'App.onCreate']);
    await page.click('#flat th[data-key="incl"][data-clock="cpu"] button');

    // Back to wall: Graphviz's own colours again.
    await page.selectOption('#clock', 'wall');
    eq('back on wall: order', await order(page),
      ['App.onCreate', 'Object.wait', 'Draw.frame', 'Parser.parse']);
    eq('back on wall: node colour as drawn', await nodeFill(page, 'm0x4'), fill0);
    eq('back on wall: edge as drawn', await edgeStroke(page, 't1->m0x4'), edge0);
    eq('back on wall: timeline tooltip', await timelineTip(page), tl0);

    // Per-thread graph: recoloured when shown on the cpu clock.
    await page.selectOption('#clock', 'cpu');
    await page.selectOption('#thread', '2');
    // thread 2 alone: frame is 450 of 450 -> scale 1000, red #ff7373
    const vis = await page.$$eval('#graphs div.graphview', ds => ds.filter(d => !d.hidden)
      .map(d => [d.id, d.getAttribute('data-prefix')]));
    eq('one thread graph shown', vis.length, 1);
    if (vis.length === 1) {
      eq('thread graph recoloured', await page.$eval(`#${vis[0][0]} g[id="${vis[0][1]}m0x14"]`,
        g => g.querySelector('polygon, ellipse, path').getAttribute('fill')), '#ff7373');
    }
    eq('no script errors', errors, []);
    eq('no network request', requests, []);
    await page.close();
  } catch (e) {
    check('run', false, e && e.stack ? e.stack : String(e));
  } finally {
    await browser.close();
  }
  console.log(`clocks: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
