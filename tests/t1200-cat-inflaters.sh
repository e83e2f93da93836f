#!/bin/sh
# The two inflaters (common/cat_inflate.c): ISA-L where the build has it,
# zlib always (TL_INFLATE=zlib).  Same bytes out for every corpus trace and
# for multi-member and zero-padded gzip; the same errors for damaged data
# (a truncated file may stop a partial symbol earlier with ISA-L).
. "$TL_SRC/tests/lib.sh"
B=$TL_SRC/tests/bad

printf '[]' >e.json && gzip -c e.json >e.json.gz &&
tl-cat -v e.json.gz >/dev/null 2>v.err
inflater=$(sed -n 's/.*gzip inflated with //p' v.err)
case $inflater in
isa-l|zlib) ;;
*) echo "# tl-cat -v did not name its inflater: $(cat v.err)"; inflater=unknown ;;
esac
echo "# this build inflates with $inflater"

test_expect_success 'TL_INFLATE=zlib picks zlib' '
	TL_INFLATE=zlib tl-cat -v e.json.gz >/dev/null 2>err &&
	grep -q "gzip inflated with zlib\$" err
'

# both FILE: tl-cat's output and status with the build's inflater and zlib
both() {
	tl-cat "$1" >a.out 2>a.err; echo $? >>a.out
	TL_INFLATE=zlib tl-cat "$1" >z.out 2>z.err; echo $? >>z.out
}

if [ "$inflater" != isa-l ]; then
	test_skip 'ISA-L and zlib give the same bytes' 'this build has no ISA-L (libisal-dev not installed, or ISAL=0)'
else
	if have_shared; then
		for f in "$SHARED"/corpus/*/*.json.gz "$SHARED"/corpus/*/ranks/rank0.json.gz; do
			[ -f "$f" ] || continue
			rel=${f#"$SHARED/corpus/"}
			test_expect_success "$rel: same event stream" '
				both "$f" && test_cmp z.out a.out && test_cmp z.err a.err
			'
		done
	else
		test_skip 'corpus traces: same event stream' '../shared/corpus is absent'
	fi

	test_expect_success 'several gzip members with zero padding between' '
		printf "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\"}," | gzip >m.gz &&
		head -c 100 /dev/zero >>m.gz &&
		printf "{\"ph\":\"X\",\"name\":\"b\"}]}" | gzip >>m.gz &&
		both m.gz && test_cmp z.out a.out && test_cmp z.err a.err &&
		grep -c "	X	" a.out >n && echo 2 >want && test_cmp want n
	'

	test_expect_success 'a damaged CRC: the same message' '
		printf "{\"traceEvents\":[]}" | gzip >crc.gz &&
		n=$(wc -c <crc.gz) &&
		printf "\\377" | dd of=crc.gz bs=1 seek=$((n - 8)) conv=notrunc 2>/dev/null &&
		both crc.gz && test_cmp z.err a.err && grep -q "incorrect data check" a.err
	'

	test_expect_success 'a damaged length: the same message' '
		printf "{\"traceEvents\":[]}" | gzip >len.gz &&
		n=$(wc -c <len.gz) &&
		printf "\\377" | dd of=len.gz bs=1 seek=$((n - 1)) conv=notrunc 2>/dev/null &&
		both len.gz && test_must_fail tl-cat len.gz 2>/dev/null &&
		test_must_fail env TL_INFLATE=zlib tl-cat len.gz 2>/dev/null
	'

	test_expect_success 'a damaged deflate block: both refuse it' '
		printf "{\"traceEvents\":[]}" | gzip >blk.gz &&
		printf "\\377\\377\\377" | dd of=blk.gz bs=1 seek=10 conv=notrunc 2>/dev/null &&
		test_must_fail tl-cat blk.gz 2>a.err &&
		test_must_fail env TL_INFLATE=zlib tl-cat blk.gz 2>z.err &&
		grep -q "gzip data error" a.err && grep -q "gzip data error" z.err
	'

	test_expect_success 'trailing garbage after gzip data: the same message' '
		printf "[]" | gzip >g.gz && printf "junk" >>g.gz &&
		both g.gz && test_cmp z.out a.out && test_cmp z.err a.err
	'

	test_expect_success 'a truncated file: same rows, offset at most 64 bytes earlier' '
		both "$B/truncated.json.gz" && grep -v "^[0-9]*\$" z.out >z.rows &&
		grep -v "^[0-9]*\$" a.out >a.rows && test_cmp z.rows a.rows &&
		zo=$(sed -n "s/.*byte \\([0-9]*\\): truncated gzip data/\\1/p" z.err) &&
		ao=$(sed -n "s/.*byte \\([0-9]*\\): truncated gzip data/\\1/p" a.err) &&
		test -n "$ao" && test "$ao" -le "$zo" && test $((zo - ao)) -le 64
	'
fi
test_done
