#!/usr/bin/env python3
"""splitcount.py BASE.csv VARIANT.csv args|roofline -- expected row counts
of the intersect / only_baseline / only_variant splits, counted from the
inputs' keys alone (plain csv module, no pandas): pairs of rows with equal
keys, baseline rows whose key the variant lacks, and the reverse.  Keys are
TraceLens's: name + Input type/Dims/Strides/Concrete Inputs for 'args';
name + the sorted param:* columns both files have for 'roofline'."""
import csv
import sys


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


base, var, kind = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
if kind == "args":
    keys = ["name", "Input type", "Input Dims", "Input Strides", "Concrete Inputs"]
else:
    common = set(base[0]) & set(var[0])
    keys = ["name"] + sorted(c for c in common if c.startswith("param:"))
kb = [tuple(r[k] for k in keys) for r in base]
kv = [tuple(r[k] for k in keys) for r in var]
both = sum(kv.count(k) for k in kb)
print(both, sum(1 for k in kb if k not in kv), sum(1 for k in kv if k not in kb))
