#!/usr/bin/python3
"""tracelens_api_kernel.py TRACE OUT.csv -- TraceLens's T = A + Q + K table of a
PyTorch trace, from TraceLens's own code (the live oracle in ~/tl-oracle).

TraceLens computes api_kernel_summary for Perfetto-style traces only
(TraceLens/Reporting/pftrace_hip_api_analysis.py): API events are cat
"hip_api" with args.corr_id, kernels are events whose cat contains "kernel".
This script hands it a PyTorch trace in that shape: each cuda_runtime or
cuda_driver event becomes a "hip_api" event with corr_id = its correlation,
each GPU event (args.stream) gets corr_id and device_id from its correlation
and device; nothing else changes.  The table is what tl-idle writes as
api_kernel_summary.csv (tl-idle(1)); on traces with whole-µs times the two
must agree (TraceLens truncates µs to whole µs before multiplying by 1000).
"""
import gzip, json, os, sys
sys.path.insert(0, os.path.join(os.environ.get("TL_ORACLE", os.path.expanduser("~/tl-oracle")),
                                "TraceLens"))
from TraceLens.Reporting.pftrace_hip_api_analysis import PftraceHipApiAnalyzer

src, out = sys.argv[1:3]
d = json.load(gzip.open(src) if src.endswith(".gz") else open(src))
events = []
for e in d["traceEvents"]:
    e = dict(e)
    a = dict(e.get("args") or {})
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in a:
        e["cat"] = "hip_api"
        a["corr_id"] = a["correlation"]
    elif "stream" in a and "correlation" in a:
        a["corr_id"] = a["correlation"]
        a["device_id"] = a.get("device", 0)
    e["args"] = a
    events.append(e)
PftraceHipApiAnalyzer(events).get_df_api_kernel_summary().to_csv(out, index=False)
