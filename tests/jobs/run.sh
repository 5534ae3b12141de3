#!/bin/sh
# Replaying in ranges (-j N) gives the same bytes as replaying in order
# (-j 1), and a profile of one table for all threads the bytes of one of
# per-thread tables: on every sample trace, the generated programs, and the
# descriptions beside this script (exits before start, unwinds, recursion,
# grouped and interleaved threads, clocks that step back or wrap, exits that
# keep a trace from being cut, ids missing from the key, v1, single-clock
# and legacy pair layouts).  An explicit -j N cuts even a tiny trace into N ranges, so with
# N up to 64 the records of one thread fall on both sides of many
# boundaries.  Every output that reads the profile's tables is compared, with
# stderr and the exit status: text, JSON, the dot graph, callgrind, and -d of
# the trace against itself; folded stacks with pprof, whose calling-context
# trees are built range by range and summed (and at -j 1 keyed by raw
# method id, the same as a tree fed beside the report's observers); and
# at -j 2 so are the outputs fed by the replay's observers together (the
# HTML report, folded stacks, pprof, speedscope and Chrome trace), some of
# which run on a thread of their own from -j 2.  The traces of long/ (up to two million records)
# are compared at -j 2, where the two ranges are cut while they run, and
# where the HTML report's two replays side by side meet a method id
# missing from the key late (unknown-late.desc) and start again.
#   tests/jobs/run.sh BUILD_DIR
# Prints "FAIL jobs ..." for each difference and closes with
# "jobs: N passed, N failed".
set -u
BUILD=${1:?usage: tests/jobs/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
CG=${CG:-$BUILD/callgraph}
work=$(mktemp -d "${TMPDIR:-/tmp}/cgjobs.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1
pass=0
fail=0

for d in "$here"/*.desc "$top"/tests/gen/programs/*.desc; do
	"$BUILD/tracegen" -o "gen-$(basename "$d" .desc).trace" "$d" ||
		{ fail=$((fail + 1)); echo "FAIL jobs tracegen $d"; }
done
for d in "$here"/long/*.desc; do
	"$BUILD/tracegen" -o "long-$(basename "$d" .desc).trace" "$d" ||
		{ fail=$((fail + 1)); echo "FAIL jobs tracegen $d"; }
done

# outputs J TRACE PREFIX [OPTS...]: every compared output of one run.
outputs() {
	j=$1 t=$2 o=$3
	shift 3
	$CG -j "$j" "$@" --json "$o.json" -g "$o.dot" -T dot --callgrind "$o.cg" "$t" >"$o.txt" 2>"$o.err"
	echo $? >"$o.rc"
	$CG -j "$j" "$@" -d "$t" "$t" >"$o.diff" 2>"$o.derr"
	echo $? >>"$o.rc"
	# JSON alone reads no thread's own methods: one table for all threads,
	# replayed in ranges of their own and summed (profile_global*.c).
	$CG -j "$j" "$@" --json "$o.gjson" "$t" 2>"$o.gerr"
	echo $? >>"$o.rc"
	# Folded stacks and pprof alone read the calling-context tree only:
	# each range builds its own, and the trees are summed.
	$CG -j "$j" "$@" --folded "$o.tfold" --pprof "$o.tpb" "$t" 2>"$o.terr"
	echo $? >>"$o.rc"
	# The observers' thread is the same from -j 2 up: once is enough.
	case $j in 1 | 2)
		$CG -j "$j" "$@" --html "$o.html" --folded "$o.fold" --pprof "$o.pb" \
			--speedscope "$o.ss" --chrome-trace "$o.ct" "$t" >/dev/null 2>"$o.oerr"
		echo $? >"$o.orc"
		;;
	esac
}

# compare NAME CLOCK J: the outputs of -j J (many.*) against -j 1's (one.*).
compare() {
	bad=
	for x in json dot cg txt err rc diff derr gjson gerr tfold tpb terr; do
		cmp -s one.$x many.$x || bad="$bad $x"
	done
	# per-thread tables (with the graph) against one table
	cmp -s one.json many.gjson || bad="$bad layout"
	# The tree of folded stacks and pprof alone is keyed by raw method id
	# until the replay ends (cct_create_ids), beside the report's
	# observers by method: the same stacks.
	cmp -s one.tfold one.fold || bad="$bad tree-ids-folded"
	cmp -s one.tpb one.pb || bad="$bad tree-ids-pprof"
	if [ "$3" = 2 ]; then
		for x in html fold pb ss ct oerr orc; do
			cmp -s one.$x many.$x || bad="$bad $x"
		done
	fi
	if [ -z "$bad" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL jobs $1 --clock $2 -j $3 differs from -j 1:$bad"
	fi
}

# gen-pair.trace is a legacy pair: gen-pair.trace.key and .data.
for t in "$top"/samples/*.trace gen-*.trace gen-pair.trace; do
	[ -f "$t" ] || [ -f "$t.key" ] || continue
	name=$(basename "$t")
	for clock in wall cpu; do
		outputs 1 "$t" one --clock $clock
		for j in 2 3 5 8 13 64; do
			outputs $j "$t" many --clock $clock
			compare "$name" $clock $j
		done
	done
done
# Spans long enough that two ranges are cut as they run (replay.c): at -j 2
# only, wherever the cut falls.
for t in long-*.trace; do
	[ -f "$t" ] || continue
	for clock in wall cpu; do
		outputs 1 "$t" one --clock $clock
		outputs 2 "$t" many --clock $clock
		compare "$t" $clock 2
	done
done
echo "jobs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
