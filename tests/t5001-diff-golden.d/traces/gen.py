# Writes the hand-made trace pairs of t5001 (run in this folder: python3 gen.py).
import json, sys
# op tree: (name, dims, [children]) ; leaf launch: ("@rt", kernel_name, dur)
def trace(ops, rt_names):
    ev = []; corr = [100]; t = [1000.0]
    def emit(node, depth):
        if node[0] == "@":
            rt = rt_names
            name, kname, kdur = node[1], node[2], node[3]
            c = corr[0]; corr[0] += 1
            ts = t[0]; t[0] += 2.0
            ev.append({"ph":"X","cat":"cuda_runtime","name":name,"pid":1,"tid":1,"ts":round(ts,3),"dur":1.0,"args":{"correlation":c}})
            ev.append({"ph":"s","id":c,"pid":1,"tid":1,"ts":round(ts,3),"cat":"ac2g","name":"ac2g"})
            kts = 5000.0 + (c - 100) * 10.0
            ev.append({"ph":"f","id":c,"pid":0,"tid":7,"ts":kts,"cat":"ac2g","name":"ac2g","bp":"e"})
            ev.append({"ph":"X","cat":"kernel","name":kname,"pid":0,"tid":7,"ts":kts,"dur":kdur,"args":{"correlation":c,"stream":7}})
            return ts, 1.0
        name, dims, kids = node
        start = t[0]; t[0] += 1.0
        i = len(ev)
        ev.append(None)
        for k in kids:
            emit(k, depth + 1)
        t[0] += 1.0
        dur = round(t[0] - start, 3)
        e = {"ph":"X","cat":"cpu_op","name":name,"pid":1,"tid":1,"ts":round(start,3),"dur":dur,"args":{}}
        if dims is not None:
            e["args"] = {"Input Dims": dims, "Input type": ["float"] * len(dims), "Input Strides": [[1] * len(d) for d in dims], "Concrete Inputs": [""] * len(dims)}
        ev[i] = e
        t[0] += 1.0
    for op in ops:
        emit(op, 0)
    return {"traceEvents": ev}

def launch(k, d=4.0, rt="cudaLaunchKernel"):
    return ("@", rt, k, d)

base = [
    ("aten::linear", [[8, 16], [16, 16]], [("aten::addmm", [[16], [8, 16], [16, 16]], [launch("gemm_kernel", 6.5)])]),
    ("aten::relu", [[8, 16]], [launch("relu_kernel", 1.25)]),
    ("aten::view", [[8, 16]], []),
]
w = lambda name, ops: json.dump(trace(ops, None), open(name, "w"))
w("base.json", base)
# one inserted op
ins = base[:2] + [("aten::add", [[8, 16], [8, 16]], [launch("add_kernel", 2.0)])] + base[2:]
w("inserted.json", ins)
# different lowering of a convolution
conv1 = [("aten::conv2d", [[1, 3, 8, 8]], [("aten::convolution", None, [("aten::_convolution", None, [
    ("aten::miopen_convolution", [[1, 3, 8, 8]], [launch("igemm_fwd", 9.0, "hipExtModuleLaunchKernel"), launch("transpose_kernel", 1.5, "hipExtModuleLaunchKernel")])])])])]
conv2 = [("aten::conv2d", [[1, 3, 8, 8]], [("aten::convolution", None, [("aten::_convolution", None, [
    ("aten::cudnn_convolution", [[1, 3, 8, 8]], [launch("cutlass_fprop", 5.0)])])])])]
w("conv_rocm.json", conv1)
w("conv_cuda.json", conv2)
# repeated same-name siblings: the add that is gone in trace2 is the middle one
rep1 = [("aten::block", None, [("aten::add", [[4]], [launch("add_a", 1.0)]), ("aten::add", [[4]], [launch("add_b", 1.0)]), ("aten::add", [[4]], [launch("add_c", 1.0)])])]
rep2 = [("aten::block", None, [("aten::add", [[4]], [launch("add_a", 1.0)]), ("aten::add", [[4]], [launch("add_c", 1.0)])])]
w("rep1.json", rep1)
w("rep2.json", rep2)
# an op appended at the end: a trace2-only root with GPU work (no LCA)
w("appended.json", base + [("aten::sigmoid", [[8, 16]], [launch("sigmoid_kernel", 3.0)])])
