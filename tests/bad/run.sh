#!/bin/sh
# tests/bad/run.sh BUILD_DIR - corrupt and hostile inputs (see README.md).
#
# For every tests/bad/NAME.expected: make the input (samples/bad/NAME.trace,
# else tracegen on tests/bad/NAME.desc, else `sh tests/bad/NAME.sh TRACEGEN`,
# which prints the argument to pass), run `callgraph [NAME.args] INPUT` in a
# scratch directory, and require stderr to equal NAME.expected byte for byte,
# the exit status to equal NAME.exit, and the run to stay within 100 MB of
# resident memory (measured by /usr/bin/time) and 10 s: a hang guard, not a
# speed goal (speed is measured by `make bench`, never asserted here; a run
# over it is tried once more, as the machine may be busy).  A committed sample
# that also has a description must be what tracegen makes of it.
# Prints one FAIL line per failure, then "bad-inputs: N passed, N failed".
# CG_VALGRIND=1 runs callgraph under valgrind and skips the limits.
set -u
BUILD=${1:?usage: tests/bad/run.sh BUILD_DIR}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
LC_ALL=C
export LC_ALL
TRACEGEN=$BUILD/tracegen
MAX_SECONDS=10.00
MAX_KB=102400
TIMEOUT=20
# Sanitizer builds (make asan sets CG_SANITIZER=1) are 2-3x slower and their
# shadow memory inflates RSS: the limits speak of the real build, so only the
# messages and exit codes are checked there.
if [ "${CG_SANITIZER:-}" = 1 ]; then
	MAX_SECONDS=30.00
	MAX_KB=4194304
fi
if [ "${CG_VALGRIND:-}" = 1 ]; then
	CG="valgrind -q --error-exitcode=99 --leak-check=full --suppressions=$TOP/tests/valgrind.supp $BUILD/callgraph"
	TIMEOUT=600
else
	CG=$BUILD/callgraph
fi
TIME=/usr/bin/time
if [ "${CG_VALGRIND:-}" != 1 ] && ! [ -x "$TIME" ]; then
	echo "FAIL bad-inputs: $TIME is missing (apt-get install time)"
	echo "bad-inputs: 0 passed, 1 failed"
	exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cgbad.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

pass=0
fail=0
bad() {
	echo "FAIL bad-inputs $name: $*"
	fail=$((fail + 1))
}

# run DIR ARG: callgraph on ARG in DIR; sets rc, secs, kb.
run() {
	# shellcheck disable=SC2086
	if [ "${CG_VALGRIND:-}" = 1 ]; then
		(cd "$1" && timeout $TIMEOUT $CG $args "$2" >/dev/null 2>stderr)
		rc=$?
		secs=0 kb=0
	else
		(cd "$1" && $TIME -f '%e %M' -o time timeout $TIMEOUT $CG $args "$2" >/dev/null 2>stderr)
		rc=$?
		set -- $(tail -n 1 "$1/time")
		secs=$1 kb=$2
	fi
}

over_time() {
	awk -v s="$secs" -v m="$MAX_SECONDS" 'BEGIN { exit !(s > m) }'
}

for exp in "$TOP"/tests/bad/*.expected; do
	name=$(basename "$exp" .expected)
	dir=$TMP/$name
	mkdir "$dir"
	sample=$TOP/samples/bad/$name.trace
	desc=$TOP/tests/bad/$name.desc
	script=$TOP/tests/bad/$name.sh
	if [ -f "$sample" ]; then
		cp "$sample" "$dir/$name.trace"
		arg=$name.trace
		if [ -f "$desc" ] && { ! "$TRACEGEN" -o "$dir/gen.trace" "$desc" 2>/dev/null ||
				       ! cmp -s "$dir/gen.trace" "$sample"; }; then
			bad "samples/bad/$name.trace differs from what tracegen makes of $name.desc"
			continue
		fi
	elif [ -f "$desc" ]; then
		if ! "$TRACEGEN" -o "$dir/$name.trace" "$desc" 2>"$dir/gen.err"; then
			bad "tracegen failed: $(head -n 1 "$dir/gen.err")"
			continue
		fi
		arg=$name.trace
	elif [ -f "$script" ]; then
		if ! arg=$(cd "$dir" && sh "$script" "$TRACEGEN" 2>gen.err) || [ -z "$arg" ]; then
			bad "$name.sh failed: $(head -n 1 "$dir/gen.err")"
			continue
		fi
	else
		bad "no samples/bad/$name.trace, tests/bad/$name.desc or tests/bad/$name.sh"
		continue
	fi
	if ! [ -f "$TOP/tests/bad/$name.exit" ]; then
		bad "tests/bad/$name.exit is missing"
		continue
	fi
	want=$(cat "$TOP/tests/bad/$name.exit")
	args=
	[ -f "$TOP/tests/bad/$name.args" ] && args=$(cat "$TOP/tests/bad/$name.args")
	run "$dir" "$arg"
	if [ "${CG_VALGRIND:-}" != 1 ] && over_time; then
		run "$dir" "$arg"
	fi
	ok=1
	if [ "$rc" != "$want" ]; then
		bad "exit $rc, expected $want: $(head -c 300 "$dir/stderr")"
		ok=0
	elif ! cmp -s "$dir/stderr" "$exp"; then
		bad "stderr differs:"
		diff "$exp" "$dir/stderr" | head -n 6 | cut -c1-300
		ok=0
	elif [ "${CG_VALGRIND:-}" != 1 ]; then
		if over_time; then
			bad "took $secs s (limit $MAX_SECONDS s)"
			ok=0
		elif [ "$kb" -gt "$MAX_KB" ]; then
			bad "used $kb KB (limit $MAX_KB KB)"
			ok=0
		fi
	fi
	[ "$ok" = 1 ] && pass=$((pass + 1))
	rm -rf "$dir"
done
echo "bad-inputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
