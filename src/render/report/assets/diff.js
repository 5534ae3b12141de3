'use strict';
/* The comparison page (-d with -h): builds the three tables from
 * #cg-diff-data, sorts any column (click a header, again to reverse),
 * filters every table by the search box (smart case, as in the main report)
 * and puts at most PAGE rows of a table in the document at a time.  Names
 * reach the page through textContent only. */
(function () {
  var D = JSON.parse(document.getElementById('cg-diff-data').textContent);
  var search = document.getElementById('search');
  var matched = document.getElementById('matched');
  var ms = cgUtil.ms, PAGE = 300;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function signed(us) { return us > 0 ? '+' + ms(us) : ms(us); }
  /* later / base with two decimals; null without a base. */
  function ratio(b, l) { return b ? l / b : null; }

  /* Rows as objects; time columns in microseconds. */
  var rows = D.rows.map(function (a, i) {
    return { st: a[0], name: a[1], full: a[2], lower: a[1].toLowerCase(), ord: i,
             bi: a[3], li: a[4], be: a[5], le: a[6], bc: a[7] + a[8], lc: a[9] + a[10],
             bcs: a[7] + '+' + a[8], lcs: a[9] + '+' + a[10],
             di: a[4] - a[3], de: a[6] - a[5], q: ratio(a[3], a[4]),
             odi: D.other ? a[11] : 0, ode: D.other ? a[12] : 0 };
  });

  /* Columns: heading, tooltip, value to sort by, text, class. */
  function col(head, title, get, text, cls, w) {
    return { head: head, title: title, get: get, text: text, cls: cls || 'n', w: w };
  }
  var NAME = col('Method', 'Method (full name in the tooltip)', function (r) { return r.name; },
    null, 'name');
  var BOTH = [NAME,
    col('Incl base', 'Inclusive ms in the base run', function (r) { return r.bi; }, function (r) { return ms(r.bi); }),
    col('Incl later', 'Inclusive ms in the later run', function (r) { return r.li; }, function (r) { return ms(r.li); }),
    col('Incl \u0394', 'Change of inclusive ms (later - base)', function (r) { return r.di; },
      function (r) { return signed(r.di); }, 'n d'),
    col('Ratio', 'later / base inclusive', function (r) { return r.q === null ? Infinity : r.q; },
      function (r) { return r.q === null ? '-' : r.q.toFixed(2); }, 'n', 'ratio'),
    col('Self base', 'Self (exclusive) ms in the base run', function (r) { return r.be; }, function (r) { return ms(r.be); }),
    col('Self later', 'Self (exclusive) ms in the later run', function (r) { return r.le; }, function (r) { return ms(r.le); }),
    col('Self \u0394', 'Change of self ms (later - base)', function (r) { return r.de; },
      function (r) { return signed(r.de); }, 'n d')
  ].concat(D.other ? [
    /* The other clock's changes beside the compared clock's. */
    col('Incl \u0394 ' + D.other, 'Change of inclusive ms on the ' + D.other + ' clock (later - base)',
      function (r) { return r.odi; }, function (r) { return signed(r.odi); }, 'n d'),
    col('Self \u0394 ' + D.other, 'Change of self ms on the ' + D.other + ' clock (later - base)',
      function (r) { return r.ode; }, function (r) { return signed(r.ode); }, 'n d')
  ] : [], [
    col('Calls base', 'Calls + recursive calls in the base run', function (r) { return r.bc; }, function (r) { return r.bcs; }, 'n', 'calls'),
    col('Calls later', 'Calls + recursive calls in the later run', function (r) { return r.lc; }, function (r) { return r.lcs; }, 'n', 'calls')]);
  function one(base) {
    return [NAME,
      col('Incl ms', 'Inclusive ms', function (r) { return base ? r.bi : r.li; },
        function (r) { return ms(base ? r.bi : r.li); }),
      col('Self ms', 'Self (exclusive) ms', function (r) { return base ? r.be : r.le; },
        function (r) { return ms(base ? r.be : r.le); }),
      col('Calls', 'Calls + recursive calls', function (r) { return base ? r.bc : r.lc; },
        function (r) { return base ? r.bcs : r.lcs; })];
  }

  var tables = [];
  function Table(id, st, cols) {
    var t = document.getElementById(id), self = this, cg = el('colgroup'), tr = el('tr');
    this.t = t;
    this.cols = cols;
    this.rows = rows.filter(function (r) { return r.st === st; });
    this.key = -1; /* the data's order: largest change first */
    this.dir = -1;
    this.limit = PAGE;
    if (!t) return;
    cols.forEach(function (c, i) {
      var th = el('th', c.cls === 'name' ? 'name' : 'n'), b = el('button', null, c.head);
      b.type = 'button';
      b.title = c.title + '; click to sort';
      th.appendChild(b);
      th.setAttribute('data-col', String(i));
      tr.appendChild(th);
      cg.appendChild(el('col', c.w || (i ? 'num' : 'name')));
    });
    t.insertBefore(cg, t.tHead);
    t.tHead.appendChild(tr);
    t.tHead.addEventListener('click', function (ev) {
      var th = ev.target.closest('th'), i;
      if (!th) return;
      i = +th.getAttribute('data-col');
      if (i === self.key) self.dir = -self.dir;
      else { self.key = i; self.dir = i === 0 ? 1 : -1; }
      t.tHead.querySelectorAll('th').forEach(function (h) {
        if (h === th) h.setAttribute('aria-sort', self.dir < 0 ? 'descending' : 'ascending');
        else h.removeAttribute('aria-sort');
      });
      self.render();
    });
    t.tBodies[0].addEventListener('click', function (ev) {
      var b = ev.target.closest('button.more');
      if (!b) return;
      self.limit = +b.getAttribute('data-n');
      self.render();
    });
    tables.push(this);
  }
  Table.prototype.sorted = function () {
    var k = this.key, dir = this.dir, c = this.cols[k];
    if (k < 0) return this.rows.slice();
    return this.rows.slice().sort(function (a, b) {
      var x = c.get(a), y = c.get(b), v;
      if (typeof x === 'string') v = x < y ? -1 : x > y ? 1 : 0;
      else v = x === y ? 0 : x < y ? -1 : 1;
      return v * dir || a.ord - b.ord;
    });
  };
  Table.prototype.render = function () {
    var test = cgUtil.matcher(search.value), frag = document.createDocumentFragment(), self = this,
        shown, tr, td, b;
    if (!this.t) return;
    this.shown = this.sorted().filter(function (r) { return !test || test(r.name, r.lower); });
    shown = this.shown.slice(0, this.limit);
    shown.forEach(function (r) {
      tr = el('tr');
      self.cols.forEach(function (c) {
        if (c.cls === 'name') {
          td = el('td', 'name', r.name);
          td.title = r.full;
        } else {
          td = el('td', c.cls, c.text(r));
          /* A change is red when slower, blue when faster, by its own sign. */
          if (c.cls === 'n d') td.classList.add(c.get(r) > 0 ? 'up' : c.get(r) < 0 ? 'down' : 'zero');
        }
        tr.appendChild(td);
      });
      frag.appendChild(tr);
    });
    if (this.shown.length > this.limit) {
      tr = el('tr', 'more');
      td = el('td', null, (this.shown.length - this.limit) + ' more rows ');
      td.colSpan = this.cols.length;
      b = el('button', 'more', 'Show ' + Math.min(PAGE, this.shown.length - this.limit) + ' more');
      b.type = 'button';
      b.setAttribute('data-n', String(this.limit + PAGE));
      td.appendChild(b);
      b = el('button', 'more', 'Show all');
      b.type = 'button';
      b.setAttribute('data-n', String(this.shown.length));
      td.appendChild(b);
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    this.t.tBodies[0].textContent = '';
    this.t.tBodies[0].appendChild(frag);
    this.t.closest('section').querySelector('.count').textContent =
      search.value ? this.shown.length + ' of ' + this.rows.length : String(this.rows.length);
  };

  new Table('both', 0, BOTH);
  new Table('base-only', 1, one(true));
  new Table('later-only', 2, one(false));
  function renderAll() {
    var n = 0;
    tables.forEach(function (t) { t.limit = PAGE; t.render(); n += t.shown.length; });
    matched.textContent = search.value ? n + ' of ' + rows.length + ' methods match' : rows.length + ' methods';
  }
  search.addEventListener('input', renderAll);
  renderAll();
}());
