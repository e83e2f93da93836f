#!/usr/bin/env python3
"""Turn a rocprofv3 results file into a Perfetto-style traceEvents JSON of
the shape TraceLens's pftrace reports read (kernel_dispatch events with
args.agent, begin_ns/end_ns/delta_ns, corr_id and the kernel's resources),
adding one hipLaunchKernel call per dispatch at a deterministic offset
before it.  t3520 runs it on ../shared/corpus/rocprof-908 to check the
reports at scale; ref-rocprof-908/ holds what TraceLens wrote for the result.

    python3 from-rocprof.py RESULTS.json[.gz] >OUT.json
"""
import gzip
import json
import sys

path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as f:
    tool = json.load(f)["rocprofiler-sdk-tool"][0]
syms = {s["kernel_id"]: s for s in tool["kernel_symbols"]}
agents = {}
for a in tool["agents"]:
    if a.get("type") == 2:
        agents[a["id"]["handle"]] = "GPU %d (%s)" % (a["logical_node_type_id"], a["name"])
out = []
for d in tool["buffer_records"]["kernel_dispatch"]:
    info = d["dispatch_info"]
    sym = syms.get(info["kernel_id"], {})
    name = sym.get("truncated_kernel_name") or sym.get("formatted_kernel_name") or \
        "unknown_kernel_%d" % info["kernel_id"]
    b, e = d["start_timestamp"], d["end_timestamp"]
    corr = d["correlation_id"]["internal"]
    g, w = info["grid_size"], info["workgroup_size"]
    out.append({
        "ph": "X", "cat": "kernel_dispatch", "name": name,
        "pid": 1 + list(agents).index(info["agent_id"]["handle"]),
        "tid": info["queue_id"]["handle"], "ts": b / 1000, "dur": (e - b) / 1000,
        "args": {
            "agent": agents[info["agent_id"]["handle"]], "begin_ns": b, "end_ns": e,
            "delta_ns": e - b, "corr_id": corr, "kernel_id": info["kernel_id"],
            "grid_size": g["x"] * g["y"] * g["z"],
            "workgroup_size": w["x"] * w["y"] * w["z"],
            "VGPR_Count": sym.get("arch_vgpr_count", 0),
            "Accum_VGPR_Count": sym.get("accum_vgpr_count", 0),
            "SGPR_Count": sym.get("sgpr_count", 0),
            "LDS_Block_Size": info["group_segment_size"],
            "Scratch_Size": info["private_segment_size"],
            "stream_ID": d["stream_id"]["handle"], "queue": info["queue_id"]["handle"],
        },
    })
    ab = b - 5000 - (corr % 7) * 1100
    ad = 1500 + (corr % 11) * 650
    out.append({
        "ph": "X", "cat": "hip_api", "name": "hipLaunchKernel",
        "pid": tool["metadata"]["pid"], "tid": d["thread_id"], "ts": ab / 1000,
        "dur": ad / 1000,
        "args": {"begin_ns": ab, "end_ns": ab + ad, "delta_ns": ad, "corr_id": corr,
                 "stream_ID": d["stream_id"]["handle"], "operation": 1},
    })
json.dump({"traceEvents": out}, sys.stdout)
