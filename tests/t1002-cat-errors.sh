#!/bin/sh
# Bad input: every case exits 1 (not a crash, not a usage error) with the
# message "tl-cat: FILE: byte OFFSET: what" (offsets count bytes of the
# decompressed JSON from 0, worked out by hand for each file in tests/bad/).
# A bad file does not stop the others (good, bad, good).
. "$TL_SRC/tests/lib.sh"
B=$TL_SRC/tests/bad

# The offset of a truncated gzip file is where inflating stopped: zlib
# gives out every byte the cut-off data encodes, ISA-L may keep the last
# partial symbol back.  The table is zlib's; t1200 checks ISA-L against it.
TL_INFLATE=zlib
export TL_INFLATE

# file | the whole of stderr
while IFS='|' read -r f msg; do
	[ -n "$f" ] || continue
	test_expect_success "$f: exit 1, \"$msg\"" '
		cd "$B" && test_must_fail tl-cat "$f" >"$TRASH/out" 2>"$TRASH/err"; rc=$?
		cd "$TRASH" && echo "tl-cat: $f: $msg" >want && test $rc = 0 && test_cmp want err
	'
done <<'EOF_TABLE'
empty.json|byte 0: empty input
notjson.json|byte 0: not a JSON object or array
truncated.json|byte 58: truncated JSON: unexpected end of input
truncated.json.gz|byte 179234: truncated gzip data
notobject.json|byte 30: event 1: event is not an object
noevents.json|byte 43: no traceEvents array in the top-level object
ctlchar.json|byte 28: event 0: control character in string
badnumber.json|byte 24: event 0: invalid number or literal
nocolon.json|byte 28: event 0: expected ',' between values
trailing.json|byte 31: trailing data after the JSON document
empty.zip|archive holds no *.json or *.json.gz member
bom.json|byte 0: not a JSON object or array (a UTF-8 byte order mark?)
badkey-cut-u.json|byte 100: invalid \u escape
badescape-zzzz.json|byte 25: event 0: invalid \u escape
badescape-short.json|byte 25: event 0: invalid \u escape
badescape-lone-surrogate.json|byte 26: event 0: invalid \u escape
badescape-args.json|byte 51: event 0: invalid escape
badescape-topvalue.json|byte 14: in "meta": invalid \u escape
EOF_TABLE

test_expect_success 'missing file: exit 1, named with the reason' '
	test_must_fail tl-cat no-such.json >out 2>err &&
	echo "tl-cat: no-such.json: cannot open: No such file or directory" >want &&
	test_cmp want err && grep -q "^#tl-events 1" out
'

test_expect_success 'a tar without a trace member' '
	echo hi >readme.txt && tar cf notrace.tar readme.txt &&
	test_must_fail tl-cat notrace.tar 2>err &&
	grep -qx "tl-cat: notrace.tar: archive holds no \*.json or \*.json.gz member" err
'

test_expect_success 'good, bad, good: both good traces written, exit 1' '
	printf "[{\"ph\":\"X\"}]" >good.json &&
	test_must_fail tl-cat good.json "$B/truncated.json" good.json >out 2>err &&
	grep -qx "#end	0	1	0" out && grep -qx "#end	2	1	0" out &&
	! grep -q "^#end	1	" out &&
	test "$(wc -l <err)" = 1
'

test_expect_success 'a cut-short source writes the rows before the error, no #end' '
	test_must_fail tl-cat "$B/truncated.json.gz" >out 2>/dev/null &&
	n=$(grep -c "^[0-9]" out) && test "$n" -gt 100 && test "$n" -lt 3000 &&
	! grep -q "^#end" out
'

test_expect_success 'gzip with trailing garbage' '
	printf "[{}]" | gzip >g.gz && printf "junk" >>g.gz &&
	test_must_fail tl-cat g.gz >out 2>err &&
	grep -qx "tl-cat: g.gz: byte 4: trailing garbage after gzip data" err
'

test_expect_success 'an event too deep for a recursive parser is fine' '
	python3 -c "print(\"[{\\\"a\\\":\" + \"[\" * 100000 + \"]\" * 100000 + \"}]\")" >deep.json &&
	tl-cat deep.json >out && grep -qx "#end	0	1	0" out
'
test_done
