#!/bin/sh
# report.md from tl-html --md (tl-report writes it): the facts and verdict
# first, units in every header, names escaped and demangled - and linear
# in the length of a name (issue 13, findings 3 and 4: a 10 MB op name
# made the old awk writer hang; terminal escapes reached report.md raw).
. "$TL_SRC/tests/lib.sh"
d=$TEST_DIR
sample=$TL_SRC/share/tl/sample/trace.json

test_expect_success 'the sample trace: report.md as expected' '
	tl-report -o rep "$sample" >out 2>err &&
	test_golden "$d/sample.md" rep/report.md
'

test_expect_success 'report_info.csv: the facts report.md opens with' '
	grep -x "device,NVIDIA H100 80GB HBM3" rep/report_info.csv &&
	grep -x "events,329" rep/report_info.csv &&
	grep -x "arch,H100" rep/report_info.csv &&
	grep -x "arch_how,auto" rep/report_info.csv &&
	grep -x "peak_tflops:matrix_bf16,989.4" rep/report_info.csv &&
	head -1 rep/report.md >title &&
	echo "# Performance report: sample/trace.json" >want && test_cmp want title
'

test_expect_success 'same folder, same bytes; -o - writes stdout' '
	tl-html --md -o again.md rep && cmp rep/report.md again.md &&
	tl-html --md -o - rep >stdout.md && cmp rep/report.md stdout.md
'

# A hand-made folder: idle 86 % of the span, GEMM 62 % of kernel time whose
# op groups would take 41 us at the roofline where they took 100 us.
mkdir hand
cat >hand/gpu_timeline.csv <<'CSV'
type,time ms,percent
computation_time,1.4,14.0
exposed_comm_time,0.0,0.0
exposed_memcpy_time,0.0,0.0
busy_time,1.4,14.0
idle_time,8.6,86.0
total_time,10.0,100.0
total_comm_time,0.0,0.0
total_memcpy_time,0.0,0.0
CSV
cat >hand/ops_summary_by_category.csv <<'CSV'
op category,Count,total_direct_kernel_time_ms,Percentage (%),Cumulative Percentage (%)
GEMM,3,0.124,62.0,62.0
other,5,0.076,38.0,100.0
CSV
cat >hand/ops_summary.csv <<'CSV'
name,total_direct_kernel_time_sum,total_subtree_kernel_time_sum,total_direct_kernel_time_ms,total_subtree_kernel_time_ms,Count,Categories,Percentage (%),Cumulative Percentage (%)
aten::mm,124.0,124.0,0.124,0.124,3,['GEMM'],62.0,62.0
"a|b\c",76.0,76.0,0.076,0.076,5,['other'],38.0,100.0
CSV
cat >hand/unified_perf_summary.csv <<'CSV'
name,op category,Input Dims,operation_count,Kernel Time (µs)_sum,Roofline Time (µs)_first,Roofline Bound,TFLOPS/s_mean,FLOPS/Byte,Pct Roofline_mean
aten::mm,GEMM,"((8, 8), (8, 8))",2,60.0,10.25,MEMORY_BOUND,1.0,2.0,34.2
aten::mm,GEMM,"((16, 8), (8, 8))",1,40.0,20.5,MEMORY_BOUND,2.0,3.0,51.2
aten::mm,GEMM,"((32, 8), (8, 8))",1,24.0,,,,,
CSV
cat >hand/kernel_summary.csv <<'CSV'
Parent op category,Parent cpu_op,Kernel name,Kernel stream,Kernel duration (µs)_sum,Kernel duration (µs)_count,Kernel duration (µs)_mean,Kernel duration (µs)_min,Kernel duration (µs)_max,Percent of kernels time (%),Percent of total time (%)
GEMM,aten::mm,_ZN5aiter9fmoe_g1u1EPv,7,124.0,3,41.333,40.0,44.0,62.0,1.24
other,"a|b\c",`tick`,7,76.0,5,15.2,15.0,16.0,38.0,0.76
CSV

test_expect_success 'verdict computed from the sheets' '
	tl-html --md hand &&
	grep -F "**Verdict.** GPU idle 86.0 % of the GPU span (10.000 ms): launch-bound" hand/report.md &&
	grep -F "Largest op category: GEMM, 62.0 % of GPU kernel time, at 41.0 % of roofline, memory-bound (81 % of its time has a roofline)." hand/report.md
'

test_expect_success 'units in the headers; percent says of what' '
	grep -F "| op | GPU time (ms) | count | % of GPU kernel time | cumulative % |" hand/report.md &&
	grep -F "| type | time (ms) | % of GPU span |" hand/report.md &&
	grep -F "| kernel | parent op | total (µs) | count | mean (µs) | % of kernel time |" hand/report.md
'

test_expect_success 'names: demangled, in code spans, pipes and backslashes escaped' '
	grep -F "| \`aiter::fmoe_g1u1(void*)\` | \`aten::mm\` | 124.000 |" hand/report.md &&
	grep -F "| \`a\\|b\\\\c\` | 0.076 |" hand/report.md &&
	grep -F "| \`\` \`tick\` \`\` |" hand/report.md
'

test_expect_success 'no report_info.csv: the facts say so' '
	grep -F "no report_info.csv" hand/report.md
'

# Issue 13 finding 4: ESC ] 0;...BEL (window title) and ESC [2J (clear
# screen) in names reach report.md and report.html escaped; the CSVs keep
# the exact bytes.
esc=$(printf "\033")
test_expect_success 'terminal escapes in names are shown as \xHH' '
	sed -e "s/\"aten::gelu\"/\"\\\\u001b]0;owned\\\\u0007aten::gelu\\\\u001b[2J\"/" \
	    -e "s/\"sm90_xmma_gemm/\"\\\\u001b[2Jsm90_xmma_gemm/" "$sample" >esc.json &&
	tl-report -o escrep esc.json >out 2>err &&
	grep -F "\\x1b]0;owned\\x07aten::gelu\\x1b[2J" escrep/report.md &&
	grep -F "\\x1b[2Jsm90_xmma_gemm" escrep/report.md &&
	! grep -q "$esc" escrep/report.md &&
	! grep -q "$esc" escrep/report.html &&
	grep -q "$esc" escrep/ops_summary.csv
'

# Issue 13 finding 3: a 10 MB op name.  The whole report ends, report.md
# shows the name cut where it still identifies its row, and tl-html's cost
# grows linearly: 100 times the name length costs under 200 times the CPU
# time (a ratio inside this run, no clock limit).
big_name() { awk -v n="$1" 'BEGIN { s = "x"; while (length(s) < n) s = s s; print substr(s, 1, n) }'; }

test_expect_success 'a 10 MB op name: the report ends, report.md stays readable' '
	big_name 10485760 >name.txt &&
	awk "NR == FNR { s = \$0; next } { gsub(/\"aten::gelu\"/, \"\\\"big::\" s \"\\\"\") } 1" \
		name.txt "$sample" >big.json &&
	tl-report -o bigrep big.json >out 2>err &&
	grep -q "big::xxxxxxxx" bigrep/report.md &&
	awk "length(\$0) > 2000 { exit 1 }" bigrep/report.md &&
	test $(wc -c <bigrep/report.html) -lt 200000
'

# A folder whose names are N bytes long.
name_folder() {
	mkdir -p "$2" &&
	big_name "$1" >"$2/name" &&
	awk -v dir="$2" '{ n = $0
		print "name,total_direct_kernel_time_sum,total_subtree_kernel_time_sum,total_direct_kernel_time_ms,total_subtree_kernel_time_ms,Count,Categories,Percentage (%),Cumulative Percentage (%)" >(dir "/ops_summary.csv")
		print n "a,2.0,2.0,0.002,0.002,1,[\x27GEMM\x27],50.0,50.0" >(dir "/ops_summary.csv")
		print n "b,2.0,2.0,0.002,0.002,1,[\x27GEMM\x27],50.0,100.0" >(dir "/ops_summary.csv")
		print "Parent op category,Parent cpu_op,Kernel name,Kernel stream,Kernel duration (µs)_sum,Kernel duration (µs)_count,Kernel duration (µs)_mean,Kernel duration (µs)_min,Kernel duration (µs)_max,Percent of kernels time (%),Percent of total time (%)" >(dir "/kernel_summary.csv")
		print "GEMM," n "a," n "k,7,2.0,1,2.0,2.0,2.0,50.0,1.0" >(dir "/kernel_summary.csv")
		print "GEMM," n "b," n "k,7,2.0,1,2.0,2.0,2.0,50.0,1.0" >(dir "/kernel_summary.csv")
	}' "$2/name" &&
	cp hand/gpu_timeline.csv "$2/"
}

# Best of three runs, CPU seconds (user + system) of the children.
cpu() {
	python3 -c '
import resource, subprocess, sys
best = None
for i in range(3):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if subprocess.call(sys.argv[1:]): sys.exit(1)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    best = t if best is None else min(best, t)
print("%.6f" % best)' "$@"
}

if command -v python3 >/dev/null 2>&1; then
	test_expect_success 'tl-html: 100x the name length costs < 200x the CPU time' '
		name_folder 104857 small && name_folder 10485760 large &&
		s1=$(cpu tl-html --md small) && l1=$(cpu tl-html --md large) &&
		s2=$(cpu tl-html small) && l2=$(cpu tl-html large) &&
		echo "md: $s1 s vs $l1 s; html: $s2 s vs $l2 s" &&
		awk -v s1="$s1" -v l1="$l1" -v s2="$s2" -v l2="$l2" "BEGIN {
			f = 0.01	# rusage ticks: never divide by less than 10 ms
			exit !(l1 < 200 * (s1 > f ? s1 : f) && l2 < 200 * (s2 > f ? s2 : f)) }" &&
		grep -q "xxxxxxxxa" large/report.md && grep -q "xxxxxxxxb" large/report.md
	'
else
	test_skip 'tl-html cost ratio' 'python3 is not installed'
fi

ref=$SHARED/corpus/h100-gaunernst_bert-small-uncased__1016001/reference
if have_shared && [ -d "$ref" ]; then
	test_expect_success "TraceLens's own CSVs: report.md from its values" '
		tl-html --md -o tlref.md "$ref" &&
		grep -F "no report_info.csv" tlref.md &&
		grep -F "| \`aten::addmm\` | 0.198 | 26 | 63.86 | 63.86 |" tlref.md &&
		! test -e "$ref/report.md"
	'
else
	test_skip "TraceLens's own CSVs" '../shared/corpus is absent'
fi

test_expect_success 'bad folders: exit 1 with a message' '
	mkdir empty &&
	test_must_fail tl-html --md empty 2>err1 && grep "not a report folder" err1 &&
	test_must_fail tl-html --md nowhere 2>err2 && grep "nowhere" err2 &&
	test_must_fail tl-html --md hand/gpu_timeline.csv 2>err3 && grep "not a folder" err3 &&
	mkdir broken && printf "type,time ms,percent\n\"cut\n" >broken/gpu_timeline.csv &&
	test_must_fail tl-html --md broken 2>err4 && grep "gpu_timeline.csv" err4
'

test_expect_code 2 'two folders is a usage error' 'tl-html hand hand'
test_done
