#!/bin/sh
# Windows (--range) and frames (--frames), against readings made apart from
# callgraph's model:
# - frames: the count of outermost Choreographer.doFrame activations and
#   their wall durations, from the record dump (count_frames.py), on the
#   samples (and the research corpus when ../shared is beside the clone);
# - windows: every method, edge and thread on both clocks of windows cut
#   through generated programs and tests/gen/windows/edges.desc, against
#   tests/gen/window_check.py, which cuts the whole trace's activations;
# - a window that holds the whole trace writes every output byte for byte
#   as no window; --range frame:N is the window of frame N;
# - bad windows: one line and exit status 2;
# - the call log past its budget: the page's count of calls, against the
#   count worked out by hand for tests/browser/big.desc, and a name for
#   every method the flame graph shows.
#   tests/windows/run.sh BUILD_DIR
set -u
BUILD=${1:?usage: tests/windows/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
CG=${CG:-$BUILD/callgraph}
SHARED=${CG_SHARED:-$top/../shared}
work=$(mktemp -d "${TMPDIR:-/tmp}/cgwin.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL windows $*"; }

# --- frames: count and durations from the dump ---------------------------------
frames() { # frames TRACE EXPECTED-COUNT
	n=$($CG -q -o "$1" | python3 "$here/count_frames.py")
	$CG -q --json "$work/f.json" "$1" || { ko "$1: --json failed"; return; }
	got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("frames", {}).get("count", 0))' "$work/f.json")
	[ "$n" = "$2" ] && [ "$got" = "$2" ] && ok || ko "$1: $got frames, dump $n, expected $2"
	$CG -q -o "$1" | python3 "$here/count_frames.py" --walls | sort -n >"$work/d.walls"
	python3 -c 'import json,sys; print("\n".join(str(f["wall_us"]) for f in json.load(open(sys.argv[1]))["frames"]["list"]))' \
		"$work/f.json" | sort -n >"$work/j.walls"
	cmp -s "$work/d.walls" "$work/j.walls" && ok || ko "$1: frame durations differ from the dump's"
}
frames "$top/samples/streaming.trace" 252
frames "$top/samples/art-regular.trace.gz" 25
frames "$top/samples/art-streaming.trace.gz" 21
frames "$top/samples/legacy.trace" 2
if [ -d "$SHARED/corpus" ]; then
	frames "$SHARED/corpus/ProfilerTester_cpu-art-new.trace" 4
	frames "$SHARED/corpus/BurrOakApp_dmtrace.trace" 1
fi

# The text section: percentiles by nearest rank over the dump's durations.
$CG -q --frames "$top/samples/streaming.trace" >"$work/f.txt" 2>&1
$CG -q -o "$top/samples/streaming.trace" | python3 "$here/count_frames.py" --walls >"$work/s.walls"
python3 - "$work/s.walls" "$work/f.txt" <<'PY' && ok || ko "--frames: wall percentiles"
import math, sys
w = sorted(int(x) for x in open(sys.argv[1]))
line = next(l for l in open(sys.argv[2]) if l.strip().startswith("wall ") and "." in l)
want = ["%d.%03d" % divmod(w[max(1, math.ceil(q * len(w) / 100)) - 1], 1000) for q in (50, 90, 99, 100)]
sys.exit(0 if line.split()[1:] == want else 1)
PY
grep -q '^Slowest frames' "$work/f.txt" && grep -q 'nSyncAndDrawFrame' "$work/f.txt" && ok || ko "--frames: slowest frames section"

# --- windows against the independent cut ------------------------------------
"$BUILD/tracegen" -o "$work/e.trace" "$top/tests/gen/windows/edges.desc" || ko "tracegen edges.desc"
for win in : 0: 0.5: 0.55:2.65 1.2:1.45 0.25:0.3 2:3.5 3.05:4.2 3.6: :1 1.65:1.65 4.1:4.1 0.3:2.7; do
	if $CG -q --range "$win" --json "$work/w.json" "$work/e.trace" &&
	   python3 "$top/tests/gen/window_check.py" "$work/e.trace" "$work/w.json" "$win" "edges $win" >"$work/c.out"; then
		ok
	else
		ko "edges.desc --range $win"; grep FAIL "$work/c.out" | head -5
	fi
done
for d in "$top"/tests/gen/programs/*.desc; do
	b=$(basename "$d" .desc)
	"$BUILD/tracegen" -o "$work/p.trace" "$d" || { ko "tracegen $b"; continue; }
	for win in 10:50 33.3: :77.777 100:100.5 250:900; do
		if $CG -q --range "$win" --json "$work/w.json" "$work/p.trace" &&
		   python3 "$top/tests/gen/window_check.py" "$work/p.trace" "$work/w.json" "$win" "$b $win" >"$work/c.out"; then
			ok
		else
			ko "$b --range $win"; grep FAIL "$work/c.out" | head -5
		fi
	done
done

# --- the whole trace as a window: the same bytes ------------------------------
for out in text "--json -" -h "--folded -" "--pprof -" "--speedscope -" "--chrome-trace -" "--callgrind -" -o "-T dot -g -"; do
	[ "$out" = text ] && out=""
	# shellcheck disable=SC2086
	$CG -q $out "$work/e.trace" >"$work/a" 2>&1
	for win in : 0: :5 0:99999; do
		# shellcheck disable=SC2086
		$CG -q --range "$win" $out "$work/e.trace" >"$work/b" 2>&1
		cmp -s "$work/a" "$work/b" && ok || ko "--range $win ${out:-text}: not the whole trace's bytes"
	done
done

# --- frame:N is frame N's window ----------------------------------------------
S=$top/samples/streaming.trace
$CG -q --json "$work/f.json" "$S"
for k in 1 4 223 252; do
	win=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]), parse_float=str)["frames"]["list"][int(sys.argv[2])-1]
s=f["start_ms"]; us=int(s.replace(".","")); e=us+f["wall_us"]; print("%s:%d.%03d" % (s, e // 1000, e % 1000))' "$work/f.json" $k)
	$CG -q --range "frame:$k" --json - "$S" | sed 's/, "frame": [0-9]*//' >"$work/a"
	$CG -q --range "$win" --json - "$S" >"$work/b"
	cmp -s "$work/a" "$work/b" && ok || ko "--range frame:$k is not --range $win"
done
# Frame 223's thread spans exactly the frame.
$CG -q --range frame:223 --json "$work/w.json" "$S"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=json.load(open(sys.argv[2]))["frames"]["list"][222]
t=[t for t in d["threads"] if t["tid"]==f["tid"]][0]; sys.exit(0 if t["wall_inclusive_us"]==f["wall_us"] and d["trace"]["range"]["frame"]==223 else 1)' \
	"$work/w.json" "$work/f.json" && ok || ko "frame:223: its thread's wall time is not the frame's"

# --- bad windows -----------------------------------------------------------------
bad() { # bad WANT-STDERR ARGS...
	want=$1
	shift
	$CG "$@" >"$work/o" 2>"$work/e" </dev/null
	rc=$?
	if [ $rc -eq 2 ] && [ "$(cat "$work/e")" = "$want" ] && [ ! -s "$work/o" ]; then
		ok
	else
		ko "$*: exit $rc, stderr: $(cat "$work/e")"
	fi
}
form="FROM:TO in ms (FROM <= TO, at most 3 decimals; FROM: or :TO open), or frame:N with N >= 1"
bad "callgraph: --range wants $form, not '5:3'" --range 5:3 "$work/e.trace"
bad "callgraph: --range wants $form, not 'abc'" --range abc "$work/e.trace"
bad "callgraph: --range wants $form, not 'frame:0'" --range frame:0 "$work/e.trace"
bad "callgraph: --range wants $form, not '1.2345:2'" --range 1.2345:2 "$work/e.trace"
bad "callgraph: --range wants $form, not '3'" --range 3 "$work/e.trace"
bad "callgraph: $S: --range frame:253: the trace has 252 frames of Choreographer.doFrame" --range frame:253 "$S"
bad "callgraph: --range frame:1 reads the trace twice: give a file, not standard input" --range frame:1 -
bad "callgraph: --frames= wants a method pattern such as 'GLThread.guardedRun'
usage: callgraph [OPTIONS] TRACE   (callgraph --help for options)" --frames= "$S"
printf 'clock thread-cpu\nthread 1 main\nmethod 0x4 a.B c ()V\ncall 1 0x4 10 20\n' | "$BUILD/tracegen" -o "$work/cpu.trace" -
$CG --range 0:1 "$work/cpu.trace" >/dev/null 2>"$work/e"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$work/e")" = "callgraph: $work/cpu.trace: --range needs a wall clock, and this trace has only thread-CPU time" ] &&
	ok || ko "thread-cpu trace: exit $rc: $(cat "$work/e")"
$CG --range frame:1 "$work/cpu.trace" >/dev/null 2>"$work/e"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$work/e")" = "callgraph: $work/cpu.trace: --range needs a wall clock, and this trace has only thread-CPU time" ] &&
	ok || ko "thread-cpu trace, frame:1: exit $rc: $(cat "$work/e")"
# A window with no record warns.
$CG --range 999999: "$work/e.trace" >/dev/null 2>"$work/e"
grep -qx "callgraph: $work/e.trace: warning: the window 999999: holds no record" "$work/e" && ok ||
	ko "empty window: $(cat "$work/e")"

# --- the page's count of calls past the call log's budget -------------------
# tests/browser/big.desc holds 2 970 060 calls (worked out in its comment),
# past the budget of 250 000: the log keeps nothing, gives way to the
# observers behind it, and the page still gives the trace's calls.  Each
# way the records come: read in place on one thread and on two (two
# replays at once), and decoded from gzip on one thread and on two (the
# observers behind a queue).
"$BUILD/tracegen" -o "$work/big.trace" "$top/tests/browser/big.desc" || ko "tracegen big.desc"
gzip -c "$work/big.trace" >"$work/big.trace.gz"
for t in big.trace big.trace.gz; do
	for j in 1 2; do
		$CG -q -j $j --html "$work/big.html" "$work/$t" 2>"$work/e" || ko "$t -j $j: $(cat "$work/e")"
		n=$(grep -o '"why":"the trace has more than 250000 calls[^{]*"calls":[0-9]*' "$work/big.html" |
			sed 's/.*"calls"://')
		[ "$n" = 2970060 ] && ok || ko "$t -j $j: the page gives ${n:-no} calls, not 2970060"
	done
done
# Every method a frame of the flame graph shows is named in the page: in
# big.trace the flame graph shows methods that no kept span of the
# timeline does.
python3 - "$work/big.html" <<'PY' && ok || ko "big.trace: flame-graph frames without a name"
import json, re, sys
for block in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', open(sys.argv[1]).read(), re.S):
    d = json.loads(block)
    if "flame" not in d:
        continue
    other = d["flame"]["other"]
    head, step = (3, 6) if other else (2, 4)
    ks = {t[i] for t in d["flame"]["threads"] for i in range(head, len(t), step)}
    missing = sorted(k for k in ks if k >= 0 and str(k) not in d["names"])
    sys.exit(1 if missing or len(ks) < 100 else 0)
sys.exit(1)
PY

echo "windows: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
