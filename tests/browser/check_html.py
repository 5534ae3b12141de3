#!/usr/bin/env python3
"""check_html.py REPORT.html... - structural checks on callgraph HTML reports.

Parses each file with html.parser and checks: the document is UTF-8, starts
with <!DOCTYPE html>, every element the report emits is closed in order
(void elements and self-closed SVG elements aside), ids are unique, no
"http://" or "https://" appears anywhere, and the JSON data block parses.
When html5lib is installed (Debian: python3-html5lib), the file must also
parse with no HTML5 parse error.  Prints one "FAIL html" line per problem and
exits 1 if there is any."""
import json
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.problems = [], set(), []
        self.data_block, self.in_data = [], False

    def where(self):
        return "line %d col %d" % self.getpos()

    def handle_starttag(self, tag, attrs):
        self.check_attrs(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "script" and ("type", "application/json") in attrs:
            self.in_data = True
            self.data_block.append([])  # one per block (the timeline has its own)

    def handle_startendtag(self, tag, attrs):
        self.check_attrs(attrs)

    def check_attrs(self, attrs):
        for k, v in attrs:
            if k == "id":
                if v in self.ids:
                    self.problems.append("%s: duplicate id %r" % (self.where(), v))
                self.ids.add(v)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append("%s: </%s> closes %r" % (self.where(), tag,
                                 self.stack[-1] if self.stack else None))
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "script":
            self.in_data = False

    def handle_data(self, data):
        if self.in_data:
            self.data_block[-1].append(data)


def check(path):
    raw = open(path, "rb").read()
    problems = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return ["not UTF-8: %s" % e]
    if not text.startswith("<!DOCTYPE html>\n"):
        problems.append("does not start with <!DOCTYPE html>")
    for bad in ("http://", "https://"):
        if bad in text:
            problems.append("contains %r at %d" % (bad, text.index(bad)))
    c = Checker()
    c.feed(text)
    c.close()
    problems += c.problems
    if c.stack:
        problems.append("unclosed at end: %s" % c.stack)
    if not c.data_block:
        problems.append("no JSON data block")
    for block in c.data_block:
        try:
            json.loads("".join(block))
        except ValueError as e:
            problems.append("data block is not JSON: %s" % e)
    return problems


def main():
    bad = 0
    for path in sys.argv[1:]:
        for p in check(path):
            print("FAIL html %s: %s" % (path, p))
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
