#!/bin/sh
# tl-cat on small hand-written traces covering every event kind: golden
# output (reviewed by hand), and the same rows as the independent Python
# reader tests/tools/pycat.py, field by field, with an --ndjson round trip
# equal to the original events (tests/tools/checkcat.py).
. "$TL_SRC/tests/lib.sh"
D=$TEST_DIR

for f in kinds array; do
	test_expect_success "$f.json: stream as the golden file" '
		tl-cat "$D/$f.json" >$f.out 2>$f.err &&
		sed "s|^#source\t0\t.*|#source\t0\tTRACE|" $f.out >$f.tsv &&
		test_golden "$D/$f.tsv" $f.tsv &&
		test ! -s $f.err
	'
	test_expect_success "$f.json: rows agree with pycat, ndjson round trip" '
		tl-cat "$D/$f.json" >$f.tl &&
		tl-cat --ndjson "$D/$f.json" >$f.nd &&
		python3 "$TL_SRC/tests/tools/pycat.py" "$D/$f.json" >$f.py &&
		python3 "$TL_SRC/tests/tools/checkcat.py" "$D/$f.json" $f.tl $f.py $f.nd
	'
done

test_expect_success 'ndjson golden (directives and compacted members)' '
	tl-cat --ndjson "$D/kinds.json" >nd.out &&
	sed "1s|\"source\":\".*\"|\"source\":\"TRACE\"|" nd.out >nd.json &&
	test_golden "$D/kinds.ndjson" nd.json
'

test_expect_success 'element count equals len(traceEvents) per python3' '
	tl-cat "$D/kinds.json" >k.tsv &&
	n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))[\"traceEvents\"]))" "$D/kinds.json") &&
	test "$(grep -c "^[0-9]" k.tsv)" = "$n" &&
	grep -qx "#end	0	$n	0" k.tsv
'

test_expect_success 'gzip input is told by magic, not by name' '
	gzip -c "$D/kinds.json" >kinds.data &&
	tl-cat kinds.data >gz.out &&
	tl-cat "$D/kinds.json" >plain.out &&
	sed 1,3d gz.out >a && sed 1,3d plain.out >b && test_cmp b a
'

test_expect_success 'stdin and "-", several files in one stream' '
	tl-cat <"$D/array.json" >stdin.out &&
	grep -qx "#source	0	-" stdin.out &&
	tl-cat "$D/array.json" - "$D/kinds.json" <"$D/array.json" >multi.out &&
	test "$(grep -c "^#tl-events" multi.out)" = 1 &&
	test "$(grep -c "^uid	" multi.out)" = 1 &&
	grep -q "^#source	2	" multi.out && grep -qx "#end	2	17	0" multi.out &&
	grep -q "^1	1	E	" multi.out
'

test_expect_success '-o FILE writes there, -v counts on stderr' '
	tl-cat -v -o o.tsv "$D/kinds.json" 2>v.err &&
	grep -q "^#end	0	17	0" o.tsv &&
	grep -q "kinds.json: 17 events read, 17 written, 0 skipped" v.err
'

test_expect_success '-h prints the usage to stdout, exit 0' '
	tl-cat -h >h.out && grep -q "^usage: tl-cat" h.out
'
test_expect_code 2 'unknown option is a usage error' 'tl-cat --bogus'
test_done
