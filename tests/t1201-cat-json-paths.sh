#!/bin/sh
# json.c's two tokenisers: the one-pass tokeniser for compact text (the
# default) and jsmn with the grammar check (TL_JSON=jsmn) give the same
# tokens, the same verdicts and the same messages at the same offsets
# (tests/unit/test-json-paths.c on edge cases, on every event of corpus
# traces and on seeded mutations of them), and tl-cat writes the same bytes,
# messages and status on both paths for every corpus trace and bad input.
# The same for json_scan's structural scanning paths (TL_JSON_SCAN: the byte
# loop, the 64-byte masks done portably, with SSE2, AVX2, AVX-512; those this CPU
# has): tests/unit/test-json-scan-paths.c on edge cases, traces and seeded
# mutations fed whole and in pieces, and tl-cat's bytes on every path.
. "$TL_SRC/tests/lib.sh"
B=$TL_SRC/tests/bad

# both FILE: tl-cat's output and status on each path
both() {
	tl-cat "$@" >f.out 2>f.err; echo $? >>f.out
	TL_JSON=jsmn tl-cat "$@" >j.out 2>j.err; echo $? >>j.out
}

# every FILE: tl-cat's output and status on each scanning path, as on the
# byte loop's
paths=$("$TL_UNIT/test-json-scan-paths" --paths)
every() {
	TL_JSON_SCAN=scalar tl-cat "$@" >s.out 2>s.err; echo $? >>s.out
	for p in $paths; do
		TL_JSON_SCAN=$p tl-cat "$@" >p.out 2>p.err; echo $? >>p.out
		test_cmp s.out p.out && test_cmp s.err p.err || return 1
	done
}

traces=
if have_shared; then
	for d in h100-Qwen_Qwen1.5-0.5B-Chat__1016005 mi300-resnet_act_checkpoint \
		inference-vllm_prefilldecode_piecewise; do
		f=$SHARED/corpus/$d/trace.json.gz
		[ -f "$f" ] && zcat "$f" >"$d.json" && traces="$traces $d.json"
	done
fi
test_expect_success 'unit: both tokenisers agree (edge cases, corpus events, mutations)' '
	"$TL_UNIT/test-json-paths" $traces >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p; /values compared/p' unit.tap 2>/dev/null
echo "# scanning paths on this CPU:" $paths
test_expect_success 'unit: every scanning path says the same (edge cases, traces, mutations, pieces)' '
	"$TL_UNIT/test-json-scan-paths" $traces >scan.tap &&
	! grep "^not ok" scan.tap
'
sed -n 's/^not ok/# not ok/p; /documents scanned/p' scan.tap 2>/dev/null

if have_shared; then
	for f in "$SHARED"/corpus/*/*.json.gz "$SHARED"/corpus/*/ranks/rank0.json.gz; do
		[ -f "$f" ] || continue
		rel=${f#"$SHARED/corpus/"}
		test_expect_success "$rel: the same event stream on both paths" '
			both "$f" && test_cmp j.out f.out && test_cmp j.err f.err &&
			every "$f"
		'
	done
else
	test_skip 'corpus traces: the same event stream on both paths' '../shared/corpus is absent'
fi

for f in "$B"/*; do
	test_expect_success "bad input ${f##*/}: the same output and message on both paths" '
		both "$f" && test_cmp j.out f.out && test_cmp j.err f.err && every "$f"
	'
done

test_expect_success 'nesting, escapes and bad numbers inside events: the same on both paths' '
	{
		printf "{\"traceEvents\":[\n"
		printf "{\"ph\":\"X\",\"name\":\"deep\",\"args\":{\"a\":%s1%s}},\n" \
			"$(printf "[%.0s" $(seq 40))" "$(printf "]%.0s" $(seq 40))"
		printf "{\"ph\":\"X\",\"name\":\"e\\\\u00e9\\\\n\",\"args\":{\"k\\\\\"\":\"\\\\ud83d\\\\ude00\"}},\n"
		printf "{\"ph\":\"X\",\"name\":\"n\",\"args\":{\"a\":-0.5e+3,\"b\":[true,false,null,{}]}},\n"
		printf "{\"ph\":\"X\",\"name\":\"bad\",\"args\":{\"a\":01}},\n"
		printf "{\"ph\":\"X\",\"name\":\"bad2\",\"args\":{\"a\":\"\\\\ud83d\"}},\n"
		printf "{\"ph\":\"X\",\"name\":\"last\"}\n]}\n"
	} >edge.json &&
	both edge.json && test_cmp j.out f.out && test_cmp j.err f.err &&
	both --ndjson edge.json && test_cmp j.out f.out && test_cmp j.err f.err &&
	every edge.json
'
test_done
