/* util.js - pure helpers of the HTML report's scripts: number formatting,
 * search matching, the per-view tables built from the data block, sorting
 * and the graph's colour scale.  No DOM here.  The page loads this file first,
 * as a classic script that defines the global cgUtil; node loads it as a
 * CommonJS module (tests/js/). */
'use strict';
var cgUtil = (function () {
  /* Milliseconds with three decimals from microseconds, by integer
     arithmetic (a fractional input is rounded to the nearest microsecond). */
  function ms(us) {
    us = Math.round(us);
    if (us < 0) return '-' + ms(-us);
    return Math.floor(us / 1000) + '.' + String(us % 1000).padStart(3, '0');
  }

  /* part/whole as a percentage with two decimals, rounded half up, in
     integers (BigInt past 2^53); '0.00' when whole is 0. */
  function pct(p, w) {
    var n;
    if (!w) return '0.00';
    if (p * 20000 + w < 9e15) n = Math.floor((p * 20000 + w) / (2 * w));
    else n = Number((BigInt(p) * BigInt(20000) + BigInt(w)) / (BigInt(2) * BigInt(w)));
    return Math.floor(n / 100) + '.' + String(n % 100).padStart(2, '0');
  }

  /* The off-CPU share of inclusive time, 1 - cpu / wall, as pct() text
     ('0.00' when cpu is not below wall). */
  function offCpu(wall, cpu) {
    return pct(wall > cpu ? wall - cpu : 0, wall);
  }

  /* The search box's test: null when q is empty (everything matches), else
     a function of (name, lower-cased name).  Smart case: a query with an
     upper-case letter matches case-sensitively, else case-insensitively. */
  function matcher(q) {
    var cs;
    if (!q) return null;
    cs = q !== q.toLowerCase();
    return function (name, lower) {
      return (cs ? name : lower).indexOf(q) >= 0;
    };
  }

  /* The graph node id of a method id given in lower-case hex (as render_gv
     names nodes). */
  function nodeId(hex) {
    return 'm0x' + hex;
  }

  /* One view's tables from its flat data arrays (see render_html.c).  v.m holds per method
     [k, incl, excl, calls, rec] and, when `other` is true, the other
     clock's [incl, excl] after them; v.e holds per edge [caller, callee,
     calls, incl] and, with `other`, the other clock's incl.  A root caller
     is written -1 - thread index.  cpuPrimary says the data's primary
     clock is cpu (so the other is wall).  Returns { rows, byM, par, chi }:
     rows in data order (ord), each with off, its off-CPU share (a fraction,
     0 without the other clock); byM by method; par/chi the edges into/out
     of each method. */
  function buildView(v, other, cpuPrimary) {
    var ms_ = other ? 7 : 5, es = other ? 5 : 4, rows = [], byM = new Map(),
        par = new Map(), chi = new Map(), i, r, e;
    for (i = 0; i + ms_ <= v.m.length; i += ms_) {
      r = { k: v.m[i], incl: v.m[i + 1], excl: v.m[i + 2], calls: v.m[i + 3],
            rec: v.m[i + 4], oincl: other ? v.m[i + 5] : 0, oexcl: other ? v.m[i + 6] : 0,
            ord: rows.length, off: 0 };
      if (other) r.off = offFraction(cpuPrimary ? r.oincl : r.incl, cpuPrimary ? r.incl : r.oincl);
      rows.push(r);
      byM.set(r.k, r);
    }
    for (i = 0; i + es <= v.e.length; i += es) {
      e = { from: v.e[i], to: v.e[i + 1], calls: v.e[i + 2], incl: v.e[i + 3],
            oincl: other ? v.e[i + 4] : 0 };
      if (!par.has(e.to)) par.set(e.to, []);
      par.get(e.to).push(e);
      if (e.from >= 0) {
        if (!chi.has(e.from)) chi.set(e.from, []);
        chi.get(e.from).push(e);
      }
    }
    return { rows: rows, byM: byM, par: par, chi: chi };
  }

  function offFraction(wall, cpu) {
    return wall > cpu ? (wall - cpu) / wall : 0;
  }

  /* A row's time on the data's primary clock (other false) or its other
     clock (other true): kind 'incl' or 'excl'. */
  function timeOf(r, kind, other) {
    if (kind === 'incl') return other ? r.oincl : r.incl;
    return other ? r.oexcl : r.excl;
  }

  /* The value a sort key orders by.  Keys: 'incl', 'excl' and their '%'
     twins 'inclp', 'exclp' on the shown clock; 'pincl', 'pexcl' (and
     'pinclp', 'pexclp') fixed to the data's primary clock, 'oincl', 'oexcl'
     (and 'oinclp', 'oexclp') fixed to the other clock; 'calls'; 'mpc'
     (inclusive time per call on the shown clock, -1 without calls); 'off'
     (off-CPU share).
     `other` says whether the shown clock is the data's other clock. */
  function sortValue(r, key, other) {
    var base = key.replace(/p$/, '');
    switch (base) {
    case 'incl': case 'excl': return timeOf(r, base, other);
    case 'pincl': return r.incl;
    case 'pexcl': return r.excl;
    case 'oincl': return r.oincl;
    case 'oexcl': return r.oexcl;
    case 'calls': return r.calls;
    case 'off': return r.off;
    default: return r.calls ? Math.floor(timeOf(r, 'incl', other) / r.calls) : -1;
    }
  }

  /* A comparator of rows by key in direction dir (1 ascending, -1
     descending); names[k] is method k's name for the 'name' key.  Ties keep
     data order; calls ties are broken by recursive calls. */
  function comparator(key, dir, names, other) {
    return function (a, b) {
      var c, x, y;
      if (key === 'name') {
        x = names[a.k];
        y = names[b.k];
        c = x < y ? -1 : x > y ? 1 : 0;
      } else {
        c = sortValue(a, key, other) - sortValue(b, key, other);
        if (!c && key === 'calls') c = a.rec - b.rec;
      }
      return c * dir || a.ord - b.ord;
    };
  }

  /* floor(1000 * part / whole), at most 1000; 0 when whole is 0. */
  function permille(part, whole) {
    if (!whole) return 0;
    if (part >= whole) return 1000;
    if (part * 1000 < 9e15) return Math.floor(part * 1000 / whole);
    return Number(BigInt(part) * BigInt(1000) / BigInt(whole));
  }

  /* The graph's colour and width scale (render_gv.c): the position in
     permille of a share of the total is the integer square root of
     permille * 1000, so 1 % is a tenth of the way and 25 % half of it. */
  function scalePos(part, whole) {
    var p = permille(part, whole) * 1000, r = Math.floor(Math.sqrt(p));
    while (r * r > p) r--;
    while ((r + 1) * (r + 1) <= p) r++;
    return r;
  }

  /* Temperature colour at scale position pos (permille), as render_gv.c:
     hue from blue (0) to red (1000) at saturation 0.55, full value, in
     integer steps; '#rrggbb'. */
  function tempColour(pos) {
    var c = 140, m = 255 - 140, h = 240 - Math.floor(240 * Math.min(pos, 1000) / 1000),
        t = h % 120, x = Math.floor(c * (60 - (t > 60 ? t - 60 : 60 - t)) / 60), rgb;
    switch (Math.floor(h / 60)) {
    case 0: rgb = [c, x, 0]; break;
    case 1: rgb = [x, c, 0]; break;
    case 2: rgb = [0, c, x]; break;
    case 3: rgb = [0, x, c]; break;
    default: rgb = [x, 0, c]; break;
    }
    return '#' + rgb.map(function (n) { return (n + m).toString(16).padStart(2, '0'); }).join('');
  }

  /* An edge's pen width at scale position pos: 1 to 5 (points), two
     decimals, as render_gv.c. */
  function penWidth(pos) {
    var w = 100 + Math.floor(4 * pos / 10);
    return Math.floor(w / 100) + '.' + String(w % 100).padStart(2, '0');
  }

  /* The heat class number of scale position pos: 0 (coldest) to 9. */
  function heatClass(pos) {
    return pos >= 1000 ? 9 : Math.floor(pos / 100);
  }

  /* The zoom a graph opens at: the box's width (boxW px) when the graph
     (svgW px wide at zoom 1) fits at that scale or larger, capped at 1;
     else the smallest zoom at which node text (fontPx high at zoom 1) is
     at least 80 % of the page's font (pageFontPx), rounded up to 1/1000
     plus 1/1000 (layout rounds sizes to fractions of a pixel). */
  function openZoom(svgW, boxW, fontPx, pageFontPx) {
    var fit = svgW > 0 && boxW > 0 ? Math.min(1, boxW / svgW) : 1,
        min = fontPx > 0 ? (Math.ceil(800 * pageFontPx / fontPx) + 1) / 1000 : 0;
    return fit >= min ? fit : min;
  }

  /* The scroll offset that puts position p (px in content of size c) at
     fraction f of a box of size b, kept within the content. */
  function scrollFor(p, b, c, f) {
    return Math.max(0, Math.min(c - b, Math.round(p - b * f)));
  }

  /* How the report names a clock in text: 'wall' or 'thread CPU'. */
  function clockLabel(c) {
    return c === 'cpu' ? 'thread CPU' : 'wall';
  }

  /* The timeline's threads on one clock, from the timeline data TL (see
     timeline_json in timeline.c: spans of 4 numbers, or 6 with the other
     clock's start and duration when TL.other is 1).  other: the data's
     other clock instead of its primary one.  ownZero: every thread starts
     at 0 (thread CPU clocks are per thread, so their values are not
     comparable across threads) rather than at its first event.  Returns per
     thread { i, first, dur, spans: flat [start, dur, k, depth] relative to
     first, busy }. */
  function tlThreads(TL, other, ownZero) {
    var n = TL.other ? 6 : 4, o = !!(other && TL.other);
    return TL.threads.map(function (t) {
      var s = t.spans, out = [], i;
      for (i = 0; i + n <= s.length; i += n) {
        if (o) out.push(s[i + 4], s[i + 5], s[i + 2], s[i + 3]);
        else out.push(s[i], s[i + 1], s[i + 2], s[i + 3]);
      }
      return { i: t.i, first: ownZero ? 0 : (o ? t.ofirst : t.first), dur: o ? t.odur : t.dur,
        spans: out, busy: (o ? t.obusy : t.busy) || null };
    });
  }

  /* One thread's flame-graph tree from its flame data (see flame_json in
     render_flame.c): [thread index, incl, (incl on the other clock,) then
     per frame k, incl, excl, number of children (, other incl, other
     excl)] in preorder; other says the data has the other clock.  Nodes:
     { k, p: [incl, excl], o: [incl, excl] or null, kids, parent, ord }, the
     root with thread set and its own time computed per clock. */
  function flameParse(arr, other) {
    var fw = other ? 6 : 4, pos = other ? 3 : 2, root;
    function node(parent, ord) {
      var n = { k: arr[pos], p: [arr[pos + 1], arr[pos + 2]],
                o: other ? [arr[pos + 4], arr[pos + 5]] : null, kids: [], parent: parent, ord: ord },
          c = arr[pos + 3], j;
      pos += fw;
      for (j = 0; j < c; j++) n.kids.push(node(n, j));
      return n;
    }
    root = node(null, 0);
    root.thread = arr[0];
    function own(total, i) {
      var s = 0;
      root.kids.forEach(function (c) { s += (i ? c.o : c.p)[0]; });
      return total > s ? total - s : 0;
    }
    root.p = [arr[1], own(arr[1], 0)];
    if (other) root.o = [arr[2], own(arr[2], 1)];
    return root;
  }

  /* Put a flame tree on one clock: n.incl and n.excl from the primary
     clock's times or (other) the other clock's, and every node's children
     in the order the flame graph draws them: widest first on that clock,
     ties in data order (the primary clock's order). */
  function flameOn(n, other) {
    var st = [n], x, t;
    while (st.length) {
      x = st.pop();
      t = other && x.o ? x.o : x.p;
      x.incl = t[0];
      x.excl = t[1];
      x.kids.sort(flameOrder(other));
      st.push.apply(st, x.kids);
    }
    return n;
  }
  function flameOrder(other) {
    return function (a, b) {
      var x = other && a.o ? a.o[0] : a.p[0], y = other && b.o ? b.o[0] : b.p[0];
      return y - x || a.ord - b.ord;
    };
  }

  /* Repeated runs: a value given twice over (a median of an even number of
     runs is a half): milliseconds with three decimals and a fourth '5' for
     a half microsecond; or, as a share (norm) in parts per billion, % with
     three decimals rounded half up. */
  function half(v2, norm) {
    var t;
    if (norm) {
      t = Math.floor((Math.floor(v2 / 2) + 5000) / 10000);
      return Math.floor(t / 1000) + '.' + String(t % 1000).padStart(3, '0') + '%';
    }
    return ms(Math.floor(v2 / 2)) + (v2 % 2 ? '5' : '');
  }

  /* A side's range: the farthest run from the median, in whole % of the
     median ('' without a median), as the text report writes it. */
  function rangePct(m2, min, max) {
    var far = Math.max(m2 - 2 * min, 2 * max - m2);
    return m2 ? '\u00b1' + Math.round(far * 100 / m2) + '%' : '';
  }

  /* x of value v on a strip of width w (pad on each side) spanning lo..hi;
     the middle when lo == hi. */
  function stripX(v, lo, hi, w, pad) {
    if (hi <= lo) return w / 2;
    return pad + (v - lo) * (w - 2 * pad) / (hi - lo);
  }

  return {
    half: half, rangePct: rangePct, stripX: stripX,
    clockLabel: clockLabel, tlThreads: tlThreads, flameParse: flameParse, flameOn: flameOn,
    openZoom: openZoom, scrollFor: scrollFor,
    ms: ms, pct: pct, offCpu: offCpu, matcher: matcher, nodeId: nodeId, buildView: buildView,
    timeOf: timeOf, sortValue: sortValue, comparator: comparator, scalePos: scalePos,
    tempColour: tempColour, penWidth: penWidth, heatClass: heatClass,
  };
}());
if (typeof module === 'object' && module.exports) module.exports = cgUtil;
