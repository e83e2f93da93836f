#!/bin/sh
# The tl-stream(5) reader (common/stream.c), in C: tests/unit/test-stream.c.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'stream reader unit tests pass' '
	"$TL_UNIT/test-stream" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null
test_done
