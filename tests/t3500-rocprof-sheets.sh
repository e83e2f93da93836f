#!/bin/sh
# tl-rocprof: TraceLens's rocprofv3 sheets, byte for byte, for small
# rocprofv3 files made to reach every rule (ties, empty frames, equal
# durations, memory copies, a fini before the last kernel, quoted names,
# --topk, threshold and bins) whose references TraceLens wrote (the
# commands are in t3500-rocprof-sheets.d/COMMANDS); --fix-units against
# TraceLens's own unit conversion; the corpus file through tl-conform.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t3500-rocprof-sheets.d

# name | trace | tl-rocprof options
while IFS='|' read -r ref trace opts; do
	[ -n "$ref" ] || continue
	test_expect_success "$ref: every sheet byte-identical to TraceLens's" '
		tl-cat "$D/$trace" >ev 2>/dev/null &&
		tl-rocprof --csv -o out $opts ev &&
		(cd "$D/$ref" && ls) >want && (cd out && ls) >got && test_cmp want got &&
		for f in "$D/$ref"/*.csv; do test_cmp "$f" "out/${f##*/}" || exit 1; done
	'
done <<'EOF_TABLE'
ref-mixed|mixed_results.json|--kernel-details
ref-equal|equal_results.json|--kernel-details
ref-nokernels|nokernels_results.json|--kernel-details
ref-equal-topk|equal_results.json|--kernel-details --topk 5 --short-kernel-us 8 --bins 7
ref-mixed-fix-units|mixed_results.json|--kernel-details --fix-units
ref-equal-fix-units|equal_results.json|--kernel-details --fix-units
EOF_TABLE

test_expect_success 'default sheets: no kernel_details; --no-kernel-summary drops two' '
	tl-cat "$D/equal_results.json" >ev &&
	tl-rocprof --csv -o a ev && ls a >got &&
	printf "%s\n" gpu_timeline.csv kernel_summary.csv kernel_summary_by_category.csv \
		short_kernel_histogram.csv short_kernels_summary.csv >want && test_cmp want got &&
	tl-rocprof --csv --no-kernel-summary -o b ev && ls b >got &&
	printf "%s\n" gpu_timeline.csv short_kernel_histogram.csv short_kernels_summary.csv >want &&
	test_cmp want got
'

test_expect_success '-s SHEET without -o: one TSV sheet on stdout' '
	tl-cat "$D/equal_results.json" >ev &&
	tl-rocprof -s kernel_summary_by_category ev >sheet &&
	head -1 sheet >got && echo "#tl-sheet 1" >want && test_cmp want got &&
	awk -F"\t" "NR > 2 { print \$1, \$2 }" sheet >got &&
	printf "%s\n" "COMM 4" "Elementwise 4" "GEMM 4" >want && test_cmp want got
'

test_expect_success 'a Kineto trace: kernels in microseconds count as 1000 ns each' '
	cat >k.json <<-\EOF &&
	{"traceEvents":[{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1.5,"dur":2.25,"args":{"stream":7}},
	{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":4,"dur":1}]}
	EOF
	tl-cat k.json >kev && tl-rocprof --csv -s kernel_details kev >kd &&
	printf "%s\n" "name,Kernel duration (µs),stream,dispatch_id,grid_x,grid_y,grid_z,block_x,block_y,block_z,agent_id,thread_id" \
		"k,2250,7,0,1,1,1,1,1,1,0,0" >want && test_cmp want kd
'

test_expect_code 2 'unknown sheet: usage error' 'tl-rocprof -s ops_summary -o x /dev/null'
test_expect_code 2 'no -o and no single -s: usage error' 'tl-rocprof /dev/null'

test_expect_success 'not an event stream: exit 1, named' '
	echo "hello" >bad.tsv &&
	test_must_fail tl-rocprof -o o bad.tsv 2>err &&
	grep -q "^tl-rocprof: bad.tsv:1: not a tl stream" err
'

test_expect_success 'two traces in one stream: exit 1' '
	tl-cat "$D/equal_results.json" "$D/mixed_results.json" >two 2>/dev/null &&
	test_must_fail tl-rocprof -o o two 2>err &&
	grep -q "more than one trace in the stream" err
'

if have_shared && [ -d "$SHARED/corpus/rocprof-908/reference" ]; then
	test_expect_success 'rocprof-908: every reference sheet passes tl-conform' '
		tl-cat "$SHARED/corpus/rocprof-908/trace_results.json.gz" >ev &&
		tl-rocprof --csv --kernel-details -o out ev &&
		"$SHARED/tools/tl-conform" out "$SHARED/corpus/rocprof-908/reference" >conform &&
		tail -1 conform | grep -qx "6 passed, 0 failed"
	'
else
	test_skip 'rocprof-908 through tl-conform' "no $SHARED/corpus/rocprof-908"
fi
test_done
