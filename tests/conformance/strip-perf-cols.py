#!/usr/bin/env python3
"""strip-perf-cols.py CSV — drop the perf-model columns of a reference
unified_perf_summary.csv in place (GFLOPS, TB/s_*, perf_params, ...), so
that tl-conform compares the rest while the roofline models (issue 5) are
not in tl-perf yet.  Standard library only."""
import csv
import re
import sys

PERF = re.compile(r"^(GFLOPS|Data Moved \(MB\)|FLOPS/Byte|Compute Spec|TB/s_.*|TFLOPS/s_.*"
                  r"|perf_params|Roofline.*|Pct Roofline.*|Origami.*|Pct Origami.*"
                  r"|Non-Data-Mov.*)$")
path = sys.argv[1]
with open(path, newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
if rows:
    keep = [i for i, h in enumerate(rows[0]) if not PERF.match(h)]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        for r in rows:
            w.writerow([r[i] for i in keep])
