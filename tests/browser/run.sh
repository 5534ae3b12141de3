#!/bin/sh
# run.sh BUILD_DIR - browser test of the HTML report.
#
# Generates the trace of report.desc with BUILD_DIR/tracegen, writes its
# report with BUILD_DIR/callgraph into a temporary directory and drives it in
# headless Chromium (test.mjs, which also runs check_html.py on it).  When the
# shared corpus is beside the repository (../shared, or $CG_SHARED), the
# report of its largest trace is loaded too.  Installs playwright-core from
# package-lock.json first when node_modules is missing.  Then timeline.mjs
# (timeline and flame graph), clocks.mjs (the clock switch, on the report of
# clocks.desc), graphview.mjs (the graph's first view, on report.html and the
# corpus report), trees.mjs (Top Down and Bottom Up), window.mjs (windows
# and frames), diff.mjs (the comparison page), runs.mjs (the repeated-runs
# page; CG_RUNS_SHOT=FILE keeps a screenshot of it) and mapping.mjs (a
# minified trace read with --mapping).  Ends with one line adding them up,
# "browser + timeline + clocks + graphview + trees + windows + diff + runs +
# mapping: N passed, N failed" (", N skipped" when Chromium, node or the shared corpus is missing:
# the whole part, or the big report, counts as one skipped), and exits
# non-zero on failure.
set -eu

build=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
shared=${CG_SHARED:-$here/../../../shared}
big=$shared/corpus/firefox-profiler_art-trace-streaming.trace.gz

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ] || ! command -v node >/dev/null 2>&1; then
	echo "SKIP browser: no $chromium or no node"
	echo "browser + timeline + clocks + graphview + trees + windows + diff + runs + mapping: 0 passed, 0 failed, 1 skipped"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgbrowser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ ! -d "$here/node_modules/playwright-core" ]; then
	(cd "$here" && npm ci --no-audit --no-fund >"$tmp/npm.log" 2>&1) ||
		{ cat "$tmp/npm.log"; echo "browser: 0 passed, 1 failed"; exit 1; }
fi

cd "$tmp"
export LC_ALL=C
"$build/tracegen" -o report.trace "$here/report.desc"
"$build/callgraph" -q -t 0 --html report.html report.trace
set -- report.html
skipped=0
if [ -f "$big" ]; then
	"$build/callgraph" -q --html big.html "$big"
	set -- report.html big.html
else
	echo "SKIP browser: no $big"
	skipped=1
fi
# --- timeline and flame graph (timeline.mjs) ---------------------------------
# On report.html, a timed report of big.desc (about 3 million calls) and the
# corpus report; test.mjs's and timeline.mjs's counts are added into the one
# final line tests/run.sh reads.
"$build/tracegen" -o tl-big.trace "$here/big.desc"
"$build/callgraph" -q --html tl-big.html tl-big.trace
# The clock switch (clocks.mjs) on the report of clocks.desc.
"$build/tracegen" -o clocks.trace "$here/clocks.desc"
"$build/callgraph" -q -t 0 --html clocks.html clocks.trace
rc=0
node "$here/test.mjs" "$@" >browser.out 2>&1 || rc=1
shift
node "$here/timeline.mjs" report.html tl-big.html "$@" >timeline.out 2>&1 || rc=1
node "$here/clocks.mjs" clocks.html >clocks.out 2>&1 || rc=1
node "$here/graphview.mjs" report.html "$@" >graphview.out 2>&1 || rc=1
# A minified trace read with its mapping file (mapping.mjs): names and tooltips.
"$build/tracegen" -o mapping.trace "$here/../golden/mapping-forms-text/desc"
"$build/callgraph" -q -t 0 --mapping "$here/../data/mapping/forms.txt" --html mapping.html mapping.trace
node "$here/mapping.mjs" mapping.html >mapping.out 2>&1 || rc=1
# Top Down and Bottom Up trees (trees.mjs) on a real trace in the repository,
# checked against its --folded and --json outputs.
real=$here/../../samples/art-regular.trace.gz
"$build/callgraph" -q --html trees.html --folded trees.folded --json trees.json "$real"
node "$here/trees.mjs" trees.html trees.folded trees.json >trees.out 2>&1 || rc=1
# Windows of the trace (window.mjs): frames clicked in the frames lane and a
# window dragged on the time axis, on samples/streaming.trace (252 frames) and
# samples/art-regular.trace.gz, each against callgraph --range --json; a
# report with --hide, whose windows the page cannot replay, shows the --range
# command instead.
stream=$here/../../samples/streaming.trace
"$build/callgraph" -q --html win.html "$stream"
"$build/callgraph" -q --hide 'java.lang.Object.wait*' --html win-hide.html "$stream"
node "$here/window.mjs" "$build/callgraph" win.html "$stream" win-hide.html >window.out 2>&1 || rc=1
"$build/callgraph" -q --html win2.html "$real"
node "$here/window.mjs" "$build/callgraph" win2.html "$real" >>window.out 2>&1 || rc=1
# The comparison page (diff.mjs) at 1280 px: samples/art-regular against
# samples/streaming, checked against the text comparison; with the corpus
# beside the repository, also the two firefox-profiler traces.
"$build/callgraph" -q -d "$real" --html diff.html "$here/../../samples/streaming.trace"
"$build/callgraph" -q -d "$real" "$here/../../samples/streaming.trace" >diff.txt
node "$here/diff.mjs" diff.html diff.txt >diff.out 2>&1 || rc=1
if [ -f "$big" ]; then
	base=$shared/corpus/firefox-profiler_art-trace-regular.trace.gz
	"$build/callgraph" -q -d "$base" --html diff2.html "$big"
	"$build/callgraph" -q -d "$base" "$big" >diff2.txt
	node "$here/diff.mjs" diff2.html diff2.txt >>diff.out 2>&1 || rc=1
fi
# The repeated-runs page (runs.mjs): 5 runs of a program with timing noise
# against 5 with one method slowed, checked against the text report.
for s in 1 2 3 4 5; do
	mkdir -p before after
	printf 'auto-methods 40 com.ex.Bench\nprogram 60000 threads=2 jitter=%s\n' "$s" |
		"$build/tracegen" -o "before/run$s.trace" -
	printf 'auto-methods 40 com.ex.Bench\nprogram 60000 threads=2 jitter=%s slow=3:20\n' $((s + 10)) |
		"$build/tracegen" -o "after/run$s.trace" -
done
"$build/callgraph" -q -d 'before/*.trace' --html runs.html after/*.trace
"$build/callgraph" -q -d 'before/*.trace' after/*.trace >runs.txt
node "$here/runs.mjs" runs.html runs.txt ${CG_RUNS_SHOT:+"$CG_RUNS_SHOT"} >runs.out 2>&1 || rc=1
cat browser.out timeline.out clocks.out graphview.out trees.out window.out diff.out runs.out mapping.out
p=0 f=0
for out in browser.out timeline.out clocks.out graphview.out trees.out window.out diff.out runs.out mapping.out; do
	# Every result line counts (diff.out holds one per comparison page).
	if ! grep -qE '[0-9]+ passed, [0-9]+ failed' "$out"; then
		echo "FAIL $out: no result line"
		f=$((f + 1))
		continue
	fi
	for line in $(grep -E '[0-9]+ passed, [0-9]+ failed' "$out" |
		sed -E 's/.*[^0-9]([0-9]+) passed, ([0-9]+) failed.*/\1:\2/'); do
		p=$((p + ${line%:*}))
		f=$((f + ${line#*:}))
	done
done
if [ "$skipped" -gt 0 ]; then
	echo "browser + timeline + clocks + graphview + trees + windows + diff + runs + mapping: $p passed, $f failed, $skipped skipped"
else
	echo "browser + timeline + clocks + graphview + trees + windows + diff + runs + mapping: $p passed, $f failed"
fi
[ "$f" -eq 0 ] && [ "$rc" -eq 0 ]
