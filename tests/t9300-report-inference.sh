#!/bin/sh
# tl-report --inference --capture against TraceLens's inference report
# (../shared/corpus/inference-*/reference-inference/: TraceLens's own
# regression test's settings — capture merge, pseudo ops, parent module,
# num_kernels, call stacks, no collectives).  Every reference sheet, the
# merged graph replays' ops (shapes, categories, roofline models) included.
. "$TL_SRC/tests/lib.sh"

conf=$TL_SRC/tests/conformance
if ! have_shared; then
	test_skip_all 'inference report conformance' 'no ../shared/corpus'
fi

n=0
for case in "$SHARED"/corpus/inference-*/; do
	name=$(basename "$case")
	[ -d "$case/reference-inference" ] && [ -d "$case/capture_traces" ] || continue
	n=$((n + 1))
	test_expect_success "$name: tl-report --inference --capture matches TraceLens" '
		rm -rf "out-$name" &&
		tl-report --inference --capture "$case/capture_traces" -o "out-$name" \
			"$case/trace.json.gz" >path.out 2>report.err &&
		echo "out-$name" >path.want && test_cmp path.want path.out &&
		"$SHARED/tools/tl-conform" --deviations "$conf/deviations.tsv" "out-$name" \
			"$case/reference-inference" >conform.out ||
		{ cat conform.out report.err; exit 1; }
	'
done

case=$SHARED/corpus/inference-vllm_prefilldecode_piecewise
if [ -d "$case/reference-inference" ]; then
	test_expect_success "TraceLens's spellings: --capture_folder, --enable_pseudo_ops, --group_by_parent_module" '
		rm -rf out-spell &&
		tl-report --capture_folder "$case/capture_traces" --enable_pseudo_ops \
			--group_by_parent_module --group_by_num_kernels --include_call_stack \
			-o out-spell "$case/trace.json.gz" >path.out 2>report.err &&
		"$SHARED/tools/tl-conform" "out-spell" "$case/reference-inference" >conform.out ||
		{ cat conform.out report.err; exit 1; }
	'
	test_expect_success 'the merged ops are there: 24 graph replays of captured MoE GEMMs as pseudo ops' '
		grep -c "^pseudo_op::moe_triton_unfused_up,MoE_unfused," out-spell/unified_perf_summary.csv >n &&
		echo 1 >want && test_cmp want n &&
		grep "^pseudo_op::moe_triton_unfused_up," out-spell/MoE_unfused_fwd.csv >row &&
		grep -q ",matrix_fp4," row
	'
	test_expect_success 'without the capture traces the graph kernels stay under hipGraphLaunch' '
		rm -rf out-plain &&
		tl-report --inference -o out-plain "$case/trace.json.gz" >path.out 2>report.err &&
		grep -q "^hipGraphLaunch->" out-plain/unified_perf_summary.csv &&
		! grep -q "^pseudo_op::" out-plain/unified_perf_summary.csv
	'
	test_expect_code 2 'a capture folder that is not a folder is a usage error' '
		tl-report --inference --capture "$case/trace.json.gz" -o out-bad "$case/trace.json.gz"
	'
fi
[ $n -gt 0 ] || test_skip 'inference report conformance' 'no corpus case with reference-inference/'
test_done
