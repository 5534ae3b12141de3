#!/bin/sh
# runs-false-alarms.sh BUILD [SEEDS] - how often repeated runs (-d) report a
# significant change when there is none, and how often they find a real one.
# For each of SEEDS (default 100) seeds: 5 runs of a generated program with
# per-run timing noise (tracegen's jitter: a speed factor within +-5 % per
# run and random rounding of every step) against 5 more runs of the same
# program with other noise, and against 5 runs with one method's own time
# made 20 % longer (slow=3:20).  Counts, over every row and metric of the
# JSON, the fraction reported significant (p <= 0.05) under noise alone,
# how often --fail-if-slower 10 trips, and how often the slowed method's
# self time is found.  Not part of make test (about a minute).
set -u
BUILD=$(cd "${1:?usage: runs-false-alarms.sh BUILD [SEEDS]}" && pwd)
SEEDS=${2:-100}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cgruns.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
export LC_ALL=C
gen() { # gen FILE JITTER [SETTINGS]
	printf 'auto-methods 40 com.ex.Bench\nprogram 60000 threads=2 jitter=%s %s\n' "$2" "${3:-}" |
		"$BUILD/tracegen" -o "$1" - || exit 1
}
: >counts
s=1
while [ "$s" -le "$SEEDS" ]; do
	rm -rf a b c
	mkdir a b c
	for k in 1 2 3 4 5; do
		gen "a/$k.trace" $((s * 1000 + k))
		gen "b/$k.trace" $((s * 1000 + 100 + k))
		gen "c/$k.trace" $((s * 1000 + 200 + k)) slow=3:20
	done
	"$BUILD/callgraph" -q -d 'a/*.trace' b/*.trace --json same.json --fail-if-slower 10 2>same.err
	same_rc=$?
	"$BUILD/callgraph" -q -d 'a/*.trace' c/*.trace --json slow.json --fail-if-slower 10 2>slow.err
	slow_rc=$?
	python3 - same.json slow.json "$same_rc" "$slow_rc" >>counts <<'PY'
import json, sys
same, slow = (json.load(open(f)) for f in sys.argv[1:3])
n = sig = 0
for row in same["rows"]:
    for k, m in row.items():
        if isinstance(m, dict) and k != "calls":
            n += 1
            sig += m["significant"]
found = any(r.get("method") == "m3" and r["excl_us"]["significant"] and r["excl_us"]["change_pct"] > 0
            for r in slow["rows"])
print(n, sig, int(sys.argv[3] == "3"), int(found), int(sys.argv[4] == "3"))
PY
	s=$((s + 1))
done
awk '{ n += $1; sig += $2; quiet += ($3 == 0); found += $4; trip += $5; seeds++ }
END {
	printf "noise only: %d of %d row metrics significant over %d seeds: %.2f %%\n", sig, n, seeds, 100 * sig / n
	printf "noise only: the gate (--fail-if-slower 10) stayed quiet in %d of %d seeds\n", quiet, seeds
	printf "20 %% slower method: its self time significant in %d of %d seeds; the gate tripped in %d\n", found, seeds, trip
}' counts
