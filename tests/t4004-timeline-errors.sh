#!/bin/sh
# Bad input and usage: clear messages, exit 1 for bad input, 2 for usage.
. "$TL_SRC/tests/lib.sh"
. "$TL_SRC/tests/t4001-timeline-link.d/events.sh"

test_expect_success 'no GPU events: a message and exit 1' '
	{ ev_header; ev 0 X cpu_op aten::mm 1 1 0 10 - - - -; } >nogpu.tsv &&
	test_must_fail tl-timeline nogpu.tsv >out 2>err &&
	echo "tl-timeline: nogpu.tsv: no GPU events found in the trace" >want &&
	test_cmp want err && ! test -s out
'

test_expect_success 'only unlinked GPU events: the message names --all-gpu' '
	{ ev_header; ev 0 X kernel k 0 7 0 10 - 5 - 7; } >unlinked.tsv &&
	test_must_fail tl-timeline --csv <unlinked.tsv >out 2>err &&
	grep "^tl-timeline: -: no GPU events found in the trace (1 GPU events are not linked to a launch; --all-gpu counts them)$" err &&
	! test -s out
'

test_expect_success 'an empty or foreign input is refused' '
	: >empty &&
	test_must_fail tl-timeline empty 2>err && grep "not a tl stream" err &&
	printf "{\"traceEvents\": []}\n" >trace.json &&
	test_must_fail tl-timeline trace.json 2>err && grep "not a tl stream" err
'

test_expect_success 'a stream without ts is refused' '
	printf "#tl-events 1\nuid\tcat\tname\tdur\n" >nots.tsv &&
	test_must_fail tl-timeline nots.tsv 2>err &&
	grep "^tl-timeline: nots.tsv:2: no column .ts.$" err
'

test_expect_success 'a node stream without tree is refused' '
	printf "#tl-nodes 1\nuid\tcat\tname\tts\tdur\n" >notree.tsv &&
	test_must_fail tl-timeline notree.tsv 2>err && grep "tree" err
'

test_expect_success 'a GPU event without a numeric ts: message, exit 1, rest counted' '
	{
		ev_header
		ev 0 X kernel k 0 7 abc 10 - - - 7
		ev 1 X kernel k 0 7 0 10 - - - 7
	} >badts.tsv &&
	test_must_fail tl-timeline --all-gpu --csv badts.tsv >out 2>err &&
	grep "^tl-timeline: badts.tsv:3: GPU event with no numeric ts or dur: not counted$" err &&
	grep "^total_time,0.01,100.0$" out
'

test_expect_success 'a source cut short (no #end) is reported' '
	{
		ev_header
		printf "#source\t0\tt.json\n"
		ev 0 X kernel k 0 7 0 10 - - - 7
	} >cut.tsv &&
	test_must_fail tl-timeline --all-gpu cut.tsv >out 2>err &&
	grep "t.json: the stream ends before the source.s #end line" err
'

test_expect_success 'a missing file: exit 1 with the system message' '
	test_must_fail tl-timeline no-such-file 2>err &&
	grep "^tl-timeline: no-such-file: No such file or directory$" err
'

test_expect_code 2 'an unknown option is a usage error' 'tl-timeline --bogus'
test_expect_code 2 'two inputs are a usage error' 'tl-timeline nogpu.tsv nogpu.tsv'
test_expect_code 2 '--micro-idle takes a non-negative number' 'tl-timeline --micro-idle -1 nogpu.tsv'
test_expect_code 2 '--micro-idle needs a number' 'tl-timeline --micro-idle x nogpu.tsv'

test_expect_success '-h prints the synopsis to stdout' '
	tl-timeline -h >out 2>err &&
	grep "^usage: tl-timeline \[-hv\]" out && ! test -s err
'
test_done
