#!/bin/sh
# tl-coll --extract: the map step.  A hand-made trace covers the filter
# (cat "kernel" exactly, nccl/rccl/cross_device_reduce in any case, Python's
# IGNORECASE folds ſ and ı, correlation or External id not null), the args
# read (JSON types kept, the last of duplicate keys), the rank's sources
# (distributedInfo.rank, else --rank, else none) and the trace facts in the
# directives.  The kept uids are checked against TraceLens's own rule run
# on the JSON by python3, and the whole stream against a golden file.
. "$TL_SRC/tests/lib.sh"

d=$TEST_DIR
test_expect_success 'the stream of a hand-made trace' '
	(cd "$d" && tl-cat trace.json) >events.tsv &&	# a relative #source: the golden file holds no checkout path
	tl-coll --extract events.tsv >out.coll 2>err &&
	test_golden "$d/expect.coll" out.coll
'
test_expect_success 'a collective kernel without ts is left out and counted' '
	echo "tl-coll: events.tsv: 1 collective kernel without a numeric ts or dur left out" >err.want &&
	test_cmp err.want err
'
if command -v python3 >/dev/null 2>&1; then
	test_expect_success 'the kernels kept are those TraceLens keeps (python3 on the JSON)' '
		python3 "$d/expect.py" "$d/trace.json" >uids.want &&
		awk -F"\t" "NR > 2 && !/^#/ { print \$2 }" out.coll >uids &&
		test_cmp uids.want uids
	'
else
	test_skip 'the kernels kept are those TraceLens keeps' 'no python3'
fi
test_expect_success 'the same stream from the node stream (tl-report reads that)' '
	tl-tree events.tsv >nodes.tsv &&
	tl-coll --extract nodes.tsv >nodes.coll 2>/dev/null &&
	test_cmp out.coll nodes.coll
'
test_expect_success 'stdin and -o FILE' '
	tl-coll --extract -o file.coll <events.tsv 2>/dev/null &&
	sed "s/^#source.*//" out.coll >a && sed "s/^#source.*//" file.coll >b &&
	test_cmp a b
'
test_expect_success 'distributedInfo.rank wins over --rank, with a warning' '
	tl-coll --extract --rank 5 events.tsv >r5.coll 2>err5 &&
	test_cmp out.coll r5.coll &&
	grep -q "distributedInfo.rank 3 is used, not --rank 5" err5
'
test_expect_success '--rank for a trace without distributedInfo; none: no rank' '
	grep -v distributedInfo "$d/trace.json" | sed "s/}],\$/}]/" >norank.json &&
	tl-cat norank.json >norank.tsv &&
	tl-coll --extract --rank 6 norank.tsv >r6.coll 2>/dev/null &&
	grep -qx "#rank	6" r6.coll &&
	test "$(awk -F"\t" "NR > 2 && !/^#/ { print \$1 }" r6.coll | sort -u)" = 6 &&
	tl-coll --extract norank.tsv >r.coll 2>/dev/null &&
	! grep -q "^#rank" r.coll &&
	test "$(awk -F"\t" "NR > 2 && !/^#/ { print \$1 }" r.coll | sort -u)" = ""
'
test_expect_success 'a trace without collectives: a valid empty stream' '
	echo "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"ts\": 1, \"dur\": 2}]}" >gemm.json &&
	tl-cat gemm.json >gemm.tsv && tl-coll --extract gemm.tsv >empty.coll &&
	test "$(tail -n 1 empty.coll)" = "#end	0"
'
test_expect_success 'two traces in one event stream are refused' '
	tl-cat "$d/trace.json" "$d/trace.json" >two.tsv &&
	test_must_fail tl-coll --extract two.tsv 2>err2 &&
	grep -q "a second trace in the stream" err2
'
test_expect_success 'args that are not a JSON object are refused' '
	awk -F"\t" -v OFS="\t" "\$4 == \"kernel\" && \$5 ~ /^ncclKernel_All/ { \$20 = \"[1,\" } { print }" events.tsv >badargs.tsv &&
	test_must_fail tl-coll --extract badargs.tsv 2>errb &&
	grep -q "badargs.tsv:[0-9]*: args is not a JSON object" errb
'
test_expect_success 'not an event stream' '
	test_must_fail tl-coll --extract out.coll 2>errk &&
	grep -q "this program reads events,nodes" errk &&
	printf "hello\n" >junk &&
	test_must_fail tl-coll --extract junk
'
test_expect_code 2 'two inputs to --extract are a usage error' '
	tl-coll --extract events.tsv events.tsv
'
test_expect_code 2 '--rank without --extract is a usage error' '
	tl-coll --rank 1 -o x out.coll
'
test_expect_success '-h prints the usage on stdout' '
	tl-coll -h >usage &&
	grep -q "^usage: tl-coll --extract" usage
'
test_done
