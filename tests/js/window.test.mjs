// Unit tests of src/render/report/assets/window.js, the page's replay of a window
// of the trace from the call log.  Every expected number is worked out by
// hand in the comments, from the window definition of the man page
// (--range) and the model's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const W = require('../../src/render/report/assets/window.js');
const E = W.ENTER, X = W.EXIT;

// Records { x, k, w, c } from [x, k, w, c] rows.
const recs = rows => rows.map(([x, k, w, c]) => ({ x, k, w, c }));
const ev = list => list.map(e => [e.x, e.k, e.w, e.c]);
// A view's methods as { k: [incl, excl, calls, rec, oincl, oexcl] } and
// edges as { 'from>to': [calls, incl, oincl] } (dual views).
function methods(v) {
  const out = {};
  for (let i = 0; i < v.m.length; i += 7) out[v.m[i]] = v.m.slice(i + 1, i + 7);
  return out;
}
function edges(v) {
  const out = {};
  for (let i = 0; i < v.e.length; i += 5) out[v.e[i] + '>' + v.e[i + 1]] = v.e.slice(i + 2, i + 5);
  return out;
}
const OPT = { primary: 0, dual: true, nlisted: 1, nviews: 2, flameFraction: 5000, flameDepth: 256 };

test('decode: codes and deltas back to records; leaves after the last record close open frames', () => {
  // enter 0 at (100, 10), enter 1 at (105, 12), leave at (115, 15): exit of 1,
  // leave at (120, 16): exit of 0.
  const d = W.decode([0, 4, 100, 10, 0, 0, 0, 1, 5, 2, -1, 10, 3, -1, 5, 1]);
  assert.deepEqual(ev(d.recs), [[E, 0, 100, 10], [E, 1, 105, 12], [X, 1, 115, 15], [X, 0, 120, 16]]);
  // 3 records: the last leave closes frame 0 at the end, it is no record.
  assert.deepEqual(ev(W.decode([0, 3, 100, 10, 0, 0, 0, 1, 5, 2, -1, 10, 3, -1, 0, 0]).recs),
    [[E, 0, 100, 10], [E, 1, 105, 12], [X, 1, 115, 15]]);
  // -2 - 4: an exit of method 4, entered before tracing, on an empty stack.
  assert.deepEqual(ev(W.decode([2, 1, 7, 3, -6, 0, 0]).recs), [[X, 4, 7, 3]]);
  assert.equal(W.decode([2, 1, 7, 3, -6, 0, 0]).pi, 2);
});

test('decode: a log that is not one event per record is refused', () => {
  assert.equal(W.decode([0, 2, 0, 0, 0, 0, 0]), null);            // fewer events than records
  assert.equal(W.decode([0, 1, 0, 0, 0, 0, 0, 0, 1, 1]), null);   // an enter after the last record
  assert.equal(W.decode([0, 1, 0, 0, 0, 0, 0]), null);            // a frame left open with no leave
  assert.equal(W.decode([0, 1, 0, 0, -1, 0, 0]), null);           // a leave on an empty stack
  assert.equal(W.decode([0, 2, 0, 0, 0, 0, 0, -3, 1, 1]), null);  // "entered before tracing" under a frame
});

// a from 100 to 200, b 110-130 and c 140-150 inside it (wall; cpu beside).
const ABC = recs([[E, 0, 100, 10], [E, 1, 110, 12], [X, 1, 130, 20], [E, 2, 140, 22], [X, 2, 150, 25],
  [X, 0, 200, 30]]);

test('clip: frames open at F enter at F with the cpu of the first record in the window; open at T close there', () => {
  // Before 120: a and b entered (shadow a, b).  The first record in
  // [120, 145] is b's exit at (130, 20): a and b enter at (120, 20).  c's
  // exit at 150 is past T: c and a close at (145, 22), the cpu of c's enter.
  assert.deepEqual(ev(W.clip(ABC, 120, 145)), [[E, 0, 120, 20], [E, 1, 120, 20], [X, 1, 130, 20],
    [E, 2, 140, 22], [X, 2, 145, 22], [X, 0, 145, 22]]);
  // The whole trace: the records themselves.
  assert.deepEqual(W.clip(ABC, -Infinity, Infinity), ABC);
  assert.deepEqual(W.clip(ABC, 100, 200), ABC);
});

test('clip: a thread idle through the window, and threads not in it', () => {
  // Inside a from 160 to 170: no record there, one after; a enters at 160
  // and closes at 170 at the cpu of the last record before 160 (c's exit, 25).
  assert.deepEqual(ev(W.clip(ABC, 160, 170)), [[E, 0, 160, 25], [X, 0, 170, 25]]);
  // Records only after the window, nothing open: not in it.
  assert.equal(W.clip(ABC, 10, 20), null);
  // Records end before the window: not in it.
  assert.equal(W.clip(ABC, 300, 400), null);
  // Records end inside the window: nothing closes at T (the whole-trace
  // rule).  a and c are open at 145: entered there at the cpu of c's exit.
  assert.deepEqual(ev(W.clip(ABC, 145, 300)), [[E, 0, 145, 25], [E, 2, 145, 25], [X, 2, 150, 25],
    [X, 0, 200, 30]]);
});

test('clip: an exit of a method not on the shadow stack is ignored; a deeper one pops down to it', () => {
  // z exits at 5 (entered before tracing): not on the shadow stack.  a, b
  // entered; a's exit at 20 pops b and a.  c at 25 is the only frame left.
  const r = recs([[X, 9, 5, 1], [E, 0, 10, 2], [E, 1, 12, 3], [X, 0, 20, 4], [E, 2, 25, 5], [X, 2, 40, 6]]);
  assert.deepEqual(ev(W.clip(r, 30, 50)), [[E, 2, 30, 6], [X, 2, 40, 6]]);
});

test('model and compute: a window cutting calls at both edges, both clocks', () => {
  // Events of clip(ABC, 120, 145): thread time wall 145 - 120 = 25, cpu 22 - 20 = 2.
  // a: incl 25 / 2, excl 25 - 10 (b) - 5 (c) = 10 / 2 - 0 - 0 = 2.
  // b: 120-130 wall, cpu 20-20: 10 / 0.  c: 140-145, cpu 22-22: 5 / 0.
  const r = W.compute([{ pi: 0, li: 0, recs: ABC }], 120, 145, OPT);
  assert.deepEqual(r.views[0].total, 25);
  assert.deepEqual(r.views[0].ototal, 2);
  assert.deepEqual(methods(r.views[0]), { 0: [25, 10, 1, 0, 2, 2], 1: [10, 10, 1, 0, 0, 0], 2: [5, 5, 1, 0, 0, 0] });
  assert.deepEqual(edges(r.views[0]), { '-1>0': [1, 25, 2], '0>1': [1, 10, 0], '0>2': [1, 5, 0] });
  // Thread 0's own view: the same numbers, its root edge from -1 - 0.
  assert.deepEqual(methods(r.views[1]), methods(r.views[0]));
  assert.equal(r.views[1].t, 0);
  assert.equal(r.calls, 3);
  assert.deepEqual(r.threads, [{ pi: 0, time: [25, 2] }]);
});

test('model: exits on an empty stack adopt all the thread ran before, the last adopted outermost', () => {
  // b 100-110, then a leaves at 120 and z at 130, both entered before
  // tracing: z spans 100-130 around a (100-120) around b.
  // z: incl 30 / 3, excl 30 - 20 = 10 / 3 - 2 = 1; a: 20 / 2, excl 10 / 1;
  // b: 10 / 1.
  const r = recs([[E, 1, 100, 1], [X, 1, 110, 2], [X, 0, 120, 3], [X, 9, 130, 4]]);
  const c = W.compute([{ pi: 0, li: 0, recs: r }], -Infinity, Infinity, OPT);
  assert.deepEqual(methods(c.views[0]), { 9: [30, 10, 1, 0, 3, 1], 0: [20, 10, 1, 0, 2, 1], 1: [10, 10, 1, 0, 1, 1] });
  assert.deepEqual(edges(c.views[0]), { '-1>9': [1, 30, 3], '9>0': [1, 20, 2], '0>1': [1, 10, 1] });
  // The tree: root (thread time 30 / 3, own 0), z, a, b in a line.
  assert.deepEqual(c.trees[0], [0, -1, 30, 0, 0, 3, 0, 1, 9, 30, 10, 1, 3, 1, 1, 0, 20, 10, 1, 2, 1, 1,
    1, 10, 10, 1, 1, 1, 0]);
});

test('model: recursion counts the outermost activation only, across the window edge too', () => {
  // a 0-30 calls a 10-20: incl 30 / 3, one call and one recursive; excl
  // 20 + 10 = 30 / 2 + 1 = 3; root>a carries the time, a>a none.
  const r = recs([[E, 0, 0, 0], [E, 0, 10, 1], [X, 0, 20, 2], [X, 0, 30, 3]]);
  let c = W.compute([{ pi: 0, li: 0, recs: r }], -Infinity, Infinity, OPT);
  assert.deepEqual(methods(c.views[0]), { 0: [30, 30, 1, 1, 3, 3] });
  assert.deepEqual(edges(c.views[0]), { '-1>0': [1, 30, 3], '0>0': [1, 0, 0] });
  // From 15: both activations open, entered at (15, 2) (the cpu of the exit
  // at 20); inner 15-20 (cpu 0), outer 15-30 (cpu 1).
  c = W.compute([{ pi: 0, li: 0, recs: r }], 15, Infinity, OPT);
  assert.deepEqual(methods(c.views[0]), { 0: [15, 15, 1, 1, 1, 1] });
  assert.deepEqual(edges(c.views[0]), { '-1>0': [1, 15, 1], '0>0': [1, 0, 0] });
});

test('compute: a folded thread adds to the all-threads view under the folded entry, with no view of its own', () => {
  // Thread pi 0 runs a 0-10; a folded thread (pi -1) runs a 0-4: all
  // threads: a incl 14, 2 calls; root edges -1 - 0 and -1 - nlisted (-2).
  const t0 = { pi: 0, li: 0, recs: recs([[E, 0, 0, 0], [X, 0, 10, 5]]) };
  const t1 = { pi: -1, li: 1, recs: recs([[E, 0, 0, 0], [X, 0, 4, 1]]) };
  const c = W.compute([t0, t1], -Infinity, Infinity, OPT);
  assert.equal(c.views.length, 2);
  assert.equal(c.views[0].total, 14);
  assert.deepEqual(methods(c.views[0]), { 0: [14, 14, 2, 0, 6, 6] });
  assert.deepEqual(edges(c.views[0]), { '-1>0': [1, 10, 5], '-2>0': [1, 4, 1] });
  assert.deepEqual(methods(c.views[1]), { 0: [10, 10, 1, 0, 5, 5] });
  assert.equal(c.trees.length, 1);
});

test('compute: single clock views have no other clock; a thread not in the window has an empty view', () => {
  const t0 = { pi: 0, li: 0, recs: recs([[E, 0, 0, 0], [X, 0, 10, 0]]) };
  const c = W.compute([t0], 20, 30, { ...OPT, dual: false });
  assert.deepEqual(c.views, [{ t: -1, total: 0, g: -1, m: [], e: [] }, { t: 0, total: 0, g: -1, m: [], e: [] }]);
});

test('rangeMs: --range bounds, three decimals at most, trailing zeros dropped', () => {
  assert.equal(W.rangeMs(1203125), '1203.125');
  assert.equal(W.rangeMs(1240500), '1240.5');
  assert.equal(W.rangeMs(7000), '7');
  assert.equal(W.rangeMs(0), '0');
  assert.equal(W.rangeMs(1), '0.001');
});
