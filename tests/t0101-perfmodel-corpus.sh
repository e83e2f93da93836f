#!/bin/sh
# common/perfmodel against every TraceLens per-category reference sheet of
# the corpus: each row's raw args (Input Dims_first, ...) through the
# model must give the reference's GFLOPS, Data Moved, Compute Spec and
# every param column (tests/tools/pm-corpus.py, driver tests/unit/pm-eval.c).
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip 'perf models reproduce the corpus sheets' 'no ../shared/corpus'
	test_done
	exit
fi
# The compare_test_ops reports come from an older TraceLens whose name2bpe
# did not know "int"; of those only the GEMM and SDPA sheets (the corpus's
# only SDPA_bwd) are checked.
refs=$( (ls "$SHARED"/corpus/*/reference/*.csv
	ls "$SHARED"/corpus/*/*/*_perf_report_csvs/GEMM.csv "$SHARED"/corpus/*/*/*_perf_report_csvs/SDPA_*.csv) 2>/dev/null |
	grep -E '/(GEMM|UnaryElementwise|BinaryElementwise|Normalization|[A-Za-z]+_(fwd|bwd))\.csv$')
test_expect_success "perf models reproduce $(echo $refs | wc -w) corpus sheets" '
	python3 "$TL_SRC/tests/tools/pm-corpus.py" "$TL_UNIT/pm-eval" \
		"$TL_SRC/share/tl/ops.tsv" $refs >corpus.out 2>&1
'
sed 's/^/# /' corpus.out | tail -20
test_done
