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
# The row walk guesses each key from the key before it (cat_event.c
# key_guess): orders that change, keys that start like the guess or are
# longer, keys of 29 and 30 bytes (the guess holds "KEY": up to 32),
# keys outside the tables, and a text that ends where the guess would.
test_expect_success 'keys guessed from the last event: the same rows on both paths' '
	long29=abcdefghijklmnopqrstuvwxyzABC long30=abcdefghijklmnopqrstuvwxyzABCD &&
	{
		printf "{\"traceEvents\":[\n"
		for i in 1 2 3; do
			printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":%s.5,\"dur\":1,\"args\":{\"External id\":%s,\"Record function id\":0,\"%s\":1,\"%s\":[1,2]}},\n" $i $i $long29 $long30
		done
		printf "{\"ph\":\"X\",\"cats\":\"x\",\"cat\":\"k\",\"nam\":1,\"name\":\"b\",\"pid\":1,\"args\":{\"External ids\":3,\"External id\":4,\"%s\":2,\"%sD\":3}},\n" $long29 $long29
		printf "{\"cat\":\"cpu_op\",\"ph\":\"X\",\"name\":\"c\",\"args\":{\"Record function id\":1,\"External id\":5}},\n"
		printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"d\",\"pid\":1,\"tid\":2,\"ts\":4,\"dur\":1,\"args\":{\"External id\":6,\"Record function id\":0,\"%s\":1,\"%s\":[1,2]}},\n" $long29 $long30
		printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"e\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":1,\"args\":{\"External id\":7,\"Record function id\":0,\"%s\":1}}\n]}\n" $long29
	} >guess.json &&
	both guess.json && test_cmp j.out f.out && test_cmp j.err f.err && every guess.json &&
	grep -c "^[0-9]*	0	" f.out >rows && echo 7 >rows.want && test_cmp rows.want rows &&
	for cut in "{\"ph\":\"X\",\"cat\":" "{\"ph\":\"X\",\"cat\":\"k\",\"na" "{\"ph\":\"X\",\"cat\"" ; do
		{
			printf "{\"traceEvents\":[\n"
			printf "{\"ph\":\"X\",\"cat\":\"k\",\"name\":\"a\"},\n"
			printf "%s\n]}\n" "$cut"
		} >cut.json &&
		both cut.json && test_cmp j.out f.out && test_cmp j.err f.err || return 1
	done
'
test_done
