#!/bin/sh
# Repeated runs (-d with several traces a side) on generated programs with
# per-run timing noise: a method slowed by 20 % in 5 runs against 5 is
# significant and trips --fail-if-slower; noise alone stays quiet; every
# run's value and every statistic agree with an independent replay and
# SciPy (runs_check.py); the usage errors and bad inputs on either side.
# Usage: sh tests/stats/runs.sh BUILD.  Prints "runs: N passed, N failed".
BUILD=$(cd "$1" && pwd)
CG=$BUILD/callgraph
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
export LC_ALL=C
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL runs: $*"; }
expect() { # expect WHAT WANT-EXIT GOT-EXIT
	if [ "$2" = "$3" ]; then ok; else bad "$1: exit $3, want $2"; cat stderr; fi
}

# gen DIR SEED [SETTINGS]: one run of the program, jitter seed SEED
gen() {
	mkdir -p "$1"
	printf 'auto-methods 40 com.ex.Bench\nprogram 60000 threads=2 jitter=%s %s\n' "$2" "${3:-}" |
		"$BUILD/tracegen" -o "$1/run$2.trace" - || exit 1
}
for s in 1 2 3 4 5; do
	gen before "$s"
	gen after $((s + 10)) slow=3:20
	gen same $((s + 20))
done

# A 20 % slower method: significant, and the gate trips on it.
"$CG" -q -d 'before/*.trace' after/*.trace --fail-if-slower 10 >out.txt 2>stderr
expect "slowed method, gate" 3 $?
if grep -q '^callgraph: slower: com\.ex\.Bench\.m3(): self wall +[0-9.]*% (p=0\.008)$' stderr; then ok
else bad "the gate names m3's self time"; cat stderr; fi
if grep -q '^callgraph: slower:' stderr && ! grep -v '^callgraph: slower: ' stderr | grep -q .; then ok
else bad "only offending rows on stderr"; cat stderr; fi
if sed -n '/^self wall/,/^$/p' out.txt | grep 'com\.ex\.' | head -1 | grep -q '+[0-9.]*%  *0\.008  .*com\.ex\.Bench\.m3()$'; then ok
else bad "m3 first in the self wall table, significant"; sed -n '/^self wall/,+4p' out.txt; fi

# The same without the gate: exit 0, no line on stderr.
"$CG" -q -d 'before/*.trace' after/*.trace >/dev/null 2>stderr
expect "no gate" 0 $?
if [ -s stderr ]; then bad "no gate, yet stderr"; cat stderr; else ok; fi

# Noise only: the gate stays quiet.
"$CG" -q -d 'before/*.trace' same/*.trace --fail-if-slower 10 >/dev/null 2>stderr
expect "noise only, gate" 0 $?
if [ -s stderr ]; then bad "noise only: stderr"; cat stderr; else ok; fi

# -d repeated and the later traces given one by one: the same report.
"$CG" -q -d before/run1.trace -d before/run2.trace -d 'before/run[345].trace' \
	after/run11.trace after/run12.trace after/run13.trace after/run14.trace \
	after/run15.trace >out2.txt 2>stderr
expect "repeated -d" 0 $?
"$CG" -q -d 'before/*.trace' after/*.trace >out1.txt 2>>stderr
if cmp -s out1.txt out2.txt; then ok; else bad "repeated -d differs from a glob"; fi

# JSON and the normalised view against the replay and SciPy.
for v in plain normalised; do
	set --
	[ $v = normalised ] && set -- --normalise
	"$CG" -q "$@" -d 'before/*.trace' after/*.trace --json r.json 2>stderr
	expect "json $v" 0 $?
	/usr/bin/python3 "$TOP/tests/stats/runs_check.py" r.json "runs-json-$v" >check.out 2>&1 &&
		ok || { bad "json $v against the replay"; head -20 check.out; }
done
# -j 1 and -j 2: the same bytes.
"$CG" -q -j 1 -d 'before/*.trace' after/*.trace --json j1.json 2>stderr
"$CG" -q -j 2 -d 'before/*.trace' after/*.trace --json j2.json 2>>stderr
if cmp -s j1.json j2.json; then ok; else bad "-j 1 and -j 2 differ"; fi

# Usage: the gate needs two runs a side.
"$CG" -d before/run1.trace after/*.trace --fail-if-slower 5 >/dev/null 2>stderr
expect "gate with one base" 2 $?
if head -1 stderr | grep -q '^callgraph: --fail-if-slower needs at least two runs a side (give more -d BASE traces)$'; then ok
else bad "gate with one base: message"; cat stderr; fi
"$CG" -d 'before/*.trace' after/run11.trace --fail-if-slower 5 >/dev/null 2>stderr
expect "gate with one later" 2 $?
"$CG" --fail-if-slower 5 after/run11.trace >/dev/null 2>stderr
expect "gate without -d" 2 $?
"$CG" -d 'before/*.trace' -g g.dot after/*.trace >/dev/null 2>stderr
expect "repeated runs with -g" 2 $?

# Bad input on either side names its file; nothing is written.
printf 'not a trace\n' >before/run3b.trace
"$CG" -q -d 'before/*.trace' after/*.trace --json bad.json >/dev/null 2>stderr
expect "bad base" 1 $?
if grep -q '^callgraph: before/run3b\.trace: ' stderr && [ "$(wc -l <stderr)" -eq 1 ] && [ ! -e bad.json ]; then ok
else bad "bad base: one line naming it, no output"; cat stderr; fi
rm before/run3b.trace
printf 'not a trace\n' >after/run12b.trace
"$CG" -q -d 'before/*.trace' after/*.trace >/dev/null 2>stderr
expect "bad later" 1 $?
if grep -q '^callgraph: after/run12b\.trace: ' stderr && [ "$(wc -l <stderr)" -eq 1 ]; then ok
else bad "bad later: one line naming it"; cat stderr; fi
rm after/run12b.trace
"$CG" -q -d 'nothere/*.trace' after/*.trace >/dev/null 2>stderr
expect "pattern matching nothing" 1 $?
if grep -q '^callgraph: nothere/\*\.trace: ' stderr; then ok; else bad "no match: names the pattern"; cat stderr; fi

echo "runs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
