#!/usr/bin/python3
"""A variant of a trace for comparison tests: every kernel's dur grows
(ints by 3, floats by a quarter), nothing else changes.

usage: vary-durations.py IN.json.gz OUT.json.gz
"""
import gzip
import json
import sys

with gzip.open(sys.argv[1], "rt") as fp:
    doc = json.load(fp)
for e in doc["traceEvents"]:
    if e.get("cat") == "kernel" and "dur" in e:
        e["dur"] = e["dur"] * 1.25 if isinstance(e["dur"], float) else e["dur"] + 3
with gzip.GzipFile(sys.argv[2], "wb", mtime=0) as fp:
    fp.write(json.dumps(doc).encode())
