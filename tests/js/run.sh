#!/bin/sh
# run.sh - checks of the HTML report's scripts and styles (src/render/report/assets/):
#   - every .js parses (node --check);
#   - no script holds "</script" and no stylesheet "</style" (either would
#     end its element early once embedded in the page);
#   - every .js passes eslint (pinned in package-lock.json, eslint.config.mjs);
#   - the unit tests (*.test.mjs, node's built-in test runner) pass.
# Installs eslint from package-lock.json first when node_modules is missing.
# Ends with "js: N passed, N failed" and exits non-zero on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgjs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
p=0 f=0
ok() { p=$((p + 1)); }
bad() { f=$((f + 1)); echo "FAIL js $*"; }

for a in "$top"/src/render/report/assets/*.js; do
	if node --check "$a" 2>"$tmp/err"; then ok; else bad "node --check $a"; head -5 "$tmp/err"; fi
done
for a in "$top"/src/render/report/assets/*.js "$top"/src/render/report/assets/*.css; do
	case $a in *.js) tag=script ;; *) tag=style ;; esac
	if grep -qi "</$tag" "$a"; then bad "$a holds </$tag"; else ok; fi
done

if [ ! -d "$here/node_modules/eslint" ]; then
	(cd "$here" && npm ci --no-audit --no-fund >"$tmp/npm.log" 2>&1) ||
		{ cat "$tmp/npm.log"; bad "npm ci"; }
fi
if [ -d "$here/node_modules/eslint" ]; then
	# One result per linted file: eslint's JSON report, counted by node.
	(cd "$top" && "$here/node_modules/.bin/eslint" -c "$here/eslint.config.mjs" -f json \
		-o "$tmp/lint.json" src/render/report/assets/*.js tests/js/*.mjs) 2>"$tmp/lint.err"
	if [ -s "$tmp/lint.json" ]; then
		node -e '
			const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
			let p = 0, f = 0;
			for (const x of r) {
				if (x.errorCount + x.warningCount === 0) { p++; continue; }
				f++;
				for (const m of x.messages)
					console.log("FAIL js eslint " + x.filePath + ":" + m.line + ":" + m.column +
						" " + m.message + " (" + m.ruleId + ")");
			}
			console.log("lint " + p + " " + f);
		' "$tmp/lint.json" >"$tmp/lint.out"
		grep '^FAIL' "$tmp/lint.out"
		set -- $(grep '^lint ' "$tmp/lint.out")
		p=$((p + ${2:-0})) f=$((f + ${3:-1}))
	else
		bad "eslint did not run"; head -5 "$tmp/lint.err"
	fi
fi

node --test "$here"/*.test.mjs >"$tmp/unit.out" 2>&1
up=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$tmp/unit.out")
uf=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$tmp/unit.out")
if [ -z "$up" ] || [ -z "$uf" ]; then
	bad "node --test gave no counts"; tail -20 "$tmp/unit.out"
else
	[ "$uf" -eq 0 ] || grep -B2 -A20 '^not ok' "$tmp/unit.out" | head -60
	[ "$uf" -eq 0 ] || echo "FAIL js unit: $uf failed"
	p=$((p + up)) f=$((f + uf))
fi
echo "js: $p passed, $f failed"
[ "$f" -eq 0 ]
