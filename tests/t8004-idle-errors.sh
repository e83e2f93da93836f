#!/bin/sh
# tl-idle's usage errors (exit 2), bad inputs (exit 1, a message naming
# the input), and inputs HTA fails on that tl-idle answers: a trace without
# GPU work.  Also: an event stream gives what its node stream gives, and -h
# is the man page's SYNOPSIS.
. "$TL_SRC/tests/lib.sh"

D=$TEST_DIR
sample=$TL_SRC/share/tl/sample/trace.json

test_expect_success 'setup: the sample trace as events and nodes' '
	tl-cat "$sample" >s.events && tl-tree s.events >s.nodes
'
test_expect_code 2 'no -o' 'tl-idle s.nodes'
test_expect_code 2 'an unknown option' 'tl-idle --bogus -o out s.nodes'
test_expect_code 2 '-r with no rank' 'tl-idle -r x -o out s.nodes'
test_expect_code 2 '--instance M < N' 'tl-idle --critical-path P --instance 3:1 -o out s.nodes'
test_expect_code 2 '--critical-path with two streams' \
	'tl-idle --critical-path P -o out s.nodes s.nodes'
test_expect_code 2 '--merge without folders' 'tl-idle --merge -o out'
test_expect_code 2 '--kernel-delay not a number' 'tl-idle --kernel-delay x -o out s.nodes'

test_expect_success 'JSON is not a stream' '
	test_must_fail tl-idle -o out "$sample" 2>err &&
	grep "^tl-idle: .*trace.json:1: not a tl stream" err
'
test_expect_success 'a stream cut short' '
	head -50 s.nodes >cut.nodes &&
	test_must_fail tl-idle -o out cut.nodes 2>err &&
	grep "^tl-idle: cut.nodes: source 0 has no #end" err
'
test_expect_success 'an empty file' '
	: >empty && test_must_fail tl-idle -o out empty 2>err && grep "^tl-idle: empty" err
'
test_expect_success 'two traces of one rank' '
	test_must_fail tl-idle -o out s.nodes s.nodes 2>err && grep "rank 0 again" err
'
test_expect_success '--rank: the rank of the one trace' '
	tl-idle --rank 3 -o r3 s.nodes && grep -q "^3," r3/temporal_breakdown.csv &&
	grep -q ",3\$" r3/cuda_kernel_launch_stats.csv &&
	test_must_fail tl-idle --rank 3 -o r3b s.nodes s.events 2>err &&
	grep "names the rank of one trace; the streams hold 2" err
'
test_expect_success 'a rank that is not there' '
	test_must_fail tl-idle -r 5 -o out s.nodes 2>err && grep "no trace for rank 5" err
'
test_expect_success 'an annotation that is not there' '
	test_must_fail tl-idle --critical-path nosuch -o out s.nodes 2>err &&
	grep "no event named like .nosuch." err
'
test_expect_success 'an instance that is not there' '
	test_must_fail tl-idle --critical-path ProfilerStep --instance 7 -o out s.nodes 2>err &&
	grep "no instance 7 of .ProfilerStep." err
'
test_expect_success 'a folder that cannot be made' '
	: >afile && test_must_fail tl-idle -o afile/sub s.nodes 2>err &&
	grep "cannot make the folder" err
'
test_expect_success '--merge: not an idle folder' '
	mkdir -p nothing && test_must_fail tl-idle --merge -o out nothing 2>err &&
	grep "nothing: no temporal_breakdown.csv" err
'
test_expect_success '--merge: one rank twice' '
	tl-idle -o one s.nodes &&
	test_must_fail tl-idle --merge -o out one one 2>err && grep "rank 0 is in two idle folders" err
'
test_expect_success '--merge: a table with other columns' '
	mkdir -p bad && cp one/*.csv bad/ &&
	sed -i "1s/^rank,/rank2,/" bad/comm_comp_overlap.csv &&
	sed -i "s/^0,/1,/" bad/temporal_breakdown.csv &&
	test_must_fail tl-idle --merge -o out one bad 2>err && grep "columns differ" err
'

# HTA fails on a trace without GPU work (IndexError, AssertionError)
test_expect_success 'a trace without GPU work: empty cells, a CPU path' '
	tl-cat "$D/cpu-only.json" >c.events && tl-tree c.events >c.nodes &&
	tl-idle -o c.out c.nodes &&
	echo "2,,,,,,," >want && tail -1 c.out/temporal_breakdown.csv >got && test_cmp want got &&
	tl-idle --critical-path ProfilerStep -o c.cp c.nodes &&
	printf "bound_by,pct_of_path\n,0.0\ncpu_bound,100.0\n" >want &&
	test_cmp want c.cp/critical_path_summary.csv
'
test_expect_success 'an event stream gives what its node stream gives' '
	tl-idle -o from-events s.events && tl-idle -o from-nodes s.nodes &&
	for f in from-nodes/*.csv; do test_cmp "$f" "from-events/$(basename "$f")" || return 1; done
'
test_expect_success '-h prints the SYNOPSIS' '
	tl-idle -h >h &&
	grep -q "^usage: tl-idle \[-hv\] \[-r RANKS\] \[--kernel-delay US\] \[--rank R\] -o DIR \[NODES...\]$" h &&
	grep -q "^\.Op Fl r Ar RANKS$" "$TL_SRC/man/tl-idle.1" &&
	grep -q "^\.Op Fl -kernel-delay Ar US$" "$TL_SRC/man/tl-idle.1" &&
	grep -q "^\.Fl -critical-path Ar ANNOTATION$" "$TL_SRC/man/tl-idle.1" &&
	grep -q "^\.Op Fl -data-load Ar NAME$" "$TL_SRC/man/tl-idle.1"
'
test_done
