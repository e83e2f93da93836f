#!/bin/sh
# tl-coll's reduce step: how it names ranks, what it refuses, its options,
# and that a folder holds one run's report.  Inputs: the synthetic rank
# sets of t7001 (committed JSON traces).
. "$TL_SRC/tests/lib.sh"

cases=$TL_SRC/tests/t7001-coll-oracle.d
streams() {	# streams CASE: CASE/rank{i}.coll
	mkdir -p "$1" &&
	for f in "$cases/$1"/rank*.json; do
		tl-cat "$f" | tl-coll --extract >"$1/$(basename "$f" .json).coll" || return 1
	done
}
test_expect_success 'streams of the synthetic rank sets' '
	streams full && streams a2av && streams one && streams uneven && streams simplified
'
test_expect_success 'the same input gives the same bytes' '
	tl-coll -o a full/rank0.coll full/rank1.coll full/rank2.coll full/rank3.coll &&
	tl-coll -o b full/rank0.coll full/rank1.coll full/rank2.coll full/rank3.coll &&
	for f in a/*.csv; do cmp "$f" "b/${f#a/}" || exit 1; done
'
test_expect_success 'streams without a rank are numbered by their place in the list' '
	for r in 0 1 2; do
		grep -v "^#rank" simplified/rank$r.coll | sed "s/^[0-9][0-9]*	/	/" >simplified/anon$r.coll || exit 1
	done &&
	! grep -q "^[0-9]" simplified/anon0.coll &&
	tl-coll -o anon simplified/anon2.coll simplified/anon0.coll simplified/anon1.coll &&
	awk -F"\t" "!/^#/ && NR > 2 { print \$4; exit }" simplified/rank2.coll >ts.want &&
	awk -F, "NR == 2 { print \$3, \$16 }" anon/nccl_long.csv >ts.got &&
	echo "0 $(cat ts.want)" >ts.want2 && test_cmp ts.want2 ts.got
'
test_expect_success 'two streams of one rank are refused, naming both' '
	test_must_fail tl-coll -o dup full/rank0.coll full/rank1.coll full/rank1.coll 2>err &&
	echo "tl-coll: full/rank1.coll: rank 1 again (also full/rank1.coll)" >err.want &&
	test_cmp err.want err && test ! -e dup
'
test_expect_success 'a rank named by distributedInfo meets one numbered by place' '
	grep -v "^#rank" full/rank1.coll | sed "s/^1	/	/" >full/anon1.coll &&
	test_must_fail tl-coll -o dup2 full/anon1.coll full/rank0.coll 2>err &&
	grep -q "rank 0 again" err
'
test_expect_success 'a stream cut short is refused' '
	sed "\$d" full/rank0.coll >cut.coll &&
	test_must_fail tl-coll -o cut cut.coll full/rank1.coll 2>err &&
	echo "tl-coll: cut.coll: cut short (no #end line)" >err.want && test_cmp err.want err
'
test_expect_success 'a row count that #end does not match is refused' '
	sed "3,/^[0-9]/{/^[0-9]/d}" full/rank0.coll >short.coll &&
	test_must_fail tl-coll -o short short.coll 2>err &&
	grep -q "short.coll: #end says 1[0-9] rows, the stream has" err
'
test_expect_success 'fields that are not JSON, numbers that are not numbers' '
	awk -F"\t" -v OFS="\t" "NR == 9 { \$10 = \"{bad\" } { print }" full/rank0.coll >badjson.coll &&
	test_must_fail tl-coll -o x badjson.coll 2>err &&
	grep -q "badjson.coll:9: dtype is not JSON" err &&
	awk -F"\t" -v OFS="\t" "NR == 9 { \$4 = \"12ab\" } { print }" full/rank0.coll >badts.coll &&
	test_must_fail tl-coll -o x badts.coll 2>err &&
	grep -q "badts.coll:9: ts is not a number: .12ab." err
'
test_expect_success 'an event stream is not a collectives stream' '
	tl-cat "$cases/one/rank0.json" >events.tsv &&
	test_must_fail tl-coll -o x events.tsv 2>err &&
	grep -q "a tl-events stream, but this program reads coll" err
'
test_expect_success 'every bad stream is named, then nothing is written' '
	test_must_fail tl-coll -o y cut.coll events.tsv full/rank2.coll 2>err &&
	test "$(wc -l <err)" -eq 2 && test ! -e y
'
test_expect_success 'no collective kernels: no sheets, a message, exit 0' '
	echo "{\"traceEvents\": []}" >none.json &&
	tl-cat none.json | tl-coll --extract >none.coll &&
	mkdir -p z && echo old >z/nccl_long.csv &&
	tl-coll -o z none.coll 2>err &&
	echo "tl-coll: no collective kernels in the 1 rank stream: no sheets written" >err.want &&
	test_cmp err.want err && test ! -e z/nccl_long.csv
'
test_expect_success 'optional sheets of an earlier run are removed' '
	tl-coll --all2allv-heatmap -o stale a2av/rank*.coll &&
	test -f stale/nccl_all2allv.csv && test -f stale/nccl_all2allv_heatmap.csv &&
	tl-coll -o stale one/rank0.coll &&
	test ! -e stale/nccl_all2allv.csv && test ! -e stale/nccl_summary_all2allv.csv &&
	test ! -e stale/nccl_all2allv_heatmap.csv && test -f stale/straggler_summary.csv
'
test_expect_success '--gpus-per-node: node_id = rank / N, node_span from the group' '
	tl-coll --gpus-per-node 1 -o g1 full/rank*.coll &&
	head -n 1 g1/straggler_summary.csv | grep -q ",node_id\$" &&
	awk -F, "NR > 1 && \$1 != \$NF" g1/straggler_summary.csv >bad && test ! -s bad &&
	tl-coll --gpus-per-node 4 -o g4 full/rank*.coll &&
	! grep -q inter_node g4/nccl_long.csv && grep -q intra_node g4/nccl_long.csv
'
test_expect_success 'without deviceProperties and --gpus-per-node: no node columns' '
	tl-coll -o nogpn uneven/rank*.coll &&
	! grep -q node_ nogpn/*.csv
'
test_expect_success 'a distributedInfo.world_size that is not the number of streams: a warning' '
	tl-coll -o w full/rank0.coll full/rank1.coll 2>err &&
	grep -q "warning: full/rank0.coll: distributedInfo.world_size is 4, but 2 rank streams were given" err
'
test_expect_code 2 '--gpus-per-node 0 is a usage error' 'tl-coll --gpus-per-node 0 -o x one/rank0.coll'
test_expect_code 2 'an unknown aggregation is a usage error' 'tl-coll --agg-metrics mean,mode -o x one/rank0.coll'
test_expect_code 2 'an aggregation twice is a usage error' 'tl-coll --agg-metrics "mean std mean" -o x one/rank0.coll'
test_expect_code 2 'no -o DIR is a usage error' 'tl-coll one/rank0.coll'
test_expect_code 2 '--coll-analysis reads one stream' 'tl-coll --coll-analysis -o x one/rank0.coll one/rank0.coll'
test_expect_success '--agg-metrics names the summary columns' '
	tl-coll --agg-metrics "median var" -o agg full/rank*.coll &&
	head -n 1 agg/nccl_summary_implicit_sync.csv | grep -q "^Collective name,dtype,In msg nelems,Process Group Name,Group size,Full msg size (MB),comm_latency_median,comm_latency_var,skew in start time_median,"
'
test_done
