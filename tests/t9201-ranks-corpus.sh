#!/bin/sh
# tl-ranks on the corpus's two multi-rank sets, on xargs -P (the default
# engine) and on GNU parallel (--parallel): the same bytes either way; the collective sheets pass
# TraceLens's references; ranks.csv agrees with TraceLens's own
# straggler_summary.csv and gpu_timeline.csv; the straggler is the rank
# make-ranks made late (A100 set: --straggler 2) or the one TraceLens
# ranks first (V100 set); the map is a streaming pool (a slow rank does
# not hold the others).
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip 'tl-ranks on the multi-rank corpus' '../shared/corpus is absent'
	test_done
	exit
fi
conform=$SHARED/tools/tl-conform
have_parallel=
command -v parallel >/dev/null 2>&1 && have_parallel=1

for set in multirank-dlrm-v100x8 multirank-nccl-a100x4; do
	C=$SHARED/corpus/$set
	n=$(ls "$C/ranks" | wc -l)
	list=
	i=0
	while [ $i -lt "$n" ]; do list="$list $C/ranks/rank$i.json.gz"; i=$((i + 1)); done
	mkdir -p "$set/xargs" "$set/parallel"
	test_expect_success "$set: tl-ranks -j 2 (xargs -P, the default engine)" '
		(cd $set/xargs && tl-ranks -j 2 -o job $list >out 2>err) &&
		test "$(cat $set/xargs/out)" = job
	'
	if [ -n "$have_parallel" ]; then
		test_expect_success "$set: tl-ranks --parallel -j 2 (GNU parallel): the same bytes" '
			(cd $set/parallel && tl-ranks --parallel -j 2 -o job $list >out 2>err) &&
			diff -r -x .tl-ranks $set/xargs/job $set/parallel/job
		'
	else
		test_skip "$set: tl-ranks on GNU parallel" 'GNU parallel is not installed (apt-get install parallel)'
	fi
	J=$set/xargs/job
	test_expect_success "$set: the collective sheets pass TraceLens's reference" '
		"$conform" $J/collectives "$C/reference" >conform.out || { tail -5 conform.out; exit 1; }
	'
	test_expect_success "$set: ranks.csv has TraceLens's collective time, wait and last arrivals" '
		awk -F, "NR > 1 { print \$1 \",\" \$8 \",\" \$2 \",\" \$4 }" "$C/reference/straggler_summary.csv" | sort -n >want &&
		awk -F, "NR > 1 { print \$1 \",\" \$9 \",\" \$10 \",\" \$11 }" $J/ranks.csv >got &&
		test_cmp want got
	'
	test_expect_success "$set: rank 0's GPU time in ranks.csv is TraceLens's gpu_timeline.csv in µs" '
		for t in total_time busy_time idle_time computation_time exposed_comm_time exposed_memcpy_time; do
			awk -F, -v t=$t "\$1 == t { printf \"%.3f\\n\", \$2 * 1000 }" "$C/reference-rank0/gpu_timeline.csv"
		done >want &&
		awk -F, "NR == 2 { for (i = 3; i <= 8; i++) printf \"%.3f\\n\", \$i }" $J/ranks.csv >got &&
		test_cmp want got
	'
	test_expect_success "$set: every rank's GPU time in ranks.csv is its own gpu_timeline.csv in µs" '
		i=0 && while [ $i -lt $n ]; do
			for t in total_time busy_time idle_time computation_time exposed_comm_time exposed_memcpy_time; do
				awk -F, -v t=$t "\$1 == t { printf \"%.3f\\n\", \$2 * 1000 }" $J/rank_$i/gpu_timeline.csv
			done
			i=$((i + 1))
		done >want &&
		awk -F, "NR > 1 { for (i = 3; i <= 8; i++) printf \"%.3f\\n\", \$i }" $J/ranks.csv >got &&
		test_cmp want got
	'
done

test_expect_success 'the straggler: rank 2, made late by make-ranks --straggler 2' '
	cut -d, -f1,12 multirank-nccl-a100x4/xargs/job/ranks.csv >got &&
	printf "rank,straggler\n0,0\n1,0\n2,1\n3,0\n" >want && test_cmp want got &&
	grep -q "^\*\*Rank 2\*\* arrived last at 11 of the 15 " multirank-nccl-a100x4/xargs/job/report.md
'
test_expect_success 'the straggler: rank 7, first in TraceLens'"'"'s straggler_summary (V100 set)' '
	sed -n 2p "$SHARED/corpus/multirank-dlrm-v100x8/reference/straggler_summary.csv" | cut -d, -f1 >want &&
	awk -F, "\$12 == 1 { print \$1 }" multirank-dlrm-v100x8/xargs/job/ranks.csv >got && test_cmp want got
'
# The slowest collective by wall time (first arrival to last end),
# computed here from TraceLens's nccl_implicit_sync.csv.
test_expect_success 'report.md: the slowest collective is the one TraceLens'"'"'s sheet says' '
	C=$SHARED/corpus/multirank-nccl-a100x4/reference &&
	awk -F"\"" "{ for (i = 2; i <= NF; i += 2) gsub(/,/, \";\", \$i); print }" OFS="\"" $C/nccl_implicit_sync.csv |
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) h[\$i] = i; next }
		{ lo = \"\"; hi = \"\"
		  for (r = 0; r < 4; r++) { t = \$h[\"rank_\" r \"_ts\"]; e = t + \$h[\"rank_\" r \"_dur\"]
			if (lo == \"\" || t + 0 < lo) lo = t + 0; if (hi == \"\" || e > hi) hi = e }
		  if (hi - lo > best) { best = hi - lo; id = \$1 } }
		END { print id }" >want &&
	sed -n "/^## Slowest collectives/,\$p" multirank-nccl-a100x4/xargs/job/report.md |
		awk -F" [|] " "/^[|] [0-9]/ { sub(/^[|] /, \"\"); print \$1; exit }" >got &&
	test_cmp want got
'

# Streaming: rank 0 is a FIFO nobody writes to until the last rank's
# report is written; a batch of two would wait on it before starting the
# third and fourth ranks.
streaming() {
	engine=$1
	rm -rf fifo_$engine && mkdir fifo_$engine && cd fifo_$engine || return 1
	mkfifo rank0.json || return 1
	for i in 0 1 2 3; do
		sed "s/\"rank\": 0, \"world_size\": 2/\"rank\": $i, \"world_size\": 4/" \
			"$TL_SRC/share/tl/sample/trace.json" >trace$i.json
	done
	for i in 1 2 3; do mv trace$i.json rank$i.json; done
	x=; [ "$engine" = parallel ] && x=--parallel
	(tl-ranks $x -j 2 -o job rank0.json rank1.json rank2.json rank3.json >out 2>err; echo $? >rc) &
	bg=$!
	i=0
	while [ $i -lt 600 ] && ! { [ -f job/rank_1/report.md ] && [ -f job/rank_2/report.md ] &&
			[ -f job/rank_3/report.md ]; }; do
		sleep 0.2; i=$((i + 1))
	done
	if [ -f job/rank_3/report.md ] && [ ! -f job/report.md ]; then echo before >order; else echo after >order; fi
	timeout 120 sh -c 'cat trace0.json >rank0.json'
	wait $bg
	cd ..
}
for engine in xargs parallel; do
	if [ $engine = parallel ] && [ -z "$have_parallel" ]; then
		test_skip "the map on $engine is a streaming pool" 'GNU parallel is not installed'
		continue
	fi
	(streaming $engine)
	test_expect_success "the map on $engine is a streaming pool: three ranks done while rank 0 waits" '
		echo before >want && test_cmp want fifo_$engine/order &&
		echo 0 >want && test_cmp want fifo_$engine/rc && test -f fifo_$engine/job/report.md
	'
done
test_done
