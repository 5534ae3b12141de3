#!/bin/sh
# tests/fuzz/run.sh SECONDS - build the libFuzzer target with clang and fuzz.
#
# Builds build-fuzz/fuzz_target from src/*/*.c and src/*/*/*.c (all but src/cli/main.c) and
# tests/fuzz/fuzz_target.c with -fsanitize=fuzzer,address,undefined, fuzzes a
# scratch copy of tests/fuzz/corpus for SECONDS seconds (one job), then merges
# the inputs that reach new edges back into tests/fuzz/corpus.  Any crash, leak,
# timeout or out-of-memory input is copied to tests/fuzz/crashes/ (kept there
# for ever and replayed by `make test`) and the script exits 1.
# Environment: CC (default clang), FUZZ_FLAGS (extra libFuzzer flags).
set -eu

secs=${1:-60}
cd "$(dirname "$0")/../.."
out=build-fuzz
CC=${CC:-clang}
case $CC in *clang*) ;; *) CC=clang ;; esac
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz: clang not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }

mkdir -p "$out" tests/fuzz/corpus tests/fuzz/crashes
# The embedded report assets (build/assets/*.inc) come from the Makefile.
make --no-print-directory all >/dev/null
srcs=$(ls src/*/*.c src/*/*/*.c | grep -v '^src/cli/main\.c$')
pkg=$(pkg-config --cflags --libs libgvc libcgraph zlib)
echo "fuzz: building $out/fuzz_target"
# shellcheck disable=SC2086
"$CC" -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Isrc -Ibuild/assets -o "$out/fuzz_target" $srcs tests/fuzz/fuzz_target.c $pkg -lm -pthread

scratch=$out/corpus.run
art=$out/artifacts
rm -rf "$scratch" "$art"
mkdir -p "$scratch" "$art"
cp tests/fuzz/corpus/* "$scratch"/ 2>/dev/null || true

log=$out/fuzz.log
echo "fuzz: running $secs s on a copy of tests/fuzz/corpus (log: $log)"
status=0
# ASan's default 256 MB quarantine of freed blocks alone would take half of
# the 512 MB RSS limit (libFuzzer then reports an "out-of-memory" that no
# input causes); 64 MB still catches use-after-free of recent blocks.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64}
export ASAN_OPTIONS
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0}
export LSAN_OPTIONS
# shellcheck disable=SC2086
"$out/fuzz_target" -max_total_time="$secs" -max_len=65536 -timeout=5 \
	-rss_limit_mb=512 -print_final_stats=1 -artifact_prefix="$art/" \
	${FUZZ_FLAGS:-} "$scratch" >"$log" 2>&1 || status=$?

found=0
for f in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-* "$art"/slow-unit-*; do
	[ -e "$f" ] || continue
	cp "$f" tests/fuzz/crashes/
	echo "fuzz: finding saved: tests/fuzz/crashes/$(basename "$f")"
	found=1
done
# Executions and coverage (cov = edges, ft = features) for the record.
grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true

# Only inputs that reach new code (edges, not hit counts) are kept, so the
# committed corpus stays small.
echo "fuzz: merging new inputs into tests/fuzz/corpus"
"$out/fuzz_target" -merge=1 -use_counters=0 -max_len=65536 -timeout=5 -rss_limit_mb=512 \
	-artifact_prefix="$out/merge-" tests/fuzz/corpus "$scratch" >"$out/merge.log" 2>&1 || {
	echo "fuzz: merge failed, see $out/merge.log" >&2
	exit 1
}
tail -n 1 "$out/merge.log"

if [ "$found" -ne 0 ] || [ "$status" -ne 0 ]; then
	echo "fuzz: FAILED (exit $status); see $log" >&2
	exit 1
fi
echo "fuzz: no findings"
