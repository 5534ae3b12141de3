#!/usr/bin/env python3
"""Compare callgraph's --clock cpu JSON with dmtracedump's text report.

usage: dmtracedump_compare.py CALLGRAPH_JSON DMTRACEDUMP_TXT(.gz)

dmtracedump reads the first time field (thread CPU on dual-clock traces) and
merges all threads; callgraph --clock cpu must give the same per-method
inclusive time, exclusive time and calls N+R.  Prints one line per mismatch
and a closing "N passed, N failed" line (one check per method)."""
import gzip, json, re, sys

def opener(path):
    return gzip.open(path, "rt", errors="replace") if path.endswith(".gz") else open(path, errors="replace")

def key(cls, name, sig):
    return (cls.replace("/", "."), name, sig)

def parse_dmtracedump(path):
    incl, excl = {}, {}
    section = None
    row = re.compile(r"^\[(\d+)\]\s+([\d.]+)%\s+(\d+)\+(\d+)\s+(\d+)\s+(.*)$")
    erow = re.compile(r"^\s*(\d+)\s+[\d.]+\s+[\d.]+\s+\[(\d+)\]\s+(.*)$")
    for line in opener(path):
        line = line.rstrip("\n")
        if line.startswith("Exclusive elapsed times"):
            section = "excl"
        elif line.startswith("Inclusive elapsed times"):
            section = "incl"
        elif line.startswith("Exclusive elapsed time for each class") or line.startswith("Exclusive elapsed time for each method"):
            section = None
        if section == "incl":
            m = row.match(line)
            if m:
                name = m.group(6).split("\t")[0]
                incl[name] = (int(m.group(5)), int(m.group(3)), int(m.group(4)))
        elif section == "excl":
            m = erow.match(line)
            if m:
                excl[m.group(3).split("\t")[0]] = int(m.group(1))
    return incl, excl

def main():
    data = json.load(open(sys.argv[1]))
    incl, excl = parse_dmtracedump(sys.argv[2])
    ours = {}
    for m in data["methods"]:
        cls = m["class"].replace("/", ".")
        label = "%s.%s %s" % (cls, m["name"], m["signature"]) if m["signature"] else "%s.%s" % (cls, m["name"])
        ours[label] = m
    passed = failed = 0
    for label, (i_us, calls, rec) in sorted(incl.items()):
        if label in ("(toplevel)",) or label.startswith("(unknown)"):
            continue
        m = ours.get(label)
        if m is None:
            print("MISSING", label); failed += 1; continue
        got = (m["inclusive_us"], m["calls"], m["recursive_calls"], m["exclusive_us"])
        want = (i_us, calls, rec, excl.get(label, 0))
        if got != want:
            print("DIFF %s: ours incl,calls,rec,excl=%s dmtracedump=%s" % (label, got, want)); failed += 1
        else:
            passed += 1
    total = sum(t["inclusive_us"] for t in data["threads"])
    print("dmtracedump %s: %d passed, %d failed" % (sys.argv[2].split("/")[-1], passed, failed))
    return 1 if failed else 0

sys.exit(main())
