#!/bin/sh
# --include-overlap-info on a hand-made trace whose kernels overlap across
# six streams (t3302-perf-overlap.d/trace.json: kernels with int and float
# durations, zero-length ones, overlaps under and over 1 µs, up to nine
# overlapping names per op), against TraceLens's own report of it
# (reference/, reference/COMMAND): the _kl_overlap sheets' names come out
# in the order of Python's sets of event UIDs (common/py_set), the
# per-name averages rounded as Python rounds, and kernel summaries of int
# durations print numpy ints.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'tl-report writes the overlap sheets' '
	tl-report --include-overlap-info -o out "$TEST_DIR/trace.json" >path.out 2>err &&
	ls out | grep _kl_overlap >kl &&
	grep -q "^ops_unique_args_kl_overlap.csv\$" kl &&
	grep -q "^unified_perf_summary_kl_overlap.csv\$" kl &&
	grep -q "^GEMM_kl_overlap.csv\$" kl
'
if [ -x "$SHARED/tools/tl-conform" ]; then
	test_expect_success 'the same sheets as TraceLens (reference/ made by its oracle)' '
		"$SHARED/tools/tl-conform" out "$TEST_DIR/reference" >conform.out ||
		{ cat conform.out; exit 1; }
	'
else
	test_skip 'the same sheets as TraceLens' 'no ../shared/tools/tl-conform'
fi
test_expect_success 'tl-perf -s writes one overlap sheet' '
	tl-cat "$TEST_DIR/trace.json" >ev && tl-tree ev >nodes &&
	tl-perf --csv --include-overlap-info -s ops_unique_args_kl_overlap nodes >one.csv &&
	cmp one.csv out/ops_unique_args_kl_overlap.csv
'
test_done
