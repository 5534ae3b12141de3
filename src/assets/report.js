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
  var U = cgUtil, ms = U.ms, pct = U.pct, nodeId = function (k) { return U.nodeId(M[k][2]); };
  var byNode = new Map(), names = [], lower = [], cache = [];
  var PAGE = 300, limit = PAGE;
  var cur = null, sortKey = 'incl', sortDir = -1, hlRow = null, flashed = null, zoom = 1;

  M.forEach(function (m, k) {
    byNode.set(nodeId(k), k);
    names.push(m[0]);
    lower.push(m[0].toLowerCase());
  });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function threadLabel(t) { return T[t][1] + ' (thread ' + T[t][0] + ')'; }

  /* Rows, parents and children of view vi, built once. */
  function prepare(vi) {
    var v = V[vi], t, g;
    if (cache[vi]) return cache[vi];
    t = U.buildView(v, false);
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
    var tr = el('tr', 'row'), td = el('td', 'name'), b = el('button', 'tog', '\u25b8'), s, a, node;
    tr.id = 'row-' + nodeId(r.k);
    tr.setAttribute('data-k', r.k);
    b.type = 'button';
    b.title = 'Parents and children';
    b.setAttribute('aria-expanded', 'false');
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
    tr.appendChild(numCell(ms(r.incl)));
    tr.appendChild(numCell(pct(r.incl, cur.v.total)));
    tr.appendChild(numCell(ms(r.excl)));
    tr.appendChild(numCell(pct(r.excl, cur.v.total)));
    tr.appendChild(numCell(r.calls + '+' + r.rec));
    tr.appendChild(numCell(r.calls ? ms(Math.floor(r.incl / r.calls)) : '-'));
    return tr;
  }
  function relRow(tb, kind, who, calls, incl, base, self) {
    var tr = el('tr', self ? 'self' : kind), td;
    tr.appendChild(el('td', 'kind', kind));
    tr.appendChild(numCell(String(calls)));
    tr.appendChild(numCell(pct(incl, base)));
    tr.appendChild(numCell(ms(incl)));
    td = el('td');
    if (who < 0) td.appendChild(el('span', 'root', threadLabel(-1 - who)));
    else if (self) td.textContent = M[who][0];
    else td.appendChild(mlink(who));
    tr.appendChild(td);
    tb.appendChild(tr);
  }
  /* Traceview's profile panel: parents, the method, children; % of the method's inclusive time. */
  function makeDetail(r) {
    var tr = el('tr', 'detail'), td = el('td'), t = el('table', 'rel'), th = el('thead'),
        hr = el('tr'), tb = el('tbody');
    td.colSpan = 7;
    ['', 'calls', '% incl', 'incl ms', 'method'].forEach(function (h, i) {
      hr.appendChild(el('th', i && i < 4 ? 'num' : '', h));
    });
    th.appendChild(hr);
    t.appendChild(th);
    (cur.par.get(r.k) || []).forEach(function (e) {
      relRow(tb, 'parent', e.from, e.calls, e.incl, r.incl, false);
    });
    relRow(tb, 'method', r.k, r.calls + '+' + r.rec, r.incl, r.incl, true);
    (cur.chi.get(r.k) || []).forEach(function (e) {
      relRow(tb, 'child', e.to, e.calls, e.incl, r.incl, false);
    });
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
    rows.sort(U.comparator(sortKey, sortDir, names, false));
    cur.order = match ? rows.filter(function (r) { return match(names[r.k], lower[r.k]); }) : rows;
    cur.order.forEach(function (r, i) {
      sum += r.excl;
      if (i >= limit) return;
      if (!r.tr) r.tr = makeRow(r);
      frag.appendChild(r.tr);
      if (r.open) frag.appendChild(r.det);
    });
    if (cur.order.length > limit) {
      tr = el('tr', 'more');
      td = el('td', null, (cur.order.length - limit) + ' more rows ');
      td.colSpan = 7;
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
      ? cur.order.length + ' of ' + rows.length + ' methods match, ' + pct(sum, cur.v.total) +
        '% of total time (exclusive)'
      : rows.length + ' methods, total ' + ms(cur.v.total) + ' ms';
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

  function applyZoom() {
    graphs.querySelectorAll('svg').forEach(function (s) {
      if (!s.hasAttribute('data-w')) {
        s.setAttribute('data-w', s.getAttribute('width'));
        s.setAttribute('data-h', s.getAttribute('height'));
      }
      s.setAttribute('width', parseFloat(s.getAttribute('data-w')) * zoom + 'pt');
      s.setAttribute('height', parseFloat(s.getAttribute('data-h')) * zoom + 'pt');
    });
  }
  function fitZoom() {
    var s = cur.graph && cur.graph.querySelector('svg'), w;
    if (!s) return;
    w = parseFloat(s.getAttribute('data-w') || s.getAttribute('width')) * 4 / 3;
    zoom = Math.min(1, (graphs.clientWidth - 4) / w);
    applyZoom();
  }

  function setView(vi) {
    cur = prepare(vi);
    limit = PAGE;
    graphs.querySelectorAll('div.graphview').forEach(function (d) { d.hidden = d !== cur.graph; });
    note.hidden = !!cur.graph;
    if (!cur.graph) {
      note.textContent = cur.v.m.length === 0
        ? 'No method ran on this thread.'
        : 'This report includes graphs for all threads and the ' + D.graphThreads +
          ' threads with the most time, to stay small; run callgraph --thread ' +
          T[cur.v.t][0] + ' -g out.svg on the trace for this one.';
    }
    render();
  }

  document.querySelectorAll('#flat th[data-key]').forEach(function (th) {
    th.addEventListener('click', function () {
      var k = th.getAttribute('data-key');
      if (k === sortKey) sortDir = -sortDir;
      else {
        sortKey = k;
        sortDir = k === 'name' ? 1 : -1;
      }
      document.querySelectorAll('#flat th[data-key]').forEach(function (h) {
        if (h === th) h.setAttribute('aria-sort', sortDir < 0 ? 'descending' : 'ascending');
        else h.removeAttribute('aria-sort');
      });
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
    id = g.id.slice(box.getAttribute('data-prefix').length);
    if (byNode.has(id)) goRow(byNode.get(id));
  });
  search.addEventListener('input', render);
  sel.addEventListener('change', function () { setView(+sel.value); });
  document.getElementById('zoom-in').addEventListener('click', function () { zoom *= 1.25; applyZoom(); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoom /= 1.25; applyZoom(); });
  document.getElementById('zoom-1').addEventListener('click', function () { zoom = 1; applyZoom(); });
  document.getElementById('zoom-fit').addEventListener('click', fitZoom);
  document.documentElement.style.setProperty('--barh', document.querySelector('.bar').offsetHeight + 'px');
  setView(+sel.value || 0);
  applyZoom();
}());
