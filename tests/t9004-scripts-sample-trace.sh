#!/bin/sh
# scripts/make-sample-trace regenerates share/tl/sample/trace.json byte
# for byte, and the sample is a sound trace: valid JSON (python3), read by
# tl-cat with every element, launches linked to kernels by correlation.
. "$TL_SRC/tests/lib.sh"
S=$TL_SRC/share/tl/sample/trace.json

test_expect_success 'regenerating gives identical bytes' '
	sh "$TL_SRC/scripts/make-sample-trace" new.json && cmp new.json "$S"
'

test_expect_success 'valid JSON; tl-cat reads every element' '
	n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))[\"traceEvents\"]))" "$S") &&
	test "$n" -gt 200 &&
	tl-cat "$S" >s.tsv && grep -qx "#end	0	$n	0" s.tsv
'

test_expect_success 'every kernel and memcpy has its launch (correlation), some after it' '
	python3 - "$S" <<-\EOF_PY
	import json, sys
	ev = json.load(open(sys.argv[1]))["traceEvents"]
	where = {}
	for i, e in enumerate(ev):
	    if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
	        where[e["args"]["correlation"]] = i
	gpu = [(i, e) for i, e in enumerate(ev) if e.get("cat") in ("kernel", "gpu_memcpy")]
	assert gpu and all(e["args"]["correlation"] in where for _, e in gpu)
	assert any(i < where[e["args"]["correlation"]] for i, e in gpu), "no kernel before its launch"
	assert any(e["name"].startswith("ncclDevKernel_AllReduce") for _, e in gpu)
	assert all(e["pid"] == 0 and e["tid"] == e["args"]["stream"] for _, e in gpu)
	EOF_PY
'
test_done
