#!/bin/sh
# scripts/tl-report: folders, several traces, errors, --compare wiring.
# Uses the hand-made trace of t3001.
. "$TL_SRC/tests/lib.sh"

trace=$TL_SRC/tests/t3001-perf-sheets.d/trace.json
test_expect_success 'default folder is NAME_perf_report_csvs next to the trace' '
	cp "$trace" a.json &&
	tl-report a.json >out &&
	echo a_perf_report_csvs >want && test_cmp want out &&
	test -f a_perf_report_csvs/ops_summary.csv &&
	test -f a_perf_report_csvs/gpu_timeline.csv &&
	test -f a_perf_report_csvs/report.md
'
test_expect_success 'sheets equal tl-perf on the same trace' '
	tl-cat a.json >ev && tl-tree ev >nodes && tl-perf --csv -o direct nodes &&
	for f in direct/*.csv; do test_cmp "$f" "a_perf_report_csvs/${f#direct/}" || exit 1; done
'
test_expect_success 'several traces in parallel: one folder each under -o' '
	cp "$trace" b.json && gzip -c "$trace" >c.json.gz &&
	tl-report -j 2 -o multi a.json b.json c.json.gz >out &&
	sort out >got &&
	printf "multi/a_perf_report_csvs\nmulti/b_perf_report_csvs\nmulti/c_perf_report_csvs\n" >want &&
	test_cmp want got &&
	test_cmp multi/a_perf_report_csvs/ops_summary.csv multi/c_perf_report_csvs/ops_summary.csv
'
test_expect_success 'a bad trace fails, the good ones are still written' '
	printf "{\"traceEvents\": [ {\"ph\": " >bad.json &&
	test_must_fail tl-report -o mixed a.json bad.json >out 2>err &&
	test -f mixed/a_perf_report_csvs/ops_summary.csv &&
	grep -q "bad.json" err
'
test_expect_success 'no progress line when stderr is not a terminal' '
	tl-report -o quiet a.json >out 2>err &&
	! grep -q "parsing" err && ! grep -q "writing sheets" err
'
test_expect_success '--xlsx writes the workbook beside the folder, one sheet per CSV' '
	command -v unzip >/dev/null || { echo "# unzip missing"; exit 1; }
	tl-report --xlsx -o x/rep a.json >out &&
	test -f x/rep/ops_summary.csv && test -f x/rep.xlsx &&
	ls x/rep/*.csv | wc -l >ncsv &&
	unzip -l x/rep.xlsx | grep -c "xl/worksheets/sheet" >nsheet &&
	test_cmp ncsv nsheet
'
test_expect_success 'options may follow the traces, as with GNU tools' '
	tl-report a.json -o after --topk 1 >out 2>err &&
	test -f after/ops_summary.csv && test "$(cat out)" = after
'
test_expect_success 'a trace name with a quote and spaces' '
	cp a.json "it'"'"'s a.json" && tl-report -o q "it'"'"'s a.json" >out 2>err &&
	test -f q/ops_summary.csv
'
test_expect_code 2 'no trace is a usage error' 'tl-report'
test_expect_code 2 'unknown option is a usage error' 'tl-report --bogus a.json'
test_expect_code 0 '-h prints the usage' 'tl-report -h >h && grep -q "^usage: tl-report" h'
test_expect_success '--compare runs tl-compare with the same arguments' '
	tl-report --compare -h >c.out &&
	tl-compare -h >c.want &&
	test_cmp c.want c.out
'
test_done
