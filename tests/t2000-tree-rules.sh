#!/bin/sh
# tl-tree on hand-made traces, one rule of TraceLens's Trace2Tree each
# (t2000-tree-rules.d/rules.json, comments there name the rule per event):
# bleed drops, equal ts, tiny bleeds, flow linking and its failures, a GPU
# event before its launch, graph launches, NCCL kernels, HIP names, string
# pids, fwd/bwd, python frames, the External id key, several sources.
# rules.expected holds the tree columns worked out by hand; the Python
# transcription tests/tools/pytree.py is a second, independent oracle.
. "$TL_SRC/tests/lib.sh"
D=$TEST_DIR

# uid and the appended tree columns of a node stream
tree_cols() {
	awk -F'\t' 'BEGIN { OFS = "\t" } /^#/ { next }
		!h { for (i = 1; i <= NF; i++) if ($i == "parent") p = i; h = 1; next }
		{ s = $1; for (i = p; i <= NF; i++) s = s OFS $i; print s }' "$1"
}

test_expect_success 'node stream of the rules trace' '
	tl-tree -v "$D/rules.ev" >rules.nodes 2>rules.err
'
test_expect_success 'tree columns are the hand-computed ones' '
	tree_cols rules.nodes >rules.cols &&
	test_cmp "$D/rules.expected" rules.cols
'
test_expect_success 'header is the event header plus the tree columns' '
	sed -n 2p "$D/rules.ev" >want &&
	printf "\tparent\tdepth\ttree\troot\tdrop\tlink\tfwd\tbwd\tgpu_n\tkernel_direct_us\tgpu_busy_us\tlauncher\tkernel_direct_n\n" >>want &&
	tr -d "\n" <want >want1 && echo >>want1 &&
	sed -n 2p rules.nodes >got &&
	test_cmp want1 got &&
	test "$(sed -n 1p rules.nodes)" = "#tl-nodes 1"
'
test_expect_success 'every input line passes through unchanged, in order' '
	sed 1,2d "$D/rules.ev" >in.body &&
	sed 1,2d rules.nodes | cut -f1-21 >out.body &&
	test_cmp in.body out.body
'
test_expect_success '-v counts roots, drops and links' '
	grep "src 0: 51 events, 29 host nodes, 12 cpu_op roots, 3 dropped by the bleed rule, 7/9 GPU events linked, 5/9 runtime events linked, linking key .correlation." rules.err
'
test_expect_success 'the bleed drops are visible in the drop column' '
	awk -F"\t" "\$6 == 1 { print \$1 }" rules.cols >drops &&
	printf "3\n5\n7\n" >want &&
	test_cmp want drops
'
test_expect_success '--python adds frames: mm under the module, a frame dropped' '
	tl-tree --python "$D/rules.ev" >py.nodes &&
	tree_cols py.nodes >py.cols &&
	grep "^11	48	1	1	1	0			44	1	4.0	4.0		1\$" py.cols &&
	grep "^48		0	1	0	0				1		4.0		\$" py.cols &&
	grep "^49		0	1	0	1				0		0.0		\$" py.cols
'
if command -v python3 >/dev/null; then
	test_expect_success 'the Python transcription agrees' '
		python3 "$TL_SRC/tests/tools/pytree.py" "$D/rules.json" >oracle &&
		test_cmp oracle rules.cols
	'
	test_expect_success 'the Python transcription agrees with --python' '
		python3 "$TL_SRC/tests/tools/pytree.py" --python "$D/rules.json" >oracle &&
		test_cmp oracle py.cols
	'
else
	test_skip 'the Python transcription agrees' 'no python3'
	test_skip 'the Python transcription agrees with --python' 'no python3'
fi
test_expect_success 'External id is the key when the first launch has no correlation' '
	tl-tree -v "$D/extid.ev" >ext.nodes 2>ext.err &&
	grep "linking key .External id." ext.err &&
	tree_cols ext.nodes >ext.cols &&
	grep "^4	1	2	1	0	0	linked						0	\$" ext.cols
'
# the first launch's correlation is not a number: tl-cat leaves it in
# args (the corr column empty), and TraceLens still takes "correlation"
# as the key because the key is in args
sed '5s/{}/{"correlation":"c7"}/' "$D/extid.ev" >strcorr.ev
test_expect_success 'a correlation only in args (not a number) makes it the key' '
	grep -q "c7" strcorr.ev &&
	tl-tree -v strcorr.ev >strcorr.nodes 2>strcorr.err &&
	grep "linking key .correlation." strcorr.err
'
test_expect_success 'several sources: one tree each, rows in order' '
	tl-tree "$D/two.ev" >two.nodes &&
	grep -v "^#" two.nodes | sed 1d | cut -f2 | uniq -c | awk "{ print \$1, \$2 }" >srcs &&
	printf "51 0\n6 1\n" >want && test_cmp want srcs &&
	tree_cols two.nodes >two.cols &&
	cat rules.cols ext.cols >want && test_cmp want two.cols &&
	grep -c "^#" two.nodes >n && grep -c "^#" "$D/two.ev" >m && test_cmp m n
'
test_expect_success 'several sources through a pipe (spooled) as from a file (read twice)' '
	cat "$D/two.ev" | tl-tree >pipe.nodes &&
	test_cmp two.nodes pipe.nodes
'
test_expect_success '--print: every cpu_op root, TraceLens lines' '
	tl-tree --print "$D/rules.ev" >print.out &&
	test_golden "$D/print.golden" print.out
'
test_expect_success '--print --prune-non-gpu --python' '
	tl-tree --print --prune-non-gpu --python "$D/rules.ev" >prune.out &&
	test_golden "$D/prune.golden" prune.out
'
test_expect_success '--print --root --depth' '
	tl-tree --print --root 26 --depth 1 "$D/rules.ev" >root.out &&
	printf "%s\n" "└── UID: 26, Category: cpu_op, Name: execute" \
		"    └── UID: 27, Category: cuda_runtime, Name: cudaGraphLaunch" >want &&
	test_cmp want root.out
'
test_expect_success '--print --ext finds the cpu_op before its launch' '
	tl-tree --print --ext 7,1,1 "$D/extid.ev" >ext.out &&
	head -1 ext.out >got &&
	echo "└── UID: 0, Category: cpu_op, Name: aten::relu" >want &&
	test_cmp want got
'
test_expect_success '--up prints the chain to the root' '
	tl-tree --python --up 12 "$D/rules.ev" >up.out &&
	test_golden "$D/up.golden" up.out
'
test_expect_success '--node prints one node' '
	tl-tree --node 27 "$D/rules.ev" >node.out &&
	test_golden "$D/node.golden" node.out
'
test_expect_success '--src picks the source of the views' '
	tl-tree --src 1 --up 4 "$D/two.ev" >src.out &&
	printf "%s\n" "Node:" "  UID: 4, Category: kernel, Name: relu_kernel, Duration: 2.5" \
		"1-up:" "  UID: 1, Category: cuda_runtime, Name: cudaLaunchKernel" \
		"2-up:" "  UID: 0, Category: cpu_op, Name: aten::relu" >want &&
	test_cmp want src.out
'
test_done
