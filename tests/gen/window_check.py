#!/usr/bin/env python3
"""Check callgraph --range against an independent reading of a window.

usage: window_check.py TRACE CALLGRAPH.json FROM:TO [LABEL]
TRACE is a regular-layout, dual-clock (version 3, 14-byte records) trace
whose exits match the innermost open entry of their thread, or come on an
empty stack (frames entered before tracing); unwinds count as exits.
FROM and TO are ms from the wall time of the first record (either may be
empty: open).

This does not replay records through a window as callgraph does.  It builds
every activation of the whole trace (who called whom, which record entered
and left it), then cuts each one to the window as the man page defines it:
an activation open at FROM starts at FROM on the wall clock and at the
thread's first record in the window on the cpu clock; one still open after
TO (its thread has a record after TO) ends at TO and at the cpu time of the
thread's last record in the window; a frame entered before tracing starts
at the thread's first event in the window and is in the window only when
the record that leaves it is.  Durations, nesting and outermost calls of
the cut activations give every method, edge and thread, on both clocks, to
compare with the JSON of a default (wall) run.
Prints failures and "LABEL: N passed, N failed"."""
import json
import os
import struct
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


class Act:
    def __init__(self, mid, enter, parent):
        self.mid, self.enter, self.exit, self.parent = mid, enter, None, parent
        self.children = []
        self.adopted = False


def records(path):
    data = open(path, "rb").read()
    end = data.index(b"*end\n") + 5
    magic, version, off = struct.unpack_from("<4sHH", data, end)
    assert magic == b"SLOW" and version == 3, "not a v3 regular trace"
    pos = end + off
    per = defaultdict(list)
    origin = None
    for tid, mv, tc, tw in struct.iter_unpack("<HIII", data[pos:pos + (len(data) - pos) // 14 * 14]):
        if origin is None:
            origin = tw
        per[tid].append((tw, tc, mv & 3, mv & ~3))
    return origin, per


def activations(recs):
    """The thread's activations as a tree under a root list."""
    roots, stack = [], []
    for i, (w, c, act, mid) in enumerate(recs):
        if act == 0:
            a = Act(mid, i, stack[-1] if stack else None)
            (stack[-1].children if stack else roots).append(a)
            stack.append(a)
        elif stack:
            assert stack[-1].mid == mid, "exit does not match"
            stack.pop().exit = i
        else:
            a = Act(mid, None, None)
            a.adopted, a.exit, a.children = True, i, roots[:]
            for ch in a.children:
                ch.parent = a
            roots[:] = [a]
    return roots


def cut(tid, recs, lo, hi):
    """Cut activations of one thread to [lo, hi]: (thread facts, acts) or None."""
    inside = [i for i, r in enumerate(recs) if lo <= r[0] <= hi]
    after = next((i for i, r in enumerate(recs) if r[0] > hi), None)
    before = [i for i, r in enumerate(recs) if r[0] < lo]
    roots = activations(recs)
    last = len(recs) - 1

    def w(i):
        return recs[i][0]

    # cpu readings at the window's edges
    if inside:
        cpu_first, cpu_last = recs[inside[0]][1], recs[inside[-1]][1]
    elif before:
        cpu_first = cpu_last = recs[before[-1]][1]
    else:
        cpu_first = cpu_last = None

    def shadow(a):  # entered by a record before lo, not left before lo
        return (not a.adopted and w(a.enter) < lo and
                (a.exit is not None and w(a.exit) >= lo or a.exit is None and w(last) >= lo))

    every = []

    def walk(xs):
        for a in xs:
            every.append(a)
            walk(a.children)
    walk(roots)
    open_at_lo = any(shadow(a) for a in every)
    if not inside and not (open_at_lo and after is not None):
        return None
    first = (lo, cpu_first) if open_at_lo else recs[inside[0]][:2]

    def keep(a):
        if a.adopted:
            return lo <= w(a.exit) <= hi
        if w(a.enter) > hi:
            return False
        if a.exit is not None:
            return w(a.exit) >= lo
        return w(last) >= lo

    closed_at_hi = [False]

    def end_of(a):
        if a.exit is not None and w(a.exit) <= hi:
            return recs[a.exit][:2]
        if a.exit is None and w(last) <= hi:
            return recs[last][:2]
        closed_at_hi[0] = True
        return (hi, cpu_last)

    def start_of(a):
        if a.adopted:
            return first
        if w(a.enter) < lo:
            return (lo, cpu_first)
        return recs[a.enter][:2]

    out = []  # (mid, parent mid or None, start, end, outermost, children)

    def visit(xs, parent, on):
        for a in xs:
            if not keep(a):
                visit(a.children, parent, on)  # a left-out frame's children move up
                continue
            node = {"mid": a.mid, "parent": parent, "start": start_of(a), "end": end_of(a),
                    "outer": a.mid not in on, "kids": []}
            if parent is not None:
                parent["kids"].append(node)
            out.append(node)
            visit(a.children, node, on | {a.mid})
    visit(roots, None, frozenset())
    end_w = hi if closed_at_hi[0] else recs[inside[-1]][0] if inside else hi
    end_c = cpu_last
    facts = {"records": len(inside), "first": first, "last": (end_w, end_c)}
    return facts, out


def main():
    trace, js_path, window = sys.argv[1], sys.argv[2], sys.argv[3]
    label = sys.argv[4] if len(sys.argv) > 4 else trace
    origin, per = records(trace)
    a, b = window.split(":")
    lo = origin + round(float(a) * 1000) if a else float("-inf")
    hi = origin + round(float(b) * 1000) if b else float("inf")
    meth = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # incl excl calls rec o_incl o_excl
    edge = defaultdict(lambda: [0, 0, 0])           # calls incl o_incl
    thr = {}
    for tid, recs in per.items():
        got = cut(tid, recs, lo, hi)
        if got is None:
            continue
        facts, nodes = got
        top_w = top_c = 0
        for n in nodes:
            dw, dc = n["end"][0] - n["start"][0], n["end"][1] - n["start"][1]
            kw = sum(k["end"][0] - k["start"][0] for k in n["kids"])
            kc = sum(k["end"][1] - k["start"][1] for k in n["kids"])
            m = meth[n["mid"]]
            m[1] += dw - kw
            m[5] += dc - kc
            caller = n["parent"]["mid"] if n["parent"] else "thread:%d" % tid
            e = edge[(caller, n["mid"])]
            e[0] += 1
            if n["outer"]:
                m[0] += dw
                m[4] += dc
                m[2] += 1
                e[1] += dw
                e[2] += dc
            else:
                m[3] += 1
            if n["parent"] is None:
                top_w += dw
                top_c += dc
        sw = facts["last"][0] - facts["first"][0]
        sc = facts["last"][1] - facts["first"][1]
        thr[tid] = (facts["records"], sw, sw - top_w, sc, sc - top_c)

    js = json.load(open(js_path))
    check = Checks(label, shown=20)
    hexid = lambda m: "0x%x" % m
    got = {m["id"]: m for m in js["methods"]}
    check(len(got) == len(meth), "methods: %d, window %d" % (len(got), len(meth)))
    for mid, want in meth.items():
        g = got.get(hexid(mid))
        have = g and [g["wall_inclusive_us"], g["wall_exclusive_us"], g["calls"],
                      g["recursive_calls"], g["cpu_inclusive_us"], g["cpu_exclusive_us"]]
        check(have == want, "method %s: %s, window %s" % (hexid(mid), have, want))
    gote = {(e["caller"], e["callee"]): [e["calls"], e["wall_inclusive_us"], e["cpu_inclusive_us"]]
            for e in js["edges"]}
    check(len(gote) == len(edge), "edges: %d, window %d" % (len(gote), len(edge)))
    for (caller, mid), v in edge.items():
        key = (caller if isinstance(caller, str) else hexid(caller), hexid(mid))
        check(gote.get(key) == v, "edge %s: %s, window %s" % (key, gote.get(key), v))
    check(len(js["threads"]) == len(thr), "threads: %d, window %d" % (len(js["threads"]), len(thr)))
    for th in js["threads"]:
        have = (th["records"], th["wall_inclusive_us"], th["wall_exclusive_us"],
                th["cpu_inclusive_us"], th["cpu_exclusive_us"])
        check(have == thr.get(th["tid"]), "thread %d: %s, window %s" % (th["tid"], have, thr.get(th["tid"])))
    check((js["wall_total_us"], js["cpu_total_us"]) ==
          (sum(t[1] for t in thr.values()), sum(t[3] for t in thr.values())), "totals")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
