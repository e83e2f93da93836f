#!/bin/sh
# py_float_repr() writes every double as Python's repr() does (its fast
# path for few-decimal values included): 6014 doubles and their repr()
# from Python 3, made by t1235-common-pyfloat.gen.py; and random doubles
# of seven kinds against the definition of the shortest digits.
. "$TL_SRC/tests/lib.sh"

test_expect_success 'py_float_repr matches Python repr() on 6014 doubles' '
	"$TL_UNIT/test-pyfloat" "$TL_SRC/tests/t1235-common-pyfloat.tsv" >unit.tap &&
	! grep "^not ok" unit.tap
'
test_expect_success 'py_float_repr has the defined digits of 10 x 30000 random doubles' '
	"$TL_UNIT/test-pyfloat" --random 30000 >random.tap &&
	! grep "^not ok" random.tap
'
sed -n 's/^not ok/# not ok/p;s/^#   got/#   got/p' random.tap 2>/dev/null | head -20
sed -n 's/^not ok/# not ok/p;s/^#   got/#   got/p' unit.tap 2>/dev/null | head -20
test_done
