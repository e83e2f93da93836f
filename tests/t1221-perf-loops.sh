#!/bin/sh
# A node stream whose parent links, or whose children lists (tl-nodes 2),
# go round in a loop is refused with a message naming a uid on the loop.
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
test_expect_success 'the fuzzer'"'"'s stream: exit 1, no hang' '
	{ timeout 60 tl-perf --csv -o out3 "$TL_SRC/tests/fuzz/crashers/perf/parent-loop.nodes" 2>err; test $? = 1; } &&
	grep "parent links form a loop" err
'
test_done
