#!/bin/sh
# tl-ranks: the three ways to name rank files (a list, --trace-dir,
# --trace-glob with --rank-regex, and --trace-pattern), hand-computed
# values of a 2-rank job, escapes in report.md, a failing rank and how to
# redo it, usage errors.  The ranks are the shipped sample trace (two
# all-reduce kernels, simplified mode) and a copy of it as rank 1 whose
# all-reduces start 20 µs later and end at the same time: rank 1 arrives
# last at both, rank 0 waits 2 x 20 µs.
. "$TL_SRC/tests/lib.sh"

sample=$TL_SRC/share/tl/sample/trace.json
mkrank1() {
	sed -e 's/"ts": 1700000000326.600, "dur": 48.656/"ts": 1700000000346.600, "dur": 28.656/' \
	    -e 's/"ts": 1700000000704.340, "dur": 48.484/"ts": 1700000000724.340, "dur": 28.484/' \
	    -e 's/"rank": 0, "world_size": 2/"rank": 1, "world_size": 2/' "$sample"
}
mkdir -p in
cp "$sample" in/rank0.json
mkrank1 >in/rank1.json
# the jobs name xargs -P (the default engine) with --xargs here; t9201
# runs both engines

test_expect_success 'a list of two ranks: the job report layout' '
	tl-ranks --xargs -j 2 -o job in/rank0.json in/rank1.json >out 2>err &&
	echo job >want && test_cmp want out &&
	test -f job/rank_0/gpu_timeline.csv && test -f job/rank_1/report.md &&
	test -f job/collectives/straggler_summary.csv && test -f job/ranks.csv && test -f job/report.md &&
	! test -e job/rank_2
'
test_expect_success 'ranks.csv: the columns TEAM.md fixes' '
	head -n 1 job/ranks.csv >got &&
	echo "rank,trace,total_time_us,busy_time_us,idle_time_us,computation_time_us,exposed_comm_time_us,exposed_memcpy_time_us,collective_time_us,wait_time_us,arrived_last,straggler" >want &&
	test_cmp want got
'
test_expect_success 'ranks.csv: collectives, wait, last arrivals and straggler by hand' '
	cut -d, -f1,9- job/ranks.csv >got &&
	printf "rank,collective_time_us,wait_time_us,arrived_last,straggler\n0,97.1,40.0,0,0\n1,57.1,0.0,2,1\n" >want &&
	test_cmp want got
'
test_expect_success 'ranks.csv: the trace column is the absolute path' '
	cut -d, -f2 job/ranks.csv | sed 1d >got &&
	printf "%s\n%s\n" "$PWD/in/rank0.json" "$PWD/in/rank1.json" >want && test_cmp want got
'
test_expect_success 'ranks.csv: GPU time of rank 0 is its gpu_timeline.csv in µs' '
	awk -F, "NR > 1 { printf \"%s=%.3f\\n\", \$1, \$2 * 1000 }" job/rank_0/gpu_timeline.csv >tl &&
	total=$(sed -n "s/^total_time=//p" tl) && busy=$(sed -n "s/^busy_time=//p" tl) &&
	idle=$(sed -n "s/^idle_time=//p" tl) && comp=$(sed -n "s/^computation_time=//p" tl) &&
	awk -F, -v t="$total" -v b="$busy" -v i="$idle" -v c="$comp" "NR == 2 {
		if (\$3 != t + 0 || \$4 != b + 0 || \$5 != i + 0 || \$6 != c + 0) { print \"ranks.csv:\", \$0; print \"timeline:\", t, b, i, c; exit 1 } }" job/ranks.csv
'
test_expect_success 'OUT/idle: the job'"'"'s HTA breakdowns equal tl-idle over both ranks at once' '
	tl-cat in/rank0.json | tl-tree >r0.nodes && tl-cat in/rank1.json | tl-tree >r1.nodes &&
	tl-idle -o idle.direct r0.nodes r1.nodes &&
	test -f job/idle/temporal_breakdown.csv &&
	diff -r -x api_kernel_summary.csv idle.direct job/idle	# that one stays per rank (tl-idle(1))
'
test_expect_success 'OUT/report.html: the job page, drawn from the folder' '
	tl-html -o page.html job && test_cmp page.html job/report.html
'
test_expect_success 'report.md names the straggler and the command to look at it' '
	grep -q "^\*\*Rank 1\*\* arrived last at 2 of the 2 implicitly synchronising collectives" job/report.md &&
	grep -q "^    tl-fuse --job job --ranks 0,1 --window " job/report.md &&
	grep -q "^| 1 | .* | \*\*yes\*\* |$" job/report.md
'
test_expect_success 'the tl-fuse command of report.md runs and shows both ranks' '
	cmd=$(sed -n "s/^    \(tl-fuse --job .*\)/\1/p" job/report.md) &&
	$cmd 2>err && gzip -dc straggler.json.gz >s.json &&
	grep -q "RANK 0 - GPU" s.json && grep -q "RANK 1 - GPU" s.json
'
# same_folder A B: two report folders equal but for where the trace was
# named (report_info.csv's trace row, and the titles of report.md/.html)
same_folder() {
	diff -r -x .tl-ranks -x ranks.csv -x report.md -x report.html -x report_info.csv "$1" "$2" &&
	for f in "$1"/report_info.csv "$1"/rank_*/report_info.csv; do
		[ -f "$f" ] || continue
		g=$2${f#"$1"}
		grep -v "^trace," "$f" >a.info && grep -v "^trace," "$g" >b.info &&
			test_cmp a.info b.info || return 1
	done
}
test_expect_success 'each rank folder is tl-report of that trace alone' '
	tl-report -o alone in/rank1.json >/dev/null 2>&1 &&
	same_folder alone job/rank_1
'
test_expect_success 'the same job again gives the same bytes' '
	tl-ranks --xargs -o job2 in/rank0.json in/rank1.json >/dev/null 2>&1 &&
	sed "s/job2/job/" job2/report.md >job2.md && test_cmp job/report.md job2.md &&
	diff -r -x .tl-ranks -x report.md -x report.html job job2
'

# naming the rank files
mkdir -p tdir glob/node0 glob/node1 pat
cp in/rank0.json tdir/rank0_trace.json && cp in/rank1.json tdir/rank1_trace.json
cp in/rank0.json glob/node0/gpu-0.json && cp in/rank1.json glob/node1/gpu-1.json
cp in/rank0.json pat/r0.json && cp in/rank1.json pat/r1.json
same_job() {	# the job in $1 equals job/ but for the trace paths
	same_folder job "$1" &&
	cut -d, -f1,3- job/ranks.csv >a.csv && cut -d, -f1,3- "$1"/ranks.csv >b.csv && test_cmp a.csv b.csv
}
test_expect_success '--trace-dir: TraceLens'"'"'s rank{i}_trace.json names' '
	tl-ranks --xargs -o jdir --trace-dir tdir >/dev/null 2>&1 && same_job jdir
'
test_expect_success '--trace-glob with ** and a --rank-regex of Python'"'"'s syntax' '
	tl-ranks --xargs -o jglob --trace-glob "glob/**/*.json" --rank-regex "gpu-(?P<rank>\d+)" >/dev/null 2>&1 &&
	same_job jglob
'
test_expect_success '--trace-pattern with --world-size' '
	tl-ranks --xargs -o jpat --trace-pattern "pat/r*.json" --world-size 2 >/dev/null 2>&1 && same_job jpat
'
test_expect_success '--trace-glob: a missing rank is an error naming it' '
	mkdir g2 && cp in/rank0.json g2/rank0.json && cp in/rank0.json g2/rank2.json &&
	test_must_fail tl-ranks --xargs -o jg2 --trace-glob "g2/*.json" 2>err &&
	grep -q "no trace for rank 1 (ranks found: 0 to 2)" err
'
test_expect_success '--trace-glob: two files of one rank, the first in name order is used' '
	mkdir g3 && cp in/rank0.json g3/rank0.json && cp in/rank1.json g3/rank1.json && cp in/rank1.json g3/rank_1.json &&
	tl-ranks --xargs -o jg3 --trace-glob "g3/*.json" >/dev/null 2>err &&
	grep -q "rank 1: g3/rank_1.json is not used, g3/rank1.json comes first" err
'
test_expect_success 'a list out of rank order gets a warning' '
	tl-ranks --xargs -o jrev in/rank1.json in/rank0.json >/dev/null 2>err &&
	grep -q "in/rank1.json is rank 0 by its place in the list" err
'
test_expect_success 'a list with --world-size that disagrees: exit 1' '
	test_must_fail tl-ranks --xargs -o jws --trace-pattern "pat/r*.json" --world-size 3 2>err &&
	grep -q "pat/r2.json: cannot read" err
'

# the schedule: the largest trace starts first (one task at a time here,
# so the ranks' status files are written in the order they ran); trailing
# blanks make rank 1 the larger file without changing what it holds
mkdir -p big && cp in/rank0.json big/rank0.json &&
	{ cat in/rank1.json; printf '%20000s\n' ''; } >big/rank1.json
test_expect_success 'the largest trace runs first, the outputs as before' '
	tl-ranks --xargs -j 1 -o jbig big/rank0.json big/rank1.json >/dev/null 2>&1 &&
	ls -rt jbig/.tl-ranks/rank_0.rc jbig/.tl-ranks/rank_1.rc >got &&
	printf "jbig/.tl-ranks/rank_1.rc\njbig/.tl-ranks/rank_0.rc\n" >want && test_cmp want got &&
	same_job jbig
'

# escapes: a trace name with a control character and a | in report.md
name=$(printf "in/r\001|1.json")
cp in/rank1.json "$name"
test_expect_success 'report.md escapes control characters in names' '
	tl-ranks --xargs -o jesc in/rank0.json "$name" >/dev/null 2>&1 &&
	grep -q "in/r\\\\x01|1.json" jesc/report.md &&
	! grep -q "$(printf "\001")" jesc/report.md
'

# a failing rank, then redone
printf '{"traceEvents": [ {"ph": ' >bad.json
test_expect_success 'a bad rank: exit 1 naming it, no job report, the others written' '
	test_must_fail tl-ranks --xargs -o jbad in/rank0.json bad.json >out 2>err &&
	grep -q "rank 1 (.*bad.json): report failed" err &&
	test -f jbad/rank_0/report.md && ! test -f jbad/report.md && ! test -f jbad/ranks.csv
'
test_expect_success '... redone with tl-ranks --map and --reduce once the trace is fixed' '
	cp in/rank1.json bad.json &&
	tl-ranks --map jbad 1 2>err && tl-ranks --reduce jbad 2>err &&
	cut -d, -f1,9- jbad/ranks.csv >got && cut -d, -f1,9- job/ranks.csv >want && test_cmp want got
'
test_expect_code 1 '--reduce with a rank missing fails, naming it' '
	rm jbad/.tl-ranks/rank_0.rc && tl-ranks --reduce jbad 2>err
'
test_expect_code 1 '--map on a folder that is not a job' 'mkdir nojob && tl-ranks --map nojob 0'

# usage
test_expect_code 2 'no -o' 'tl-ranks in/rank0.json'
test_expect_code 2 'no traces' 'tl-ranks -o x'
test_expect_code 2 'two ways of naming the ranks' 'tl-ranks -o x --trace-dir tdir in/rank0.json'
test_expect_code 2 '--trace-pattern without --world-size' 'tl-ranks -o x --trace-pattern "pat/r*.json"'
test_expect_code 2 '--trace-pattern without a *' 'tl-ranks -o x --trace-pattern pat/r0.json --world-size 1'
test_expect_code 2 '--wait without --slurm' 'tl-ranks -o x --wait in/rank0.json'
test_expect_code 2 '--slurm with --sshlogin' 'tl-ranks -o x --slurm -S host in/rank0.json'
test_expect_code 2 '-j 0' 'tl-ranks -j 0 -o x in/rank0.json'
test_expect_code 2 '--xargs with --slurm' 'tl-ranks --xargs --slurm -o x in/rank0.json'
test_expect_code 2 '--xargs with --parallel' 'tl-ranks --xargs --parallel -o x in/rank0.json'
test_expect_code 2 '--parallel with --slurm' 'tl-ranks --parallel --slurm -o x in/rank0.json'
test_expect_code 2 'an unknown option' 'tl-ranks --bogus -o x in/rank0.json'
test_expect_code 2 'a --rank-regex that is not one' 'tl-ranks -o x --trace-dir tdir --rank-regex "rank(("'

# On a terminal the default engine (xargs) draws a progress line once a
# second: rank 0's trace is a fifo, so the job waits, one of two ranks
# done, until the test writes it (script(1) gives tl-ranks a terminal).
if command -v script >/dev/null 2>&1; then
	test_expect_success 'a terminal gets a progress line: ranks reported of all' '
		mkdir prog && mkfifo prog/rank0.json && cp in/rank1.json prog/ &&
		(script -qefc "tl-ranks -j 2 -o prog/job prog/rank0.json prog/rank1.json" prog/tty >/dev/null; echo $? >prog/rc) &
		i=0
		while [ $i -lt 600 ] && ! grep -q "tl-ranks: 1 of 2 ranks reported" prog/tty 2>/dev/null; do
			sleep 0.1; i=$((i + 1))
		done
		timeout 120 sh -c "cat in/rank0.json >prog/rank0.json" && wait &&
		grep -q "tl-ranks: 1 of 2 ranks reported" prog/tty &&
		echo 0 >want && test_cmp want prog/rc && test -f prog/job/report.md
	'
else
	test_skip 'a terminal gets a progress line' 'script(1) (util-linux) is not installed'
fi
test_expect_code 0 '-h prints the usage' 'tl-ranks -h >h && grep -q "^usage: tl-ranks" h'
test_done
