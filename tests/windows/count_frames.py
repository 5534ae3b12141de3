#!/usr/bin/env python3
"""Count frames from a record dump, apart from callgraph's model.

usage: callgraph -q -o TRACE | count_frames.py [--walls] [METHOD]
Reads the dump's record lines (offset tid action cpu wall depth method...)
and counts (or, with --walls, lists the wall durations, one per line, in
order of their ends) per thread, the entries of METHOD (default
Choreographer.doFrame, any package separator, any overload) while no
activation of it is open on that thread.  An exit or unwind closes the
innermost open entry of its method and the entries above it; an exit of a
method that is not open is ignored.  Prints the count."""
import sys


def main():
    args = sys.argv[1:]
    walls = args[:1] == ["--walls"]
    if walls:
        args = args[1:]
    want = args[0] if args else "Choreographer.doFrame"
    stacks, count, durs = {}, 0, []
    for line in sys.stdin:
        f = line.split()
        if len(f) < 7 or f[2] not in ("ent", "xit", "unr", "ac3") or not f[0].isdigit():
            continue
        tid, act, name, wall = f[1], f[2], f[6].replace("/", "."), int(f[4])
        st = stacks.setdefault(tid, [])
        frame = name == want or name.endswith("." + want)
        if act == "ent":
            if frame and not any(s[1] for s in st):
                count += 1
            st.append((name, frame, wall))
            continue
        for d in range(len(st) - 1, -1, -1):
            if st[d][0] == name:
                durs += [wall - s[2] for s in st[d:] if s[1] and not any(u[1] for u in st[:st.index(s)])]
                del st[d:]
                break
    print("\n".join(map(str, durs)) if walls else count)


if __name__ == "__main__":
    main()
