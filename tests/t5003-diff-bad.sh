#!/bin/sh
# tl-diff usage and bad input: usage errors exit 2, bad inputs exit 1 with
# a message, never a crash.
. "$TL_SRC/tests/lib.sh"
B=$TEST_DIR

test_expect_success '-h prints the usage to stdout, exit 0' '
	tl-diff -h >out && grep "^usage: tl-diff" out
'
test_expect_code 2 'one operand is a usage error' 'tl-diff a.nodes'
test_expect_code 2 'an unknown option is a usage error' 'tl-diff --frobnicate a b'
test_expect_code 2 'a bad -n is a usage error' 'tl-diff -n x a b'
test_expect_code 2 'both operands on standard input is a usage error' 'tl-diff - - </dev/null'
test_expect_success 'a missing file: exit 1 and a message' '
	test_must_fail tl-diff nosuch.nodes "$B/ok.nodes" 2>err && grep "nosuch.nodes" err
'
test_expect_success 'a node stream with a parent loop: exit 1' '
	test_must_fail tl-diff "$B/loop.nodes" "$B/ok.nodes" 2>err && grep "loop" err
'
test_expect_success 'a parent that is not in the stream: exit 1' '
	test_must_fail tl-diff "$B/ok.nodes" "$B/orphan.nodes" 2>err && grep "not in the stream" err
'
test_expect_success 'a node stream cut short (#source without #end): exit 1' '
	test_must_fail tl-diff "$B/ok.nodes" "$B/cut.nodes" 2>err && grep "cut short" err
'
test_expect_success 'the same stream complete is fine' '
	{ cat "$B/cut.nodes"; printf "#end\t0\t2\t0\n"; } >whole.nodes &&
	tl-diff -p "$B/ok.nodes" whole.nodes >tree && test -s tree
'
test_expect_success 'an event stream is not a node stream: exit 1' '
	test_must_fail tl-diff "$B/events.tsv" "$B/ok.nodes" 2>err && test -s err
'
test_expect_success 'a trace that is not JSON: exit 1' '
	printf "not json\n" >bad.json &&
	test_must_fail tl-diff bad.json "$B/ok.nodes" 2>err && test -s err
'
test_expect_success 'trees without GPU work: merged tree only, exit 0' '
	tl-diff -o rep "$B/ok.nodes" "$B/ok.nodes" 2>err &&
	test -f rep/merged_tree_output.txt && test ! -f rep/diff_stats.csv &&
	grep "not written" err
'
test_expect_success 'an output path that is a file: exit 1' '
	: >file && test_must_fail tl-diff -o file "$B/ok.nodes" "$B/ok.nodes" 2>err &&
	grep "cannot create directory" err
'
test_done
