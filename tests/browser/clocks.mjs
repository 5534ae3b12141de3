// clocks.mjs CLOCKS.html - the clock switch of the HTML report in headless
// Chromium.  CLOCKS.html is the report of tests/browser/clocks.desc made
// with -t 0 (run.sh does that).  The expected numbers are worked out by hand
// from clocks.desc:
//   wall: onCreate incl 1300 excl 200, wait 800, parse 300, frame 500; total 1800
//   cpu:  onCreate incl  400 excl  90, wait  10, parse 300, frame 450; total  850
// Timeline bars (start, duration, us after the thread's first event):
//   wall: main onCreate 0+1300 (depth 0), wait 100+800, parse 900+300
//         (depth 1); RenderThread frame 0+500; range 1300
//   cpu:  main onCreate 0+400, wait 50+10, parse 60+300; frame 0+450;
//         range 450 (each row from its own first event)
// Flame graph rows (x and width as shares of the canvas width W):
//   wall, of 1800: main 0+1300, RenderThread 1300+500; onCreate 0+1300,
//         frame 1300+500; wait 0+800, parse 800+300 (widest first)
//   cpu, of 850:   main 0+400, RenderThread 400+450; onCreate 0+400,
//         frame 400+450; parse 0+300, wait 300+10 (the order flips)
// Closes with "clocks: N passed, N failed"; exits 1 when anything failed.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch } from './lib.mjs';

const { check, eq, done } = checks('clocks');

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

const short = n => n.replace('com.example.', '').replace('java.lang.', '');
// The timeline's drawn bars as [thread, method, depth, start, dur] (sorted)
// and each bar's x0/x1 against the hand-computed position on a range of
// `range` us: x = 170 + t / range * (canvas width - 178).
async function tlBars(page, range) {
  const r = await page.evaluate(() => ({
    bars: window.cgTimelineBars(), w: document.getElementById('tl-canvas').width,
    names: Array.from(document.querySelectorAll('#flat tbody tr.row'), tr =>
      [+tr.getAttribute('data-k'), tr.querySelector('.mname').textContent]),
  }));
  const names = new Map(r.names), plot = r.w - 178, off = [];
  const x = t => 170 + t / range * plot;
  for (const b of r.bars) {
    if (Math.abs(b.x0 - x(b.start)) > 0.01 || Math.abs(b.x1 - x(b.start + b.dur)) > 0.01)
      off.push([short(names.get(b.k)), b.x0, b.x1, x(b.start), x(b.start + b.dur)]);
  }
  return { bars: r.bars.map(b => [b.thread, short(names.get(b.k)), b.depth, b.start, b.dur]).sort(),
    off, raw: r.bars, names };
}
// The flame graph's frames below the all-threads row as [row, name, x / W,
// width / W] with shares rounded to 1e-6, and W.
async function flFrames(page) {
  const r = await page.evaluate(() => ({ f: window.cgFlameFrames(),
    w: document.getElementById('fl-canvas').width }));
  return r.f.filter(f => f.d > 0).map(f => [f.d, short(f.name), Math.round(f.x / r.w * 1e6) / 1e6,
    Math.round(f.w / r.w * 1e6) / 1e6]);
}
const share = (a, b) => Math.round(a / b * 1e6) / 1e6;
// The RGBA of the timeline canvas at the middle of a drawn bar.
const tlPixel = (page, b) => page.evaluate(b => Array.from(document.getElementById('tl-canvas')
  .getContext('2d').getImageData(Math.floor((b.x0 + b.x1) / 2), b.y + 4, 1, 1).data), b);

async function main() {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node clocks.mjs CLOCKS.html');
    process.exit(2);
  }
  const url = pathToFileURL(resolve(file)).href;
  const browser = await launch();
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
      'starts 0.000 ms after the thread\'s first event (wall clock)', 'duration 1.300 ms (wall clock)',
      'method in this view, wall clock: incl 1.300 ms, excl 0.200 ms']);
    const fl0 = await flameTip(page);
    eq('flame tooltip names the clock', fl0, ['com.example.App.onCreate',
      'inclusive 1.300 ms (72.22%, wall clock)', 'exclusive 0.200 ms (11.11%)',
      'method in this view, wall clock: incl 1.300 ms, excl 0.200 ms']);

    // Timeline and flame graph geometry on the wall clock.
    const tlWall = await tlBars(page, 1300);
    eq('timeline bars on the wall clock', tlWall.bars, [[0, 'App.onCreate', 0, 0, 1300],
      [0, 'Object.wait', 1, 100, 800], [0, 'Parser.parse', 1, 900, 300], [1, 'Draw.frame', 0, 0, 500]]);
    eq('timeline bars placed on the wall range', tlWall.off, []);
    const flWall = await flFrames(page);
    eq('flame frames on the wall clock', flWall, [
      [1, 'main (thread 1)', 0, share(1300, 1800)], [2, 'App.onCreate', 0, share(1300, 1800)],
      [3, 'Object.wait', 0, share(800, 1800)], [3, 'Parser.parse', share(800, 1800), share(300, 1800)],
      [1, 'RenderThread (thread 2)', share(1300, 1800), share(500, 1800)],
      [2, 'Draw.frame', share(1300, 1800), share(500, 1800)]]);
    const waitBar = bars => bars.raw.find(b => bars.names.get(b.k).endsWith('Object.wait'));
    const parseBar = bars => bars.raw.find(b => bars.names.get(b.k).endsWith('Parser.parse'));
    const waitPx = await tlPixel(page, waitBar(tlWall)), parsePx = await tlPixel(page, parseBar(tlWall));
    check('wait and parse bars drawn in their own colours', JSON.stringify(waitPx) !== JSON.stringify(parsePx),
      JSON.stringify([waitPx, parsePx]));

    // Switch to cpu: re-sorted in place, recoloured, tooltips follow.
    await page.selectOption('#clock', 'cpu');
    const tlCpu = await tlBars(page, 450);
    eq('timeline bars on the cpu clock', tlCpu.bars, [[0, 'App.onCreate', 0, 0, 400],
      [0, 'Object.wait', 1, 50, 10], [0, 'Parser.parse', 1, 60, 300], [1, 'Draw.frame', 0, 0, 450]]);
    eq('timeline bars placed on the cpu range', tlCpu.off, []);
    eq('timeline says its clock', await page.getAttribute('#tl', 'data-clock'), 'cpu');
    // The canvas itself: at the cpu positions, each bar's pixels are its
    // method's colour (the wall drawing's).
    eq('cpu wait bar painted at its cpu place', await tlPixel(page, waitBar(tlCpu)), waitPx);
    eq('cpu parse bar painted at its cpu place', await tlPixel(page, parseBar(tlCpu)), parsePx);
    eq('flame frames on the cpu clock, re-ordered', await flFrames(page), [
      [1, 'main (thread 1)', 0, share(400, 850)], [2, 'App.onCreate', 0, share(400, 850)],
      [3, 'Parser.parse', 0, share(300, 850)], [3, 'Object.wait', share(300, 850), share(10, 850)],
      [1, 'RenderThread (thread 2)', share(400, 850), share(450, 850)],
      [2, 'Draw.frame', share(400, 850), share(450, 850)]]);
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
    eq('timeline tooltip follows the switch', (await timelineTip(page)).slice(1),
      ['starts 0.000 ms after the thread\'s first event (thread CPU clock)',
        'duration 0.400 ms (thread CPU clock)',
        'method in this view, thread CPU clock: incl 0.400 ms, excl 0.090 ms']);
    // 400 of all threads' 850 us of cpu time.
    eq('flame tooltip follows the switch', (await flameTip(page)).slice(1),
      ['inclusive 0.400 ms (47.06%, thread CPU clock)', 'exclusive 0.090 ms (10.59%)',
        'method in this view, thread CPU clock: incl 0.400 ms, excl 0.090 ms']);
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
    eq('back on wall: timeline bars restored', await tlBars(page, 1300).then(b => [b.bars, b.off]),
      [tlWall.bars, []]);
    eq('back on wall: flame frames restored', await flFrames(page), flWall);
    eq('back on wall: wait bar painted again', await tlPixel(page, waitBar(tlWall)), waitPx);

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
  done();
}

main();
