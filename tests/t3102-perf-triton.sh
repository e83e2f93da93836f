#!/bin/sh
# Inductor Triton kernels (ops.tsv triton_poi_*/red_*/per_*, kind triton)
# in unified_perf_summary, hand-made trace t3102-perf-triton.d/trace.json:
#   add_mul (pointwise, xnumel 8192): (1+1)·8192 = 16384 FLOPs; bf16 bytes
#     2·8192·2 + 8192·2 (output) = 49152 B;
#   _to_copy_mean_pow (reduction, x 64, r 4096): (0+1+2)·64·4096 = 786432;
#     64·4096·2 + 64·4 = 524544 B;
#   cat (an op outside tl's list): has a TraceLens model, no metrics in tl;
#   sum without Concrete Inputs: can_model() false, has_perf_model False.
# Triton ops are in no per-category sheet.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'tl-perf models the Triton kernels in unified_perf_summary' '
	tl-cat "$TEST_DIR/trace.json" >events &&
	tl-tree events >nodes &&
	tl-perf --csv -o out nodes 2>err &&
	python3 - out/unified_perf_summary.csv <<-\PY
	import csv, sys
	rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))}
	assert len(rows) == 4, rows
	r = rows["triton_poi_fused_add_mul_0"]
	assert r["op category"] == "triton", r
	assert float(r["GFLOPS"]) * 1e9 == 16384 and float(r["Data Moved (MB)"]) * 2**20 == 49152, r
	assert r["perf_params"] == "{\x27fused_ops\x27: \x27add, mul\x27, \x27xnumel\x27: 8192, \x27rnumel\x27: 1}", r
	assert r["Compute Spec"] == "vector_bfloat16", r
	r = rows["triton_red_fused__to_copy_mean_pow_1"]
	assert float(r["GFLOPS"]) * 1e9 == 786432 and float(r["Data Moved (MB)"]) * 2**20 == 524544, r
	r = rows["triton_poi_fused_cat_2"]
	assert r["GFLOPS"] == "" and r["has_perf_model"] == "True", r
	r = rows["triton_per_fused_sum_3"]
	assert r["GFLOPS"] == "" and r["has_perf_model"] == "False", r
	PY
'
test_expect_success 'Triton kernels are in no per-category sheet' '
	ls out >sheets &&
	! grep -v "^ops_\|^kernel_summary\|^short_\|^unified_perf_summary" sheets
'
test_done
