#!/bin/sh
# tests/fuzz/coverage.sh [DIR...] - line coverage of src/ reached by the fuzz
# target replaying DIR... (default tests/fuzz/corpus).
#
# Builds build-cov/fuzz_cov from src/*/*.c and src/*/*/*.c (all but src/cli/main.c), fuzz_target.c and
# replay_main.c with clang -fprofile-instr-generate -fcoverage-mapping, runs it
# over the inputs (each in a child process, one .profraw per process), merges
# the profiles with llvm-profdata and prints `llvm-cov report` per file with
# the total line coverage last.
set -eu
cd "$(dirname "$0")/../.."
out=build-cov
CC=${CC:-clang}
mkdir -p "$out"
rm -f "$out"/*.profraw
# The embedded report assets (build/assets/*.inc) come from the Makefile.
make --no-print-directory all >/dev/null
srcs=$(ls src/*/*.c src/*/*/*.c | grep -v '^src/cli/main\.c$')
pkg=$(pkg-config --cflags --libs libgvc libcgraph zlib)
# shellcheck disable=SC2086
"$CC" -std=c11 -D_GNU_SOURCE -g -O1 -fprofile-instr-generate -fcoverage-mapping \
	-Isrc -Ibuild/assets -o "$out/fuzz_cov" $srcs tests/fuzz/fuzz_target.c tests/fuzz/replay_main.c $pkg -lm -pthread
[ $# -gt 0 ] || set -- tests/fuzz/corpus
LLVM_PROFILE_FILE="$out/cov-%p.profraw" "$out/fuzz_cov" "$@" 2>/dev/null | tail -n 1
llvm-profdata merge -sparse -o "$out/cov.profdata" "$out"/*.profraw
rm -f "$out"/*.profraw
# shellcheck disable=SC2086
llvm-cov report "$out/fuzz_cov" -instr-profile="$out/cov.profdata" $srcs
