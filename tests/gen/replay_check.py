#!/usr/bin/env python3
"""Check callgraph's model against an independent replay of a trace.

usage: replay_check.py TRACE CALLGRAPH.json [LABEL]
TRACE is a regular-layout, dual-clock (version 3, 14-byte records) trace
whose exits match the innermost open entry of their thread, or find its
stack empty, as tracegen's `program` and `@r` repeats write.  This replays
its records here, from the bytes, with the model's rules (inclusive time of
outermost activations only, exclusive time between events while on top,
open frames closed at the thread's last event) on both clocks, and compares
every method, edge and thread and the totals with the JSON of a default
(wall) run.  An exit on an empty stack is a frame entered before tracing
began: not adopted afterwards, as callgraph does, but found by a first pass
over the records, and pushed before the thread's first event, entered at
its time, the frame that exits last outermost.
Prints failures and "LABEL: N passed, N failed"."""
import json
import struct
import sys
from collections import defaultdict
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def replay(path):
    data = open(path, "rb").read()
    end = data.index(b"*end\n") + 5
    magic, version, off = struct.unpack_from("<4sHH", data, end)
    assert magic == b"SLOW" and version == 3, "not a v3 regular trace"
    pos = end + off
    recs = list(struct.iter_unpack("<HIII", data[pos:pos + (len(data) - pos) // 14 * 14]))
    before = prescan(recs)
    meth = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # incl excl calls rec o_incl o_excl
    edge = defaultdict(lambda: [0, 0, 0])           # calls incl o_incl
    thr = {}
    for tid, mv, tc, tw in recs:
        mid, act = mv & ~3, mv & 3
        t = thr.get(tid)
        if t is None:
            t = thr[tid] = {"first": (tw, tc), "now": (tw, tc), "stack": [], "root": [0, 0],
                            "on": defaultdict(int), "records": 0}
            caller = "thread:%d" % tid
            for pre in reversed(before.get(tid, [])):
                t["stack"].append((pre, caller, tw, tc))
                t["on"][pre] += 1
                caller = pre
        t["records"] += 1
        w, c = tw, tc
        pw, pc = t["now"]
        dw, dc = w - pw, c - pc
        assert dw >= 0 and dc >= 0, "time went backwards"
        if t["stack"]:
            top = meth[t["stack"][-1][0]]
            top[1] += dw
            top[5] += dc
        else:
            t["root"][0] += dw
            t["root"][1] += dc
        t["now"] = (w, c)
        if act == 0:
            caller = t["stack"][-1][0] if t["stack"] else "thread:%d" % tid
            t["stack"].append((mid, caller, w, c))
            t["on"][mid] += 1
        else:
            assert t["stack"] and t["stack"][-1][0] == mid, "exit does not match"
            pop(t, meth, edge)
    for t in thr.values():
        while t["stack"]:
            pop(t, meth, edge)
    return meth, edge, thr


def prescan(recs):
    """Per thread, the methods whose exits find no frame of the trace's own
    on the stack, in the order they exit."""
    stacks, before = defaultdict(list), defaultdict(list)
    for tid, mv, _, _ in recs:
        mid, act = mv & ~3, mv & 3
        if act == 0:
            stacks[tid].append(mid)
        elif stacks[tid]:
            assert stacks[tid].pop() == mid, "exit does not match"
        else:
            before[tid].append(mid)
    return before


def pop(t, meth, edge):
    mid, caller, ew, ec = t["stack"].pop()
    w, c = t["now"]
    t["on"][mid] -= 1
    m, e = meth[mid], edge[(caller, mid)]
    e[0] += 1
    if t["on"][mid] == 0:
        m[0] += w - ew
        m[4] += c - ec
        m[2] += 1
        e[1] += w - ew
        e[2] += c - ec
    else:
        m[3] += 1


def main():
    meth, edge, thr = replay(sys.argv[1])
    js = json.load(open(sys.argv[2]))
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    check = Checks(label, shown=20)

    hexid = lambda m: "0x%x" % m
    got = {m["id"]: m for m in js["methods"]}
    check(len(got) == len(meth), "methods: %d, replay %d" % (len(got), len(meth)))
    for mid, (incl, excl, calls, rec, oi, oe) in meth.items():
        g = got.get(hexid(mid))
        want = (incl, excl, calls, rec, oi, oe)
        have = g and (g["wall_inclusive_us"], g["wall_exclusive_us"], g["calls"],
                      g["recursive_calls"], g["cpu_inclusive_us"], g["cpu_exclusive_us"])
        check(have == want, "method %s: %s, replay %s" % (hexid(mid), have, want))
    gote = {}
    for e in js["edges"]:
        gote[(e["caller"], e["callee"])] = (e["calls"], e["wall_inclusive_us"], e["cpu_inclusive_us"])
    check(len(gote) == len(edge), "edges: %d, replay %d" % (len(gote), len(edge)))
    for (caller, mid), v in edge.items():
        key = (caller if isinstance(caller, str) else hexid(caller), hexid(mid))
        check(gote.get(key) == tuple(v), "edge %s: %s, replay %s" % (key, gote.get(key), tuple(v)))
    tw = tc = 0
    for th in js["threads"]:
        t = thr.get(th["tid"])
        want = t and (t["records"], t["now"][0] - t["first"][0], t["root"][0],
                      t["now"][1] - t["first"][1], t["root"][1])
        have = (th["records"], th["wall_inclusive_us"], th["wall_exclusive_us"],
                th["cpu_inclusive_us"], th["cpu_exclusive_us"])
        check(have == want, "thread %d: %s, replay %s" % (th["tid"], have, want))
        if t:
            tw += t["now"][0] - t["first"][0]
            tc += t["now"][1] - t["first"][1]
    check(len(js["threads"]) == len(thr), "threads: %d, replay %d" % (len(js["threads"]), len(thr)))
    check((js["wall_total_us"], js["cpu_total_us"]) == (tw, tc), "totals")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
