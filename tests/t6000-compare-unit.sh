#!/bin/sh
# Unit tests of the CSV reader and pandas-like frames (tests/unit/test-csv.c).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'csv reader and frame unit tests pass' '
	"$TL_UNIT/test-csv" >unit.tap 2>unit.err &&
	! grep "^not ok" unit.tap &&
	grep -q "^1\.\." unit.tap
'
sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null
test_expect_success 'each rejected CSV names file and line' '
	grep -q "^test-csv: t.csv:2: expected 2 fields, saw 3$" unit.err &&
	grep -q "^test-csv: t.csv:2: unterminated quoted field$" unit.err &&
	grep -q "^test-csv: t.csv:2: invalid UTF-8$" unit.err &&
	grep -q "^test-csv: t.csv:4: invalid UTF-8$" unit.err &&
	grep -c "^test-csv: t.csv:2: unterminated quoted field$" unit.err >n &&
	test "$(cat n)" -eq 2
'
test_done
