#!/bin/sh
# num_strtod() (common/num_parse.c) gives the double strtod(3) gives, bit
# for bit, and stops where it stops: edge cases and 200000 generated
# decimals; num_u64() reads digit runs as strtoul, and num_strtou64() and
# num_strtoi64() any text as strtoull and strtoll (tests/unit/test-numparse.c).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'num_strtod reads decimals exactly as strtod' '
	"$TL_UNIT/test-numparse" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p;/^# /p' unit.tap 2>/dev/null | head -24
test_done
