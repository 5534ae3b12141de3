#!/usr/bin/env python3
"""graph_check.py - the default call graph of a trace, checked against the
profile's own numbers (--json), for the all-threads view and for the view of
the busiest thread.

  graph_check.py CALLGRAPH TRACE...            check; "graph-check: N passed, N failed"
  graph_check.py --measure CALLGRAPH TRACE...  one table row per trace (no checks;
                                               CG_GRAPH_ARGS adds options to every run)

Checks, each against numbers read from --json (never from the graph):
  - every method whose exclusive time is at least 1 % of the view total and
    that is not waiting is a node of the SVG (id m0x<id>);
  - no node's inclusive time is below the node fraction (0.5 %) of the total,
    and no thread root is at 0 ms;
  - at most 80 nodes (the legend aside); the PNG's longer side <= 4000 px;
  - at most 12 thread roots; a root that stands for several threads (a pool,
    the idle threads: class "thread pool" or "thread idle") lists its
    threads' ids in its tooltip, and its label's times are the sums of those
    threads' inclusive times on both clocks;
  - waiting methods never take the temperature scale: a node of a method that
    is waiting carries the SVG class cg-waiting and no cg-heat-N class.
    Waiting is decided here independently of callgraph: on a dual-clock trace
    whose model carries both clocks (JSON "clocks": ["cpu", "wall"]), a method
    whose cpu inclusive time (a --clock cpu run) is at most 10 % of its wall
    inclusive time (a --clock wall run); otherwise the known blocking methods
    below.
"""
import html
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

NODE_PCT = 0.5
MAX_NODES = 80
MAX_SIDE = 4000
MAX_ROOTS = 12

# Known blocking methods (class, name; a trailing * is a prefix).
BLOCKING = [
    ("java.lang.Object", "wait"), ("java.lang.Thread", "sleep"), ("java.lang.Thread", "join"),
    ("java.lang.Thread", "parkFor$"), ("java.lang.VMThread", "sleep"),
    ("android.os.SystemClock", "sleep"), ("sun.misc.Unsafe", "park"),
    ("jdk.internal.misc.Unsafe", "park"), ("java.util.concurrent.locks.LockSupport", "park*"),
    ("android.os.MessageQueue", "nativePollOnce"), ("android.os.BinderProxy", "transactNative"),
    ("android.os.BinderProxy", "transact"), ("libcore.io.Linux", "poll"),
    ("libcore.io.Linux", "accept"), ("libcore.io.Linux", "recvfrom"),
    ("java.net.SocketInputStream", "socketRead0"),
]


def blocking(m):
    klass = m["class"].replace("/", ".")
    for c, n in BLOCKING:
        if klass == c and (m["name"] == n or (n.endswith("*") and m["name"].startswith(n[:-1]))):
            return True
    return False


def norm_id(text):
    """A JSON method id ("0x1a4", or "0" as some keys write it) as the SVG
    node ids spell it: lower-case hex after 0x."""
    return "0x%x" % int(text, 16)


def run(args):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode,
                                                r.stderr.decode("utf-8", "replace").strip()))
    return r.stdout


def profile(cg, trace, extra, clock=None):
    args = [cg, "-q", "--json", "-"] + extra + ([] if clock is None else ["--clock", clock]) + [trace]
    return json.loads(run(args).decode("utf-8", "replace"))


def svg_nodes(svg):
    """id -> set of classes, for every node group; and the edges (tail, head, classes)."""
    nodes, edges = {}, []
    for m in re.finditer(r'<g id="([^"]*)" class="([^"]*)">\s*<title>([^<]*)</title>', svg):
        gid, cls, title = m.group(1), html.unescape(m.group(2)).split(), html.unescape(m.group(3))
        if "node" in cls:
            nodes[gid] = set(cls)
        elif "edge" in cls and "->" in title:
            t, h = title.split("->", 1)
            edges.append((t, h, set(cls)))
    return nodes, edges


def ms(us):
    """Microseconds as milliseconds with three decimals, from the integers."""
    return "%d.%03d" % divmod(us, 1000)


def svg_roots(svg):
    """Thread-root nodes: id -> (member tids, the lines of the label)."""
    roots = {}
    for m in re.finditer(r'<g id="([^"]*)" class="node thread[^"]*">\s*<title>[^<]*</title>\s*'
                         r'<g id="a_[^"]*"><a xlink:title="([^"]*)">(.*?)</a>', svg, re.S):
        gid, tip = m.group(1), html.unescape(m.group(2))
        texts = [html.unescape(t) for t in re.findall(r'<text[^>]*>([^<]*)</text>', m.group(3))]
        if gid.startswith("t"):
            tids = [int(gid[1:])]
        else:
            tids = [int(t) for t in re.findall(r"\(tid (\d+)\)", tip)]
        roots[gid] = (tids, texts)
    return roots


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise RuntimeError("not a PNG")
    return struct.unpack(">II", data[16:24])


class View:
    """A view: its JSON (primary clock), waiting methods, its graph."""

    def __init__(self, cg, trace, extra, tmp):
        self.j = profile(cg, trace, extra)
        self.total = self.j["total_us"]
        self.methods = {norm_id(m["id"]): m for m in self.j["methods"]}
        self.threads = {"t%d" % t["tid"]: t for t in self.j["threads"]}
        dual = self.j["trace"].get("clock") == "dual" and "clocks" in self.j["trace"] and \
            len(self.j["trace"]["clocks"]) == 2
        if dual:
            wall = {norm_id(m["id"]): m["inclusive_us"] for m in profile(cg, trace, extra, "wall")["methods"]}
            cpu = {norm_id(m["id"]): m["inclusive_us"] for m in profile(cg, trace, extra, "cpu")["methods"]}
            self.waiting = {i for i in self.methods
                            if wall.get(i, 0) > 0 and cpu.get(i, 0) * 100 <= wall[i] * 10}
            self.rule = "off-CPU"
        else:
            self.waiting = {i for i, m in self.methods.items() if blocking(m)}
            self.rule = "known blocking methods"
        svg = run([cg, "-q", "-g", "-", "-T", "svg"] + extra + [trace]).decode("utf-8", "replace")
        self.nodes, self.edges = svg_nodes(svg)
        self.roots = svg_roots(svg)
        self.by_tid = {t["tid"]: t for t in self.j["threads"]}
        m = re.search(r'class="graph" transform="scale\(([0-9.]+)', svg)
        self.scale = float(m.group(1)) if m else 1.0
        self.nodes.pop("legend", None)
        self.png = png_size(run([cg, "-q", "-g", "-", "-T", "png"] + extra + [trace]))

    def method_of(self, gid):
        """The JSON method a node stands for (a chain: its first frame)."""
        if gid.startswith("m0x") or gid.startswith("c0x"):
            return self.methods.get(gid[1:])
        return None

    def must_show(self):
        return sorted(i for i, m in self.methods.items()
                      if m["exclusive_us"] * 100 >= self.total and i not in self.waiting)

    def missing(self):
        return [i for i in self.must_show() if "m" + i not in self.nodes]

    def root_us(self, gid, key="inclusive_us"):
        """The summed time of a root's threads, or None when it is no root of the view."""
        if gid not in self.roots or not self.roots[gid][0]:
            return None
        tids = self.roots[gid][0]
        if any(t not in self.by_tid for t in tids):
            return None
        return sum(self.by_tid[t][key] for t in tids)

    def zero_roots(self):
        return [g for g in self.roots if self.root_us(g) == 0]

    def root_problems(self):
        """A merged root's label against its threads' summed times."""
        out = []
        clocks = self.j["trace"].get("clocks", [])
        for g, (tids, texts) in sorted(self.roots.items()):
            if g.startswith("t") or self.root_us(g) is None:
                continue
            want = "%s ms (" % ms(self.root_us(g))
            if not any(t.startswith(want) for t in texts):
                out.append("root %s: no label line %r in %s" % (g, want, texts))
            if len(clocks) == 2:
                other = [c for c in clocks if c != self.j["trace"].get("clock_used")]
                if other:
                    o = "%s %s ms" % (other[0], ms(self.root_us(g, other[0] + "_inclusive_us")))
                    if o not in texts:
                        out.append("root %s: no label line %r in %s" % (g, o, texts))
        return out

    def pass_through(self):
        """Drawn method or chain nodes with one caller, one callee and at most
        1 % of their time as self time (edge direction from the edge classes:
        "back" marks an edge drawn callee -> caller)."""
        ins, outs = {}, {}
        for t, h, cls in self.edges:
            if "back" in cls:
                t, h = h, t
            if t == h:
                continue
            outs.setdefault(t, set()).add(h)
            ins.setdefault(h, set()).add(t)
        n = 0
        for g in self.nodes:
            m = self.method_of(g)
            if m and len(ins.get(g, ())) == 1 and len(outs.get(g, ())) == 1 and \
                    m["exclusive_us"] * 100 <= m["inclusive_us"]:
                n += 1
        return n


def views(cg, trace, tmp, extra=()):
    extra = list(extra)
    allv = View(cg, trace, extra, tmp)
    busiest = max(allv.j["threads"], key=lambda t: (t["inclusive_us"], -t["tid"]), default=None)
    out = [("all threads", allv)]
    if busiest is not None and len(allv.j["threads"]) > 1:
        out.append(("thread %d" % busiest["tid"],
                    View(cg, trace, extra + ["--thread", str(busiest["tid"])], tmp)))
    return out


def check(cg, traces):
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for trace in traces:
            name = os.path.basename(trace)
            try:
                vs = views(cg, trace, tmp)
            except RuntimeError as e:
                print("FAIL graph-check %s: %s" % (name, e))
                failed += 1
                continue
            for label, v in vs:
                problems = []
                miss = v.missing()
                if miss:
                    problems.append("missing methods with >= 1%% self time: %s" % ", ".join(
                        "%s %s.%s %d us" % (i, v.methods[i]["class"], v.methods[i]["name"],
                                            v.methods[i]["exclusive_us"]) for i in miss))
                for g in sorted(v.nodes):
                    m = v.method_of(g)
                    us = m["inclusive_us"] if m else v.root_us(g)
                    if us is None:
                        problems.append("node %s is neither a method nor a thread of the view" % g)
                    elif us * 100 < NODE_PCT * v.total:
                        problems.append("node %s has %d us, below %g%% of %d us" % (g, us, NODE_PCT, v.total))
                    if m and norm_id(m["id"]) in v.waiting and ("cg-waiting" not in v.nodes[g] or
                                                       any(c.startswith("cg-heat") for c in v.nodes[g])):
                        problems.append("waiting node %s (%s.%s, %s) has classes %s" % (
                            g, m["class"], m["name"], v.rule, " ".join(sorted(v.nodes[g]))))
                if v.zero_roots():
                    problems.append("thread roots at 0 ms: %s" % " ".join(v.zero_roots()))
                if len(v.roots) > MAX_ROOTS:
                    problems.append("%d thread roots, more than %d" % (len(v.roots), MAX_ROOTS))
                problems += v.root_problems()
                if len(v.nodes) > MAX_NODES:
                    problems.append("%d nodes, more than %d" % (len(v.nodes), MAX_NODES))
                if max(v.png) > MAX_SIDE:
                    problems.append("PNG %dx%d, longer side above %d px" % (v.png[0], v.png[1], MAX_SIDE))
                if problems:
                    failed += 1
                    for p in problems:
                        print("FAIL graph-check %s (%s): %s" % (name, label, p))
                else:
                    passed += 1
    print("graph-check: %d passed, %d failed" % (passed, failed))
    return failed == 0


def measure(cg, traces, extra):
    print("| trace | nodes | thread roots | method nodes | PNG px (scale) | missing >=1% self (all / busiest) | pass-through | 0 ms roots |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for trace in traces:
            name = os.path.basename(trace)
            try:
                vs = views(cg, trace, tmp, extra)
            except RuntimeError as e:
                print("| %s | error: %s |" % (name, str(e)[:80]))
                continue
            v = vs[0][1]
            miss = " / ".join("%d of %d" % (len(x.missing()), len(x.must_show())) for _, x in vs)
            mnodes = sum(1 for g in v.nodes if v.method_of(g))
            pt = v.pass_through()
            print("| %s | %d | %d | %d | %dx%d (%.2f) | %s | %d of %d (%d %%) | %d |" % (
                name, len(v.nodes), len(v.roots), mnodes, v.png[0], v.png[1], v.scale, miss, pt, mnodes,
                round(100 * pt / mnodes) if mnodes else 0, len(v.zero_roots())))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0] == "--measure":
        # Extra callgraph options for every run: CG_GRAPH_ARGS="--node-fraction 1%".
        measure(a[1], a[2:], os.environ.get("CG_GRAPH_ARGS", "").split())
        sys.exit(0)
    if len(a) < 2:
        sys.exit("usage: graph_check.py [--measure] CALLGRAPH TRACE...")
    sys.exit(0 if check(a[0], a[1:]) else 1)
