#!/bin/sh
# Iteration-annotation labels → chunk stats (tests/unit/test-perf_annot.c).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'annotation parser unit tests pass' '
	"$TL_UNIT/test-annot" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p;/^#  /p' unit.tap 2>/dev/null
test_done
