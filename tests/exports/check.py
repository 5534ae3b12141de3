#!/usr/bin/env python3
"""check.py MODE JSON FILES... - compare what a real consumer made of an
export with callgraph's --json of the same trace and options.

  pprof JSON TOP_US TOP_CALLS    `go tool pprof -top` outputs (-unit=us and
                                 -sample_index=calls)
  callgrind JSON INCL SELF TREE  callgrind_annotate --inclusive=yes, =no and
                                 --tree=caller outputs
  chrome JSON TRACE              Chrome trace JSON: B/E balance per thread,
                                 top-level time + dropped + thread own time
                                 = thread inclusive time

Expected numbers are the JSON's; names are rebuilt here from the JSON's
class, name and signature by the rule the exporters document (Class.method;
overloads add the decoded descriptor; names still shared add " [id]").
Prints one line per mismatch and "MODE: N passed, N failed" counting kinds
of check (every function's flat and cum is one kind); exit 1 on any
failure."""
import json
import re
import sys
from collections import defaultdict

PRIM = {'B': 'byte', 'C': 'char', 'D': 'double', 'F': 'float', 'I': 'int',
        'J': 'long', 'S': 'short', 'Z': 'boolean'}


def dec_type(s, i):
    dims = 0
    while i < len(s) and s[i] == '[':
        dims += 1
        i += 1
    if i >= len(s):
        return None, i
    if s[i] == 'L':
        end = s.find(';', i)
        if end < 0 or end == i + 1:
            return None, i
        name = re.split(r'[/.]', s[i + 1:end])[-1]
        if not name:
            return None, i
        i = end + 1
    elif s[i] in PRIM:
        name = PRIM[s[i]]
        i += 1
    else:
        return None, i
    return name + '[]' * dims, i


def dec_sig(sig):
    if not sig:
        return ''
    if sig[0] != '(':
        return sig
    i, args = 1, []
    while i < len(sig) and sig[i] != ')':
        t, i = dec_type(sig, i)
        if t is None:
            return sig
        args.append(t)
    if i >= len(sig):
        return sig
    i += 1
    if sig[i:] == 'V':
        return '(' + ', '.join(args) + ')'
    t, j = dec_type(sig, i)
    if t is None or j != len(sig):
        return sig
    return '(' + ', '.join(args) + ')'


def base_name(m, level, sig_always=False):
    s = m['class'].replace('/', '.')
    if m['name']:
        s += '.' + m['name'].replace('/', '.')
    if level >= 1 or sig_always:
        s += dec_sig(m['signature'])
    if level >= 2:
        s += ' [%s]' % m['id']
    return s


def names(methods, sig_always=False):
    """id -> export name, by the exporters' rule."""
    level = {m['id']: 0 for m in methods}
    for lv in (1, 2):
        by = defaultdict(list)
        for m in methods:
            by[base_name(m, level[m['id']], sig_always)].append(m['id'])
        for ids in by.values():
            if len(ids) > 1:
                for i in ids:
                    level[i] = lv
    byid = {m['id']: m for m in methods}
    return {i: base_name(byid[i], level[i], sig_always) for i in level}


# Checks are counted by kind (the first two words: "pprof flat,cum",
# "callgrind calls", ...): a kind passes when every one of its checks does.
kinds = {}


def check(what, ok, detail=''):
    kind = ' '.join(what.split()[:2])
    kinds[kind] = kinds.get(kind, True) and bool(ok)
    if not ok:
        print('FAIL %s %s' % (what, detail))


def eq(what, got, want):
    check(what, got == want, 'got %r, want %r' % (got, want))


def pprof_top(path):
    """name -> (flat, cum) from `go tool pprof -top` output, and the total."""
    rows, total, on = {}, None, False
    for line in open(path, encoding='utf-8'):
        m = re.search(r'of (\S+) total', line)
        if m:
            total = int(m.group(1).rstrip('us') or 0)
        if line.split()[:5] == ['flat', 'flat%', 'sum%', 'cum', 'cum%']:
            on = True
            continue
        if on and line.strip():
            f = line.rstrip('\n').split(None, 5)
            rows[f[5]] = (int(f[0].rstrip('us')), int(f[3].rstrip('us')))
    return rows, total


def pprof_times(j, nm, top, prefix, what):
    """flat and cum per function of a -top output against the JSON's
    exclusive and inclusive times under field prefix ('' or 'cpu_'/'wall_')."""
    want_t = {}
    for m in j['methods']:
        want_t[nm[m['id']]] = (m[prefix + 'exclusive_us'], m[prefix + 'inclusive_us'])
    for t in j['threads']:
        n = '[%s]' % t['name']
        f, c = want_t.get(n, (0, 0))
        want_t[n] = (f + t[prefix + 'exclusive_us'], c + t[prefix + 'exclusive_us'])
    rows, total = pprof_top(top)
    eq('%s total' % what, total, j[prefix + 'total_us'])
    for n, v in sorted(want_t.items()):
        if v[1] == 0:
            check('%s no row for zero-time %s' % (what, n), rows.get(n, (0, 0)) == (0, 0))
        else:
            eq('%s flat,cum of %s' % (what, n), rows.get(n), v)
    check('%s rows' % what, set(rows) <= set(want_t), 'unexpected %s' % sorted(set(rows) - set(want_t))[:5])


def mode_pprof(j, top_us, top_calls, top_other=None):
    """top_other: -top on the other clock's sample type, for dual-clock traces."""
    nm = names(j['methods'])
    want_c = {}
    for m in j['methods']:
        want_c[nm[m['id']]] = m['calls'] + m['recursive_calls']
    pprof_times(j, nm, top_us, '', 'pprof')
    clocks = j['trace'].get('clocks') or []
    if top_other is not None:
        other = [c for c in clocks if c != j['trace']['clock_used']]
        check('pprof other clock exists', len(other) == 1, clocks)
        if len(other) == 1:
            pprof_times(j, nm, top_other, other[0] + '_', 'pprof other-clock')
    rows, total = pprof_top(top_calls)
    eq('pprof total calls', total, sum(want_c.values()))
    for n, c in sorted(want_c.items()):
        eq('pprof calls of %s' % n, rows.get(n, (0, 0))[0], c)


def annotate_rows(path):
    """file:function -> cost from callgrind_annotate's function listing."""
    rows, total = {}, None
    for line in open(path, encoding='utf-8'):
        m = re.match(r'^\s*([\d,]+)(?: \(\s*[\d.]+%\))?\s+(\S.*)$', line)
        if not m:
            continue
        v = int(m.group(1).replace(',', ''))
        if m.group(2).strip() == 'PROGRAM TOTALS':
            total = v
        else:
            rows[m.group(2).strip()] = v
    return rows, total


def mode_callgrind(j, incl, self_, tree):
    nm = names(j['methods'])
    key = {}
    for m in j['methods']:
        key[m['id']] = '%s:%s' % (m['source'] or '???', nm[m['id']])
    want_i, want_s = {}, {}
    for m in j['methods']:
        want_i[key[m['id']]] = m['inclusive_us']
        want_s[key[m['id']]] = m['exclusive_us']
    for t in j['threads']:
        k = '???:[%s]' % t['name']
        key['thread:%d' % t['tid']] = k
        want_i[k] = want_i.get(k, 0) + t['inclusive_us']
        want_s[k] = want_s.get(k, 0) + t['exclusive_us']
    for what, path, want in (('inclusive', incl, want_i), ('self', self_, want_s)):
        rows, total = annotate_rows(path)
        eq('callgrind %s total' % what, total, j['total_us'])
        for k, v in sorted(want.items()):
            eq('callgrind %s of %s' % (what, k), rows.get(k, 0), v)
        check('callgrind %s rows' % what, set(rows) <= set(want),
              'unexpected %s' % sorted(set(rows) - set(want))[:5])
    # --tree=caller: "< caller (Nx)" lines, then "* callee".
    got, pend = defaultdict(int), []
    for line in open(tree, encoding='utf-8'):
        m = re.match(r'^\s*[\d,]+(?: \(\s*[\d.]+%\))?\s+<\s+(.*) \(([\d,]+)x\)', line)
        if m:
            pend.append((m.group(1), int(m.group(2).replace(',', ''))))
            continue
        m = re.match(r'^\s*[\d,]+(?: \(\s*[\d.]+%\))?\s+\*\s+(\S.*?)\s*$', line)
        if m:
            for c, n in pend:
                got[(c, m.group(1))] += n
            pend = []
        elif not line.strip():
            pend = []
    want = defaultdict(int)
    for e in j['edges']:
        want[(key[e['caller']], key[e['callee']])] += e['calls']
    for k, v in sorted(want.items()):
        eq('callgrind calls %s -> %s' % k, got.get(k, 0), v)
    check('callgrind call pairs', set(got) <= set(want),
          'unexpected %s' % sorted(set(got) - set(want))[:5])


def mode_speedscope(j, path):
    """Our --speedscope file read directly (the UI round trip is speedscope.mjs):
    per thread, balanced open/close events in time order within
    [startValue, endValue], and outermost spans summing to the thread's
    inclusive time, which with --focus is the focused time only (the profile
    keeps the real timeline: unfocused time is a gap); with one thread, one
    open event per call."""
    d = json.load(open(path, encoding='utf-8'))
    threads = {'%s (tid %d)' % (t['name'], t['tid']): t for t in j['threads']}
    opens = 0
    for p in d['profiles']:
        t = threads.get(p['name'])
        check('speedscope profile names a thread', t is not None, p['name'])
        if t is None:
            continue
        stack, last, outer, ok = [], p['startValue'], 0, True
        for e in p['events']:
            ok = ok and p['startValue'] <= e['at'] <= p['endValue'] and e['at'] >= last
            last = e['at']
            if e['type'] == 'O':
                opens += 1
                stack.append((e['frame'], e['at']))
            else:
                ok = ok and bool(stack) and stack[-1][0] == e['frame']
                if stack:
                    f, at = stack.pop()
                    if not stack:
                        outer += e['at'] - at
        check('speedscope events balanced and in order', ok and not stack, p['name'])
        eq('speedscope outermost spans of %s' % p['name'], outer, t['inclusive_us'])
    if len(j['threads']) == 1:
        eq('speedscope open events', opens, sum(m['calls'] + m['recursive_calls'] for m in j['methods']))


def mode_chrome(j, path):
    d = json.load(open(path, encoding='utf-8'))
    meta = d['otherData']['callgraph']
    nm = names(j['methods'], sig_always=True)
    known = set(nm.values())
    stacks, top, thread_names = defaultdict(list), defaultdict(int), {}
    bad_names, order_ok, kept = 0, True, 0
    last_ts = defaultdict(int)
    for e in d['traceEvents']:
        ph, tid = e['ph'], e['tid']
        if ph == 'M':
            if e['name'] == 'thread_name':
                thread_names[tid] = e['args']['name']
            continue
        if e['ts'] < last_ts[tid]:
            order_ok = False
        last_ts[tid] = e['ts']
        if ph == 'B':
            kept += 1
            stacks[tid].append(e['ts'])
            if e['name'] not in known:
                bad_names += 1
        elif ph == 'E':
            if not stacks[tid]:
                order_ok = False
                continue
            b = stacks[tid].pop()
            if not stacks[tid]:
                top[tid] += e['ts'] - b
        else:
            check('chrome phase', False, 'event of phase %r' % ph)
    check('chrome every B has its E', all(not s for s in stacks.values()))
    check('chrome times never go back, no E without B', order_ok)
    eq('chrome names are the methods', bad_names, 0)
    eq('chrome kept', kept, meta['kept'])
    eq('chrome calls', meta['calls'],
       sum(m['calls'] + m['recursive_calls'] for m in j['methods']))
    eq('chrome calls = kept + dropped', meta['calls'], meta['kept'] + meta['dropped'])
    dropped_top = {t['tid']: t['dropped_top_us'] for t in meta['threads']}
    for t in j['threads']:
        eq('chrome thread %d name' % t['tid'], thread_names.get(t['tid']), t['name'])
        eq('chrome thread %d top-level time + dropped + own' % t['tid'],
           top[t['tid']] + dropped_top.get(t['tid'], 0) + t['exclusive_us'], t['inclusive_us'])


def main():
    mode, js = sys.argv[1], json.load(open(sys.argv[2], encoding='utf-8'))
    {'pprof': mode_pprof, 'callgrind': mode_callgrind, 'chrome': mode_chrome,
     'speedscope': mode_speedscope}[mode](js, *sys.argv[3:])
    failed = sum(1 for v in kinds.values() if not v)
    print('%s: %d passed, %d failed' % (mode, len(kinds) - failed, failed))
    sys.exit(1 if failed else 0)


main()
