#!/bin/sh
# A node is in one children list at most.  A tl-nodes 2 stream whose kids
# column names a node twice, or under two nodes, is refused with a message
# naming both (and one whose lists loop, naming a node on the loop): TraceDiff's walks down the lists would take such a node once
# per path to it, twice as many with each level (fuzz-diff found one that
# ran out of memory; the layered stream below ran for ever before the check).
. "$TL_SRC/tests/lib.sh"

# layered N KIDS: cpu ops 0..N-1 in a chain, op i's kids column KIDS with
# "@" for i+1 ("@,@": the next op twice), and a kernel N under the last
layered() {
	awk -v n="$1" -v kids="$2" 'BEGIN {
		OFS = "\t"
		print "#tl-nodes 2"
		print "uid", "ph", "cat", "name", "pid", "tid", "ts", "dur", "stream", "device",
		      "dims", "types", "strides", "concrete", "parent", "root", "kids", "root_order", "gpu_n"
		for (i = 0; i <= n; i++) {
			k = kids; gsub(/@/, i + 1, k)
			if (i < n)
				print i, "X", "cpu_op", "aten::op" i % 3, 1, 1, 100 + i, 1000 - i, "", "",
				      "", "", "", "", i ? i - 1 : "", i ? 0 : 1, k, i ? "" : 1, 1
			else
				print i, "X", "kernel", "k", 0, 7, 100 + i, 1, 7, 0,
				      "", "", "", "", i - 1, 0, "", "", ""
		}
	}'
}
layered 30 "@" >chain.nodes
layered 30 "@,@" >twice.nodes

test_expect_success 'the chain, each op listing the next once, is read' '
	tl-diff -o rep chain.nodes chain.nodes &&
	test -f rep/merged_tree_output.txt && grep "aten::op2" rep/merged_tree_output.txt
'
test_expect_success 'each op listing the next twice: exit 1 naming both, no hang' '
	{ timeout 60 tl-diff -o rep2 twice.nodes chain.nodes 2>err; test $? = 1; } &&
	grep "twice.nodes: uid 1: twice in the children list of uid 0" err
'
test_expect_success 'a node under two nodes: exit 1 naming both' '
	awk -F "\t" -v OFS="\t" "\$1 == 1 { \$17 = \"2,3\" } { print }" chain.nodes >two.nodes &&
	{ timeout 60 tl-diff -o rep3 chain.nodes two.nodes 2>err; test $? = 1; } &&
	grep "two.nodes: uid 3: in the children lists of uid 1 and uid 2" err
'
test_expect_success 'children lists in a loop (0, 1, 2, 0): exit 1 naming a uid on it' '
	awk -F "\t" -v OFS="\t" "\$1 == 2 { \$17 = \"0\" } { print }" chain.nodes >loop.nodes &&
	{ timeout 60 tl-diff -o rep4 loop.nodes chain.nodes 2>err; test $? = 1; } &&
	grep "loop.nodes: uid [012]: children lists form a loop" err
'
test_done
