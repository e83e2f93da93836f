#!/bin/sh
# scripts/tl-report on JAX XPlane profiles: found by content (or --jax),
# X.xplane.pb's folder is X_perf_report_csvs, TraceLens's JAX sheets and a
# report.md with each GPU's timeline; the JAX 0.8 corpus file gives
# TraceLens's GPU timelines.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t3510-jax-sheets.d
J=$SHARED/corpus/jax-conv-minimal

test_expect_success 'an .xplane.pb: found by content, TraceLens'"'"'s sheets, report.md' '
	cp "$D/synthetic_jax.xplane.pb" run.xplane.pb &&
	tl-report run.xplane.pb >out 2>err &&
	echo run_perf_report_csvs >want && test_cmp want out &&
	for f in "$D/ref-synthetic"/*.csv; do test -f "run_perf_report_csvs/${f##*/}" || exit 1; done &&
	grep -q "^# JAX report: run.xplane.pb" run_perf_report_csvs/report.md &&
	grep -c "| total_time |" run_perf_report_csvs/report.md >n && echo 4 >want && test_cmp want n
'

test_expect_success 'found by content whatever the name; --jax says so anyway' '
	cp "$D/synthetic_jax.xplane.pb" profile.bin &&
	tl-report -o a profile.bin >out && test -f a/op_conv.csv &&
	tl-report --jax -o b profile.bin >out && test_cmp a/gpu_timeline.csv b/gpu_timeline.csv
'

test_expect_success 'TraceLens'"'"'s keyword filter flag, several words by commas' '
	tl-report --kernel_metadata_keyword_filters "jit(step)/add,nothing" -o c profile.bin >out &&
	awk -F, "NR > 1 { print \$1 }" c/kernel_launchers.csv | sort -u >got &&
	echo loop_add_fusion >want && test_cmp want got
'

test_expect_success 'a cut-short profile: exit 1, tl-cat says where' '
	head -c 3000 "$D/synthetic_jax.xplane.pb" >cut.xplane.pb &&
	test_must_fail tl-report -o d cut.xplane.pb >out 2>err &&
	grep -q "^tl-cat: cut.xplane.pb: byte [0-9]*: truncated protobuf" err &&
	grep -q "^tl-report: cut.xplane.pb: report failed" err
'

if have_shared && [ -f "$J/v08.xplane.pb" ]; then
	test_expect_success 'jax-conv-minimal v08: the GPU timelines TraceLens computes' '
		tl-report -o v08 "$J/v08.xplane.pb" >out &&
		test_cmp "$D/ref-v08/gpu_timeline.csv" v08/gpu_timeline.csv &&
		"$SHARED/tools/tl-conform" v08 "$D/ref-v08" >conform &&
		tail -1 conform | grep -qx "9 passed, 0 failed"
	'
	test_expect_success 'jax-conv-minimal legacy: every reference sheet passes tl-conform' '
		tl-report -o legacy "$J/legacy.xplane.pb" >out &&
		"$SHARED/tools/tl-conform" legacy "$J/reference-legacy" >conform &&
		tail -1 conform | grep -qx "9 passed, 0 failed"
	'
else
	test_skip 'jax-conv-minimal through tl-report' "no $J"
fi
test_done
