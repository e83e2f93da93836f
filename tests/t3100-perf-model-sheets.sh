#!/bin/sh
# tl-perf's per-category perf-model sheets and unified_perf_summary's perf
# columns on a hand-made trace (t3100-perf-model-sheets.d/trace.json): a
# float conv2d (2,3,8,8)x(4,3,3,3) and a bf16 flash SDPA (1,2,16,8), each
# with its autograd backward on a second thread (Sequence numbers 5 and 6).
# Hand-checked (spec perf_model §3, §4; core §4.7):
#   CONV_fwd: out (2,4,6,6) = 288; 2*288*27 = 15552 FLOPs; (384+108+288)*4
#     = 3120 B; kernel 10 µs; bias False (the 9-argument quirk);
#   CONV_bwd: only aten::convolution_backward (the forward conv is kept out
#     of the bwd table): 2*288*27 + 2*108*2*36 + 288 (bias [4]) = 31392;
#     2*(288+108+384)*4 + 288 + 4 = 6532 B; kernel 20 µs;
#   SDPA_fwd: 4*1*2*16*16*8 = 16384; 4*256*2 = 2048 B; kernel 4 µs;
#   SDPA_bwd: the forward op's backward pass, flash: 5*8192 = 40960;
#     (2*256*3 + 256)*2 = 3584 B; the linked backward kernel, 8 µs;
#   unified: ScaledDotProductFlashAttentionBackward0, the op below the
#     autograd wrapper (whose parent carries the forward link), is a
#     sole-backward row, SDPA_bwd, with those backward metrics (TraceLens's
#     oracle gives the same row); the conv backward row is the modelled
#     aten::convolution_backward below its wrapper; aten::instance_norm_backward,
#     whose TraceLens model raises NotImplementedError, is in no sheet and
#     its unified row is dropped (percentages over the other rows).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'tl-perf writes the perf-model sheets' '
	tl-cat "$TEST_DIR/trace.json" >events &&
	tl-tree events >nodes &&
	tl-perf --csv -o out nodes 2>err &&
	ls out | grep -v "^ops_\|^kernel_summary\|^short_" >sheets &&
	printf "CONV_bwd.csv\nCONV_fwd.csv\nSDPA_bwd.csv\nSDPA_fwd.csv\nunified_perf_summary.csv\n" >want &&
	test_cmp want sheets
'
for s in CONV_fwd CONV_bwd SDPA_fwd SDPA_bwd unified_perf_summary; do
	test_expect_success "$s matches the hand-checked golden" "
		test_golden \"\$TEST_DIR/$s.csv\" out/$s.csv
	"
done

# MI300X (TraceLens's table): conv compute 15552/163e12 s < memory
# 3120/5300e9 s → MEMORY_BOUND, 100 * 3120/5300e9*1e6 / 10 µs
test_expect_success 'a NotImplementedError model leaves no row' '
	test ! -f out/Normalization.csv &&
	! grep -q "^aten::instance_norm_backward" out/unified_perf_summary.csv &&
	grep -q "^aten::instance_norm_backward" out/ops_summary.csv
'
test_expect_success '--arch MI300X adds roofline columns' '
	tl-perf --csv --arch MI300X -s CONV_fwd nodes >conv.csv &&
	python3 - conv.csv <<-\PY
	import csv, sys
	r = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))[0]
	mem = 3120 / (5300 * 1e9) * 1e6
	assert r["Roofline Bound_first"] == "MEMORY_BOUND", r
	assert abs(float(r["Roofline Time (µs)_first"]) - mem) < 1e-15, r
	assert abs(float(r["Pct Roofline_mean"]) - mem / 10 * 100) < 1e-12, r
	PY
'
test_expect_success '--arch MI300X adds roofline columns to unified_perf_summary' '
	tl-perf --csv --arch MI300X -s unified_perf_summary nodes >uni.csv &&
	python3 - uni.csv <<-\PY
	import csv, sys
	rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))}
	r = rows["aten::convolution"]
	assert r["Roofline Bound"] == "MEMORY_BOUND", r
	assert abs(float(r["Roofline Time (µs)_first"]) - 3120 / 5300e9 * 1e6) < 1e-15, r
	# the sole-backward SDPA row: 3584 B of backward traffic over 8 µs
	r = rows["ScaledDotProductFlashAttentionBackward0"]
	assert abs(float(r["Pct Roofline_mean"]) - 3584 / 5300e9 * 1e6 / 8 * 100) < 1e-12, r
	PY
'
test_expect_success '--arch auto picks MI300X from deviceProperties and says so' '
	tl-perf --csv --arch auto -s SDPA_fwd nodes >sdpa.csv 2>err &&
	grep -q "arch MI300X" err &&
	grep -q "^name,.*Roofline Bound_first" sdpa.csv
'
test_expect_code 1 'an unknown arch is bad input' 'tl-perf --arch NO_SUCH_GPU -o out2 nodes'
test_expect_code 2 'a per-category sheet that no op leads to is a usage error' \
	'tl-perf -s GEMM_fwd nodes'
test_expect_success 'a known sheet without rows is written with its header only' '
	tl-perf --csv -s GEMM nodes >gemm.csv &&
	test $(wc -l <gemm.csv) = 1
'
test_done
