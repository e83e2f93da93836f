#!/bin/sh
# tl-diff on the corpus pair TraceLens's own regression test uses (MI300
# baseline vs H100 variant of timesformer): the merged tree and the three
# JSON maps must be byte-identical to TraceLens's reference files, the two
# CSVs must pass tl-conform (and are compared byte for byte too).
. "$TL_SRC/tests/lib.sh"
D=$SHARED/corpus/tracediff-timesformer-mi300-vs-h100
R=$D/reference

if ! have_shared || [ ! -d "$D" ]; then
	test_skip_all 'corpus' "no corpus at $SHARED/corpus"
fi
if ! command -v tl-cat >/dev/null || ! command -v tl-tree >/dev/null; then
	test_skip_all 'corpus' 'tl-cat or tl-tree not built'
fi

test_expect_success 'node streams of both traces' '
	tl-cat "$D/trace1.json.gz" >t1.ev && tl-tree t1.ev >t1.nodes &&
	tl-cat "$D/trace2.json.gz" >t2.ev && tl-tree t2.ev >t2.nodes
'
test_expect_success 'tl-diff from node streams, exit 0' '
	tl-diff -o out t1.nodes t2.nodes
'
for f in merged_tree_output.txt cpu_op_map.json cpu_op_map_trace1.json \
	cpu_op_map_trace2.json diff_stats.csv diff_stats_unique_args_summary.csv; do
	test_expect_success "$f byte-identical to TraceLens" '
		cmp "$R/$f" out/$f
	'
done
test_expect_success 'the CSVs pass tl-conform' '
	"$SHARED/tools/tl-conform" out "$R" >conform &&
	tail -1 conform | grep "^2 passed, 0 failed\$"
'
test_expect_success 'tl-diff runs tl-cat | tl-tree itself on trace files' '
	tl-diff -o direct "$D/trace1.json.gz" "$D/trace2.json.gz" &&
	for f in out/*; do cmp "$f" direct/${f#out/} || exit 1; done
'
test_expect_success '--summary: the convolution lowered differently, the top change' '
	tl-diff --summary -n 0 t1.nodes t2.nodes >summary &&
	grep "lowered differently: aten::miopen_convolution (trace1) vs aten::cudnn_convolution (trace2)" summary &&
	sed -n 3p summary | grep "aten::_softmax\$"
'
test_expect_success '--prune-non-gpu drops the roots without GPU work' '
	tl-diff --print --prune-non-gpu t1.nodes t2.nodes >pruned &&
	test "$(grep -c "^[├└]" pruned)" -lt "$(grep -c "^[├└]" out/merged_tree_output.txt)" &&
	! grep "^├── aten::lift_fresh\$" pruned
'
test_done
