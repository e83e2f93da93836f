#!/bin/sh
# scripts/tl-report on Perfetto-style traceEvents JSON: found by content (or
# --perfetto), TraceLens's three reports in one folder with the HIP activity
# report's Markdown as report.md, TraceLens's flags in its spelling.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t3520-pftrace-sheets.d

test_expect_success 'found by content: TraceLens'"'"'s sheets and report.md' '
	cp "$D/edge.json" run.json &&
	tl-report run.json >out 2>err &&
	echo run_perf_report_csvs >want && test_cmp want out &&
	(cd "$D/ref-edge" && ls) >want && ls run_perf_report_csvs >got && test_cmp want got &&
	for f in "$D/ref-edge"/*; do test_cmp "$f" "run_perf_report_csvs/${f##*/}" || exit 1; done
'

test_expect_success 'TraceLens'"'"'s flags of both reports, in its spelling' '
	tl-report --kernel_summary_group name --min_event_ns 0 --min_tid 0 --max_tid 50 \
		--top_xla 2 --hip_summary_group name+stream --kernel_summary_top 3 \
		--hip_summary_top 2 --allow_multi_kernel_per_api --include_nonlaunch_apis \
		-o a run.json >out &&
	for f in "$D/ref-edge-name"/*; do test_cmp "$f" "a/${f##*/}" || exit 1; done
'

test_expect_success 'tl spellings; --no_kernel_summary drops its sheet' '
	tl-report --merge-kernels --kernel-summary-baseline compute --min-event-ns 6000 \
		--no-hip-summary --exclude-kernel-regex "fusion_\d+|^late" -o b run.json >out &&
	for f in "$D/ref-edge-merge"/*; do test_cmp "$f" "b/${f##*/}" || exit 1; done &&
	tl-report --no_kernel_summary -o c run.json >out &&
	! test -f c/kernel_summary.csv && test -f c/hip_summary.csv
'

test_expect_success '--perfetto says so anyway' '
	tl-report --perfetto -o d run.json >out && diff -r run_perf_report_csvs d
'

test_expect_success 'a bad value: tl-pftrace says so, exit 1, no hang' '
	test_must_fail tl-report --min_tid x -o e run.json >out 2>err &&
	grep -q "^tl-pftrace: --min_tid: .x. is not an integer" err &&
	grep -q "^tl-report: run.json: report failed" err
'

test_expect_code 2 'a Perfetto option without its value: usage error' 'tl-report --min_tid'
test_done
