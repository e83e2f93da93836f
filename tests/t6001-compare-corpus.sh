#!/bin/sh
# tl-compare on TraceLens's own comparison tests: the two thread-count
# report folders of compare_test (rocprof-style kernel_summary) and
# compare_test_ops (PyTorch ops_summary) must pass tl-conform against the
# reference/ folder TraceLens wrote.
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip 'corpus comparisons' "no $SHARED/corpus"
	test_done
	exit
fi

# compare CORPUS_DIR OUT [--sheets ...]: compare the 256 and 512 thread reports
compare() {
	c=$SHARED/corpus/$1; out=$2; shift 2
	tl-compare "$c"/256thread/*_csvs "$c"/512thread/*_csvs \
		--names 256thread,512thread "$@" -o "$out" 2>"$out.err"
}

conform() {
	"$SHARED/tools/tl-conform" "$1" "$SHARED"/corpus/$2/reference/*_csvs \
		>"$1.conform" 2>&1 || { cat "$1.conform"; return 1; }
}

test_expect_success 'compare_test: gpu_timeline and legacy kernel_summary conform' '
	compare compare_test out1 --sheets gpu_timeline,kernel_summary &&
	conform out1 compare_test &&
	grep -q "^PASS gpu_timeline.csv rows=5 " out1.conform &&
	grep -q "^PASS kernel_summary.csv rows=46 " out1.conform &&
	test ! -s out1.err
'

test_expect_success 'compare_test_ops: gpu_timeline and ops_summary conform' '
	compare compare_test_ops out2 --sheets gpu_timeline,ops_summary &&
	conform out2 compare_test_ops &&
	grep -q "^PASS gpu_timeline.csv rows=8 " out2.conform &&
	grep -q "^PASS ops_summary.csv rows=38 " out2.conform
'

# Stricter than tl-conform: values are read with pandas' own float parser,
# so even the last digits of carried and computed floats are TraceLens's.
test_expect_success 'the compared sheets are byte for byte the references' '
	for f in "$SHARED"/corpus/compare_test/reference/*_csvs/*.csv; do
		cmp "$f" out1/$(basename "$f") || exit 1
	done &&
	for f in "$SHARED"/corpus/compare_test_ops/reference/*_csvs/*.csv; do
		cmp "$f" out2/$(basename "$f") || exit 1
	done
'

test_expect_success 'default sheets (all) also conform; no ops_summary is a note' '
	compare compare_test out3 &&
	conform out3 compare_test &&
	grep -q "no ops_summary.csv, ops_summary not compared" out3.err &&
	compare compare_test_ops out4 &&
	conform out4 compare_test_ops
'

test_expect_success 'all on compare_test_ops writes every group TraceLens writes' '
	for f in gpu_timeline ops_summary kernel_summary \
		ops_unique_args_intersect_512thread \
		ops_unique_args_only_baseline_512thread \
		ops_unique_args_only_variant_512thread \
		GEMM_intersect_512thread SDPA_fwd_intersect_512thread \
		SDPA_bwd_intersect_512thread un_eltwise_intersect_512thread \
		bin_eltwise_only_variant_512thread; do
		test -f out4/$f.csv || { echo "missing $f.csv"; exit 1; }
	done &&
	test $(ls out4 | wc -l) = 21
'

# Rows of a split are the joined rows whose first compared column is there
# on both sides, or on one side only; count them another way, from the
# inputs' keys (t6001-compare-corpus.d/splitcount.py).
split_counts() {	# BASE.csv VARIANT.csv KIND OUT PREFIX TAG
	python3 "$TEST_DIR/splitcount.py" "$1" "$2" $3 >counts &&
	read both base var <counts &&
	rows() { n=$(wc -l <"$1"); echo $((n - 1)); } &&
	test $(rows "$4/$5_intersect_$6.csv") = $both &&
	test $(rows "$4/$5_only_baseline_$6.csv") = $base &&
	test $(rows "$4/$5_only_variant_$6.csv") = $var ||
	{ echo "$5: want $both $base $var"; return 1; }
}

test_expect_success 'compare_test_ops split sizes match a key count of the inputs' '
	c=$SHARED/corpus/compare_test_ops &&
	b=$(echo "$c"/256thread/*_csvs) && v=$(echo "$c"/512thread/*_csvs) &&
	split_counts $b/ops_unique_args.csv $v/ops_unique_args.csv args \
		out4 ops_unique_args 512thread &&
	split_counts $b/GEMM.csv $v/GEMM.csv roofline out4 GEMM 512thread &&
	split_counts $b/UnaryElementwise.csv $v/UnaryElementwise.csv roofline \
		out4 un_eltwise 512thread &&
	split_counts $b/BinaryElementwise.csv $v/BinaryElementwise.csv roofline \
		out4 bin_eltwise 512thread
'

# TraceLens's own reports of one model on two GPUs: every group, the
# roofline sheets included (GEMM, SDPA_fwd, BinaryElementwise).
test_expect_success 'bert h100 vs mi300 references: all groups, split sizes' '
	c=$SHARED/corpus && b=$c/h100-gaunernst_bert-small-uncased__1016001/reference &&
	v=$c/mi300-gaunernst_bert-small-uncased__1016001/reference &&
	tl-compare $b $v --names h100,mi300 -o bert 2>bert.err &&
	test ! -s bert.err &&
	test $(ls bert | wc -l) = 18 &&
	split_counts $b/ops_unique_args.csv $v/ops_unique_args.csv args \
		bert ops_unique_args mi300 &&
	split_counts $b/unified_perf_summary.csv $v/unified_perf_summary.csv args \
		bert unified_perf_summary mi300 &&
	split_counts $b/GEMM.csv $v/GEMM.csv roofline bert GEMM mi300 &&
	split_counts $b/SDPA_fwd.csv $v/SDPA_fwd.csv roofline bert SDPA_fwd mi300 &&
	split_counts $b/BinaryElementwise.csv $v/BinaryElementwise.csv roofline \
		bert bin_eltwise mi300
'

test_done
