#!/usr/bin/env python3
"""checkcat.py TRACE TLCAT.tsv PYCAT.tsv TLCAT.ndjson -- check tl-cat's output
against an independent reading of TRACE with Python's json module.

1. TLCAT.tsv and PYCAT.tsv (tests/tools/pycat.py) agree row by row, field by
   field; JSON columns compare as parsed JSON (numbers as their text), since
   Python re-encodes strings.  #top directives agree as a set (tl-cat writes
   them where they stand in the file, pycat after the rows), #end exactly.
   A rocprofv3 results file (tests/tools/pyrocprof.py) stands for the events
   tl-cat makes of its records.
2. The number of rows is len(traceEvents) as Python counts it, and the uids
   are 0..n-1, each once, in order.
3. Every NDJSON event line minus "uid" and "src" equals the original
   event: the same members in the same order, values equal, number text
   identical.  Directive lines match the TSV's.
Prints what differs and exits 1, or prints a summary and exits 0.
"""
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyrocprof  # noqa: E402

JSONCOLS = {"pid", "tid", "id", "dims", "types", "strides", "concrete", "args", "extra"}


class Num(str):
    pass


def loads(s):
    return json.loads(s, parse_float=Num, parse_int=Num, object_pairs_hook=list)


def untsv(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r", "0": "\0"}[s[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def norm(v):
    """Parsed JSON with object members as ordered pairs, numbers as text."""
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, tuple):
        return tuple(norm(x) for x in v)
    if isinstance(v, Num):
        return ("num", str(v))
    return v


def read_tsv(path):
    rows, tops, ends, sources = [], [], [], []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        kind = f.readline().rstrip("\n")
        cols = f.readline().rstrip("\n").split("\t")
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#top\t"):
                _, src, key, val = line.split("\t")
                tops.append((src, untsv(key), norm(loads(untsv(val)))))
            elif line.startswith("#end\t"):
                ends.append(line)
            elif line.startswith("#source\t"):
                sources.append(line)
            else:
                rows.append(dict(zip(cols, [untsv(x) for x in line.split("\t")])))
    return kind, cols, rows, tops, ends, sources


def field(col, v):
    if col in JSONCOLS and v != "":
        return norm(loads(v))
    return v


def main():
    trace, tl, py, nd = sys.argv[1:5]
    errs = []
    raw = open(trace, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Num, parse_int=Num, object_pairs_hook=list)
    if isinstance(doc, list) and (not doc or not isinstance(doc[0], tuple)):
        events = doc
    elif doc and doc[0][0] == pyrocprof.TOOL:
        # rocprofv3: the events tl-cat makes of its records
        events = pyrocprof.rocprof_doc(doc, Num)[0]
    else:
        events = dict(doc)["traceEvents"]
    a = read_tsv(tl)
    b = read_tsv(py)
    if a[0] != b[0] or a[1] != b[1]:
        errs.append("stream kind or header differs")
    if len(a[2]) != len(events):
        errs.append("tl-cat wrote %d rows, traceEvents has %d" % (len(a[2]), len(events)))
    uids = [int(r["uid"]) for r in a[2]]
    if uids != list(range(len(uids))):
        errs.append("uids are not 0..n-1 in order")
    for ra, rb in zip(a[2], b[2]):
        for col in a[1]:
            if field(col, ra.get(col, "")) != field(col, rb.get(col, "")):
                errs.append("uid %s column %s: tl-cat %r, pycat %r"
                            % (ra["uid"], col, ra.get(col), rb.get(col)))
                break
        if len(errs) > 10:
            break
    if sorted(map(repr, a[3])) != sorted(map(repr, b[3])):
        errs.append("#top directives differ")
    if a[4] != b[4]:
        errs.append("#end differs: %r vs %r" % (a[4], b[4]))
    n = 0
    with open(nd, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            obj = json.loads(line, parse_float=Num, parse_int=Num, object_pairs_hook=list)
            d = dict(obj)
            if "uid" not in d:
                continue
            if [k for k, _ in obj[:2]] != ["uid", "src"] or d["uid"] != str(n):
                errs.append("ndjson line %d: bad uid/src prefix" % n)
            elif norm(obj[2:]) != norm(events[n]):
                errs.append("ndjson uid %d differs from the trace's event" % n)
            n += 1
            if len(errs) > 10:
                break
    if n != len(events):
        errs.append("ndjson has %d events, traceEvents %d" % (n, len(events)))
    for e in errs:
        print(e)
    if errs:
        return 1
    print("%d events agree" % len(events))
    return 0


sys.exit(main())
