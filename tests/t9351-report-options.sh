#!/bin/sh
# Every other TraceLens report option, one at a time, against references
# TraceLens made with it (t9351-report-options.d/*/, COMMANDS says how),
# given in TraceLens's spelling or tl's: --topk_ops/--topk_roofline_ops
# (accepted, no effect, as in TraceLens), --short_kernel_histogram_bins and
# --topk_short_kernels, --gpu_arch_json_path (TraceLens's MI300X.json read
# as it is), --extension-file (the tl table extension.tsv saying what
# extension.py says to TraceLens; formula.tsv's formula row, formula.py's
# new model class), --include_unlinked_kernels and
# --comparison-json-path (diff_stats and the speedup/delta/LCA columns).
. "$TL_SRC/tests/lib.sh"

if ! have_shared || [ ! -x "$SHARED/tools/tl-conform" ]; then
	test_skip_all 'report options against TraceLens' 'no ../shared/corpus'
fi
B=$SHARED/corpus/h100-gaunernst_bert-small-uncased__1016001/trace.json.gz
M=$SHARED/corpus/mi300-gaunernst_bert-small-uncased__1016001/trace.json.gz
D=$TEST_DIR

# report NAME ARGS...: tl-report into out-NAME, conform against D/NAME
report() {
	name=$1
	shift
	rm -rf "out-$name" &&
	tl-report -o "out-$name" "$@" >path.out 2>"err-$name" &&
	"$SHARED/tools/tl-conform" "out-$name" "$D/$name" >conform.out ||
	{ cat conform.out "err-$name"; return 1; }
}

test_expect_success '--topk_ops and --topk_roofline_ops change nothing, as in TraceLens' '
	report topk --topk_ops 3 --topk-roofline-ops=2 "$B"
'
test_expect_success '--short_kernel_histogram_bins 7 --topk_short_kernels 5' '
	report short --short_kernel_histogram_bins 7 --topk-short-kernels 5 "$B" &&
	wc -l <out-short/short_kernel_histogram.csv >n && echo 8 >want && test_cmp want n &&
	wc -l <out-short/short_kernels_summary.csv >n && echo 6 >want && test_cmp want n
'
test_expect_success '--gpu_arch_json_path reads TraceLens'"'"'s arch JSON as it is' '
	report arch --gpu_arch_json_path "$D/MI300X.json" "$M" &&
	head -1 out-arch/unified_perf_summary.csv >hdr && grep -q "Roofline Bound" hdr &&
	grep -q MEMORY_BOUND out-arch/GEMM.csv
'
test_expect_success '--extension-file: a table of extra ops (a model of a known kind, a category)' '
	report extension --extension-file "$D/extension.tsv" "$B" &&
	grep -q "^aten::gelu," out-extension/UnaryElementwise.csv &&
	grep -q "^gather," out-extension/ops_summary_by_category.csv
'
test_expect_success '--extension-file: a formula row (expr) is a new model with a sheet of its own' '
	report formula --extension-file "$D/formula.tsv" "$B" &&
	test -f out-formula/Gather_fwd.csv &&
	grep -q "^aten::index_select,141,512,c10::BFloat16," out-formula/Gather_fwd.csv
'
test_expect_success 'a TraceLens Python extension is refused with a message' '
	test_must_fail tl-report -o out-py --extension_file "$D/extension.py" "$B" 2>err &&
	grep -q "op-table rows" err
'
test_expect_success '--include_unlinked_kernels counts unlinked GPU events' '
	report unlinked --include_unlinked_kernels "$B"
'
test_expect_success '--comparison-json-path: diff_stats and the speedup, delta and LCA columns' '
	report comparison --comparison-json-path "$M" "$B" &&
	head -1 out-comparison/unified_perf_summary.csv >hdr &&
	grep -q "Kernel Time (µs)_sum,speedup (trace2/trace1),delta_us (trace2 - trace1),lca_count_trace2,lca_id,lca_name,lca_total_kernel_time_trace1_us,lca_total_kernel_time_trace2_us," hdr
'
test_expect_success 'TraceLens'"'"'s input and output options: --profile_json_path, --output_csvs_dir, --output_xlsx_path' '
	rm -rf out-io && tl-report --profile_json_path "$B" --output_csvs_dir out-io \
		--output_xlsx_path io.xlsx --enable_kernel_summary --short_kernel_study >path.out 2>err &&
	test -f out-io/ops_summary.csv && test -s io.xlsx
'
test_done
