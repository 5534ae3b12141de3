#!/bin/sh
# Mutation pass: break each documented behaviour of mutations.txt, one at a
# time, in a scratch copy of the tree, and check that the test suite fails.
#   tests/mutation/run.sh [ID...]        (from the top of the tree)
# The copy (files git knows, as they are now, in a temporary directory; the
# browser test's node_modules linked) is built once; each mutation is then
# applied with sed, rebuilt, and tests/run.sh runs with CG_FAIL_FAST=1 (it
# stops at the first failing part).  ../shared is not beside the copy, so the
# shared-corpus checks do not help catch anything.  Prints one table row per
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
build() { make -s -j2 all build/unit_tests build/fuzz_replay >"$scratch/build.log" 2>&1; }
if ! build || ! CG_FAIL_FAST=1 sh tests/run.sh build >"$scratch/base.log" 2>&1; then
	echo "mutation: the unmutated copy does not pass; see below"
	tail -20 "$scratch/build.log" "$scratch/base.log"
	exit 1
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
	elif CG_FAIL_FAST=1 sh tests/run.sh build >"$scratch/run.log" 2>&1; then
		result=SURVIVED by=-
		survived=$((survived + 1))
	else
		result=caught
		by=$(grep -m1 -E '^(FAIL|SIGNAL)' "$scratch/run.log" | cut -c1-60)
		caught=$((caught + 1))
	fi
	echo "$id | $result | $by | $doc"
	cp "$scratch/orig" "$file"
	touch "$file"
done <"$LIST"
build
echo "mutation: $caught caught, $survived survived, $invalid invalid"
[ "$survived" -eq 0 ] && [ "$invalid" -eq 0 ]
