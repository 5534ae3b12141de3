#!/bin/sh
# Mutation pass: break each documented behaviour of mutations.txt, one at a
# time, in a scratch copy of the tree, and check that the test suite fails.
#   tests/mutation/run.sh [ID...]        (from the top of the tree)
# The copy (files git knows, as they are now, in a temporary directory; the
# browser test's node_modules linked) is built once; each mutation is then
# applied with sed, rebuilt, and tests/run.sh runs with CG_FAIL_FAST=1 (it
# stops at the first failing part) and CG_SANITIZER=1 (time limits of the
# bad-input checks relaxed: they speak of an idle machine).  A mutation is
# caught by a FAIL or SIGNAL line that the unmutated copy does not print
# (digits aside): a check that fails without any mutation, such as a load
# time on a busy machine, catches nothing.  ../shared is not beside the copy,
# so the shared-corpus checks do not help catch anything; the browser part is
# skipped unless CG_SKIP_PARTS is set (empty runs every part).  Prints one table row per
# mutation, "ID | RESULT | caught by | behaviour", where RESULT is caught,
# SURVIVED, not-applied (the sed expression matched nothing) or build-failed,
# and closes with "mutation: N caught, N survived, N invalid".  Exit 1 when a
# mutation survived or did not apply.  Takes a few minutes per surviving
# mutation (the whole suite runs); about 30 s per caught one.
set -u
TOP=$(pwd)
LIST=$TOP/tests/mutation/mutations.txt
[ -f "$LIST" ] || { echo "run from the top of the tree" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mut-callgraph.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
copy=$scratch/repo
mkdir -p "$copy"
git ls-files -z | (cd "$TOP" && xargs -0 tar -cf - --) | tar -xf - -C "$copy"
[ -d "$TOP/tests/browser/node_modules" ] && ln -s "$TOP/tests/browser/node_modules" "$copy/tests/browser/node_modules"
cd "$copy" || exit 1
build() { make -s -j2 all build/unit_tests build/fuzz_replay build/mwu_check >"$scratch/build.log" 2>&1; }
export CG_SANITIZER=1
# The browser part takes minutes on a busy machine; CG_SKIP_PARTS= runs it.
export CG_SKIP_PARTS="${CG_SKIP_PARTS-browser}"
# failures LOG: its FAIL and SIGNAL lines with digits removed, sorted.
failures() { grep -E '^(FAIL|SIGNAL)' "$1" | tr -d '0-9' | sort -u; }
if ! build; then
	echo "mutation: the unmutated copy does not build"
	tail -n 20 "$scratch/build.log"
	exit 1
fi
sh tests/run.sh build >"$scratch/base.log" 2>&1
failures "$scratch/base.log" >"$scratch/base.fail"
export CG_KNOWN_FAILURES="$scratch/base.fail"
if [ -s "$scratch/base.fail" ]; then
	echo "mutation: the unmutated copy fails these checks, which therefore catch nothing:"
	sed 's/^/  /' "$scratch/base.fail"
fi
caught=0 survived=0 invalid=0
tab=$(printf '\t')
while IFS=$tab read -r id file expr doc; do
	case $id in ''|\#*) continue ;; esac
	if [ $# -gt 0 ]; then
		want=0
		for a in "$@"; do [ "$a" = "$id" ] && want=1; done
		[ $want = 1 ] || continue
	fi
	cp "$file" "$scratch/orig"
	sed -e "$expr" "$scratch/orig" >"$file"
	if cmp -s "$file" "$scratch/orig"; then
		result=not-applied by=-
		invalid=$((invalid + 1))
	elif ! build; then
		result=build-failed by=-
		invalid=$((invalid + 1))
	else
		CG_FAIL_FAST=1 sh tests/run.sh build >"$scratch/run.log" 2>&1
		failures "$scratch/run.log" | comm -23 - "$scratch/base.fail" >"$scratch/new.fail"
		if [ -s "$scratch/new.fail" ]; then
			result=caught
			by=$(head -n 1 "$scratch/new.fail" | cut -c1-70)
			caught=$((caught + 1))
		else
			result=SURVIVED by=-
			survived=$((survived + 1))
		fi
	fi
	echo "$id | $result | $by | $doc"
	cp "$scratch/orig" "$file"
	touch "$file"
done <"$LIST"
build
echo "mutation: $caught caught, $survived survived, $invalid invalid"
[ "$survived" -eq 0 ] && [ "$invalid" -eq 0 ]
