#!/bin/sh
# tl-split against TraceLens's TraceLens_split_inference_trace on small
# synthetic serving traces (tests/tools/gen-split-case.py): vLLM's detailed
# and native iteration annotations and a trace without any (the call-tree
# fallback), with every option (cases, one run a line).  Each run's output
# folder is compared as a digest (tests/tools/split-digest.py: every file,
# traces as their top-level keys and the input positions of their events,
# execution_details.json/.csv byte for byte) with the digest of TraceLens's
# folder (ref/, made as COMMAND says).  Runs without ../shared.
. "$TL_SRC/tests/lib.sh"

d=$TEST_DIR
digest() {
	python3 "$TL_SRC/tests/tools/split-digest.py" "$1" "$2"
}

grep -v '^#' "$d/cases" >cases
while IFS='|' read -r name trace opts; do
	test_expect_success "$name: tl-split $opts" '
		mkdir "$name" &&
		(cd "$name" && tl-split "$d/$trace" -o out $opts >paths 2>err) &&
		gzip -dc "$d/ref/$name.digest.gz" >"$name.want" &&
		if [ -d "$name/out" ]; then digest "$d/$trace" "$name/out"; fi >"$name.got" &&
		test_cmp "$name.want" "$name.got"
	'
done <cases

test_expect_success 'the paths written, one a line, are the traces of execution_details.json' '
	sed "s,^,out/," steady/paths >/dev/null &&
	test $(wc -l <steady/paths) = 3 &&
	while read -r p; do
		grep -q "\"output_path\": \"$p\"" steady/out/execution_details.json || exit 1
	done <steady/paths
'
test_expect_success 'tl-cat reads what tl-split writes' '
	tl-cat steady/out/*.json.gz gen_phases/out/*/*.json.gz >cat.out &&
	! grep -q "^#error" cat.out
'
test_expect_success 'an event stream on stdin: its #source names the outputs' '
	tl-cat "$d/vllm.json.gz" | tl-split -o pipe --find-steady-state >paths &&
	digest "$d/vllm.json.gz" pipe | sed "s,pipe/,out/,g" >pipe.got &&
	test_cmp steady.want pipe.got
'
test_expect_success 'an event stream as the argument' '
	tl-cat "$d/native.json.gz" >native.tl &&
	mkdir nat && (cd nat && tl-split ../native.tl -o out -i 30:34 --store-single-iteration \
		--divide-phases >paths) &&
	digest "$d/native.json.gz" nat/out >nat.got &&
	test_cmp nat_single.want nat.got
'
test_expect_success 'nothing to write: no execution_details' '
	test ! -e nothing/out/execution_details.json && test ! -s nothing/paths
'
test_expect_success 'a trace without iterations: a message, nothing written' '
	printf "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}" >none.json &&
	tl-split none.json -o none >paths 2>err &&
	grep -q "no iterations found" err && test ! -s paths &&
	test ! -e none/execution_details.json
'
test_expect_code 2 'no -o' 'tl-split "$d/vllm.json.gz"'
test_expect_code 2 'a bad iteration range' 'tl-split -o x -i 3:a "$d/vllm.json.gz"'
test_expect_code 2 'a negative iteration' 'tl-split -o x -i -2 "$d/vllm.json.gz"'
test_expect_code 1 'a missing trace' 'tl-split -o x missing.json.gz'
test_expect_success 'two traces in one stream are refused' '
	tl-cat "$d/vllm.json.gz" "$d/native.json.gz" >two.tl &&
	test_must_fail tl-split -o two two.tl 2>err &&
	grep -q "more than one trace" err
'
test_expect_success '-h prints the usage' '
	tl-split -h >usage && grep -q "^usage: tl-split" usage
'
test_done
