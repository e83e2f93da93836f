#!/usr/bin/env python3
"""pytree.py [--python] [--print [--prune]] TRACE[.json|.json.gz] -- an oracle for tl-tree.

A direct transcription of TraceLens's Trace2Tree (spec tracelens-core.md
§2.1-§2.6, §4.4) on the trace JSON itself, with no tl code in between.
Writes one line per event:  uid parent depth tree root drop link fwd bwd
gpu_n kernel_direct_us gpu_busy_us launcher kernel_direct_n  (tab
separated, "" = absent), the same values tl-tree appends to each row.
The link words are tl-tree's; the rest is TraceLens's own logic.
With --print it prints every cpu_op root (ts order) the way TraceLens's
traverse_subtree_and_print does (--prune: prune_non_gpu; then roots
without GPU events are left out, as tl-tree does).
"""
import gzip, json, re, sys

GPU = {"kernel", "gpu_memcpy", "gpu_memset"}
RUNTIME = {"cuda_runtime", "cuda_driver"}


def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def busy(evs):
    iv = sorted((e["ts"], e["t_end"]) for e in evs if "t_end" in e)
    merged = []
    for s, e in iv:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return float(sum(e - s for s, e in merged))


def show(events, node, prune, prefix, last):
    """TraceLens's _traverse_subtree_recursive, cpu_op_fields=()"""
    name = node.get("name", "Unknown")
    if len(name) > 64:
        name = name[:64] + ".."
    line = "%s%sUID: %s, Category: %s, Name: %s" % (
        prefix, "\u2514\u2500\u2500 " if last else "\u251c\u2500\u2500 ", node["UID"], node.get("cat"), name)
    if node.get("cat") in GPU:
        line += ", Duration: %s" % (node.get("dur"),)
    print(line)
    kids = [events[u] for u in node.get("children", [])]
    if prune:
        kids = [k for k in kids if k.get("cat") in GPU or k.get("gpu_events")]
    for i, k in enumerate(kids):
        show(events, k, prune, prefix + ("    " if last else "\u2502   "), i == len(kids) - 1)


def fmt(x):
    return "" if x is None else repr(x) if isinstance(x, float) else str(x)


def main():
    args = sys.argv[1:]
    python = "--python" in args
    path = [a for a in args if not a.startswith("--")][0]
    events = [dict(e, UID=i) for i, e in enumerate(load(path))]
    for e in events:
        if "ts" in e and "dur" in e:
            e["t_end"] = e["ts"] + e["dur"]
    launch = next((e for e in events if e.get("cat") in RUNTIME
                   and "launch" in e.get("name", "").lower()), None)
    key = "correlation" if launch is not None and "correlation" in launch.get("args", {}) \
        else "External id"
    start, end, ptl, seqmap, by_link = {}, {}, {}, {}, {}
    for e in events:
        if e.get("cat") == "ac2g":
            if "id" in e:
                (start if e.get("ph") == "s" else end if e.get("ph") == "f" else {})[e["id"]] = e
            continue
        a = e.get("args")
        if a is None:
            continue
        if e.get("cat") in GPU and a.get(key) is not None:
            by_link.setdefault(a[key], []).append(e)
        if None not in (e.get("pid"), e.get("tid"), a.get(key)):
            ptl[(e["pid"], e["tid"], a[key])] = e
        if a.get("Sequence number") is not None:
            seqmap.setdefault(a["Sequence number"], []).append(e["UID"])
    # §2.3 host call stacks
    cats = {"cpu_op", "cuda_runtime", "cuda_driver"} | ({"python_function"} if python else set())
    host = sorted((e for e in events if e.get("cat") in cats and "t_end" in e), key=lambda e: e["ts"])
    stacks, ncpu, roots = {}, {}, []
    for e in host:
        e["tree"] = True
        k = (e.get("pid"), e.get("tid"))
        st = stacks.setdefault(k, [])

        def pop():
            p = st.pop()
            if p["cat"] == "cpu_op":
                ncpu[k] -= 1
        while st and e["ts"] >= st[-1]["t_end"]:
            pop()
        if st and e["t_end"] > st[-1]["t_end"]:
            if st[-1]["t_end"] - e["ts"] < 1.0 and len(st) >= 2:
                pop()
            else:
                e["drop"] = True
                continue
        if st:
            st[-1].setdefault("children", []).append(e["UID"])
            e["parent"] = st[-1]["UID"]
        st.append(e)
        if e["cat"] == "cpu_op":
            if ncpu.get(k, 0) == 0:
                e["cpu_op_root"] = True
                roots.append(e)
            ncpu[k] = ncpu.get(k, 0) + 1
    # §2.4 linking
    hostcats = {"cpu_op", "cuda_runtime", "cuda_driver", "python_function"}
    for r in events:
        if r.get("cat") not in RUNTIME:
            continue
        a = r.get("args") or {}
        link = a.get(key)
        gpus = []
        if link is None:
            r["link"] = "no-key"
        elif r.get("name") in ("cudaGraphLaunch", "hipGraphLaunch"):
            gpus = by_link.get(link, [])
            r["link"] = "graph" if gpus else "no-gpu-event"
        elif link not in start:
            r["link"] = "no-s-flow"
        elif link not in end:
            r["link"] = "no-f-flow"
        else:
            f = end[link]
            g = ptl.get((f.get("pid"), f.get("tid"), f["id"]))
            if g is None:
                r["link"] = "no-gpu-event"
            elif g.get("cat") in hostcats:
                r["link"] = "host-target"   # TraceLens would loop; tl refuses
            else:
                gpus = [g]
                r["link"] = "linked"
        for g in gpus:
            r.setdefault("children", []).append(g["UID"])
            g["parent"] = r["UID"]
            g["tree"] = True
            g["link"] = r["link"]
            r.setdefault("gpu_events", []).append(g["UID"])
            p = r.get("parent")
            while p is not None:
                events[p].setdefault("gpu_events", []).append(g["UID"])
                p = events[p].get("parent")
    # §2.6 fwd/bwd
    for seq, uids in seqmap.items():
        bwd = next((events[u] for u in uids if events[u].get("name", "")
                    .startswith("autograd::engine::evaluate_function:")), None)
        if bwd is None:
            continue
        fwd, best = None, -1
        for u in uids:
            e = events[u]
            if (e.get("pid"), e.get("tid")) != (bwd.get("pid"), bwd.get("tid")) and e.get("ts", 0) > best:
                fwd, best = e, e.get("ts", 0)
        if fwd is not None:
            bwd["fwd_event"] = fwd["UID"]
            fwd.setdefault("bwd_events", []).append(bwd["UID"])
    # §4.4 launchers
    direct = {}
    for k in events:
        if k.get("cat") not in GPU or re.search("nccl|rccl|cross_device_reduce", k.get("name", ""), re.I):
            continue
        r = k.get("parent")
        if r is None:
            continue
        cur, leaf = events[r].get("parent"), None
        while cur is not None:
            c = events[cur]
            if c["cat"] == "cpu_op":
                if c["name"] == "execute":
                    cur = c.get("parent")
                    continue
                leaf = cur
                break
            elif c["cat"] == "python_function":
                cur = c.get("parent")
            else:
                break
        k["launcher"] = r if leaf is None else leaf
        direct.setdefault(k["launcher"], []).append(k)
    if "--print" in args:
        prune = "--prune" in args
        for r in roots:
            if not prune or r.get("gpu_events"):
                show(events, r, prune, "", True)
        return
    # depth
    def depth(e):
        d = 0
        while e.get("parent") is not None:
            e = events[e["parent"]]
            d += 1
        return d
    out = sys.stdout.write
    for e in events:
        tree = e.get("tree", False)
        ishost = tree and e.get("cat") in cats and "t_end" in e
        kd = direct.get(e["UID"])
        cols = [e["UID"], e.get("parent"), depth(e) if tree else None,
                int(tree), int(e.get("cpu_op_root", False)), int(e.get("drop", False)),
                e.get("link", "unlinked" if e.get("cat") in GPU else ""),
                e.get("fwd_event"), ",".join(map(str, e.get("bwd_events", []))) or None,
                len(e.get("gpu_events", [])) if ishost else None,
                busy(kd) if kd else None,
                busy([events[u] for u in e.get("gpu_events", [])]) if ishost else None,
                e.get("launcher"), len(kd) if kd else None]
        out("\t".join(fmt(c) for c in cols) + "\n")


main()
