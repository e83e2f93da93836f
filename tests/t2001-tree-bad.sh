#!/bin/sh
# tl-tree on bad input: a clear "tl-tree: FILE:LINE: what" and exit 1;
# usage errors exit 2; -h prints the usage and exits 0.
. "$TL_SRC/tests/lib.sh"
D=$TEST_DIR
R=$TL_SRC/tests/t2000-tree-rules.d

# bad_case FILE MESSAGE: exit 1, MESSAGE on stderr, never a crash
bad_case() {
	test_expect_success "bad input $1" "
		test_must_fail tl-tree \"$D/$1\" >out 2>err &&
		grep -F \"tl-tree: $D/$1:$2\" err
	"
}
bad_case notstream.ev "1: not a tl stream"
bad_case version.ev "1: unsupported stream 'tl-events 7'"
bad_case nocol.ev "2: no column 'cat' in the header"
bad_case fields.ev "3: wrong number of fields"
bad_case uid.ev "3: bad uid 'abc'"
bad_case order.ev "6: uid 0 out of order"
test_expect_success 'a missing file' '
	test_must_fail tl-tree nosuch.ev 2>err &&
	grep "^tl-tree: nosuch.ev: No such file" err
'
test_expect_success 'views report bad input too' '
	test_must_fail tl-tree --print "$D/order.ev" 2>err &&
	grep "order.ev:6: uid 0 out of order" err
'
test_expect_success 'a host event without ts is left out, and counted' '
	tl-tree "$D/nots.ev" >out 2>err &&
	grep "src 0: 1 host events without numeric ts and dur left out of the tree" err &&
	grep "^0	" out | cut -f22-27 >got &&
	printf "\t\t0\t0\t0\t\n" >want && test_cmp want got
'
test_expect_success 'a uid that is no node' '
	test_must_fail tl-tree --up 13 "$R/rules.ev" 2>err &&
	grep "no tree node with uid .13." err &&
	test_must_fail tl-tree --print --root x "$R/rules.ev" 2>err &&
	test_must_fail tl-tree --print --ext 7,1,2 "$R/extid.ev" 2>err &&
	grep "no event with External id, pid, tid .7,1,2." err
'
test_expect_code 2 'unknown option' 'tl-tree --bogus <"$R/rules.ev"'
test_expect_code 2 '--root without --print' 'tl-tree --root 1 "$R/rules.ev"'
test_expect_code 2 '--print with --up' 'tl-tree --print --up 1 "$R/rules.ev"'
test_expect_code 2 'two files' 'tl-tree "$R/rules.ev" "$R/rules.ev"'
test_expect_code 2 'bad --depth' 'tl-tree --print --depth x "$R/rules.ev"'
test_expect_success '-h prints the synopsis' '
	tl-tree -h >out && grep "^usage: tl-tree \[-v\] \[--python\] \[FILE\]" out
'
test_expect_success 'reads standard input' '
	tl-tree <"$R/rules.ev" >out && tl-tree "$R/rules.ev" >want && test_cmp want out
'
test_done
