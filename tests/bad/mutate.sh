#!/bin/sh
# tests/bad/mutate.sh BUILD_DIR [COUNT [FIRST]] - a mutation campaign.
#
# Damages the bundled samples and tracegen examples COUNT times (default
# 3000; tests/bad/mutate.c, numbered from FIRST, default 1, so a run is
# reproducible) and runs callgraph on each damaged trace with one output
# kind in turn: text, JSON, SVG, dot, HTML, folded, dump, diff text, diff
# HTML, focus, hide, and the pprof, speedscope, Chrome trace and callgrind
# exports, with -j 1 to 7 in turn.  Every run must exit 0 or 1, print exactly one
# "callgraph: " line when it exits 1, leave no output file when it fails
# and no temporary file ever, and (for a sanitizer build such as
# build-asan, from `make asan`) print no sanitizer report.  Not part of
# `make test`: it is slow (one sanitized run per damaged trace; COUNT and
# FIRST split it across processes).  Failing
# inputs are kept in build/mutate-failures/.  Prints the counts per kind
# and exit status, then "mutate: N passed, N failed".
set -u
BUILD=${1:?usage: tests/bad/mutate.sh BUILD_DIR [COUNT [FIRST]]}
COUNT=${2:-3000}
FIRST=${3:-1}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
LC_ALL=C
export LC_ALL
CG=$BUILD/callgraph
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$TOP/tests/lsan.supp:print_suppressions=0}
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cgmutate.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# Interrupted: still print the counts so far.
trap 'summary; exit 1' INT TERM
KEEP=$TOP/build/mutate-failures
mkdir -p "$KEEP"
${CC:-cc} -O2 -o "$TMP/mutate" "$TOP/tests/bad/mutate.c" || exit 1

# Seeds: every sample and every tracegen example, plain (gzip ones as is).
mkdir "$TMP/seeds"
for f in "$TOP"/samples/*.trace "$TOP"/samples/*.trace.gz; do
	[ -f "$f" ] && cp "$f" "$TMP/seeds/"
done
for d in "$TOP"/tests/gen/examples/*.desc; do
	"$BUILD/tracegen" -o "$TMP/seeds/$(basename "$d" .desc).trace" "$d" 2>/dev/null || true
done
rm -f "$TMP"/seeds/*.key "$TMP"/seeds/*.data
set -- "$TMP"/seeds/*
nseeds=$#
seeds=$TMP/seedlist
for s in "$@"; do echo "$s"; done >"$seeds"
base=$TMP/seeds/$(ls "$TMP/seeds" | head -n 1)

kinds="text json svg dot html folded dump diff diffhtml focus hide pprof speedscope chrome callgrind"
summary() {
	for kind in $kinds; do
		eval "z=\${n_${kind}_0:-0} o=\${n_${kind}_1:-0}"
		echo "  $kind: $z exit 0, $o exit 1"
	done
	echo "mutate: $pass passed, $fail failed ($((pass + fail)) of $COUNT damaged traces from $nseeds seeds)"
}
nkinds=15
pass=0
fail=0
W=$TMP/w
mkdir "$W"
i=$FIRST
last=$((FIRST + COUNT - 1))
while [ "$i" -le "$last" ]; do
	seed=$(sed -n "$(( (i % nseeds) + 1 ))p" "$seeds")
	"$TMP/mutate" "$seed" "$W/in.trace" "$i" || exit 1
	k=$(( i % nkinds + 1 ))
	kind=$(echo $kinds | cut -d' ' -f$k)
	out=
	case $kind in
	text) set -- ;;
	json) set -- --json o.json; out=o.json ;;
	svg) set -- -g o.svg; out=o.svg ;;
	dot) set -- -T dot -g o.dot; out=o.dot ;;
	html) set -- --html o.html; out=o.html ;;
	folded) set -- --folded o.folded; out=o.folded ;;
	dump) set -- -o ;;
	diff) set -- -d "$base" ;;
	diffhtml) set -- -d "$base" --html o.html; out=o.html ;;
	focus) set -- --focus '*.*a*' --json o.json; out=o.json ;;
	hide) set -- --hide '*.*e*' --folded o.folded; out=o.folded ;;
	pprof) set -- --pprof o.pb.gz; out=o.pb.gz ;;
	speedscope) set -- --speedscope o.speedscope.json; out=o.speedscope.json ;;
	chrome) set -- --chrome-trace o.chrome.json; out=o.chrome.json ;;
	callgrind) set -- --callgrind o.callgrind; out=o.callgrind ;;
	esac
	# -j 1 to 7: the outputs that replay in ranges are cut into up to 7.
	(cd "$W" && timeout 60 "$CG" -j $(( 1 + i % 7 )) "$@" in.trace >/dev/null 2>err)
	rc=$?
	why=
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		why="exit $rc"
	elif grep -q -e 'Sanitizer' -e 'runtime error' "$W/err"; then
		why="sanitizer report"
	elif [ "$rc" -eq 1 ] && { [ "$(wc -l <"$W/err")" -ne 1 ] || ! grep -q '^callgraph: ' "$W/err"; }; then
		why="exit 1 with $(wc -l <"$W/err") lines on stderr"
	elif [ "$rc" -eq 1 ] && [ -n "$out" ] && [ -e "$W/$out" ]; then
		why="a failed run left $out"
	elif [ -n "$(find "$W" -name '*.tmp*' -o -name '#*')" ]; then
		why="temporary file left"
	fi
	eval "n_${kind}_$rc=\$(( \${n_${kind}_$rc:-0} + 1 ))"
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		cp "$W/in.trace" "$KEEP/mutant-$i-$kind.trace"
		echo "FAIL mutate $i ($kind, seed $(basename "$seed")): $why: $(head -c 200 "$W/err")"
	else
		pass=$((pass + 1))
	fi
	rm -f "$W"/o.* "$W/err"
	[ $(( (i - FIRST + 1) % 250 )) -eq 0 ] && echo "mutate: $((i - FIRST + 1)) run, $fail failed"
	i=$((i + 1))
done
summary
[ "$fail" -eq 0 ]
