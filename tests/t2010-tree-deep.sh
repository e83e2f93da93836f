#!/bin/sh
# Deep call trees: a chain of 100000 nested ops is a trace, not an attack.
# Every walk of the tree (tl-tree's node stream and text views, tl-perf's
# unified rows, tl-diff's merge, stats and merged tree) works on a stack of
# its own, so a small C stack (ulimit -s 1024 here) is enough; the depth
# column is exact past 65535 (it was cut there).  TraceLens's recursive
# walks stop near 1000 levels.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'deep trees' 'python3 is not installed (it writes the inputs)'
fi

test_expect_success 'a chain of 100000 nested ops: node stream, depth column exact' '
	python3 "$TL_SRC/tests/tools/gentrace.py" --ops=2 --nest=100000 --distinct=1 deep.json &&
	tl-cat deep.json >ev &&
	(ulimit -s 1024 && tl-tree ev >nodes) &&
	awk -F "\t" "NR == 2 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		\$1 ~ /^[0-9]/ && \$c[\"depth\"] > max { max = \$c[\"depth\"] }
		END { print max }" nodes >got &&
	echo 100001 >expect && test_cmp expect got	# the kernel, under the runtime call
'

test_expect_success 'tl-perf: the unified rows of the chain, on a small stack' '
	(ulimit -s 1024 && tl-perf --csv -s ops_summary nodes >ops.csv) &&
	grep -q "^aten::op_0,25.0,25.0," ops.csv &&
	grep -q "^aten::op_1,25.0,25.0," ops.csv
'

test_expect_success 'tl-diff: merge, statistics and summary of the chain, on a small stack' '
	(ulimit -s 1024 && tl-diff --summary nodes nodes >summary) &&
	grep -q "^points of difference: 2;" summary
'

test_expect_success 'tl-timeline and tl-tree --up/--node at the bottom of the chain' '
	(ulimit -s 1024 && tl-timeline --csv nodes >tl.csv) &&
	grep -q "^computation_time,0.05," tl.csv &&
	(ulimit -s 1024 && tl-tree --node 99999 ev >node) &&
	grep -qx "depth: 99999" node &&
	(ulimit -s 1024 && tl-tree --up 99999 ev >up) &&
	grep -qx "99999-up:" up
'

test_expect_success 'tl-tree --print and tl-diff -o of a 4000-deep chain, on a small stack' '
	python3 "$TL_SRC/tests/tools/gentrace.py" --ops=1 --nest=4000 --distinct=1 d4k.json &&
	tl-cat d4k.json >ev4 && tl-tree ev4 >nodes4 &&
	(ulimit -s 256 && tl-tree --print ev4 >print) &&
	test $(wc -l <print) = 4002 &&
	tail -n 1 print | grep -q "Category: kernel, Name: void gemm_kernel_0<float>(), Duration: 25.0$" &&
	(ulimit -s 256 && tl-diff -o d nodes4 nodes4 >out) &&
	test $(wc -l <d/merged_tree_output.txt) = 4002
'
test_done
