# The uids NcclAnalyser keeps of a trace, computed from the JSON with
# TraceLens's own rule (nccl_analyser._collective_filter with re.IGNORECASE):
# an independent check of tl-coll --extract's filter.
import json, re, sys
pats = [re.compile(p, re.IGNORECASE) for p in ("rccl", "nccl", "cross_device_reduce")]
events = json.load(open(sys.argv[1]))["traceEvents"]
for uid, e in enumerate(events):
    if e.get("cat") != "kernel" or not any(p.search(e.get("name", "")) for p in pats):
        continue
    a = e.get("args", {})
    if a.get("correlation") is None and a.get("External id") is None:
        continue
    if "ts" not in e or "dur" not in e:
        continue   # TraceLens raises KeyError; tl leaves it out and says so
    print(uid)
