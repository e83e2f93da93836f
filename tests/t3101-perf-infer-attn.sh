#!/bin/sh
# tl-perf gives vllm::unified_attention_with_output its iteration label
# (TraceLens apply_annotation, spec core §2.8) and the infer_attn model
# turns it into the InferenceAttention_fwd sheet.  Hand-made trace
# (t3101-perf-infer-attn.d/trace.json), all ops with Q (N,64,64), K/V
# (2000,16,8,64) bf16 and one 10 µs kernel:
#   - the vLLM op at ts 10..30 is enclosed by "early_short" (1..21, ends
#     first: no), the vLLM decode label (5..105: the first by ts that
#     encloses) and "later_gpu" (8..208, later ts) → spec §6 row 14:
#     0.902529024 GFLOPs, 113340416 B = 108.08984375 MB;
#   - aiter::mha_varlen_fwd inside the same label is not annotated (the
#     report annotates only vllm::unified_attention_with_output): no perf;
#   - the second vLLM op (305..320) ends exactly when "exact_end" does
#     (enclosing needs e.end < ann.end): "NA", no perf.
# The two without perf stay in unified_perf_summary with kernel time only.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'tl-perf writes InferenceAttention_fwd' '
	tl-cat "$TEST_DIR/trace.json" >events &&
	tl-tree events >nodes &&
	tl-perf --csv -o out nodes 2>err &&
	test -f out/InferenceAttention_fwd.csv &&
	grep -q "InferenceAttention_fwd: 2/3 events" err
'
test_expect_success 'the annotated vLLM op has the decode metrics' '
	python3 - out/InferenceAttention_fwd.csv <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
	assert len(rows) == 1, rows
	r = rows[0]
	assert r["name"] == "vllm::unified_attention_with_output", r
	assert float(r["GFLOPS_first"]) == 0.902529024, r
	assert float(r["Data Moved (MB)_first"]) == 113340416 / 2**20, r
	assert (r["param: g_sq"], r["param: g_sk"], r["param: g_sqsk"]) == ("32", "55086", "55086"), r
	assert r["param: c_sq"] == "0" and r["param: N_KV"] == "16", r
	assert r["Compute Spec"] == "matrix_bf16", r
	PY
'
test_expect_success 'ops without an annotation keep only their kernel time' '
	python3 - out/unified_perf_summary.csv <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
	got = sorted((r["name"], r["Input Dims"][:13], r["GFLOPS"] != "", r["Kernel Time (µs)_sum"])
		     for r in rows)
	want = [("aiter::mha_varlen_fwd", "((32, 64, 64)", False, "10.0"),
		("vllm::unified_attention_with_output", "((16, 64, 64)", False, "10.0"),
		("vllm::unified_attention_with_output", "((32, 64, 64)", True, "10.0")]
	assert got == want, got
	PY
'
test_done
