#!/bin/sh
# tl-cat --format (tl-report's probe of each trace) reads a gzip trace in
# its own thread, a few kB and the first events only (cat_input_sync),
# where a full read inflates megabytes ahead in a second thread: the same
# answer for each format gzip'd or not, and the same messages on a
# truncated file or trailing garbage.
. "$TL_SRC/tests/lib.sh"

kineto=$TL_SRC/tests/t1000-cat-basic.d/array.json
perfetto=$TL_SRC/tests/t3520-pftrace-sheets.d/api-redzone.json
rocprof=$TL_SRC/tests/t1100-cat-rocprof.d/mixed_results.json

test_expect_success 'each format, plain and gzip' '
	for f in kineto perfetto rocprof; do
		eval "src=\$$f" &&
		cp "$src" "$f.json" && gzip -c "$src" >"$f.json.gz" &&
		tl-cat --format "$f.json" "$f.json.gz" >got &&
		printf "%s\t%s\n" "$f.json" "$f" "$f.json.gz" "$f" | sed "s/	rocprof$/	rocprofv3/" >expect &&
		test_cmp expect got || return 1
	done
'
test_expect_success 'a 2 MB kineto trace, gzipped: the first 1000 events decide' '
	{ printf "{\"traceEvents\":[" &&
	  i=0 && while [ $i -lt 20000 ]; do
		printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op_%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1,\"args\":{\"External id\":%d}},\n" $i $i $i
		i=$((i + 1))
	  done && printf "{\"ph\":\"i\",\"name\":\"end\",\"pid\":1,\"tid\":1,\"ts\":0}]}\n"; } >big.json &&
	gzip -c big.json >big.json.gz &&
	tl-cat --format big.json.gz >got &&
	printf "big.json.gz\tkineto\n" >expect &&
	test_cmp expect got
'
test_expect_success 'a truncated gzip trace: the message, exit 1' '
	head -c 3000 big.json.gz >cut.json.gz &&
	test_must_fail tl-cat --format cut.json.gz 2>err &&
	grep -q "^tl-cat: cut.json.gz: byte [0-9]*: truncated gzip data$" err
'
test_expect_success 'trailing garbage after the gzip data: the message, exit 1' '
	printf "[]" | gzip -c >junk.json.gz && printf garbage >>junk.json.gz &&
	test_must_fail tl-cat --format junk.json.gz 2>err &&
	grep -q "^tl-cat: junk.json.gz: byte [0-9]*: trailing garbage after gzip data$" err
'
test_done
