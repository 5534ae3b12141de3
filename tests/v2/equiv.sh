#!/bin/sh
# The V2 reader against the v1-v3 reader: every tracegen description of the
# golden, example and bad-input tests that V2 packets can express is written
# both ways (tracegen, and tracegen --v2 GEN [--v2-streaming] for each block
# layout), and the JSON profiles must be equal byte for byte apart from the
# "trace" line that describes the file (name, layout, version, record size).
# Layout C reads wall time only, so its reference is the description with
# "clock dual" made "clock wall".  Dual-clock descriptions are compared on
# both clocks (--clock wall and --clock cpu).
#   tests/v2/equiv.sh        (BUILD, TOP and CG in the environment)
set -u
: "${BUILD:?}" "${TOP:?}" "${CG:?}"
TG="$BUILD/tracegen"
W=$(mktemp -d "${TMPDIR:-/tmp}/cgv2eq.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
pass=0 fail=0 skipped=0 compared_descs=0

json() { # TRACE CLOCK -> stdout: the JSON without its "trace" line, or ERROR
	if $CG -q --clock "$2" --json "$W/out.json" "$1" 2>"$W/err"; then
		sed '2d' "$W/out.json"
	else
		echo "ERROR $(cat "$W/err")"
	fi
}

for desc in "$TOP"/tests/golden/*/desc "$TOP"/tests/golden/*/desc2 \
	    "$TOP"/tests/gen/examples/*.desc "$TOP"/tests/bad/*.desc; do
	[ -f "$desc" ] || continue
	grep -q '^layout v2' "$desc" && continue   # already V2: no v1-v3 reference
	name=${desc#"$TOP"/tests/}
	used=0
	for gen in a b-us b-ns c; do
		ref="$desc"
		if [ $gen = c ]; then
			sed 's/^clock dual/clock wall/' "$desc" >"$W/wall.desc"
			ref="$W/wall.desc"
		fi
		rm -f "$W"/ref.trace*
		"$TG" -o "$W/ref.trace" "$ref" 2>/dev/null || continue
		for st in "" --v2-streaming; do
			"$TG" --v2 $gen $st -o "$W/v2.trace" "$desc" 2>"$W/why"
			rc=$?
			if [ $rc = 3 ]; then
				skipped=$((skipped + 1))
				continue
			elif [ $rc != 0 ]; then
				fail=$((fail + 1)); echo "FAIL v2-equiv $name $gen$st: tracegen exit $rc: $(cat "$W/why")"
				continue
			fi
			used=1
			clocks=wall
			grep -q '^clock dual' "$ref" && clocks="wall cpu"
			grep -q '^clock' "$ref" || clocks="wall cpu"
			for clock in $clocks; do
				json "$W/ref.trace" $clock >"$W/ref.json"
				json "$W/v2.trace" $clock >"$W/v2.json"
				if grep -q '^ERROR' "$W/ref.json"; then
					skipped=$((skipped + 1))
				elif cmp -s "$W/ref.json" "$W/v2.json"; then
					pass=$((pass + 1))
				else
					fail=$((fail + 1))
					echo "FAIL v2-equiv $name $gen$st --clock $clock"
					diff "$W/ref.json" "$W/v2.json" | head -6
				fi
			done
		done
	done
	[ $used = 1 ] && compared_descs=$((compared_descs + 1))
done
echo "v2-equiv: $compared_descs descriptions written as V2; $skipped (description, layout) pairs V2 cannot express"
echo "v2-equiv: $pass passed, $fail failed"
[ $fail -eq 0 ]
