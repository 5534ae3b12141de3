#!/bin/sh
# Shell completions (completions/) and what make install puts where.
#   tests/completion/run.sh BUILD_DIR
# bash: the completion function, called as bash would call it, offers every
# option of --help, the values of -T and --clock, and only trace files and
# directories for TRACE.  zsh: the file parses and names every option of
# --help.  make install DESTDIR=... installs the program, the man page and
# both completions; make uninstall removes them all.
# Closes with "completion: N passed, N failed".
set -u
BUILD=${1:?usage: tests/completion/run.sh BUILD_DIR}
TOP=$(pwd)
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/cgcomp.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL completion: $*"; }

opts=$("$BUILD/callgraph" --help | grep -oE '^ +(-[a-zA-Z], )?--?[a-z][a-z-]*' | grep -oE -- '--?[a-z][a-z-]*$|^ +-[a-zA-Z]' | tr -d ' ' | sort -u)
[ -n "$opts" ] || ko "no options in --help"
# Short options with a long form (-q, --quiet) appear as "-q, --quiet".
opts="$opts $("$BUILD/callgraph" --help | grep -oE '^ +-[a-zA-Z],' | tr -d ' ,')"

# complete WORDS...: the completions bash offers for the last word.
complete_words() {
	(cd "$work/files" && bash -c '
		. "$0"
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_callgraph
		printf "%s\n" "${COMPREPLY[@]}" | sort' "$TOP/completions/callgraph.bash" "$@")
}
mkdir -p "$work/files/sub"
: >"$work/files/a.trace"
: >"$work/files/b.trace.gz"
: >"$work/files/notes.txt"
: >"$work/files/old.key"

got=$(complete_words callgraph -)
for o in $opts; do
	if printf '%s\n' "$got" | grep -qx -- "$o"; then ok; else ko "bash: option $o of --help is not offered"; fi
done
# expect WANT WORDS...: bash offers WANT (sorted, space-separated) for the
# last of WORDS ("" when completing an empty word).
expect() {
	want=$1
	shift
	got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ *$//')
	if [ "$got" = "$want" ]; then ok; else ko "bash: '$*' offers '$got', want '$want'"; fi
}
expect "cpu" callgraph --clock c
expect "cpu wall" callgraph --clock ""
expect "svg" callgraph -T sv
expect "a.trace b.trace.gz old.key sub/" callgraph ""
expect "a.trace b.trace.gz old.key sub/" callgraph -d ""
expect "a.trace" callgraph -q a
expect "notes.txt" callgraph --json n
expect "" callgraph --focus ""

if command -v zsh >/dev/null 2>&1; then
	if zsh -n "$TOP/completions/_callgraph"; then ok; else ko "zsh: _callgraph does not parse"; fi
	for o in $opts; do
		if grep -q -e "[\"'*]$o\\[" -e "[{,]$o[,}]" "$TOP/completions/_callgraph"; then ok
		else ko "zsh: option $o of --help is not in _callgraph"; fi
	done
else
	echo "SKIP completion: no zsh"
	skipped=1
fi

dest=$work/dest
# The build directory as the Makefile names it (relative to TOP when inside
# it): an absolute name would write the objects' dependency files with
# absolute targets, which a later plain make does not match.
mbuild=${BUILD#"$TOP"/}
if make -s -C "$TOP" BUILD="$mbuild" DESTDIR="$dest" PREFIX=/usr install >"$work/make.out" 2>&1; then
	for f in usr/bin/callgraph usr/share/man/man1/callgraph.1 \
		 usr/share/bash-completion/completions/callgraph usr/share/zsh/site-functions/_callgraph; do
		if [ -f "$dest/$f" ]; then ok; else ko "make install: no $f"; fi
	done
	make -s -C "$TOP" BUILD="$mbuild" DESTDIR="$dest" PREFIX=/usr uninstall >>"$work/make.out" 2>&1
	left=$(find "$dest" -type f | sed "s#^$dest/##")
	if [ -z "$left" ]; then ok; else ko "make uninstall left: $left"; fi
else
	ko "make install failed: $(tail -3 "$work/make.out")"
fi

if [ "${skipped:-0}" -gt 0 ]; then
	echo "completion: $pass passed, $fail failed, 1 skipped"
else
	echo "completion: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
