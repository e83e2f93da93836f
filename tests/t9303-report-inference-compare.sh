#!/bin/sh
# tl-report's comparison with a second trace (--comparison_json_path) in
# the inference report and with pseudo ops: the second trace's tree gets
# the same pseudo ops, and its graph captures merged
# (--comparison_capture_folder), before TraceDiff, as TraceLens builds it.
# The traces are t9301's synthetic ones; *-variant.json.gz have every
# kernel longer (tests/tools/vary-durations.py).  References: TraceLens's
# own reports, made as COMMAND says.  Runs without ../shared.
. "$TL_SRC/tests/lib.sh"

d=$TEST_DIR
s=$TL_SRC/tests/t9301-report-inference-synthetic.d
conform() {
	"$SHARED/tools/tl-conform" "$1" "$2" >conform.out 2>&1 ||
	{ cat conform.out report.err; return 1; }
}
if [ ! -x "$SHARED/tools/tl-conform" ]; then
	conform() {
		for f in "$2"/*.csv; do
			head -1 "$f" >want && head -1 "$1/$(basename "$f")" >got &&
			test_cmp want got || return 1
		done
	}
fi

test_expect_success 'both traces graph-merged: --comparison_capture_folder' '
	tl-report --inference --profile_json_path "$s/graft/trace.json.gz" \
		--capture_folder "$s/graft/capture_traces" \
		--comparison_json_path "$d/graft-variant.json.gz" \
		--comparison_capture_folder "$s/graft/capture_traces" \
		--enable_pseudo_ops --group_by_parent_module --group_by_num_kernels \
		--include_call_stack --output_csvs_dir graft >path.out 2>report.err &&
	conform graft "$d/ref-graft"
'
test_expect_success 'the capture copies keep their capture trace'"'"'s nn.Module stack' '
	grep -q ",nn.Module: Layer,nn.Module: Layer" graft/diff_stats.csv &&
	! grep -q "nn.Module: Model;nn.Module: Layer" graft/diff_stats.csv
'
test_expect_success 'inference report: pseudo ops in the second tree too; kernel summary on request' '
	tl-report --inference --profile_json_path "$s/pseudo/trace.json.gz" \
		--comparison_json_path "$d/pseudo-variant.json.gz" --enable_pseudo_ops \
		--group_by_parent_module --group_by_num_kernels --include_call_stack \
		--enable_kernel_summary --short_kernel_study --output_csvs_dir pseudo \
		>path.out 2>report.err &&
	conform pseudo "$d/ref-pseudo" &&
	test -f pseudo/kernel_summary.csv && test -f pseudo/short_kernels_summary.csv
'
test_expect_success 'pseudo ops have no nn.Module stack' '
	grep -q "^[^,]*,pseudo_op::moe_flydsl_stage1,.*,,\$" pseudo/diff_stats.csv
'
test_expect_success 'standard report with --enable_pseudo_ops and a comparison' '
	tl-report --enable_pseudo_ops --comparison_json_path "$d/pseudo-variant.json.gz" \
		-o pstd "$s/pseudo/trace.json.gz" >path.out 2>report.err &&
	conform pstd "$d/ref-pseudo-standard"
'
test_expect_success 'the inference report leaves out the kernel summary unless asked' '
	tl-report --inference -o plain "$s/pseudo/trace.json.gz" >path.out 2>report.err &&
	test ! -e plain/kernel_summary.csv && test ! -e plain/short_kernel_histogram.csv &&
	test ! -e plain/short_kernels_summary.csv && test -f plain/report.md
'
test_expect_code 2 '--comparison_capture_folder needs --comparison_json_path' '
	tl-report --comparison_capture_folder "$s/graft/capture_traces" -o x "$s/graft/trace.json.gz"
'
test_expect_success '--disable_coll_analysis is accepted' '
	tl-report --inference --disable_coll_analysis -o coll "$s/pseudo/trace.json.gz" >path.out 2>report.err
'
test_expect_success '-j 2 forwards the inference options (TraceLens spellings), not the trace' '
	cp "$s/graft/trace.json.gz" g1.json.gz && cp "$s/graft/trace.json.gz" g2.json.gz &&
	tl-report -j 2 --inference --capture_folder "$s/graft/capture_traces" \
		--output_csvs_dir jobs g1.json.gz --profile_json_path g2.json.gz >path.out 2>report.err &&
	tl-report --inference --capture "$s/graft/capture_traces" -o one g1.json.gz >path.out 2>report.err &&
	diff -r one jobs/g1_perf_report_csvs && diff -r -x report.md -x report.html -x report_info.csv one jobs/g2_perf_report_csvs
'
test_done
