#!/bin/sh
# tl-tree on the corpus, through the real tl-cat, against numbers obtained
# without tl: the spec's counts (tracelens-core.md §2.3, §5.1), TraceLens's
# own ops_summary.csv (per op name: sum of total_direct_kernel_time, of
# total_subtree_kernel_time, and the launcher count), the spec's example
# views, and the Python transcription tests/tools/pytree.py.
. "$TL_SRC/tests/lib.sh"
C=$SHARED/corpus
BERT=$C/h100-gaunernst_bert-small-uncased__1016001/trace.json.gz
MI300=$C/mi300-gaunernst_bert-small-uncased__1016001/trace.json.gz

if ! have_shared; then
	test_skip_all 'corpus' "no corpus at $SHARED/corpus"
fi
if ! command -v tl-cat >/dev/null; then
	test_skip_all 'corpus' "no tl-cat in $TL_BIN yet"
fi

# col NAME FILE: the values of one column of a stream, one per row
col() {
	awk -F'\t' -v c="$1" '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next }
		{ print $k }' "$2"
}

test_expect_success 'bert H100: events and nodes' '
	tl-cat "$BERT" >bert.ev && tl-tree bert.ev >bert.nodes &&
	tl-tree --python bert.ev >bertp.nodes
'
test_expect_success 'bert H100: 104 cpu_op roots' '
	test "$(col root bert.nodes | grep -c "^1\$")" = 104
'
test_expect_success 'bert H100: 106 host events without parent' '
	awk -F"\t" "/^#/ { next } !h { h = 1; next }
		(\$4 == \"cpu_op\" || \$4 == \"cuda_runtime\" || \$4 == \"cuda_driver\") && \$22 == \"\"" \
		bert.nodes >orphans &&
	test "$(wc -l <orphans)" = 106 &&
	cut -f1,5 orphans | grep -v "	aten\|	autograd" >rt &&
	printf "2101\tcudaDeviceSynchronize\n2485\tcudaDeviceSynchronize\n" >want &&
	test_cmp want rt
'
test_expect_success 'bert H100: 61 linked GPU events, 60 kernels + 1 memcpy' '
	awk -F"\t" "/^#/ { next } !h { h = 1; next } \$24 == 1 && \$27 != \"\" && \$4 != \"cuda_runtime\" && \$4 != \"cuda_driver\" { print \$4 }" \
		bert.nodes | sort | uniq -c | awk "{ print \$1, \$2 }" >got &&
	printf "1 gpu_memcpy\n60 kernel\n" >want &&
	test_cmp want got
'
test_expect_success 'bert H100: no drops without python, 5 with' '
	test "$(col drop bert.nodes | grep -c "^1\$")" = 0 &&
	test "$(col drop bertp.nodes | grep -c "^1\$")" = 5
'
test_expect_success 'bert MI300: 13 drops with python' '
	tl-cat "$MI300" >mi.ev && tl-tree --python mi.ev >mip.nodes &&
	test "$(col drop mip.nodes | grep -c "^1\$")" = 13
'
test_expect_success 'bert H100: the spec example subtree of UID 42' '
	tl-tree --print --prune-non-gpu --root 42 bert.ev >print42 &&
	printf "%s\n" "└── UID: 42, Category: cpu_op, Name: aten::linear" \
		"    └── UID: 48, Category: cpu_op, Name: aten::addmm" \
		"        └── UID: 2147, Category: cuda_driver, Name: cuLaunchKernel" \
		"            └── UID: 2145, Category: kernel, Name: void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_.., Duration: 5.824" >want &&
	test_cmp want print42
'
test_expect_success 'bert H100: --ext 49,19392,19392 is aten::addmm, not its launch' '
	tl-tree --print --depth 0 --ext 49,19392,19392 bert.ev >ext49 &&
	echo "└── UID: 48, Category: cpu_op, Name: aten::addmm" >want &&
	test_cmp want ext49
'
# The spec gives 35 call-stack frames for aten::addmm (UID 48, §2.8), so its
# kernel is 36 levels below the root (the "(28 levels)" there is a slip).
test_expect_success 'bert H100: kernel 2145 has 36 ancestors with python' '
	tl-tree --python --up 2145 bert.ev >up &&
	test "$(grep -c "^  UID" up)" = 37 && tail -2 up | grep -q "^36-up:" &&
	grep -A1 "^4-up:" up >got &&
	printf "%s\n" "4-up:" "  UID: 953, Category: python_function, Name: <built-in function linear>" >want &&
	test_cmp want got &&
	grep -A1 "^25-up:" up | grep -q "Name: nn.Module: BertLMHeadModel_0"
'

# TraceLens's ops_summary.csv: name, direct sum, subtree sum, ..., Count
ops_check() {
	awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$c["kernel_direct_us"] != "" { n = $c["name"]; d[n] += $c["kernel_direct_us"];
			s[n] += $c["gpu_busy_us"]; k[n]++ }
		END { for (n in d) printf "%s\t%.17g\t%.17g\t%d\n", n, d[n], s[n], k[n] }' "$1" |
		sort >ours &&
	awk 'NR > 1 { line = $0; name = "";
		if (substr(line, 1, 1) == "\"") { e = index(substr(line, 2), "\""); name = substr(line, 2, e - 1); line = substr(line, e + 3) }
		else { e = index(line, ","); name = substr(line, 1, e - 1); line = substr(line, e + 1) }
		split(line, f, ","); printf "%s\t%s\t%s\t%s\n", name, f[1], f[2], f[5] }' "$2" |
		sort >ref &&
	join -t "	" ours ref >both &&
	test "$(wc -l <both)" = "$(wc -l <ref)" && test "$(wc -l <ours)" = "$(wc -l <ref)" &&
	awk -F'\t' 'function abs(x) { return x < 0 ? -x : x }
		abs($2 - $5) > 1e-6 || abs($3 - $6) > 1e-6 || $4 != $7 { print "# differs: " $0; bad = 1 }
		END { exit bad }' both
}
for d in "$C"/*/; do
	[ -f "$d/reference/ops_summary.csv" ] && [ -f "$d/trace.json.gz" ] || continue
	n=$(basename "$d")
	test_expect_success "$n: launcher times match TraceLens's ops_summary" "
		tl-cat \"$d/trace.json.gz\" >t.ev && tl-tree t.ev >t.nodes &&
		ops_check t.nodes \"$d/reference/ops_summary.csv\"
	"
done

if command -v python3 >/dev/null; then
	for tr in "$BERT" "$MI300"; do
		for p in "" --python; do
			test_expect_success "the Python transcription agrees: $(basename "$(dirname "$tr")") $p" "
				tl-cat \"$tr\" >o.ev && tl-tree $p o.ev >o.nodes &&
				awk -F'\t' 'BEGIN { OFS = \"\t\" } /^#/ { next }
					!h { for (i = 1; i <= NF; i++) if (\$i == \"parent\") q = i; h = 1; next }
					{ s = \$1; for (i = q; i <= NF; i++) s = s OFS \$i; print s }' o.nodes >o.cols &&
				python3 \"$TL_SRC/tests/tools/pytree.py\" $p \"$tr\" >oracle &&
				test_cmp oracle o.cols
			"
		done
	done
	for tr in "$BERT" "$MI300"; do
		for p in "" --prune; do
			test_expect_success "--print agrees with TraceLens's printer: $(basename "$(dirname "$tr")") $p" "
				tl-cat \"$tr\" >o.ev &&
				tl-tree --python --print \$(test -n \"$p\" && echo --prune-non-gpu) o.ev >print.out &&
				python3 \"$TL_SRC/tests/tools/pytree.py\" --python --print $p \"$tr\" >oracle &&
				test_cmp oracle print.out
			"
		done
	done
else
	test_skip 'the Python transcription agrees' 'no python3'
fi
test_done
