#!/bin/sh
# Messages (common/err.c) as tl-report's programs meet them: several
# processes writing to one stderr.  Each message is put together and
# written at once; written in pieces ("tl-cat: ", the text, ": reason",
# the newline) two of them came out spliced, and the one tl-report's test
# (t9010) looks for no longer began its line.  150 processes at once, five
# times: every line must be one whole message (the old writes spliced
# about 2 % of them here).
. "$TL_SRC/tests/lib.sh"

test_expect_success '750 messages from 150 processes at a time: every line whole' '
	: >err &&
	for round in 1 2 3 4 5; do
		i=0
		while [ $i -lt 150 ]; do
			tl-cat "missing-$i.json" >/dev/null 2>>err &
			i=$((i + 1))
		done
		wait
	done &&
	test "$(wc -l <err)" -eq 750 &&
	! grep -v "^tl-cat: missing-[0-9]*\.json: cannot open: No such file or directory\$" err
'

test_expect_success 'a message longer than the line buffer: whole, escaped, one line' '
	long=$(printf "%05000d" 0) &&
	test_must_fail tl-cat "$long$(printf "\\033")x.json" >/dev/null 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^tl-cat: ${long}\\\\x1bx\\.json: cannot open: " err
'
test_done
