#!/bin/sh
# Writes tracelens-merge.json, TraceLens's TraceFuse(...).merge() of the three
# ranks here, with the oracle of ../shared/tools/oracle (TraceLens from source
# in ~/tl-oracle).  Run from this folder; CI has no oracle, so the output is
# committed.
cd "$(dirname "$0")" &&
PYTHONPATH=${TL_ORACLE:-$HOME/tl-oracle}/TraceLens /usr/bin/python3 -W ignore -c '
import json
from TraceLens.TraceFusion.trace_fuse import TraceFuse
ev = TraceFuse(["rank0.json", "rank1.json", "rank2.json"]).merge()
with open("tracelens-merge.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(e) for e in ev) + "\n]\n")
' >/dev/null
