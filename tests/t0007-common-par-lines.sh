#!/bin/sh
# common/par_lines (tl-tree's node rows made in two threads, written in
# order) through its C interface: tests/unit/test-par-lines.c.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'par_lines unit tests pass' '
	"$TL_UNIT/test-par-lines" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null
test_done
