#!/bin/sh
# HTA's critical paths for t8003 (the live oracle, ../shared/tools/oracle,
# set up in ~/tl-oracle).  Run from this folder:  sh make-refs.sh ../../../shared
# CI has no oracle: the outputs are committed.
set -e
shared=${1:?usage: make-refs.sh SHARED_DIR}
cp=$shared/tools/oracle/hta-critical-path
corpus=$shared/corpus/hta-critical-path
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # CASE TRACE ANNOTATION INSTANCE
	mkdir -p "$tmp/$1" && cp "$2" "$tmp/$1/" && rm -rf "$1" &&
	"$cp" "$tmp/$1" 0 "$3" "$4" "$1" >/dev/null 2>&1
}
run cuda_event_sync "$corpus/cuda_event_sync/event_sync_trace.json.gz" ProfilerStep 0
run cuda_event_sync_multi_stream "$corpus/cuda_event_sync_multi_stream/event_sync_trace.json.gz" "" 0
run sample ../../share/tl/sample/trace.json ProfilerStep 0
# end_to_end as HTA's own test runs it: data_load_events=["data_load"]
mkdir -p "$tmp/e2e" && cp "$corpus/end_to_end/simple_add/input/trace.json.gz" "$tmp/e2e/"
rm -rf end_to_end && mkdir end_to_end
python3 - "$tmp/e2e" end_to_end <<'PY'
import os, sys, warnings, logging
sys.path.insert(0, os.path.join(os.environ.get("TL_ORACLE", os.path.expanduser("~/tl-oracle")),
                                "HolisticTraceAnalysis"))
warnings.filterwarnings("ignore"); logging.disable(logging.CRITICAL)
from hta.trace_analysis import TraceAnalysis
src, out = sys.argv[1:3]
ta = TraceAnalysis(trace_dir=src)
g, ok = ta.critical_path_analysis(rank=0, annotation="", instance_id=0, data_load_events=["data_load"])
assert ok
g.summary().rename("pct_of_path").to_frame().reset_index().to_csv(
    os.path.join(out, "critical_path_summary.csv"), index=False)
g.get_critical_path_breakdown().to_csv(os.path.join(out, "critical_path_breakdown.csv"), index=False)
ta.overlay_critical_path_analysis(0, g, out)
PY
