#!/bin/sh
# A plain .json file (or stdin redirected from one) is scanned where it
# lies, mapped a few MB at a time, instead of read into a buffer
# (cat_input_view, issue 12).  Whatever the file, the bytes out and the
# messages must be those of the same file read from a pipe, which still
# goes through read(): at page boundaries, for elements larger than a
# view, at the file's end, from an offset, and when the file shrinks
# while it is read.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'tl-cat in place' 'python3 is not installed (it writes the inputs)'
fi

# both NAME: tl-cat of NAME in place and through a pipe, each with its
# exit status and messages, the same "-" source name for both.
both() {
	tl-cat - <"$1" >view.out 2>view.err
	echo "exit $?" >>view.err
	cat "$1" | tl-cat - >pipe.out 2>pipe.err
	echo "exit $?" >>pipe.err
	test_cmp pipe.out view.out && test_cmp pipe.err view.err
}

# gen FILE SIZE [BIG]: a trace of small events padded with blanks to
# exactly SIZE bytes (tests/tools/padded-trace.py).
gen() { python3 "$TL_SRC/tests/tools/padded-trace.py" "$@"; }

test_expect_success 'a file is read in place, a pipe is not (-v says which)' '
	gen p.json 5000 &&
	tl-cat -v p.json >out 2>err &&
	grep -q "^tl-cat: p.json: .* skipped; read in place$" err &&
	tl-cat -v - <p.json >out 2>err &&
	grep -q "^tl-cat: -: .* skipped; read in place$" err &&
	cat p.json | tl-cat -v >out 2>err &&
	grep -q "^tl-cat: -: [0-9]* events read, [0-9]* written, 0 skipped$" err &&
	gzip -c p.json >p.json.gz &&
	tl-cat -v p.json.gz >out 2>err &&
	! grep -q "in place" err
'

test_expect_success 'files ending at, before and after a page boundary' '
	for size in 4095 4096 4097 12288 65536 1048576 4194304 4194305; do
		gen p.json $size &&
		both p.json || { echo "# size $size"; return 1; }
		grep -q "^#end	" view.out || return 1
	done
'

test_expect_success 'an event larger than a view, a top-level value larger than two' '
	python3 -c "
import sys
big = \"x\" * (5 << 20)
top = \"[\" + \",\".join([\"1234567\"] * (3 << 20)) + \"]\"
doc = (\"{\\\"meta\\\":%s,\\\"traceEvents\\\":[{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"a\\\"},\"
       \"{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"b\\\",\\\"args\\\":{\\\"s\\\":\\\"%s\\\"}},\"
       \"{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"c\\\"}]}\") % (top, big)
open(\"big.json\", \"w\").write(doc)
" &&
	test $(wc -c <big.json) -gt $((28 << 20)) &&
	both big.json &&
	grep -q "^#end	0	3	0$" view.out &&
	test $(grep -c "^[0-9]" view.out) = 3
'

test_expect_success 'truncated at a page boundary: the same message, the same byte' '
	gen t.json 16384 &&
	head -c 12288 t.json >cut.json &&
	both cut.json &&
	grep -q "byte 12288: truncated JSON" view.err
'

test_expect_success 'an empty file (read, not mapped) and a file of blanks: the same messages' '
	: >empty.json &&
	both empty.json &&
	grep -q "empty input" view.err &&
	test_must_fail tl-cat -v empty.json >out 2>err &&
	grep -qx "tl-cat: empty.json: 0 events read, 0 written, 0 skipped" err &&
	printf "   \n\n" >blank.json &&
	both blank.json
'

test_expect_success 'stdin from a file at an offset: read from there, offsets from there' '
	gen p.json 100000 &&
	{ printf "XXXXXXX"; cat p.json; } >prefixed.json &&
	(dd bs=1 count=7 of=/dev/null status=none; tl-cat -) <prefixed.json >off.out 2>off.err &&
	tl-cat - <p.json >p.out &&
	test_cmp p.out off.out &&
	test ! -s off.err &&
	head -c 50007 prefixed.json >cutoff.json &&
	test_must_fail sh -c "(dd bs=1 count=7 of=/dev/null status=none; tl-cat -) <cutoff.json" 2>off.err &&
	grep -q "^tl-cat: -: byte 50000: " off.err
'

test_expect_success 'a file that shrinks while it is read: exit 1, where and why' '
	gen shrink.json 60000000 &&
	rm -f fifo &&
	mkfifo fifo || return 1
	{ tl-cat shrink.json >fifo 2>shrink.err; echo $? >rc; } &
	exec 3<fifo &&
	head -n 1 <&3 >/dev/null &&
	: >shrink.json &&
	cat <&3 >/dev/null &&
	exec 3<&- &&
	wait &&
	test "$(cat rc)" = 1 &&
	grep -q "^tl-cat: shrink.json: byte [0-9]*: read error: the file shrank, or its device failed, while it was read$" shrink.err
'

test_expect_success 'the committed fuzzing inputs: the same bytes, messages and status' '
	n=0 &&
	for f in "$TL_SRC"/tests/fuzz/corpus/cat/*; do
		both "$f" || { echo "# $f"; return 1; }
		n=$((n + 1))
	done &&
	test $n -ge 20
'

if have_shared; then
	test_expect_success 'corpus traces: in place and through a pipe, byte for byte' '
		n=0 &&
		for gz in "$SHARED"/corpus/*/trace.json.gz; do
			gzip -dc "$gz" >c.json &&
			both c.json || { echo "# $gz"; return 1; }
			n=$((n + 1))
			test $n -lt 4 || break
		done &&
		test $n = 4
	'
else
	test_skip 'corpus traces: in place and through a pipe' '../shared/corpus is absent'
fi

test_done
