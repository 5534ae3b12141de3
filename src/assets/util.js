/* util.js - pure helpers of the HTML report's scripts: number formatting,
 * search matching, the per-view tables built from the data block and
 * sorting.  No DOM here.  The page loads this file first,
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

  /* The graph node id of a method id (as render_gv names nodes). */
  function nodeId(id) {
    return 'm0x' + id.toString(16);
  }

  /* One view's tables from its flat data arrays.  v.m holds per method
     [k, incl, excl, calls, rec] and, when `other` is true, the other
     clock's [incl, excl] after them; v.e holds per edge [caller, callee,
     calls, incl] and, with `other`, the other clock's incl.  A root caller
     is written -1 - thread index.  Returns { rows, byM, par, chi }: rows in
     data order (ord), byM by method, par/chi the edges into/out of each. */
  function buildView(v, other) {
    var ms_ = other ? 7 : 5, es = other ? 5 : 4, rows = [], byM = new Map(),
        par = new Map(), chi = new Map(), i, r, e;
    for (i = 0; i + ms_ <= v.m.length; i += ms_) {
      r = { k: v.m[i], incl: v.m[i + 1], excl: v.m[i + 2], calls: v.m[i + 3],
            rec: v.m[i + 4], oincl: other ? v.m[i + 5] : 0, oexcl: other ? v.m[i + 6] : 0,
            ord: rows.length };
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
     (inclusive time per call on the shown clock, -1 without calls).
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

  return {
    ms: ms, pct: pct, matcher: matcher, nodeId: nodeId, buildView: buildView,
    timeOf: timeOf, sortValue: sortValue, comparator: comparator,
  };
}());
if (typeof module === 'object' && module.exports) module.exports = cgUtil;
