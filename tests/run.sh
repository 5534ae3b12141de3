#!/bin/sh
# Run every test but fuzzing; close with "N passed, N failed".
#   tests/run.sh BUILD_DIR [--update]
# Each part prints its own "PART: N passed, N failed" line; this adds them up.
# CG_VALGRIND=1 runs callgraph under valgrind (parts skip time limits then).
# Runs under LC_ALL=C, in temporary directories; never writes to the tree
# (except golden files with --update).
set -u
LC_ALL=C
export LC_ALL
BUILD=${1:?usage: tests/run.sh BUILD_DIR [--update]}
UPDATE=${2:-}
TOP=$(pwd)
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
export BUILD TOP
SHARED=${CG_SHARED:-$TOP/../shared}
CG="$BUILD/callgraph"
if [ "${CG_VALGRIND:-}" = 1 ]; then
	CG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions=$TOP/tests/valgrind.supp $CG"
fi
export CG
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cgtest.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

PASS=0
FAIL=0

# part NAME CMD...: run a part, show its failures and its count line.
part() {
	name=$1
	shift
	"$@" >"$TMP/part.out" 2>&1
	rc=$?
	grep -E '^(FAIL|DIFF|MISSING|ERROR)' "$TMP/part.out" | head -40
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$TMP/part.out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAIL $name: no result line (exit $rc)"
		tail -n 20 "$TMP/part.out"
		FAIL=$((FAIL + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\2/')
	f=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\3/')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL $name: exit $rc"
		tail -n 20 "$TMP/part.out"
	fi
	echo "  $name: $p passed, $f failed"
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
}

# --- unit tests (C) ---------------------------------------------------------
if [ "${CG_VALGRIND:-}" = 1 ]; then
	part unit valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions="$TOP/tests/valgrind.supp" "$BUILD/unit_tests"
else
	part unit "$BUILD/unit_tests"
fi

# --- golden files of CLI output --------------------------------------------
part golden sh "$TOP/tests/golden/run.sh" "$UPDATE"

# --- real traces: exit 0, JSON invariants, dmtracedump agreement -------------
corpus() {
	p=0 f=0
	for t in "$TOP"/samples/*.trace "$TOP"/samples/*.trace.gz; do
		for clock in wall cpu; do
			if $CG -q --clock $clock --json "$TMP/c.json" "$t" &&
			   python3 "$TOP/tests/corpus/check_json.py" "$TMP/c.json" "$(basename "$t")-$clock" >"$TMP/c.out"; then
				p=$((p + 1))
			else
				f=$((f + 1)); echo "FAIL corpus $t ($clock)"; cat "$TMP/c.out" 2>/dev/null | head -5
			fi
		done
	done
	$CG -q --clock cpu --json "$TMP/l.json" "$TOP/samples/legacy.trace" &&
	if python3 "$TOP/tests/corpus/dmtracedump_compare.py" "$TMP/l.json" "$TOP/tests/data/legacy.dmtracedump.txt.gz" >"$TMP/d.out"; then
		p=$((p + 1))
	else
		f=$((f + 1)); echo "FAIL dmtracedump legacy"; head -5 "$TMP/d.out"
	fi
	for t in "$TOP"/samples/bad/*.trace; do
		if $CG -q "$t" >/dev/null 2>"$TMP/e.out"; then
			f=$((f + 1)); echo "FAIL bad sample $t exited 0"
		elif [ "$(wc -l <"$TMP/e.out")" -eq 1 ] && grep -q "^callgraph: .*: offset [0-9]*: " "$TMP/e.out"; then
			p=$((p + 1))
		else
			f=$((f + 1)); echo "FAIL bad sample $t: $(cat "$TMP/e.out")"
		fi
	done
	echo "corpus: $p passed, $f failed"
	[ "$f" -eq 0 ]
}
part corpus corpus

# The research corpus (../shared) when it is beside the clone: CI has it.
shared() {
	p=0 f=0
	for t in "$SHARED"/corpus/*.trace "$SHARED"/corpus/*.trace.gz; do
		[ -f "$t" ] || continue
		b=$(basename "$t")
		case $b in
		*header.trace|*special_char.trace|*utf8-mangled.trace)
			if $CG -q "$t" >/dev/null 2>"$TMP/e.out"; then
				f=$((f + 1)); echo "FAIL shared $b exited 0"
			elif [ "$(wc -l <"$TMP/e.out")" -eq 1 ]; then p=$((p + 1))
			else f=$((f + 1)); echo "FAIL shared $b: $(cat "$TMP/e.out")"; fi
			continue ;;
		esac
		for clock in wall cpu; do
			if $CG -q --clock $clock --json "$TMP/s.json" "$t" &&
			   python3 "$TOP/tests/corpus/check_json.py" "$TMP/s.json" "$b-$clock" >"$TMP/s.out"; then
				p=$((p + 1))
			else
				f=$((f + 1)); echo "FAIL shared $b ($clock)"; head -5 "$TMP/s.out" 2>/dev/null
			fi
		done
	done
	for exp in "$SHARED"/corpus/expected/dmtracedump/*.txt.gz; do
		[ -f "$exp" ] || continue
		t="$SHARED/corpus/$(basename "$exp" .txt.gz)"
		[ -f "$t" ] || t="$t.gz"
		if $CG -q --clock cpu --json "$TMP/d.json" "$t" &&
		   python3 "$TOP/tests/corpus/dmtracedump_compare.py" "$TMP/d.json" "$exp" >"$TMP/d.out"; then
			p=$((p + 1))
		else
			f=$((f + 1)); echo "FAIL dmtracedump $(basename "$exp")"; head -5 "$TMP/d.out"
		fi
	done
	echo "shared-corpus: $p passed, $f failed"
	[ "$f" -eq 0 ]
}
if [ -d "$SHARED/corpus" ]; then
	part shared-corpus shared
else
	echo "  shared-corpus: ../shared/corpus not beside this clone; its checks were not run"
fi

# --- the default call graph against the profile's numbers -------------------
# Every method with >= 1 % self time that is not waiting is drawn, no node
# below the node floor, no thread root at 0 ms, <= 80 nodes, PNG <= 4000 px,
# waiting methods never on the colour scale: bundled samples always, the
# research corpus's readable traces when it is beside the clone.
graphs() {
	set -- "$TOP"/samples/*.trace "$TOP"/samples/*.trace.gz
	if [ -d "$SHARED/corpus" ]; then
		for t in "$SHARED"/corpus/*.trace "$SHARED"/corpus/*.trace.gz; do
			case $(basename "$t") in
			*header.trace|*special_char.trace|*utf8-mangled.trace) ;;
			*) [ -f "$t" ] && set -- "$@" "$t" ;;
			esac
		done
	fi
	python3 "$TOP/tests/corpus/graph_check.py" "$BUILD/callgraph" "$@"
}
if [ "${CG_VALGRIND:-}" != 1 ]; then
	part graph-check graphs
fi

# --- hostile input, atomic outputs, fuzz corpus replay ----------------------
[ -f "$TOP/tests/bad/run.sh" ] && part bad-inputs sh "$TOP/tests/bad/run.sh" "$BUILD"
[ -f "$TOP/tests/bad/atomic.sh" ] && part atomic sh "$TOP/tests/bad/atomic.sh" "$BUILD"
if [ -x "$BUILD/fuzz_replay" ]; then
	part fuzz-replay "$BUILD/fuzz_replay" "$TOP/tests/fuzz/corpus" "$TOP/tests/fuzz/crashes"
fi

# --- man page: examples run, every --help option documented, lint ------------
part man sh "$TOP/tests/man/run.sh" "$BUILD"

# --- the HTML report in a real browser ---------------------------------------
if [ -f "$TOP/tests/browser/run.sh" ] && [ "${CG_VALGRIND:-}" != 1 ]; then
	part browser sh "$TOP/tests/browser/run.sh" "$BUILD"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
