#!/bin/sh
# Run every test but fuzzing; close with "N passed, N failed" (and
# ", N skipped" when something could not run here).
#   tests/run.sh BUILD_DIR [--update]
# Each part prints its own "PART: N passed, N failed[, N skipped] (S s)" line,
# S its seconds of wall time; this adds them up.  A part that cannot run at all (no ../shared, no browser)
# counts as one skipped.
# Parts run side by side, CG_JOBS at a time (default: the number of CPUs),
# each in a temporary directory of its own; their lines come out in the order
# below whatever order they end in.
# CG_FAIL_FAST=1 runs one part at a time and stops after the first that fails
# (mutation testing), unless all its failures are listed in the file
# $CG_KNOWN_FAILURES.
# CG_SKIP_PARTS="NAME ..." skips those parts (counted as skipped).
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
RUNS=$TMP
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

JOBS=${CG_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $JOBS in '' | *[!0-9]* | 0) JOBS=1 ;; esac
[ "${CG_FAIL_FAST:-}" = 1 ] && JOBS=1
# A part that ends writes its number here; the runner waits on it for a slot.
mkfifo "$RUNS/ended"
exec 3<>"$RUNS/ended"

PASS=0
FAIL=0
SKIP=0
N=0        # parts started
NEXT=1     # the next part to report
RUNNING=0

# skip NAME REASON: a part that cannot run here.
skip() {
	N=$((N + 1))
	echo "  $1: skipped: $2" >"$RUNS/$N.skip"
	: >"$RUNS/$N.ended"
	flush
}

# total: the closing line.
total() {
	if [ "$SKIP" -gt 0 ]; then
		echo "$PASS passed, $FAIL failed, $SKIP skipped"
	else
		echo "$PASS passed, $FAIL failed"
	fi
}

# part NAME CMD...: start a part once a slot is free.  Its output goes to
# RUNS/N.out, its exit status and seconds to RUNS/N.rc; TMP is a directory
# of its own.
part() {
	case " ${CG_SKIP_PARTS:-} " in
	*" $1 "*) skip "$1" "in CG_SKIP_PARTS"; return ;;
	esac
	while [ "$RUNNING" -ge "$JOBS" ]; do
		reap
	done
	N=$((N + 1))
	echo "$1" >"$RUNS/$N.name"
	shift
	mkdir "$RUNS/$N.d"
	(
		TMP=$RUNS/$N.d
		started=$(date +%s)
		# In the background and waited for, so that a TERM stops it.
		"$@" >"$RUNS/$N.out" 2>&1 3>&- &
		child=$!
		trap 'kill "$child" 2>/dev/null; exit 143' TERM
		wait "$child"
		rc=$?
		echo "$rc $(($(date +%s) - started))" >"$RUNS/$N.rc"
		echo "$N" >&3
	) &
	echo $! >"$RUNS/$N.pid"
	RUNNING=$((RUNNING + 1))
}

# stop: end the parts still running.
stop() {
	for f in "$RUNS"/*.pid; do
		[ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$RUNS"
}

# reap: wait for a part to end, then report every part that can be.
reap() {
	read -r ended <&3
	rm -f "$RUNS/$ended.pid"
	: >"$RUNS/$ended.ended"
	RUNNING=$((RUNNING - 1))
	flush
}

# flush: report the parts that have ended, in the order they were started.
flush() {
	while [ -e "$RUNS/$NEXT.ended" ]; do
		if [ -e "$RUNS/$NEXT.skip" ]; then
			cat "$RUNS/$NEXT.skip"
			SKIP=$((SKIP + 1))
		else
			report "$(cat "$RUNS/$NEXT.name")" "$RUNS/$NEXT.out" "$RUNS/$NEXT.rc"
		fi
		NEXT=$((NEXT + 1))
	done
}

# report NAME OUT RC: show a part's failures and its count line, add it up.
report() {
	name=$1
	out=$2
	read -r rc secs <"$3"
	# Per-test results (the unit runner prints one line per test), then the
	# first failures of any part.
	grep -E '^(PASS|SKIP) ' "$out"
	grep -E '^(FAIL|DIFF|MISSING|ERROR|SIGNAL)' "$out" | head -40
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	if [ -z "$line" ]; then
		tail -n 20 "$out"
		echo "FAIL $name: no result line (exit $rc)" | tee -a "$out"
		FAIL=$((FAIL + 1))
		if [ "${CG_FAIL_FAST:-}" = 1 ] && new_failures "$out"; then
			total
			exit 1
		fi
		return
	fi
	p=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\2/')
	f=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\3/')
	k=0
	case $line in
	*failed,\ *skipped*) k=$(echo "$line" | sed -E 's/.* failed, ([0-9]+) skipped.*/\1/') ;;
	esac
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL $name: exit $rc"
		tail -n 20 "$out"
	fi
	# A part that reports its failures in its own words (the fuzz replay's
	# "PATH: killed by signal 6") still gets a FAIL line: CG_FAIL_FAST and
	# the mutation pass look for one.
	if [ "$f" -gt 0 ] && ! grep -qE '^(FAIL|SIGNAL)' "$out"; then
		grep -vE '^(PASS|SKIP) ' "$out" | tail -n 20
		echo "FAIL $name: $f failed" | tee -a "$out"
	fi
	if [ "$k" -gt 0 ]; then
		echo "  $name: $p passed, $f failed, $k skipped ($secs s)"
	else
		echo "  $name: $p passed, $f failed ($secs s)"
	fi
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
	SKIP=$((SKIP + k))
	if [ "$f" -gt 0 ] && [ "${CG_FAIL_FAST:-}" = 1 ] && new_failures "$out"; then
		total
		exit 1
	fi
}

# new_failures OUT: true when the part's output has a FAIL or SIGNAL line
# (digits aside) that is not in the file $CG_KNOWN_FAILURES (when set).
new_failures() {
	[ -n "${CG_KNOWN_FAILURES:-}" ] || return 0
	grep -E '^(FAIL|SIGNAL)' "$1" | tr -d '0-9' | sort -u |
		comm -23 - "$CG_KNOWN_FAILURES" | grep -q .
}

# The longest parts start first; the others fill the second core around them.
# --- the HTML report in a real browser ---------------------------------------
if [ "${CG_VALGRIND:-}" != 1 ]; then
	part browser sh "$TOP/tests/browser/run.sh" "$BUILD"
else
	skip browser "not under valgrind"
fi

# --- exports loaded into their real consumers --------------------------------
if [ "${CG_VALGRIND:-}" != 1 ]; then
	part exports sh "$TOP/tests/exports/run.sh" "$BUILD"
else
	skip exports "not under valgrind"
fi

# --- unit tests (C) ---------------------------------------------------------
if [ "${CG_VALGRIND:-}" = 1 ]; then
	part unit valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions="$TOP/tests/valgrind.supp" "$BUILD/unit_tests"
else
	part unit "$BUILD/unit_tests"
fi

# --- golden files of CLI output --------------------------------------------
part golden sh "$TOP/tests/golden/run.sh" "$UPDATE"

# --- V2 traces give the profile of the v1-v3 trace of the same description --
part v2-equiv sh "$TOP/tests/v2/equiv.sh"
# --- V2 layout B: the unit from the summary, read from files, pipes, gzip ---
part v2-units sh "$TOP/tests/v2/units.sh"

# --- command-line options against hand-computed results ---------------------
part cli sh "$TOP/tests/cli/run.sh" "$BUILD"

# --- the model against an independent replay of generated programs ---------
programs() {
	p=0 f=0
	for d in "$TOP"/tests/gen/programs/*.desc; do
		b=$(basename "$d" .desc)
		"$BUILD/tracegen" -o "$TMP/p.trace" "$d" 2>"$TMP/p.out" || { f=$((f + 1)); echo "FAIL program $b: tracegen"; continue; }
		# In order, and in four ranges (-j 4 cuts even a small trace).
		for j in 1 4; do
			if $CG -q -j $j --json "$TMP/p.json" "$TMP/p.trace" 2>>"$TMP/p.out" &&
			   python3 "$TOP/tests/gen/replay_check.py" "$TMP/p.trace" "$TMP/p.json" "$b -j $j" >>"$TMP/p.out"; then
				p=$((p + 1))
			else
				f=$((f + 1)); echo "FAIL program $b -j $j"; grep -v passed "$TMP/p.out" | head -5
			fi
		done
	done
	echo "programs: $p passed, $f failed"
	[ "$f" -eq 0 ]
}
part programs programs

# --- windows (--range) and frames (--frames) ---------------------------------
part windows sh "$TOP/tests/windows/run.sh" "$BUILD"

# --- replaying in ranges (-j N) gives the bytes of a replay in order --------
part jobs sh "$TOP/tests/jobs/run.sh" "$BUILD"

# --- real traces: exit 0, JSON invariants, dmtracedump agreement -------------
corpus() {
	p=0 f=0
	for t in "$TOP"/samples/*.trace "$TOP"/samples/*.trace.gz; do
		for clock in wall cpu; do
			if $CG -q --clock $clock --json "$TMP/c-$clock.json" "$t" &&
			   python3 "$TOP/tests/corpus/check_json.py" "$TMP/c-$clock.json" "$(basename "$t")-$clock" >"$TMP/c.out"; then
				p=$((p + 1))
			else
				f=$((f + 1)); echo "FAIL corpus $t ($clock)"; cat "$TMP/c.out" 2>/dev/null | head -5
			fi
		done
		# Both clocks of one run equal the --clock runs.
		if python3 "$TOP/tests/corpus/check_clocks.py" "$TMP/c-wall.json" "$TMP/c-cpu.json" "$(basename "$t")" >"$TMP/c.out"; then
			p=$((p + 1))
		else
			f=$((f + 1)); echo "FAIL clocks $t"; head -5 "$TMP/c.out"
		fi
	done
	if $CG -q --clock cpu --json "$TMP/l.json" "$TOP/samples/legacy.trace" 2>"$TMP/d.out" &&
	   python3 "$TOP/tests/corpus/dmtracedump_compare.py" "$TMP/l.json" "$TOP/tests/data/legacy.dmtracedump.txt.gz" >"$TMP/d.out"; then
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
			if $CG -q --clock $clock --json "$TMP/s-$clock.json" "$t" &&
			   python3 "$TOP/tests/corpus/check_json.py" "$TMP/s-$clock.json" "$b-$clock" >"$TMP/s.out"; then
				p=$((p + 1))
			else
				f=$((f + 1)); echo "FAIL shared $b ($clock)"; head -5 "$TMP/s.out" 2>/dev/null
			fi
		done
		# The cpu numbers of a default run are those of a --clock cpu run.
		if python3 "$TOP/tests/corpus/check_clocks.py" "$TMP/s-wall.json" "$TMP/s-cpu.json" "$b" >"$TMP/s.out"; then
			p=$((p + 1))
		else
			f=$((f + 1)); echo "FAIL shared clocks $b"; head -5 "$TMP/s.out"
		fi
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
	skip shared-corpus "../shared/corpus is not beside this clone"
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
part bad-inputs sh "$TOP/tests/bad/run.sh" "$BUILD"
part atomic sh "$TOP/tests/bad/atomic.sh" "$BUILD"
part fuzz-replay "$BUILD/fuzz_replay" "$TOP/tests/fuzz/corpus" "$TOP/tests/fuzz/crashes"

# --- repeated runs: statistics against SciPy, power and the gate ------------
part stats /usr/bin/python3 "$TOP/tests/stats/check.py" "$BUILD"
part runs sh "$TOP/tests/stats/runs.sh" "$BUILD"

# --- traces of minified apps read with their R8/ProGuard mapping files ---------
part mapping sh "$TOP/tests/mapping/run.sh" "$BUILD"

# --- shell completions, make install / uninstall ------------------------------
part completion sh "$TOP/tests/completion/run.sh" "$BUILD"

# --- man page: examples run, every --help option documented, lint ------------
part man sh "$TOP/tests/man/run.sh" "$BUILD"

# --- the report's scripts: syntax, lint, unit tests of their pure helpers ----
part js sh "$TOP/tests/js/run.sh"

# Every part has ended: the last are reported.
while [ "$RUNNING" -gt 0 ]; do
	reap
done
total
[ "$FAIL" -eq 0 ]
