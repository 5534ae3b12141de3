#!/bin/sh
# bench_limits.sh BUILD_DIR - callgraph against the minimal exact replay of
# ../shared/limits (make bench, after bench.sh).
#
# When ../shared/limits (or BENCH_LIMITS) holds minrep.c, rawsum.c and
# progtrace.c, they are built into BUILD_DIR/limits (never into the source
# tree), progtrace writes the program-shaped trace (LIMITS_RECORDS records,
# default 76 000 000: 1 GiB; 16 threads, 30 000 methods, depth 60) into a
# private temporary directory, and these run in turns, LIMITS_RUNS times
# each (default 3), so that all of them see the same machine:
#   rawsum TRACE, minrep TRACE, minrep -p TRACE, callgraph -q -j 1 --json OUT TRACE,
#   callgraph -q -j 2 --json OUT TRACE, and two of callgraph -q -j 1 --json
#   at once (the most two cores of the machine give).
# Each figure is the best of its runs (CPU = user + sys).  Then, once each
# at the default -j: every output of the same trace (wall, user CPU, peak
# RSS, bytes written); the outputs whose ratios are checked (--json, --html,
# --folded, --pprof, --speedscope) again in turns, LIMITS_RUNS times, the
# checks taking the best of each; and callgraph -j 1 against minrep on
# traces of 1, 4, 16 and 64 threads (LIMITS_SWEEP records each, default
# 7 600 000).  Between them, the peak RSS of the outputs of the same number
# of records on one thread.
# The checks print ok or MISSED against the targets; numbers never fail the
# run.  Without the limits folder it says so and exits 0.
set -u

build=${1:-}
if [ -z "$build" ] || [ ! -x "$build/callgraph" ]; then
	echo "usage: bench_limits.sh BUILD_DIR (with BUILD_DIR/callgraph built)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
lim=${BENCH_LIMITS:-$root/../shared/limits}
records=${LIMITS_RECORDS:-76000000}
sweep=${LIMITS_SWEEP:-7600000}
runs=${LIMITS_RUNS:-3}
export LC_ALL=C

echo
if [ ! -f "$lim/minrep.c" ] || [ ! -f "$lim/progtrace.c" ] || [ ! -f "$lim/rawsum.c" ]; then
	echo "limits: $lim not present: the comparison with minrep is skipped"
	exit 0
fi
timebin=/usr/bin/time
if [ ! -x "$timebin" ] || ! "$timebin" -f '%e' true 2>/dev/null; then
	echo "limits: GNU time (/usr/bin/time) is needed for CPU and RSS figures: skipped"
	exit 0
fi
bin=$(cd "$build" && pwd)/limits
mkdir -p "$bin" || exit 2
cc=${CC:-cc}
for x in minrep rawsum progtrace; do
	if ! "$cc" -O2 -o "$bin/$x" "$lim/$x.c" 2>"$bin/$x.log"; then
		echo "limits: $x.c does not build ($(head -n 1 "$bin/$x.log")): skipped"
		exit 0
	fi
done
cg=$(cd "$build" && pwd)/callgraph

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cglimits.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# timed NAME CMD...: appends "wall user sys rss_kb rc" to $tmp/NAME.
timed() {
	name=$1
	shift
	"$timebin" -f '%e %U %S %M %x' -o "$tmp/t.out" "$@" >/dev/null 2>"$tmp/stderr" </dev/null
	tail -n 1 "$tmp/t.out" >>"$tmp/$name"
}
# best NAME COLUMN: the smallest value of a column (2+3: user+sys).
best() {
	awk -v c="$2" '{ v = (c == "cpu") ? $2 + $3 : $c; if (NR == 1 || v < b) b = v } END { printf "%.2f", b }' "$tmp/$1"
}
rate() { # RECORDS SECONDS: millions per second
	awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", n / s / 1e6; else print "-" }'
}
checks=$tmp/checks
: >"$checks"
verdict() { # VALUE TARGET ge|le
	awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN {
		ok = (v ~ /^[0-9.]+$/) && (op == "ge" ? v + 0 >= t + 0 : v + 0 <= t + 0)
		printf "%s", ok ? "ok    " : "MISSED" }'
}

trace=$tmp/prog.trace
echo "limits: callgraph against minrep ($lim), $(nproc) cores, load average$(cut -d' ' -f1-3 /proc/loadavg | sed 's/^/ /')"
if ! "$bin/progtrace" "$trace" "$records" 16 30000 60 >"$tmp/gen" 2>&1; then
	echo "limits: progtrace failed: $(tail -n 1 "$tmp/gen")"
	exit 0
fi
recs=$(awk '{ print $1; exit }' "$tmp/gen")
mib=$(awk -v b="$(wc -c <"$trace")" 'BEGIN { printf "%.0f", b / 1048576 }')
# Write-back of the fresh file would otherwise run during the timed runs.
sync "$trace" 2>/dev/null || sync
cat "$trace" >/dev/null
echo "trace: progtrace $records 16 30000 60: $recs records, $mib MiB; best of $runs interleaved runs"
printf '%-26s %8s %8s %9s %9s %8s\n' run "wall s" "cpu s" "Mrec/cs" "Mrec/s" "RSS MB"
i=0
while [ "$i" -lt "$runs" ]; do
	timed rawsum "$bin/rawsum" "$trace"
	timed minrep "$bin/minrep" "$trace"
	timed minrep_p "$bin/minrep" -p "$trace"
	timed j1 "$cg" -q -j 1 --json "$tmp/j1.json" "$trace"
	timed j2 "$cg" -q -j 2 --json "$tmp/j2.json" "$trace"
	# Two replays of one thread side by side: what two cores of this
	# machine give against one (shared caches, memory bandwidth).
	timed side sh -c '"$1" -q -j 1 --json "$2" "$4" & "$1" -q -j 1 --json "$3" "$4"; wait' sh \
		"$cg" "$tmp/s1.json" "$tmp/s2.json" "$trace"
	i=$((i + 1))
done
for r in "rawsum:rawsum (decode only)" "minrep:minrep" "minrep_p:minrep -p" \
	"j1:callgraph -j 1 --json" "j2:callgraph -j 2 --json"; do
	n=${r%%:*}
	w=$(best "$n" 1) c=$(best "$n" cpu) m=$(best "$n" 4)
	printf '%-26s %8s %8s %9s %9s %8.1f\n' "${r#*:}" "$w" "$c" "$(rate "$recs" "$c")" \
		"$(rate "$recs" "$w")" "$(awk -v k="$m" 'BEGIN { print k / 1024 }')"
done
cmp -s "$tmp/j1.json" "$tmp/j2.json" || echo "MISSED -j 2's JSON differs from -j 1's" >>"$checks"
ratio=$(awk -v a="$(best j1 cpu)" -v b="$(best minrep cpu)" 'BEGIN { printf "%.2f", b / a }')
echo "$(verdict "$ratio" 0.8 ge) replay: callgraph -j 1 --json at $ratio of minrep's records per CPU-second (target >= 0.8)" >>"$checks"
ratio=$(awk -v a="$(best j1 1)" -v b="$(best j2 1)" 'BEGIN { printf "%.2f", a / b }')
echo "$(verdict "$ratio" 1.7 ge) two cores: -j 2 is ${ratio}x faster than -j 1 in wall time (target >= 1.7)" >>"$checks"
ceiling=$(awk -v a="$(best j1 1)" -v b="$(best side 1)" 'BEGIN { if (b > 0) printf "%.2f", 2 * a / b; else print "-" }')
echo "info   two cores: two -j 1 replays side by side take $(best side 1) s against $(best j1 1) s for one: this machine runs two at ${ceiling}x the rate of one, the most -j 2 can reach" >>"$checks"

# Every output once, at the default -j.
echo
echo "outputs (default -j, one run each): wall, user CPU, peak RSS, bytes written"
printf '%-14s %8s %8s %8s %10s\n' output "wall s" "user s" "RSS MB" "MB out"
for kind in json text svg html folded pprof speedscope chrome callgrind dump; do
	out=$tmp/out.$kind
	rm -f "$out" "$tmp/$kind"
	case $kind in
	json) timed "$kind" "$cg" -q --json "$out" "$trace" ;;
	text) timed "$kind" "$cg" -q "$trace" ;;
	svg) timed "$kind" "$cg" -q -g "$out.svg" "$trace"; mv "$out.svg" "$out" 2>/dev/null ;;
	html) timed "$kind" "$cg" -q --html "$out" "$trace" ;;
	folded) timed "$kind" "$cg" -q --folded "$out" "$trace" ;;
	pprof) timed "$kind" "$cg" -q --pprof "$out" "$trace" ;;
	speedscope) timed "$kind" "$cg" -q --speedscope "$out" "$trace" ;;
	chrome) timed "$kind" "$cg" -q --chrome-trace "$out" "$trace" ;;
	callgrind) timed "$kind" "$cg" -q --callgrind "$out" "$trace" ;;
	dump) "$timebin" -f '%e %U %S %M %x' -o "$tmp/t.out" "$cg" -q -o "$trace" >/dev/null 2>&1
		tail -n 1 "$tmp/t.out" >>"$tmp/$kind" ;;
	esac
	bytes=0
	[ -f "$out" ] && bytes=$(wc -c <"$out")
	echo "$bytes" >"$tmp/$kind.bytes"
	rm -f "$out"
	read -r w u s m rc <"$tmp/$kind"
	printf '%-14s %8s %8s %8.1f %10.1f\n' "$kind" "$w" "$u" "$(awk -v k="$m" 'BEGIN { print k / 1024 }')" \
		"$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')"
	[ "$rc" = 0 ] || echo "MISSED $kind: callgraph exited with $rc: $(tail -n 1 "$tmp/stderr")" >>"$checks"
	awk -v k="$m" 'BEGIN { exit !(k / 1024 < 256) }' ||
		echo "MISSED memory: $kind peaks at $(awk -v k="$m" 'BEGIN { printf "%.1f", k / 1024 }') MB (target < 256)" >>"$checks"
done
# The outputs the ratios compare, again, interleaved: one run of each is at
# the mercy of the machine's load, and a slow --json run flatters them.
echo
echo "ratio outputs (default -j): best of $runs interleaved runs"
printf '%-14s %8s %8s\n' output "wall s" "user s"
ratio_kinds="json html folded pprof speedscope"
i=0
while [ "$i" -lt "$runs" ]; do
	for kind in $ratio_kinds; do
		rm -f "$tmp/out.$kind"
		timed "r_$kind" "$cg" -q --"$kind" "$tmp/out.$kind" "$trace"
		rm -f "$tmp/out.$kind"
	done
	i=$((i + 1))
done
for kind in $ratio_kinds; do
	printf '%-14s %8s %8s\n' "$kind" "$(best "r_$kind" 1)" "$(best "r_$kind" 2)"
done
jw=$(best r_json 1) ju=$(best r_json 2)
for kind in html folded pprof; do
	ratio=$(awk -v a="$(best "r_$kind" 1)" -v b="$jw" 'BEGIN { printf "%.2f", a / b }')
	echo "$(verdict "$ratio" 2 le) context output: --$kind takes ${ratio}x --json's wall time (best of $runs; target <= 2)" >>"$checks"
done
for kind in speedscope folded; do
	u=$(best "r_$kind" 2) s=$(best "r_$kind" 3)
	gb=$(awk '{ printf "%.3f", $1 / 1e9 }' "$tmp/$kind.bytes")
	per=$(awk -v u="$u" -v j="$ju" -v g="$gb" 'BEGIN { if (g > 0) printf "%.2f", (u - j) / g; else print "-" }')
	echo "$(verdict "$per" 1 le) size-bound output: --$kind: $per s of user CPU beyond --json's per GB written ($gb GB, best of $runs; target <= 1; sys time apart: $s s)" >>"$checks"
done
grep -q 'MISSED memory' "$checks" || echo "ok     memory: every output under 256 MB of peak RSS" >>"$checks"

# Memory follows methods, edges, contexts and stack depth, never records:
# the same number of records on one thread, where a thread's share of the
# calls is all of them.  Every output but speedscope (its 3 GB are written
# above) and the dump (a line a record).
rm -f "$trace"
echo
echo "one thread (progtrace $records 1 30000 60; one run each): peak RSS"
printf '%-14s %8s %8s\n' output "wall s" "RSS MB"
if "$bin/progtrace" "$trace" "$records" 1 30000 60 >"$tmp/gen" 2>&1; then
	sync "$trace" 2>/dev/null || sync
	cat "$trace" >/dev/null
	for kind in json text html folded pprof chrome callgrind; do
		out=$tmp/one.$kind
		rm -f "$out" "$tmp/one_$kind"
		case $kind in
		text) timed "one_$kind" "$cg" -q "$trace" ;;
		chrome) timed "one_$kind" "$cg" -q --chrome-trace "$out" "$trace" ;;
		*) timed "one_$kind" "$cg" -q --"$kind" "$out" "$trace" ;;
		esac
		rm -f "$out"
		read -r w u s m rc <"$tmp/one_$kind"
		printf '%-14s %8s %8.1f\n' "$kind" "$w" "$(awk -v k="$m" 'BEGIN { print k / 1024 }')"
		[ "$rc" = 0 ] || echo "MISSED $kind (one thread): callgraph exited with $rc: $(tail -n 1 "$tmp/stderr")" >>"$checks"
		awk -v k="$m" 'BEGIN { exit !(k / 1024 < 256) }' ||
			echo "MISSED memory (one thread): $kind peaks at $(awk -v k="$m" 'BEGIN { printf "%.1f", k / 1024 }') MB (target < 256)" >>"$checks"
	done
	grep -q 'MISSED memory (one thread)' "$checks" ||
		echo "ok     memory (one thread): every output but speedscope and the dump under 256 MB of peak RSS" >>"$checks"
else
	echo "progtrace failed: $(tail -n 1 "$tmp/gen")"
fi
rm -f "$trace"

# The thread sweep: smaller traces, one run each, in turns.
echo
echo "threads (progtrace $sweep records, 30000 methods, depth 60; one run each)"
printf '%-8s %12s %12s %7s\n' threads "minrep M/cs" "cg -j1 M/cs" ratio
for th in 1 4 16 64; do
	"$bin/progtrace" "$tmp/sweep.trace" "$sweep" "$th" 30000 60 >"$tmp/gen" 2>&1 || continue
	n=$(awk '{ print $1; exit }' "$tmp/gen")
	cat "$tmp/sweep.trace" >/dev/null
	rm -f "$tmp/sm" "$tmp/sc"
	timed sm "$bin/minrep" "$tmp/sweep.trace"
	timed sc "$cg" -q -j 1 --json "$tmp/s.json" "$tmp/sweep.trace"
	a=$(rate "$n" "$(best sm cpu)") b=$(rate "$n" "$(best sc cpu)")
	printf '%-8s %12s %12s %7s\n' "$th" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", b / a; else print "-" }')"
done
rm -f "$tmp/sweep.trace"

echo
echo "checks (limits):"
cat "$checks"
exit 0
