#!/bin/sh
# tl-compare on bad input: missing folders, malformed CSV, mismatched
# headers, a sheet one side lacks, and usage errors.
. "$TL_SRC/tests/lib.sh"

D=$TEST_DIR

test_expect_success 'missing report folder: exit 1, named' '
	test_must_fail tl-compare "$D/good" "$D/nonexistent" -o out 2>err &&
	grep -q "^tl-compare: $D/nonexistent: No such file or directory$" err
'

test_expect_success 'a file is not a report folder' '
	test_must_fail tl-compare "$D/good" "$D/good/gpu_timeline.csv" -o out 2>err &&
	grep -q "gpu_timeline.csv: not a directory$" err
'

test_expect_success 'unterminated quote: FILE:LINE, sheet not written' '
	test_must_fail tl-compare "$D/good" "$D/badquote" -o out 2>err &&
	grep -q "^tl-compare: $D/badquote/gpu_timeline.csv:3: unterminated quoted field$" err &&
	test ! -f out/gpu_timeline.csv
'

test_expect_success 'record with an extra field: FILE:LINE' '
	test_must_fail tl-compare "$D/badcount" "$D/good" -o out 2>err &&
	grep -q "^tl-compare: $D/badcount/gpu_timeline.csv:3: expected 3 fields, saw 4$" err
'

test_expect_success 'header without the key column' '
	test_must_fail tl-compare "$D/good" "$D/nokey" -o out 2>err &&
	grep -q "^tl-compare: $D/nokey/gpu_timeline.csv: no key column .type.$" err
'

test_expect_success 'text in a column to be diffed' '
	test_must_fail tl-compare "$D/good" "$D/notnum" -o out 2>err &&
	grep -q "^tl-compare: $D/notnum/gpu_timeline.csv: column .time ms. is not numeric$" err
'

test_expect_success 'variant lacks a sheet: said, skipped, the others written' '
	test_must_fail tl-compare "$D/good" "$D/nosheet" \
		--sheets gpu_timeline,ops_summary -o out5 2>err &&
	grep -q "^tl-compare: $D/nosheet: no ops_summary.csv, ops_summary not compared$" err &&
	test -f out5/gpu_timeline.csv && test ! -f out5/ops_summary.csv
'

test_expect_success 'baseline lacks a sheet asked for by name: exit 1' '
	test_must_fail tl-compare "$D/nosheet" "$D/good" --sheets ops_summary -o out6 2>err &&
	grep -q "^tl-compare: $D/nosheet: no ops_summary.csv$" err
'

test_expect_success 'baseline lacks a sheet under all: a note, exit 0' '
	tl-compare "$D/nosheet" "$D/good" -o out7 2>err &&
	grep -q "no ops_summary.csv, ops_summary not compared$" err &&
	test -f out7/gpu_timeline.csv
'

test_expect_code 2 'one report is a usage error' '
	tl-compare "$D/good" -o out
'
test_expect_code 2 'no -o is a usage error' '
	tl-compare "$D/good" "$D/nosheet"
'
test_expect_code 2 '--names count must match' '
	tl-compare "$D/good" "$D/nosheet" --names a -o out
'
test_expect_code 2 'names must be unique' '
	tl-compare "$D/good" "$D/good/" -o out
'
test_expect_code 2 'a name with a slash would name a file elsewhere' '
	tl-compare "$D/good" "$D/nosheet" --names a,b/c -o out
'
test_expect_code 2 'an empty name' '
	tl-compare "$D/good" "$D/nosheet" --names a, -o out
'
test_expect_code 2 'unknown sheet group' '
	tl-compare "$D/good" "$D/nosheet" --sheets gpu_timline -o out
'

test_expect_success '-h prints the synopsis to stdout' '
	tl-compare -h >out.h 2>err &&
	test ! -s err &&
	grep -q "^usage: tl-compare BASE_DIR VARIANT_DIR\.\.\. \[--names NAME,\.\.\.\] \[--sheets SHEET,\.\.\.\] -o DIR$" out.h
'

test_expect_success 'unwritable output folder: exit 1' '
	: >afile &&
	test_must_fail tl-compare "$D/good" "$D/nosheet" -o afile/sub 2>err &&
	grep -q "^tl-compare: afile/sub: Not a directory$" err
'

test_done
