#!/usr/bin/env python3
"""gen-inference-cases.py -- small synthetic inference traces for tl's tests.

Usage: gen-inference-cases.py OUTDIR

Writes, under OUTDIR:
  graft/trace.json.gz                    a graph-replay trace: three
      iteration annotations; the first replays three piecewise CUDA graphs
      between eager ops, the second one full graph whose kernels run on two
      streams, the third a graph no capture trace has a batch size for
  graft/capture_traces/cap_bs8.json.gz   the piecewise capture (batch 8,
      three windows: one aligning position by position, one with an extra
      captured launch, one captured in another order than replayed)
  graft/capture_traces/cap_bs4.json.gz   the full capture (batch 4)
  graft/capture_traces/execution_details.json
  pseudo/trace.json.gz                   an eager trace with the ops
      TraceLens's pseudo-op extensions rewrite: vllm::moe_forward with
      Triton matmul_ogs kernels and a TopK child, vllm::outplace_fused_experts
      with GPTQ/AWQ kernels, aiter::fused_moe_ with flydsl stage frames, an
      aiter MLA decode frame, and an sglang_profiler op with a numeric suffix

The references beside the tests are TraceLens's reports of these traces
(../shared/tools/oracle/tracelens-inference, tracelens-report); the
command lines are in each reference folder's COMMAND file.
"""
import gzip
import json
import os
import sys

CPU_PID, CPU_TID, GPU_PID = 100, 100, 0


class Trace:
    def __init__(self):
        self.ev = [
            {"ph": "M", "name": "process_name", "pid": CPU_PID, "tid": 0, "ts": 0, "args": {"name": "python3"}},
            {"ph": "M", "name": "thread_name", "pid": CPU_PID, "tid": CPU_TID, "ts": 0,
             "args": {"name": "thread 100 (python3)"}},
            {"ph": "M", "name": "process_name", "pid": GPU_PID, "tid": 0, "ts": 0, "args": {"name": "GPU 0"}},
        ]
        self.corr = 1000
        self.ext = 1
        self.pyid = 1

    def add(self, e):
        self.ev.append(e)
        return e

    def py(self, name, ts, dur):
        self.pyid += 1
        return self.add({"ph": "X", "cat": "python_function", "name": name, "pid": CPU_PID,
                         "tid": CPU_TID, "ts": ts, "dur": dur,
                         "args": {"Python parent id": self.pyid - 1, "Python id": self.pyid}})

    def op(self, name, ts, dur, dims=None, types=None, strides=None, concrete=None, seq=None):
        self.ext += 1
        args = {"External id": self.ext}
        if seq is not None:
            args["Sequence number"] = seq
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = types
            args["Input Strides"] = strides
            args["Concrete Inputs"] = concrete if concrete is not None else [""] * len(dims)
        return self.add({"ph": "X", "cat": "cpu_op", "name": name, "pid": CPU_PID, "tid": CPU_TID,
                         "ts": ts, "dur": dur, "args": args})

    def launch(self, ts, kernel, kts, kdur, stream=7, name="hipLaunchKernel"):
        """An eager launch: runtime call, ac2g flow, kernel."""
        self.corr += 1
        c = self.corr
        self.add({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": CPU_PID, "tid": CPU_TID,
                  "ts": ts, "dur": 2.0, "args": {"correlation": c, "External id": self.ext}})
        self.add({"ph": "s", "id": c, "pid": CPU_PID, "tid": CPU_TID, "ts": ts, "cat": "ac2g",
                  "name": "ac2g"})
        self.add({"ph": "X", "cat": "kernel", "name": kernel, "pid": GPU_PID, "tid": stream,
                  "ts": kts, "dur": kdur,
                  "args": {"correlation": c, "stream": stream, "device": 0, "External id": self.ext}})
        self.add({"ph": "f", "id": c, "pid": GPU_PID, "tid": stream, "ts": kts, "cat": "ac2g",
                  "name": "ac2g", "bp": "e"})

    def graph(self, ts, kernels):
        """A graph replay: hipGraphLaunch and its kernels (name, ts, dur, stream)."""
        self.corr += 1
        c = self.corr
        self.add({"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch", "pid": CPU_PID,
                  "tid": CPU_TID, "ts": ts, "dur": 20.0,
                  "args": {"correlation": c, "External id": self.ext}})
        for name, kts, kdur, stream in kernels:
            self.add({"ph": "X", "cat": "kernel", "name": name, "pid": GPU_PID, "tid": stream,
                      "ts": kts, "dur": kdur,
                      "args": {"correlation": c, "stream": stream, "device": 0}})

    def captured(self, ts, kernel):
        """A launch while capturing: no kernel runs, args.kernel names it."""
        self.corr += 1
        self.add({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": CPU_PID,
                  "tid": CPU_TID, "ts": ts, "dur": 2.0,
                  "args": {"correlation": self.corr, "External id": self.ext, "kernel": kernel}})

    def annotation(self, name, ts, dur):
        self.add({"ph": "X", "cat": "user_annotation", "name": name, "pid": CPU_PID,
                  "tid": CPU_TID, "ts": ts, "dur": dur, "args": {"External id": 1}})

    def write(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        doc = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X"}],
               "traceEvents": self.ev}
        with gzip.GzipFile(path, "wb", mtime=0) as f:
            f.write(json.dumps(doc).encode())


BF16 = "c10::BFloat16"


def mm(t, ts, m, k, n, kernel, kts, kdur, name="aten::mm"):
    t.op(name, ts, 10, [[m, k], [k, n]], [BF16, BF16], [[k, 1], [n, 1]])
    t.launch(ts + 2, kernel, kts, kdur)


def graft_trace(out):
    t = Trace()
    top = t.py("vllm/v1/worker/gpu_model_runner.py(3380): execute_model", 900.0, 9000.0)
    del top
    # iteration 1: batch 6 → the batch-8 piecewise capture
    t.annotation("execute_context_1(4)_generation_2(2)", 1000.0, 3000.0)
    t.py("nn.Module: Model_0", 1010.0, 2900.0)
    mm(t, 1020.0, 6, 16, 32, "Cijk_eager_mm", 1100.0, 5.5)
    t.py("vllm/compilation/cuda_graph.py(208): __call__", 1200.0, 100.0)
    t.graph(1210.0, [("gemm_kA", 1300.0, 11.0, 7), ("elt_kB", 1320.0, 3.25, 7)])
    t.op("aten::add", 1400.0, 10, [[6, 32], [6, 32]], [BF16, BF16], [[32, 1], [32, 1]])
    t.launch(1402.0, "elementwise_add", 1450.0, 2.5)
    t.py("vllm/compilation/cuda_graph.py(208): __call__", 1500.0, 100.0)
    t.graph(1510.0, [("gemm_kA", 1600.0, 12.0, 7), ("gemm_kA", 1620.0, 12.5, 7),
                     ("red_kC", 1640.0, 4.0, 7)])
    t.py("vllm/compilation/cuda_graph.py(208): __call__", 1800.0, 100.0)
    t.graph(1810.0, [("gemm_kA", 1900.0, 10.0, 7), ("elt_kB", 1920.0, 3.0, 7)])
    # iteration 2: batch 3 → the batch-4 full capture; kernels on two streams
    t.annotation("execute_context_0(0)_generation_3(3)", 5000.0, 2000.0)
    t.py("vllm/compilation/cuda_graph.py(208): __call__", 5100.0, 100.0)
    t.graph(5110.0, [("gemm_kA", 5200.0, 9.0, 7), ("elt_kB", 5205.0, 3.0, 9),
                     ("red_kC", 5220.0, 4.0, 7)])
    # iteration 3: batch 100, more than any capture: not merged
    t.annotation("execute_context_0(0)_generation_100(100)", 8000.0, 1000.0)
    t.py("vllm/compilation/cuda_graph.py(208): __call__", 8100.0, 100.0)
    t.graph(8110.0, [("gemm_kA", 8200.0, 20.0, 7)])
    t.write(os.path.join(out, "trace.json.gz"))


def capture_window(t, ts, ops):
    """StreamBeginCapture, then per op (name, dims, kernels...), StreamEndCapture."""
    t.add({"ph": "X", "cat": "cuda_runtime", "name": "hipStreamBeginCapture", "pid": CPU_PID,
           "tid": CPU_TID, "ts": ts, "dur": 1.0, "args": {"correlation": 1, "External id": 1}})
    t.py("vllm/compilation/piecewise_backend.py(334): __call__", ts + 2, 90.0)
    t.py("nn.Module: Layer_0", ts + 3, 88.0)
    at = ts + 4
    for name, dims, types, strides, kernels in ops:
        t.op(name, at, 8.0 * len(kernels), dims, types, strides)
        for i, k in enumerate(kernels):
            t.captured(at + 1 + 8.0 * i, k)
        at += 8.0 * len(kernels) + 2
    t.add({"ph": "X", "cat": "cuda_runtime", "name": "hipStreamEndCapture", "pid": CPU_PID,
           "tid": CPU_TID, "ts": ts + 100, "dur": 1.0, "args": {"correlation": 2, "External id": 2}})


def mmop(m, k, n, kernel):
    return ("aten::mm", [[m, k], [k, n]], [BF16, BF16], [[k, 1], [n, 1]], [kernel])


def capture_bs8(out):
    t = Trace()
    t.py("vllm/v1/worker/gpu_model_runner.py(4000): capture_model", 50.0, 1000.0)
    gelu = ("aten::gelu", [[8, 32]], [BF16], [[32, 1]], ["elt_kB"])
    red = ("aten::sum", [[8, 32]], [BF16], [[32, 1]], ["red_kC"])
    capture_window(t, 100.0, [mmop(8, 16, 32, "gemm_kA"), gelu])
    # one more launch than the replay has: the greedy alignment drops it
    capture_window(t, 300.0, [mmop(8, 32, 64, "gemm_kA"), mmop(8, 64, 32, "gemm_kA"), red,
                              ("aten::zero_", [[8]], [BF16], [[1]], ["ghost_kZ"])])
    # captured in another order than replayed: aligned by kernel name
    capture_window(t, 500.0, [gelu, mmop(8, 16, 48, "gemm_kA")])
    t.write(os.path.join(out, "cap_bs8.json.gz"))


def capture_bs4(out):
    t = Trace()
    t.py("vllm/v1/worker/gpu_model_runner.py(4000): capture_model", 50.0, 400.0)
    capture_window(t, 100.0, [mmop(4, 16, 32, "gemm_kA"),
                              ("aten::gelu", [[4, 32]], [BF16], [[32, 1]], ["elt_kB"]),
                              ("aten::sum", [[4, 32]], [BF16], [[32, 1]], ["red_kC"])])
    t.write(os.path.join(out, "cap_bs4.json.gz"))


def pseudo_trace(out):
    t = Trace()
    t.py("vllm/v1/worker/gpu_model_runner.py(3380): execute_model", 900.0, 9000.0)
    t.py("nn.Module: GptOss_0", 950.0, 8000.0)
    # vllm::moe_forward: TopK child, two matmul_ogs kernels and the scatter
    moe_dims = [[8, 64], [8, 32], [], []]
    t.op("vllm::moe_forward", 1000.0, 400.0, moe_dims, [BF16, BF16, "", ""],
         [[64, 1], [32, 1], [], []], ["", "", "", ""], seq=77)
    t.op("TopK", 1005.0, 20.0, [[8, 32], []], [BF16, "Scalar"], [[32, 1], []], ["", "4"])
    t.launch(1010.0, "topk_kernel", 1100.0, 2.0)
    t.py("triton_kernels/matmul_ogs.py(352): matmul_ogs", 1040.0, 50.0)
    t.launch(1045.0, "_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu", 1120.0, 30.0)
    t.py("triton_kernels/matmul_ogs.py(352): matmul_ogs", 1100.0, 50.0)
    t.launch(1105.0, "_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1", 1160.0, 20.0)
    t.launch(1200.0, "_finalize_matmul_scatter_bf16", 1190.0, 4.0)
    # vllm::outplace_fused_experts: GPTQ/AWQ up and down
    t.op("vllm::outplace_fused_experts", 2000.0, 100.0,
         [[8, 64], [16, 256, 32], [16, 64, 64], [8, 2], [8, 2]],
         [BF16, "unsigned char", "unsigned char", "float", "int"],
         [[64, 1], [8192, 32, 1], [4096, 64, 1], [2, 1], [2, 1]])
    t.launch(2010.0, "fused_moe_kernel_gptq_awq_0", 2100.0, 15.0)
    t.launch(2050.0, "fused_moe_kernel_gptq_awq_1", 2120.0, 12.0)
    # aiter::fused_moe_ with flydsl stage frames
    t.op("aiter::fused_moe_", 3000.0, 300.0, [[8, 64], [16, 256, 64], [16, 64, 128], [8, 2], [8, 2]],
         [BF16, "c10::Float4_e2m1fn_x2", "c10::Float4_e2m1fn_x2", "float", "int"],
         [[64, 1], [16384, 64, 1], [8192, 128, 1], [2, 1], [2, 1]], seq=91)
    t.py("aiter/ops/flydsl.py(10): flydsl_moe_stage1", 3010.0, 100.0)
    t.launch(3020.0, "flydsl_stage1_kernel", 3100.0, 25.0)
    t.py("aiter/ops/flydsl.py(20): flydsl_moe_stage2", 3150.0, 100.0)
    t.launch(3160.0, "flydsl_stage2_kernel", 3200.0, 20.0)
    # an aiter MLA decode frame wrapping its stage-1 op
    t.py("aiter/mla.py(200): mla_decode_fwd", 4000.0, 200.0)
    t.op("aiter::mla_decode_stage1_asm_fwd", 4010.0, 50.0,
         [[8, 16, 576], [64, 1, 576], [8], [9], [8], [8, 16, 1, 512], [8, 16, 1]],
         [BF16, BF16, "int", "int", "int", "float", "float"],
         [[9216, 576, 1], [576, 576, 1], [1], [1], [1], [8192, 512, 512, 1], [16, 1, 1]])
    t.launch(4015.0, "mla_stage1_kernel", 4100.0, 30.0)
    t.op("aiter::mla_reduce", 4080.0, 20.0, [[8, 16, 1, 512]], ["float"], [[8192, 512, 512, 1]])
    t.launch(4085.0, "mla_reduce_kernel", 4140.0, 5.0)
    # sglang_profiler ops lose their numeric suffix
    t.op("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts_12", 5000.0, 20.0,
         [[8, 2], [8, 2]], ["int", "float"], [[2, 1], [2, 1]])
    t.launch(5005.0, "append_shared_kernel", 5100.0, 2.0)
    t.write(os.path.join(out, "trace.json.gz"))


def main():
    out = sys.argv[1]
    graft = os.path.join(out, "graft")
    graft_trace(graft)
    cap = os.path.join(graft, "capture_traces")
    capture_bs8(cap)
    capture_bs4(cap)
    with open(os.path.join(cap, "execution_details.json"), "w") as f:
        json.dump([{"file": "cap_bs4.json.gz", "batch_size": 4, "mode": "FULL"},
                   {"file": "cap_bs8.json.gz", "batch_size": 8, "mode": "PIECEWISE"}], f, indent=2)
    pseudo_trace(os.path.join(out, "pseudo"))


if __name__ == "__main__":
    main()
