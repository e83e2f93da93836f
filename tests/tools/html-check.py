#!/usr/bin/env python3
"""html-check.py -- judge a report.html that a headless Chromium loaded.

Usage: html-check.py PAGE.html DOM LOG NETLOG REPORT_DIR
       html-check.py --no-script DOM REPORT_DIR

PAGE.html   the file tl-html wrote
DOM         chromium --dump-dom of it (after the page's script ran)
LOG         chromium's stderr with --enable-logging=stderr
NETLOG      chromium --log-net-log output
REPORT_DIR  the folder the page was drawn from

Checks, each printed as "ok"/"FAIL" (exit 1 if any fails):
  * the file asks for nothing outside itself: no src=, no href= other than
    "#section" or "rank_K/report.html", no url(), @import, <link>, <base>,
    <iframe>, <object>, <embed>, <img>, <script src>;
  * the browser logged no console message;
  * no request left the page: no URL request in the net log made by a
    file:// page (the browser's own background requests, which go nowhere
    through --proxy-server=127.0.0.1:9, are not the page's);
  * the page's own check (#tl-check): data-ok="1", data-resources="0", and
    the count of marks the browser parsed in each chart equals the count
    computed here from the CSV sheets -- independently of tl-html: the
    rules below are read off the charts' definitions (tl-html(1)).
With --no-script (a DOM dumped with JavaScript off): the page's check did
not run, and the marks are counted here in the DOM, chart by chart, against
the same counts: the pictures need no script.
"""
import csv
import json
import math
import os
import re
import sys

failed = 0


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed = 1


def sheet(d, name):
    path = os.path.join(d, name + ".csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return math.nan
    return v


def pos(s):
    v = num(s)
    return v > 0 and math.isfinite(v)


# ---- expected mark counts -------------------------------------------------

def trace_counts(d):
    want = {}
    strip = sheet(d, "timeline_strip")
    gpus = []
    if strip:
        for r in strip:
            if r["stream"] == "all" and r["gpu"] not in gpus:
                gpus.append(r["gpu"])
    # breakdown: per GPU from the strip when there are several, else gpu_timeline
    if len(gpus) > 1:
        span = max(num(r["end_us"]) for r in strip)
        n = 0
        for g in gpus:
            v = [0.0, 0.0, 0.0]
            for r in strip:
                if r["gpu"] == g and r["stream"] == "all":
                    for k, c in enumerate(("computation_us", "exposed_comm_us", "exposed_memcpy_us")):
                        v[k] += max(num(r[c]), 0)
            n += sum(1 for x in v + [span - sum(v)] if x > 0)
        want["breakdown"] = n
    else:
        tl = sheet(d, "gpu_timeline")
        if tl is not None:
            t = {r["type"]: num(r["time ms"]) for r in tl}
            idle = t.get("idle_time", t.get("micro_idle_time", 0) + t.get("macro_idle_time", 0))
            want["breakdown"] = sum(1 for x in (t.get("computation_time"), t.get("exposed_comm_time"),
                                                t.get("exposed_memcpy_time"), idle) if x and x > 0)
    if strip is not None:
        groups = []     # [gpu, stream, busy per class]
        for r in strip:
            if not groups or groups[-1][0] != r["gpu"] or groups[-1][1] != r["stream"]:
                groups.append([r["gpu"], r["stream"], [0.0, 0.0, 0.0], len(groups)])
            for k, c in enumerate(("computation_us", "exposed_comm_us", "exposed_memcpy_us")):
                groups[-1][2][k] += max(num(r[c]), 0)
        streams = {}
        for g in groups:
            if g[1] != "all":
                streams[g[0]] = streams.get(g[0], 0) + 1
        shown = [g for g in groups if g[1] != "all" or streams.get(g[0], 0) > 1]
        if len(shown) > 48:
            shown.sort(key=lambda g: (g[1] != "all", -sum(g[2]), g[3]))
            shown = shown[:48]
        want["strip"] = sum(1 for g in shown for x in g[2] if x > 0)
    cats = sheet(d, "ops_summary_by_category")
    if cats is not None:
        want["categories"] = min(30, len(cats))
    ops = sheet(d, "ops_summary")
    if ops is not None:
        want["ops"] = min(20, len(ops))
    ks = sheet(d, "kernel_summary")
    if ks is not None and ks and "Kernel name" in ks[0]:
        want["kernels"] = min(20, len(ks))
    u = sheet(d, "unified_perf_summary")
    if u is not None:
        want["roofline"] = sum(1 for r in u if pos(r.get("FLOPS/Byte")) and pos(r.get("TFLOPS/s_mean")))
    h = sheet(d, "short_kernel_histogram")
    if h is not None:
        want["short"] = sum(1 for r in h if num(r["count"]) > 0)
    return want


def job_counts(d):
    want = {}
    ranks = sheet(d, "ranks")
    sub = "collectives/" if os.path.isdir(os.path.join(d, "collectives")) else ""
    cols = ("computation_time_us", "exposed_comm_time_us", "exposed_memcpy_time_us", "idle_time_us")
    if ranks is not None:
        want["ranks"] = sum(1 for r in ranks for c in cols if num(r[c]) > 0)
        want["wait"] = len(ranks)
    else:   # TraceLens's collective sheets: the ranks of the straggler summary
        want["wait"] = len(sheet(d, sub + "straggler_summary") or [])
    coll = sheet(d, sub + "nccl_implicit_sync")
    if coll is not None:
        def t(r):
            return max(num(r["skew in start time"]), 0) + max(num(r["comm_latency"]), 0)
        order = sorted(range(len(coll)), key=lambda i: (-t(coll[i]), i))[:20]
        want["collectives"] = sum(1 for i in order for c in ("skew in start time", "comm_latency")
                                  if num(coll[i][c]) > 0)
    return want


def diff_counts(d):
    rows = sheet(d, "diff_stats")
    return {"changed": 2 * min(20, len({r["cpu_op_name"] for r in rows}))}


def expected(d):
    if any(os.path.exists(os.path.join(d, f)) for f in
           ("ranks.csv", "straggler_summary.csv", "nccl_implicit_sync.csv")):
        return job_counts(d)
    if os.path.exists(os.path.join(d, "diff_stats.csv")):
        return diff_counts(d)
    return trace_counts(d)


# ---- the checks -------------------------------------------------------------

def static_check(html):
    bad = []
    for m in re.finditer(r"<[a-zA-Z][^>]*>", html):
        tag = m.group(0)
        name = re.match(r"<([a-zA-Z0-9]+)", tag).group(1).lower()
        if name in ("link", "base", "iframe", "object", "embed", "img", "frame", "audio",
                    "video", "source", "track", "image", "use", "form"):
            bad.append(tag[:80])
        for a in re.finditer(r"\s(src|href|xlink:href|srcset|action|poster|data|background)\s*=\s*\"([^\"]*)\"",
                             tag):
            v = a.group(2)
            if a.group(1) == "href" and (v.startswith("#") or re.fullmatch(r"rank_[0-9]+/report\.html", v)):
                continue
            bad.append(tag[:80])
    for pat in (r"url\s*\(", r"@import"):
        for part in re.findall(r"<style>(.*?)</style>", html, re.S):
            if re.search(pat, part):
                bad.append(pat)
    check(not bad, "nothing asked from outside the file" + ("" if not bad else ": " + "; ".join(bad[:5])))


def console_check(log):
    lines = [l for l in log.splitlines() if ":CONSOLE" in l]
    check(not lines, "no console message" + ("" if not lines else ": " + lines[0][:200]))


def net_check(path):
    with open(path) as f:
        text = f.read()
    try:
        net = json.loads(text)
    except ValueError:
        # chromium may leave the closing brackets off when it ends
        net = json.loads(text.rstrip().rstrip(",") + "]}")
    types = {v: k for k, v in net["constants"]["logEventTypes"].items()}
    page = []
    for e in net.get("events", []):
        p = e.get("params", {})
        if types.get(e["type"]) != "URL_REQUEST_START_JOB":
            continue
        nik = p.get("network_isolation_key", "")
        if "file://" in nik or p.get("initiator") in ("null", "file://"):
            page.append(p.get("url", "?"))
    check(not page, "no request left the page" + ("" if not page else ": " + ", ".join(page[:5])))


def dom_check(dom, d):
    m = re.search(r"<div id=\"tl-check\"[^>]*>", dom)
    check(m is not None, "the page's check ran")
    if not m:
        return
    attrs = dict(re.findall(r"([a-z-]+)=\"([^\"]*)\"", m.group(0)))
    check(attrs.get("data-ok") == "1", "every chart drew the marks the writer counted")
    check(attrs.get("data-resources") == "0", "the page loaded no resource")
    got = dict(kv.split("=") for kv in attrs.get("data-counts", "").split())
    # a chart with no marks may as well not be drawn: zero counts are left out
    got = {k: int(v) for k, v in got.items() if int(v)}
    want = {k: v for k, v in expected(d).items() if v}
    check(got == want, "marks per chart as the sheets say: got %s, want %s"
          % (sorted(got.items()), sorted(want.items())))


def no_script(dom, d):
    check(re.search(r"<div id=\"tl-check\"[^>]*data-counts", dom) is None,
          "no script ran")
    got = {}
    for m in re.finditer(r"<svg [^>]*data-chart=\"([^\"]+)\"[^>]*>(.*?)</svg>", dom, re.S):
        n = len(re.findall(r"<(?:rect|circle|path) class=\"mark\"", m.group(2)))
        if n:
            got[m.group(1)] = n
    want = {k: v for k, v in expected(d).items() if v}
    check(got == want, "marks per chart without JavaScript: got %s, want %s"
          % (sorted(got.items()), sorted(want.items())))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--no-script":
        with open(sys.argv[2], encoding="utf-8") as f:
            no_script(f.read(), sys.argv[3])
        sys.exit(failed)
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    page, dom, log, netlog, d = sys.argv[1:]
    with open(page, encoding="utf-8") as f:
        static_check(f.read())
    with open(log, errors="replace") as f:
        console_check(f.read())
    net_check(netlog)
    with open(dom, encoding="utf-8") as f:
        dom_check(f.read(), d)
    sys.exit(failed)


main()
