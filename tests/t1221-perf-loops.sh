#!/bin/sh
# A node stream whose parent links, or whose children lists (tl-nodes 2),
# go round in a loop is refused with a message naming a uid on the loop;
# so is one whose children lists name a node twice.
# tl-perf walks up the tree from each kernel: on a parent loop above one it
# never ended (fuzz-perf found such a stream,
# tests/fuzz/crashers/perf/parent-loop.nodes; the edit below hangs the
# tl-perf before this check too).  tl-tree never writes such streams; these
# are the shipped sample's, edited with awk.
. "$TL_SRC/tests/lib.sh"

sample=$TL_SRC/share/tl/sample/trace.json
tl-cat "$sample" | tl-tree >good.nodes
tl-cat "$sample" | tl-tree --pseudo-ops >good2.nodes 2>/dev/null

# edit COLUMN of the first two cpu_op rows: A's gets B's uid, B's A's
two_ops() {
	awk -F "\t" -v OFS="\t" -v c="$1" '
		NR == FNR { if (/^uid\t/) for (i = 1; i <= NF; i++) col[$i] = i
			    if (/^[0-9]/ && $col["cat"] == "cpu_op" && n < 2) u[++n] = $1
			    next }
		/^[0-9]/ && $1 == u[1] { $col[c] = u[2] }
		/^[0-9]/ && $1 == u[2] { $col[c] = u[1] }
		{ print }' "$2" "$2"
}
two_ops parent good.nodes >parent-loop.nodes
two_ops kids good2.nodes >kids-loop.nodes

test_expect_success 'the good streams are read' '
	tl-perf --csv -o ok good.nodes && tl-perf --csv -o ok2 good2.nodes
'
test_expect_success 'parents in a loop: exit 1 and a message, no hang' '
	! cmp -s good.nodes parent-loop.nodes &&
	{ timeout 60 tl-perf --csv -o out parent-loop.nodes 2>err; test $? = 1; } &&
	grep "uid [0-9]*: parent links form a loop" err
'
test_expect_success 'children lists in a loop: exit 1 and a message, no hang' '
	! cmp -s good2.nodes kids-loop.nodes &&
	{ timeout 60 tl-perf --csv -o out2 kids-loop.nodes 2>err; test $? = 1; } &&
	grep "uid [0-9]*: children lists form a loop" err
'
# a node in two children lists (or twice in one) is refused as well: the
# first two cpu ops' kids columns both name the third (A: "C,C")
shared() {
	awk -F "\t" -v OFS="\t" -v twice="$1" '
		NR == FNR { if (/^uid\t/) for (i = 1; i <= NF; i++) col[$i] = i
			    if (/^[0-9]/ && $col["cat"] == "cpu_op" && n < 3) u[++n] = $1
			    next }
		/^[0-9]/ && $1 == u[1] { $col["kids"] = twice ? u[3] "," u[3] : u[3] }
		/^[0-9]/ && $1 == u[2] && !twice { $col["kids"] = u[3] }
		{ print }' "$2" "$2"
}
shared 1 good2.nodes >kids-twice.nodes
shared 0 good2.nodes >kids-shared.nodes
test_expect_success 'a node twice in one children list: exit 1 and a message' '
	{ timeout 60 tl-perf --csv -o out4 kids-twice.nodes 2>err; test $? = 1; } &&
	grep "uid [0-9]*: twice in the children list of uid [0-9]*" err
'
test_expect_success 'a node in two children lists: exit 1 and a message' '
	{ timeout 60 tl-perf --csv -o out5 kids-shared.nodes 2>err; test $? = 1; } &&
	grep "uid [0-9]*: in the children lists of uid [0-9]* and uid [0-9]*" err
'
test_expect_success 'the fuzzer'"'"'s stream: exit 1, no hang' '
	{ timeout 60 tl-perf --csv -o out3 "$TL_SRC/tests/fuzz/crashers/perf/parent-loop.nodes" 2>err; test $? = 1; } &&
	grep "parent links form a loop" err
'
test_done
