#!/bin/sh
# tl-jax: TraceLens's JAX report sheets.  jax-conv-minimal's legacy file
# passes every sheet of TraceLens's committed reference through tl-conform;
# legacy, the JAX 0.8 file and a synthetic XSpace (t3510-jax-sheets.d/
# make-jax.py: four GPUs whose Python set order is not numeric, conv
# forward and backward, nccl, copies, unlinked kernels, a ROOT hlo_op) give
# byte for byte the sheets TraceLens's own code writes from the same events
# (references and commands in t3510-jax-sheets.d/).
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t3510-jax-sheets.d
J=$SHARED/corpus/jax-conv-minimal

# compare DIR REF: every REF sheet, numpy 2's np.float64(...) wrappers
# removed (the references were written with numpy 1.24)
compare() {
	(cd "$2" && ls) >want && (cd "$1" && ls) >got && test_cmp want got || return 1
	for f in "$2"/*.csv; do
		sed -E 's/np\.(float|int)64\(([^)]*)\)/\2/g' "$1/${f##*/}" >plain &&
		test_cmp "$f" plain || return 1
	done
}

test_expect_success 'synthetic XSpace: every sheet is TraceLens'"'"'s' '
	tl-cat "$D/synthetic_jax.xplane.pb" >ev &&
	tl-jax --csv -o out ev && compare out "$D/ref-synthetic"
'

test_expect_success 'GPU timelines in the order of Python'"'"'s set {1, 8, 9, 16}' '
	awk -F, "NR > 1 && \$1 == \"total_time\" { printf \"%s \", \$4 }" out/gpu_timeline.csv >got &&
	printf "8 1 9 16 " >want && test_cmp want got
'

test_expect_success '--keyword keeps the kernels whose HLO metadata names it' '
	tl-jax --csv --keyword jit\(step\)/add -s kernel_launchers ev >kl &&
	awk -F, "NR > 1 { print \$1 }" kl | sort -u >got &&
	echo loop_add_fusion >want && test_cmp want got &&
	test "$(wc -l <kl)" = 5
'

test_expect_success '-s to stdout as a tl sheet; an unknown sheet fails' '
	tl-jax -s kernel_launchers_summary_by_category ev >s &&
	head -1 s >got && echo "#tl-sheet 1" >want && test_cmp want got &&
	test_must_fail tl-jax -s op_gemm ev >/dev/null 2>err &&
	grep -q "no sheet .op_gemm. for this trace" err
'

test_expect_success 'not an event stream, or a cut one: exit 1' '
	echo nonsense >bad.tsv && test_must_fail tl-jax -o x bad.tsv 2>err &&
	grep -q "not a tl stream" err &&
	head -n 40 ev >cut.tsv && test_must_fail tl-jax -o y cut.tsv 2>err &&
	grep -q "cut short" err
'

if have_shared && [ -d "$J/reference-legacy" ]; then
	test_expect_success 'jax-conv-minimal legacy: every reference sheet passes tl-conform' '
		tl-cat "$J/legacy.xplane.pb" >lev && tl-jax --csv -o legacy lev &&
		"$SHARED/tools/tl-conform" legacy "$J/reference-legacy" >conform &&
		tail -1 conform | grep -qx "9 passed, 0 failed"
	'
	test_expect_success 'jax-conv-minimal legacy: byte for byte TraceLens'"'"'s code' '
		compare legacy "$D/ref-legacy"
	'
	test_expect_success 'jax-conv-minimal v08 (JAX 0.8): read, and TraceLens'"'"'s sheets' '
		tl-cat "$J/v08.xplane.pb" >v8 && tl-jax --csv -o v08 v8 &&
		compare v08 "$D/ref-v08"
	'
else
	test_skip 'jax-conv-minimal through tl-conform' "no $J"
fi
# Shapes whose sizes pass int64 (a fuzzed or corrupt trace): Python's ints
# have no top, so TraceLens prints exact sums where tl's int64 arithmetic
# overflowed (undefined; UBSan stopped SAN=1's tl-jax).  tl now goes on in
# floating point: the same numbers to 16 digits, as floats.
test_expect_success 'shapes past int64: float sizes, no overflow' '
	sed "s/bf16\[2,32,14,14\]/bf16[2000000,32000000,14000000,14000000]/g;
	     s/bf16\[2,8,16,16\]/bf16[2000000,8000000,16000000,16000000]/g" ev >big.ev &&
	tl-jax --csv -o big big.ev 2>err && test ! -s err &&
	python3 - big <<-\PY
	import csv, sys
	d = sys.argv[1]
	x, o = 2000000 * 8000000 * 16000000 * 16000000, 2000000 * 32000000 * 14000000 * 14000000
	add = next(r for r in csv.DictReader(open(d + "/df_xla_perf.csv"))
	           if r["name"] == "loop_add_fusion" and r["Input Dims"] != "()")
	assert float(add["total_input_bytes"]) == float(2 * o * 2), add["total_input_bytes"]
	conv = next(r for r in csv.DictReader(open(d + "/op_conv.csv"))
	            if float(r["GFLOPS_first"]) > 1)
	assert float(conv["GFLOPS_first"]) == o * 2 * 3 / 1e9, conv["GFLOPS_first"]
	assert float(conv["Data Moved (MB)_first"]) == (x + 9 + o) * 2 / (1024 * 1024)
	PY
'
test_done
