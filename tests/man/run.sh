#!/bin/sh
# The man page: lint clean, every option of --help documented, and every
# command in EXAMPLES and at the end of --help runs and prints what is shown.
set -u
BUILD=${1:?}
TOP=$(pwd)
MAN="$TOP/man/callgraph.1"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL man: $*"; }

if mandoc -Tlint -Wwarning "$MAN" >/tmp/cg-mandoc.$$ 2>&1; then ok; else ko "mandoc -Tlint: $(head -3 /tmp/cg-mandoc.$$)"; fi
rm -f /tmp/cg-mandoc.$$
for opt in $("$BUILD/callgraph" --help | grep -oE '^ +(-[a-zA-Z], )?--?[a-z][a-z-]*' | grep -oE -- '--?[a-z][a-z-]*$'); do
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	if grep -q -- "$esc" "$MAN"; then ok; else ko "option $opt from --help is not in the man page"; fi
done
# EXAMPLES and the end of --help: each command runs, prints what the man page
# shows and writes the files it names (examples.py).
ex=$(mktemp "${TMPDIR:-/tmp}/cgman.XXXXXX")
python3 "$TOP/tests/man/examples.py" "$MAN" "$BUILD/callgraph" "$BUILD/tracegen" "$TOP/tests/man" >"$ex" 2>&1
grep "^FAIL" "$ex"
line=$(grep -E '^man-examples: [0-9]+ passed, [0-9]+ failed$' "$ex")
rm -f "$ex"
if [ -z "$line" ]; then
	ko "examples.py gave no result line"
else
	pass=$((pass + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
	fail=$((fail + $(echo "$line" | sed -E 's/.* ([0-9]+) failed/\1/')))
fi
# docs/json.md's example is what callgraph prints for tests/man/dual.desc.
jd=$(mktemp -d "${TMPDIR:-/tmp}/cgjson.XXXXXX")
absb=$(cd "$BUILD" && pwd)
"$absb/tracegen" -o "$jd/dual.trace" "$TOP/tests/man/dual.desc" &&
	(cd "$jd" && "$absb/callgraph" -q --json - dual.trace) >"$jd/got" 2>&1
sed -n '/^\$ callgraph -q --json - dual.trace$/,/^```$/p' "$TOP/docs/json.md" | sed '1d;$d' >"$jd/doc"
if [ -s "$jd/doc" ] && cmp -s "$jd/doc" "$jd/got"; then ok; else ko "docs/json.md example differs from callgraph --json of tests/man/dual.desc"; fi
rm -rf "$jd"
echo "man: $pass passed, $fail failed"
[ $fail -eq 0 ]
