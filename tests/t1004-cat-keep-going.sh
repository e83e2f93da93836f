#!/bin/sh
# --keep-going: a malformed element whose extent is sound is reported on
# stderr, counted in #end's SKIPPED and -v's line, keeps its uid, and the
# rest is read; exit status 1.  Without it the source stops there.
# Offsets were checked with python3 (str.index of each bad element).
. "$TL_SRC/tests/lib.sh"

printf '{"traceEvents": [{"ph":"X","name":"a"}, 5, {"ph":"X","name":"b\tc"},\n {"ts": 1.2.3}, {"ph":"X","name":"d"}, [1]]}' >kg.json

test_expect_success 'skipped elements are counted and keep their uids' '
	test_must_fail tl-cat -k -v kg.json >out 2>err &&
	grep "^[0-9]" out | cut -f1,5 >rows &&
	printf "0\ta\n4\td\n" >want && test_cmp want rows &&
	grep -qx "#end	0	6	4" out &&
	grep -qx "tl-cat: kg.json: byte 40: event 1: event is not an object" err &&
	grep -qx "tl-cat: kg.json: byte 62: event 2: control character in string" err &&
	grep -qx "tl-cat: kg.json: byte 76: event 3: invalid number or literal" err &&
	grep -qx "tl-cat: kg.json: byte 107: event 5: event is not an object" err &&
	grep -qx "tl-cat: kg.json: 6 events read, 2 written, 4 skipped; read in place" err
'

test_expect_success 'without -k the source stops at the first bad element' '
	test_must_fail tl-cat kg.json >out 2>err &&
	test "$(grep -c "^[0-9]" out)" = 1 && ! grep -q "^#end" out &&
	test "$(wc -l <err)" = 1
'

test_expect_success '--keep-going in ndjson: skipped count in the end line' '
	test_must_fail tl-cat --keep-going --ndjson kg.json >out 2>/dev/null &&
	grep -qx "{\"src\":0,\"end\":6,\"skipped\":4}" out
'
test_done
