#!/usr/bin/python3
"""hta_refs_extra.py TRACE_DIR OUT_DIR -- references for what oracle/hta does not write.

With HTA's own loader and functions (the live oracle in ~/tl-oracle):
  idle_time_breakdown.csv, cuda_kernel_launch_stats.csv
      for every rank (HTA's defaults give rank 0 only);
  gpu_kernel_breakdown.csv
      HTA's get_gpu_kernel_breakdown with its grouping into "others", but with
      max, min, mean and stddev computed over each row's launches, as tl-idle
      writes them (HTA re-aggregates its table of per-kernel sums instead:
      tests/conformance/deviations.tsv).  HTA's _aggr_gpu_kernel_time picks
      the names; pandas' groupby then aggregates the launches renamed so.
"""
import os, sys, warnings, logging
sys.path.insert(0, os.path.join(os.environ.get("TL_ORACLE", os.path.expanduser("~/tl-oracle")),
                                "HolisticTraceAnalysis"))
warnings.filterwarnings("ignore"); logging.disable(logging.CRITICAL)
import pandas as pd
from hta.trace_analysis import TraceAnalysis
from hta.analyzers.breakdown_analysis import BreakdownAnalysis
from hta.utils.utils import get_kernel_type

src, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
ta = TraceAnalysis(trace_dir=src)
ranks = sorted(ta.t.traces.keys())
ta.get_idle_time_breakdown(ranks=ranks, visualize=False)[0].to_csv(
    os.path.join(out, "idle_time_breakdown.csv"), index=False)
ks = ta.get_cuda_kernel_launch_stats(ranks=ranks, visualize=False)
pd.concat([df.assign(rank=r) for r, df in ks.items()], ignore_index=True).to_csv(
    os.path.join(out, "cuda_kernel_launch_stats.csv"), index=False)

sym = ta.t.symbol_table.get_sym_table()
rows = []
for rank, df in ta.t.traces.items():
    g = df[df["stream"].ne(-1)].copy()
    g["kernel_type"] = g["name"].apply(lambda x: get_kernel_type(sym[x]))
    g["name"] = g["name"].apply(lambda x: sym[x])
    for kt in ["COMPUTATION", "COMMUNICATION", "MEMORY"]:
        k = g[g["kernel_type"] == kt].copy()
        agg = BreakdownAnalysis._aggr_gpu_kernel_time(k, num_kernels=10, duration_ratio=0.8)
        keep = set(agg["name"]) - {"others"}
        k["name"] = k["name"].where(k["name"].isin(keep), "others")
        t = k.groupby("name")["dur"].agg(["sum", "max", "min", "mean", "std"]).reset_index()
        t = t.fillna({"std": 0})
        t["kernel_type"] = kt
        t["rank"] = int(rank)
        rows.append(t)
all_k = pd.concat(rows, ignore_index=True).sort_values(
    by=["kernel_type", "name", "rank"], ignore_index=True)
all_k = all_k.rename(columns={"sum": "sum (us)", "mean": "mean (us)", "max": "max (us)",
                              "min": "min (us)", "std": "stddev"})
all_k[["name", "sum (us)", "max (us)", "min (us)", "stddev", "mean (us)", "kernel_type",
       "rank"]].to_csv(os.path.join(out, "gpu_kernel_breakdown.csv"), index=False)
