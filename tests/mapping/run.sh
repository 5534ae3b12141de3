#!/bin/sh
# run.sh BUILD_DIR - traces of minified apps read with their mapping files.
# Each tests/golden/mapping-*/desc that names a real mapping (obfuscate,
# tests/data/mapping/SOURCES.md) is generated with tracegen, which writes the
# key under the obfuscated names; the desc's method lines give the originals.
# Every output must show each original as "pkg.Class.method"; the folded
# stacks no frame but those; and the folded stacks, callgrind and -d no
# renamed method under its obfuscated name (the golden files check text,
# JSON and graph labels exactly):
#   --folded --callgrind --speedscope --chrome-trace --pprof -h, and -d of the
#   trace against itself with --base-mapping and --mapping.
# Also: the mapping read from a pipe, the same bytes out at -j 1 and -j 2, and
# --focus given an original name.  Closes with "mapping: N passed, N failed".
set -u
build=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$build" && pwd)
CG=${CG:-$build/callgraph}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgmapping.XXXXXX")
[ -n "${CG_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT INT TERM
export LC_ALL=C

p=0 f=0
ok() { p=$((p + 1)); }
no() {
	echo "FAIL mapping $case: $*"
	f=$((f + 1))
}

for desc in "$top"/tests/golden/mapping-*/desc; do
	map=$(sed -n 's/^obfuscate //p' "$desc")
	[ -n "$map" ] || continue
	case=$(basename "$(dirname "$desc")")
	map=$(cd "$(dirname "$desc")" && cd "$(dirname "$map")" && pwd)/$(basename "$map")
	w=$tmp/$case
	mkdir "$w"
	if ! "$build/tracegen" -o "$w/t.trace" "$desc" 2>"$w/gen.err"; then
		no "tracegen: $(cat "$w/gen.err")"
		continue
	fi
	# The originals, and what the trace calls the methods the mapping renames.
	sed -n 's/^method [^ ]* \([^ ]*\) \([^ ]*\) .*/\1.\2/p' "$desc" | tr / . >"$w/want"
	"$CG" -q --mapping "$map" --json - "$w/t.trace" |
		sed -n 's/.*"obfuscated": "\([^"(]*\)(.*/\1/p' | tr / . >"$w/obfuscated"
	[ -s "$w/obfuscated" ] || no "no method was renamed"
	(
		cd "$w" &&
			"$CG" -q --mapping "$map" --folded folded --callgrind callgrind --speedscope speedscope \
				--chrome-trace chrome --pprof pprof --html report.html t.trace &&
			"$CG" -q -d t.trace --base-mapping "$map" --mapping "$map" t.trace >diff
	) 2>"$w/err" || no "callgraph failed: $(head -n 1 "$w/err")"
	gunzip -c "$w/pprof" >"$w/pprof.pb" 2>/dev/null || no "pprof is not gzip"
	for out in folded callgrind speedscope chrome pprof.pb report.html diff; do
		missing=
		while IFS= read -r name; do
			# The report's data is JSON with < and > escaped.
			[ "$out" = report.html ] && name=$(printf '%s' "$name" | sed 's/</\\u003c/g; s/>/\\u003e/g')
			grep -aqF -- "$name" "$w/$out" || missing="$missing $name"
		done <"$w/want"
		if [ -n "$missing" ]; then no "$out lacks$missing"; else ok; fi
	done
	# Whole frames: no renamed method under the name the trace gave it.
	tr ';' '\n' <"$w/folded" | sed 's/ [0-9]*$//' >"$w/frames"
	sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$w/callgrind" >>"$w/frames"
	sed -n 's/^ *[-+0-9.]* *[-+0-9.%]* .*  \([^ ]*\)$/\1/p' "$w/diff" >>"$w/frames"
	sed 's/(.*//' "$w/frames" >"$w/frames.bare"
	hit=
	while IFS= read -r name; do
		grep -qxF -- "$name" "$w/want" && continue   # kept under its own name
		grep -qxF -- "$name" "$w/frames.bare" && hit="$hit $name"
	done <"$w/obfuscated"
	if [ -n "$hit" ]; then no "obfuscated names shown:$hit"; else ok; fi
	# Every frame of the folded stacks (after the thread) is one original
	# exactly, with an overload's arguments: not two candidates, not a name
	# the desc does not give.
	odd=$(sed 's/ [0-9]*$//' "$w/folded" | tr ';' '\n' | sed 's/(.*)$//' | sort -u | grep -vxF -f "$w/want" |
		grep -vx 'main\|\[between calls\]' | tr '\n' ' ')
	if [ -z "$odd" ]; then ok; else no "folded frames that are no original: $odd"; fi
	# The HTML tooltip carries the obfuscated name.
	if grep -q 'obfuscated: ' "$w/report.html"; then ok; else no "no obfuscated name in the report"; fi
	# A mapping read from a pipe reads the same.
	"$CG" -q --mapping "$map" --json - "$w/t.trace" >"$w/json.file"
	cat "$map" | "$CG" -q --mapping /dev/stdin --json - "$w/t.trace" >"$w/json.pipe"
	if cmp -s "$w/json.file" "$w/json.pipe"; then ok; else no "--mapping from a pipe differs"; fi
	# -j 2 gives the bytes of -j 1.
	"$CG" -q -j 1 --mapping "$map" --json - "$w/t.trace" >"$w/j1"
	"$CG" -q -j 2 --mapping "$map" --json - "$w/t.trace" >"$w/j2"
	if cmp -s "$w/j1" "$w/j2"; then ok; else no "-j 2 differs from -j 1"; fi
	# --focus matches an original name: the method's own time is kept.
	first=$(head -n 1 "$w/want")
	"$CG" -q --mapping "$map" --focus "$first" --folded - "$w/t.trace" >"$w/focus"
	if grep -qF -- "$first" "$w/focus"; then ok; else no "--focus $first matched nothing"; fi
done

echo "mapping: $p passed, $f failed"
[ "$f" -eq 0 ]
