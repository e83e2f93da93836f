#!/bin/sh
# tl-report with TraceLens's report options against references TraceLens
# made with them (../shared/corpus): h100-Qwen and h100-owlv2's
# reference-options/ (--include_overlap_info --include_call_stack
# --include_first_occurrence_time --group_by_num_kernels
# --micro_idle_thresh_us 10, given in TraceLens's spelling as a user's old
# command line would) and mi300-resnet_act_checkpoint's reference-recompute/
# (--detect_recompute, given in tl's).  coll_analysis is the collective
# analysis's sheet (tl-coll's tests): compared when tl-report writes it.
. "$TL_SRC/tests/lib.sh"

conf=$TL_SRC/tests/conformance
if ! have_shared; then
	test_skip_all 'report options conformance' 'no ../shared/corpus'
fi

# conform OUT REF: tl-conform, leaving out coll_analysis where not written
conform() {
	ref=$2
	if [ ! -f "$1/coll_analysis.csv" ] && [ -f "$2/coll_analysis.csv" ]; then
		rm -rf ref.copy && mkdir ref.copy && cp "$2"/*.csv ref.copy/ &&
		rm ref.copy/coll_analysis.csv && ref=ref.copy
	fi
	"$SHARED/tools/tl-conform" --deviations "$conf/deviations.tsv" "$1" "$ref" >conform.out ||
	{ cat conform.out; return 1; }
}

for name in h100-Qwen_Qwen1.5-0.5B-Chat__1016005 h100-google_owlv2-large-patch14-ensemble__1016001; do
	case=$SHARED/corpus/$name
	[ -d "$case/reference-options" ] || continue
	test_expect_success "$name: tl-report with TraceLens's options matches reference-options" '
		rm -rf "out-$name" &&
		tl-report --include_overlap_info --include_call_stack \
			--include_first_occurrence_time --group_by_num_kernels \
			--micro_idle_thresh_us 10 -o "out-$name" "$case/trace.json.gz" \
			>path.out 2>report.err &&
		conform "out-$name" "$case/reference-options"
	'
done

case=$SHARED/corpus/mi300-resnet_act_checkpoint
if [ -d "$case/reference-recompute" ]; then
	test_expect_success 'mi300-resnet_act_checkpoint: --detect-recompute matches reference-recompute' '
		rm -rf out-rc &&
		tl-report --detect-recompute -o out-rc "$case/trace.json.gz" >path.out 2>report.err &&
		conform out-rc "$case/reference-recompute"
	'
	test_expect_success 'the recompute split: is_recompute columns and both timeline blocks' '
		head -1 out-rc/gpu_timeline.csv >hdr &&
		echo "type,time ms,percent,is_recompute" >want && test_cmp want hdr &&
		grep -c ",True\$" out-rc/gpu_timeline.csv >n && echo 8 >want && test_cmp want n &&
		head -1 out-rc/ops_summary.csv >hdr &&
		grep "^name,is_recompute," hdr
	'
fi
test_done
