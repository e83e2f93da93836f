#!/bin/sh
# scripts/tl-report with several traces: one folder per trace, never two
# traces into one folder; -j N is a streaming pool (a slow trace does not
# hold a batch).  Uses the hand-made trace of t3001.
. "$TL_SRC/tests/lib.sh"

trace=$TL_SRC/tests/t3001-perf-sheets.d/trace.json
mkdir a b
cp "$trace" a/trace.json
cp "$trace" b/trace.json
cp "$trace" c.json
cp "$trace" d.json
cp "$trace" e.json

test_expect_code 2 'two traces that would share a folder under -o are refused' '
	tl-report -o out a/trace.json b/trace.json >out.txt 2>err
'
test_expect_success '... naming both traces and the folder, and writing nothing' '
	grep -q "a/trace.json and b/trace.json would both write out/trace_perf_report_csvs" err &&
	test ! -e out
'
test_expect_code 2 'the same trace named twice is refused too' '
	tl-report c.json ./c.json 2>err
'
test_expect_code 2 'and so are x.json and x.json.gz, without -o' '
	gzip -c c.json >c.json.gz &&
	tl-report -j 2 c.json c.json.gz 2>err
'
test_expect_success 'traces with different names get one folder each under -o' '
	tl-report -o two a/trace.json c.json >out.txt &&
	printf "two/trace_perf_report_csvs\ntwo/c_perf_report_csvs\n" >want &&
	test_cmp want out.txt &&
	test_cmp two/trace_perf_report_csvs/ops_summary.csv two/c_perf_report_csvs/ops_summary.csv
'
test_expect_success 'without -o each folder goes beside its trace' '
	tl-report a/trace.json b/trace.json >out.txt &&
	test -f a/trace_perf_report_csvs/report.md &&
	test -f b/trace_perf_report_csvs/report.md
'

test_expect_success '-j 2 passes every option on to each trace (--topk 1)' '
	tl-report -j 2 -o topk --topk 1 c.json d.json e.json >out.txt &&
	sort out.txt >got &&
	printf "topk/c_perf_report_csvs\ntopk/d_perf_report_csvs\ntopk/e_perf_report_csvs\n" >want &&
	test_cmp want got &&
	tl-report -o one --topk 1 c.json >/dev/null &&
	for t in c d e; do
		test_cmp one/short_kernels_summary.csv topk/${t}_perf_report_csvs/short_kernels_summary.csv || exit 1
	done
'
test_expect_success '-j 2: a trace that cannot be read fails the run, the others are written' '
	test_must_fail tl-report -j 2 -o bad c.json missing.json d.json >out.txt 2>err &&
	grep -q "missing.json: cannot read" err &&
	test -f bad/c_perf_report_csvs/report.md && test -f bad/d_perf_report_csvs/report.md
'

# The first trace is a FIFO nobody writes to until the last trace's report
# is done: in batches of 2 the third and fourth traces could not start
# before the first ends, in a streaming pool they finish while it waits.
if ! mkfifo slow.json 2>/dev/null; then
	test_skip '-j 2 is a streaming pool' 'mkfifo failed'
else
	(tl-report -j 2 -o pool slow.json c.json d.json e.json >pool.out 2>pool.err
	 echo $? >pool.rc) &
	bg=$!
	i=0
	while [ $i -lt 600 ] && [ ! -f pool/e_perf_report_csvs/report.md ]; do
		sleep 0.2; i=$((i + 1))
	done
	if [ -f pool/e_perf_report_csvs/report.md ]; then echo before >order; else echo after >order; fi
	timeout 120 sh -c 'cat "$1" >slow.json' sh "$trace"
	wait $bg
	test_expect_success '-j 2 is a streaming pool: the others finish while the first waits' '
		echo before >want && test_cmp want order
	'
	test_expect_success '... and the slow trace is reported when its data comes' '
		echo 0 >want && test_cmp want pool.rc &&
		test_cmp pool/c_perf_report_csvs/ops_summary.csv pool/slow_perf_report_csvs/ops_summary.csv
	'
fi
test_done
