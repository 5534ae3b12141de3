"""The Mann-Whitney U test of src/model/stats.c against SciPy's
scipy.stats.mannwhitneyu (two-sided): small samples without ties against
method="exact", samples with ties and larger ones against
method="asymptotic" (continuity correction on), and one value against one.
Usage: /usr/bin/python3 check.py BUILD.  Prints one line per failing case
and "stats: N passed, N failed"."""
import random
import subprocess
import sys

from scipy.stats import mannwhitneyu

build = sys.argv[1]
rng = random.Random(20261128)
cases = []  # (a, b, method SciPy must agree with)


def distinct(n):
    return rng.sample(range(1, 10**9), n)


# n = 1 against n = 1, both orders, and small n without ties: exact.
cases.append(([5], [7], "exact"))
cases.append(([7], [5], "exact"))
for n1 in range(1, 9):
    for n2 in range(1, 9):
        vals = distinct(n1 + n2)
        cases.append((vals[:n1], vals[n1:], "exact"))
# Fully separated samples: the smallest p each size can give.
for n1, n2 in [(3, 3), (4, 4), (5, 5), (3, 7), (10, 10), (20, 20)]:
    cases.append((list(range(n1)), list(range(100, 100 + n2)), "exact"))
# Larger samples without ties: still exact here (n1 + n2 <= 100).
for n1, n2 in [(12, 9), (25, 25), (40, 60)]:
    vals = distinct(n1 + n2)
    cases.append((vals[:n1], vals[n1:], "exact"))
# Ties: the normal approximation with tie correction.
while len(cases) < 160:
    n1, n2 = rng.randint(2, 12), rng.randint(2, 12)
    a = [rng.randint(0, 6) for _ in range(n1)]
    b = [rng.randint(0, 6) for _ in range(n2)]
    if len(set(a + b)) < n1 + n2:
        cases.append((a, b, "asymptotic"))
cases.append(([3, 3, 3, 4], [3, 4, 4, 4, 5], "asymptotic"))
cases.append(([1, 2, 2], [2, 3], "asymptotic"))
# n = 1 against n = 1 tied: the variance is 0, SciPy answers nan; stats.c
# answers p = 1 (checked below, not against SciPy).
tied_one = ([4], [4])

text = "".join(" ".join(map(str, a)) + " | " + " ".join(map(str, b)) + "\n"
               for a, b, _ in cases + [(tied_one[0], tied_one[1], None)])
out = subprocess.run([build + "/mwu_check"], input=text, capture_output=True,
                     text=True, check=True).stdout.split("\n")
passed = failed = 0
for (a, b, method), line in zip(cases, out):
    u, p, how = line.split()
    want = mannwhitneyu(a, b, alternative="two-sided", method=method)
    ok = (float(u) == float(want.statistic) and how == method
          and abs(float(p) - want.pvalue) <= 1e-9 * max(1.0, want.pvalue))
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL stats %s | %s: got U=%s p=%s %s, SciPy U=%r p=%r %s"
              % (a, b, u, p, how, want.statistic, want.pvalue, method))
u, p, how = out[len(cases)].split()
if float(u) == 0.5 and float(p) == 1.0 and how == "asymptotic":
    passed += 1
else:
    failed += 1
    print("FAIL stats [4] | [4]: got U=%s p=%s %s, want U=0.5 p=1 asymptotic" % (u, p, how))
print("stats: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
