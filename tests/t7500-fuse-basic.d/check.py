"""Independent checks of a tl-fuse output, reading the JSON with python's json.

  check.py count FUSED [--no-filter] [--python] [--window S:E] RANK=FILE...
      the fused trace holds exactly the events TraceFusion keeps of each
      rank plus two process metadata events per kept process, counted here
      from the input files
  check.py pids FUSED      pids of different ranks never collide, every pid
                           is below 2^31, every named process has one rank
  check.py tracelens FUSED REF
                           every event equals TraceLens's merge() output
                           (tracelens-merge.json) but for the numbers each
                           renumbers its own way (pid, id, correlation,
                           External id), whose originals must agree
"""
import gzip
import json
import sys

GPU = ("kernel", "gpu_memcpy", "gpu_memset")
META = ("process_name", "process_sort_index", "process_labels")


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def kept(e, no_filter, python, window):
    if e.get("ph") == "M":
        return e.get("name") not in META
    if not no_filter and (e.get("cat") == "Trace" or (not python and e.get("cat") == "python_function")):
        return False
    ts = e.get("ts")
    if window and isinstance(ts, (int, float)):
        s, t = window
        if isinstance(e.get("dur"), (int, float)):
            return ts <= t and ts + e["dur"] >= s
        return s <= ts <= t
    return True


def count(argv):
    fused = load(argv[0])["traceEvents"]
    no_filter = "--no-filter" in argv
    python = "--python" in argv
    window = None
    ranks = []
    i = 1
    while i < len(argv):
        if argv[i] == "--window":
            s, t = argv[i + 1].split(":")
            window = (float(s), float(t))
            i += 1
        elif "=" in argv[i]:
            r, path = argv[i].split("=", 1)
            ranks.append((int(r), path))
        i += 1
    want = 0
    procs = set()
    for r, path in ranks:
        for e in load(path)["traceEvents"]:
            if kept(e, no_filter, python, window):
                want += 1
                if e.get("ph") != "M" and "pid" in e:
                    procs.add((r, json.dumps(e["pid"])))
    want += 2 * len(procs)
    if len(fused) != want:
        sys.exit("fused trace has %d events, the ranks give %d" % (len(fused), want))
    got_ranks = sorted({e["args"]["rank"] for e in fused if "rank" in e.get("args", {})})
    if got_ranks != sorted({r for r, _ in ranks}):
        sys.exit("ranks in the output %s, wanted %s" % (got_ranks, sorted({r for r, _ in ranks})))
    print("%d events" % want)


def pids(argv):
    fused = load(argv[0])["traceEvents"]
    rank_of = {}
    for e in fused:
        if "pid" not in e:
            continue
        p = e["pid"]
        if not isinstance(p, int) or not 0 <= p < 2 ** 31:
            sys.exit("pid %r is not an integer below 2^31" % (p,))
        if e.get("ph") == "M" and e.get("name") in META:
            continue
        r = e["args"]["rank"]
        if rank_of.setdefault(p, r) != r:
            sys.exit("pid %d holds events of ranks %d and %d" % (p, rank_of[p], r))
    named = {}
    for e in fused:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            p = e["pid"]
            if p in named:
                sys.exit("pid %d named twice" % p)
            named[p] = e["args"]["name"]
            if not named[p].startswith("RANK %d - " % rank_of.get(p, -1)):
                sys.exit("pid %d is named %r but holds rank %r" % (p, named[p], rank_of.get(p)))
    if set(named) != set(rank_of):
        sys.exit("processes without a name: %s" % sorted(set(rank_of) - set(named)))
    print("%d processes, %d ranks" % (len(named), len(set(rank_of.values()))))


RENUMBERED = ("pid", "id")
ARGS_RENUMBERED = ("correlation", "External id", "correlation_raw", "External id_raw")


def original(e, key, args):
    """The value before renumbering: the *_raw copy, else the value."""
    a = e.get("args", {})
    if key + "_raw" in a:
        return a[key + "_raw"]
    return a.get(key) if args else e.get(key)


def tracelens(argv):
    mine = [e for e in load(argv[0])["traceEvents"] if not (e.get("ph") == "M" and e.get("name") in META)]
    with open(argv[1]) as f:
        ref = [e for e in json.load(f) if not (e.get("ph") == "M" and e.get("name") in META)]
    if len(mine) != len(ref):
        sys.exit("%d events, TraceLens has %d" % (len(mine), len(ref)))
    for n, (a, b) in enumerate(zip(mine, ref)):
        for k in set(a) | set(b):
            if k in RENUMBERED:
                if original(a, k, False) != original(b, k, False):
                    sys.exit("event %d: original %s differs: %r %r" % (n, k, a, b))
            elif k == "args":
                for key in ("correlation", "External id"):
                    if original(a, key, True) != original(b, key, True):
                        sys.exit("event %d: original %s differs: %r %r" % (n, key, a, b))
                aa = {x: y for x, y in a["args"].items() if x not in ARGS_RENUMBERED}
                bb = {x: y for x, y in b["args"].items() if x not in ARGS_RENUMBERED}
                if aa != bb:
                    sys.exit("event %d: args differ: %r %r" % (n, aa, bb))
            elif a.get(k, KeyError) != b.get(k, KeyError):
                sys.exit("event %d: %s differs: %r %r" % (n, k, a, b))
    print("%d events as TraceLens" % len(mine))


{"count": count, "pids": pids, "tracelens": tracelens}[sys.argv[1]](sys.argv[2:])
