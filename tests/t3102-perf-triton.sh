#!/bin/sh
# Inductor Triton kernels (ops.tsv triton_poi_*/red_*/per_*, kind triton)
# in unified_perf_summary, hand-made trace t3102-perf-triton.d/trace.json:
#   add_mul (pointwise, xnumel 8192): (1+1)·8192 = 16384 FLOPs; bf16 bytes
#     2·8192·2 + 8192·2 (output) = 49152 B;
#   _to_copy_mean_pow (reduction, x 64, r 4096): (0+1+2)·64·4096 = 786432;
#     64·4096·2 + 64·0 = 524288 B ("Float" is not a "c10::" size key);
#   cat (in TraceLens's KNOWN_OPS, not in its FLOPs table): 0 FLOPs,
#     8·2 + 8·2 = 32 B;
#   sum without Concrete Inputs: can_model() false, has_perf_model False.
# reference/ is TraceLens's own report of the trace (reference/COMMAND).
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
	assert r["perf_params"] == "{\x27fused_ops\x27: \x27aten.add, aten.mul\x27, \x27xnumel\x27: 8192, \x27rnumel\x27: 1}", r
	assert r["Compute Spec"] == "vector_bfloat16", r
	r = rows["triton_red_fused__to_copy_mean_pow_1"]
	assert float(r["GFLOPS"]) * 1e9 == 786432 and float(r["Data Moved (MB)"]) * 2**20 == 524288, r
	r = rows["triton_poi_fused_cat_2"]
	assert r["GFLOPS"] == "0.0" and r["has_perf_model"] == "True", r
	r = rows["triton_per_fused_sum_3"]
	assert r["GFLOPS"] == "" and r["has_perf_model"] == "False", r
	PY
'
if [ -x "$SHARED/tools/tl-conform" ]; then
	test_expect_success 'the same sheets as TraceLens (reference/ made by its oracle)' '
		"$SHARED/tools/tl-conform" out "$TEST_DIR/reference" >conform.out ||
		{ cat conform.out; exit 1; }
	'
else
	test_skip 'the same sheets as TraceLens' 'no ../shared/tools/tl-conform'
fi
test_expect_success 'Triton kernels are in no per-category sheet' '
	ls out >sheets &&
	! grep -v "^ops_\|^kernel_summary\|^short_\|^unified_perf_summary" sheets
'
test_done
