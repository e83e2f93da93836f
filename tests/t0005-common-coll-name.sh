#!/bin/sh
# TraceLens's communication-name test (common/coll_name.c), in C:
# tests/unit/test-coll-name.c.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'communication-name unit tests pass' '
	"$TL_UNIT/test-coll-name" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null
test_done
