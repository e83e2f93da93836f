#!/usr/bin/env python3
"""Write the Perfetto-style traceEvents JSON files of t3520.

The first six are the event sets of TraceLens's own tests, taken from its
code (run with PYTHONPATH=~/tl-oracle/TraceLens and the TraceLens checkout
as the working directory so that tests/ imports); edge.json is ours, made to
reach the rules those sets leave alone.  Each is written as the tests write
theirs: json.dumps({"traceEvents": events}).

    cd ~/tl-oracle/TraceLens && PYTHONPATH=. /usr/bin/python3 \\
        $OLDPWD/make-pftrace.py $OLDPWD
"""
import json
import os
import sys
import types

# tests/ import pytest only for decorators; this Python may lack it
if "pytest" not in sys.modules:
    try:
        import pytest  # noqa: F401
    except ImportError:
        stub = types.ModuleType("pytest")
        stub.fixture = lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda f: f))

        class _Mark:
            def __getattr__(self, name):
                return lambda *a, **k: (lambda f: f)

        stub.mark = _Mark()
        stub.skip = lambda *a, **k: None
        sys.modules["pytest"] = stub

from tests.fixtures.reporting import (
    _full_pftrace_events,
    _minimal_pftrace_events,
    _rich_pftrace_events,
)
from tests.test_pftrace_hip_api_perf_report import _make_minimal_pftrace_events
from tests.test_pftrace_memory_copy_report import _make_memory_copy_events
from tests.test_trace2tree import _mk_event


def gpu_memcpy_events():
    # test_pftrace_hip_activity_report.py: test_pftrace_memory_copy_main
    return [
        _mk_event("gpu_memcpy", "MemcpyHtoD", 1000, 20, 0, 1, {"bytes": 4096}),
        _mk_event("gpu_memcpy", "MemcpyDtoH", 1100, 15, 0, 1, {"bytes": 2048}),
    ]


def redzone_events():
    # test_pftrace_hip_api_perf_report.py: test_exclude_kernel_regex
    ev = _make_minimal_pftrace_events()
    ev[1]["args"]["kernel_name"] = "redzone_checker_kernel"
    return ev


def kern(name, agent, tid, b, d, **args):
    a = {"agent": agent, "begin_ns": b, "delta_ns": d}
    a.update(args)
    return {"ph": "X", "cat": "kernel_dispatch", "name": name, "pid": 2,
            "tid": tid, "ts": b / 1000, "dur": d / 1000, "args": a}


def api(name, tid, b, d, corr, **args):
    a = {"begin_ns": b, "end_ns": b + d, "delta_ns": d, "corr_id": corr}
    a.update(args)
    return {"ph": "X", "cat": "hip_api", "name": name, "pid": 7, "tid": tid,
            "ts": b / 1000, "dur": d / 1000, "args": a}


def edge_events():
    """Two GPUs, ties, overlaps, every classify branch, API cases."""
    ev = []
    g0, g1 = "GPU 0 (gfx942)", "GPU 1 (gfx942)"
    cfg = dict(grid_size=1024, workgroup_size=256, VGPR_Count=64,
               Accum_VGPR_Count=8, SGPR_Count=32, LDS_Block_Size=4096,
               Scratch_Size=0, stream_ID=1, queue=3, kernel_id=11)
    # GPU 0: compute and communication that overlap
    ev.append(kern("Cijk_Ailk_Bljk_HHS_MT128", g0, 1, 10_000, 40_000, corr_id=1, **cfg))
    ev.append(kern("Cijk_Ailk_Bljk_HHS_MT128", g0, 1, 60_000, 40_000, corr_id=2, **cfg))
    ev.append(kern("Cijk_Ailk_Bljk_HHS_MT128", g0, 1, 110_000, 20_000, corr_id=3,
                   **dict(cfg, grid_size="2048")))
    ev.append(kern("ncclDevKernel_Generic_4", g0, 2, 30_000, 90_000, corr_id=4))
    ev.append(kern("rcclGenericKernel", g0, 2, 125_000, 10_000, corr_id=5))
    ev.append(kern("fusion_123", g0, 1, 130_000, 7_000, corr_id=6))
    ev.append(kern("fusion_456", g0, 1, 140_000, 7_000, corr_id=7))
    ev.append(kern("loop_add_fusion_1", g0, 1, 150_000, 3_000, corr_id=8))
    ev.append(kern("__amd_rocclr_fillBufferAligned.kd", g0, 1, 160_000, 6_000, corr_id=9))
    ev.append(kern("__amd_rocclr_copyBuffer.kd", g0, 1, 170_000, 6_500, corr_id=10))
    ev.append(kern("FmhaBwdKernel_hd128", g0, 1, 180_000, 55_000, corr_id=11))
    ev.append(kern("flash_fprop_kernel", g0, 1, 240_000, 33_000, corr_id=12))
    ev.append(kern("transformer_engine::cast_kernel", g0, 1, 280_000, 12_345, corr_id=13))
    ev.append(kern("aiter::fmha_fwd_v3", g0, 1, 300_000, 8_000, corr_id=14))
    ev.append(kern("aiter::fmha_bwd_v3", g0, 1, 310_000, 9_000, corr_id=15))
    ev.append(kern("nvjet_tst_64x8", g0, 99, 320_000, 5_000, corr_id=16))
    ev.append(kern("zero_len", g0, 1, 330_000, 0, corr_id=17))
    # GPU 1: same names, ties in total time, one kernel launched twice
    ev.append(kern("fusion_123", g1, 5, 10_000, 7_000, corr_id=21))
    ev.append(kern("fusion_456", g1, 5, 20_000, 7_000, corr_id=22))
    ev.append(kern("Cijk_Ailk_Bljk_HHS_MT128", g1, 5, 30_000, 41_000, corr_id=23, **cfg))
    ev.append(kern("ncclDevKernel_Generic_4", g1, 6, 35_000, 10_000, corr_id=24))
    ev.append(kern("Cijk_Ailk_Bljk_HHS_MT128", g1, 5, 90_000, 1_000, corr_id=25, **cfg))
    ev.append(kern("Cijk_Ailk_Bljk_HHS_MT128", g1, 5, 95_000, 2_000, corr_id=25, **cfg))
    # an agent-less kernel (ts/dur in µs; ts >= 1e10 is taken as ns)
    ev.append({"ph": "X", "cat": "kernel", "name": "late.kd", "pid": 2, "tid": 1,
               "ts": 20_000_000_000, "dur": 9000,
               "args": {"agent": g1, "correlation_id": 26, "device_id": "5"}})
    ev.append({"ph": "X", "cat": "gpu_activity", "name": "float_ts", "pid": 2, "tid": 1,
               "ts": 400.9, "dur": 7.9, "args": {"agent": g1, "corr_id": 27}})
    ev.append({"ph": "X", "cat": "kernel_dispatch", "name": "register_kernel", "pid": 2,
               "tid": 1, "ts": 500, "dur": 6, "args": {"corr_id": 28}})
    # HIP API calls
    ev.append(api("hipLaunchKernel", 11, 5_000, 3_000, 1, stream_ID=1, operation=1))
    ev.append(api("hipLaunchKernel", 11, 55_000, 4_000, 2, stream_ID=1, operation=1))
    ev.append(api("hipExtModuleLaunchKernel", 11, 105_000, 2_500, 3, stream_ID=1))
    ev.append(api("hipLaunchKernel", 12, 26_000, 5_000, 4, stream_ID=2))
    ev.append(api("hipModuleLaunchKernel", 11, 120_000, 6_000, 5))
    ev.append(api("hipGraphLaunch", 11, 128_000, 1_500, 6))
    ev.append(api("my_launch_custom_kernel", 11, 138_000, 2_000, 7))
    ev.append(api("hipLaunchKernel", 13, 5_000, 5_000, 21, stream_ID=3))
    ev.append(api("hipLaunchKernel", 13, 15_000, 5_000, 22, stream_ID=3))
    ev.append(api("hipLaunchKernel", 13, 25_000, 5_500, 23, stream_ID=3))
    ev.append(api("hipLaunchKernel", 13, 31_000, 5_000, 24, stream_ID=3))
    ev.append(api("hipLaunchKernel", 13, 85_000, 5_000, 25, stream_ID=3))
    ev.append(api("hipMemsetD32Async", 13, 19_999_000, 2_000, 26))
    ev.append(api("hipStreamSynchronize", 13, 300_000, 8_000, 99, operation=4))
    ev.append(api("hipMalloc", 13, 310_000, 9_000, None))
    ev.append({"ph": "X", "cat": "hip_api", "name": "hipLaunchKernel", "pid": 7,
               "tid": 14, "ts": 399, "dur": 1.5, "args": {"corr_id": 27}})
    ev.append({"ph": "X", "cat": "cuda_api", "name": "cudaLaunchKernel", "pid": 7,
               "tid": 14, "ts": 495, "dur": 2, "args": {"corr_id": 28}})
    ev.append({"ph": "X", "cat": "hip_api", "name": "hipLaunchKernel", "pid": 7,
               "tid": 14, "ts": 600, "dur": 3,
               "args": {"begin_ns": 600_000, "end_ns": 603_000, "corr_id": 29}})
    ev.append({"ph": "X", "cat": "kernel_dispatch", "name": "redzone_checker_kernel",
               "pid": 2, "tid": 1, "ts": 610, "dur": 4,
               "args": {"agent": g0, "corr_id": 29}})
    # memory copies
    for b, src, dst, name in [(4096, 0, 1, "MEMORY_COPY_HOST_TO_DEVICE"),
                              (4096, 0, 1, "MEMORY_COPY_HOST_TO_DEVICE"),
                              ("1024", 2, 0, "MEMORY_COPY_DEVICE_TO_HOST"),
                              (1024, None, 2, "MEMORY_COPY_DEVICE_TO_DEVICE"),
                              (65536, 1, 2, "memory_copy_device_to_device"),
                              (128, 1, 2, "MEMORY_COPY_NONE"),
                              (None, 1, 2, "MEMORY_COPY_HOST_TO_DEVICE"),
                              (12.7, 1, 2, "MEMORY_COPY_HOST_TO_DEVICE")]:
        a = {"copy_bytes": b, "src_agent": src, "dst_agent": dst}
        a = {k: v for k, v in a.items() if v is not None or k == "copy_bytes"}
        ev.append({"ph": "X", "cat": " Memory_Copy ", "name": name, "pid": 2, "tid": 9,
                   "ts": 700, "dur": 2, "args": a})
    return ev


SETS = {
    "minimal": _minimal_pftrace_events,
    "rich": _rich_pftrace_events,
    "full": _full_pftrace_events,
    "api": _make_minimal_pftrace_events,
    "api-redzone": redzone_events,
    "memcpy": _make_memory_copy_events,
    "gpu-memcpy": gpu_memcpy_events,
    "edge": edge_events,
}

out = sys.argv[1] if len(sys.argv) > 1 else "."
for name, fn in SETS.items():
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(json.dumps({"traceEvents": fn()}))
