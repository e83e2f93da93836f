#!/bin/sh
# Deep nesting (finding 2 of issue 13): tl-cat reads JSON up to
# JSON_MAX_DEPTH (1000) levels, refuses deeper with a message that says
# where, and its cost does not grow with the depth: jsmn walked parent
# links up from the last token at every closing bracket, so events nested
# 990 deep cost 30 times what flat events of the same size cost, and an
# event nested 1M deep did not finish.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'deep nesting' 'python3 is not installed (it writes the inputs)'
fi

# deep.py FILE DEPTH [KEY]: one event whose args hold x, DEPTH arrays deep
# (so the event nests DEPTH + 2 levels), then a flat one; with KEY, the
# top-level value KEY is DEPTH arrays deep instead.
cat >deep.py <<-\PY
import sys
path, d = sys.argv[1], int(sys.argv[2])
deep = "[" * d + "]" * d
if len(sys.argv) > 3:
    doc = '{"%s":%s,"traceEvents":[]}' % (sys.argv[3], deep)
else:
    doc = ('{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","args":{"x":%s}},'
           '{"ph":"X","cat":"cpu_op","name":"b"}]}' % deep)
open(path, "w").write(doc)
PY

test_expect_success 'an event nested 1M levels deep: exit 1, where and why' '
	python3 deep.py deep.json 1000000 &&
	test_must_fail tl-cat deep.json >out 2>err &&
	off=$(python3 -c "d = open(\"deep.json\").read(); print(d.index(\"[\" * 1000))") &&
	off=$((off + 998)) &&
	echo "tl-cat: deep.json: byte $off: event 0: nested deeper than 1000 levels" >expect &&
	test_cmp expect err
'

test_expect_success '-k skips and counts it, and reads the next event' '
	test_must_fail tl-cat -k deep.json >out 2>err &&
	grep -q "nested deeper than 1000 levels" err &&
	grep -q "^#end	0	2	1$" out &&
	test $(grep -c "	cpu_op	" out) = 1 &&
	grep -q "	cpu_op	b	" out
'

test_expect_success 'a top-level value nested too deep is refused too' '
	python3 deep.py top.json 5000 deviceProperties &&
	test_must_fail tl-cat top.json >out 2>err &&
	grep -q "in \"deviceProperties\": nested deeper than 1000 levels" err
'

test_expect_success '1000 levels (event, args and 998 arrays) are read exactly' '
	python3 deep.py ok.json 998 &&
	tl-cat ok.json >out &&
	python3 -c "print(\"{\\\"x\\\":\" + \"[\" * 998 + \"]\" * 998 + \"}\")" >expect &&
	awk -F "\t" "\$5 == \"a\" { print \$20 }" out >args &&
	test_cmp expect args &&
	python3 deep.py over.json 999 &&
	test_must_fail tl-cat over.json >out 2>err &&
	grep -q "nested deeper than 1000 levels" err
'

test_expect_success 'events 990 deep cost about what flat events of their size cost' '
	python3 - <<-\PY &&
	d = 990
	head = "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"x\":"
	nest = head + "[" * d + "]" * d + "}}"
	flat = head + "[" + ",".join(["[]"] * (d - 1)) + "]}}"
	for name, ev in (("nest", nest), ("flat", flat)):
	    open(name + ".json", "w").write("{\"traceEvents\":[" + ",".join([ev] * 3000) + "]}")
	PY
	nest=$(python3 "$TL_SRC/tests/tools/cputime.py" tl-cat nest.json) &&
	flat=$(python3 "$TL_SRC/tests/tools/cputime.py" tl-cat flat.json) &&
	echo "# CPU s: nested $nest, flat $flat" &&
	python3 -c "import sys; sys.exit(not $nest < 3 * $flat + 0.05)"
'
test_done
