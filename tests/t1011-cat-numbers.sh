#!/bin/sh
# Silent wrong numbers (finding 5 of issue 13): a dur of 1e400 (inf to a
# double), a negative dur and integers beyond 2^53 each get a message with
# a count from tl-cat; tl-tree and tl-timeline leave such events out (and
# say so), tl-perf leaves such GPU events out of its sheets, so no report
# holds inf or a negative time.  \u0000 in a name does not cut it.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'numbers' 'python3 is not installed (it writes the inputs)'
fi

# with_dur VALUE OUT: a two-op trace whose first kernel has dur VALUE
with_dur() {
	python3 "$TL_SRC/tests/tools/gentrace.py" --ops=2 "$2" &&
	python3 - "$1" "$2" <<-\PY
	import re, sys
	v, path = sys.argv[1], sys.argv[2]
	t = open(path).read()
	t = re.sub(r'("cat": "kernel".*?"dur": )[0-9.]+', lambda m: m.group(1) + v, t, count=1)
	open(path, "w").write(t)
	PY
}

test_expect_success 'dur 1e400: tl-cat counts it, the report fails and holds no inf' '
	with_dur 1e400 inf.json &&
	tl-cat inf.json >ev 2>err &&
	grep -q "^tl-cat: inf.json: 1 event with a ts or dur too large for a double (it reads as inf): left out of the tree and the timeline (first: event 3, dur 1e400)$" err &&
	test_must_fail tl-report -o r inf.json >out 2>err &&
	grep -q "^tl-timeline: inf.json: event 3: GPU event with a ts or dur too large for a double (inf): not counted$" err &&
	test ! -e r
'

test_expect_success 'a negative dur: counted, left out of the timeline and the perf sheets' '
	with_dur -5 neg.json &&
	tl-cat neg.json >ev 2>err &&
	grep -q "1 event with a negative dur: left out of the tree and the timeline (first: event 3, dur -5)" err &&
	tl-tree ev >nodes &&
	test_must_fail tl-timeline --csv nodes >tl.csv 2>err &&
	grep -q "event 3: GPU event with a negative dur: not counted" err &&
	tl-perf --csv -s ops_summary nodes >ops.csv 2>err &&
	grep -q "neg.json: 1 GPU event with an infinite ts or dur or a negative dur left out" err &&
	grep -q "^aten::mm,25.0,25.0,0.025,0.025,1," ops.csv &&
	tl-perf --csv --all-gpu -s kernel_summary nodes >k.csv 2>/dev/null &&
	! grep -e ",-" -e "inf" k.csv
'

test_expect_success 'a host op with a negative dur is left out of the tree, counted' '
	python3 "$TL_SRC/tests/tools/gentrace.py" --ops=2 host.json &&
	python3 -c "
import re
t = open(\"host.json\").read()
t = re.sub(r\"(\\\"cat\\\": \\\"cpu_op\\\".*?\\\"dur\\\": )[0-9.]+\", lambda m: m.group(1) + \"-1\", t, count=1)
open(\"host.json\", \"w\").write(t)" &&
	tl-cat host.json >ev 2>/dev/null &&
	tl-tree ev >nodes 2>err &&
	grep -q "src 0: 1 host events without numeric ts and dur left out of the tree" err
'

test_expect_success 'integers beyond 2^53: counted, rounded as a double (said so)' '
	with_dur 9007199254740993 big.json &&
	tl-cat big.json >ev 2>err &&
	grep -q "1 event with an integer ts or dur beyond 2^53, rounded to the nearest double (first: event 3, dur 9007199254740993)" err &&
	with_dur 9007199254740992 edge.json &&
	tl-cat edge.json >ev 2>err && test ! -s err &&
	with_dur -9007199254740993 nbig.json &&
	tl-cat nbig.json >ev 2>err &&
	grep -q "beyond 2^53" err && grep -q "negative dur" err
'

test_expect_success 'every source gets its own count' '
	with_dur 1e999 a.json && with_dur 2e999 b.json &&
	tl-cat a.json b.json >ev 2>err &&
	grep -q "^tl-cat: a.json: 1 event" err && grep -q "^tl-cat: b.json: 1 event" err &&
	test $(wc -l <err) = 2
'

test_expect_success '\u0000 in a name does not cut it, in the stream, the views and the sheets' '
	cat >nul.json <<-\EOF &&
	{"traceEvents":[
	{"ph":"X","cat":"cpu_op","name":"aten::a\u0000b","pid":1,"tid":1,"ts":0,"dur":50,"args":{"External id":1}},
	{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":5,"External id":1}},
	{"ph":"s","id":5,"pid":1,"tid":1,"ts":1,"cat":"ac2g","name":"ac2g"},
	{"ph":"X","cat":"kernel","name":"k\u0000x","pid":0,"tid":7,"ts":10,"dur":5,"args":{"correlation":5,"External id":1}},
	{"ph":"f","id":5,"pid":0,"tid":7,"ts":10,"cat":"ac2g","name":"ac2g","bp":"e"}
	]}
	EOF
	tl-cat nul.json >ev &&
	grep -q "	aten::a\\\\\\\\u0000b	" ev &&
	tl-tree --print ev >print &&
	grep -q "Name: aten::a\\\\u0000b$" print &&
	grep -q "Name: k\\\\u0000x, Duration: 5$" print &&
	tl-report -o r nul.json >out &&
	grep -q "^aten::a\\\\u0000b,5.0," r/ops_summary.csv &&
	grep -q "aten::a\\\\u0000b,k\\\\u0000x," r/kernel_summary.csv
'
test_done
