#!/usr/bin/env python3
"""pycat.py TRACE[.json|.json.gz] -- an independent, slow reference for tl-cat.

Writes the tl-events 1 stream of tl-stream(5) from Python's json module.
Tests use it as an oracle: rows must agree with tl-cat's field by field
(JSON columns compared as parsed values, since Python re-encodes strings).
"""
import gzip, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyrocprof  # noqa: E402

COLS = ["uid", "src", "ph", "cat", "name", "pid", "tid", "ts", "dur", "id",
        "corr", "ext", "seq", "stream", "device", "dims", "types", "strides",
        "concrete", "args", "extra"]
ARGCOLS = [("corr", "correlation"), ("ext", "External id"),
           ("seq", "Sequence number"), ("stream", "stream"), ("device", "device")]
JSONCOLS = [("dims", "Input Dims"), ("types", "Input type"),
            ("strides", "Input Strides"), ("concrete", "Concrete Inputs")]


class Num(str):
    """A JSON number kept as its source text."""


def enc(v):
    if isinstance(v, Num):
        return str(v)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + enc(x)
                              for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(enc(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def todict(v):
    """Ordered (key, value) pairs (pyrocprof's objects) back to dicts."""
    if isinstance(v, list) and v and all(isinstance(x, tuple) for x in v):
        return {k: todict(x) for k, x in v}
    if isinstance(v, list):
        return [todict(x) for x in v]
    return v


def tsv(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
             .replace("\r", "\\r").replace("\0", "\\0"))


def row(uid, src, e):
    e = dict(e)
    out = {"uid": str(uid), "src": str(src)}
    for k in ("ph", "cat", "name"):
        if isinstance(e.get(k), str) and not isinstance(e[k], Num) and e[k]:
            out[k] = e.pop(k)
    for k in ("pid", "tid", "id"):
        if k in e and not isinstance(e[k], (dict, list)):
            out[k] = enc(e.pop(k))
    for k in ("ts", "dur"):
        if isinstance(e.get(k), Num):
            out[k] = e.pop(k)
    args = e.pop("args", None)
    if isinstance(args, dict):
        args = dict(args)
        for col, key in ARGCOLS:
            if isinstance(args.get(key), Num):
                out[col] = args.pop(key)
        for col, key in JSONCOLS:
            if key in args:
                out[col] = enc(args.pop(key))
        out["args"] = enc(args)
    elif args is not None:
        e["args"] = args
    if e:
        out["extra"] = enc(e)
    return "\t".join(tsv(out.get(c, "")) for c in COLS)


def main():
    w = sys.stdout.write
    w("#tl-events 1\n" + "\t".join(COLS) + "\n")
    for src, path in enumerate(sys.argv[1:]):
        raw = open(path, "rb").read()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        doc = json.loads(raw, parse_float=Num, parse_int=Num)
        w("#source\t%d\t%s\n" % (src, tsv(path)))
        if isinstance(doc, dict) and next(iter(doc), None) == pyrocprof.TOOL:
            pairs = json.loads(raw, parse_float=Num, parse_int=Num,
                               object_pairs_hook=list)
            events, tops = pyrocprof.rocprof_doc(pairs, Num)
            for uid, e in enumerate(events):
                w(row(uid, src, todict(e)) + "\n")
            for k, v in tops:
                w("#top\t%d\t%s\t%s\n" % (src, tsv(k), tsv(enc(todict(v)))))
            w("#end\t%d\t%d\t0\n" % (src, len(events)))
            continue
        events = doc["traceEvents"] if isinstance(doc, dict) else doc
        for uid, e in enumerate(events):
            w(row(uid, src, e) + "\n")
        if isinstance(doc, dict):
            for k, v in doc.items():
                if k != "traceEvents":
                    w("#top\t%d\t%s\t%s\n" % (src, tsv(k), tsv(enc(v))))
        w("#end\t%d\t%d\t0\n" % (src, len(events)))


main()
