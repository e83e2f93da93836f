#!/bin/sh
# tl-diff on small hand-made trace pairs (made by tests/t5001-diff-golden.d/
# traces/*.json, read through tl-cat | tl-tree): identical traces, one
# inserted op, a convolution lowered differently (MIOpen vs cuDNN),
# repeated same-name siblings one of which is gone, and an op appended at
# the end (a root of trace2 only, with GPU work but no common ancestor).  Each golden file was
# checked by hand against TraceDiff's rules (tl-diff(1)); in "repeated" the
# re-paired adds come out as CPython iterates the set {(0, 0), (2, 1)}:
# (2, 1) first, so add_c's pair precedes add_a's.  Regenerate with
# sh tests/run.sh --update t5001.
. "$TL_SRC/tests/lib.sh"
T=$TEST_DIR/traces
FILES="merged_tree_output.txt diff_stats.csv diff_stats_unique_args_summary.csv
cpu_op_map.json cpu_op_map_trace1.json cpu_op_map_trace2.json"

if ! command -v tl-cat >/dev/null || ! command -v tl-tree >/dev/null; then
	test_skip_all 'golden pairs' 'tl-cat or tl-tree not built'
fi

golden_pair() {
	name=$1 a=$2 b=$3
	test_expect_success "$name: tl-diff writes the report" '
		tl-diff -o $name "$T/$a.json" "$T/$b.json" >$name.out 2>$name.err &&
		test ! -s $name.out && test ! -s $name.err
	'
	for f in $FILES; do
		test_expect_success "$name: $f" '
			test_golden "$TEST_DIR/$name/$f" $name/$f
		'
	done
	test_expect_success "$name: --print writes the merged tree" '
		tl-diff --print "$T/$a.json" "$T/$b.json" >$name.tree &&
		test_cmp $name/merged_tree_output.txt $name.tree
	'
}

golden_pair identical base base
golden_pair inserted base inserted
golden_pair lowering conv_rocm conv_cuda
golden_pair repeated rep1 rep2
golden_pair appended base appended

test_expect_success 'identical traces: no source column, trace1 rows only' '
	head -1 identical/diff_stats.csv >h &&
	! grep source h && ! grep trace2 identical/diff_stats.csv
'
test_expect_success 'inserted op: roots pair by position, the extra root is trace2 only' '
	grep "^└── << trace2: aten::view\$" inserted/merged_tree_output.txt &&
	grep "^├── combined: aten::view | aten::add\$" inserted/merged_tree_output.txt
'
test_expect_success 'lowering: both convolutions renamed to their common module' '
	grep -c ",root,3,trace" lowering/diff_stats_unique_args_summary.csv >n &&
	test "$(cat n)" = 3
'
test_expect_success 'repeated siblings: the missing add is the middle one' '
	grep ">> trace1: add_b" repeated/merged_tree_output.txt &&
	! grep "trace.: add_[ac]" repeated/merged_tree_output.txt
'
test_expect_success 'a trace-only root: no LCA, so the ids are printed as floats (pandas)' '
	grep "^sigmoid_kernel,aten::sigmoid,[0-9]*,trace2,.*,3.0,3.0,,,[0-9]*,root,root\$" appended/diff_stats.csv &&
	grep ",trace1,.*,gemm_kernel,3.0,5,root,root\$" appended/diff_stats.csv
'
test_expect_success '--summary names the different lowering' '
	tl-diff --summary "$T/conv_rocm.json" "$T/conv_cuda.json" >summary &&
	grep "lowered differently: aten::miopen_convolution (trace1) vs aten::cudnn_convolution (trace2)" summary &&
	grep "^ *-5.500 100.0%  *10.500  *5.000  *1  aten::miopen_convolution | aten::cudnn_convolution\$" summary
'
test_expect_success 'node streams give the same report as traces' '
	tl-cat "$T/rep1.json" >r1.ev && tl-tree r1.ev >r1.nodes &&
	tl-cat "$T/rep2.json" >r2.ev && tl-tree r2.ev >r2.nodes &&
	tl-diff -o fromnodes r1.nodes - <r2.nodes &&
	for f in $FILES; do test_cmp repeated/$f fromnodes/$f || exit 1; done
'
test_done
