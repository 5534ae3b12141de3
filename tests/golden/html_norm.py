#!/usr/bin/env python3
"""html_norm.py FILE ASSET_DIR: print FILE with the body of every <style> and
every <script> without a type (the report's code) replaced by the name of the
file of ASSET_DIR it equals, e.g. "<script>[report.js]</script>", so that the
golden files of HTML reports hold their data and structure (tables, SVG,
JSON data blocks) and do not change when a script or style does.  A body
that equals no asset file (code outside src/render/report/assets, or changed by the
embedding) is kept as it is, so the golden comparison shows it."""
import os, re, sys

def main():
    path, assets = sys.argv[1], sys.argv[2]
    text = open(path, "rb").read()
    files = {}
    for name in sorted(os.listdir(assets)):
        if name.endswith((".js", ".css")):
            body = open(os.path.join(assets, name), "rb").read()
            files.setdefault(body.strip(), name)
    def repl(m):
        name = files.get(m.group(2).strip())
        if name is None:
            return m.group(0)
        return m.group(1) + b"[" + name.encode() + b"]" + m.group(3)
    out = re.sub(rb"(<script>|<style>)(.*?)(</script>|</style>)", repl, text, flags=re.S)
    sys.stdout.buffer.write(out)

main()
