#!/bin/sh
# Synthetic rows of unified_perf_summary (GPU events no row covers), hand-made
# trace t3301-perf-synthetic.d/trace.json against TraceLens's own report of
# it (reference/, reference/COMMAND):
#   a hipGraphLaunch outside any op with a GEMM (first by ts), an at::native
#     reduce and an at::native elementwise kernel: three synthetic rows, all
#     "other" — a synthetic row keeps its owner's kernel_details, so its
#     category falls back on the launch's first kernel, not on its own;
#   c10d::allreduce_ launching an nccl and an elementwise kernel: not a row
#     (nccl), its elementwise kernel a synthetic row of the op, category
#     from the op's first direct kernel (elementwise);
#   new UIDs: first the kernels without a cpu_op (by launch, in order), then
#     those under one (24, 25, 26, 27, then 28).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'tl-report writes the synthetic rows' '
	tl-report -o out "$TEST_DIR/trace.json" >path.out 2>err &&
	grep -c "(Synthetic Op)" out/unified_perf_summary.csv >n &&
	echo 5 >want && test_cmp want n
'
if [ -x "$SHARED/tools/tl-conform" ]; then
	test_expect_success 'the same sheets as TraceLens (reference/ made by its oracle)' '
		"$SHARED/tools/tl-conform" out "$TEST_DIR/reference" >conform.out ||
		{ cat conform.out; exit 1; }
	'
else
	test_skip 'the same sheets as TraceLens' 'no ../shared/tools/tl-conform'
fi
test_done
