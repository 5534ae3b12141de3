"""Check a repeated-runs JSON report (callgraph -d ... --json) against an
independent count: every run's per-method and total values replayed from
the trace bytes (tests/gen/replay_check.py), and every row's medians, range,
change and p-value worked out again here, the p-value with SciPy
(method="exact" without ties, else "asymptotic").
usage: /usr/bin/python3 runs_check.py REPORT.json LABEL
Prints failures and "LABEL: N passed, N failed"."""
import json
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
sys.path.insert(0, os.path.join(here, "..", "gen"))
from checks import Checks  # noqa: E402
from replay_check import replay  # noqa: E402
from scipy.stats import mannwhitneyu  # noqa: E402

js = json.load(open(sys.argv[1]))
check = Checks(sys.argv[2], shown=20)
sides = ("base", "later")
# Replayed sums per run: method name -> (incl, excl, o_incl, o_excl, calls)
replayed = {s: [] for s in sides}
for s in sides:
    for run in js["runs"][s]:
        meth, _, thr = replay(run["file"])
        per = {}
        for mid, (incl, excl, calls, rec, oi, oe) in meth.items():
            per["m%d" % (mid // 4 - 1)] = (incl, excl, oi, oe, calls + rec)
        tw = sum(t["now"][0] - t["first"][0] for t in thr.values())
        tc = sum(t["now"][1] - t["first"][1] for t in thr.values())
        check((run["total_us"], run["o_total_us"]) == (tw, tc),
              "%s: totals %s, replay %s" % (run["file"], (run["total_us"], run["o_total_us"]), (tw, tc)))
        replayed[s].append(per)
keys = ("incl_us", "excl_us", "o_incl_us", "o_excl_us", "calls")
rows = 0
for row in js["rows"]:
    if row["kind"] == "method":
        rows += 1
        for k, key in enumerate(keys):
            for s in sides:
                want = [per.get(row["method"], (0,) * 5)[k] for per in replayed[s]]
                check(row[key][s] == want, "%s %s %s: %s, replay %s"
                      % (row["name"], key, s, row[key][s], want))
    for key in keys:
        if key not in row:
            continue
        m = row[key]
        a, b = (m["base_share_ppb"], m["later_share_ppb"]) if js["normalised"] and key != "calls" \
            else (m["base"], m["later"])
        med = [statistics.median(a), statistics.median(b)]
        check(m["median"] == med, "%s %s median %s, want %s" % (row["name"], key, m["median"], med))
        check(m["min"] == [min(a), min(b)] and m["max"] == [max(a), max(b)],
              "%s %s range" % (row["name"], key))
        ties = len(set(a + b)) < len(a) + len(b)
        if len(set(a + b)) == 1:
            p = 1.0  # no variance: SciPy gives nan
        else:
            p = mannwhitneyu(a, b, alternative="two-sided",
                             method="asymptotic" if ties else "exact").pvalue
        check(abs(m["p"] - p) <= 1e-8 * max(p, 1e-300) + 1e-15,
              "%s %s p %r, SciPy %r" % (row["name"], key, m["p"], p))
        check(m["significant"] == (p <= 0.05), "%s %s significance" % (row["name"], key))
        if med[0]:
            ch = (med[1] - med[0]) * 100 / med[0]
            check(abs(m["change_pct"] - ch) <= 1e-6, "%s %s change %r, want %r"
                  % (row["name"], key, m["change_pct"], ch))
check(rows > 0, "no method rows")
sys.exit(check.summary())
