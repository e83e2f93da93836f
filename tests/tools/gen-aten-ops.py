#!/usr/bin/env python3
"""gen-aten-ops.py -- write share/tl/aten-ops.tsv from TraceLens's source.

Usage: PYTHONPATH=~/tl-oracle/TraceLens /usr/bin/python3 gen-aten-ops.py > share/tl/aten-ops.tsv

TraceLens's TritonCompiledPerfModel splits a torch.compile kernel name
(triton_poi_fused_<op>_<op>_..._<n>) into the ATen ops it fused by
segmenting it against KNOWN_OPS (TraceLens/PerfModel/_known_aten_ops.py,
itself generated from torch.ops.aten and torch.distributed).  tl's triton
model reads the same names from this file, one per line, sorted.
"""
import subprocess

import TraceLens
from TraceLens.PerfModel._known_aten_ops import KNOWN_OPS

src = open(TraceLens.__path__[0] + "/PerfModel/_known_aten_ops.py").read()
origin = [l[2:].strip() for l in src.splitlines() if l.startswith("# Auto-generated")]
rev = subprocess.run(["git", "-C", TraceLens.__path__[0], "rev-parse", "--short", "HEAD"],
                     capture_output=True, text=True).stdout.strip() or "unknown"
print("# aten-ops.tsv: the %d ATen op names TraceLens splits Triton fused-kernel" % len(KNOWN_OPS))
print("# names against (TritonCompiledPerfModel, tl-ops(5) kind triton).")
print("# From TraceLens %s, TraceLens/PerfModel/_known_aten_ops.py KNOWN_OPS" % rev)
print("# (%s), MIT, (c) AMD;" % (origin[0] if origin else "generated"))
print("# written by tests/tools/gen-aten-ops.py; do not edit by hand.")
for op in sorted(KNOWN_OPS):
    print(op)
