#!/usr/bin/env python3
"""Check the invariants of a callgraph --json profile.

usage: check_json.py PROFILE.json [LABEL]
- exclusive times of all methods and roots add up to total_us;
- each root: inclusive = exclusive + inclusive of its edges;
- each method without recursion around it: inclusive = exclusive + inclusive
  of its outgoing edges;
- no negative numbers; threads sum to the total.
Prints failures and "LABEL: N passed, N failed"."""
import json, sys

def main():
    d = json.load(open(sys.argv[1]))
    label = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
    ok = bad = 0
    def check(cond, what):
        nonlocal ok, bad
        if cond:
            ok += 1
        else:
            bad += 1
            print("FAIL %s: %s" % (label, what))
    total = d["total_us"]
    excl = sum(m["exclusive_us"] for m in d["methods"]) + sum(t["exclusive_us"] for t in d["threads"])
    check(excl == total, "sum of exclusive %d != total %d" % (excl, total))
    check(sum(t["inclusive_us"] for t in d["threads"]) == total, "threads do not sum to total")
    out = {}
    for e in d["edges"]:
        out.setdefault(e["caller"], []).append(e)
        check(e["calls"] >= 0 and e["inclusive_us"] >= 0, "negative edge %r" % e)
    rec = {m["id"]: m["recursive_calls"] for m in d["methods"]}
    for t in d["threads"]:
        key = "thread:%d" % t["tid"]
        s = t["exclusive_us"] + sum(e["inclusive_us"] for e in out.get(key, []))
        check(s == t["inclusive_us"], "root %s: %d != excl+children %d" % (key, t["inclusive_us"], s))
    for m in d["methods"]:
        for k in ("inclusive_us", "exclusive_us", "calls", "recursive_calls"):
            check(m[k] >= 0, "negative %s in %s" % (k, m["id"]))
        check(m["exclusive_us"] <= m["inclusive_us"],
              "method %s: exclusive %d > inclusive %d" % (m["id"], m["exclusive_us"], m["inclusive_us"]))
        edges = out.get(m["id"], [])
        if m["recursive_calls"] == 0 and all(rec.get(e["callee"], 0) == 0 for e in edges):
            s = m["exclusive_us"] + sum(e["inclusive_us"] for e in edges)
            check(s == m["inclusive_us"], "method %s %s.%s: incl %d != excl+children %d" %
                  (m["id"], m["class"], m["name"], m["inclusive_us"], s))
    print("%s: %d passed, %d failed" % (label, ok, bad))
    return 1 if bad else 0

sys.exit(main())
