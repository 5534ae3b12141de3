'use strict';
/* Top Down and Bottom Up trees of the HTML report.
 *
 * Reads #cg-tree-data (per thread, the calling-context tree in preorder; see
 * render_tree.h) and method names from #cg-data.  Top Down: the thread's
 * root, its callees, theirs...; a node's inclusive time is its exclusive
 * time plus its children's, and what the size bound left out is one
 * "smaller calls" row.  Bottom Up: each method's self time (exact: kept
 * nodes plus what the bound left out, per method), expanding into the
 * callers it ran under; a caller's self time is the method's self time
 * spent along that path, so callers add up to their parent.  Trace-derived
 * text reaches the page through textContent only. */
(function () {
  function cgTrees() {
    var D = JSON.parse(document.getElementById('cg-data').textContent);
    var X = JSON.parse(document.getElementById('cg-tree-data').textContent);
    var M = D.methods, T = D.threads, OTHER = !!X.other, STRIDE = OTHER ? 7 : 5;
    var sel = document.getElementById('thread');
    var SHOW = 100; /* children shown before "N more" */
    var INDENT = 16; /* levels of indentation at most */
    var lower = M.map(function (m) { return m[0].toLowerCase(); });

    var ms = cgUtil.ms, pct = cgUtil.pct;
    function el(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    function threadLabel(ti) {
      if (!T[ti]) return 'thread ' + ti;
      return T[ti][0] < 0 ? T[ti][1] : T[ti][1] + ' (thread ' + T[ti][0] + ')';
    }
    function curView() { return sel ? +sel.value - 1 : -1; }

    /* ---- the calling-context trees, one per thread ---- */
    var roots = [];
    var dropped = []; /* per thread: Map k -> { self, oself, calls } left out by the bound */
    /* Build the trees from X.threads and X.drops. */
    function parse() {
      roots = [];
      dropped = [];
      X.threads.forEach(function (a) {
        var ti = a[0], pos = 1, stack = [], root = null, n, c, top;
        while (pos < a.length) {
          n = { k: a[pos], incl: a[pos + 1], excl: a[pos + 2], calls: a[pos + 3],
                oi: OTHER ? a[pos + 4] : 0, oe: OTHER ? a[pos + 5] : 0, kids: [], parent: null, th: ti };
          c = a[pos + STRIDE - 1];
          pos += STRIDE;
          if (!root) root = n;
          else {
            top = stack[stack.length - 1];
            n.parent = top.n;
            top.n.kids.push(n);
            top.left--;
            if (top.left === 0) stack.pop();
          }
          if (c > 0) stack.push({ n: n, left: c });
          while (stack.length && stack[stack.length - 1].left === 0) stack.pop();
        }
        if (root) { root.root = true; roots[ti] = root; }
      });
      /* Per thread, per method: what the nodes left out by the bound ran (own
       * time on both clocks, calls), so each method's self time is exact. */
      X.drops.forEach(function (a) {
        var m = new Map(), i;
        for (i = 1; i < a.length; i += 4) m.set(a[i], { self: a[i + 1], oself: a[i + 2], calls: a[i + 3] });
        dropped[a[0]] = m;
      });
    }
    parse();
    /* Time each node's kept children leave out: the "smaller calls" row. */
    function rest(n) {
      var s = n.excl, o = n.oe;
      n.kids.forEach(function (c) { s += c.incl; o += c.oi; });
      return { incl: Math.max(0, n.incl - s), oi: Math.max(0, n.oi - o) };
    }
    function droppedSelf(ti) { return dropped[ti] || new Map(); }
    function walk(n, f) {
      var st = n ? [n] : [], x, i;
      while (st.length) {
        x = st.pop();
        f(x);
        for (i = x.kids.length - 1; i >= 0; i--) st.push(x.kids[i]);
      }
    }
    function threadsOf(vi) {
      var out = [];
      if (vi >= 0) { if (roots[vi]) out.push(vi); return out; }
      roots.forEach(function (r, ti) { if (r) out.push(ti); });
      return out;
    }
    function viewTotal(vi) { return D.views[vi + 1] ? D.views[vi + 1].total : 0; }
    function viewOtherTotal(vi) {
      var s = 0;
      threadsOf(vi).forEach(function (ti) { s += roots[ti].oi; });
      return s;
    }

    /* ---- a tree widget: rows of visible nodes, expand/collapse, keys ---- */
    function Widget(id, spec) {
      this.id = id;
      this.spec = spec;
      this.table = document.getElementById(id + '-table');
      this.tbody = this.table.querySelector('tbody');
      this.find = document.getElementById(id + '-find');
      this.found = document.getElementById(id + '-found');
      this.top = [];
      this.selected = null;
      this.matches = [];
      this.mi = -1;
      var w = this;
      this.header();
      this.tbody.addEventListener('click', function (ev) { w.click(ev); });
      this.table.addEventListener('keydown', function (ev) { w.key(ev); });
      this.find.addEventListener('input', function () { w.search(0); });
      this.find.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter') { ev.preventDefault(); w.search(ev.shiftKey ? -1 : 1); }
      });
      document.getElementById(id + '-next').addEventListener('click', function () { w.search(1); });
      document.getElementById(id + '-hot').addEventListener('click', function () { w.hottest(); });
      document.getElementById(id + '-collapse').addEventListener('click', function () { w.collapseAll(); });
    }
    Widget.prototype.header = function () {
      var cols = this.spec.cols, cg = el('colgroup'), tr = el('tr'), thead = this.table.querySelector('thead');
      cg.appendChild(el('col', 'name'));
      tr.appendChild(el('th', 'name', this.spec.nameHead));
      cols.forEach(function (c) {
        var th = el('th', 'num', c.head);
        if (c.title) th.title = c.title;
        cg.appendChild(el('col', c.cls || 'num'));
        tr.appendChild(th);
      });
      this.table.insertBefore(cg, thead);
      thead.appendChild(tr);
    };
    Widget.prototype.setView = function (vi) {
      this.vi = vi;
      this.total = viewTotal(vi);
      this.ototal = viewOtherTotal(vi);
      this.top = this.spec.top(vi, this);
      this.selected = null;
      this.matches = [];
      this.mi = -1;
      this.found.textContent = '';
      if (this.top.length === 1 && this.spec.openSingle) this.top[0].open = true;
      this.render();
      if (this.find.value) this.search(0);
    };
    Widget.prototype.kids = function (n) {
      if (!n.kidList) n.kidList = this.spec.kids(n, this);
      return n.kidList;
    };
    /* Visible rows in order: open nodes show their children (the first SHOW,
     * then a "more" row unless shown all). */
    Widget.prototype.visible = function () {
      var out = [], w = this;
      function add(list, depth, parent) {
        var lim = parent && parent.all ? list.length : Math.min(list.length, SHOW), i, hid = 0;
        if (!parent && w.topAll) lim = list.length;
        else if (!parent) lim = Math.min(list.length, w.topLimit || SHOW);
        for (i = 0; i < lim; i++) {
          list[i].depth = depth;
          out.push(list[i]);
          if (list[i].open) add(w.kids(list[i]), depth + 1, list[i]);
        }
        if (lim < list.length) {
          for (i = lim; i < list.length; i++) hid += w.spec.value(list[i]);
          out.push({ more: true, parent: parent, n: list.length - lim, sum: hid, depth: depth });
        }
      }
      add(this.top, 0, null);
      return out;
    };
    Widget.prototype.render = function () {
      var frag = document.createDocumentFragment(), w = this, rows = this.visible();
      this.rows = rows;
      rows.forEach(function (n) { frag.appendChild(w.row(n)); });
      if (!rows.length || (this.vi < 0 && (X.threadsLeftOut || X.folded))) frag.appendChild(this.note());
      this.tbody.textContent = '';
      this.tbody.appendChild(frag);
    };
    /* Why rows are missing: no method ran, the size bound left threads out,
       or idle threads are folded (their time is in the flat profile only). */
    Widget.prototype.note = function () {
      var tr = el('tr', 'more'), td, why = [];
      if (X.threadsLeftOut) {
        why.push(X.threadsLeftOut + ' thread' + (X.threadsLeftOut === 1 ? '' : 's') +
          ' left out by the size bound (' + X.budget + ' nodes); select one in the flat profile instead.');
      }
      if (X.folded) {
        why.push(X.folded + ' idle thread' + (X.folded === 1 ? '' : 's') +
          ' folded (see the threads table) and not in this tree; the flat profile counts their time.');
      }
      td = el('td', null, !this.top.length && this.vi >= 0 && !(D.views[this.vi + 1] && D.views[this.vi + 1].m.length)
        ? 'No method ran on this thread.' : why.join(' '));
      td.colSpan = 1 + this.spec.cols.length;
      tr.appendChild(td);
      return tr;
    };
    Widget.prototype.row = function (n) {
      var tr, td, tw, s, hasKids, w = this, v, lk;
      if (n.more) {
        tr = el('tr', 'more');
        td = el('td', null, n.n + ' more (' + ms(n.sum) + ' ms)');
        td.colSpan = 1 + this.spec.cols.length;
        td.style.paddingLeft = (8 + 11 * Math.min(n.depth, INDENT)) + 'px';
        s = el('button', 'showall', 'Show all');
        s.type = 'button';
        td.appendChild(s);
        tr.appendChild(td);
        tr.moreRow = n;
        return tr;
      }
      tr = el('tr', n.rest ? 'rest' : '');
      tr.node = n;
      n.tr = tr;
      tr.setAttribute('role', 'row');
      tr.setAttribute('aria-level', String(n.depth + 1));
      tr.setAttribute('data-k', String(n.k));
      td = el('td', 'name');
      /* Indent up to INDENT levels; deeper rows show their level instead, so
       * names stay readable in any call depth. */
      td.style.paddingLeft = (4 + 11 * Math.min(n.depth, INDENT)) + 'px';
      if (n.depth > INDENT) td.appendChild(el('span', 'lvl', String(n.depth)));
      hasKids = this.spec.hasKids(n);
      tw = el('span', 'tw', hasKids ? (n.open ? '\u25be' : '\u25b8') : '');
      if (hasKids) tr.setAttribute('aria-expanded', String(!!n.open));
      td.appendChild(tw);
      v = this.spec.value(n);
      s = el('span', 'tbar');
      s.style.width = Math.max(0, Math.round(40 * (this.total ? v / this.total : 0))) + 'px';
      td.appendChild(s);
      s = el('span', 'tname' + (n.k < 0 && !n.rest ? ' root' : ''), this.spec.label(n));
      td.title = this.spec.label(n) + (n.k >= 0 && M[n.k][1] ? ' ' + M[n.k][1] : '');
      td.appendChild(s);
      if (n.k >= 0) {
        lk = el('span', 'tlinks');
        [['profile', 'The method\'s row in the flat profile'], ['graph', 'The method in the call graph'],
         ['flame', 'The method in the flame graph']].forEach(function (x) {
          var a = el('a', 'tlink', x[0]);
          a.href = '#';
          a.title = x[1];
          a.setAttribute('data-go', x[0]);
          lk.appendChild(a);
        });
        td.appendChild(lk);
      }
      tr.appendChild(td);
      this.spec.cols.forEach(function (c) {
        var x = c.get(n, w), cell = el('td', 'num' + (c.other ? ' oc' : ''), x === null ? '' : x);
        tr.appendChild(cell);
      });
      if (n === this.selected) tr.classList.add('sel');
      if (n.matched) tr.classList.add('match');
      return tr;
    };
    Widget.prototype.toggle = function (n, open) {
      if (!this.spec.hasKids(n)) return;
      n.open = open === undefined ? !n.open : open;
      this.render();
    };
    Widget.prototype.select = function (n, scroll) {
      if (this.selected && this.selected.tr) this.selected.tr.classList.remove('sel');
      this.selected = n;
      if (n && n.tr) {
        n.tr.classList.add('sel');
        if (scroll) n.tr.scrollIntoView({ block: 'nearest' });
      }
    };
    /* Open every ancestor of n (and make sure n is not behind a "more" row). */
    Widget.prototype.reveal = function (n) {
      var p;
      for (p = n.wparent; p; p = p.wparent) {
        p.open = true;
        if (this.kids(p).indexOf(n) >= SHOW) p.all = true;
        n = p;
      }
      if (this.top.indexOf(n) >= (this.topLimit || SHOW)) this.topAll = true;
    };
    Widget.prototype.click = function (ev) {
      var tr = ev.target.closest('tr'), n, a;
      if (!tr) return;
      if (tr.moreRow) {
        if (tr.moreRow.parent) tr.moreRow.parent.all = true;
        else this.topAll = true;
        this.render();
        return;
      }
      n = tr.node;
      if ((a = ev.target.closest('a.tlink'))) {
        ev.preventDefault();
        go(a.getAttribute('data-go'), n.k);
        return;
      }
      this.select(n, false);
      if (ev.target.closest('.tw') || ev.detail === 2) this.toggle(n);
      this.table.focus({ preventScroll: true });
    };
    Widget.prototype.key = function (ev) {
      var rows = (this.rows || []).filter(function (r) { return !r.more; }), i = rows.indexOf(this.selected), n = this.selected;
      if (ev.target !== this.table) return;
      switch (ev.key) {
      case 'ArrowDown': i = Math.min(rows.length - 1, i + 1); break;
      case 'ArrowUp': i = Math.max(0, i - 1); break;
      case 'Home': i = 0; break;
      case 'End': i = rows.length - 1; break;
      case 'ArrowRight':
        if (!n) { i = 0; break; }
        if (this.spec.hasKids(n) && !n.open) { this.toggle(n, true); this.select(n, true); }
        else if (n.open && this.kids(n).length) this.select(this.kids(n)[0], true);
        ev.preventDefault();
        return;
      case 'ArrowLeft':
        if (!n) return;
        if (n.open) { this.toggle(n, false); this.select(n, true); }
        else if (n.wparent) this.select(n.wparent, true);
        ev.preventDefault();
        return;
      case 'Enter': case ' ':
        if (n) { this.toggle(n); this.select(n, true); }
        ev.preventDefault();
        return;
      default: return;
      }
      ev.preventDefault();
      if (rows[i]) this.select(rows[i], true);
    };
    Widget.prototype.collapseAll = function () {
      var st = this.top.slice(), n;
      while (st.length) {
        n = st.pop();
        n.open = false;
        n.all = false;
        if (n.kidList) st.push.apply(st, n.kidList);
      }
      this.topAll = false;
      this.render();
    };
    /* Open the path of the largest child from the selected node (or the top). */
    Widget.prototype.hottest = function () {
      var n = this.selected || this.top[0], k;
      if (!n) return;
      this.reveal(n);
      for (;;) {
        k = this.spec.hasKids(n) ? this.kids(n).filter(function (c) { return !c.rest; }) : [];
        if (!k.length) break;
        n.open = true;
        n = k[0];
      }
      this.render();
      this.select(n, true);
    };
    /* Find: smart-case substring of the method name; dir 0 = first match,
     * 1 / -1 = next / previous.  The path to the match is expanded. */
    Widget.prototype.search = function (dir) {
      var q = this.find.value, cs = q !== q.toLowerCase(), w = this, n;
      this.matches.forEach(function (m) { m.matched = false; });
      if (!q) {
        this.matches = [];
        this.found.textContent = '';
        this.render();
        return;
      }
      if (dir === 0 || !this.matches.length) {
        this.matches = this.spec.find(function (k) {
          return k >= 0 && (cs ? M[k][0] : lower[k]).indexOf(cs ? q : q) >= 0;
        }, this);
        this.mi = -1;
      }
      this.matches.forEach(function (m) { m.matched = true; });
      if (!this.matches.length) {
        this.found.textContent = 'no match';
        this.render();
        return;
      }
      this.mi = dir < 0 ? (this.mi - 1 + this.matches.length) % this.matches.length
                        : (this.mi + 1) % this.matches.length;
      n = this.matches[this.mi];
      this.reveal(n);
      this.render();
      this.select(n, true);
      this.found.textContent = (this.mi + 1) + ' of ' + this.matches.length +
        (this.matches.length >= w.spec.findCap ? '+' : '') + ' matches';
    };

    /* ---- Top Down ---- */
    function tdNode(n, parent) {
      return { k: n.k, c: n, wparent: parent, rest: false };
    }
    var tdCols = [
      { head: 'Incl ms', get: function (n) { return ms(n.c ? n.c.incl : n.incl); } },
      { head: 'Incl %', cls: 'pct', get: function (n, w) { return pct(n.c ? n.c.incl : n.incl, w.total); } },
      { head: 'Excl ms', get: function (n) { return n.rest ? '' : ms(n.c.excl); } },
      { head: 'Excl %', cls: 'pct', get: function (n, w) { return n.rest ? '' : pct(n.c.excl, w.total); } },
      { head: 'Calls', cls: 'calls', get: function (n) { return n.rest || n.c.root ? '' : String(n.c.calls); } }
    ];
    if (OTHER) {
      tdCols.push({ head: X.otherName + ' incl', other: true, title: 'Inclusive ms on the ' + X.otherName + ' clock',
                    get: function (n) { return ms(n.c ? n.c.oi : n.oi); } });
      tdCols.push({ head: X.otherName + ' excl', other: true, title: 'Exclusive ms on the ' + X.otherName + ' clock',
                    get: function (n) { return n.rest ? '' : ms(n.c.oe); } });
    }
    var topDown = new Widget('topdown', {
      nameHead: 'Call path (caller above callees)',
      cols: tdCols,
      openSingle: true,
      top: function (vi) {
        return threadsOf(vi).map(function (ti) { var x = tdNode(roots[ti], null); x.k = -1; x.th = ti; return x; });
      },
      hasKids: function (n) { return !n.rest && (n.c.kids.length > 0 || rest(n.c).incl > 0); },
      kids: function (n) {
        var out = n.c.kids.map(function (c) { return tdNode(c, n); }), r = rest(n.c);
        if (r.incl > 0 || r.oi > 0) out.push({ k: -2, rest: true, incl: r.incl, oi: r.oi, wparent: n });
        return out;
      },
      value: function (n) { return n.c ? n.c.incl : n.incl; },
      label: function (n) {
        if (n.rest) return 'smaller calls (under the size bound)';
        if (n.c.root) return threadLabel(n.c.th);
        return M[n.k] ? M[n.k][0] : 'method ' + n.k;
      },
      findCap: 500,
      /* Preorder over the whole tree of the view, hot children first; the
       * widget nodes on each match's path are made as needed. */
      find: function (test, w) {
        var out = [], st = w.top.slice().reverse(), n, ks, i;
        while (st.length && out.length < 500) {
          n = st.pop();
          if (!n.rest && !n.c.root && test(n.k)) out.push(n);
          if (n.rest) continue;
          ks = w.kids(n);
          for (i = ks.length - 1; i >= 0; i--) st.push(ks[i]);
        }
        return out;
      }
    });

    /* ---- Bottom Up ---- */
    /* A node: method k (or a thread root, k = -1 - thread, or the bound's
     * rest), with members: pairs (node of the calling-context tree that ran
     * k, its ancestor at this level). */
    function buGroup(members, parent) {
      var by = new Map(), out = [];
      members.forEach(function (m) {
        var a = m.a.parent, key, g;
        key = a.root ? -1 - a.th : a.k;
        g = by.get(key);
        if (!g) {
          g = { k: key, self: 0, oself: 0, calls: 0, members: [], wparent: parent, caller: true };
          by.set(key, g);
          out.push(g);
        }
        g.self += m.n.excl;
        g.oself += m.n.oe;
        g.calls += m.n.calls;
        if (!a.root) g.members.push({ n: m.n, a: a });
      });
      out.sort(function (x, y) { return y.self - x.self || y.calls - x.calls || x.k - y.k; });
      return out;
    }
    var buCols = [
      { head: 'Self ms', get: function (n) { return ms(n.self); } },
      { head: 'Self %', cls: 'pct', get: function (n, w) { return pct(n.self, w.total); } },
      { head: 'Calls', cls: 'calls', get: function (n) { return n.rest ? '' : String(n.calls); } }
    ];
    if (OTHER)
      buCols.push({ head: X.otherName + ' self', other: true, title: 'Self ms on the ' + X.otherName + ' clock',
                    get: function (n) { return ms(n.oself); } });
    var bottomUp = new Widget('bottomup', {
      nameHead: 'Method, then the callers it ran under',
      cols: buCols,
      openSingle: false,
      top: function (vi) {
        var by = new Map(), out = [];
        function get(k) {
          var g = by.get(k);
          if (!g) {
            g = { k: k, self: 0, oself: 0, calls: 0, members: [], wparent: null, drop: null };
            by.set(k, g);
            out.push(g);
          }
          return g;
        }
        threadsOf(vi).forEach(function (ti) {
          walk(roots[ti], function (n) {
            var g;
            if (n.root) return;
            g = get(n.k);
            g.self += n.excl;
            g.oself += n.oe;
            g.calls += n.calls;
            g.members.push({ n: n, a: n });
          });
          droppedSelf(ti).forEach(function (d, k) {
            var g = get(k);
            g.self += d.self;
            g.oself += d.oself;
            g.calls += d.calls;
            if (!g.drop) g.drop = { self: 0, oself: 0, calls: 0 };
            g.drop.self += d.self;
            g.drop.oself += d.oself;
            g.drop.calls += d.calls;
          });
        });
        out.sort(function (x, y) { return y.self - x.self || y.calls - x.calls || x.k - y.k; });
        return out;
      },
      hasKids: function (n) { return !n.rest && (n.members.length > 0 || !!(n.drop && n.drop.self)); },
      kids: function (n) {
        var out = buGroup(n.members, n);
        if (n.drop && (n.drop.self || n.drop.oself))
          out.push({ k: -2, rest: true, self: n.drop.self, oself: n.drop.oself, calls: 0, members: [], wparent: n });
        return out;
      },
      value: function (n) { return n.self; },
      label: function (n) {
        if (n.rest) return 'callers under the size bound';
        if (n.k < 0) return threadLabel(-1 - n.k) + ' (thread start)';
        return M[n.k] ? M[n.k][0] : 'method ' + n.k;
      },
      findCap: Infinity,
      find: function (test, w) { return w.top.filter(function (n) { return test(n.k); }); }
    });

    /* ---- links to the other parts of the report ---- */
    function go(where, k) {
      var id = cgUtil.nodeId(M[k][2]), box, g, f;
      if (where === 'profile') {
        if (window.cgShowRow) window.cgShowRow(k);
        else window.location.hash = 'row-' + id;
      } else if (where === 'graph') {
        box = document.querySelector('#graphs div.graphview:not([hidden])');
        g = box && document.getElementById(box.getAttribute('data-prefix') + id);
        if (g) {
          g.scrollIntoView({ block: 'center', inline: 'center' });
          document.querySelectorAll('#graphs g.node.flash').forEach(function (x) { x.classList.remove('flash'); });
          g.getBoundingClientRect();
          g.classList.add('flash');
        } else {
          document.getElementById('graph').scrollIntoView();
        }
      } else if (where === 'flame') {
        f = document.getElementById('flame');
        if (window.cgFlameShow) window.cgFlameShow(k);
        if (f) f.scrollIntoView();
      }
    }

    function setView() {
      var vi = curView();
      topDown.setView(vi);
      bottomUp.setView(vi);
    }
    if (sel) sel.addEventListener('change', setView);
    setView();
    /* A window of the trace (winui.js): its trees, whole (nothing left out
       by the bound), and its views; the whole trace's come back when the
       detail is null. */
    var whole = { views: D.views, threads: X.threads, drops: X.drops, left: X.threadsLeftOut };
    document.addEventListener('cg-window', function (ev) {
      var w = ev.detail && ev.detail.data;
      D.views = w ? w.views : whole.views;
      X.threads = w ? w.trees : whole.threads;
      X.drops = w ? [] : whole.drops;
      X.threadsLeftOut = w ? 0 : whole.left;
      parse();
      setView();
    });
    window.cgTrees = { topDown: topDown, bottomUp: bottomUp };
  }
  /* The report's main data block follows this script in the page; the trees
     are built once the rest of the page has been drawn. */
  function cgTreesLater() { window.setTimeout(cgTrees, 0); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', cgTreesLater);
  else cgTreesLater();
}());
