#!/bin/sh
# A compressed stream (gzip, an archive member) is scanned in the ring of
# blocks it is inflated into, mapped twice in a row so that it never
# wraps (cat_input_view, issue 12), instead of each byte being copied
# into tl-cat's own buffer.  An element longer than the ring holds goes
# on by copying.  The bytes out, the messages and the exit status must be
# those of the copying reader, which a block size that is not a multiple
# of the page asks for (TL_CAT_PUMP_BLOCK, a test's knob: no mirror can
# be mapped then): small blocks, so that the ring wraps round many times
# and elements outgrow it (sixteen blocks of 4 KiB: 64 KiB), and the
# default 512 KiB ones (8 MiB).
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'tl-cat gzip in place' 'python3 is not installed (it writes the inputs)'
fi

# both FILE [BLOCK]: tl-cat - <FILE in the mirrored ring (blocks of BLOCK
# bytes, default 512 KiB) and copied (blocks of a page and one byte), each
# with its exit status and messages.
both() {
	blk=${2:-524288}
	TL_CAT_PUMP_BLOCK=$blk tl-cat - <"$1" >ring.out 2>ring.err
	echo "exit $?" >>ring.err
	TL_CAT_PUMP_BLOCK=$((blk + 1)) tl-cat - <"$1" >copy.out 2>copy.err
	echo "exit $?" >>copy.err
	test_cmp copy.out ring.out && test_cmp copy.err ring.err
}

# gen FILE SIZE [BIG]: a trace of small events padded with blanks to
# exactly SIZE bytes (tests/tools/padded-trace.py).
gen() { python3 "$TL_SRC/tests/tools/padded-trace.py" "$@"; }

test_expect_success 'the same rows as the plain file, not said to be read in place' '
	gen p.json 300000 &&
	gzip -c p.json >p.json.gz &&
	tl-cat - <p.json >plain.out &&
	tl-cat -v - <p.json.gz >gz.out 2>gz.err &&
	test_cmp plain.out gz.out &&
	grep -q "^tl-cat: -: [0-9]* events read, [0-9]* written, 0 skipped; gzip inflated with [a-z-]*$" gz.err
'

test_expect_success 'streams ending at, before and after a block boundary, the ring wrapping' '
	for size in 4095 4096 4097 8192 16383 16384 16385 65537 300000; do
		gen s.json $size &&
		gzip -c s.json >s.json.gz &&
		both s.json.gz 4096 || { echo "# size $size"; return 1; }
		grep -q "^#end	" ring.out || return 1
	done
'

test_expect_success 'elements longer than the ring go on by copying' '
	gen b.json 1600000 80000 &&
	gzip -c b.json >b.json.gz &&
	both b.json.gz 4096 &&
	tl-cat - <b.json >plain.out &&
	test_cmp plain.out ring.out &&
	test $(grep -c "yyyyyyyyyy" ring.out) -ge 10
'

test_expect_success 'an event and a top-level value larger than the default ring' '
	python3 -c "
big = \"x\" * (9 << 20)
top = \"[\" + \",\".join([\"1234567\"] * (3 << 19)) + \"]\"
doc = (\"{\\\"meta\\\":%s,\\\"traceEvents\\\":[{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"a\\\"},\"
       \"{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"b\\\",\\\"args\\\":{\\\"s\\\":\\\"%s\\\"}},\"
       \"{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"c\\\"}]}\") % (top, big)
open(\"big.json\", \"w\").write(doc)
" &&
	gzip -c big.json >big.json.gz &&
	both big.json.gz &&
	grep -q "^#end	0	3	0$" ring.out &&
	tl-cat - <big.json >plain.out &&
	test_cmp plain.out ring.out
'

test_expect_success 'truncated JSON and truncated gzip data: the same message, the same byte' '
	gen t.json 50000 &&
	head -c 30000 t.json | gzip -c >cutjson.json.gz &&
	both cutjson.json.gz 4096 &&
	grep -q "byte 30000: truncated JSON" ring.err &&
	gzip -c t.json >t.json.gz &&
	head -c 2000 t.json.gz >cutgz.json.gz &&
	both cutgz.json.gz &&
	grep -q "^tl-cat: -: byte [0-9]*: truncated gzip data$" ring.err &&
	grep -q "^exit 1$" ring.err &&
	test $(grep -c "^[0-9]" ring.out) -gt 10
'

test_expect_success 'gzip members one after another, and archive members, in the ring' '
	gen a.json 30000 &&
	head -c 15000 a.json | gzip -c >m.json.gz &&
	tail -c +15001 a.json | gzip -c >>m.json.gz &&
	both m.json.gz 4096 &&
	tl-cat - <a.json >plain.out &&
	test_cmp plain.out ring.out &&
	gen b.json 70000 &&
	gzip -c b.json >b.json.gz &&
	tar -cf ab.tar a.json b.json.gz &&
	gzip -c ab.tar >ab.tar.gz &&
	both ab.tar.gz 4096 &&
	test $(grep -c "^#end	" ring.out) = 2
'

if have_shared; then
	test_expect_success 'corpus traces: in the ring and copied, byte for byte' '
		n=0 &&
		for gz in "$SHARED"/corpus/*/trace.json.gz; do
			both "$gz" || { echo "# $gz"; return 1; }
			n=$((n + 1))
			test $n -lt 4 || break
		done &&
		test $n = 4
	'
else
	test_skip 'corpus traces: in the ring and copied' '../shared/corpus is absent'
fi

test_done
