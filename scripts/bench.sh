#!/bin/sh
# bench.sh BUILD_DIR - the performance figures of spec "Performance" (make bench).
#
# Generates the synthetic traces described in tests/bench/*.desc with
# BUILD_DIR/tracegen into a private temporary directory (removed at the end),
# then for each one, from a warm page cache, takes the median of BENCH_RUNS
# runs (default 3) of
#   callgraph -q --json OUT TRACE   the read+model pass (plus a JSON file)
#   callgraph -g OUT.svg TRACE      the default call graph
# and prints records per second, wall and CPU time and peak resident memory.
# The corpus traces in ../shared/corpus (or BENCH_CORPUS), when present, get
# the -g OUT.svg timing too.  BENCH_QUICK=1 skips the 1 GiB traces (regular,
# streaming and V2 layout B).
#
# Numbers never fail the run: the checks at the end say ok or MISSED.
# Exit status: 0, or 2 on a usage error or missing build.
set -u

build=${1:-}
if [ -z "$build" ] || [ ! -x "$build/callgraph" ] || [ ! -x "$build/tracegen" ]; then
	echo "usage: bench.sh BUILD_DIR (with BUILD_DIR/callgraph and BUILD_DIR/tracegen built)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cg=$(cd "$build" && pwd)/callgraph
gen=$(cd "$build" && pwd)/tracegen
descs=$root/tests/bench
runs=${BENCH_RUNS:-3}
quick=${BENCH_QUICK:-0}
corpus=${BENCH_CORPUS:-$root/../shared/corpus}
export LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgbench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# A signal (also SIGPIPE from `make bench | head`) exits through the EXIT trap.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# GNU time gives peak RSS; install it when we may and it is missing.
timebin=/usr/bin/time
if [ ! -x "$timebin" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "bench: installing GNU time (apt-get install -y time)" >&2
	apt-get install -y -qq time >/dev/null 2>&1 || true
fi
if [ ! -x "$timebin" ] || ! "$timebin" -f '%M' -o "$tmp/probe" true 2>/dev/null; then
	timebin=
fi

# Wall clock in nanoseconds; GNU date has %N, else whole seconds only.
case $(date +%N) in
*[!0-9]*) ns() { echo "$(date +%s)000000000"; } ;;
*) ns() { date +%s%N; } ;;
esac

# run_once OUTFILE CMD...: runs CMD, appends "wall_s cpu_s rss_kb rc" to OUTFILE.
run_once() {
	out=$1
	shift
	t0=$(ns)
	if [ -n "$timebin" ]; then
		"$timebin" -f '%U %S %M' -o "$tmp/time.out" "$@" >/dev/null 2>"$tmp/stderr"
		rc=$?
	else
		"$@" >/dev/null 2>"$tmp/stderr"
		rc=$?
	fi
	t1=$(ns)
	if [ -n "$timebin" ]; then
		# The last line: GNU time puts "Command exited with ..." before it.
		tail -n 1 "$tmp/time.out" >"$tmp/time.last"
		read -r utime stime rss <"$tmp/time.last"
		cpu=$(awk -v u="$utime" -v s="$stime" 'BEGIN { printf "%.2f", u + s }')
	else
		cpu=-
		rss=-
	fi
	awk -v a="$t0" -v b="$t1" -v c="$cpu" -v m="$rss" -v r="$rc" \
		'BEGIN { printf "%.4f %s %s %s\n", (b - a) / 1e9, c, m, r }' >>"$out"
}

# median FILE COLUMN: median of a numeric column ("-" when not numeric).
median() {
	sort -n -k "$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
		x = v[int((NR + 1) / 2)]; print (x ~ /^[0-9.]+$/) ? x : "-" }'
}

# measure CMD...: BENCH_RUNS runs; sets the medians m_wall m_cpu m_rss (MB), and
# m_rc, the last non-zero exit status (0 when every run succeeded).
measure() {
	: >"$tmp/runs"
	i=0
	while [ "$i" -lt "$runs" ]; do
		run_once "$tmp/runs" "$@"
		i=$((i + 1))
	done
	m_wall=$(median "$tmp/runs" 1)
	m_cpu=$(median "$tmp/runs" 2)
	m_rss=$(median "$tmp/runs" 3)
	[ "$m_rss" = - ] || m_rss=$(awk -v k="$m_rss" 'BEGIN { printf "%.1f", k / 1024 }')
	m_rc=$(awk '$4 != 0 { rc = $4 } END { print rc + 0 }' "$tmp/runs")
}

checks=$tmp/checks
: >"$checks"
svg_n=0
note() { echo "$*" >>"$checks"; }

# verdict WALL_FIGURE CPU_FIGURE TARGET ge|lt: "ok    " when the wall-clock
# figure meets the target, "BUSY  " when only the cpu-time one does (other
# processes took the core: rerun on an idle machine), else "MISSED".
verdict() {
	awk -v w="$1" -v c="$2" -v t="$3" -v op="$4" 'function meets(x) {
		if (x !~ /^[0-9.]+$/) return 0
		return op == "ge" ? x + 0 >= t + 0 : x + 0 < t + 0
	} BEGIN { print meets(w) ? "ok    " : meets(c) ? "BUSY  " : "MISSED" }'
}

model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
echo "callgraph bench: $(nproc) cores${model:+ ($model)}, load average$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null | sed 's/^/ /')"
echo "each figure is the median of $runs runs from a warm page cache; one process, one core"
awk -v n="$(nproc)" '{ if ($1 > n / 2) print "note: the machine is busy (1-minute load " $1 "): wall times are noisy; cpu s and Mrec/cs less so" }' \
	/proc/loadavg 2>/dev/null
[ -n "$timebin" ] || echo "peak memory unavailable: GNU time (/usr/bin/time) is not installed"
echo
echo "json s = wall time of the read+model pass, callgraph -q --json OUT TRACE (OUT is small)"
echo "Mrec/s = records / json s; cpu s = user+sys; Mrec/cs = records / cpu s"
echo "svg s = wall time of callgraph -g OUT.svg TRACE with default options; MB = peak RSS"
printf '%-16s %7s %10s %7s %7s %6s %8s %7s %7s %7s\n' \
	trace MiB records "json s" Mrec/s "cpu s" "Mrec/cs" "RSS MB" "svg s" "svg MB"

for name in regular-10m regular-100m regular-1g streaming-1g v2-1g threads-1000 recursion-deep methods-50k; do
	desc=$descs/$name.desc
	case $name in *-1g)
		if [ "$quick" = 1 ]; then
			printf '%-16s %s\n' "$name" "skipped (BENCH_QUICK=1)"
			continue
		fi ;;
	esac
	trace=$tmp/$name.trace
	if ! "$gen" -o "$trace" "$desc" 2>"$tmp/stderr"; then
		printf '%-16s %s\n' "$name" "tracegen failed: $(head -n 1 "$tmp/stderr")"
		note "MISSED $name: tracegen failed"
		continue
	fi
	mib=$(awk -v b="$(wc -c <"$trace")" 'BEGIN { printf "%.1f", b / 1048576 }')
	# Write-back of the fresh file would otherwise run during the timed runs.
	sync "$trace" 2>/dev/null || sync
	cat "$trace" >/dev/null

	rm -f "$tmp/out.json"
	measure "$cg" -q --json "$tmp/out.json" "$trace"
	j_wall=$m_wall j_cpu=$m_cpu j_rss=$m_rss j_rc=$m_rc
	recs=$(grep -o '"records": *[0-9]*' "$tmp/out.json" 2>/dev/null | head -n 1 | tr -dc 0-9)
	if [ "$j_rc" != 0 ] || [ -z "$recs" ]; then
		printf '%-16s %7s %s\n' "$name" "$mib" "callgraph --json failed: $(tail -n 1 "$tmp/stderr")"
		note "MISSED $name: callgraph --json failed"
		rm -f "$trace"
		continue
	fi
	rate=$(awk -v n="$recs" -v s="$j_wall" 'BEGIN { printf "%.1f", (s > 0 ? n / s / 1e6 : 0) }')

	rm -f "$tmp/out.svg"
	measure "$cg" -g "$tmp/out.svg" "$trace"
	if [ "$m_rc" = 0 ]; then
		s_wall=$(awk -v s="$m_wall" 'BEGIN { printf "%.3f", s }') s_rss=$m_rss s_cpu=$m_cpu
		svg_n=$((svg_n + 1))
	else
		s_wall=failed s_rss=-
		note "MISSED $name: -g out.svg failed: $(tail -n 1 "$tmp/stderr")"
	fi
	crate=$(awk -v n="$recs" -v s="$j_cpu" 'BEGIN { print (s > 0 ? sprintf("%.1f", n / s / 1e6) : "-") }')
	printf '%-16s %7s %10s %7.3f %7s %6s %8s %8s %7s %7s\n' "$name" "$mib" "$recs" \
		"$j_wall" "$rate" "$j_cpu" "$crate" "$j_rss" "$s_wall" "$s_rss"

	case $name in
	regular-1g) target=50 ;;
	streaming-1g) target=30 ;;
	*) target= ;;
	esac
	if [ -n "$target" ]; then
		v=$(verdict "$rate" "$crate" "$target" ge)
		note "$v $name read+model: $rate M records/s (target >= $target; $crate per cpu second)"
	fi
	for pair in "read+model:$j_rss" "svg:$s_rss"; do
		r=${pair#*:}
		[ "$r" = - ] && continue
		awk -v r="$r" 'BEGIN { exit !(r >= 64) }' &&
			note "MISSED $name ${pair%%:*}: peak RSS $r MB (target < 64)"
	done
	if [ "$s_wall" != failed ]; then
		v=$(verdict "$s_wall" "$s_cpu" 1 lt)
		[ "$v" = "ok    " ] || note "$v $name -g out.svg: $s_wall s, $s_cpu cpu s (target < 1)"
	fi
	rm -f "$trace"
done

if [ -d "$corpus" ]; then
	corpus=$(cd "$corpus" && pwd)
	echo
	echo "corpus ($corpus): callgraph -g OUT.svg TRACE"
	printf '%-52s %8s %5s %8s %8s\n' trace KiB exit "svg s" "RSS MB"
	for f in "$corpus"/*.trace "$corpus"/*.trace.gz; do
		[ -f "$f" ] || continue
		kib=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.0f", b / 1024 }')
		cat "$f" >/dev/null
		rm -f "$tmp/out.svg"
		measure "$cg" -g "$tmp/out.svg" "$f"
		printf '%-52s %8s %5s %8.3f %8s\n' "$(basename "$f")" "$kib" "$m_rc" "$m_wall" "$m_rss"
		svg_n=$((svg_n + 1))
		v=$(verdict "$m_wall" "$m_cpu" 1 lt)
		[ "$v" = "ok    " ] ||
			note "$v corpus $(basename "$f") -g out.svg: $m_wall s, $m_cpu cpu s (target < 1)"
		if [ "$m_rc" != 0 ]; then
			echo "    $(tail -n 1 "$tmp/stderr")"
		fi
	done
fi

echo
echo "checks (spec \"Performance\"):"
if [ "$quick" = 1 ]; then
	echo "skip   1 GiB records/s targets and the 1 GiB -g out.svg (BENCH_QUICK=1)"
fi
if [ -z "$timebin" ]; then
	echo "skip   peak RSS (GNU time unavailable)"
elif ! grep -q '^MISSED.*RSS' "$checks"; then
	echo "ok     peak RSS < 64 MB on every synthetic trace"
fi
if [ "$svg_n" -gt 0 ] && ! grep -q 'out.svg' "$checks"; then
	echo "ok     -g out.svg < 1 s on every trace measured ($svg_n)"
fi
cat "$checks"
if grep -q '^BUSY' "$checks"; then
	echo "BUSY: the wall-clock figure missed but the cpu-time one meets the target;"
	echo "      other processes shared the cores (see the load average above)"
fi
exit 0
