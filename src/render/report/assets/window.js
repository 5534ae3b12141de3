'use strict';
/* The HTML report's time windows: from the call log (#cg-win-data, written
 * by render_window.c) the profile of any window [F, T] of the trace, as
 * callgraph --range FROM:TO computes it, and the frames.  Pure functions,
 * no document: report.js, tree.js and timeline.js draw what they return.
 *
 * The log gives, per thread, every enter and leave of the replay with the
 * thread's time on both clocks (wall on the window axis: us from the
 * trace's first record; cpu as the thread's clock reads it).  decode()
 * turns it back into the thread's records, which is exact when every record
 * opened or closed one call (the C side says when that fails).  clip()
 * reads them as a trace started at F and stopped at T would be:
 *   - records before F only keep a shadow stack (an exit pops down to its
 *     method, an exit of a method not on it is ignored);
 *   - at the thread's first record in [F, T] the shadow frames are entered,
 *     outermost first, at wall F and that record's cpu time;
 *   - at its first record after T its open frames close, innermost first,
 *     at wall T and the cpu time of the last record replayed; a thread with
 *     shadow frames but no record in [F, T] (and one after T) has them
 *     entered at F and closed at T at the cpu time of its last record
 *     before F;
 *   - a thread whose records end before T closes its frames at its last
 *     event, as in the whole trace; a thread with no record in [F, T] and
 *     none after T is not in the window.
 * model() then replays the window as the profile does: an exit on an
 * empty stack is a frame entered before tracing, which spans from the
 * thread's first event and calls all the thread ran before it (the one
 * adopted last is the outermost); a method's inclusive time and calls
 * count its outermost activations only, its exclusive time every one; an
 * edge's calls count every return, its time the callee's outermost
 * activations; recursive calls are a method's incoming calls less its
 * outermost calls; the calling-context tree sums every activation of a
 * path.  Times are integer microseconds throughout. */
var cgWindow = (function () {
  var ENTER = 0, EXIT = 1;

  /* One thread of the log, [page thread, records, wall, cpu, then per event
     code, wall delta, cpu delta] (code k >= 0 enters method k, -1 leaves the
     top frame, -2 - k leaves k entered before tracing), as its records
     { x: ENTER or EXIT, k, w, c }, or null when the events are not one per
     record (the events after the last record must be the leaves that close
     the frames still open). */
  function decode(a) {
    var R = a[1], w = a[2], c = a[3], stack = [], recs = [], p, i = 0, code;
    for (p = 4; p + 2 < a.length; p += 3, i++) {
      code = a[p];
      w += a[p + 1];
      c += a[p + 2];
      if (i >= R) {
        if (code !== -1 || !stack.length) return null;
        stack.pop();
        continue;
      }
      if (code >= 0) {
        stack.push(code);
        recs.push({ x: ENTER, k: code, w: w, c: c });
      } else if (code === -1) {
        if (!stack.length) return null;
        recs.push({ x: EXIT, k: stack.pop(), w: w, c: c });
      } else {
        if (stack.length) return null;
        recs.push({ x: EXIT, k: -2 - code, w: w, c: c });
      }
    }
    if (i < R || stack.length) return null;
    return { pi: a[0], recs: recs };
  }

  /* The methods left open by events ev (an exit on an empty stack opens
     nothing), outermost first. */
  function openAfter(ev) {
    var st = [];
    ev.forEach(function (e) {
      if (e.x === ENTER) st.push(e.k);
      else if (st.length) st.pop();
    });
    return st;
  }

  /* The events of window [F, T] (F may be -Infinity, T Infinity) of one
     thread's records, or null when the thread is not in the window. */
  function clip(recs, F, T) {
    var shadow = [], out = [], n = recs.length, i = 0, j, r, cpu, open;
    for (; i < n && recs[i].w < F; i++) {
      r = recs[i];
      if (r.x === ENTER) shadow.push(r.k);
      else if ((j = shadow.lastIndexOf(r.k)) >= 0) shadow.length = j;
    }
    if (i === n) return null;
    if (recs[i].w > T) {
      if (!shadow.length) return null;
      cpu = i ? recs[i - 1].c : recs[i].c;
      shadow.forEach(function (k) { out.push({ x: ENTER, k: k, w: F, c: cpu }); });
      shadow.slice().reverse().forEach(function (k) { out.push({ x: EXIT, k: k, w: T, c: cpu }); });
      return out;
    }
    cpu = recs[i].c;
    shadow.forEach(function (k) { out.push({ x: ENTER, k: k, w: F, c: cpu }); });
    for (; i < n && recs[i].w <= T; i++) out.push(recs[i]);
    if (i < n) {
      cpu = recs[i - 1].c;
      open = openAfter(out);
      while (open.length) out.push({ x: EXIT, k: open.pop(), w: T, c: cpu });
    }
    return out;
  }

  /* Replay one thread's events as the profile does.  Returns { first,
     last: [wall, cpu], methods: Map k -> { k, incl, excl: [wall, cpu],
     calls, active, inCalls }, edges: Map "from,to" -> { from (-1: the
     thread's root), to, calls, incl }, root: the calling-context tree
     { k: -1, kids: Map k -> node { k, incl, calls, kids } } }. */
  function model(ev) {
    var adopted = [], depth = 0, st = [], methods = new Map(), edges = new Map(),
        root = { k: -1, incl: [0, 0], calls: 0, kids: new Map() }, first, last, all, rootKids = [0, 0];
    ev.forEach(function (e) {
      if (e.x === ENTER) depth++;
      else if (depth) depth--;
      else adopted.push(e.k);
    });
    first = [ev[0].w, ev[0].c];
    last = [ev[ev.length - 1].w, ev[ev.length - 1].c];
    all = adopted.slice().reverse().map(function (k) { return { x: ENTER, k: k, w: first[0], c: first[1] }; })
      .concat(ev);
    function method(k) {
      var m = methods.get(k);
      if (!m) {
        m = { k: k, incl: [0, 0], excl: [0, 0], calls: 0, active: 0, inCalls: 0 };
        methods.set(k, m);
      }
      return m;
    }
    function pop(w, c) {
      var f = st.pop(), d = [w - f.w, c - f.c], m = methods.get(f.k), key = f.from + ',' + f.k,
          e = edges.get(key), parent = st.length ? st[st.length - 1].kid : rootKids;
      if (!e) {
        e = { from: f.from, to: f.k, calls: 0, incl: [0, 0] };
        edges.set(key, e);
      }
      m.excl[0] += d[0] - f.kid[0];
      m.excl[1] += d[1] - f.kid[1];
      m.active--;
      e.calls++;
      m.inCalls++;
      if (!m.active) {
        m.calls++;
        m.incl[0] += d[0];
        m.incl[1] += d[1];
        e.incl[0] += d[0];
        e.incl[1] += d[1];
      }
      f.node.calls++;
      f.node.incl[0] += d[0];
      f.node.incl[1] += d[1];
      parent[0] += d[0];
      parent[1] += d[1];
    }
    all.forEach(function (e) {
      var top, node, parentNode;
      if (e.x === EXIT) {
        if (st.length) pop(e.w, e.c);
        return;
      }
      top = st.length ? st[st.length - 1] : null;
      parentNode = top ? top.node : root;
      node = parentNode.kids.get(e.k);
      if (!node) {
        node = { k: e.k, incl: [0, 0], calls: 0, kids: new Map() };
        parentNode.kids.set(e.k, node);
      }
      method(e.k).active++;
      st.push({ k: e.k, from: top ? top.k : -1, w: e.w, c: e.c, kid: [0, 0], node: node });
    });
    while (st.length) pop(last[0], last[1]);
    return { first: first, last: last, methods: methods, edges: edges, root: root, top: rootKids };
  }

  /* Every thread of the log decoded, or null when one cannot be (the
     page then offers no window). */
  function load(W) {
    var out = [], i, d;
    for (i = 0; i < W.threads.length; i++) {
      d = decode(W.threads[i]);
      if (!d) return null;
      d.li = i;
      out.push(d);
    }
    return out;
  }

  /* Children of a tree node, by inclusive time on clock ci descending,
     then method position. */
  function sortedKids(n, ci) {
    return Array.from(n.kids.values()).sort(function (a, b) { return b.incl[ci] - a.incl[ci] || a.k - b.k; });
  }
  function kidSum(n) {
    var s = [0, 0];
    n.kids.forEach(function (c) { s[0] += c.incl[0]; s[1] += c.incl[1]; });
    return s;
  }

  /* The page's data for window [F, T] of the decoded threads th: views
     (as #cg-data's: all threads, then each listed thread), the trees (as
     #cg-tree-data's threads) and the flame graph (as the flame data's
     threads), on the clocks of opt: { primary: 0 wall / 1 cpu, dual,
     nlisted, nviews, flameFraction, flameDepth }.  Also the window's
     threads (page index, time) and its calls. */
  function compute(th, F, T, opt) {
    var P = opt.primary, O = 1 - P, dual = opt.dual, models = [], views = [], allM = new Map(),
        allE = new Map(), total = [0, 0], trees = [], flames = [], calls = 0;
    th.forEach(function (t) {
      var ev = clip(t.recs, F, T), m;
      if (!ev || !ev.length) return;
      m = model(ev);
      m.pi = t.pi;
      models.push(m);
    });
    function addM(map, m) {
      var x = map.get(m.k);
      if (!x) {
        x = { k: m.k, incl: [0, 0], excl: [0, 0], calls: 0, inCalls: 0 };
        map.set(m.k, x);
      }
      x.incl[0] += m.incl[0]; x.incl[1] += m.incl[1];
      x.excl[0] += m.excl[0]; x.excl[1] += m.excl[1];
      x.calls += m.calls;
      x.inCalls += m.inCalls;
    }
    function addE(map, e, from) {
      var key = from + ',' + e.to, x = map.get(key);
      if (!x) {
        x = { from: from, to: e.to, calls: 0, incl: [0, 0] };
        map.set(key, x);
      }
      x.calls += e.calls;
      x.incl[0] += e.incl[0];
      x.incl[1] += e.incl[1];
    }
    function view(t, tot, ms, es) {
      var v = { t: t, total: tot[P], g: -1, m: [], e: [] };
      if (dual) v.ototal = tot[O];
      ms.forEach(function (m) {
        v.m.push(m.k, m.incl[P], m.excl[P], m.calls, m.inCalls - m.calls);
        if (dual) v.m.push(m.incl[O], m.excl[O]);
      });
      es.forEach(function (e) {
        v.e.push(e.from, e.to, e.calls, e.incl[P]);
        if (dual) v.e.push(e.incl[O]);
      });
      return v;
    }
    var perThread = [];
    models.forEach(function (m) {
      var tt = [m.last[0] - m.first[0], m.last[1] - m.first[1]], listed = m.pi >= 0,
          rootFrom = listed ? -1 - m.pi : -1 - opt.nlisted, es = [];
      m.time = tt;
      total[0] += tt[0];
      total[1] += tt[1];
      m.methods.forEach(function (x) { addM(allM, x); calls += x.inCalls; });
      m.edges.forEach(function (e) {
        addE(allE, e, e.from < 0 ? rootFrom : e.from);
        es.push(e.from < 0 ? { from: -1 - m.pi, to: e.to, calls: e.calls, incl: e.incl } : e);
      });
      if (listed) perThread[m.pi] = view(m.pi, tt, m.methods, es);
    });
    views.push(view(-1, total, allM, allE));
    for (var vi = 1; vi < opt.nviews; vi++)
      views.push(perThread[vi - 1] || { t: vi - 1, total: 0, ototal: dual ? 0 : undefined, g: -1, m: [], e: [] });
    if (!dual) views.forEach(function (v) { delete v.ototal; });
    models.forEach(function (m) {
      var a, f, top, min;
      if (m.pi < 0) return;
      top = m.top;
      a = [m.pi, -1, m.time[P], Math.max(0, m.time[P] - top[P]), 0];
      if (dual) a.push(Math.max(m.time[O], top[O]), Math.max(m.time[O], top[O]) - top[O]);
      a.push(m.root.kids.size);
      (function put(n) {
        sortedKids(n, P).forEach(function (c) {
          var s = kidSum(c);
          a.push(c.k, c.incl[P], Math.max(0, c.incl[P] - s[P]), c.calls);
          if (dual) a.push(c.incl[O], Math.max(0, c.incl[O] - s[O]));
          a.push(c.kids.size);
          put(c);
        });
      }(m.root));
      trees.push(a);
      /* The flame graph leaves out frames under 1/fraction of the thread's
         time, or of no time, or deeper than flameDepth. */
      min = Math.floor(m.time[P] / opt.flameFraction);
      function keep(n) {
        return sortedKids(n, P).filter(function (c) { return c.incl[P] > 0 && c.incl[P] >= min; });
      }
      f = [m.pi, m.time[P]];
      if (dual) f.push(Math.max(m.time[O], top[O]));
      (function put(n, d) {
        var ks = d < opt.flameDepth ? keep(n) : [], s = kidSum(n);
        f.push(n.k, n.incl[P], n.k < 0 ? 0 : Math.max(0, n.incl[P] - s[P]), ks.length);
        if (dual) f.push(n.incl[O], n.k < 0 ? 0 : Math.max(0, n.incl[O] - s[O]));
        ks.forEach(function (c) { put(c, d + 1); });
      }(m.root, 0));
      flames.push(f);
    });
    return { views: views, trees: trees, flames: flames, calls: calls,
      threads: models.map(function (m) { return { pi: m.pi, time: m.time }; }) };
  }

  /* A window bound in us as --range writes it: ms with at most three
     decimals, trailing zeros dropped ("1203.125", "1240.5", "7"). */
  function rangeMs(us) {
    var neg = us < 0, a = Math.abs(us), s = String(Math.floor(a / 1000)), f = String(a % 1000).padStart(3, '0');
    f = f.replace(/0+$/, '');
    return (neg ? '-' : '') + s + (f ? '.' + f : '');
  }

  return { ENTER: ENTER, EXIT: EXIT, decode: decode, clip: clip, model: model, load: load, compute: compute,
    rangeMs: rangeMs };
}());
if (typeof module === 'object' && module.exports) module.exports = cgWindow;
