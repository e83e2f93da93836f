#!/bin/sh
# tl-tree --capture and --pseudo-ops: the node stream tl-nodes 2 of the
# synthetic traces of t9301 (whose reports match TraceLens's), kept as
# golden files and checked for the stream's own rules; bad inputs.
. "$TL_SRC/tests/lib.sh"

d=$TL_SRC/tests/t9301-report-inference-synthetic.d
# the traces under short relative names: the graft column names the file
cp "$d/graft/trace.json.gz" graph.json.gz
mkdir cap && cp "$d"/graft/capture_traces/* cap/
cp "$d/pseudo/trace.json.gz" eager.json.gz

test_expect_success 'event streams of the graph trace, the captures and the eager trace' '
	tl-cat graph.json.gz >graph.ev &&
	tl-cat cap/cap_bs4.json.gz cap/cap_bs8.json.gz >cap.ev &&
	tl-cat eager.json.gz >eager.ev
'
test_expect_success 'tl-tree --capture --details writes tl-nodes 2' '
	tl-tree --capture cap.ev --details cap/execution_details.json graph.ev >graft.nodes 2>graft.err &&
	test_golden "$TEST_DIR/graft.nodes" graft.nodes &&
	head -1 graft.nodes >kind && echo "#tl-nodes 2" >want && test_cmp want kind
'
test_expect_success 'the batch nothing was captured for is said on stderr' '
	echo "tl-tree: capture: no capture batch size found for batch size 100" >want &&
	test_cmp want graft.err
'
# awk over the node stream: columns by name
cols='NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; next } /^#/ { next }'
test_expect_success 'added nodes follow the trace events, uids counted on from #end' '
	awk -F"\t" "$cols"'"'"' { if ($1 != n++) bad = 1 } END { print bad + 0, n }'"'"' graft.nodes >got &&
	echo "0 73" >want && test_cmp want got &&
	grep "^#end" graft.nodes | cut -f3 >elements && echo 39 >want && test_cmp want elements &&
	awk -F"\t" "$cols"'"'"' $c["graft"] ~ /^capture-root:/ { r++ } $c["graft"] ~ /^capture:/ { k++ }
		END { print r, k }'"'"' graft.nodes >got &&
	echo "4 30" >want && test_cmp want got
'
test_expect_success 'each merged kernel hangs under the launch captured for it' '
	awk -F"\t" "$cols"'"'"' { cat[$1] = $c["cat"]; name[$1] = $c["name"]; par[$1] = $c["parent"]; gr[$1] = $c["graft"] }
		END { for (u in cat) if (cat[u] == "kernel" && name[par[u]] == "hipLaunchKernel" && gr[par[u]] ~ /^capture:/) n++
		      print n + 0 }'"'"' graft.nodes >got &&
	echo 10 >want && test_cmp want got
'
test_expect_success 'a merged graph launch keeps its CaptureRoot as only child' '
	awk -F"\t" "$cols"'"'"' { name[$1] = $c["name"]; par[$1] = $c["parent"]; cat[$1] = $c["cat"] }
		END { for (u in name) if (name[u] == "CaptureRoot") { n++; if (name[par[u]] != "hipGraphLaunch") bad++; m[par[u]] = 1 }
		      for (u in name) if (cat[u] == "kernel" && (par[u] in m)) bad++
		      print n, bad + 0 }'"'"' graft.nodes >got &&
	echo "4 0" >want && test_cmp want got
'
test_expect_success 'tl-tree --pseudo-ops writes the pseudo ops, their args and the children lists' '
	tl-tree --python --pseudo-ops eager.ev >pseudo.nodes &&
	test_golden "$TEST_DIR/pseudo.nodes" pseudo.nodes &&
	awk -F"\t" "$cols"'"'"' $c["graft"] == "pseudo" { print $c["name"] }'"'"' pseudo.nodes >got &&
	cat >want <<-\EOF &&
	pseudo_op::moe_triton_unfused_up
	pseudo_op::moe_triton_unfused_down
	pseudo_op::moe_triton_unfused_finalize_matmul_scatter
	pseudo_op::moe_gptq_awq_up
	pseudo_op::moe_gptq_awq_down
	pseudo_op::moe_flydsl_stage1
	pseudo_op::moe_flydsl_stage2
	pseudo_mla_decode_fwd
	EOF
	test_cmp want got &&
	grep -q "	{\"Pseudo op\":true,\"MoE GEMM type\":\"up\",\"MoE GEMM index\":0,\"MoE GEMM gated\":true,\"MoE topk\":4}	" pseudo.nodes
'
test_expect_success 'sglang_profiler names lose their numeric suffix (graft column: renamed)' '
	awk -F"\t" "$cols"'"'"' $c["graft"] == "renamed" { print $c["name"] }'"'"' pseudo.nodes >got &&
	echo "sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts" >want &&
	test_cmp want got
'
test_expect_success 'without python frames the flydsl and MLA extensions find nothing' '
	tl-tree --pseudo-ops eager.ev >nopy.nodes &&
	awk -F"\t" "$cols"'"'"' $c["graft"] == "pseudo" { n++ } END { print n }'"'"' nopy.nodes >got &&
	echo 5 >want && test_cmp want got
'
test_expect_success 'tl-timeline and tl-perf read tl-nodes 2' '
	tl-timeline graft.nodes >tl.out && tl-perf -s ops_summary graft.nodes >ops.out &&
	grep -q "^aten::mm	" ops.out
'
test_expect_success 'tl-idle and tl-coll --extract refuse tl-nodes 2 (they read the trace as recorded)' '
	test_must_fail tl-idle -o idle graft.nodes 2>err &&
	grep -q "graft.nodes: an edited tree" err &&
	test_must_fail tl-coll --extract -o coll pseudo.nodes 2>err &&
	grep -q "pseudo.nodes: an edited tree" err &&
	tl-idle -o idle graph.ev && tl-coll --extract -o coll graph.ev
'
test_expect_success 'tl-report with pseudo ops and captures: idle/ as the plain report has it' '
	tl-report --no-coll -o plain eager.json.gz >/dev/null 2>&1 &&
	tl-report --enable-pseudo-ops -o pseudo eager.json.gz >/dev/null 2>&1 &&
	diff -r plain/idle pseudo/idle &&
	tl-report -o gplain graph.json.gz >/dev/null 2>&1 &&
	tl-report --inference --capture cap -o ginf graph.json.gz >/dev/null 2>&1 &&
	diff -r gplain/idle ginf/idle
'
test_expect_success 'a capture stream with a bad row is refused, nothing leaked (fuzz-capture crasher)' '
	python3 -c "import sys; d = open(sys.argv[1], \"rb\").read().split(b\"\\n\\f\\n\"); open(\"c.ev\", \"wb\").write(d[1])" \
		"$TL_SRC/tests/fuzz/crashers/capture/capture-bad-row-leak" &&
	test_must_fail tl-tree --capture c.ev graph.ev >out 2>err &&
	grep -q "c.ev:.*wrong number of fields" err
'
test_expect_code 2 '--details needs --capture' 'tl-tree --details cap/execution_details.json graph.ev'
test_expect_code 2 '--capture with a view is a usage error' 'tl-tree --print --capture cap.ev graph.ev'
test_expect_success 'two traces in one stream are refused' '
	tl-cat graph.json.gz eager.json.gz >two.ev &&
	test_must_fail tl-tree --pseudo-ops two.ev >out 2>err &&
	grep -q "more than one trace" err
'
test_expect_success 'a capture stream that is no event stream is refused' '
	test_must_fail tl-tree --capture graft.nodes graph.ev >out 2>err &&
	grep -q "graft.nodes" err
'
test_expect_success 'execution_details.json that is not a list is refused' '
	echo "{}" >bad.json &&
	test_must_fail tl-tree --capture cap.ev --details bad.json graph.ev >out 2>err &&
	grep -q "bad.json: not a JSON list" err
'
test_expect_success 'a missing execution_details.json is refused' '
	test_must_fail tl-tree --capture cap.ev --details none.json graph.ev >out 2>err &&
	grep -q "none.json" err
'
test_expect_success 'entries naming no capture trace, or no valid mode, are skipped with a warning' '
	echo "[{\"file\":\"nothere.json.gz\",\"batch_size\":8,\"mode\":\"FULL\"},
	       {\"file\":\"cap_bs8.json.gz\",\"batch_size\":8,\"mode\":\"decode\"}]" >skip.json &&
	tl-tree --capture cap.ev --details skip.json graph.ev >skip.nodes 2>err &&
	grep -q "nothere.json.gz. is not among the capture traces" err &&
	grep -q "invalid batch size or mode" err &&
	! grep -q "capture-root" skip.nodes
'

# The #end line's element count: the uids of the nodes an edit adds count
# on from it, so it must be a count above every uid of its source, in the
# trace and in a capture stream alike.
for bad in -9 4294967296 x 2; do
	test_expect_success "#end with element count $bad is refused, in the trace and in a capture" '
		sed "s/^#end	0	[0-9]*	/#end	0	$bad	/" eager.ev >end.ev &&
		test_must_fail tl-tree --pseudo-ops end.ev >out 2>err &&
		grep -q "^tl-tree: end.ev:[0-9]*: #end: " err &&
		sed "s/^#end	\([01]\)	[0-9]*	/#end	\1	$bad	/" cap.ev >endcap.ev &&
		test_must_fail tl-tree --capture endcap.ev graph.ev >out 2>err &&
		grep -q "^tl-tree: endcap.ev:[0-9]*: #end: " err
	'
done
# Per-uid texts were kept in an array by uid: a row whose uid is 4e9 (the
# uids may be any increasing numbers below 2^32) asked for 64 GB.
test_expect_success 'a row with uid 4000000000: tl-tree --pseudo-ops writes it' '
	tl-tree --pseudo-ops "$TL_SRC/tests/fuzz/crashers/capture/uid-4e9-row" >big.nodes &&
	grep -q "^4000000000	0	X	cpu_op	aten::mm	" big.nodes
'
test_done
