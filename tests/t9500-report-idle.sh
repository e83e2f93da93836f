#!/bin/sh
# tl-report writes OUT/idle/ (tl-idle on the node file it already has) and a
# "Why the GPU waits" table in report.md; --critical-path ANNOTATION
# --instance N adds HTA's critical path files; --no-idle leaves them out.
. "$TL_SRC/tests/lib.sh"

sample=$TL_SRC/share/tl/sample/trace.json

test_expect_success 'tl-report -o OUT writes OUT/idle/ as tl-idle does' '
	tl-report -o rep "$sample" >/dev/null 2>err &&
	tl-cat "$sample" >s.events && tl-tree s.events >s.nodes && tl-idle -o idle s.nodes &&
	for f in idle/*.csv; do test_cmp "$f" "rep/idle/$(basename "$f")" || return 1; done &&
	test -f rep/idle/temporal_breakdown.csv && test -f rep/idle/queue_length_summary.csv
'
test_expect_success 'report.md: why the GPU waits' '
	grep -q "^## Why the GPU waits$" rep/report.md &&
	grep -q "^| 0 | 61.29 | 0.178 | 0.044 | 0.000 | 0.0 | 25 | 10 | 3.000 | 3.000 | 1 |$" rep/report.md
'
test_expect_success '--no-idle: no idle folder, no section' '
	tl-report --no-idle -o rep0 "$sample" >/dev/null 2>&1 &&
	test ! -e rep0/idle && ! grep -q "Why the GPU waits" rep0/report.md &&
	test -f rep0/gpu_timeline.csv
'
test_expect_success '--critical-path: the files tl-idle writes, beside the sheets' '
	tl-report --critical-path ProfilerStep --instance 0 -o repcp "$sample" >/dev/null 2>&1 &&
	tl-idle --critical-path ProfilerStep --instance 0 -o cp s.nodes &&
	test_cmp cp/critical_path_summary.csv repcp/critical_path_summary.csv &&
	test_cmp cp/critical_path_breakdown.csv repcp/critical_path_breakdown.csv &&
	test_cmp cp/overlaid_critical_path_trace.json repcp/overlaid_critical_path_trace.json &&
	test -f repcp/gpu_timeline.csv && test -d repcp/idle
'
test_expect_code 2 '--critical-path needs an annotation' 'tl-report "$sample" --critical-path'
test_expect_success 'a missing annotation fails the report' '
	test_must_fail tl-report --critical-path nosuch -o repbad "$sample" >/dev/null 2>err &&
	grep "no event named like .nosuch." err
'
if have_shared && [ -f "$SHARED/corpus/hta-critical-path/alexnet/reference/critical_path_summary.csv" ]; then
	test_expect_success 'alexnet: tl-report --critical-path gives HTA'"'"'s summary' '
		tl-report --critical-path "[param|pytorch.model.alex_net|0|0|0|measure|forward]" \
			--instance 1 -o alex \
			"$SHARED/corpus/hta-critical-path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz" \
			>/dev/null 2>&1 &&
		test_cmp "$SHARED/corpus/hta-critical-path/alexnet/reference/critical_path_summary.csv" \
			alex/critical_path_summary.csv
	'
else
	test_skip 'alexnet: tl-report --critical-path' "no corpus at $SHARED"
fi
test_done
