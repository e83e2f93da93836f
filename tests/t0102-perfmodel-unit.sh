#!/bin/sh
# Perf-model kinds on hand-computed cases (tests/unit/test-perf_model.c).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'perf_model unit tests pass' '
	"$TL_UNIT/test-perfmodel" "$TL_SRC" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p;/^#  /p' unit.tap 2>/dev/null
test_done
