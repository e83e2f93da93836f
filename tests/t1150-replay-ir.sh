#!/bin/sh
# tl-replay's event_replay_ir.json against TraceLens's EventReplayer: the
# aten::mm event of TraceLens's own tests (spec §5) byte for byte, and a
# synthetic trace reaching every match and IR rule (optional args, int and
# bool lists, kwargs, fill_/copy_ init, float repr, Tensor[], a "long int"
# dtype, Tensor(a) and ScalarType arguments, an unknown op) against the
# references TraceLens's own code wrote (t1151-replay-corpus.d/make-refs.sh);
# --name groups and counts; bad input and usage errors.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t1150-replay-ir.d

test_expect_success 'aten::mm of two bf16 tensors: TraceLens get_repro_info, byte for byte' '
	tl-cat "$D/mm-trace.json" >ev && tl-tree ev >nodes &&
	tl-replay --uid 0 -o out nodes 2>err &&
	test_cmp "$D/mm-tracelens.json" out/event_replay_ir.json &&
	test_cmp /dev/null err
'

# §5 prints the entry by hand (spacing aligned); json.dump([entry],
# indent=4), as TraceLens writes the file, must give the same bytes
test_expect_success 'aten::mm: the entry spec §5 shows, as json.dump(indent=4) writes it' '
	python3 -c "import json, sys; e = json.load(open(sys.argv[1])); sys.stdout.write(json.dumps([e], indent=4))" \
		"$D/spec5-entry.json" >spec5.json &&
	test_cmp spec5.json out/event_replay_ir.json
'

test_expect_success 'a trace read directly: the same bytes as from its node stream' '
	tl-replay --uid 0 -o direct "$D/mm-trace.json" 2>err && test_cmp /dev/null err &&
	test_cmp "$D/mm-tracelens.json" direct/event_replay_ir.json &&
	gzip -c "$D/mm-trace.json" >mm.json.gz && tl-replay --uid 0 -o gz mm.json.gz &&
	test_cmp "$D/mm-tracelens.json" gz/event_replay_ir.json &&
	cmp out/replay.py gz/replay.py
'

test_expect_success 'every rule: the same IR as TraceLens, the same ops refused' '
	tl-cat "$D/ops-trace.json" >ev && tl-tree ev >nodes &&
	tl-replay --uid $(seq -s, 0 18) -o ops nodes 2>err &&
	test_cmp "$D/ops-tracelens.json" ops/event_replay_ir.json &&
	sed -n "s/^tl-replay: .*: uid \([0-9]*\): .*: cannot replay: .*/\1/p" err >refused &&
	test_cmp "$D/ops-tracelens.failed" refused &&
	echo "tl-replay: 5 of 19 ops cannot be replayed (named above); 14 written" >want &&
	tail -n 1 err >got && test_cmp want got &&
	grep -q "uid 5: aten::cat: cannot replay: Tensor list type not supported: Tensor\[\]" err &&
	grep -q "uid 7: aten::my_custom_op: cannot replay: no schema of that name" err
'

test_expect_success 'replay.py holds names, shapes, dtypes, strides and scalars only' '
	test -f ops/replay.py &&
	! grep -q "External id\|\"ts\"\|\"pid\"\|ops-trace" ops/replay.py &&
	grep -q "^{\"op_name\": \"aten::mm\", \"count\": -1, \"args\": {\"Input type\": \[\"c10::BFloat16\", \"c10::BFloat16\"\], \"Input Dims\": \[\[4, 8\], \[8, 16\]\]" ops/replay.py
'

# uids 0, 1 and 15 are aten::mm; 0 and 1 have the same args
test_expect_success '--name: one entry per unique-args group, with its count' '
	tl-replay --name aten::mm -o name nodes 2>err && test_cmp /dev/null err &&
	grep "\"count\"" name/event_replay_ir.json >got &&
	printf "        \"count\": 2\n        \"count\": 1\n" >want && test_cmp want got &&
	grep -c "^{\"op_name\": \"aten::mm\", \"count\": [12]," name/replay.py >n && echo 2 >want &&
	test_cmp want n
'

test_expect_success 'bad input: message naming the file, exit 1' '
	test_must_fail tl-replay --uid 0 -o bad "$TL_SRC/tests/bad/notjson.json" 2>err &&
	grep -q "^tl-cat: $TL_SRC/tests/bad/notjson.json: " err &&
	test_must_fail tl-replay --uid 0 -o bad ev 2>err &&
	grep -q "^tl-replay: ev:1: a tl-events stream, but this program reads nodes" err &&
	test_must_fail tl-replay --uid 0 -o bad /nonexistent.json 2>err &&
	grep -q "^tl-replay: /nonexistent.json: No such file" err &&
	test_must_fail tl-replay --uid 99 -o bad nodes 2>err &&
	grep -q "^tl-replay: .*ops-trace.json: uid 99: no such event (the stream has 19)" err &&
	test_must_fail tl-replay --uid 1,x -o bad nodes 2>err &&
	grep -q "^tl-replay: --uid: .1,x.: not a comma-separated list of uids" err &&
	test_must_fail tl-replay --name aten::nothing -o bad nodes 2>err &&
	grep -q "no cpu_op named .aten::nothing." err &&
	test_must_fail tl-replay --uid 5 -o bad nodes 2>err &&
	grep -q "uid 5: aten::cat: cannot replay" err && grep -q "nothing to replay" err &&
	test_must_fail tl-replay --top 3 -o bad nodes 2>err &&
	grep -q "no op launches GPU work" err &&
	test_must_fail tl-replay --uid 0 --schemas /nonexistent -o bad nodes 2>err &&
	grep -q "^tl-replay: /nonexistent: No such file" err
'

test_expect_code 2 'no -o: usage error' 'tl-replay --uid 0 nodes'
test_expect_code 2 'two selectors: usage error' 'tl-replay --uid 0 --name aten::mm -o x nodes'

test_done
