#!/bin/sh
# tl-perf on a hand-made trace (t3001-perf-sheets.d/trace.json), one golden
# CSV per sheet.  The goldens were checked by hand against spec core §4:
#   - GPU total time = 115 - 30 = 85 µs (linked kernels only); all kernel
#     time 4+6+2+1+3+5 = 21 µs;
#   - ops sheets: exec_k goes to my_op (the op "execute" is skipped),
#     loose_k to its runtime call cudaLaunchKernel (no cpu_op above it),
#     unlinked_k to nobody; addmm is GEMM from the op table, my_op and the
#     runtime call "other";
#   - ops_unique_args: std of the two addmm busy times 4 and 6 with ddof=1
#     is sqrt(2), np.std of the kernel durations (ddof=0) 1.0;
#   - kernel_summary: exec_k's parent op is "execute" (not skipped there),
#     unlinked_k has no launcher so category and parent are empty;
#   - short kernels: 6 kernels < 10 µs from 1.0 to 6.0 in 100 bins of
#     0.05; only kernels under an op with shapes are summarised;
#   - unified: addmm and add have perf models; "execute" is the leaf op
#     under my_op; loose_k becomes a synthetic row with a new UID (29 events).
. "$TL_SRC/tests/lib.sh"

sheets="ops_summary ops_summary_by_category ops_unique_args unified_perf_summary
	kernel_summary short_kernel_histogram short_kernels_summary"

test_expect_success 'tl-cat | tl-tree | tl-perf --csv -o writes every sheet' '
	tl-cat "$TEST_DIR/trace.json" >events &&
	tl-tree events >nodes &&
	tl-perf --csv -o out nodes
'
for s in $sheets; do
	test_expect_success "$s matches the hand-checked golden" "
		test_golden \"\$TEST_DIR/$s.csv\" out/$s.csv
	"
done

test_expect_success 'one sheet to stdout as a tl TSV stream' '
	tl-perf -s ops_summary_by_category nodes >cat.tsv &&
	printf "#tl-sheet 1\nop category\tCount\ttotal_direct_kernel_time_ms\tPercentage (%%)\tCumulative Percentage (%%)\n" >want &&
	head -n 2 cat.tsv >got && test_cmp want got &&
	test "$(wc -l <cat.tsv)" -eq 5
'
test_expect_success '--short-kernel-us and --topk' '
	tl-perf --csv --short-kernel-us 3 --topk 1 -s short_kernels_summary nodes >sk.csv &&
	test "$(wc -l <sk.csv)" -eq 2 &&
	grep -q "^aten::add," sk.csv
'
# unified_perf_summary is written by a forked process, the other sheets by
# tl-perf itself: a sheet that cannot be written fails the run on either side
test_expect_success 'an unwritable unified_perf_summary (the forked writer) fails the run' '
	mkdir -p child_bad/unified_perf_summary.csv &&
	test_must_fail tl-perf --csv -o child_bad nodes 2>err &&
	grep -q "tl-perf: child_bad/unified_perf_summary.csv" err &&
	test_cmp out/ops_summary.csv child_bad/ops_summary.csv
'
test_expect_success 'an unwritable ops_summary (this process) fails the run' '
	mkdir -p parent_bad/ops_summary.csv &&
	test_must_fail tl-perf --csv -o parent_bad nodes 2>err &&
	grep -q "tl-perf: parent_bad/ops_summary.csv" err &&
	test_cmp out/unified_perf_summary.csv parent_bad/unified_perf_summary.csv
'
test_expect_success '-s with -o: the sheets asked for, split the same way' '
	tl-perf --csv -o some -s unified_perf_summary -s kernel_summary nodes &&
	test_cmp out/unified_perf_summary.csv some/unified_perf_summary.csv &&
	test_cmp out/kernel_summary.csv some/kernel_summary.csv &&
	test "$(ls some | wc -l)" -eq 2
'
test_expect_success '-s with -o, no sheet of the child: written here alone' '
	tl-perf --csv -o few -s ops_summary -s kernel_summary nodes &&
	test_cmp out/ops_summary.csv few/ops_summary.csv &&
	test_cmp out/kernel_summary.csv few/kernel_summary.csv &&
	test "$(ls few | wc -l)" -eq 2
'
test_expect_success '--split-nice 5: the same sheets' '
	tl-perf --csv --split-nice 5 -o niced nodes &&
	for s in $sheets; do test_cmp out/$s.csv niced/$s.csv || return 1; done
'
test_expect_code 2 '--split-nice past 19 is a usage error' 'tl-perf --split-nice 20 -o bad nodes'
test_expect_code 2 'a negative --split-nice is a usage error' 'tl-perf --split-nice -1 -o bad nodes'
test_expect_code 0 '-h prints the usage' 'tl-perf -h >h.out && grep -q "^usage: tl-perf" h.out'
test_expect_code 2 'unknown sheet is a usage error' 'tl-perf -s no_such_sheet nodes'
test_expect_code 2 'no sheet and no folder is a usage error' 'tl-perf nodes'
test_expect_success 'an event stream is refused with a message' '
	test_must_fail tl-perf -s ops_summary events 2>err &&
	grep -q "tl-perf: " err
'
test_expect_success 'a parent that is not in the stream is bad input' '
	awk -F "\t" "BEGIN { OFS = \"\t\" } NR > 2 && \$1 == 5 { \$22 = 999 } { print }" nodes >bad.nodes &&
	test_must_fail tl-perf -s ops_summary bad.nodes 2>err &&
	grep -q "parent 999" err
'
test_expect_success 'gpu-only defaults: no ops sheets for a trace without cpu_op' '
	sed "s/	cpu_op	/	user_annotation	/" events >gpuonly.events &&
	! grep -q "	cpu_op	" gpuonly.events &&
	tl-tree gpuonly.events >gpuonly.nodes &&
	tl-perf --csv -o g gpuonly.nodes &&
	(cd g && ls) >got &&
	printf "kernel_summary.csv\nshort_kernel_histogram.csv\nshort_kernels_summary.csv\n" >want &&
	test_cmp want got
'
test_done
