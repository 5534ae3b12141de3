#!/bin/sh
# Layout B's time unit comes from the summary, whatever the header's start
# time (the device's uptime at the start): a µs start of 11.6 days or more
# is as large as a ns start of 16.7 minutes or more, so its size cannot tell
# them apart.  For each unit and each uptime, one streaming dual-clock file
# whose one call runs 2500 µs of wall time and 1000 µs of thread-CPU time
# (entered at wall 100 / cpu 50, left at 2600 / 1050; tracegen gives ns
# times a sub-µs part, which the reader rounds away) is read from the file,
# from a pipe and from a gzip stream on a pipe; each read must give the
# start time (dump header: start-us = days * 86 400 000 000) and both totals.
#   tests/v2/units.sh        (BUILD and CG in the environment)
set -u
: "${BUILD:?}" "${CG:?}"
TG="$BUILD/tracegen"
W=$(mktemp -d "${TMPDIR:-/tmp}/cgv2units.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
pass=0 fail=0

check() { # NAME WHAT GOT WANT
	if [ "$3" = "$4" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL v2-units $1: $2: got '$3', want '$4'"
	fi
}

# uptime in days, the start in µs (days * 86 400 000 000, by hand)
for case in 1:86400000000 11.5:993600000000 11.7:1010880000000 \
	    400:34560000000000 0.01:864000000; do
	days=${case%%:*}
	start_us=${case#*:}
	for unit in us ns; do
		start=$start_us
		[ $unit = ns ] && start=${start_us}000
		cat >"$W/desc" <<DESC
layout v2 streaming
v2-gen b-$unit
clock dual
start $start
thread 1 main
method 0x10 a.B c ()V B.java
enter 1 0x10 100 50
exit 1 0x10 2600 1050
DESC
		if ! "$TG" -o "$W/t.trace" "$W/desc" 2>"$W/err"; then
			fail=$((fail + 1)); echo "FAIL v2-units $days-$unit: tracegen: $(cat "$W/err")"
			continue
		fi
		gzip -c "$W/t.trace" >"$W/t.trace.gz"
		for how in file pipe gzip-pipe; do
			name="$days days, $unit, $how"
			case $how in
			file) $CG -q -o "$W/t.trace" >"$W/dump" 2>"$W/err"
			      $CG -q --json - "$W/t.trace" >"$W/json" 2>>"$W/err" ;;
			pipe) cat "$W/t.trace" | $CG -q -o - >"$W/dump" 2>"$W/err"
			      cat "$W/t.trace" | $CG -q --json - - >"$W/json" 2>>"$W/err" ;;
			gzip-pipe) cat "$W/t.trace.gz" | $CG -q -o - >"$W/dump" 2>"$W/err"
			      cat "$W/t.trace.gz" | $CG -q --json - - >"$W/json" 2>>"$W/err" ;;
			esac
			check "$name" stderr "$(cat "$W/err")" ""
			check "$name" start "$(sed -n 's/^# clock dual start-us \([0-9]*\).*/\1/p' "$W/dump")" "$start_us"
			check "$name" totals "$(grep -o '"cpu_total_us": [0-9]*, "wall_total_us": [0-9]*' "$W/json")" \
				'"cpu_total_us": 1000, "wall_total_us": 2500'
		done
	done
done
# A pipe needs the temporary copy: where none can be made, one line, exit 1
# (not under valgrind, which wants $TMPDIR too).
case $CG in
valgrind*) ;;
*)	cat "$W/t.trace" | TMPDIR=/nonexistent/dir $CG -q - >/dev/null 2>"$W/err"
	check "no temporary directory" exit "$?" 1
	check "no temporary directory" stderr "$(cat "$W/err")" \
		"callgraph: -: cannot create a temporary copy of the input: No such file or directory" ;;
esac
echo "v2-units: $pass passed, $fail failed"
[ $fail -eq 0 ]
