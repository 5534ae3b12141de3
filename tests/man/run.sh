#!/bin/sh
# The man page: lint clean, every option of --help documented, and every
# command in EXAMPLES runs (exit 0) on the bundled samples.
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
# EXAMPLES: lines ".Dl callgraph ..." or lines after ".nf" starting with "$ callgraph"
work=$(mktemp -d)
ln -s "$TOP/samples" "$work/samples"
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN" | grep -E '^\\?\$? ?callgraph ' | sed -e 's/^\$ //' -e 's/\\-/-/g' -e 's/\\(rs/\\/g' >"$work/.examples"
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	# Examples name the trace calc.trace; the bundled sample stands in for it.
	run=$(printf '%s' "$cmd" | sed -e "s#calc\.trace#samples/legacy.trace#g" -e "s#before\.trace#samples/basic.trace#g" -e "s#after\.trace#samples/exception.trace#g" -e "s#^callgraph#$BUILD/callgraph#" -e "s#| *head.*##")
	if (cd "$work" && eval "$run") >/dev/null 2>"$work/.err"; then ok; else ko "example failed: $cmd: $(head -2 "$work/.err")"; fi
done <"$work/.examples"
[ "$n" -gt 0 ] || ko "no examples found"
rm -rf "$work"
echo "man: $pass passed, $fail failed"
[ $fail -eq 0 ]
