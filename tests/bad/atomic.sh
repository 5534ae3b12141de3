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
# Every kind of output that writes a file, the exports and the -d report too.
failing input-as-pprof --pprof good.trace good.trace
failing input-as-speedscope --speedscope link.trace good.trace
failing input-as-chrome --chrome-trace good.trace good.trace
failing input-as-callgrind --callgrind good.trace good.trace
failing input-as-diff-html -d good.trace --html link.trace corrupt.trace
failing input-as-diff-base --html good.trace -d good.trace corrupt.trace
"$BUILD/tracegen" -o pair "$TOP/tests/gen/examples/split.desc" || exit 1
failing input-pair-data --json pair.data pair
failing input-pair-key --folded pair.key pair.data
failing input-pair-twin -T dot -g pair.data pair.key
cp good.trace kept.svg.dot
failing input-as-kept-dot -k -g kept.svg kept.svg.dot
# Graphviz devices that crash (vdx) or write nothing (gd, gd2, ico, ismap)
# are not offered.
for dev in vdx gd gd2 ico ismap; do
	failing "broken-device-$dev" -T $dev -g out.$dev good.trace
	grep -qx "callgraph: out.$dev: unknown graph format '$dev'" "$TMP/stderr" ||
		bad "stderr: $(head -c 200 "$TMP/stderr")"
done
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


# Hostile environments.  Each case checks the exit status and the exact
# standard error, then that no temporary file is left.
# check CASE EXIT STDERR: compare the last run's $rc and $TMP/stderr.
check() {
	case=$1
	printf '%s' "$3" >"$TMP/want"
	[ -n "$3" ] && echo >>"$TMP/want"
	if [ "$rc" -ne "$2" ]; then
		bad "exit $rc, expected $2: $(head -c 300 "$TMP/stderr")"
	elif ! cmp -s "$TMP/want" "$TMP/stderr"; then
		bad "stderr: $(head -c 300 "$TMP/stderr"), expected: $3"
	else
		ok
	fi
}

# The input read from standard input is never an output.
cp good.trace in.trace
# shellcheck disable=SC2086
$CG -q --json in.trace - <in.trace >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
check stdin-clobber 1 "callgraph: in.trace: refusing to overwrite an input trace"
cmp -s good.trace in.trace || bad "in.trace was changed"
# shellcheck disable=SC2086
$CG -q -T dot -g in.trace -d - good.trace <in.trace >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
check stdin-clobber-base 1 "callgraph: in.trace: refusing to overwrite an input trace"
cmp -s good.trace in.trace || bad "in.trace was changed"

# A mapping file (--mapping, --base-mapping) is an input too.
printf 'a.B -> c:\n    void f() -> a\n' >map.txt
cp map.txt map.orig
# shellcheck disable=SC2086
$CG -q --mapping map.txt --json map.txt good.trace >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
check mapping-clobber 1 "callgraph: map.txt: refusing to overwrite a mapping file"
cmp -s map.txt map.orig || bad "map.txt was changed"
# shellcheck disable=SC2086
$CG -q -d good.trace --base-mapping map.txt -g map.txt -T dot good.trace >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
check mapping-clobber-base 1 "callgraph: map.txt: refusing to overwrite a mapping file"
cmp -s map.txt map.orig || bad "map.txt was changed"

# A closed standard output matters only when something goes there.
# shellcheck disable=SC2086
$CG -q --json closed.json good.trace >&- 2>"$TMP/stderr"
rc=$?
check closed-stdout-unused 0 ""
[ -s closed.json ] || bad "closed.json was not written"
# shellcheck disable=SC2086
$CG -q good.trace >&- 2>"$TMP/stderr"
rc=$?
check closed-stdout-used 1 "callgraph: cannot write standard output: Bad file descriptor"

# A dangling symlink is written through: its target is created.
ln -s made.json dangling.json
# shellcheck disable=SC2086
$CG -q --json dangling.json good.trace 2>"$TMP/stderr"
rc=$?
check dangling-symlink 0 ""
{ [ -L dangling.json ] && grep -q '"total_us"' made.json; } || bad "dangling.json replaced or made.json missing"
ln -s no-such-dir/x.json dangling-dir.json
# shellcheck disable=SC2086
$CG -q --json dangling-dir.json good.trace 2>"$TMP/stderr"
rc=$?
check dangling-symlink-no-dir 1 "callgraph: cannot create dangling-dir.json: No such file or directory"

# Output names of 246 to 255 bytes (the temporary name must fit NAME_MAX).
for len in 246 250 255; do
	name=$(awk -v n=$((len - 5)) 'BEGIN { while (i++ < n) printf "n"; print ".json" }')
	# shellcheck disable=SC2086
	$CG -q --json "$name" good.trace 2>"$TMP/stderr"
	rc=$?
	check "name-$len-bytes" 0 ""
	grep -q '"total_us"' "$name" || bad "$name was not written"
	rm -f "$name"
done

# ulimit -f: SIGXFSZ is ignored and the write fails with EFBIG, reported;
# the 1351-byte JSON of good.trace does not fit in 1 KB.
(ulimit -f 1 && exec $CG -q --json big.json good.trace) 2>"$TMP/stderr"
rc=$?
check ulimit-f-file 1 "callgraph: cannot write big.json: File too large"
[ -e big.json ] && bad "big.json exists"
(ulimit -f 1 && exec $CG -q --json - good.trace >big.out) 2>"$TMP/stderr"
rc=$?
check ulimit-f-stdout 1 "callgraph: cannot write standard output: File too large"
rm -f big.out

# Out of memory: exit 1 and one line naming the file, never an abort.
# 65536 threads need about 60 MB of address space; 51200 KB is not
# enough.  (Not under sanitizers, whose shadow memory ignores ulimit -v.)
if [ "${CG_SANITIZER:-}" != 1 ] && [ "${CG_VALGRIND:-}" != 1 ]; then
	awk 'BEGIN { print "clock dual"; print "method 0x4 com.example.A one ()V A.java"
		     for (i = 0; i < 65536; i++) printf "call %d 0x4 10 20\n", i }' >threads.desc
	"$BUILD/tracegen" -o threads.trace threads.desc || exit 1
	(ulimit -v 51200 && exec $CG -q --json oom.json threads.trace) 2>"$TMP/stderr"
	rc=$?
	sed 's/(\([0-9]*\) bytes)$/(N bytes)/' "$TMP/stderr" >"$TMP/stderr.n"
	mv "$TMP/stderr.n" "$TMP/stderr"
	check ulimit-v-oom 1 "callgraph: threads.trace: out of memory (N bytes)"
	[ -e oom.json ] && bad "oom.json exists"
	rm -f threads.trace threads.desc
fi

# -j 8 under an address-space limit that a replay in order fits: threads
# that cannot start run on the main thread, and the output is -j 1's.
# (Not under sanitizers, whose shadow memory ignores ulimit -v.)
if [ "${CG_SANITIZER:-}" != 1 ] && [ "${CG_VALGRIND:-}" != 1 ]; then
	"$BUILD/tracegen" -o jobs.trace "$TOP/tests/jobs/program.desc" || exit 1
	$CG -q -j 1 --json jobs1.json jobs.trace
	for kb in 30000 60000; do
		(ulimit -v $kb && exec $CG -q -j 8 --json jobs8.json jobs.trace) 2>"$TMP/stderr"
		rc=$?
		check ulimit-v-jobs-$kb 0 ""
		cmp -s jobs1.json jobs8.json || bad "-j 8 under ulimit -v $kb: not -j 1's JSON"
		rm -f jobs8.json
	done
	rm -f jobs.trace jobs1.json
fi

# Graphviz's plugins print to descriptor 2 themselves (fontconfig here,
# with no configuration to read): nothing of it under -q, and without -q
# one line naming the trace.
# shellcheck disable=SC2086
FONTCONFIG_FILE=/nonexistent $CG -q -g fc.png good.trace 2>"$TMP/stderr"
rc=$?
check graphviz-stderr-quiet 0 ""
# shellcheck disable=SC2086
FONTCONFIG_FILE=/nonexistent $CG -g fc.png good.trace 2>"$TMP/stderr"
rc=$?
check graphviz-stderr 0 "callgraph: good.trace: warning: Fontconfig error: Cannot load default config file: No such file: (null)"
rm -f fc.png

# Under ulimit -v Graphviz's font stack crashed (SIGSEGV, SIGTRAP) rather
# than fail.  At every limit from 16 MB to 320 MB, in 32 MB steps, each
# drawing format either succeeds or is refused with one line, and from
# 256 MB (the man page's minimum) on it succeeds.  Below it: the exact
# refusal (numbers aside).  (Not under sanitizers or valgrind.)
if [ "${CG_SANITIZER:-}" != 1 ] && [ "${CG_VALGRIND:-}" != 1 ]; then
	for kb in 16384 49152 81920 114688 147456 180224 212992 245760 262144 294912 327680; do
		for fmt in svg png pdf; do
			(ulimit -v $kb && exec $CG -q -g "as.$fmt" good.trace) 2>"$TMP/stderr"
			rc=$?
			case=ulimit-v-$kb-$fmt
			if [ "$rc" -gt 1 ]; then bad "exit $rc: $(head -c 300 "$TMP/stderr")"
			elif [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/stderr")" -ne 1 ]; then bad "not one line: $(head -c 300 "$TMP/stderr")"
			elif [ "$rc" -eq 1 ] && [ "$kb" -ge 262144 ]; then bad "refused at the minimum: $(cat "$TMP/stderr")"
			else ok; fi
		done
	done
	rm -f as.svg as.png as.pdf
	(ulimit -v 65536 && exec $CG -q -g as.png good.trace) 2>"$TMP/stderr"
	rc=$?
	sed 's/[0-9][0-9]* MB/N MB/g' "$TMP/stderr" >"$TMP/stderr.n"
	mv "$TMP/stderr.n" "$TMP/stderr"
	check ulimit-v-graph 1 "callgraph: good.trace: not enough address space to draw the graph as png: it needs about N MB more than the N MB in use, and ulimit -v allows N MB"
	[ -e as.png ] && bad "as.png exists"
fi

# A signal mid-run leaves no output and no temporary file: callgraph has
# its outputs open and waits for the rest of a trace on a FIFO.
# wait_fd PID TEXT TEXT2: wait until one of PID's descriptors names TEXT or
# TEXT2 (an unnamed O_TMPFILE file shows as DIR/#INODE (deleted)).
wait_fd() {
	i=0
	while [ $i -lt 2000 ]; do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q -e "$2" -e "$3" && return 0
		sleep 0.01
		i=$((i + 1))
	done
	return 1
}
if mkfifo sig.fifo 2>/dev/null && [ -d /proc/self/fd ] && [ "${CG_VALGRIND:-}" != 1 ]; then
	for sig in INT TERM HUP KILL; do
		exec 3<>sig.fifo
		head -c 300 good.trace >&3
		# env --default-signal: a non-interactive shell starts background
		# jobs with SIGINT ignored, and nohup leaves SIGHUP ignored, which
		# callgraph (rightly) keeps.
		# shellcheck disable=SC2086
		env --default-signal $CG -q --json sig.json --html sig.html sig.fifo \
			2>"$TMP/stderr" 3>&- &
		pid=$!
		if ! wait_fd $pid "$W/sig.json.tmp" "$W/#"; then
			case=signal-$sig
			bad "callgraph never opened its outputs"
		fi
		kill -s $sig $pid
		{ wait $pid; } 2>/dev/null
		rc=$?
		exec 3>&-
		case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; KILL) n=9 ;; esac
		check "signal-$sig" $((128 + n)) ""
		left=$(find "$W" -name 'sig.*' ! -name sig.fifo; find "$W" -name '*.tmp*'; find "$W" -name '#*')
		[ -n "$left" ] && bad "left behind after SIG$sig: $left"
	done
	rm -f sig.fifo
fi

# The same while ranges replay on four threads (-j 4): 12 000 000 records
# of a regular file (a quarter of a second's work on two cores, many times
# the polling interval, so that the signal lands before the outputs are
# committed), the signal as soon as the outputs are open.
if [ -d /proc/self/fd ] && [ "${CG_VALGRIND:-}" != 1 ]; then
	"$BUILD/tracegen" -o sigj.trace - <<'DESC' || exit 1
clock dual
auto-methods 2000 com.example.app.Sig
program 12000000 seed=8 threads=8 fanout=1.7 depth=40 recursion=20 long=2
DESC
	for sig in INT TERM KILL; do
		# shellcheck disable=SC2086
		env --default-signal $CG -q -j 4 --json sig.json -T dot -g sig.dot sigj.trace \
			2>"$TMP/stderr" &
		pid=$!
		if ! wait_fd $pid "$W/sig.json.tmp" "$W/#"; then
			case=signal-jobs-$sig
			bad "callgraph never opened its outputs"
		fi
		kill -s $sig $pid
		{ wait $pid; } 2>/dev/null
		rc=$?
		case $sig in INT) n=2 ;; TERM) n=15 ;; KILL) n=9 ;; esac
		check "signal-jobs-$sig" $((128 + n)) ""
		left=$(find "$W" -name 'sig.*'; find "$W" -name '*.tmp*'; find "$W" -name '#*')
		[ -n "$left" ] && bad "left behind after SIG$sig: $left"
	done
	rm -f sigj.trace
fi

# The event log of --speedscope and --chrome-trace holds 32 MB and puts the
# rest in an unnamed file in $TMPDIR: 1 200 000 calls (2 400 000 events,
# 37 MB of log) spill.  With $TMPDIR missing the run fails with one line
# and writes nothing; with a writable $TMPDIR every event comes back and
# the directory stays empty.
"$BUILD/tracegen" -o spill.trace - <<'DESC' || exit 1
thread 1 main
method 0x8 com.example.B step ()V B.java
repeat 1200000
call 1 0x8 +1 +2
end
DESC
rm -f spill.json
TMPDIR=$W/missing $CG -q --speedscope spill.json spill.trace 2>"$TMP/stderr"
rc=$?
check event-log-tmpdir-missing 1 "callgraph: spill.trace: cannot create the event log's temporary file: No such file or directory"
[ -e spill.json ] && bad "spill.json exists"
mkdir -p "$W/evtmp"
TMPDIR=$W/evtmp $CG -q --speedscope spill.json spill.trace 2>"$TMP/stderr"
rc=$?
check event-log-spilled 0 ""
case=event-log-spilled-events
if ! python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["profiles"][0]
o = sum(1 for e in p["events"] if e["type"] == "O")
c = sum(1 for e in p["events"] if e["type"] == "C")
last = p["events"][-1]["at"]
sys.exit(0 if (o, c, last) == (1200000, 1200000, 3599999) else "%d opens, %d closes, last at %d" % (o, c, last))
' spill.json 2>"$TMP/err"; then
	bad "$(cat "$TMP/err")"
elif [ -n "$(ls -A "$W/evtmp")" ]; then
	bad "left in TMPDIR: $(ls -A "$W/evtmp")"
else
	ok
fi
rm -rf spill.trace spill.json "$W/evtmp"

# Names with terminal escapes: filtered on a terminal (text, -o dump, -d
# text, run under script(1) for a pseudo-terminal); files keep the bytes.
"$BUILD/tracegen" -o evil.trace - <<'DESC' || exit 1
clock dual
thread 1 main
method 0x4 com.example.A \x1b]0;PWNED\x07\x1b[2J\x1b[31mEvil ()V A.java
method 0x8 com.example.B go\xc2\x9b31m ()V B.java
call 1 0x4 10 20
call 1 0x8 30 40
DESC
esc=$(printf '\033')
if command -v script >/dev/null 2>&1; then
	for args in "evil.trace" "-o evil.trace" "-d evil.trace evil.trace" "--json - evil.trace"; do
		script -qec "$CG -q $args" /dev/null >"$TMP/tty" 2>&1 </dev/null
		rc=$?
		case=tty-"$args"
		if [ "$rc" -ne 0 ]; then bad "exit $rc"
		elif ! grep -q 'Evil' "$TMP/tty"; then bad "the method is missing: $(head -c 200 "$TMP/tty")"
		elif grep -q "$esc" "$TMP/tty"; then bad "an escape byte reached the terminal"
		elif grep -q "$(printf '\302\233')" "$TMP/tty"; then bad "a C1 control reached the terminal"
		else ok; fi
	done
fi
# shellcheck disable=SC2086
$CG -q evil.trace >evil.txt 2>"$TMP/stderr"
rc=$?
check file-keeps-bytes 0 ""
grep -q "${esc}\\[31mEvil" evil.txt || bad "the text profile in a file lost the name's bytes"

# The diff HTML is valid UTF-8 whatever bytes the names hold.
"$BUILD/tracegen" -o bad8.trace - <<'DESC' || exit 1
clock dual
thread 1 main
method 0x4 com.ex\xff\xfeA r\x1b[31mun ()V A.java
call 1 0x4 10 20
DESC
# shellcheck disable=SC2086
$CG -q -d bad8.trace --html d.html bad8.trace 2>"$TMP/stderr"
rc=$?
check diff-html-utf8 0 ""
iconv -f UTF-8 -t UTF-8 d.html >/dev/null 2>&1 || bad "d.html is not valid UTF-8"
grep -q "$esc" d.html && bad "d.html holds an escape byte"
no_tmp after-hostile

echo "atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
