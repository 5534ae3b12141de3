'use strict';
/* The repeated-runs page (-d with several traces a side, and -h): builds
 * the table from #cg-runs-data for the chosen metric, in the order the
 * data gives (significant changes first), filters it by the search box
 * (smart case) and puts at most PAGE rows in the document at a time.  Each
 * row's strip draws every run's value as a dot, base above and later
 * below, with each side's median as a tick.  Names reach the page through
 * textContent only. */
(function () {
  var D = JSON.parse(document.getElementById('cg-runs-data').textContent);
  var table = document.getElementById('runs');
  var search = document.getElementById('search');
  var matched = document.getElementById('matched');
  var metricsBar = document.getElementById('metrics');
  var PAGE = 300, W = 204, PAD = 6;
  var metric = 0, limit = PAGE;
  var rows = D.rows.map(function (a, i) {
    return { i: i, kind: a[0], name: a[1], lower: a[1].toLowerCase(), full: a[2],
             cb: a[3], cl: a[4], cflag: a[5] };
  });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  /* A mark of the strip at x px, in the row of its side. */
  function mark(cls, x) {
    var e = el('span', cls);
    e.style.left = x.toFixed(1) + 'px';
    return e;
  }
  function calls(m2) { return Math.floor(m2 / 2) + (m2 % 2 ? '.5' : ''); }
  function one(v) { return D.norm ? cgUtil.half(2 * v, true) : cgUtil.ms(v); }

  /* Every run of the row as a dot on the row's own scale, each side's
     median as a tick. */
  function strip(v, st) {
    var lo = Math.min(st[2], st[4]), hi = Math.max(st[3], st[5]), s = el('div', 'runs');
    s.title = 'base: ' + v[0].map(one).join(', ') + '\nlater: ' + v[1].map(one).join(', ');
    [0, 1].forEach(function (side) {
      var c = side ? 'l' : 'b';
      s.appendChild(mark('med ' + c, cgUtil.stripX(st[side] / 2, lo, hi, W, PAD)));
      v[side].forEach(function (x) {
        s.appendChild(mark('dot ' + c, cgUtil.stripX(x, lo, hi, W, PAD)));
      });
    });
    return s;
  }

  function render() {
    var M = D.metrics[metric], test = cgUtil.matcher(search.value);
    var frag = document.createDocumentFragment(), tb = table.tBodies[0], list, tr, td, b;
    list = M.order.map(function (i) { return rows[i]; })
      .filter(function (r) { return !test || test(r.name, r.lower); });
    list.slice(0, limit).forEach(function (r) {
      var st = M.st[r.i], ch;
      tr = el('tr', 'kind' + r.kind);
      td = el('td', 'name', r.name);
      td.title = r.full;
      tr.appendChild(td);
      [0, 1].forEach(function (side) {
        td = el('td', 'n', cgUtil.half(st[side], D.norm) + ' ');
        td.appendChild(el('small', null, cgUtil.rangePct(st[side], st[2 + 2 * side], st[3 + 2 * side])));
        tr.appendChild(td);
      });
      if (!st[8]) ch = el('td', 'n same', '~');
      else if (st[6] === null) ch = el('td', 'n up', 'new');
      else ch = el('td', 'n ' + (st[6] > 0 ? 'up' : st[6] < 0 ? 'down' : 'same'),
                   (st[6] > 0 ? '+' : '') + st[6].toFixed(2) + '%');
      tr.appendChild(ch);
      tr.appendChild(el('td', 'n', st[7].toFixed(3)));
      td = el('td', 'n' + (r.cflag ? ' flag' : ''), r.cb === null ? '' :
              r.cflag ? calls(r.cb) + '\u2192' + calls(r.cl) + ' !' : calls(r.cb));
      if (r.cflag) td.title = 'the median calls per run differ';
      tr.appendChild(td);
      td = el('td', 'strip');
      td.appendChild(strip(M.v[r.i], st));
      tr.appendChild(td);
      frag.appendChild(tr);
    });
    if (list.length > limit) {
      tr = el('tr', 'more');
      td = el('td', null, (list.length - limit) + ' more rows ');
      td.colSpan = 7;
      b = el('button', 'more', 'Show ' + Math.min(PAGE, list.length - limit) + ' more');
      b.type = 'button';
      b.setAttribute('data-n', String(limit + PAGE));
      td.appendChild(b);
      b = el('button', 'more', 'Show all');
      b.type = 'button';
      b.setAttribute('data-n', String(list.length));
      td.appendChild(b);
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    tb.textContent = '';
    tb.appendChild(frag);
    matched.textContent = search.value ? list.length + ' of ' + M.order.length + ' rows match'
                                       : M.order.length + ' rows';
  }

  D.metrics.forEach(function (M, i) {
    var b = el('button', null, M.label);
    b.type = 'button';
    b.setAttribute('role', 'radio');
    b.setAttribute('aria-checked', String(i === metric));
    b.addEventListener('click', function () {
      metric = i;
      limit = PAGE;
      metricsBar.querySelectorAll('button').forEach(function (x, j) {
        x.setAttribute('aria-checked', String(j === i));
      });
      render();
    });
    metricsBar.appendChild(b);
  });
  table.tBodies[0].addEventListener('click', function (ev) {
    var b = ev.target.closest('button.more');
    if (!b) return;
    limit = +b.getAttribute('data-n');
    render();
  });
  search.addEventListener('input', function () { limit = PAGE; render(); });
  render();
}());
