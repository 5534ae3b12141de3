#!/bin/sh
# tests/bad/atomic.sh BUILD_DIR - outputs appear whole or not at all.
#
# After a failing run (a corrupt trace, an unknown -T format, an output in a
# missing or unwritable directory) no output file exists that did not exist
# before and every existing file is byte-for-byte unchanged (checksums of the
# whole scratch directory); an output naming the input trace is refused; no
# "*.tmp*" file is ever left behind; and a successful run replaces a file
# through a symlink and keeps its mode, and writes to a FIFO without
# replacing it.  Prints one FAIL line per failed check, then
# "atomic: N passed, N failed".  CG_VALGRIND=1 runs callgraph under valgrind.
set -u
BUILD=${1:?usage: tests/bad/atomic.sh BUILD_DIR}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
LC_ALL=C
export LC_ALL
CG=$BUILD/callgraph
[ "${CG_VALGRIND:-}" = 1 ] && CG="valgrind -q --error-exitcode=99 --leak-check=full --suppressions=$TOP/tests/valgrind.supp $CG"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cgatomic.XXXXXX")
trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
W=$TMP/w
mkdir "$W"
cd "$W" || exit 1

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL atomic $case: $*"; fail=$((fail + 1)); }

# The state of the scratch directory: every path with its type and checksum.
state() {
	find . -print | LC_ALL=C sort | while IFS= read -r f; do
		if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"
		elif [ -f "$f" ]; then echo "$f $(cksum <"$f")"
		else echo "$f $(stat -c %F "$f")"; fi
	done
}

# failing CASE ARGS...: callgraph must exit 1 with one stderr line and leave
# the directory exactly as it was (and write nothing to stdout).
failing() {
	case=$1
	shift
	state >"$TMP/before"
	# shellcheck disable=SC2086
	$CG "$@" >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	state >"$TMP/after"
	if [ "$rc" -ne 1 ]; then
		bad "exit $rc, expected 1: $(head -c 200 "$TMP/stderr")"
	elif ! cmp -s "$TMP/before" "$TMP/after"; then
		bad "the directory changed:"
		diff "$TMP/before" "$TMP/after" | head -n 8
	elif [ -s "$TMP/stdout" ]; then
		bad "wrote $(wc -c <"$TMP/stdout") bytes to standard output"
	elif [ "$(wc -l <"$TMP/stderr")" -ne 1 ]; then
		bad "expected one line on stderr, got: $(head -c 300 "$TMP/stderr")"
	else
		ok
	fi
}

no_tmp() {
	case=$1
	left=$(find "$W" -name '*.tmp*' | head -n 3)
	if [ -n "$left" ]; then bad "temporary files left: $left"; else ok; fi
}

"$BUILD/tracegen" -o good.trace "$TOP/tests/gen/examples/regular-dual.desc" || exit 1
"$BUILD/tracegen" -o corrupt.trace - <<'DESC' || exit 1
magic XLOW
clock dual
thread 1 main
method 0x4 a.B c ()V B.java
call 1 0x4 10 20
DESC
echo 'old svg' >existing.svg
echo 'old json' >existing.json
echo 'old html' >existing.html
echo 'old folded' >existing.folded
echo 'a file, not a directory' >afile
mkdir sub

# A corrupt trace: no output appears, existing ones are untouched.
failing corrupt-new -g out.svg --json out.json --html out.html --folded out.folded corrupt.trace
failing corrupt-existing -g existing.svg --json existing.json --html existing.html \
	--folded existing.folded corrupt.trace
failing corrupt-dot -k -g sub/out.png corrupt.trace
failing missing-trace --json out.json -g out.dot missing.trace
# An unknown graph format, alone and with other outputs.
failing unknown-format -T no-such-format -g out.x good.trace
failing unknown-format-others --json out.json -T no-such-format -g existing.svg good.trace
failing unknown-extension --json existing.json -g out.no-such-ext good.trace
# An output that cannot be created: the others are not written either.
failing missing-dir --json out.json --html out.html -g no-such-dir/out.svg good.trace
failing missing-dir-existing --json existing.json -g no-such-dir/out.dot good.trace
failing parent-is-file --folded out.folded --json afile/out.json good.trace
failing output-is-dir --json out.json -g sub good.trace
failing output-is-dir-text -T dot -g sub good.trace
if [ "$(id -u)" -ne 0 ]; then
	mkdir ro
	chmod 555 ro
	failing unwritable-dir --json out.json -g ro/out.svg good.trace
	failing unwritable-dir-existing --json existing.json --html ro/out.html good.trace
fi
# The input is never an output, however it is spelled.
ln -s good.trace link.trace
failing input-as-graph -T svg -g good.trace good.trace
failing input-as-dot -g ./good.trace -T dot good.trace
failing input-as-json --json good.trace good.trace
failing input-as-html --html "$W/good.trace" good.trace
failing input-as-folded --folded link.trace good.trace
failing input-via-link --json good.trace link.trace
"$BUILD/tracegen" -o pair "$TOP/tests/gen/examples/split.desc" || exit 1
failing input-pair-data --json pair.data pair
failing input-pair-key --folded pair.key pair.data
failing input-pair-twin -T dot -g pair.data pair.key
cp good.trace kept.svg.dot
failing input-as-kept-dot -k -g kept.svg kept.svg.dot
no_tmp after-failures

# Successful runs: whole files, nothing left over, links and FIFOs kept.
case=success
# shellcheck disable=SC2086
if $CG -q -g out.svg --json out.json --html out.html --folded out.folded good.trace >/dev/null &&
   [ -s out.svg ] && [ -s out.json ] && [ -s out.html ] && [ -s out.folded ]; then ok
else bad "a successful run did not write all four outputs"; fi
case=keeps-mode
chmod 640 existing.json
# shellcheck disable=SC2086
if $CG -q --json existing.json good.trace && [ "$(stat -c %a existing.json)" = 640 ] &&
   ! grep -q 'old json' existing.json; then ok
else bad "rewriting existing.json lost its mode 640 or its new content"; fi
case=through-symlink
echo old >target.json
ln -s target.json link.json
# shellcheck disable=SC2086
if $CG -q --json link.json good.trace && [ -L link.json ] && grep -q '"total_us"' target.json; then ok
else bad "writing through link.json replaced the link or missed target.json"; fi
case=fifo
if mkfifo fifo 2>/dev/null; then
	cat fifo >fifo.out &
	reader=$!
	# shellcheck disable=SC2086
	$CG -q --json fifo good.trace
	rc=$?
	wait "$reader"
	if [ "$rc" -eq 0 ] && [ -p fifo ] && grep -q '"total_us"' fifo.out; then ok
	else bad "writing to a FIFO (exit $rc) replaced it or lost the data"; fi
fi
no_tmp after-successes

echo "atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
