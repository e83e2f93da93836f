#!/bin/sh
# report.html without a browser: the marks in each chart of the file as
# written (what a browser shows, the page's script adds none) against counts
# from the sheets (tests/tools/html-check.py --no-script), a page per GPU,
# names that try to break out of the page, the same bytes for the same
# sheets wherever the folder is, TraceLens's own CSVs with and without
# --arch.  The browser itself: t9600.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'report.html pages' 'python3 is not installed'
fi
check() { python3 "$TL_SRC/tests/tools/html-check.py" --no-script "$1" "$2"; }

# Two GPUs (pids 0 and 1), two streams on GPU 0, nothing linked: --all-gpu.
cat >two.json <<'JSON'
{"traceEvents":[
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1000,"dur":10,"args":{"stream":7}},
{"ph":"X","cat":"kernel","name":"ncclAllReduce","pid":0,"tid":8,"ts":1005,"dur":20,"args":{"stream":8}},
{"ph":"X","cat":"kernel","name":"gemm","pid":1,"tid":7,"ts":1030,"dur":10,"args":{"stream":7}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":1,"tid":7,"ts":1050,"dur":10,"args":{"stream":7}}
]}
JSON

test_expect_success 'two GPUs: one breakdown bar each, the strips, marks as the sheets say' '
	tl-report --all-gpu -o two two.json >out 2>err &&
	grep -x "gpus,2" two/report_info.csv &&
	grep -c "<text[^>]*>GPU [01]</text>" two/report.html >n && test "$(cat n)" = 2 &&
	grep -F "GPU 0, all streams" two/report.html &&
	! grep -F "GPU 1, all streams" two/report.html &&
	check two/report.html two
'

test_expect_success 'the sample trace: marks as the sheets say' '
	tl-report -o samp "$TL_SRC/share/tl/sample/trace.json" >out 2>err &&
	check samp/report.html samp
'

test_expect_success 'the same sheets give the same bytes, wherever the folder is' '
	cp -R samp elsewhere && rm elsewhere/report.html &&
	tl-html elsewhere && cmp samp/report.html elsewhere/report.html &&
	tl-html -o - samp >stdout.html && cmp samp/report.html stdout.html
'

# Names that try to close a tag, open a script, or move the cursor.
mkdir evil && cp samp/gpu_timeline.csv samp/report_info.csv evil/
cat >evil/ops_summary.csv <<'CSV'
name,total_direct_kernel_time_sum,total_subtree_kernel_time_sum,total_direct_kernel_time_ms,total_subtree_kernel_time_ms,Count,Categories,Percentage (%),Cumulative Percentage (%)
"</title></svg><script>alert(1)</script>&amp;""'",3.0,3.0,0.003,0.003,1,['<b>GEMM</b>'],75.0,75.0
"void f<std::pair<int, float> >(x&, y const&)",1.0,1.0,0.001,0.001,1,['other'],25.0,100.0
CSV
printf 'op category,Count,total_direct_kernel_time_ms,Percentage (%%),Cumulative Percentage (%%)\n<b>GEMM</b>,1,0.003,75.0,75.0\nother,1,0.001,25.0,100.0\n' >evil/ops_summary_by_category.csv

test_expect_success 'names are escaped: no tag, script or entity gets out' '
	tl-html evil &&
	! grep -F "<script>alert" evil/report.html &&
	! grep -F "<b>GEMM" evil/report.html &&
	grep -F "&lt;/title&gt;&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;&quot;&#39;" evil/report.html &&
	grep -F "void f&lt;std::pair&lt;int, float&gt; &gt;(x&amp;, y const&amp;)" evil/report.html &&
	test $(grep -c "<script>" evil/report.html) = 1 &&
	check evil/report.html evil
'

ref=$SHARED/corpus/h100-Qwen_Qwen1.5-0.5B-Chat__1016005/reference
if have_shared && [ -d "$ref" ]; then
	test_expect_success "TraceLens's CSVs: points without roofs, then the H100's roofs" '
		tl-html -o tlref.html "$ref" &&
		grep -F "none: the folder has no report_info.csv" tlref.html &&
		! grep -F "class=\"roofline\"" tlref.html &&
		tl-html --arch H100 -o tlref-h100.html "$ref" &&
		grep -F "matrix_bf16 989.4 TFLOPS/s" tlref-h100.html &&
		check tlref.html "$ref" && check tlref-h100.html "$ref"
	'
else
	test_skip "TraceLens's CSVs" '../shared/corpus is absent'
fi

coll=$SHARED/corpus/multirank-nccl-a100x4/reference
if have_shared && [ -d "$coll" ]; then
	test_expect_success "TraceLens's multi-rank collective sheets: a job page without timelines" '
		tl-html -o coll.html "$coll" && tl-html --md -o coll.md "$coll" &&
		grep -F "no per-rank GPU timeline" coll.html &&
		grep -F "Rank 2 is a straggler: it arrived last at 11 collectives" coll.md &&
		check coll.html "$coll"
	'
else
	test_skip "TraceLens's collective sheets" '../shared/corpus is absent'
fi

# A tl-diff folder's summary against sums made here with Python's csv
# module: kernel time per cpu_op_name and side (name by name in sorted
# order, rows in file order within a name), the 10 largest changes.  The
# made-up folder's diff_stats.csv spans several of the reader's 1 MB
# windows, with names that need quoting (a comma, a quote, a line end).
diff_sums() {
	python3 - "$1" <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1] + "/diff_stats.csv", newline="", encoding="utf-8")))
	ops, total, sides = {}, [0.0, 0.0], []
	for r in sorted(rows, key=lambda r: r["cpu_op_name"].encode()):
	    if r["source"] not in sides and len(sides) < 2:
	        sides.append(r["source"])
	    o = ops.setdefault(r["cpu_op_name"], [0.0, 0.0])
	    try:
	        t = float(r["kernel_time"])
	    except ValueError:
	        continue
	    if r["source"] in sides and t >= 0:
	        o[sides.index(r["source"])] += t
	        total[sides.index(r["source"])] += t
	for k in range(2):
	    print("- %s: %.3f \u00b5s of GPU kernel time under the points of difference" % (sides[k], total[k]))
	top = sorted(ops.items(), key=lambda kv: (-abs(kv[1][1] - kv[1][0]), kv[0].encode()))[:10]
	for name, (a, b) in top:
	    pct = "%.1f" % ((b - a) / a * 100) if a > 0 else ""
	    print("| `%s` | %.3f | %.3f | %+.3f | %s |" % (name, a, b, b - a, pct))
	PY
}
mkdir bigdiff
python3 - <<-\PY
	import random
	random.seed(7)
	names = ["aten::mm", "aten::add", "op, with comma", 'say "hi"', "aten::bmm", "aten::gelu",
	         "aten::cat", "aten::mul", "aten::copy_", "aten::sum", "aten::softmax", "aten::relu"]
	with open("bigdiff/diff_stats.csv", "w", newline="") as f:
	    f.write("name,cpu_op_name,source,Input Dims,kernel_time\n")
	    for i in range(40000):
	        n = random.choice(names)
	        q = '"' + n.replace('"', '""') + '"' if ("," in n or '"' in n) else n
	        f.write('k%d,%s,trace%d,"((%d, %d), ())",%.3f\n' % (i, q, 1 + i % 2, i, i + 1,
	                                                          random.uniform(0, 50)))
	    f.write('k,"two\nlines",trace1,,12.5\nk,aten::mm,trace2,,\n')
	PY

test_expect_success 'a tl-diff folder: the summary sums what the rows say' '
	test $(wc -c <bigdiff/diff_stats.csv) -gt 2097152 &&
	tl-html --md --html bigdiff && diff_sums bigdiff >want &&
	grep "^- trace\|^| \`" bigdiff/report.md >got &&
	test_cmp want got && test $(wc -l <got) = 12 &&
	check bigdiff/report.html bigdiff
'

diff=$SHARED/corpus/tracediff-timesformer-mi300-vs-h100/reference
if have_shared && [ -d "$diff" ]; then
	test_expect_success "TraceLens's TraceDiff folder: the summary sums what the rows say" '
		tl-html --md -o diff.md "$diff" && diff_sums "$diff" >want &&
		grep "^- trace\|^| \`" diff.md >got &&
		test_cmp want got
	'
else
	test_skip "TraceLens's TraceDiff folder" '../shared/corpus is absent'
fi

test_expect_success 'an unknown --arch: exit 1' '
	test_must_fail tl-html --arch NoSuchGPU samp 2>err && grep NoSuchGPU err
'
test_done
