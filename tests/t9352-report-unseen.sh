#!/bin/sh
# The default report on traces tl was not built against, against TraceLens's
# own reports of them: the vLLM graph-replay trace of
# inference-vllm_prefilldecode_piecewise (graph launches' synthetic rows,
# vllm::rocm_unquantized_gemm's 3-tuple dtype_A_B; reference made with the
# oracle, t9352-report-unseen.d/vllm/COMMAND), and rank 0 of both multirank
# sets (reference-rank0/: V100 DLRM without Input Strides or Concrete
# Inputs, so no elementwise metrics; short kernels all dropped by pandas'
# dropna, so short_kernels_summary's two-row header); then TraceLens's
# report options on the vLLM trace and on NCCL rank 1 (reference-options'
# flags; vllm-options/, nccl1-options/), and --comparison_json_path on
# the TraceDiff pair (tracediff-comparison/).  coll_analysis is the
# collective analysis's sheet (tl-coll's tests): compared when written.
. "$TL_SRC/tests/lib.sh"

if ! have_shared || [ ! -x "$SHARED/tools/tl-conform" ]; then
	test_skip_all 'reports of unseen traces' 'no ../shared/corpus'
fi
conf=$TL_SRC/tests/conformance

conform() {
	ref=$2
	if [ ! -f "$1/coll_analysis.csv" ] && [ -f "$2/coll_analysis.csv" ]; then
		rm -rf ref.copy && mkdir ref.copy && cp "$2"/*.csv ref.copy/ &&
		rm ref.copy/coll_analysis.csv && ref=ref.copy
	fi
	"$SHARED/tools/tl-conform" --deviations "$conf/deviations.tsv" "$1" "$ref" >conform.out ||
	{ cat conform.out; return 1; }
}

case=$SHARED/corpus/inference-vllm_prefilldecode_piecewise
if [ -f "$case/trace.json.gz" ]; then
	test_expect_success 'vLLM graph-replay trace: the default report matches TraceLens'"'"'s' '
		rm -rf out-vllm && tl-report -o out-vllm "$case/trace.json.gz" >path.out 2>err &&
		conform out-vllm "$TEST_DIR/vllm"
	'
fi
for set in multirank-dlrm-v100x8 multirank-nccl-a100x4; do
	case=$SHARED/corpus/$set
	[ -d "$case/reference-rank0" ] || continue
	test_expect_success "$set rank 0: every sheet of reference-rank0" '
		rm -rf "out-$set" && tl-report -o "out-$set" "$case/ranks/rank0.json.gz" >path.out 2>err &&
		conform "out-$set" "$case/reference-rank0"
	'
done
# TraceLens's report options on traces tl was not built against (the
# references keep only the sheets the options change; COMMAND says how)
opts='--include_overlap_info --include_call_stack --include_first_occurrence_time
	--group_by_num_kernels --micro_idle_thresh_us 10 --no-coll'
case=$SHARED/corpus/inference-vllm_prefilldecode_piecewise
if [ -f "$case/trace.json.gz" ]; then
	test_expect_success 'vLLM graph-replay trace: the report options match TraceLens'"'"'s' '
		rm -rf out-vllm-opt && tl-report $opts -o out-vllm-opt "$case/trace.json.gz" >path.out 2>err &&
		conform out-vllm-opt "$TEST_DIR/vllm-options"
	'
fi
case=$SHARED/corpus/multirank-nccl-a100x4
if [ -f "$case/ranks/rank1.json.gz" ]; then
	test_expect_success 'NCCL rank 1: the overlap sheets and micro-idle split match TraceLens'"'"'s' '
		rm -rf out-nccl1-opt && tl-report $opts -o out-nccl1-opt "$case/ranks/rank1.json.gz" >path.out 2>err &&
		conform out-nccl1-opt "$TEST_DIR/nccl1-options"
	'
fi
case=$SHARED/corpus/tracediff-timesformer-mi300-vs-h100
if [ -f "$case/trace2.json.gz" ]; then
	test_expect_success 'timesformer MI300 vs H100: --comparison_json_path'"'"'s columns match TraceLens'"'"'s' '
		rm -rf out-cmp && tl-report --no-coll -o out-cmp --comparison_json_path "$case/trace2.json.gz" \
			"$case/trace1.json.gz" >path.out 2>err &&
		conform out-cmp "$TEST_DIR/tracediff-comparison" &&
		test -s out-cmp/diff_stats.csv
	'
fi
test_expect_success 'no short kernel left after dropna: TraceLens'"'"'s two header rows' '
	printf "Kernel duration (µs),Kernel duration (µs),Kernel duration (µs)\nsum,count,mean\n" >want &&
	test_cmp want out-multirank-dlrm-v100x8/short_kernels_summary.csv
'
test_done
