'use strict';
(function () {
  var D = JSON.parse(document.getElementById('cg-data').textContent);
  var M = D.methods, T = D.threads, V = D.views;
  var tbody = document.querySelector('#flat tbody');
  var search = document.getElementById('search');
  var matched = document.getElementById('matched');
  var sel = document.getElementById('thread');
  var note = document.getElementById('graph-note');
  var graphs = document.getElementById('graphs');
  var clockSel = document.getElementById('clock');
  var table = document.getElementById('flat');
  var U = cgUtil, ms = U.ms, pct = U.pct, nodeId = function (k) { return U.nodeId(M[k][2]); };
  var byNode = new Map(), names = [], lower = [], cache = [], tidIndex = new Map();
  var PAGE = 300, limit = PAGE;
  var cur = null, sortKey = 'incl', sortDir = -1, hlRow = null, flashed = null, zoom = 1;
  /* The whole trace's views: V holds a window's instead while one is shown
     (winui.js); the call graph always shows the whole trace. */
  var whole = V, wholeCache = [];
  /* The clocks: D.clock is the data's primary clock, D.other the other one
     (null on a single-clock trace); `shown` is the one the switch selects,
     which orders and colours everything.  sortClock is the clock of the
     sorted column (null for columns on no clock). */
  var shown = D.clock, sortClock = D.other ? D.clock : null;
  /* A sampled trace counts stack changes, not calls. */
  var CALLS = D.sampled ? 'stack changes' : 'calls';
  /* The table's columns from its header: { key, clock } (clock null when
     the column is on no clock, or on the one clock of the trace). */
  var cols = Array.prototype.map.call(document.querySelectorAll('#flat th[data-key]'), function (th) {
    return { key: th.getAttribute('data-key'), clock: th.getAttribute('data-clock') };
  });

  M.forEach(function (m, k) {
    byNode.set(nodeId(k), k);
    names.push(m[0]);
    lower.push(m[0].toLowerCase());
  });
  T.forEach(function (t, i) { tidIndex.set('t' + t[0], i); });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  /* A thread's name and id; the entry of folded idle threads (id -1) by name. */
  function threadLabel(t) { return T[t][0] < 0 ? T[t][1] : T[t][1] + ' (thread ' + T[t][0] + ')'; }

  /* Rows, parents and children of view vi, built once. */
  function prepare(vi) {
    var v = V[vi], t, g;
    if (cache[vi]) return cache[vi];
    t = U.buildView(v, !!D.other, D.clock === 'cpu');
    g = v.g >= 0 ? document.getElementById('graph-' + v.g) : null;
    cache[vi] = { v: v, rows: t.rows, order: [], byM: t.byM, par: t.par, chi: t.chi, graph: g,
                  prefix: g ? g.getAttribute('data-prefix') : '' };
    return cache[vi];
  }

  function numCell(text) { return el('td', 'num', text); }
  function mlink(k) {
    var a = el('a', 'mlink', M[k][0]);
    a.href = '#row-' + nodeId(k);
    a.setAttribute('data-k', k);
    if (M[k][1]) a.title = M[k][1];
    return a;
  }
  function makeRow(r) {
    var tr = el('tr', 'row'), td = el('td', 'name'), b = el('button', 'tog', r.open ? '\u25be' : '\u25b8'),
        s, a, node;
    tr.id = 'row-' + nodeId(r.k);
    tr.setAttribute('data-k', r.k);
    b.type = 'button';
    b.title = 'Parents and children';
    b.setAttribute('aria-expanded', String(!!r.open));
    td.appendChild(b);
    s = el('span', 'mname', M[r.k][0]);
    if (M[r.k][1]) s.title = M[r.k][1];
    td.appendChild(s);
    node = cur.prefix + nodeId(r.k);
    if (cur.graph && document.getElementById(node)) {
      a = el('a', 'nodelink', 'graph');
      a.href = '#' + node;
      a.title = 'Show this method in the call graph';
      a.setAttribute('data-node', node);
      td.appendChild(a);
    }
    tr.appendChild(td);
    cols.forEach(function (c) {
      if (c.key !== 'name') tr.appendChild(cell(r, c));
    });
    return tr;
  }
  /* 1 when clock c is the data's other clock. */
  function isOther(c) { return !!c && c !== D.clock; }
  function totalOn(c) { return isOther(c) ? cur.v.ototal : cur.v.total; }
  /* Row r's cell of column c; time cells carry their clock as class c-NAME. */
  function cell(r, c) {
    var o = isOther(c.clock || shown), td, wall, cpu;
    switch (c.key) {
    case 'incl': td = numCell(ms(U.timeOf(r, 'incl', o))); break;
    case 'inclp': td = numCell(pct(U.timeOf(r, 'incl', o), totalOn(c.clock || shown))); break;
    case 'excl': td = numCell(ms(U.timeOf(r, 'excl', o))); break;
    case 'exclp': td = numCell(pct(U.timeOf(r, 'excl', o), totalOn(c.clock || shown))); break;
    case 'off':
      wall = U.timeOf(r, 'incl', D.clock === 'cpu');
      cpu = U.timeOf(r, 'incl', D.clock !== 'cpu');
      td = numCell(U.offCpu(wall, cpu));
      break;
    case 'calls': td = numCell(r.calls + '+' + r.rec); break;
    default:
      td = numCell(r.calls ? ms(Math.floor(U.timeOf(r, 'incl', isOther(shown)) / r.calls)) : '-');
      td.classList.add('mpc');
    }
    if (c.clock) td.classList.add('c-' + c.clock);
    return td;
  }
  /* A parents/children row: the share of the method's inclusive time on the
     shown clock, then the inclusive time on each clock (the shown first). */
  function relRow(tb, kind, who, calls, x, base, self) {
    var tr = el('tr', self ? 'self' : kind), td, o = isOther(shown);
    tr.appendChild(el('td', 'kind', kind));
    tr.appendChild(numCell(String(calls)));
    tr.appendChild(numCell(pct(o ? x.oincl : x.incl, o ? base.oincl : base.incl)));
    tr.appendChild(numCell(ms(o ? x.oincl : x.incl)));
    if (D.other) tr.appendChild(numCell(ms(o ? x.incl : x.oincl)));
    td = el('td');
    if (who < 0) td.appendChild(el('span', 'root', threadLabel(-1 - who)));
    else if (self) td.textContent = M[who][0];
    else td.appendChild(mlink(who));
    tr.appendChild(td);
    tb.appendChild(tr);
  }
  /* Traceview's profile panel: parents, the method, children, each group
     by inclusive time on the shown clock; % of the method's inclusive time. */
  /* Parents or children (sorted, most time first): the first REL, then one
     row "N more (x ms)" whose button shows the rest in place. */
  var REL = 10;
  function relList(tb, kind, sorted, r, o) {
    var rest = sorted.slice(REL), sum = 0, tr, td, b;
    function add(into, e) {
      relRow(into, kind, kind === 'parent' ? e.from : e.to, e.calls, e, r, false);
    }
    sorted.slice(0, REL).forEach(function (e) { add(tb, e); });
    if (!rest.length) return;
    rest.forEach(function (e) { sum += o ? e.oincl : e.incl; });
    tr = el('tr', 'relmore');
    tr.appendChild(el('td', 'kind', kind));
    td = el('td', null, rest.length + ' more (' + ms(sum) + ' ms) ');
    td.colSpan = D.other ? 5 : 4;
    b = el('button', 'relmore', 'Show all');
    b.type = 'button';
    b.addEventListener('click', function () {
      var t = el('tbody');
      rest.forEach(function (e) { add(t, e); });
      while (t.firstChild) tb.insertBefore(t.firstChild, tr);
      tr.remove();
    });
    td.appendChild(b);
    tr.appendChild(td);
    tb.appendChild(tr);
  }
  function makeDetail(r) {
    var tr = el('tr', 'detail'), td = el('td'), t = el('table', 'rel'), th = el('thead'),
        hr = el('tr'), tb = el('tbody'), o = isOther(shown), heads,
        byTime = function (a, b) { return o ? b.oincl - a.oincl : b.incl - a.incl; };
    td.colSpan = cols.length;
    heads = D.other ? ['', CALLS, '% incl ' + shown, 'incl ' + shown + ' ms',
      'incl ' + (o ? D.clock : D.other) + ' ms', 'method'] : ['', CALLS, '% incl', 'incl ms', 'method'];
    heads.forEach(function (h, i) {
      hr.appendChild(el('th', i && i < heads.length - 1 ? 'num' : '', h));
    });
    th.appendChild(hr);
    t.appendChild(th);
    relList(tb, 'parent', (cur.par.get(r.k) || []).slice().sort(byTime), r, o);
    relRow(tb, 'method', r.k, r.calls + '+' + r.rec, r, r, true);
    relList(tb, 'child', (cur.chi.get(r.k) || []).slice().sort(byTime), r, o);
    t.appendChild(tb);
    td.appendChild(t);
    tr.appendChild(td);
    return tr;
  }


  /* Rebuild the table body: sort, filter (smart case), matched share.  Only
     the first `limit` matching rows are in the document (a row costs layout
     time; thousands make the page slow to open); buttons add the rest. */
  function render() {
    var q = search.value, match = U.matcher(q), rows = cur.rows.slice(),
        frag = document.createDocumentFragment(), sum = 0, tr, td, b;
    rows.sort(U.comparator(sortKey, sortDir, names, isOther(sortClock || shown)));
    cur.order = match ? rows.filter(function (r) { return match(names[r.k], lower[r.k]); }) : rows;
    cur.order.forEach(function (r, i) {
      sum += U.timeOf(r, 'excl', isOther(shown));
      if (i >= limit) return;
      if (!r.tr) r.tr = makeRow(r);
      frag.appendChild(r.tr);
      if (r.open) {
        if (!r.det) r.det = makeDetail(r);
        frag.appendChild(r.det);
      }
    });
    if (cur.order.length > limit) {
      tr = el('tr', 'more');
      td = el('td', null, (cur.order.length - limit) + ' more rows ');
      td.colSpan = cols.length;
      b = el('button', 'more', 'Show ' + Math.min(PAGE, cur.order.length - limit) + ' more');
      b.type = 'button';
      b.setAttribute('data-n', limit + PAGE);
      td.appendChild(b);
      b = el('button', 'more', 'Show all');
      b.type = 'button';
      b.setAttribute('data-n', cur.order.length);
      td.appendChild(b);
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    tbody.textContent = '';
    tbody.appendChild(frag);
    matched.textContent = q
      ? cur.order.length + ' of ' + rows.length + ' methods match, ' + pct(sum, totalOn(shown)) +
        '% of total time (exclusive' + (D.other ? ', ' + shown + ' clock' : '') + ')'
      : rows.length + ' methods, total ' + ms(totalOn(shown)) + ' ms' + (D.other ? ' (' + shown + ' clock)' : '');
  }

  function toggle(tr) {
    var r = cur.byM.get(+tr.getAttribute('data-k')), b = tr.querySelector('button.tog');
    r.open = !r.open;
    b.setAttribute('aria-expanded', String(r.open));
    b.textContent = r.open ? '\u25be' : '\u25b8';
    if (r.open) {
      if (!r.det) r.det = makeDetail(r);
      tr.after(r.det);
    } else {
      r.det.remove();
    }
  }

  /* Scroll to method k's row and highlight it; clears a search that hides it. */
  function goRow(k) {
    var r = cur.byM.get(k);
    if (!r) return false;
    if (cur.order.indexOf(r) < 0) {
      search.value = '';
      render();
    }
    if (cur.order.indexOf(r) >= limit) {
      limit = (Math.floor(cur.order.indexOf(r) / PAGE) + 1) * PAGE;
      render();
    }
    if (hlRow) hlRow.classList.remove('hl');
    hlRow = r.tr;
    hlRow.classList.add('hl');
    hlRow.scrollIntoView({ block: 'center' });
    return true;
  }

  function flash(g) {
    if (flashed) flashed.classList.remove('flash');
    flashed = g;
    g.scrollIntoView({ block: 'center', inline: 'center' });
    g.getBoundingClientRect();
    g.classList.add('flash');
  }

  /* Zoom is per graph (the div's data-zoom); the SVG's size in pt at
     zoom 1 is kept in data-w and data-h. */
  function svgOf(div) {
    var s = div && div.querySelector('svg');
    if (s && !s.hasAttribute('data-w')) {
      s.setAttribute('data-w', s.getAttribute('width'));
      s.setAttribute('data-h', s.getAttribute('height'));
    }
    return s;
  }
  function applyZoom() {
    var s = svgOf(cur.graph);
    if (!s) return;
    cur.graph.setAttribute('data-zoom', String(zoom));
    s.setAttribute('width', parseFloat(s.getAttribute('data-w')) * zoom + 'pt');
    s.setAttribute('height', parseFloat(s.getAttribute('data-h')) * zoom + 'pt');
  }
  /* Fit the width of the graph box (never above 1:1). */
  function fitZoom() {
    var s = svgOf(cur.graph), w;
    if (!s) return;
    w = parseFloat(s.getAttribute('data-w')) * 4 / 3;
    zoom = Math.min(1, (graphs.clientWidth - 4) / w);
    applyZoom();
  }
  /* The first view of a graph: the width of the box, or larger so that
     node text is at least 80 % of the page's font, and scrolled so the
     hottest root (the busiest thread's node; else the busiest method's)
     sits in the middle of the box, a fifth of the way down.  Later views
     of the graph keep their zoom and scroll. */
  function openGraph() {
    var div = cur.graph, s = svgOf(div), font = Infinity, page, root = null, best = -1, r, b;
    if (!s) return;
    if (div.hasAttribute('data-zoom')) {
      zoom = +div.getAttribute('data-zoom');
      applyZoom();
      graphs.scrollLeft = +div.getAttribute('data-left');
      graphs.scrollTop = +div.getAttribute('data-top');
      return;
    }
    div.querySelectorAll('g.node:not(.legend) text[font-size]').forEach(function (t) {
      font = Math.min(font, parseFloat(t.getAttribute('font-size')));
    });
    page = parseFloat(getComputedStyle(document.body).fontSize) || 14;
    zoom = U.openZoom(parseFloat(s.getAttribute('data-w')) * 4 / 3, graphs.clientWidth - 4,
      isFinite(font) ? font * 4 / 3 : 0, page);
    applyZoom();
    div.querySelectorAll('g.node.thread').forEach(function (g) {
      var i = tidIndex.get(g.id.slice(cur.prefix.length));
      if (i !== undefined && T[i][3] > best) { best = T[i][3]; root = g; }
    });
    if (!root) {
      div.querySelectorAll('g.node').forEach(function (g) {
        var k = byNode.get(g.id.slice(cur.prefix.length).replace(/^c0x/, 'm0x')), x;
        x = k === undefined ? null : cur.byM.get(k);
        if (x && x.incl > best) { best = x.incl; root = g; }
      });
    }
    if (root) {
      r = root.getBoundingClientRect();
      b = s.getBoundingClientRect();
      graphs.scrollLeft = U.scrollFor(r.left - b.left + r.width / 2, graphs.clientWidth, b.width, 0.5);
      graphs.scrollTop = U.scrollFor(r.top - b.top + r.height / 2, graphs.clientHeight, b.height, 0.2);
    }
    keepScroll();
  }
  /* Remember the current graph's scroll, for its next view. */
  function keepScroll() {
    if (!cur || !cur.graph) return;
    cur.graph.setAttribute('data-left', String(graphs.scrollLeft));
    cur.graph.setAttribute('data-top', String(graphs.scrollTop));
  }

  function setView(vi) {
    keepScroll();
    cur = prepare(vi);
    limit = PAGE;
    graphs.querySelectorAll('div.graphview').forEach(function (d) { d.hidden = d !== cur.graph; });
    openGraph();
    note.hidden = !!cur.graph;
    if (!cur.graph) {
      note.textContent = cur.v.m.length === 0
        ? 'No method ran on this thread.'
        : 'This report includes graphs for all threads and the ' + D.graphThreads +
          ' threads with the most time, to stay small; run callgraph --thread ' +
          T[cur.v.t][0] + ' -g out.svg on the trace for this one.';
    }
    paintGraph();
    render();
  }

  /* aria-sort on the header of the sorted column (key and clock), none on the others. */
  function markSorted() {
    document.querySelectorAll('#flat th[data-key]').forEach(function (h) {
      if (h.getAttribute('data-key') === sortKey && h.getAttribute('data-clock') === sortClock)
        h.setAttribute('aria-sort', sortDir < 0 ? 'descending' : 'ascending');
      else h.removeAttribute('aria-sort');
    });
  }

  /* Recolour the current graph's method and chain nodes and its call edges
     by inclusive time on the shown clock, on the scale render_gv uses; the
     primary clock gets back the colours Graphviz drew.  Waiting nodes and
     the edges into them stay grey; residual edges keep their style. */
  /* The whole trace's rows of the current view, which the graph draws. */
  function graphView() {
    var vi = +sel.value || 0, t;
    if (V === whole) return cur;
    if (!wholeCache[vi]) {
      t = U.buildView(whole[vi], !!D.other, D.clock === 'cpu');
      wholeCache[vi] = { v: whole[vi], byM: t.byM, par: t.par };
    }
    return wholeCache[vi];
  }
  function paintGraph() {
    var div = cur.graph, o = isOther(shown), gv = graphView(), total = o ? gv.v.ototal : gv.v.total;
    if (!div || !D.other || (div.getAttribute('data-clock') || D.clock) === shown) return;
    div.setAttribute('data-clock', shown);
    div.querySelectorAll('g.node').forEach(function (g) {
      var id = g.id.slice(cur.prefix.length), k, r, pos;
      if (g.classList.contains('cg-waiting') || !/^[mc]0x/.test(id)) return;
      k = byNode.get('m' + id.slice(1));
      r = k === undefined ? null : gv.byM.get(k);
      if (!r) return;
      pos = U.scalePos(U.timeOf(r, 'incl', o), total);
      paint(g, 'polygon, ellipse, path', { fill: o ? U.tempColour(pos) : null });
      setHeat(g, o ? U.heatClass(pos) : null);
    });
    div.querySelectorAll('g.edge').forEach(function (g) {
      var e = graphEdge(g), pos, c;
      if (!e) return;
      pos = U.scalePos(o ? e.oincl : e.incl, total);
      c = U.tempColour(pos);
      paint(g, 'path', { stroke: o ? c : null, 'stroke-width': o ? U.penWidth(pos) : null });
      paint(g, 'polygon', { fill: o ? c : null, stroke: o ? c : null,
        'stroke-width': o ? U.penWidth(pos) : null });
    });
  }
  /* Set attributes of g's first matching element (every match for edges),
     keeping the original in data-ATTR; a null value restores it. */
  function paint(g, what, attrs) {
    var all = g.classList.contains('edge'), els = all ? g.querySelectorAll(what) : [g.querySelector(what)];
    Array.prototype.forEach.call(els, function (x) {
      if (!x) return;
      Object.keys(attrs).forEach(function (a) {
        if (!x.hasAttribute('data-' + a)) x.setAttribute('data-' + a, x.getAttribute(a) || '');
        if (attrs[a] !== null) x.setAttribute(a, attrs[a]);
        else if (x.getAttribute('data-' + a)) x.setAttribute(a, x.getAttribute('data-' + a));
        else x.removeAttribute(a);
      });
    });
  }
  /* Replace g's cg-heat-N class by cg-heat-n (null: the one Graphviz drew). */
  function setHeat(g, n) {
    var old = Array.prototype.filter.call(g.classList, function (c) { return /^cg-heat-/.test(c); });
    if (!old.length && n === null) return;
    if (!g.hasAttribute('data-heat')) g.setAttribute('data-heat', old.join(' '));
    old.forEach(function (c) { g.classList.remove(c); });
    if (n !== null) g.classList.add('cg-heat-' + n);
    else if (g.getAttribute('data-heat')) g.classList.add(g.getAttribute('data-heat'));
  }
  /* The view's edge drawn by SVG edge g (its title names tail and head
     nodes), or null: a residual edge, an edge into a waiting node, or one
     out of a folded chain (whose last frame the title does not name). */
  function graphEdge(g) {
    var t = g.querySelector('title'), p, a, b, head, from, k;
    if (!t || g.classList.contains('residual')) return null;
    p = t.textContent.split('->');
    if (p.length !== 2) return null;
    a = p[0].trim();
    b = p[1].trim();
    if (g.classList.contains('back')) { p = a; a = b; b = p; }
    head = document.getElementById(cur.prefix + b);
    if (!/^[mc]0x/.test(b) || (head && head.classList.contains('cg-waiting'))) return null;
    k = byNode.get('m' + b.slice(1));
    if (/^t/.test(a) && tidIndex.has(a)) from = -1 - tidIndex.get(a);
    else if (/^m0x/.test(a) && byNode.has(a)) from = byNode.get(a);
    else return null;
    return (graphView().par.get(k) || []).filter(function (e) { return e.from === from; })[0] || null;
  }

  /* The clock switch: re-sort on the same column of the new clock, rebuild
     the rows and open details, recolour the graph, and tell the timeline
     and flame graph (event cg-clock on document). */
  function setClock(c) {
    shown = c;
    if (sortClock) sortClock = c;
    table.setAttribute('data-shown', c);
    cache.forEach(function (x) {
      if (x) x.rows.forEach(function (r) { r.tr = null; r.det = null; });
    });
    hlRow = null;
    markSorted();
    paintGraph();
    render();
    window.cgClock.shown = c;
    document.dispatchEvent(new CustomEvent('cg-clock', { detail: { clock: c } }));
  }

  document.querySelectorAll('#flat th[data-key]').forEach(function (th) {
    th.addEventListener('click', function () {
      var k = th.getAttribute('data-key'), c = th.getAttribute('data-clock');
      if (k === sortKey && c === sortClock) sortDir = -sortDir;
      else {
        sortKey = k;
        sortClock = c;
        sortDir = k === 'name' ? 1 : -1;
      }
      markSorted();
      render();
    });
  });
  tbody.addEventListener('click', function (ev) {
    var t = ev.target, a, g;
    if ((a = t.closest('button.tog'))) {
      toggle(a.closest('tr'));
    } else if ((a = t.closest('a.mlink'))) {
      ev.preventDefault();
      goRow(+a.getAttribute('data-k'));
    } else if ((a = t.closest('button.more'))) {
      limit = +a.getAttribute('data-n');
      render();
    } else if ((a = t.closest('a.nodelink'))) {
      ev.preventDefault();
      g = document.getElementById(a.getAttribute('data-node'));
      if (g) flash(g);
    }
  });
  graphs.addEventListener('click', function (ev) {
    var g = ev.target.closest('g.node'), box, id;
    if (!g) return;
    ev.preventDefault();
    box = g.closest('div.graphview');
    id = g.id.slice(box.getAttribute('data-prefix').length).replace(/^c0x/, 'm0x');
    if (byNode.has(id)) goRow(byNode.get(id));
  });
  search.addEventListener('input', render);
  /* What the timeline and flame graph need of the clocks: the clock their
     data is on (recorded), the other clock or null, the shown one, and a
     method's times in the current view on both clocks. */
  window.cgClock = {
    recorded: D.clock, other: D.other, shown: shown,
    method: function (k) {
      var r = cur && cur.byM.get(k);
      return r ? { incl: r.incl, excl: r.excl, oincl: r.oincl, oexcl: r.oexcl, calls: r.calls } : null;
    },
  };
  if (clockSel) {
    clockSel.value = shown;
    table.setAttribute('data-shown', shown);
    clockSel.addEventListener('change', function () { setClock(clockSel.value); });
  }
  sel.addEventListener('change', function () { setView(+sel.value); });
  /* A window of the trace (winui.js): its views replace the whole trace's,
     which come back when the detail is null.  Sort, search and the shown
     clock stay. */
  document.addEventListener('cg-window', function (ev) {
    V = ev.detail ? ev.detail.data.views : whole;
    cache = [];
    hlRow = null;
    table.setAttribute('data-window', ev.detail ? 'window' : 'whole');
    setView(+sel.value || 0);
  });
  document.getElementById('zoom-in').addEventListener('click', function () { zoom *= 1.25; applyZoom(); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoom /= 1.25; applyZoom(); });
  document.getElementById('zoom-1').addEventListener('click', function () { zoom = 1; applyZoom(); });
  document.getElementById('zoom-fit').addEventListener('click', fitZoom);
  document.documentElement.style.setProperty('--barh', document.querySelector('.bar').offsetHeight + 'px');
  /* For the other parts of the page (the trees): show method k's row. */
  window.cgShowRow = goRow;
  graphs.addEventListener('scroll', keepScroll, { passive: true });
  setView(+sel.value || 0);
}());
