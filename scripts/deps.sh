#!/bin/sh
# Install the Debian packages callgraph's build and tests need, when missing.
# Used by `make demo`, `make test` and .ci/run.  Needs root (or sudo) and
# apt-get only when something is missing; says what is missing otherwise.
set -u
missing=""
need() { # need PACKAGE CHECK-COMMAND...
	pkg=$1
	shift
	"$@" >/dev/null 2>&1 || missing="$missing $pkg"
}
have() { command -v "$1"; }
need make have make
need gcc have cc
need pkg-config have pkg-config
need libgraphviz-dev pkg-config --exists libgvc libcgraph
need zlib1g-dev pkg-config --exists zlib
need graphviz have dot
need python3 have python3
need mandoc have mandoc
need time test -x /usr/bin/time
if [ "${CG_DEPS:-test}" = test ]; then
	need chromium have chromium
	need nodejs have node
	need npm have npm
	need zsh have zsh
	need clang have clang
	# The real consumers of the exports (tests/exports/run.sh).
	need golang-go have go
	need valgrind have callgrind_annotate
	need jq have jq
	# The Mann-Whitney statistics checked against SciPy (tests/stats).
	need python3-scipy /usr/bin/python3 -c "import scipy.stats"
fi
[ -z "$missing" ] && exit 0
echo "callgraph: installing missing Debian packages:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO=sudo
if ! command -v apt-get >/dev/null 2>&1; then
	echo "callgraph: no apt-get here; install these yourself:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "callgraph: apt-get install failed for:$missing" >&2; exit 1; }
