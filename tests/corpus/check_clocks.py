#!/usr/bin/env python3
"""Check that one run carries both clocks exactly.

usage: check_clocks.py WALL.json CPU.json [LABEL]
WALL.json is `callgraph --json` of a trace with the default clock, CPU.json
of the same trace with --clock cpu.  On a dual-clock trace, the cpu_* numbers
of the default run must equal the primary numbers of the --clock cpu run,
and its wall_* numbers its own primary numbers (and the reverse for the
--clock cpu run), for the total, every thread, method and edge.  On a
single-clock trace both runs are the same and carry only that clock.
Prints failures and "LABEL: N passed, N failed"."""
import json, sys
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def main():
    wall = json.load(open(sys.argv[1]))
    cpu = json.load(open(sys.argv[2]))
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    check = Checks(label, shown=20)

    clocks = wall["trace"]["clocks"]
    check(cpu["trace"]["clocks"] == clocks, "clocks differ between runs")
    dual = clocks == ["cpu", "wall"]
    if dual:
        check(wall["trace"]["clock_used"] == "wall", "default run not on wall")
        check(cpu["trace"]["clock_used"] == "cpu", "--clock cpu run not on cpu")
    runs = {"wall": wall, "cpu": cpu} if dual else {clocks[0]: wall}
    absent = [] if dual else [c for c in ("cpu", "wall") if c not in clocks]

    def keyed(d):
        return {
            "thread": {t["tid"]: t for t in d["threads"]},
            "method": {m["id"]: m for m in d["methods"]},
            "edge": {(e["caller"], e["callee"]): e for e in d["edges"]},
        }

    tables = {c: keyed(d) for c, d in runs.items()}
    if not dual:
        tables["other"] = keyed(cpu)
        check(json.dumps(wall["methods"]) == json.dumps(cpu["methods"]),
              "single-clock trace: the two runs differ")
    fields = {"thread": ("inclusive", "exclusive"), "method": ("inclusive", "exclusive"),
              "edge": ("inclusive",)}
    # Every run carries each clock's numbers; they equal the numbers of the
    # run whose primary clock it is.
    for d in (wall, cpu):
        t = keyed(d)
        for c, src in runs.items():
            check(d.get(c + "_total_us") == src["total_us"],
                  "%s_total_us %r != %d" % (c, d.get(c + "_total_us"), src["total_us"]))
        for c in absent:
            check(c + "_total_us" not in d, "%s_total_us on a single-clock trace" % c)
        for kind, names in fields.items():
            for c, src in tables.items():
                if c == "other":
                    continue
                check(set(t[kind]) == set(src[kind]), "%s set differs from the %s run" % (kind, c))
                for k, x in t[kind].items():
                    y = src[kind].get(k)
                    if y is None:
                        continue
                    for n in names:
                        got = x.get("%s_%s_us" % (c, n))
                        check(got == y[n + "_us"], "%s %r: %s_%s_us %r != %d (primary of the %s run)"
                              % (kind, k, c, n, got, y[n + "_us"], c))
                    if kind == "method":
                        check((x["calls"], x["recursive_calls"]) == (y["calls"], y["recursive_calls"]),
                              "method %r: calls differ between runs" % (k,))
                    if kind == "edge":
                        check(x["calls"] == y["calls"], "edge %r: calls differ between runs" % (k,))
            for x in t[kind].values():
                for c in absent:
                    check(not any(f.startswith(c + "_") for f in x),
                          "%s fields on a single-clock trace" % c)
    return check.summary()


sys.exit(main())
