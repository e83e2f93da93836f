#!/bin/sh
# scripts/tl-report on rocprofv3 results files: found by content, TraceLens's
# rocprof sheets (its flags accepted in its spelling), the folder named as
# TraceLens names the workbook, report.md; rocprof-908 through tl-conform.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t3500-rocprof-sheets.d

test_expect_success 'X_results.json: X_perf_report_csvs, found by content' '
	cp "$D/equal_results.json" run_results.json &&
	tl-report run_results.json >out 2>err &&
	echo run_perf_report_csvs >want && test_cmp want out &&
	ls run_perf_report_csvs >got &&
	printf "%s\n" gpu_timeline.csv kernel_summary.csv kernel_summary_by_category.csv \
		report.md short_kernel_histogram.csv short_kernels_summary.csv >want &&
	test_cmp want got
'

test_expect_success 'the sheets are TraceLens'"'"'s (its flags, its spelling)' '
	cp "$D/equal_results.json" eq.json &&
	tl-report --kernel_details --short_kernel_study --topk_kernels 5 \
		--short_kernel_threshold_us 8 --short_kernel_histogram_bins 7 -o a eq.json >out &&
	for f in "$D/ref-equal-topk"/*.csv; do test_cmp "$f" "a/${f##*/}" || exit 1; done
'

test_expect_success 'tl spellings give the same; --fix-units; --disable_kernel_summary' '
	cp "$D/mixed_results.json" mixed.json &&
	tl-report --kernel-details --fix-units -o b mixed.json >out 2>/dev/null &&
	for f in "$D/ref-mixed-fix-units"/*.csv; do test_cmp "$f" "b/${f##*/}" || exit 1; done &&
	tl-report --disable_kernel_summary -o c mixed.json >out 2>/dev/null &&
	! test -f c/kernel_summary.csv && test -f c/gpu_timeline.csv
'

test_expect_success 'report.md: the timeline and the top kernels' '
	grep -q "^# rocprofv3 report: mixed.json" b/report.md &&
	grep -q "^| kernel | 0.010 | 0.125 |" b/report.md &&
	grep -q "^| ncclDevKernel_Generic_1 | COMM | 1 | 0.005 | 41.590 |" b/report.md
'

test_expect_success '--rocprof forces the rocprof report on another trace' '
	printf "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":1,\"ts\":1,\"dur\":2}]}" >k.json &&
	tl-report --rocprof -o f k.json >out &&
	test -f f/kernel_summary_by_category.csv && ! test -f f/ops_summary.csv
'

test_expect_success 'a truncated results file: exit 1, tl-cat says where' '
	head -c 300 "$D/equal_results.json" >cut_results.json &&
	test_must_fail tl-report -o g cut_results.json >out 2>err &&
	grep -q "^tl-cat: cut_results.json: byte 300: truncated JSON" err &&
	grep -q "^tl-report: cut_results.json: report failed" err
'

test_expect_success 'a binary Perfetto trace: exit 1, the traceconv command named' '
	printf "\n\005@\001P\002" >run.pftrace &&
	test_must_fail tl-report run.pftrace >out 2>err &&
	grep -q "traceconv json run.pftrace run.json" err
'

test_expect_code 2 'a rocprof option without its number: usage error' 'tl-report --topk_kernels'

if have_shared && [ -d "$SHARED/corpus/rocprof-908/reference" ]; then
	test_expect_success 'rocprof-908 with TraceLens'"'"'s flags: every sheet passes tl-conform' '
		tl-report --kernel_details --short_kernel_study -o r908 \
			"$SHARED/corpus/rocprof-908/trace_results.json.gz" >out &&
		"$SHARED/tools/tl-conform" r908 "$SHARED/corpus/rocprof-908/reference" >conform &&
		tail -1 conform | grep -qx "6 passed, 0 failed"
	'
else
	test_skip 'rocprof-908 through tl-report' "no $SHARED/corpus/rocprof-908"
fi
test_done
