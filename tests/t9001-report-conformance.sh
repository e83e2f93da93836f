#!/bin/sh
# tl-report against TraceLens's reference CSVs for every corpus trace: every
# reference sheet, the per-category perf-model sheets (GEMM.csv, SDPA_fwd.csv,
# ...) and the whole unified_perf_summary included.  tl-report adds roofline
# columns for the detected GPU; the references have none and tl-conform
# ignores extra columns.
. "$TL_SRC/tests/lib.sh"

conf=$TL_SRC/tests/conformance
if ! have_shared; then
	test_skip_all 'report conformance' 'no ../shared/corpus'
fi
for case in "$SHARED"/corpus/*/; do
	name=$(basename "$case")
	case $name in compare_test*|tracediff-*) continue ;; esac
	[ -d "$case/reference" ] && [ -f "$case/trace.json.gz" ] || continue
	test_expect_success "$name: tl-report matches TraceLens" '
		rm -rf "out-$name" &&
		tl-report -o "out-$name" "$case/trace.json.gz" >path.out 2>report.err &&
		echo "out-$name" >path.want && test_cmp path.want path.out &&
		"$SHARED/tools/tl-conform" --deviations "$conf/deviations.tsv" "out-$name" "$case/reference" >conform.out ||
		{ cat conform.out; exit 1; }
	'
done
test_done
