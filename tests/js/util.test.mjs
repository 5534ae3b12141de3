// Unit tests of src/render/report/assets/util.js, the report scripts' pure helpers.
// Expected values are worked out by hand in the comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const U = require('../../src/render/report/assets/util.js');

test('ms: three decimals, never truncated', () => {
  assert.equal(U.ms(0), '0.000');
  assert.equal(U.ms(1), '0.001');
  assert.equal(U.ms(999), '0.999');
  assert.equal(U.ms(1000), '1.000');
  assert.equal(U.ms(1234567), '1234.567');
  // 2^53 - 1 us = 9007199254.740991 s: still exact
  assert.equal(U.ms(9007199254740991), '9007199254740.991');
  assert.equal(U.ms(-1500), '-1.500');
  // fractional microseconds (a zoomed timeline axis) round to the nearest
  assert.equal(U.ms(1499.5), '1.500');
  assert.equal(U.ms(1499.4), '1.499');
});

test('pct: two decimals, half up, exact', () => {
  assert.equal(U.pct(0, 0), '0.00');
  assert.equal(U.pct(5, 0), '0.00');
  assert.equal(U.pct(1, 3), '33.33'); // 33.333...
  assert.equal(U.pct(2, 3), '66.67'); // 66.666...
  assert.equal(U.pct(1, 8), '12.50');
  assert.equal(U.pct(1, 16), '6.25'); // 6.25 exactly
  assert.equal(U.pct(1, 1600), '0.06'); // 0.0625 rounds half up to 0.06
  assert.equal(U.pct(1, 800), '0.13'); // 0.125 -> 0.13 (half up, not to even)
  assert.equal(U.pct(1, 20000), '0.01'); // 0.005 -> 0.01
  assert.equal(U.pct(1, 20001), '0.00'); // just under 0.005
  assert.equal(U.pct(7, 7), '100.00');
  // past 2^53 the BigInt path: 2^60 of 2^61 is 50 %, (2^60+1)/(2^62) 25.00
  assert.equal(U.pct(2 ** 60, 2 ** 61), '50.00');
  assert.equal(U.pct(2 ** 52, 3 * 2 ** 52), '33.33');
});

test('matcher: smart case', () => {
  assert.equal(U.matcher(''), null);
  const low = U.matcher('view');
  assert.equal(low('android.view.View.draw', 'android.view.view.draw'), true);
  assert.equal(low('Looper.loop', 'looper.loop'), false);
  const up = U.matcher('View');
  assert.equal(up('android.view.View.draw', 'android.view.view.draw'), true);
  assert.equal(up('android.view.ViewGroup', 'android.view.viewgroup'), true);
  assert.equal(up('android.view.view', 'android.view.view'), false);
  // the query is a substring, not a pattern
  assert.equal(U.matcher('a.b')('axb', 'axb'), false);
  assert.equal(U.matcher('.<init>')('Foo.<init>', 'foo.<init>'), true);
});

test('nodeId: the method id in hex, as render_gv names nodes', () => {
  assert.equal(U.nodeId('0'), 'm0x0');
  assert.equal(U.nodeId('6d0'), 'm0x6d0');
  // past 2^53: the id travels as text, so no digit is lost
  assert.equal(U.nodeId('1fffffffffffff1'), 'm0x1fffffffffffff1');
});

test('offCpu: 1 - cpu / wall of inclusive time', () => {
  assert.equal(U.offCpu(1000, 250), '75.00');
  assert.equal(U.offCpu(3, 2), '33.33');
  assert.equal(U.offCpu(1000, 1000), '0.00');
  assert.equal(U.offCpu(1000, 1200), '0.00'); // cpu ahead of wall: none off-CPU
  assert.equal(U.offCpu(0, 0), '0.00');
});

test('graph scale: square-root position, temperature colour, pen width', () => {
  // 1 % of the total -> permille 10 -> sqrt(10000) = 100; 25 % -> sqrt(250000) = 500
  assert.equal(U.scalePos(1, 100), 100);
  assert.equal(U.scalePos(25, 100), 500);
  assert.equal(U.scalePos(0, 100), 0);
  assert.equal(U.scalePos(5, 0), 0);
  assert.equal(U.scalePos(200, 100), 1000);
  // 2 % -> permille 20 -> sqrt(20000) = 141.42 -> 141
  assert.equal(U.scalePos(2, 100), 141);
  // hue 240 (blue), 180, 120 (green), 0 (red); 140 of chroma plus 115
  assert.equal(U.tempColour(0), '#7373ff');
  assert.equal(U.tempColour(250), '#73ffff');
  assert.equal(U.tempColour(500), '#73ff73');
  assert.equal(U.tempColour(1000), '#ff7373');
  // pos 100: hue 240 - 24 = 216 (sector 3), t = 96, x = 140 * (60 - 36) / 60 = 56
  // -> (0, 56, 140) + 115
  assert.equal(U.tempColour(100), '#73abff');
  assert.equal(U.penWidth(0), '1.00');
  assert.equal(U.penWidth(333), '2.33');
  assert.equal(U.penWidth(1000), '5.00');
  assert.equal(U.heatClass(0), 0);
  assert.equal(U.heatClass(999), 9);
  assert.equal(U.heatClass(1000), 9);
  assert.equal(U.heatClass(450), 4);
});

// A view of three methods: 0 calls 1 and 2, thread 0 is the root of 0.
const view1 = {
  m: [0, 100, 10, 1, 0, 1, 60, 60, 2, 0, 2, 30, 30, 3, 1],
  e: [-1, 0, 1, 100, 0, 1, 2, 60, 0, 2, 3, 30],
};
// The same with the other clock: per method [.., oincl, oexcl], per edge [.., oincl].
const view2 = {
  m: [0, 100, 10, 1, 0, 40, 5, 1, 60, 60, 2, 0, 10, 10, 2, 30, 30, 3, 1, 25, 25],
  e: [-1, 0, 1, 100, 40, 0, 1, 2, 60, 10, 0, 2, 3, 30, 25],
};

test('buildView: rows, parents and children', () => {
  const t = U.buildView(view1, false);
  assert.equal(t.rows.length, 3);
  assert.deepEqual(t.rows.map((r) => [r.k, r.incl, r.excl, r.calls, r.rec, r.ord]),
    [[0, 100, 10, 1, 0, 0], [1, 60, 60, 2, 0, 1], [2, 30, 30, 3, 1, 2]]);
  assert.equal(t.byM.get(2).incl, 30);
  assert.deepEqual(t.par.get(0).map((e) => e.from), [-1]);
  assert.deepEqual(t.chi.get(0).map((e) => [e.to, e.calls, e.incl]), [[1, 2, 60], [2, 3, 30]]);
  assert.equal(t.chi.has(-1), false); // a root caller has no children list
  assert.equal(t.chi.has(1), false);
});

test('buildView: the other clock', () => {
  const t = U.buildView(view2, true, false);
  // wall primary: off-CPU of method 0 is 1 - 40/100
  assert.equal(t.rows[0].off, 0.6);
  assert.equal(t.rows[2].off, 5 / 30);
  // cpu primary: wall is the other clock, which is below cpu here: 0
  assert.equal(U.buildView(view2, true, true).rows[0].off, 0);
  assert.deepEqual(t.rows.map((r) => [r.k, r.incl, r.excl, r.oincl, r.oexcl]),
    [[0, 100, 10, 40, 5], [1, 60, 60, 10, 10], [2, 30, 30, 25, 25]]);
  assert.deepEqual(t.chi.get(0).map((e) => [e.to, e.incl, e.oincl]), [[1, 60, 10], [2, 30, 25]]);
  assert.deepEqual(t.par.get(0).map((e) => e.oincl), [40]);
});

function order(view, other, key, dir, shownOther) {
  const names = ['b.B.run', 'a.A.run', 'c.C.run'];
  return U.buildView(view, other).rows.sort(U.comparator(key, dir, names, shownOther))
    .map((r) => r.k);
}

test('comparator: each key, both directions, ties in data order', () => {
  assert.deepEqual(order(view1, false, 'incl', -1, false), [0, 1, 2]);
  assert.deepEqual(order(view1, false, 'incl', 1, false), [2, 1, 0]);
  assert.deepEqual(order(view1, false, 'excl', -1, false), [1, 2, 0]);
  assert.deepEqual(order(view1, false, 'exclp', 1, false), [0, 2, 1]);
  assert.deepEqual(order(view1, false, 'calls', -1, false), [2, 1, 0]);
  assert.deepEqual(order(view1, false, 'name', 1, false), [1, 0, 2]);
  assert.deepEqual(order(view1, false, 'name', -1, false), [2, 0, 1]);
  // ms/call: 100/1 = 100, 60/2 = 30, 30/3 = 10
  assert.deepEqual(order(view1, false, 'mpc', 1, false), [2, 1, 0]);
  // ties keep data order whatever the direction
  const tie = { m: [5, 10, 1, 1, 0, 6, 10, 1, 1, 0, 7, 10, 1, 1, 0], e: [] };
  assert.deepEqual(U.buildView(tie, false).rows.sort(U.comparator('incl', 1, [], false))
    .map((r) => r.k), [5, 6, 7]);
  assert.deepEqual(U.buildView(tie, false).rows.sort(U.comparator('incl', -1, [], false))
    .map((r) => r.k), [5, 6, 7]);
  // equal calls: more recursive calls sort higher
  const rec = { m: [5, 1, 1, 2, 0, 6, 1, 1, 2, 3], e: [] };
  assert.deepEqual(U.buildView(rec, false).rows.sort(U.comparator('calls', -1, [], false))
    .map((r) => r.k), [6, 5]);
});

test('comparator: shown clock and fixed-clock keys', () => {
  // other clock incl: 40, 10, 25; excl: 5, 10, 25
  assert.deepEqual(order(view2, true, 'incl', -1, true), [0, 2, 1]);
  assert.deepEqual(order(view2, true, 'excl', -1, true), [2, 1, 0]);
  assert.deepEqual(order(view2, true, 'oincl', -1, false), [0, 2, 1]);
  assert.deepEqual(order(view2, true, 'oexclp', -1, false), [2, 1, 0]);
  assert.deepEqual(order(view2, true, 'pincl', -1, true), [0, 1, 2]);
  assert.deepEqual(order(view2, true, 'pexcl', 1, true), [0, 2, 1]);
  // ms/call on the other clock: 40/1, 10/2 = 5, 25/3 = 8
  assert.deepEqual(order(view2, true, 'mpc', -1, true), [0, 2, 1]);
  // off-CPU (wall primary): 0.6, 50/60, 5/30
  assert.deepEqual(order(view2, true, 'off', -1, false), [1, 0, 2]);
});

test('openZoom: fit the width unless text gets too small', () => {
  // fits at 1:1: zoom 1 (never enlarged past 1:1 when text is readable)
  assert.equal(U.openZoom(800, 1000, 13.3, 14), 1);
  // 2000 px in a 1000 px box: 0.5 would make 13.33 px text 6.67 px, under
  // 80 % of 14 = 11.2 px; 11.2 / 13.3333 = 0.84 -> 0.840 + 0.001
  assert.equal(U.openZoom(2000, 1000, 40 / 3, 14), 0.841);
  // 1100 px in a 1000 px box: 0.909 keeps 12.1 px text: fit the width
  assert.equal(U.openZoom(1100, 1000, 40 / 3, 14), 1000 / 1100);
  // tiny text (8 pt = 10.67 px): even 1:1 is too small, so above 1
  assert.equal(U.openZoom(500, 1000, 32 / 3, 14), 1.051);
  // no text found: fit the width
  assert.equal(U.openZoom(2000, 1000, 0, 14), 0.5);
});

test('scrollFor: a point at a fraction of the box, within the content', () => {
  assert.equal(U.scrollFor(1000, 400, 3000, 0.5), 800);
  assert.equal(U.scrollFor(100, 400, 3000, 0.5), 0); // not before the start
  assert.equal(U.scrollFor(2900, 400, 3000, 0.5), 2600); // not past the end
  assert.equal(U.scrollFor(1000, 400, 300, 0.2), 0); // content smaller than the box
  assert.equal(U.scrollFor(1000, 500, 3000, 0.2), 900);
});

// The timeline data of tests/browser/clocks.desc as timeline.c writes it
// (spans: start, dur, k, depth, other start, other dur), by hand:
// main wall 0..1300 onCreate (k 0), 100..900 wait (k 1), 900..1200 parse
// (k 3); cpu 0..400, 50..60, 60..360.  Thread 2: frame (k 2) wall 0..500,
// cpu 0..450; its first event at wall 7 and cpu 3 to check the offsets.
const TL = { other: 1, threads: [
  { i: 0, first: 0, dur: 1300, ofirst: 0, odur: 400,
    spans: [0, 1300, 0, 0, 0, 400, 100, 800, 1, 1, 50, 10, 900, 300, 3, 1, 60, 300],
    busy: { o: 0, w: 1, rows: [] }, obusy: { o: 0, w: 2, rows: [] } },
  { i: 1, first: 7, dur: 500, ofirst: 3, odur: 450, spans: [0, 500, 2, 0, 0, 450] }] };

test('tlThreads: the primary clock', () => {
  const t = U.tlThreads(TL, false, false);
  assert.deepEqual(t.map(x => [x.i, x.first, x.dur]), [[0, 0, 1300], [1, 7, 500]]);
  assert.deepEqual(t[0].spans, [0, 1300, 0, 0, 100, 800, 1, 1, 900, 300, 3, 1]);
  assert.equal(t[0].busy.w, 1);
  assert.equal(t[1].busy, null);
});

test('tlThreads: the other clock, each row from its own first event', () => {
  const t = U.tlThreads(TL, true, true);
  assert.deepEqual(t.map(x => [x.i, x.first, x.dur]), [[0, 0, 400], [1, 0, 450]]);
  assert.deepEqual(t[0].spans, [0, 400, 0, 0, 50, 10, 1, 1, 60, 300, 3, 1]);
  assert.deepEqual(t[1].spans, [0, 450, 2, 0]);
  assert.equal(t[0].busy.w, 2);
  // the other clock's own first events when rows are aligned by time
  assert.deepEqual(U.tlThreads(TL, true, false).map(x => x.first), [0, 3]);
});

test('tlThreads: a single-clock trace has only its clock', () => {
  const one = { other: 0, threads: [{ i: 0, first: 5, dur: 9, spans: [1, 2, 0, 0, 3, 4, 1, 1] }] };
  const t = U.tlThreads(one, true, false);
  assert.deepEqual([t[0].first, t[0].dur, t[0].spans], [5, 9, [1, 2, 0, 0, 3, 4, 1, 1]]);
});

// The flame data of main in clocks.desc (render_flame.c, dual): thread 0,
// wall 1300, cpu 400; root (-1, 0, 0, 1 child, 0, 0); onCreate (0, 1300,
// 200, 2, 400, 90); wait (1, 800, 800, 0, 10, 10); parse (3, 300, 300, 0,
// 300, 300).
const FLAME = [0, 1300, 400, -1, 0, 0, 1, 0, 0, 0, 1300, 200, 2, 400, 90,
  1, 800, 800, 0, 10, 10, 3, 300, 300, 0, 300, 300];
const shape = n => [n.k, n.incl, n.excl, n.kids.map(shape)];

test('flameParse and flameOn: both clocks, children re-ordered', () => {
  const r = U.flameParse(FLAME, true);
  assert.equal(r.thread, 0);
  U.flameOn(r, false);
  // wall: the root's own time is 1300 - 1300 = 0; wait (800) before parse (300)
  assert.deepEqual(shape(r), [-1, 1300, 0, [[0, 1300, 200, [[1, 800, 800, []], [3, 300, 300, []]]]]]);
  U.flameOn(r, true);
  // cpu: parse (300) before wait (10); root own 400 - 400 = 0
  assert.deepEqual(shape(r), [-1, 400, 0, [[0, 400, 90, [[3, 300, 300, []], [1, 10, 10, []]]]]]);
  U.flameOn(r, false);
  assert.deepEqual(shape(r), [-1, 1300, 0, [[0, 1300, 200, [[1, 800, 800, []], [3, 300, 300, []]]]]]);
  assert.equal(r.kids[0].parent, r);
});

test('flameOn: ties keep the data order', () => {
  // wall 10 = 10 (b before a in the data), cpu 5 = 5
  const r = U.flameParse([0, 20, 10, -1, 0, 0, 2, 0, 0, 7, 10, 10, 0, 5, 5, 4, 10, 10, 0, 5, 5], true);
  U.flameOn(r, true);
  assert.deepEqual(r.kids.map(k => k.k), [7, 4]);
  // single clock: 4 numbers a frame, the thread's time its own
  const s = U.flameParse([2, 9, -1, 0, 0, 1, 5, 6, 6, 0], false);
  U.flameOn(s, true);
  assert.deepEqual(shape(s), [-1, 9, 3, [[5, 6, 6, []]]]);
});

test('clockLabel', () => {
  assert.equal(U.clockLabel('cpu'), 'thread CPU');
  assert.equal(U.clockLabel('wall'), 'wall');
});

test('half: a median given twice over, exact', () => {
  assert.equal(U.half(2468, false), '1.234'); // 1234 us
  assert.equal(U.half(2469, false), '1.2345'); // 1234.5 us: a fourth decimal
  assert.equal(U.half(1, false), '0.0005');
  // shares in ppb: 118600000 ppb = 11.86 %; 2 x 5000 ppb = 0.0005 % -> 0.001 (half up)
  assert.equal(U.half(2 * 118600000, true), '11.860%');
  assert.equal(U.half(2 * 5000, true), '0.001%');
  assert.equal(U.half(2 * 4999, true), '0.000%');
});

test('rangePct: farthest run from the median, in % of it', () => {
  // median 100 (200 twice), runs 95..103: 5 % below is the farther
  assert.equal(U.rangePct(200, 95, 103), '\u00b15%');
  assert.equal(U.rangePct(200, 100, 100), '\u00b10%');
  assert.equal(U.rangePct(0, 0, 0), '');
});

test('stripX: a linear scale with padding, the middle for one value', () => {
  assert.equal(U.stripX(10, 10, 20, 200, 6), 6);
  assert.equal(U.stripX(20, 10, 20, 200, 6), 194);
  assert.equal(U.stripX(15, 10, 20, 200, 6), 100);
  assert.equal(U.stripX(7, 7, 7, 200, 6), 100);
});
