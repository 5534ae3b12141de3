#!/usr/bin/env python3
"""Run the examples of the man page and of --help, and compare what they print.

usage: examples.py MAN CALLGRAPH TRACEGEN DESC_DIR

The man page's EXAMPLES hold .nf/.fi blocks of commands starting with "$ ",
each followed by the lines it prints on standard output (none when it prints
nothing).  --help ends with "Examples:" and lines "  callgraph ... [comment]";
their output is not shown, so only the exit status and the files are checked.
Each command runs with bash -o pipefail in one scratch directory holding
calc.trace, before.trace, after.trace, dual.trace, frames.trace and pools.trace, made by
tracegen from DESC_DIR's calc.desc, before.desc, after.desc, dual.desc, frames.desc and
pools.desc (app.trace in --help is calc.trace), and before/run1.trace ... run5.trace and
after/run1.trace ... run5.trace: runs.desc's program with timing noise (jitter=1..5,
11..15), one method slowed in after/.
Checks per command: exit status 0; standard output equal to the lines shown;
every output file it names (-g, -k, --html, --json, --folded, > FILE) exists,
and every file it writes holds what its extension says (PNG, SVG, PDF, dot,
HTML, JSON, folded stacks).  Prints "FAIL man: ..." lines and
"man-examples: N passed, N failed"."""
import json, os, re, shlex, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

def unroff(line):
    line = line.replace("\\-", "-").replace("\\(rs", "\\").replace("\\e", "\\")
    return line.replace("\\(mc", "\u00b5").replace("\\(+-", "\u00b1").replace("\\&", "")

def man_examples(path):
    """[(command, [expected lines])] from the EXAMPLES section."""
    text = open(path, encoding="utf-8").read().split("\n")
    out, inside, in_nf, cur = [], False, False, None
    for line in text:
        if line.startswith(".SH "):
            inside = line.strip() in (".SH EXAMPLES", ".SH JSON")
            continue
        if not inside:
            continue
        if line.startswith(".nf"):
            in_nf = True
            continue
        if line.startswith(".fi"):
            in_nf, cur = False, None
            continue
        if not in_nf:
            continue
        if line.startswith("$ "):
            cur = (unroff(line[2:]), [])
            out.append(cur)
        elif cur is not None:
            cur[1].append(unroff(line))
    return out

def help_examples(callgraph):
    text = subprocess.run([callgraph, "--help"], capture_output=True, text=True).stdout
    lines = text.split("\n")
    if "Examples:" not in lines:
        return []
    out = []
    for line in lines[lines.index("Examples:") + 1:]:
        if not line.startswith("  callgraph "):
            break
        # The comment is what follows a run of 2 or more spaces.
        cmd = re.split(r"\s{2,}", line.strip())[0].replace("app.trace", "calc.trace")
        out.append((cmd, None))
    return out

KINDS = {
    ".png": lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"),
    ".svg": lambda b: b"<svg" in b[:2000] and b.rstrip().endswith(b"</svg>"),
    ".pdf": lambda b: b.startswith(b"%PDF-"),
    ".dot": lambda b: b.startswith(b"digraph") and b.rstrip().endswith(b"}"),
    ".html": lambda b: b[:100].lower().startswith(b"<!doctype html") and b.rstrip().endswith(b"</html>"),
    ".json": lambda b: isinstance(json.loads(b), dict),
    ".gz": lambda b: b.startswith(b"\x1f\x8b"),
    ".callgrind": lambda b: b.startswith(b"# callgrind format\n") and b"\ntotals: " in b,
    ".folded": lambda b: all(re.fullmatch(rb".+ [0-9]+", l) for l in b.splitlines()) and b != b"",
}

def named_outputs(cmd):
    words = shlex.split(cmd.split("|")[0])
    names = []
    for i, w in enumerate(words[:-1]):
        if w in ("-g", "--html", "--json", "--folded", "--pprof", "--speedscope",
                 "--chrome-trace", "--callgrind", ">") and words[i + 1] != "-":
            names.append(words[i + 1])
    if "-k" in words and "-g" in words:
        names.append(words[words.index("-g") + 1] + ".dot")
    return names

def main():
    man, callgraph, tracegen, descs = sys.argv[1:5]
    check = Checks("man", "man-examples")
    work = tempfile.mkdtemp(prefix="cgman.")
    for t in ("calc", "before", "after", "dual", "frames", "pools"):
        subprocess.run([tracegen, "-o", os.path.join(work, t + ".trace"),
                        os.path.join(descs, t + ".desc")], check=True)
    # Repeated runs: runs.desc with its program's settings completed, five
    # runs with timing noise in before/, five with one method slowed in after/.
    runs = open(os.path.join(descs, "runs.desc")).read()
    for side, extra, seed0 in (("before", "", 0), ("after", " slow=3:20", 10)):
        os.mkdir(os.path.join(work, side))
        for k in range(1, 6):
            subprocess.run([tracegen, "-o", os.path.join(work, side, "run%d.trace" % k), "-"],
                           input=(runs.rstrip("\n") + " jitter=%d%s\n" % (seed0 + k, extra)).encode(),
                           check=True)
    bindir = os.path.join(work, ".bin")
    os.mkdir(bindir)
    os.symlink(os.path.abspath(callgraph), os.path.join(bindir, "callgraph"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    examples = man_examples(man)
    check(len(examples) >= 10, "only %d examples in the man page" % len(examples))
    helps = help_examples(callgraph)
    check(len(helps) >= 3, "only %d examples at the end of --help" % len(helps))
    for cmd, want in examples + helps:
        where = "--help" if want is None else "man page"
        before = set(os.listdir(work))
        r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env,
                           capture_output=True)
        got = r.stdout.decode("utf-8", "replace").split("\n")
        if got and got[-1] == "":
            got.pop()
        ok = r.returncode == 0 and cmd.startswith("callgraph ")
        if ok and want is not None and got != want:
            diff = next(i for i in range(max(len(got), len(want)))
                        if i >= len(got) or i >= len(want) or got[i] != want[i])
            print("FAIL man: %s: line %d: got %r, the man page shows %r" %
                  (cmd, diff + 1, got[diff] if diff < len(got) else None,
                   want[diff] if diff < len(want) else None))
            ok = False
        for name in named_outputs(cmd):
            if not os.path.isfile(os.path.join(work, name)):
                print("FAIL man: %s: did not write %s" % (cmd, name))
                ok = False
        for name in sorted(set(os.listdir(work)) - before):
            ext = os.path.splitext(name)[1]
            data = open(os.path.join(work, name), "rb").read()
            try:
                good = KINDS[ext](data)
            except (KeyError, ValueError):
                good = False
            if not good:
                print("FAIL man: %s: %s is not a %s file" % (cmd, name, ext or "known"))
                ok = False
            os.unlink(os.path.join(work, name))
        if r.returncode != 0:
            print("FAIL man: %s: exit %d: %s" % (cmd, r.returncode,
                  r.stderr.decode("utf-8", "replace").strip()[:200]))
        check(ok, "%s example: %s" % (where, cmd))
    subprocess.run(["rm", "-rf", work])
    return check.summary()

sys.exit(main())
