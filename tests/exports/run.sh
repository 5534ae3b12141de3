#!/bin/sh
# run.sh BUILD_DIR - each export of real traces loaded into its real consumer
# and compared with callgraph's --json of the same reading:
#   --pprof         go tool pprof -top (flat, cum and calls per function)
#   --callgrind     callgrind_annotate (totals, inclusive, self, --tree=caller)
#   --chrome-trace  structure and per-thread times (check.py and jq),
#                   and speedscope's Chrome importer
#   --speedscope    speedscope's schema (ajv) and its UI in headless Chromium
#                   (and, read directly, its events under --focus/--hide/--thread)
# plus: the same input gives the same bytes.  Traces: the bundled
# samples/legacy.trace, art-regular.trace.gz, art-streaming.trace.gz and,
# when ../shared/corpus is beside the repository, its
# easternHong-MethodTrace_test.trace (read there, never copied).
# Installs the npm consumers from package-lock.json when missing.
# Closes with "exports: N passed, N failed".
set -u
build=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$build" && pwd)
shared=${CG_SHARED:-$top/../shared}
CG=${CG:-$build/callgraph}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgexports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# go tool pprof keeps its cache here, not in the user's home.
GOCACHE=$tmp/gocache
export GOCACHE LC_ALL=C

p=0 f=0
ok() { p=$((p + 1)); }
bad() { f=$((f + 1)); echo "FAIL exports $*"; }
# part OUTPUT: add a check.py / node result line to the counts.
count() {
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	grep '^FAIL' "$1" | head -20
	if [ -z "$line" ]; then
		bad "$1: no result line"; tail -5 "$1"; return
	fi
	p=$((p + $(echo "$line" | sed -E 's/.*[^0-9]([0-9]+) passed.*/\1/')))
	f=$((f + $(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')))
}

# pprof_other B: on a dual-clock trace (B.json names both clocks), -top on
# the other clock's sample type into B.other; otherarg names it for check.py.
pprof_other() {
	other=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trace"]; print(" ".join(c for c in t.get("clocks") or [] if c != t["clock_used"]))' "$1.json")
	otherarg=
	if [ -n "$other" ]; then
		go tool pprof -top -nodecount=0 -nodefraction=0 -sample_index="$other" -unit=us "$1.pb.gz" >"$1.other" 2>&1
		otherarg=$1.other
	fi
}

set -- "$top/samples/legacy.trace" "$top/samples/art-regular.trace.gz" "$top/samples/art-streaming.trace.gz"
[ -f "$shared/corpus/easternHong-MethodTrace_test.trace" ] &&
	set -- "$@" "$shared/corpus/easternHong-MethodTrace_test.trace"

ss_args=""
n=0
for t in "$@"; do
	n=$((n + 1))
	b=$tmp/$n
	# All five from one reading; then again, for the same bytes.
	if ! $CG -q --json "$b.json" --pprof "$b.pb.gz" --speedscope "$b.ss.json" \
		--chrome-trace "$b.ct.json" --callgrind "$b.cg" "$t" 2>"$tmp/err"; then
		bad "$t: callgraph failed: $(cat "$tmp/err")"; continue
	fi
	$CG -q --pprof "$b.2.pb.gz" --speedscope "$b.2.ss.json" --chrome-trace "$b.2.ct.json" \
		--callgrind "$b.2.cg" "$t"
	for x in pb.gz ss.json ct.json cg; do
		if cmp -s "$b.$x" "$b.2.$x"; then ok; else bad "$t: .$x differs between two runs"; fi
	done

	go tool pprof -top -nodecount=0 -nodefraction=0 -unit=us "$b.pb.gz" >"$b.top" 2>&1
	go tool pprof -top -nodecount=0 -nodefraction=0 -sample_index=calls "$b.pb.gz" >"$b.calls" 2>&1
	pprof_other "$b"
	python3 "$here/check.py" pprof "$b.json" "$b.top" "$b.calls" $otherarg >"$b.out" 2>&1
	count "$b.out"

	callgrind_annotate --inclusive=yes --threshold=100 "$b.cg" >"$b.incl" 2>&1
	callgrind_annotate --inclusive=no --threshold=100 "$b.cg" >"$b.self" 2>&1
	callgrind_annotate --tree=caller --threshold=100 "$b.cg" >"$b.tree" 2>&1
	python3 "$here/check.py" callgrind "$b.json" "$b.incl" "$b.self" "$b.tree" >"$b.out" 2>&1
	count "$b.out"

	python3 "$here/check.py" chrome "$b.json" "$b.ct.json" >"$b.out" 2>&1
	count "$b.out"
	# jq: only B and E (and M) events; as many E as B on every thread.
	if jq -e '[.traceEvents[].ph] - ["B","E","M"] == [] and
		([.traceEvents[] | select(.ph != "M")] | group_by(.tid) |
		 all(([.[] | select(.ph == "B")] | length) == ([.[] | select(.ph == "E")] | length)))' \
		"$b.ct.json" >/dev/null; then ok; else bad "$t: jq: B/E events unbalanced"; fi
	ss_args="$ss_args $b.json $b.ss.json $b.ct.json"
done

# The filters: --focus, --hide and --thread shape every export as they shape --json.
b=$tmp/focus
if $CG -q --focus '*.onCreate' --hide 'java.*' --thread main --json "$b.json" --pprof "$b.pb.gz" \
	--chrome-trace "$b.ct.json" --callgrind "$b.cg" --speedscope "$b.ss.json" \
	"$top/samples/art-regular.trace.gz"; then
	python3 "$here/check.py" speedscope "$b.json" "$b.ss.json" >"$b.out" 2>&1
	count "$b.out"
	go tool pprof -top -nodecount=0 -nodefraction=0 -unit=us "$b.pb.gz" >"$b.top" 2>&1
	go tool pprof -top -nodecount=0 -nodefraction=0 -sample_index=calls "$b.pb.gz" >"$b.calls" 2>&1
	pprof_other "$b"
	python3 "$here/check.py" pprof "$b.json" "$b.top" "$b.calls" $otherarg >"$b.out" 2>&1
	count "$b.out"
	callgrind_annotate --inclusive=yes --threshold=100 "$b.cg" >"$b.incl" 2>&1
	callgrind_annotate --inclusive=no --threshold=100 "$b.cg" >"$b.self" 2>&1
	callgrind_annotate --tree=caller --threshold=100 "$b.cg" >"$b.tree" 2>&1
	python3 "$here/check.py" callgrind "$b.json" "$b.incl" "$b.self" "$b.tree" >"$b.out" 2>&1
	count "$b.out"
	python3 "$here/check.py" chrome "$b.json" "$b.ct.json" >"$b.out" 2>&1
	count "$b.out"
else
	bad "--focus/--hide/--thread exports failed"
fi

# bound_trace NAME WANT: the Chrome trace of the generated trace NAME.desc,
# its bound's figures against WANT (counted by hand) and the consumer's
# checks; fails when the files could not be made ($b names them).
bound_trace() {
	b=$tmp/$1
	if "$build/tracegen" -o "$b.trace" "$here/$1.desc" &&
	   $CG -q --json "$b.json" --chrome-trace "$b.ct.json" "$b.trace"; then
		got=$(jq -c '.otherData.callgraph | [.min_dur_us, .calls, .kept, .dropped, .threads[0].dropped_top_us]' "$b.ct.json")
		if [ "$got" = "$2" ]; then ok; else bad "$1: got $got"; fi
		python3 "$here/check.py" chrome "$b.json" "$b.ct.json" >"$b.out" 2>&1
		count "$b.out"
	else
		bad "$1.desc: tracegen or callgraph failed"
		return 1
	fi
}

# The Chrome trace bound (bound.desc), and the same with nested calls
# (bound-nested.desc), where the calls kept are checked by name too.
bound_trace bound "[2,500002,250001,250001,250001]"
if bound_trace bound-nested "[4,1000000,400000,600000,400000]"; then
	got=$(jq -c '[.traceEvents[] | select(.ph == "B") | .name] | group_by(.) | map([.[0], length])' "$b.ct.json")
	if [ "$got" = '[["com.ex.A.outer()",200000],["com.ex.C.middle()",200000]]' ]; then ok; else bad "bound-nested kept: got $got"; fi
fi

# speedscope: schema and UI, all traces in one browser.
if [ ! -d "$here/node_modules/speedscope" ] || [ ! -d "$here/node_modules/ajv" ] ||
   [ ! -d "$here/node_modules/playwright-core" ]; then
	(cd "$here" && npm ci --no-audit --no-fund >"$tmp/npm.log" 2>&1) ||
		{ cat "$tmp/npm.log"; bad "npm ci"; }
fi
# shellcheck disable=SC2086
node "$here/speedscope.mjs" $ss_args >"$tmp/ss.out" 2>&1
count "$tmp/ss.out"
echo "exports: $p passed, $f failed"
[ "$f" -eq 0 ]
