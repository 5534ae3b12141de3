'use strict';
/* The window of the trace the page shows: the whole trace, or a window
 * chosen by dragging on the timeline's time axis or by clicking a frame
 * (timeline.js draws both and calls cgWin.select).  The window's numbers
 * come from cgWindow (window.js) replaying the call log of #cg-win-data;
 * the event cg-window on document hands them to the profile table, the
 * trees and the flame graph (detail null: back to the whole trace, whose
 * data each part kept).  The bar says which window is shown and the
 * command that prints the same numbers; where the page cannot replay a
 * window (#cg-win-data's why), it shows that command instead of numbers. */
(function () {
  var W = JSON.parse(document.getElementById('cg-win-data').textContent);
  var C = cgWindow, U = cgUtil, th = W.ok ? C.load(W) : null, D = null;
  var label = document.getElementById('win-label'), reset = document.getElementById('win-reset'),
      info = document.getElementById('win-info');
  var cur = null;
  var why = th ? '' : W.ok ? 'the call log does not give back the records one by one' : W.why;
  /* The frames as the C side found them (frames.h), numbered from 1. */
  var frames = W.frames.map(function (a, i) {
    return { n: i + 1, start: a[0], wall: a[1], cpu: a[2], pi: a[3], adopted: !!a[4] };
  });
  var slow = W.slowest.map(function (i, r) { frames[i].rank = r + 1; return frames[i]; });
  function pageData() {
    if (!D) D = JSON.parse(document.getElementById('cg-data').textContent);
    return D;
  }
  function threadName(pi) {
    var T = pageData().threads;
    return pi >= 0 && T[pi] ? T[pi][1] : 'an idle thread';
  }
  function command(F, T) {
    return 'callgraph --range ' + (isFinite(F) ? C.rangeMs(F) : '') + ':' + (isFinite(T) ? C.rangeMs(T) : '') +
      ' ' + W.file;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  /* The window's name: "Window 1203.125–1240.500 ms (frame 17, main)". */
  function title(F, T, fr) {
    return 'Window ' + U.ms(F) + '\u2013' + U.ms(T) + ' ms' +
      (fr ? ' (frame ' + fr.n + ', ' + threadName(fr.pi) + ')' : '');
  }
  /* What a frame's thread spent its time on: "On main, most self time:
     M 982.730 ms (97.82% off-CPU), ..." from the window's view of that
     thread (its methods' exclusive time on the primary clock; the frame
     holds the thread for the whole window). */
  function frameTop(r, fr) {
    var v = r.views[fr.pi + 1], M = pageData().methods, rows = [], i, w, n;
    w = W.dual ? 7 : 5;
    if (!v || !v.m.length) return 'On ' + threadName(fr.pi) + ', no method ran in this frame.';
    for (i = 0; i < v.m.length; i += w) rows.push({ k: v.m[i], x: v.m[i + 2], o: W.dual ? v.m[i + 6] : 0 });
    rows.sort(function (a, b) { return b.x - a.x || a.k - b.k; });
    n = rows.slice(0, 3).map(function (m) {
      var s = (M[m.k] ? M[m.k][0] : 'method ' + m.k) + ' ' + U.ms(m.x) + ' ms';
      /* off-CPU share of a wall time: its cpu twin is the other clock */
      if (W.dual && !W.primary && m.x > 0) s += ' (' + U.offCpu(m.x, m.o) + '% off-CPU)';
      return s;
    });
    return 'On ' + threadName(fr.pi) + ', most self time: ' + n.join(', ') + '.';
  }
  /* The page's data for window [F, T] (cgWindow.compute). */
  function compute(F, T) {
    return C.compute(th, F, T, { primary: W.primary, dual: !!W.dual, nlisted: W.nlisted,
      nviews: pageData().views.length, flameFraction: W.flameFraction, flameDepth: W.flameDepth });
  }
  /* Show window [F, T] (us on the axis; fr: the frame it is, or null). */
  function select(F, T, fr) {
    var D0 = pageData(), r, line, code;
    /* --range's axis starts at the trace's first record. */
    F = Math.max(0, F);
    if (!(T >= F)) return;
    cur = { from: F, to: T, frame: fr || null };
    label.textContent = title(F, T, fr);
    reset.hidden = false;
    info.textContent = '';
    info.hidden = false;
    info.appendChild(el('strong', null, title(F, T, fr)));
    if (!th) {
      info.appendChild(el('span', null, ': this page cannot compute a window (' + why +
        '); the numbers below are the whole trace\'s. Run: '));
      info.appendChild(el('code', null, command(F, T)));
      cur.exact = false;
      document.dispatchEvent(new CustomEvent('cg-window', { detail: null }));
      return;
    }
    r = compute(F, T);
    r.views.forEach(function (v, i) { v.g = D0.views[i].g; });
    line = ': ' + r.threads.length + ' thread' + (r.threads.length === 1 ? '' : 's') + ' ran in it, ' +
      U.ms(r.views[0].total) + ' ms in all (' + (W.primary ? 'cpu' : 'wall') + ' clock, sum over threads), ' +
      r.calls + ' calls. The profile, Top Down, Bottom Up and the flame graph show this window; the call ' +
      'graph, the timeline and the threads table show the whole trace. The same numbers: ';
    info.appendChild(el('span', null, line));
    code = el('code', null, command(F, T));
    code.id = 'win-cmd';
    info.appendChild(code);
    if (fr) info.appendChild(el('div', 'win-top', frameTop(r, fr)));
    cur.exact = true;
    document.dispatchEvent(new CustomEvent('cg-window', { detail: { from: F, to: T, frame: fr || null, data: r } }));
  }
  function selectFrame(n) {
    var fr = frames[n - 1];
    if (fr) select(fr.start, fr.start + fr.wall, fr);
  }
  function whole() {
    cur = null;
    label.textContent = 'Whole trace';
    reset.hidden = true;
    info.hidden = true;
    info.textContent = '';
    document.dispatchEvent(new CustomEvent('cg-window', { detail: null }));
  }
  reset.addEventListener('click', whole);
  label.textContent = 'Whole trace';
  /* For the timeline (frames lane, axis drag) and for checks: the frames
     { n, pi, start, wall, cpu (us), rank among the slowest or undefined },
     the window shown (null: the whole trace), the axis origin on the
     timeline's clock, and whether windows are computed here. */
  window.cgWin = {
    frames: frames, slowest: slow, origin: W.origin, axis: !W.primary, exact: !!th, why: why,
    budget: W.budget, calls: W.calls,
    current: function () { return cur; },
    /* The all-threads view of window [F, T], without showing it (for checks). */
    view: function (F, T) { return th ? compute(F, T).views[0] : null; },
    select: select, selectFrame: selectFrame, whole: whole, threadName: threadName,
  };
}());
