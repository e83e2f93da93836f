#!/usr/bin/python3
"""Digest of a split's output directory, to compare tl-split with TraceLens.

usage: split-digest.py INPUT_TRACE DIR

Every file under DIR, by sorted path: a trace (*.json.gz) as its top-level
keys in order (values as sorted compact JSON) and its traceEvents as the
positions of equal events in INPUT_TRACE (an event not in the input is
printed whole); any other file verbatim.
"""
import gzip
import json
import os
import sys


def canon(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


inp, top = sys.argv[1], sys.argv[2]
with gzip.open(inp, "rt") as fp:
    events = json.load(fp)["traceEvents"]
where = {}
for i, e in enumerate(events):
    where.setdefault(canon(e), []).append(i)

paths = []
for d, _, files in os.walk(top):
    for f in files:
        paths.append(os.path.relpath(os.path.join(d, f), top))
for p in sorted(paths):
    full = os.path.join(top, p)
    print("==", p)
    if p.endswith(".json.gz"):
        with gzip.open(full, "rt") as fp:
            doc = json.load(fp)
        for k, v in doc.items():
            if k != "traceEvents":
                print("key", k, canon(v))
                continue
            print("key traceEvents", len(v))
            line = []
            for e in v:
                c = canon(e)
                line.append(str(where[c][0]) if c in where else "NEW " + c)
            print(" ".join(line))
    else:
        with open(full, encoding="utf-8") as fp:
            sys.stdout.write(fp.read())
        print()
