#!/usr/bin/env python3
"""Check the invariants of a callgraph --json profile.

usage: check_json.py PROFILE.json [LABEL]
- exclusive times of all methods and roots add up to total_us;
- each root: inclusive = exclusive + inclusive of its edges;
- each method without recursion around it: inclusive = exclusive + inclusive
  of its outgoing edges;
- no negative numbers; threads sum to the total;
all of it on the primary clock and on each clock the trace carries (cpu_*,
wall_*).
Prints failures and "LABEL: N passed, N failed"."""
import json, sys
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

def check_clock(d, c, check):
    """The invariants on one clock: c is "" (primary), "cpu_" or "wall_"."""
    def ck(cond, what):
        check(cond, (c[:-1] + " clock: " if c else "") + what)
    total = d[c + "total_us"]
    excl = sum(m[c + "exclusive_us"] for m in d["methods"]) + sum(t[c + "exclusive_us"] for t in d["threads"])
    ck(excl == total, "sum of exclusive %d != total %d" % (excl, total))
    ck(sum(t[c + "inclusive_us"] for t in d["threads"]) == total, "threads do not sum to total")
    out = {}
    for e in d["edges"]:
        out.setdefault(e["caller"], []).append(e)
        ck(e["calls"] >= 0 and e[c + "inclusive_us"] >= 0, "negative edge %r" % e)
    rec = {m["id"]: m["recursive_calls"] for m in d["methods"]}
    for t in d["threads"]:
        key = "thread:%d" % t["tid"]
        s = t[c + "exclusive_us"] + sum(e[c + "inclusive_us"] for e in out.get(key, []))
        ck(s == t[c + "inclusive_us"], "root %s: %d != excl+children %d" % (key, t[c + "inclusive_us"], s))
    for m in d["methods"]:
        for k in (c + "inclusive_us", c + "exclusive_us", "calls", "recursive_calls"):
            ck(m[k] >= 0, "negative %s in %s" % (k, m["id"]))
        ck(m[c + "exclusive_us"] <= m[c + "inclusive_us"],
           "method %s: exclusive %d > inclusive %d" % (m["id"], m[c + "exclusive_us"], m[c + "inclusive_us"]))
        edges = out.get(m["id"], [])
        if m["recursive_calls"] == 0 and all(rec.get(e["callee"], 0) == 0 for e in edges):
            s = m[c + "exclusive_us"] + sum(e[c + "inclusive_us"] for e in edges)
            ck(s == m[c + "inclusive_us"], "method %s %s.%s: incl %d != excl+children %d" %
                  (m["id"], m["class"], m["name"], m[c + "inclusive_us"], s))

def main():
    d = json.load(open(sys.argv[1]))
    label = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
    check = Checks(label)
    # The primary clock (unprefixed), then each named clock the trace has.
    for c in [""] + [k + "_" for k in d["trace"].get("clocks", [])]:
        check_clock(d, c, check)
    return check.summary()

sys.exit(main())
