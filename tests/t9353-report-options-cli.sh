#!/bin/sh
# tl-report's parsing of TraceLens's report options: both spellings, the
# "--opt=VALUE" form, missing and bad values as usage errors (exit 2), and
# what the options hand to tl-perf (on the sample trace, no corpus needed).
. "$TL_SRC/tests/lib.sh"

cp "$TL_SRC/share/tl/sample/trace.json" trace.json

test_expect_code 2 'a value-taking option without its value' 'tl-report trace.json --micro_idle_thresh_us'
test_expect_code 2 'a number that is not one' 'tl-report --micro-idle-thresh-us=ten trace.json'
test_expect_code 2 'a bad --short_kernel_histogram_bins' 'tl-report --short_kernel_histogram_bins x trace.json'
test_expect_code 2 'an unknown TraceLens-looking option' 'tl-report --include_overlap_infos trace.json'
test_expect_code 1 'an --extension-file that cannot be read' 'tl-report --extension-file nosuch.tsv trace.json'
test_expect_success 'both spellings and the = form give the same report' '
	tl-report -o a --include_overlap_info --group_by_num_kernels \
		--micro_idle_thresh_us=10 --include_first_occurrence_time trace.json >/dev/null 2>err &&
	tl-report -o b --include-overlap-info --group-by-num-kernels \
		--micro-idle-thresh-us 10 --include-first-occurrence-time trace.json >/dev/null 2>err &&
	(cd a && ls) >la && (cd b && ls) >lb && test_cmp la lb &&
	for f in $(cat la); do case $f in *.csv) cmp "a/$f" "b/$f" || exit 1 ;; esac; done &&
	grep -q "^micro_idle_time," a/gpu_timeline.csv &&
	test -f a/ops_unique_args_kl_overlap.csv &&
	head -1 a/ops_unique_args.csv | grep -q ",num_kernels,operation_count,first_occurrence_time,"
'
test_expect_success '--include_call_stack builds the tree with python frames' '
	tl-report -o c --include_call_stack trace.json >/dev/null 2>err &&
	head -1 c/unified_perf_summary.csv | grep -q ",entry_point,call_stack_full,"
'
test_expect_success 'TraceLens simulators are ignored with a message' '
	tl-report -o d --enable-origami --python_path /usr/bin/python3 trace.json >/dev/null 2>err &&
	grep -q "ignored" err && test -f d/ops_summary.csv
'
test_done
