#!/bin/sh
# Golden-file tests of CLI output.  Each tests/golden/<case>/ holds:
#   args             one line: callgraph's arguments (run in an empty temp dir
#                    where samples/ and data/ link to the project's samples
#                    and tests/data)
#   desc, desc2      optional tracegen descriptions -> trace.trace, trace2.trace
#   expected.stdout, expected.stderr, expected.exit
#   expected.<file>  each file the command writes, compared byte for byte
# An HTML report (standard output or a file starting with <!DOCTYPE html) is
# compared after html_norm.py has put the name of the src/render/report/assets file in
# place of each embedded script and style: the data and structure count, the
# code's bytes do not (the code has tests of its own).
# With --update, the expected files are rewritten from the actual output:
# review the diff before committing.
set -u
UPDATE=${1:-}
: "${BUILD:?}" "${TOP:?}" "${CG:?}"
pass=0
fail=0
for dir in "$TOP"/tests/golden/*/; do
	[ -f "$dir/args" ] || continue
	name=$(basename "$dir")
	work=$(mktemp -d "${TMPDIR:-/tmp}/cggold.XXXXXX")
	ln -s "$TOP/samples" "$work/samples"
	ln -s "$TOP/tests/data" "$work/data"
	ok=1
	for d in desc desc2; do
		if [ -f "$dir/$d" ]; then
			out=trace.trace
			[ $d = desc2 ] && out=trace2.trace
			if ! "$BUILD/tracegen" -o "$work/$out" "$dir/$d" 2>"$work/.gen.err"; then
				echo "FAIL golden $name: tracegen: $(cat "$work/.gen.err")"
				ok=0
			fi
		fi
	done
	args=$(cat "$dir/args")
	(cd "$work" && eval "$CG $args") >"$work/.stdout" 2>"$work/.stderr"
	echo $? >"$work/.exit"
	for f in "$work"/.stdout "$work"/*; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		if head -c 15 "$f" | grep -qi '^<!DOCTYPE html'; then
			python3 "$TOP/tests/golden/html_norm.py" "$f" "$TOP/src/render/report/assets" >"$work/.norm" &&
				mv "$work/.norm" "$f"
		fi
	done
	if [ "$UPDATE" = --update ]; then
		cp "$work/.stdout" "$dir/expected.stdout"
		cp "$work/.stderr" "$dir/expected.stderr"
		cp "$work/.exit" "$dir/expected.exit"
		for f in "$work"/*; do
			b=$(basename "$f")
			case $b in samples|data|trace.trace|trace2.trace) continue ;; esac
			cp "$f" "$dir/expected.$b"
		done
	fi
	for kind in stdout stderr exit; do
		if ! cmp -s "$work/.$kind" "$dir/expected.$kind"; then
			echo "FAIL golden $name: $kind differs"
			diff "$dir/expected.$kind" "$work/.$kind" | head -10
			ok=0
		fi
	done
	for exp in "$dir"/expected.*; do
		b=$(basename "$exp")
		f=${b#expected.}
		case $f in stdout|stderr|exit) continue ;; esac
		if ! cmp -s "$exp" "$work/$f"; then
			echo "FAIL golden $name: $f differs or is missing"
			ok=0
		fi
	done
	for f in "$work"/*; do
		b=$(basename "$f")
		case $b in samples|data|trace.trace|trace2.trace) continue ;; esac
		[ -f "$dir/expected.$b" ] || { echo "FAIL golden $name: unexpected file $b"; ok=0; }
	done
	rm -rf "$work"
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
