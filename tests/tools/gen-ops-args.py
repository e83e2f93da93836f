#!/usr/bin/env python3
"""gen-ops-args.py -- write share/tl/ops-args.tsv from TraceLens's source.

Usage: PYTHONPATH=~/tl-oracle/TraceLens /usr/bin/python3 gen-ops-args.py > share/tl/ops-args.tsv

For every perf-model class of TraceLens's op_to_perf_model_class_map, the
profiler args ("Input Dims", "Input type", "Input Strides", "Concrete
Inputs") that the methods run when the model is built and evaluated
(get_param_details, __init__, flops, bytes, as inherited) read with
event["args"][KEY] outside a try that catches KeyError: an event without
that key makes the model raise, and TraceLens then reports the op without
metrics.  Found by walking the methods' syntax trees (ast).
"""
import ast
import inspect
import subprocess
import sys
import textwrap
import warnings

warnings.filterwarnings("ignore")
from TraceLens.PerfModel.torch_op_mapping import op_to_perf_model_class_map  # noqa: E402

KEYS = {"Input Dims": "dims", "Input type": "types", "Input Strides": "strides",
        "Concrete Inputs": "concrete"}


def unguarded(fn):
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):
        return set()
    found = set()

    def visit(node, guarded):
        if isinstance(node, ast.Try):
            g = guarded or any(h.type is None or "KeyError" in ast.dump(h.type)
                               or "Exception" in ast.dump(h.type) for h in node.handlers)
            for n in node.body:
                visit(n, g)
            for h in node.handlers:
                for n in h.body:
                    visit(n, guarded)
            for n in node.orelse + node.finalbody:
                visit(n, guarded)
            return
        if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                and node.slice.value in KEYS and not guarded):
            found.add(KEYS[node.slice.value])
        for c in ast.iter_child_nodes(node):
            visit(c, guarded)

    visit(tree, False)
    return found


def required(cls):
    req = set()
    for meth in ("get_param_details", "__init__", "flops", "bytes"):
        for k in cls.__mro__:
            if meth in k.__dict__:
                req |= unguarded(getattr(k.__dict__[meth], "__func__", k.__dict__[meth]))
                break
    return req


rev = "unknown"
try:
    import TraceLens
    rev = subprocess.run(["git", "-C", TraceLens.__path__[0], "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or rev
except Exception:
    pass
classes = sorted({c.__name__: c for c in op_to_perf_model_class_map.values()}.items())
print("# ops-args.tsv: the profiler args each TraceLens perf-model class reads")
print("# without a fallback (see tl-ops(5)); an event lacking one gets no metrics,")
print("# as TraceLens's model raises KeyError.  Generated from TraceLens %s by" % rev)
print("# tests/tools/gen-ops-args.py; do not edit by hand.")
print("# class<TAB>args (dims, types, strides, concrete; '-' for none)")
for name, cls in classes:
    r = [k for k in ("dims", "types", "strides", "concrete") if k in required(cls)]
    print("%s\t%s" % (name, ",".join(r) if r else "-"))
