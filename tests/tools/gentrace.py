#!/usr/bin/env python3
"""gentrace.py [--KEY=VALUE ...] OUT.json: a synthetic Kineto trace for the
complexity and robustness tests, each dimension set on its own:

  ops=N        op groups, one after another (default 10)
  nest=D       cpu_ops nested in each group, outermost first (1)
  kernels=K    kernels the innermost op launches (cudaLaunchKernel, ac2g
               flows, kernel on the GPU) (1)
  name_len=L   pad every cpu_op and kernel name to L bytes (0: as is)
  distinct=1   every group's ops get their own name (aten::op_I)
  nargs=A      extra args keys on every cpu_op (0)
  arg_depth=X  an args value nested X lists deep on every cpu_op (0)
  dims=M       entries of the innermost op's Input Dims (2: a GEMM)
  gpus=G       GPUs (pid) the kernels go round (1)
  streams=S    streams (tid) the kernels go round on each GPU (1)
  mangled=1    kernels get Itanium-mangled names (_ZN5aiter...)

Times are microseconds, groups about 100 us apart; every event is inside its
parent, so the tree is exactly what the numbers say."""
import json, sys

opt = {"ops": 10, "nest": 1, "kernels": 1, "name_len": 0, "distinct": 0, "nargs": 0,
       "arg_depth": 0, "dims": 2, "gpus": 1, "streams": 1, "mangled": 0}
out = None
for a in sys.argv[1:]:
    if a.startswith("--"):
        k, v = a[2:].split("=", 1)
        if k not in opt:
            sys.exit("gentrace: unknown --%s" % k)
        opt[k] = int(v)
    else:
        out = a
if not out:
    sys.exit(__doc__)

def pad(name):
    n = opt["name_len"]
    return name + "x" * (n - len(name)) if n > len(name) else name

extra = "".join(', "k%d": %d' % (j, j) for j in range(opt["nargs"]))
if opt["arg_depth"]:
    extra += ', "deep": ' + "[" * opt["arg_depth"] + "1" + "]" * opt["arg_depth"]
dims_inner = json.dumps([[64, 32]] * (opt["dims"] - 1) + [[32, 16]]) if opt["dims"] else "[]"
types_inner = json.dumps(["c10::BFloat16"] * opt["dims"])
strides_inner = json.dumps([[32, 1]] * opt["dims"])
conc_inner = json.dumps([""] * opt["dims"])

w = open(out, "w")
w.write('{"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],\n"traceEvents": [\n')
first = True
def emit(s):
    global first
    w.write(s if first else ",\n" + s)
    first = False

corr = 0
K, D = opt["kernels"], opt["nest"]
span = 90.0 + 2 * D * 1e-3	# room for D nested ops, 1 ns apart at each end
for i in range(opt["ops"]):
    t0 = i * (span + 10.0)
    for j in range(D):
        inner = j == D - 1
        name = "aten::op_%d" % i if opt["distinct"] else ("aten::mm" if inner else "aten::linear")
        ts, dur = t0 + j * 1e-3, span - 2 * j * 1e-3
        if inner:
            args = ('"External id": %d, "Input Dims": %s, "Input type": %s, "Input Strides": %s, '
                    '"Concrete Inputs": %s' % (i, dims_inner, types_inner, strides_inner, conc_inner))
        else:
            args = '"External id": %d' % i
        emit('{"ph": "X", "cat": "cpu_op", "name": %s, "pid": 1, "tid": 1, "ts": %.3f, "dur": %.3f, '
             '"args": {%s%s}}' % (json.dumps(pad(name)), ts, dur, args, extra))
    base = t0 + D * 1e-3
    for k in range(K):
        corr += 1
        lts = base + k * (30.0 / K)
        gpu = k % opt["gpus"]
        stream = 7 + (k // opt["gpus"]) % opt["streams"]
        kts = base + 40.0 + k * (40.0 / K)
        kname = ("_ZN5aiter11fmha_fwd_v3ILi%dEEEvv" % (k % 10)) if opt["mangled"] else "void gemm_kernel_%d<float>()" % (k % 10)
        emit('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, '
             '"ts": %.4f, "dur": %.4f, "args": {"External id": %d, "correlation": %d}}'
             % (lts, 15.0 / K, i, corr))
        emit('{"ph": "s", "id": %d, "pid": 1, "tid": 1, "ts": %.4f, "cat": "ac2g", "name": "ac2g"}'
             % (corr, lts))
        emit('{"ph": "X", "cat": "kernel", "name": %s, "pid": %d, "tid": %d, "ts": %.4f, "dur": %.4f, '
             '"args": {"External id": %d, "correlation": %d, "stream": %d, "device": %d}}'
             % (json.dumps(pad(kname)), gpu, stream, kts, 25.0 / K, i, corr, stream, gpu))
        emit('{"ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %.4f, "cat": "ac2g", "name": "ac2g", "bp": "e"}'
             % (corr, gpu, stream, kts))
w.write("\n]}\n")
w.close()
