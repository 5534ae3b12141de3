'use strict';
(function () {
  var X = JSON.parse(document.getElementById('cg-tl-data').textContent);
  var TL = X.timeline, FL = X.flame, NM = X.names, TH = X.threads;
  var PAL = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1',
    '#ff9da7', '#9c755f', '#86bcb6', '#8cd17d', '#b6992d', '#f1ce63', '#499894', '#d37295',
    '#a0cbe8', '#ffbe7d', '#d4a6c8', '#fabfd2', '#79706e'];
  var U = cgUtil, tip = document.getElementById('cg-tip');
  var threadSel = document.getElementById('thread');
  function ms(us) {
    us = Math.round(us);
    return Math.floor(us / 1000) + '.' + String(us % 1000).padStart(3, '0');
  }
  function pct(p, w) { return w ? (100 * p / w).toFixed(2) : '0.00'; }
  function name(k) { return k < 0 ? '' : (NM[k] !== undefined ? NM[k] : 'method ' + k); }
  function colour(k) { return PAL[((k % PAL.length) + PAL.length) % PAL.length]; }
  function showTip(ev, lines) {
    tip.textContent = '';
    lines.forEach(function (l, i) {
      var d = document.createElement('div');
      if (i === 0) d.className = 'tipname';
      d.textContent = l;
      tip.appendChild(d);
    });
    tip.hidden = false;
    tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + 'px';
    tip.style.top = (ev.clientY + 14) + 'px';
  }
  function hideTip() { tip.hidden = true; }
  /* The clocks: X.clock is the data's primary clock; on a dual-clock
     trace (TL.other) the clock switch (event cg-clock from the profile
     table's script) picks the clock the bars and frames are drawn on, and
     every tooltip names it.  A dual-clock trace adds a line with method k's
     times in the current view (window.cgClock, the table's numbers). */
  var primary = X.clock || 'wall', shown = primary;
  function onOther() { return !!TL.other && shown !== primary; }
  function clockName() { return U.clockLabel(shown); }
  function clockLines(k) {
    var C = window.cgClock, t, o;
    if (!C || !C.other || k < 0) return [];
    t = C.method(k);
    if (!t) return [];
    o = shown !== C.recorded;
    return ['method in this view, ' + U.clockLabel(shown) + ' clock: incl ' + ms(o ? t.oincl : t.incl) +
      ' ms, excl ' + ms(o ? t.oexcl : t.excl) + ' ms'];
  }
  function curThread() { return threadSel ? +threadSel.value - 1 : -1; }

  /* ---- timeline ---- */
  var tlBox = document.getElementById('tl'), cv = document.getElementById('tl-canvas');
  var ctx = cv.getContext('2d');
  var LABEL = 170, DH = 11, MAXD = 14, MARKH = 5, GAP = 6;
  var rowsAll = [], t0 = 0, t1 = 1, tMin = Infinity, tMax = 0, selK = -1, layout = [], bars = [];
  /* Threads with no recorded time (first event = last) fold into one row
     "N idle threads" at the end, which a click opens and closes. */
  var idleOpen = false, FOLDH = 16, foldRow = null;
  /* The rows on the shown clock, the whole trace in range.  On the thread
     CPU clock every row starts at its thread's first event. */
  function setupTimeline() {
    rowsAll = [];
    tMin = Infinity; tMax = 0;
    U.tlThreads(TL, onOther(), shown === 'cpu').forEach(function (t) {
      var s = t.spans, maxd = 0, i;
      for (i = 0; i < s.length; i += 4) if (s[i + 3] > maxd) maxd = s[i + 3];
      if (t.busy) t.busy.rows.forEach(function (r) { if (r[0] > maxd) maxd = r[0]; });
      if (t.first < tMin) tMin = t.first;
      if (t.first + t.dur > tMax) tMax = t.first + t.dur;
      rowsAll.push({ t: t, depth: Math.min(maxd + 1, MAXD), idle: t.dur === 0 });
    });
    if (!isFinite(tMin)) { tMin = 0; tMax = 1; }
    if (tMax <= tMin) tMax = tMin + 1;
    t0 = 0; t1 = tMax - tMin;
  }
  setupTimeline();
  function plotW() { return Math.max(50, cv.width - LABEL - 8); }
  function xOf(t) { return LABEL + (t - t0) / (t1 - t0) * plotW(); }
  function tOf(x) { return t0 + (x - LABEL) / plotW() * (t1 - t0); }
  /* ---- windows and frames (winui.js): the window axis is wall us from
     the trace's first record; the timeline's t is us from its first
     event on the shown clock, so the two meet only on the wall clock. ---- */
  var CW = window.cgWin || null, LANEH = 14, laneTop = 18, laneOn = false, maxFrame = 0, winSel = null,
      laneBoxes = [];
  if (CW) CW.frames.forEach(function (f) { if (f.wall > maxFrame) maxFrame = f.wall; });
  function onAxis() { return !!CW && CW.axis && shown === 'wall'; }
  function tOfAxis(a) { return a + CW.origin - tMin; }
  function axisOfT(t) { return Math.round(t + tMin - CW.origin); }
  function frameAt(x) {
    var t = tOf(x), slack = (t1 - t0) / plotW() * 2, best = null;
    CW.frames.forEach(function (f) {
      var a = tOfAxis(f.start), b = tOfAxis(f.start + f.wall);
      if (a - slack <= t && t <= b + slack && (!best || f.wall > best.wall)) best = f;
    });
    return best;
  }
  function drawLane(y) {
    var n = 0;
    ctx.fillStyle = '#222';
    ctx.fillText('Frames (' + CW.frames.length + ')', 2, y + LANEH / 2);
    ctx.fillStyle = '#f4f4f4';
    ctx.fillRect(LABEL, y, plotW(), LANEH);
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL, y - 4, plotW(), LANEH + 4); ctx.clip();
    laneBoxes = [];
    CW.frames.forEach(function (f) {
      var x0 = xOf(tOfAxis(f.start)), x1 = xOf(tOfAxis(f.start + f.wall));
      if (x1 < LABEL || x0 > cv.width) return;
      laneBoxes.push({ n: f.n, x0: x0, x1: x1, y: y + LANEH / 2 });
      ctx.fillStyle = U.tempColour(U.scalePos(f.wall, maxFrame));
      ctx.fillRect(x0, y + 2, Math.max(1, x1 - x0 - 0.5), LANEH - 3);
      n++;
    });
    /* The slowest frames: a dark frame and a notch above. */
    CW.slowest.forEach(function (f) {
      var x0 = xOf(tOfAxis(f.start)), x1 = xOf(tOfAxis(f.start + f.wall)), w = Math.max(2, x1 - x0);
      if (x1 < LABEL || x0 > cv.width) return;
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1;
      ctx.strokeRect(x0 + 0.5, y + 1.5, w - 1, LANEH - 2);
      ctx.fillStyle = '#000';
      ctx.beginPath(); ctx.moveTo(x0 + w / 2 - 3, y - 3); ctx.lineTo(x0 + w / 2 + 3, y - 3);
      ctx.lineTo(x0 + w / 2, y + 1); ctx.fill();
    });
    ctx.restore();
    tlBox.setAttribute('data-frames', String(n));
  }
  /* The window shown (or being dragged), shaded over the rows. */
  function drawWindow(top, bottom) {
    var w = winSel || (CW && CW.current()), a, b, x0, x1;
    if (!w || !onAxis()) return;
    a = winSel ? Math.min(w.a, w.b) : tOfAxis(w.from);
    b = winSel ? Math.max(w.a, w.b) : tOfAxis(w.to);
    x0 = Math.max(LABEL, xOf(a)); x1 = Math.min(cv.width, xOf(b));
    if (x1 < x0) return;
    ctx.fillStyle = 'rgba(40,110,220,0.14)';
    ctx.fillRect(x0, top, Math.max(1, x1 - x0), bottom - top);
    ctx.fillStyle = 'rgba(40,110,220,0.8)';
    ctx.fillRect(x0, top, 1, bottom - top);
    ctx.fillRect(Math.max(x0, x1 - 1), top, 1, bottom - top);
  }
  function visibleRows() {
    var ti = curThread(), busy, idle;
    if (ti >= 0) return rowsAll.filter(function (r) { return r.t.i === ti; });
    busy = rowsAll.filter(function (r) { return !r.idle; });
    idle = rowsAll.filter(function (r) { return r.idle; });
    if (idle.length < 2) return rowsAll.slice();
    foldRow = { fold: true, n: idle.length, depth: 0 };
    return busy.concat([foldRow], idleOpen ? idle : []);
  }
  function rowH(r) { return r.fold ? FOLDH : r.depth * DH + MARKH + GAP; }
  function drawTimeline() {
    var rows = visibleRows(), y = 18, nbars = 0, busy = 0, marks = 0, w = tlBox.clientWidth || 800, h,
        drawn = 0, folded = 0;
    laneOn = onAxis() && CW.frames.length > 0;
    h = 18 + (laneOn ? LANEH + 10 : 0);
    rows.forEach(function (r) { h += rowH(r); });
    cv.width = w;
    cv.height = Math.max(h, 40);
    ctx.clearRect(0, 0, cv.width, cv.height);
    ctx.font = '11px sans-serif';
    ctx.textBaseline = 'middle';
    /* time axis */
    ctx.fillStyle = '#666';
    var span = t1 - t0, step = Math.pow(10, Math.floor(Math.log10(span / 5))), i, x;
    if (span / step > 10) step *= 2;
    if (span / step > 10) step *= 2.5;
    for (var tt = Math.ceil(t0 / step) * step; tt <= t1; tt += step) {
      x = xOf(tt);
      ctx.fillRect(x, 12, 1, 5);
      ctx.fillText(ms(tt) + ' ms', x + 2, 6);
    }
    layout = [];
    bars = [];
    tlBox.setAttribute('data-frames', '0');
    if (laneOn) {
      drawLane(y + 4);
      laneTop = y + 4;
      y += LANEH + 10;
    }
    rows.forEach(function (r) {
      if (r.fold) {
        layout.push({ r: r, top: y, bottom: y + FOLDH });
        ctx.fillStyle = '#eef1f3';
        ctx.fillRect(0, y, cv.width, FOLDH - 2);
        ctx.fillStyle = '#333';
        ctx.fillText((idleOpen ? '\u25be ' : '\u25b8 ') + r.n + ' idle threads (no recorded time)' +
          (idleOpen ? '' : ': click to show'), 4, y + FOLDH / 2 - 1);
        if (!idleOpen) folded = r.n;
        y += FOLDH;
        return;
      }
      drawn++;
      var t = r.t, s = t.spans, off = t.first - tMin, b = t.busy, top = y;
      layout.push({ r: r, top: top, bottom: top + r.depth * DH + MARKH });
      ctx.fillStyle = '#222';
      ctx.save();
      ctx.beginPath(); ctx.rect(0, top, LABEL - 4, r.depth * DH + MARKH); ctx.clip();
      ctx.fillText(TH[t.i] ? TH[t.i][1] : 'thread', 2, top + 5);
      ctx.restore();
      ctx.fillStyle = '#f4f4f4';
      ctx.fillRect(LABEL, top, plotW(), r.depth * DH);
      ctx.save();
      ctx.beginPath(); ctx.rect(LABEL, top, plotW(), r.depth * DH + MARKH); ctx.clip();
      if (b) {
        b.rows.forEach(function (row) {
          var d = Math.min(row[0], r.depth - 1), j, a, bx0, bx1;
          for (j = 1; j < row.length; j++) {
            if (!row[j]) continue;
            a = b.o + off + (j - 1) * b.w;
            bx0 = xOf(a); bx1 = xOf(a + b.w);
            if (bx1 < LABEL || bx0 > cv.width) continue;
            ctx.fillStyle = 'rgba(90,90,90,' + (0.15 + 0.6 * row[j] / 1000).toFixed(3) + ')';
            ctx.fillRect(bx0, top + d * DH + 1, Math.max(1, bx1 - bx0), DH - 2);
            busy++;
          }
        });
      }
      for (i = 0; i < s.length; i += 4) {
        var a0 = s[i] + off, d = s[i + 3], x0, x1;
        if (d >= r.depth) continue;
        x0 = xOf(a0); x1 = xOf(a0 + s[i + 1]);
        if (x1 < LABEL || x0 > cv.width) continue;
        ctx.fillStyle = colour(s[i + 2]);
        ctx.fillRect(x0, top + d * DH, Math.max(1, x1 - x0), DH - 1);
        bars.push({ thread: t.i, k: s[i + 2], depth: d, start: s[i], dur: s[i + 1], x0: x0, x1: x1,
          y: top + d * DH });
        nbars++;
        if (x1 - x0 > 60) {
          ctx.save(); ctx.beginPath(); ctx.rect(Math.max(x0, LABEL), top + d * DH, Math.min(x1, cv.width) - Math.max(x0, LABEL) - 2, DH); ctx.clip();
          ctx.fillStyle = '#000'; ctx.font = '9px sans-serif';
          ctx.fillText(name(s[i + 2]), Math.max(x0, LABEL) + 2, top + d * DH + DH / 2);
          ctx.restore();
        }
        if (s[i + 2] === selK) {
          ctx.fillStyle = '#000';
          ctx.fillRect(x0, top + r.depth * DH + 1, Math.max(1, x1 - x0), MARKH - 2);
          marks++;
        }
      }
      ctx.restore();
      y += r.depth * DH + MARKH + GAP;
    });
    drawWindow(12, cv.height);
    tlBox.setAttribute('data-t0', String(Math.round(t0)));
    tlBox.setAttribute('data-t1', String(Math.round(t1)));
    tlBox.setAttribute('data-rows', String(drawn));
    tlBox.setAttribute('data-folded', String(folded));
    cv.style.cursor = '';
    tlBox.setAttribute('data-bars', String(nbars));
    tlBox.setAttribute('data-clock', shown);
    tlBox.setAttribute('data-busy', String(busy));
    tlBox.setAttribute('data-marks', String(marks));
    document.getElementById('tl-range').textContent =
      'showing ' + ms(t0) + ' to ' + ms(t1) + ' ms on the ' + clockName() + ' clock' +
      (shown === 'cpu' ? ' (each row from its thread\'s first event)' : '') + (selK >= 0 ? '; calls of ' + name(selK) + ': ' + marks + ' shown' : '');
  }
  function setRange(a, b) {
    var full = tMax - tMin, w = b - a;
    if (w < 10) { var c = (a + b) / 2; a = c - 5; b = c + 5; w = 10; }
    if (w > full) { a = 0; b = full; }
    if (a < 0) { b -= a; a = 0; }
    if (b > full) { a -= b - full; b = full; }
    t0 = Math.max(0, a); t1 = b;
    drawTimeline();
  }
  function zoomAt(t, f) { setRange(t - (t - t0) * f, t + (t1 - t) * f); }
  cv.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var x = ev.offsetX < LABEL ? LABEL : ev.offsetX;
    zoomAt(tOf(x), ev.deltaY < 0 ? 0.8 : 1.25);
  }, { passive: false });
  var drag = null;
  cv.addEventListener('mousedown', function (ev) {
    cv.focus({ preventScroll: true });
    if (onAxis() && ev.offsetY < 18 && ev.offsetX >= LABEL) {
      winSel = { a: tOf(ev.offsetX), b: tOf(ev.offsetX), x: ev.clientX };
      return;
    }
    drag = { x: ev.clientX, t0: t0, t1: t1 };
  });
  window.addEventListener('mouseup', function (ev) {
    var w = winSel, a, b;
    drag = null;
    if (!w) return;
    winSel = null;
    if (Math.abs(ev.clientX - w.x) > 3) {
      a = Math.max(0, Math.min(w.a, w.b));
      b = Math.min(tMax - tMin, Math.max(w.a, w.b));
      CW.select(axisOfT(a), axisOfT(b), null);
    } else {
      drawTimeline();
    }
  });
  window.addEventListener('mousemove', function (ev) {
    if (winSel) {
      winSel.b = winSel.a + (ev.clientX - winSel.x) / plotW() * (t1 - t0);
      drawTimeline();
      return;
    }
    if (!drag) return;
    var dt = (ev.clientX - drag.x) / plotW() * (drag.t1 - drag.t0);
    setRange(drag.t0 - dt, drag.t1 - dt);
  });
  cv.addEventListener('keydown', function (ev) {
    var c = (t0 + t1) / 2, w = t1 - t0;
    if (ev.key === '+' || ev.key === '=') zoomAt(c, 0.8);
    else if (ev.key === '-' || ev.key === '_') zoomAt(c, 1.25);
    else if (ev.key === 'ArrowLeft') setRange(t0 - w / 10, t1 - w / 10);
    else if (ev.key === 'ArrowRight') setRange(t0 + w / 10, t1 + w / 10);
    else if (ev.key === 'ArrowUp') zoomAt(c, 0.8);
    else if (ev.key === 'ArrowDown') zoomAt(c, 1.25);
    else if (ev.key === '0') setRange(0, tMax - tMin);
    else return;
    ev.preventDefault();
  });
  cv.addEventListener('mousemove', function (ev) {
    var y = ev.offsetY, x = ev.offsetX, hit = null, f;
    if (drag || winSel) return;
    if (laneOn && y >= laneTop && y < laneTop + LANEH && x >= LABEL && (f = frameAt(x))) {
      showTip(ev, ['frame ' + f.n + (f.rank ? ' (slowest #' + f.rank + ')' : ''), 'thread ' + CW.threadName(f.pi),
        'starts ' + ms(f.start) + ' ms (wall clock, from the trace\'s first record)',
        'wall ' + ms(f.wall) + ' ms, cpu ' + ms(f.cpu) + ' ms' + (f.wall ? ', off-CPU ' + U.offCpu(f.wall, f.cpu) + ' %' : ''),
        'click to show this frame\'s window']);
      return;
    }
    cv.style.cursor = onAxis() && y < 18 && x >= LABEL ? 'col-resize' : '';
    layout.forEach(function (L) {
      var d, s, i, t, a0, off;
      if (L.r.fold || y < L.top || y >= L.top + L.r.depth * DH || x < LABEL) return;
      d = Math.floor((y - L.top) / DH); s = L.r.t.spans; off = L.r.t.first - tMin;
      t = tOf(x);
      for (i = 0; i < s.length; i += 4) {
        a0 = s[i] + off;
        if (s[i + 3] === d && a0 <= t && t <= a0 + s[i + 1] + (t1 - t0) / plotW()) hit = [s[i + 2], s[i], s[i + 1], L.r.t.i];
      }
    });
    if (hit) showTip(ev, [name(hit[0]), 'starts ' + ms(hit[1]) + ' ms after the thread\'s first event (' +
      clockName() + ' clock)',
      'duration ' + ms(hit[2]) + ' ms (' + clockName() + ' clock)'].concat(clockLines(hit[0])));
    else hideTip();
  });
  cv.addEventListener('mouseleave', hideTip);
  var downX = 0;
  cv.addEventListener('mousedown', function (ev) { downX = ev.clientX; });
  cv.addEventListener('click', function (ev) {
    var f;
    if (Math.abs(ev.clientX - downX) > 3) return; /* the end of a drag */
    if (laneOn && ev.offsetY >= laneTop && ev.offsetY < laneTop + LANEH && ev.offsetX >= LABEL &&
        (f = frameAt(ev.offsetX))) {
      CW.selectFrame(f.n);
      return;
    }
    layout.forEach(function (L) {
      if (L.r.fold && ev.offsetY >= L.top && ev.offsetY < L.bottom) {
        idleOpen = !idleOpen;
        drawTimeline();
      }
    });
  });
  document.getElementById('tl-in').addEventListener('click', function () { zoomAt((t0 + t1) / 2, 0.5); });
  document.getElementById('tl-out').addEventListener('click', function () { zoomAt((t0 + t1) / 2, 2); });
  document.getElementById('tl-all').addEventListener('click', function () { setRange(0, tMax - tMin); });
  /* Called by the profile table (and usable from the console): marks under the
   * thread rows every kept call of method k (its position in the table data). */
  window.cgTimelineSelect = function (k) { selK = k === undefined || k === null ? -1 : +k; drawTimeline(); };
  var flat = document.querySelector('#flat tbody');
  if (flat) flat.addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr.row');
    if (tr && tr.hasAttribute('data-k') && !ev.target.closest('button')) window.cgTimelineSelect(+tr.getAttribute('data-k'));
  });

  /* ---- flame graph ---- */
  var fBox = document.getElementById('fl'), fc = document.getElementById('fl-canvas'), fx = fc.getContext('2d');
  var FH = 16, roots = [], allRoot, fzoom = null, fterm = '', fRects = [];
  FL.threads.forEach(function (arr) { roots.push(U.flameParse(arr, !!FL.other)); });
  allRoot = { k: -1, incl: 0, excl: 0, kids: roots, parent: null, all: true };
  roots.forEach(function (r) { r.parent = allRoot; });
  /* Widths and order on the shown clock; threads stay in data order. */
  function setupFlame() {
    var o = !!FL.other && shown !== primary;
    allRoot.incl = 0;
    roots.forEach(function (r) { U.flameOn(r, o); allRoot.incl += r.incl; });
  }
  setupFlame();
  function fname(n) {
    if (n.all) return 'all threads';
    if (n.thread !== undefined) return TH[n.thread] ? TH[n.thread][1] + ' (thread ' + TH[n.thread][0] + ')' : 'thread';
    return name(n.k);
  }
  function fbase() {
    var ti = curThread(), i;
    if (ti < 0) return allRoot;
    for (i = 0; i < roots.length; i++) if (roots[i].thread === ti) return roots[i];
    return null;
  }
  function fdepth(n) { var m = 0; n.kids.forEach(function (c) { m = Math.max(m, fdepth(c)); }); return m + 1; }
  function drawFlame() {
    var base = fbase(), W = fBox.clientWidth || 800, z, anc = [], drawn = 0, re = null, mt = 0;
    fRects = [];
    if (fterm) { try { re = new RegExp(fterm, 'i'); } catch (e) { re = null; } }
    if (!base) { fc.width = W; fc.height = 20; fx.clearRect(0, 0, W, 20); fx.fillText('No method ran on this thread.', 4, 12); return; }
    if (!fzoom || !within(fzoom, base)) fzoom = base;
    z = fzoom;
    for (var a = z; a && a !== base.parent; a = a.parent) anc.unshift(a);
    var depth = anc.length - 1 + fdepth(z);
    fc.width = W; fc.height = depth * FH + 2;
    fx.clearRect(0, 0, fc.width, fc.height);
    fx.font = '11px sans-serif'; fx.textBaseline = 'middle';
    function rect(n, x, w, d, faded) {
      var m = re && !n.all && n.thread === undefined && re.test(fname(n));
      fx.fillStyle = m ? '#e040e0' : (n.k < 0 ? '#c8c8c8' : colour(n.k));
      fx.globalAlpha = faded ? 0.45 : 1;
      fx.fillRect(x, d * FH, Math.max(0.5, w - 1), FH - 1);
      fx.globalAlpha = 1;
      if (w > 30) {
        fx.save(); fx.beginPath(); fx.rect(x, d * FH, w - 2, FH); fx.clip();
        fx.fillStyle = '#000'; fx.fillText(fname(n), x + 3, d * FH + FH / 2); fx.restore();
      }
      fRects.push({ n: n, x: x, w: w, d: d, faded: !!faded });
      drawn++;
    }
    anc.forEach(function (n, d) { if (n !== z) rect(n, 0, W, d, true); });
    function walk(n, x, w, d) {
      var cx = x;
      if (w < 0.3) return;
      rect(n, x, w, d, false);
      n.kids.forEach(function (c) { var cw = n.incl ? w * c.incl / n.incl : 0; walk(c, cx, cw, d + 1); cx += cw; });
    }
    walk(z, 0, W, anc.length - 1);
    /* matched share, FlameGraph style: frames under a matched frame are not counted twice */
    function match(n, under) {
      var m = re && !n.all && n.thread === undefined && re.test(fname(n));
      if (m && !under) mt += n.incl;
      n.kids.forEach(function (c) { match(c, under || m); });
    }
    if (re) match(z, false);
    document.getElementById('fl-matched').textContent = re ? 'Matched: ' + pct(mt, z.incl) + '% of ' + fname(z) : '';
    fBox.setAttribute('data-zoom', fname(z));
    fBox.setAttribute('data-frames', String(drawn));
    fBox.setAttribute('data-clock', shown);
    fBox.setAttribute('data-matched', re ? pct(mt, z.incl) : '');
  }
  function within(n, base) { for (; n; n = n.parent) if (n === base) return true; return false; }
  function fhit(ev) {
    var x = ev.offsetX, d = Math.floor(ev.offsetY / FH), i, r;
    for (i = fRects.length - 1; i >= 0; i--) { r = fRects[i]; if (r.d === d && x >= r.x && x < r.x + r.w) return r.n; }
    return null;
  }
  fc.addEventListener('click', function (ev) { var n = fhit(ev); if (n) { fzoom = n; drawFlame(); } });
  fc.addEventListener('mousemove', function (ev) {
    var n = fhit(ev), tot = (fbase() || allRoot).incl;
    if (!n) { hideTip(); return; }
    showTip(ev, [fname(n), 'inclusive ' + ms(n.incl) + ' ms (' + pct(n.incl, tot) + '%, ' + clockName() + ' clock)',
      'exclusive ' + ms(n.excl) + ' ms (' + pct(n.excl, tot) + '%)'].concat(n.all || n.thread !== undefined ? [] : clockLines(n.k)));
  });
  fc.addEventListener('mouseleave', hideTip);
  /* Called by the trees: zoom the flame graph to method k's widest frame in
   * the current view. */
  window.cgFlameShow = function (k) {
    var base = fbase(), best = null, st = base ? [base] : [], n;
    while (st.length) {
      n = st.pop();
      if (n.k === k && !n.all && n.thread === undefined && (!best || n.incl > best.incl)) best = n;
      st.push.apply(st, n.kids);
    }
    if (best) { fzoom = best; drawFlame(); }
  };
  /* What is drawn, for checks (tests/browser/clocks.mjs) and the console:
     the timeline's bars { thread, k, depth, start, dur (us on the shown
     clock, relative to the thread's first event), x0, x1, y (canvas px) }
     and the flame graph's frames { name, incl, x, w, d }. */
  window.cgTimelineBars = function () { return bars.slice(); };
  /* The frames lane's bars drawn { n (frame), x0, x1, y (canvas px) }. */
  window.cgFrameBars = function () { return laneOn ? laneBoxes.slice() : []; };
  window.cgFlameFrames = function () {
    return fRects.map(function (r) { return { name: fname(r.n), incl: r.n.incl, x: r.x, w: r.w, d: r.d }; });
  };
  /* A window of the trace (winui.js): its flame graph; the whole trace's
     comes back when the detail is null.  The timeline keeps the whole
     trace and shades the window. */
  var wholeFlame = FL.threads;
  document.addEventListener('cg-window', function (ev) {
    var w = ev.detail && ev.detail.data;
    roots = (w ? w.flames : wholeFlame).map(function (arr) { return U.flameParse(arr, !!FL.other); });
    allRoot.kids = roots;
    roots.forEach(function (r) { r.parent = allRoot; });
    fzoom = null;
    setupFlame();
    /* A frame's window: the timeline zooms to it, with a margin. */
    if (ev.detail && ev.detail.frame && onAxis()) {
      var a = tOfAxis(ev.detail.from), b = tOfAxis(ev.detail.to), m = Math.max((b - a) / 4, 500);
      setRange(a - m, b + m);
    }
    drawTimeline();
    drawFlame();
  });
  /* The clock switch: redraw both on the chosen clock (whole trace,
     flame zoom kept when its frame is still there). */
  document.addEventListener('cg-clock', function (ev) {
    shown = TL.other && ev.detail && ev.detail.clock ? ev.detail.clock : primary;
    setupTimeline();
    setupFlame();
    drawTimeline();
    drawFlame();
  });
  document.getElementById('fl-reset').addEventListener('click', function () { fzoom = null; drawFlame(); });
  document.getElementById('fl-search').addEventListener('input', function (ev) { fterm = ev.target.value; drawFlame(); });

  /* ---- tabs: one click to every part; the thread selector drives all ---- */
  var bar = document.querySelector('.bar'), nav = document.getElementById('cg-nav');
  if (bar && nav) { nav.hidden = false; bar.appendChild(nav); }
  /* Section links leave the heading visible below the sticky bar. */
  function padTop() {
    if (bar) document.documentElement.style.scrollPaddingTop = (bar.offsetHeight + 8) + 'px';
  }
  padTop();
  if (threadSel) threadSel.addEventListener('change', function () { fzoom = null; drawTimeline(); drawFlame(); });
  window.addEventListener('resize', function () { padTop(); drawTimeline(); drawFlame(); });
  drawTimeline();
  drawFlame();
}());
