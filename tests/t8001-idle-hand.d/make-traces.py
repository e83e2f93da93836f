#!/usr/bin/python3
"""Writes the hand-made traces of t8001 (CASE/trace.json), Kineto-shaped.

Run from this folder: python3 make-traces.py.  Times are whole µs unless a
case says otherwise; every trace has a metadata event without "ts" and
"dur", as Kineto traces do, so pandas types ts and dur as float64 (HTA then
rounds, a no-op on whole µs).  The expected tables, worked out by hand, are
in CASE/expect/; README says how.
"""
import json, os

CPU_PID, CPU_TID = 100, 100

def trace(events, rank=0):
    return {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": 1},
            "traceEvents": [{"ph": "M", "name": "process_name", "pid": 0, "tid": 0,
                             "args": {"name": "GPU 0"}}] + events,
            "traceName": "hand.json"}

def step(n, ts, dur):
    return {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % n, "pid": CPU_PID,
            "tid": CPU_TID, "ts": ts, "dur": dur, "args": {"External id": 1}}

def launch(name, ts, dur, corr):
    return {"ph": "X", "cat": "cuda_runtime", "name": name, "pid": CPU_PID, "tid": CPU_TID,
            "ts": ts, "dur": dur, "args": {"cbid": 211, "correlation": corr}}

def kernel(name, ts, dur, corr, stream=7, cat="kernel"):
    return {"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
            "args": {"correlation": corr, "device": 0, "stream": stream}}

def flows(corr, lts, kts, stream=7):
    return [{"ph": "s", "id": corr, "pid": CPU_PID, "tid": CPU_TID, "ts": lts, "cat": "ac2g",
             "name": "ac2g"},
            {"ph": "f", "id": corr, "pid": 0, "tid": stream, "ts": kts, "cat": "ac2g",
             "name": "ac2g", "bp": "e"}]

GEMM = "void gemm_kernel<1>(int)"
NCCL = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"

def pair(lname, lts, ldur, corr, kname, kts, kdur, stream=7, cat="kernel"):
    return [launch(lname, lts, ldur, corr), kernel(kname, kts, kdur, corr, stream, cat)] + \
        flows(corr, lts, kts, stream)

cases = {}

# waits: one stream, one gap of each idle category
cases["waits"] = trace([step(1, 0, 120)] +
    pair("cudaLaunchKernel", 0, 5, 1, GEMM, 10, 10) +
    pair("cudaLaunchKernel", 25, 2, 2, GEMM, 30, 5) +     # launched after K1 ended: host wait 10
    pair("cudaLaunchKernel", 27, 2, 3, GEMM, 40, 5) +     # queued: a 5 µs gap, kernel wait
    pair("cudaLaunchKernel", 29, 2, 4, GEMM, 100, 10))    # queued, 55 µs gap: other

# overlap: compute and NCCL on two streams, a memcpy
cases["overlap"] = trace([step(1, 0, 120)] +
    pair("cudaLaunchKernel", 0, 5, 1, GEMM, 10, 40) +
    pair("cudaLaunchKernel", 6, 3, 2, NCCL, 20, 60, stream=13) +
    pair("cudaLaunchKernel", 11, 3, 3, GEMM, 90, 10) +
    pair("cudaMemcpyAsync", 14, 2, 4, "Memcpy HtoD (Pinned -> Device)", 60, 5, cat="gpu_memcpy"))

# launch: each kernel runs (shorter than its launch call) before the next launch
cases["launch"] = trace([step(1, 0, 40)] +
    pair("cudaLaunchKernel", 0, 10, 1, GEMM, 12, 3) +
    pair("cudaLaunchKernel", 20, 10, 2, GEMM, 32, 3))

# sync: cudaStreamSynchronize waits for K1 (its Stream Sync event on stream 7)
cases["sync"] = trace([step(1, 0, 70)] +
    pair("cudaLaunchKernel", 0, 5, 1, GEMM, 10, 40) +
    [launch("cudaStreamSynchronize", 6, 46, 2),
     {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 6,
      "dur": 46, "args": {"cuda_sync_kind": "Stream Sync", "correlation": 2, "device": 0,
                          "stream": 7}}] +
    pair("cudaLaunchKernel", 53, 2, 3, GEMM, 57, 3))

# many: 12 kernel names (HTA groups past the 10th into "others")
ev = [step(1, 0, 400)]
t, corr = 0, 1
for i in range(12):
    for d in (i + 1, 2 * (i + 1)):
        ev += pair("cudaLaunchKernel", t, 1, corr, "k%02d" % i, t + 2, d)
        t += 2 + d + 1
        corr += 1
cases["many"] = trace(ev)

# culaunch: a kernel launched with the driver API (Triton does)
cases["culaunch"] = trace([step(1, 0, 40)] +
    pair("cudaLaunchKernel", 0, 4, 1, GEMM, 6, 2) +
    pair("cuLaunchKernel", 10, 4, 2, "triton_poi_fused_add_0", 20, 2))

# ns: float timestamps (HTA rounds: ts up, end down), a sub-µs kernel
cases["ns"] = trace([step(1, 0.25, 40)] +
    pair("cudaLaunchKernel", 0.5, 2.2, 1, GEMM, 5.2, 0.5) +
    pair("cudaLaunchKernel", 3.0, 1.5, 2, GEMM, 7.1, 2.0))

for name, tr in cases.items():
    os.makedirs(name, exist_ok=True)
    with open(os.path.join(name, "trace.json"), "w") as f:
        json.dump(tr, f, indent=1)
        f.write("\n")
