#!/bin/sh
# Behavioural checks of command-line options, each against numbers worked out
# by hand from the trace descriptions beside this script (see their comments).
#   tests/cli/run.sh BUILD_DIR
# Prints "FAIL cli NAME: ..." for each failure and closes with
# "cli: N passed, N failed".
set -u
BUILD=${1:?usage: tests/cli/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
CG=${CG:-$BUILD/callgraph}
work=$(mktemp -d "${TMPDIR:-/tmp}/cgcli.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1
pass=0
fail=0
skipped=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL cli $*"; }

for d in two-threads focus control badutf8; do
	"$BUILD/tracegen" -o $d.trace "$here/$d.desc" || ko "tracegen $d.desc"
done

# same NAME EXPECTED CMD...: CMD exits 0 and its standard output is EXPECTED.
same() {
	name=$1 want=$2
	shift 2
	if ! "$@" >out 2>err; then
		ko "$name: exit $?: $(head -2 err)"
	elif [ "$(cat out)" != "$want" ]; then
		ko "$name: got"; sed 's/^/    /' out | head -20
		echo "  want"; echo "$want" | sed 's/^/    /'
	else
		ok
	fi
}

# json NAME PYTHON-EXPR CMD...: CMD writes JSON to out.json, exits 0, and the
# Python expression (d = the parsed JSON) is true.
json() {
	name=$1 expr=$2
	shift 2
	rm -f out.json
	if ! "$@" >/dev/null 2>err; then
		ko "$name: exit $?: $(head -2 err)"
	elif python3 -c "
import json, sys
d = json.load(open('out.json', encoding='utf-8'))
sys.exit(0 if ($expr) else 1)" 2>pyerr; then
		ok
	else
		ko "$name: $expr is false: $(tail -1 pyerr)"
	fi
}

# names: the sorted Class.method names of the JSON's methods.
NAMES='sorted(m["class"].split("/")[-1] + "." + m["name"] for m in d["methods"])'

# --- --thread: by id, by name, repeated ---------------------------------------
json thread-id "[t['tid'] for t in d['threads']] == [7] and d['total_us'] == 30 and $NAMES == ['Net.fetch', 'Net.parse']" \
	$CG -q --thread 7 --json out.json two-threads.trace
json thread-name "[t['tid'] for t in d['threads']] == [7] and d['total_us'] == 30" \
	$CG -q --thread worker --json out.json two-threads.trace
json thread-both "sorted(t['tid'] for t in d['threads']) == [1, 7] and d['total_us'] == 130" \
	$CG -q --thread 1 --thread worker --json out.json two-threads.trace
json thread-none "d['total_us'] == 0 and d['methods'] == []" \
	$CG -q --thread 99 --json out.json two-threads.trace

# --- --focus: one pattern, two patterns ----------------------------------------
json focus-a "d['total_us'] == 20 and $NAMES == ['A.run', 'Util.log']" \
	$CG -q --focus '*.A.run' --json out.json focus.trace
json focus-two "d['total_us'] == 50 and $NAMES == ['A.run', 'B.run', 'Util.log'] and [m['inclusive_us'] for m in d['methods'] if m['name'] == 'log'] == [5]" \
	$CG -q --focus '*.A.run' --focus '*.B.run' --json out.json focus.trace

# --- -k: the dot source beside an image -----------------------------------------
for ext in png svg; do
	rm -f g.$ext g.$ext.dot
	if ! $CG -q -t 0 -g g.$ext -k two-threads.trace 2>err; then
		ko "keep-dot-$ext: exit $?: $(head -2 err)"
	elif [ ! -s g.$ext ] || ! head -c 8 g.$ext | grep -q -e PNG -e '<?xml' -e '<svg'; then
		ko "keep-dot-$ext: g.$ext is not a $ext image"
	elif ! grep -q '^digraph' g.$ext.dot || ! grep -q 'com.ex.Net.parse' g.$ext.dot; then
		ko "keep-dot-$ext: g.$ext.dot is missing or not the graph's dot source"
	else
		ok
	fi
done
rm -f g.png g.png.dot
if $CG -q -g g.png two-threads.trace 2>err && [ -s g.png ] && [ ! -e g.png.dot ]; then ok
else ko "no-keep-dot: without -k, g.png.dot was written or g.png was not"; fi

# --- --folded with and without --short-names -----------------------------------
same folded "main;com.ex.App.main 70
main;com.ex.App.main;com.ex.Ui.draw 30
worker;com.ex.Net.fetch 10
worker;com.ex.Net.fetch;com.ex.Net.parse 20" $CG -q --folded - two-threads.trace
same folded-short-names "main;c.e.App.main 70
main;c.e.App.main;c.e.Ui.draw 30
worker;c.e.Net.fetch 10
worker;c.e.Net.fetch;c.e.Net.parse 20" $CG -q --short-names --folded - two-threads.trace

# --- JSON escaping of control bytes ------------------------------------------------
ODD='"a" + "".join(chr(c) for c in list(range(1, 9)) + [11, 12] + list(range(14, 32))) + "b\x7fc"'
json json-control-name "[m['name'] for m in d['methods']] == [$ODD]" \
	$CG -q --json out.json control.trace
# Every control byte and DEL is escaped: none is left raw in the file.
if $CG -q --json out.json control.trace && python3 -c "
import sys
b = open('out.json', 'rb').read()
sys.exit(1 if any(c < 0x20 and c != 0x0a or c == 0x7f for c in b) else 0)"; then ok
else ko "json-control-raw: a raw control byte or DEL in the JSON"; fi

# Bytes that are not UTF-8 become U+FFFD, one for each byte.
json json-invalid-utf8 "[m['name'] for m in d['methods']] == ['a\\ufffdb\\ufffd(c']" \
	$CG -q --json out.json badutf8.trace

# --- folded stacks deeper than 512 frames ---------------------------------------
# 600 nested calls m0..m599, entered at 0..599 and left at 2000..1401: the
# first 512 frames are written, and below m511 one "[deeper frames]" line
# carries m512's inclusive time, (2000 - 512) - 512 = 976 us.
python3 -c "
print('clock wall'); print('thread 1 main')
for i in range(600): print('method 0x%x com/ex/D m%d ()V D.java' % (4 * (i + 1), i))
for i in range(600): print('enter 1 0x%x %d' % (4 * (i + 1), i))
for i in reversed(range(600)): print('exit 1 0x%x %d' % (4 * (i + 1), 2000 - i))
" >deep.desc
want="main;$(python3 -c "print(';'.join('com.ex.D.m%d' % i for i in range(512)))");[deeper frames] 976"
if "$BUILD/tracegen" -o deep.trace deep.desc && $CG -q --folded deep.folded deep.trace 2>err &&
	[ "$(tail -n 1 deep.folded)" = "$want" ] &&
	[ "$(awk -F';' 'NF > n { n = NF } END { print n }' deep.folded)" = 514 ]; then ok
else ko "folded-depth: the 513th frame is not '[deeper frames] 976': $(tail -n 1 deep.folded | tail -c 80)"; fi

# --- TRACE - reads standard input, plain or gzip ---------------------------------
$CG -q --json file.json two-threads.trace 2>err || ko "stdin: the file run failed: $(head -2 err)"
gzip -c two-threads.trace >two-threads.trace.gz
for how in plain gzip; do
	rm -f out.json
	if [ $how = plain ]; then $CG -q --json out.json - <two-threads.trace 2>err
	else $CG -q --json out.json - <two-threads.trace.gz 2>err; fi
	rc=$?
	if [ $rc -eq 0 ] && python3 -c "
import json, sys
a, b = json.load(open('file.json')), json.load(open('out.json'))
sys.exit(0 if b['trace']['file'] == '-' and dict(a, trace={}) == dict(b, trace={}) and
         dict(a['trace'], file='') == dict(b['trace'], file='') else 1)"; then ok
	else ko "stdin-$how: exit $rc, or its JSON differs from the file's: $(head -2 err)"; fi
done

# --- -t is a percentage: 0 to 100, anything else a usage error ------------------
for v in 101 -1 1000; do
	$CG -q -t "$v" two-threads.trace >/dev/null 2>err
	rc=$?
	if [ $rc -eq 2 ] && [ "$(head -n 1 err)" = "callgraph: -t wants a percentage from 0 to 100, not '$v'" ]; then ok
	else ko "threshold-range ($v): exit $rc, stderr: $(head -2 err)"; fi
done
if $CG -q -t 100 --json out.json two-threads.trace 2>err; then ok
else ko "threshold-100: exit $?: $(head -2 err)"; fi

# --- -j takes 1 to 64 threads; anything else is a usage error ----------------
for v in 0 65 -2 1.5 abc ''; do
	$CG -q -j "$v" two-threads.trace >/dev/null 2>err
	rc=$?
	if [ $rc -eq 2 ] && [ "$(head -n 1 err)" = "callgraph: -j wants a whole number of threads from 1 to 64, not '$v'" ]; then ok
	else ko "jobs-range ($v): exit $rc, stderr: $(head -2 err)"; fi
done
for v in 1 64; do
	if $CG -q --jobs "$v" --json out.json two-threads.trace 2>err; then ok
	else ko "jobs-$v: exit $?: $(head -2 err)"; fi
done

# --- a full standard output is an error ----------------------------------------
for args in "-o two-threads.trace" "two-threads.trace" "--json - two-threads.trace" "--folded - two-threads.trace" "--help"; do
	# shellcheck disable=SC2086
	$CG -q $args >/dev/full 2>err
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat err)" = "callgraph: cannot write standard output: No space left on device" ]; then ok
	else ko "stdout-full ($args): exit $rc, stderr: $(head -2 err)"; fi
done

# --- the progress line on a terminal ------------------------------------------
# Shown from 64 MiB on; erased with ESC[K, or with blanks when TERM is dumb or
# unset.  A pseudo-terminal turns LF into CR LF.
if "$BUILD/tracegen" -o progress.trace "$here/progress.desc"; then
	for term in xterm dumb ""; do
		python3 "$here/onterm.py" "$term" $CG progress.trace >tty.out 2>&1
		rc=$?
		esc=$(tr -d -c '\033' <tty.out | wc -c)
		if [ $rc -ne 0 ] || ! grep -q 'callgraph: reading 100%' tty.out; then
			ko "progress (TERM=$term): exit $rc, no progress line: $(head -c 200 tty.out)"
		elif [ "$term" = xterm ] && ! tail -c 4 tty.out | grep -q "$(printf '\r\033\\[K')"; then
			ko "progress (TERM=$term): not erased with ESC[K"
		elif [ "$term" != xterm ] && { [ "$esc" -ne 0 ] || [ "$(tail -c 26 tty.out | tr -d '\r ' | wc -c)" -ne 0 ]; }; then
			ko "progress (TERM=$term): $esc escape bytes, or not erased with blanks"
		else
			ok
		fi
	done
	rm -f progress.trace
else
	ko "tracegen progress.desc"
fi

# --- HTML report of a sampled trace: stack changes, no time per call ----------
# samples/streaming.trace is a sampling-mode capture, samples/exception.trace
# a method-tracing one.
html_cols() { # NAME TRACE WANT: the flat table's column keys, in order
	if ! "$CG" -q -h "$TOP/samples/$2" >out.html 2>err; then
		ko "$1: exit $?: $(head -2 err)"
	elif [ "$(grep -o '<th data-key="[a-z]*"' out.html | sed 's/.*="//; s/"//' | tr '\n' ' ')" != "$3" ]; then
		ko "$1: columns $(grep -o '<th data-key="[a-z]*"' out.html | sed 's/.*="//; s/"//' | tr '\n' ' ')"
	elif [ "$4" = sampled ] && ! grep -q '>Stack changes</button>' out.html; then
		ko "$1: no Stack changes header"
	elif [ "$4" = sampled ] && ! grep -q '"sampled":true' out.html; then
		ko "$1: data does not say sampled"
	elif [ "$4" != sampled ] && ! grep -q '"sampled":false' out.html; then
		ko "$1: data does not say traced"
	else
		ok
	fi
}
TOP=$(cd "$here/../.." && pwd)
html_cols html-sampled-no-per-call streaming.trace "name incl inclp excl exclp incl inclp excl exclp off calls " sampled
html_cols html-traced-per-call exception.trace "name incl inclp excl exclp incl inclp excl exclp off calls mpc " traced

# --- the table of outputs: every kind in one run --------------------------------
# Each output of a run that asks for all of them is what the same option
# writes alone, and is of its kind (hand-checked signatures and numbers of
# two-threads.desc: main 100 us, worker 30 us).
kinds="--json:all.json --folded:all.folded --pprof:all.pb --speedscope:all.ss --chrome-trace:all.ct --callgrind:all.cg --html:all.html -g:all.svg"
args=""
for k in $kinds; do args="$args ${k%%:*} ${k#*:}"; done
rm -f all.*
# shellcheck disable=SC2086
if "$CG" -q -k $args two-threads.trace >all.out 2>err; then
	for k in $kinds; do
		opt=${k%%:*} f=${k#*:}
		rm -f "one-$f"
		"$CG" -q "$opt" "one-$f" two-threads.trace 2>err
		if [ ! -s "$f" ]; then ko "all-kinds $opt: $f missing or empty"
		elif ! cmp -s "$f" "one-$f"; then ko "all-kinds $opt: differs from $opt alone"
		else ok; fi
	done
	[ -s all.svg.dot ] && grep -q '^digraph' all.svg.dot && ok || ko "all-kinds -k: no all.svg.dot"
	[ -s all.out ] && ko "all-kinds: wrote to standard output" || ok
else
	ko "all-kinds: exit $?: $(head -2 err)"
fi
sig() { # NAME FILE TEST...: the file passes the test (its kind, its numbers)
	name=$1 f=$2
	shift 2
	if "$@" <"$f" >/dev/null 2>&1; then ok; else ko "all-kinds $name: $f is not what it should be"; fi
}
py() { python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if ($1) else 1)"; }
sig json all.json py "d['total_us'] == 130 and len(d['methods']) == 4"
sig folded all.folded grep -qx 'main;com.ex.App.main;com.ex.Ui.draw 30'
sig pprof all.pb sh -c 'head -c 2 | od -An -tx1 | grep -q "1f 8b"'
sig speedscope all.ss py "'speedscope' in d['\$schema'] and len(d['profiles']) == 2"
sig chrome all.ct py "sum(1 for e in d['traceEvents'] if e.get('ph') == 'B') == 4"
sig callgrind all.cg grep -q '^events: '
sig html all.html grep -q '^<!DOCTYPE html>'
sig graph all.svg grep -q '<svg'
# The -o dump and the -d report beside a graph: standard output is what it
# is alone.
for a in "-o" "-d two-threads.trace -h"; do
	# shellcheck disable=SC2086
	"$CG" -q $a two-threads.trace >alone.out 2>err
	# shellcheck disable=SC2086
	"$CG" -q $a -g beside.dot two-threads.trace >beside.out 2>err
	if [ -s alone.out ] && cmp -s alone.out beside.out && grep -q '^digraph' beside.dot; then ok
	else ko "beside-graph $a: standard output differs or no graph"; fi
	rm -f beside.dot
done

# --- exit status by name: src/cli/run.h's enum, the man page and the runs agree --------
for pair in "CG_EXIT_OK:0:two-threads.trace" "CG_EXIT_FAILURE:1:no-such.trace" "CG_EXIT_USAGE:2:--no-such-option two-threads.trace"; do
	name=${pair%%:*} rest=${pair#*:}
	want=${rest%%:*} cmdargs=${rest#*:}
	val=$(sed -n "s/^[[:space:]]*$name = \([0-9]*\),.*/\1/p" "$TOP/src/cli/run.h")
	# shellcheck disable=SC2086
	"$CG" -q $cmdargs >/dev/null 2>&1
	rc=$?
	if [ "$val" != "$want" ]; then ko "exit-$name: src/cli/run.h says '$val', want $want"
	elif [ "$rc" != "$want" ]; then ko "exit-$name: exit $rc, want $want"
	elif ! grep -q "^\.BR $want \" ($name)\"" "$TOP/man/callgraph.1"; then ko "exit-$name: not in the man page's EXIT STATUS"
	else ok; fi
done

# --- HTML report of 65535 threads: idle threads folded, the page bounded ------
# Thread 1 calls A once (10 to 20 us on both clocks), then 2000 times waits
# 100 us and runs B 100 us (wall; 50 and 50 on the cpu clock): 400.010 ms
# wall, 200.000 ms of it outside any call, 4002 records.  Threads 2..65535
# each call A once for 10 us: 65534 threads, 131068 records, 655.340 ms;
# each is under 1/1000 of the 1055.350 ms total, so the page lists thread 1
# and folds the others into one entry.  Bounds:
# the page under 1 MB (every thread listed made 36 MB) and, with GNU time,
# at most 256 MB of peak memory (it was 523 MB; the profile of 65535
# threads alone takes about 90 MB).
{
	echo "clock dual"
	awk 'BEGIN { for (i = 1; i <= 65535; i++) printf "thread %d worker-%d\n", i, i }'
	echo "method 0x4 com.example.Work a ()V A.java"
	echo "method 0x8 com.example.Work b ()V A.java"
	awk 'BEGIN { for (i = 1; i <= 65535; i++) printf "call %d 0x4 10 20\n", i }'
	printf 'repeat 2000\nenter 1 0x8 +100 +50\nexit 1 0x8 +100 +50\nend\n'
} >many.desc
cat >many.py <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding='utf-8').read()
def block(i):
    return json.loads(re.search(r'id="%s">\n(.*?)\n</script>' % i, s, re.S).group(1))
d, tl = block('cg-data'), block('cg-tl-data')
opts = re.findall(r'<option( disabled)?[^>]*>([^<]*)</option>', re.search(r'<select id="thread">(.*?)</select>', s, re.S).group(1))
fold = re.search(r'<tr class="folded">.*?</tr>', s).group(0)
ok = (d['threads'] == [[1, 'worker-1', 4002, 400010, 200000], [-1, '65534 idle threads', 131068, 655340, 0]]
      and len(d['views']) == 2 and d['views'][0]['total'] == 1055350)
# the folded threads' root edges merged: one edge from -1 - 1 into A, 65534
# calls of 10 us on the wall clock and 10 us on the cpu clock
ka = [m[0] for m in d['methods']].index('com.example.Work.a')
fe = [d['views'][0]['e'][i:i + 5] for i in range(0, len(d['views'][0]['e']), 5) if d['views'][0]['e'][i] == -2]
ok = ok and fe == [[-2, ka, 65534, 655340, 655340]]
ok = ok and [t['i'] for t in tl['timeline']['threads']] == [0] and len(tl['threads']) == 1
ok = ok and [o[1].strip() for o in opts if not o[0]][1:] == ['worker-1 (1): 400.010 ms']
ok = ok and [o[1] for o in opts if o[0]] == ['65534 idle threads (folded): 655.340 ms']
ok = ok and '65534 idle threads' in fold and '>131068<' in fold and '>655.340<' in fold
# the trees: thread 1 only, and they say how many threads are folded out
tree = block('cg-tree-data')
ok = ok and [t[0] for t in tree['threads']] == [0] and tree['folded'] == 65534
sys.exit(0 if ok else 1)
PY
# Under valgrind one run on 65 535 threads takes minutes: counted as
# skipped there.  (Under ASan it takes about 2 s.)
if [ "${CG_VALGRIND:-}" = 1 ]; then
	skipped=$((skipped + 1))
	echo "SKIP cli html-many-threads: too slow under valgrind"
elif "$BUILD/tracegen" -o many.trace many.desc; then
	if [ -x /usr/bin/time ] && [ "${CG_VALGRIND:-}" != 1 ] && [ "${CG_SANITIZER:-}" != 1 ]; then
		/usr/bin/time -f '%M' -o many.rss $CG -q --html many.html many.trace 2>err
	else
		$CG -q --html many.html many.trace 2>err
	fi
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s err ]; then
		ko "html-many-threads: exit $rc: $(head -2 err)"
	elif [ "$(wc -c <many.html)" -ge 1048576 ]; then
		ko "html-many-threads: page of $(wc -c <many.html) bytes, over 1 MB"
	elif [ -s many.rss ] && [ "$(tail -1 many.rss)" -gt 262144 ]; then
		ko "html-many-threads: peak memory $(tail -1 many.rss) KB, over 256 MB"
	elif ! python3 many.py many.html
	then
		ko "html-many-threads: the page does not list thread 1 and fold the 65534 others"
	else
		ok
	fi
	rm -f many.trace many.html
else
	ko "tracegen many.desc"
fi

# --- 300 busy threads: the page lists the 256 busiest ------------------------
# Thread i (1..300) calls A once, from 10 to 1000 + i us (990 + i us): every
# thread is over 1/1000 of the total, so only the cap of 256 folds: the
# page lists worker-45 .. worker-300 and one entry for the 44 others, 88
# records and 44 x 990 + (1 + .. + 44) = 44550 us.  Cheap enough for every
# build, sanitizers included.
{
	echo "clock dual"
	awk 'BEGIN { for (i = 1; i <= 300; i++) printf "thread %d worker-%d\n", i, i }'
	echo "method 0x4 com.example.Work a ()V A.java"
	awk 'BEGIN { for (i = 1; i <= 300; i++) printf "call %d 0x4 10 %d\n", i, 1000 + i }'
} >t300.desc
if "$BUILD/tracegen" -o t300.trace t300.desc && $CG -q --html t300.html t300.trace 2>err; then
	if python3 - t300.html <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding='utf-8').read()
d = json.loads(re.search(r'id="cg-data">\n(.*?)\n</script>', s, re.S).group(1))
listed = [t[1] for t in d['threads'][:-1]]
ok = (len(d['threads']) == 257
      and sorted(listed) == sorted('worker-%d' % i for i in range(45, 301))
      and d['threads'][-1] == [-1, '44 idle threads', 88, 44550, 0])
# the trees of all threads say how many threads are folded out of them
tree = json.loads(re.search(r'id="cg-tree-data">\n(.*?)\n</script>', s, re.S).group(1))
ok = ok and tree['folded'] == 44
sys.exit(0 if ok else 1)
PY
	then
		ok
	else
		ko "html-300-threads: the page does not list the 256 busiest threads and fold 44"
	fi
else
	ko "html-300-threads: $(head -2 err)"
fi
rm -f t300.trace t300.html

# --- gzip inflated on its own thread: the same bytes as the file itself -------
# tests/data/gzbig.desc: 360000 records, about 5 MB, several of the
# inflating thread's 1 MB buffers.
"$BUILD/tracegen" -o gzbig.trace "$TOP/tests/data/gzbig.desc" && gzip -c gzbig.trace >gzbig.trace.gz || ko "gzip-same: tracegen"
# Every record line (the "#" header lines name the file and its compression).
"$CG" -q -o gzbig.trace 2>&1 | grep -v '^#' >raw.dump
"$CG" -q -o gzbig.trace.gz 2>&1 | grep -v '^#' >gz.dump
"$CG" -q -o - <gzbig.trace.gz 2>&1 | grep -v '^#' >pipe.dump
if [ "$(wc -l <raw.dump)" -eq 360000 ] && cmp -s raw.dump gz.dump && cmp -s raw.dump pipe.dump; then
	ok
else
	ko "gzip-same: the dump of gzbig.trace.gz (file or pipe) differs from gzbig.trace's"
fi

if [ "$skipped" -gt 0 ]; then
	echo "cli: $pass passed, $fail failed, $skipped skipped"
else
	echo "cli: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
