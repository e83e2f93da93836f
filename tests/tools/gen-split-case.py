#!/usr/bin/python3
"""Write a small synthetic serving trace for tl-split's test (t9302).

usage: gen-split-case.py KIND OUT.json.gz

KIND is "vllm" (vLLM's detailed execute_* annotations), "native"
(vLLM's native ones), or "generic" (no annotations: TraceLens's
call-tree fallback).  The trace simulates a server at a concurrency of 8:
requests arrive with a prompt (prefill, sometimes chunked into a step
that also decodes) and decode for a few dozen steps; arrivals stop near
the end, so the trace ramps up, holds a steady state and ramps down.
Each step has python frames, the root annotation, a cpu_op with Input Dims
(the batch TraceLens reads), runtime launches with correlation ids, flow
events, kernels and a memcpy on the GPU, events on a second thread and
within-window events without dur; metadata events with and without ts;
top-level keys before and after traceEvents; int and float timestamps.
Deterministic (no randomness beyond a fixed LCG).
"""
import gzip
import json
import sys

kind, out = sys.argv[1], sys.argv[2]
PID, TID, TID2, GPU = 1001, 1001, 1077, 0


class LCG:
    def __init__(self, s):
        self.s = s

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) % (1 << 31)
        return self.s % n


rng = LCG(7)
ev = []
ev.append({"name": "process_name", "ph": "M", "pid": PID, "tid": 0,
           "args": {"name": "python3"}})
ev.append({"name": "thread_name", "ph": "M", "pid": PID, "tid": TID,
           "args": {"name": "thread 1001 (python3)"}})
ev.append({"name": "process_name", "ph": "M", "ts": 100, "pid": GPU, "tid": 0,
           "args": {"name": "GPU 0"}})
ev.append({"name": "thread_sort_index", "ph": "M", "pid": GPU, "tid": 7,
           "args": {"sort_index": 7}})

# the schedule: per step (prefill requests and tokens, decoding requests)
CONC, STEPS, STOP = 8, 110, 78
active = []          # remaining decode steps per request
pending = 0
sched = []
for step in range(STEPS):
    if step < STOP:
        pending += 1 if rng.next(3) else 0
    newc = 0
    while pending and len(active) + newc < CONC and newc < 2:
        pending -= 1
        newc += 1
    ctoks = sum(64 + 32 * rng.next(8) for _ in range(newc))
    gen = len(active)
    sched.append((newc, ctoks, gen, [64 + s for s in active]))
    active = [a - 1 for a in active if a > 1]
    active += [20 + rng.next(30) for _ in range(newc)]
    if step >= STOP and not active and not pending:
        break

ts = 1_000_000
corr = 500
# the serving loop's frame (appended below, spanning every step) and, in
# the generic trace, a setup frame before the loop's repeating steps
if kind == "generic":
    ev.append({"ph": "X", "cat": "python_function", "name": "engine.py(20): warmup",
               "pid": PID, "tid": TID, "ts": ts - 300, "dur": 100,
               "args": {"Python parent id": 1, "Python id": 2}})
for i, (c, ctoks, g, ctx) in enumerate(sched):
    if not c and not g:
        ts += 400
        continue
    sq, sk = ctoks, ctoks
    gsq, gsk = g, sum(ctx)
    if kind == "vllm":
        name = (f"execute_{ctoks + g}_context_{c}(sq{sq}sk{sk}sqsq{sq * sq}sqsk{sq * sk})"
                f"_generation_{g}(sq{gsq}sk{gsk}sqsq{gsq}sqsk{gsk})")
    else:
        name = f"execute_context_{c}({ctoks})_generation_{g}({g})"
    dur = 300 + ctoks // 4 + 5 * g
    f = float if i % 3 == 0 else int
    t0 = ts
    py = {"ph": "X", "cat": "python_function", "name": "vllm/v1/worker/gpu_model_runner.py(1500): execute_model",
          "pid": PID, "tid": TID, "ts": f(t0 - 20), "dur": dur + 40,
          "args": {"Python parent id": 1, "Python id": 10 + i, "Python thread": 0}}
    if kind == "generic":
        py["name"] = "model_runner.py(12): step"
    ev.append(py)
    if kind != "generic":
        ev.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": PID, "tid": TID,
                   "ts": f(t0), "dur": dur, "args": {"External id": 9000 + i}})
    n_tok = ctoks + g
    ev.append({"ph": "X", "cat": "cpu_op", "name": "vllm::unified_attention_with_output",
               "pid": PID, "tid": TID, "ts": f(t0 + 10), "dur": 60,
               "args": {"External id": 9100 + i, "Input Dims": [[n_tok, 8, 64], [n_tok, 8, 64], []],
                        "Input type": ["c10::BFloat16", "c10::BFloat16", ""],
                        "Sequence number": 77}})
    gts = t0 + 40
    for k, kname in enumerate(["attn_fwd_kernel", "ffn_gemm_kernel", "Memcpy DtoH (Device -> Pinned)"]):
        corr += 1
        rts = t0 + 12 + 70 * k
        if kind == "generic" and k == 0:
            ev.append({"ph": "X", "cat": "python_function", "name": "layer.py(40): forward",
                       "pid": PID, "tid": TID, "ts": rts - 2, "dur": 20,
                       "args": {"Python parent id": 10 + i, "Python id": 900 + i}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaMemcpyAsync" if k == 2 else "cudaLaunchKernel",
                   "pid": PID, "tid": TID, "ts": rts, "dur": 8,
                   "args": {"External id": 9100 + i, "correlation": corr, "cbid": 211}})
        ev.append({"ph": "s", "id": corr, "pid": PID, "tid": TID, "ts": rts, "cat": "ac2g",
                   "name": "ac2g"})
        gdur = 30 + (ctoks // 16 if k == 1 else g) + rng.next(5)
        gcat = "gpu_memcpy" if k == 2 else "kernel"
        ev.append({"ph": "X", "cat": gcat, "name": kname, "pid": GPU, "tid": 7,
                   "ts": gts + (0.5 if i % 2 else 0), "dur": gdur,
                   "args": {"External id": 9100 + i, "correlation": corr, "stream": 7,
                            "device": 0, "grid": [g + c + 1, 1, 1]}})
        ev.append({"ph": "f", "id": corr, "pid": GPU, "tid": 7, "ts": gts, "cat": "ac2g",
                   "name": "ac2g", "bp": "e"})
        gts += gdur + 2
    # an instant event on the thread (no dur: never extracted) and a
    # second thread's op inside the window (other thread: never extracted)
    ev.append({"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": PID,
               "tid": TID, "ts": t0 + 5, "s": "t", "args": {"Bytes": 4096}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": PID, "tid": TID2,
               "ts": t0 + 30, "dur": 4, "args": {"Input Dims": [[]], "note": "\u00e9t\u00e9"}})
    ts += dur + 100 + rng.next(50)

ev.append({"ph": "X", "cat": "python_function", "name": "engine_core.py(100): run_busy_loop",
           "pid": PID, "tid": TID, "ts": 1_000_000 - 400, "dur": ts - 1_000_000 + 400,
           "args": {"Python parent id": 0, "Python id": 1}})
doc = {"schemaVersion": 1,
       "deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X", "computeMajor": 9,
                             "computeMinor": 4}],
       "traceEvents": ev,
       "traceName": "synthetic serving trace",
       "displayTimeUnit": "ms",
       "baseTimeNanoseconds": 1700000000000000000}
with gzip.open(out, "wt") as fp:
    json.dump(doc, fp)
