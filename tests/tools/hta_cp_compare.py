#!/usr/bin/python3
"""hta_cp_compare.py OUT_DIR REF_DIR -- judge tl-idle's critical path against HTA's.

HTA writes critical_path_breakdown.csv in the iteration order of a Python set
and numbers the "cat" column in the order of another set: both change from run
to run (string hashing is randomised).  So this compares:
  * critical_path_summary.csv: byte for byte;
  * critical_path_breakdown.csv: the same header, and the same rows as a
    multiset once "cat" is left out; and "cat" numbers the same categories
    alike (a one-to-one map between tl's numbers and HTA's);
  * overlaid_critical_path_*.json.gz: the same top-level keys and values, the
    same events in the same order (flows aside) as parsed JSON, and the same
    flows as a multiset of (start, end) pairs with the flow id left out (HTA
    numbers them in its set order).
Prints what differs; exit 0 iff all match.  Python standard library only.
"""
import csv, glob, gzip, json, os, sys
from collections import Counter

def fail(msg):
    print("FAIL " + msg)
    return 1

def breakdown(out, ref):
    a = list(csv.reader(open(out, newline="")))
    b = list(csv.reader(open(ref, newline="")))
    if a[0] != b[0]:
        return fail("breakdown header %s != %s" % (a[0], b[0]))
    ci = a[0].index("cat")
    drop = lambda r: tuple(x for i, x in enumerate(r) if i != ci)
    ca, cb = Counter(map(drop, a[1:])), Counter(map(drop, b[1:]))
    if ca != cb:
        print("FAIL breakdown rows differ (cat left out)")
        for r, n in (ca - cb).items():
            print("  only tl  %dx %s" % (n, ",".join(r)))
        for r, n in (cb - ca).items():
            print("  only HTA %dx %s" % (n, ",".join(r)))
        return 1
    # cat: the rows of one attributed event carry one number on each side
    ei = a[0].index("event_idx")
    ma = {r[ei]: r[ci] for r in a[1:]}
    mb = {r[ei]: r[ci] for r in b[1:]}
    pairs = {(ma[k], mb[k]) for k in ma}
    if len({p[0] for p in pairs}) != len(pairs) or len({p[1] for p in pairs}) != len(pairs):
        return fail("breakdown cat numbers do not map one to one: %s" % sorted(pairs))
    print("PASS critical_path_breakdown.csv rows=%d" % (len(a) - 1))
    return 0

def load(path):
    # HTA gzips whatever the name; tl writes gzip only to a name ending in .gz
    raw = open(path, "rb").read()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)

def overlay(out, ref):
    a, b = load(out), load(ref)
    if set(a) != set(b):
        return fail("overlay top-level keys %s != %s" % (sorted(a), sorted(b)))
    for k in a:
        if k != "traceEvents" and a[k] != b[k]:
            return fail("overlay key %r differs" % k)
    isflow = lambda e: e.get("cat") == "critical_path"
    ea = [e for e in a["traceEvents"] if not isflow(e)]
    eb = [e for e in b["traceEvents"] if not isflow(e)]
    if ea != eb:
        for i, (x, y) in enumerate(zip(ea, eb)):
            if x != y:
                return fail("overlay event %d: tl %s HTA %s" % (i, x, y))
        return fail("overlay has %d events, HTA %d" % (len(ea), len(eb)))
    def flows(evs):
        by = {}
        for e in evs:
            if isflow(e):
                by.setdefault(e["id"], []).append({k: v for k, v in e.items() if k != "id"})
        return Counter(json.dumps(sorted(v, key=lambda x: x["ph"] == "f"), sort_keys=True)
                       for v in by.values())
    fa, fb = flows(a["traceEvents"]), flows(b["traceEvents"])
    if fa != fb:
        print("FAIL overlay flows differ")
        for r, n in (fa - fb).items():
            print("  only tl  %dx %s" % (n, r))
        for r, n in (fb - fa).items():
            print("  only HTA %dx %s" % (n, r))
        return 1
    print("PASS overlay events=%d flows=%d" % (len(ea), sum(fa.values())))
    return 0

def main():
    out, ref = sys.argv[1:3]
    bad = 0
    s_out = open(os.path.join(out, "critical_path_summary.csv"), "rb").read()
    s_ref = open(os.path.join(ref, "critical_path_summary.csv"), "rb").read()
    if s_out != s_ref:
        bad += fail("critical_path_summary.csv differs:\n%s---\n%s" % (s_out.decode(), s_ref.decode()))
    else:
        print("PASS critical_path_summary.csv")
    bad += breakdown(os.path.join(out, "critical_path_breakdown.csv"),
                     os.path.join(ref, "critical_path_breakdown.csv"))
    ro = glob.glob(os.path.join(ref, "overlaid_critical_path_*"))
    oo = glob.glob(os.path.join(out, "overlaid_critical_path_*"))
    if len(ro) == 1:
        if [os.path.basename(x) for x in oo] != [os.path.basename(ro[0])]:
            bad += fail("overlay file %s, want %s" % (oo, os.path.basename(ro[0])))
        else:
            bad += overlay(oo[0], ro[0])
    print("%d failed" % bad)
    sys.exit(1 if bad else 0)

main()
