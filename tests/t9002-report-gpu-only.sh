#!/bin/sh
# A trace without cpu_op events (corpus mi210-gpu_only_trace) gets exactly
# the sheets TraceLens writes for it: gpu_timeline, kernel_summary and the
# two short-kernel sheets (spec core §4.2) — the list is TraceLens's
# reference folder, plus tl's own report_info.csv and timeline_strip.csv
# (tl-report(1)) — and kernel_summary has no "Parent cpu_op" column.
. "$TL_SRC/tests/lib.sh"

case=$SHARED/corpus/mi210-gpu_only_trace
if ! have_shared || [ ! -d "$case/reference" ]; then
	test_skip_all 'gpu-only trace' 'no ../shared/corpus/mi210-gpu_only_trace'
fi
test_expect_success 'gpu-only trace: the sheets TraceLens writes, no others' '
	tl-report -o out "$case/trace.json.gz" >path.out &&
	{ (cd "$case/reference" && ls *.csv); echo report_info.csv; echo timeline_strip.csv; } |
		LC_ALL=C sort >want &&
	(cd out && ls *.csv) >got &&
	test_cmp want got
'
test_expect_success 'gpu-only kernel_summary has no Parent cpu_op column' '
	head -n 1 out/kernel_summary.csv >hdr &&
	head -n 1 "$case/reference/kernel_summary.csv" >hdr.want &&
	test_cmp hdr.want hdr &&
	! grep -q "Parent cpu_op" hdr
'
test_expect_success 'report.md summarises the trace' '
	grep -q "^## GPU timeline" out/report.md &&
	grep -q "^## Top 10 kernels" out/report.md &&
	! grep -q "^## Top 10 ops" out/report.md
'
test_done
