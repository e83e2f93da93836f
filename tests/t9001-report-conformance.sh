#!/bin/sh
# tl-report against TraceLens's reference CSVs for every corpus trace, on
# the sheets of the host-op report (tests/conformance/host-sheets).  Per-
# category perf sheets (GEMM.csv, ...) and unified_perf_summary's perf-model
# columns wait for the roofline models and are left out of the comparison.
. "$TL_SRC/tests/lib.sh"

conf=$TL_SRC/tests/conformance
if ! have_shared; then
	test_skip 'report conformance' 'no ../shared/corpus'
	test_done; exit
fi
for case in "$SHARED"/corpus/*/; do
	name=$(basename "$case")
	case $name in compare_test*|tracediff-*) continue ;; esac
	[ -d "$case/reference" ] && [ -f "$case/trace.json.gz" ] || continue
	test_expect_success "$name: tl-report matches TraceLens" '
		rm -rf "out-$name" "ref-$name" && mkdir "ref-$name" &&
		while read -r s; do
			if [ -f "$case/reference/$s.csv" ]; then cp "$case/reference/$s.csv" "ref-$name/" || exit 1; fi
		done <"$conf/host-sheets" &&
		if [ -f "ref-$name/unified_perf_summary.csv" ]; then
			python3 "$conf/strip-perf-cols.py" "ref-$name/unified_perf_summary.csv"
		fi &&
		tl-report -o "out-$name" "$case/trace.json.gz" >path.out &&
		echo "out-$name" >path.want && test_cmp path.want path.out &&
		"$SHARED/tools/tl-conform" --deviations "$conf/deviations.tsv" "out-$name" "ref-$name" >conform.out ||
		{ cat conform.out; exit 1; }
	'
done
test_done
