#!/bin/sh
# What tl-report now does in one program run instead of two writes the same
# bytes as the two runs did: tl-coll --extract --analysis-dir (the stream
# and coll_analysis.csv) against --extract then --coll-analysis, and
# tl-html --md --html against --md then a plain run; their usage errors.
# (The inputs are other tests' committed traces.)
. "$TL_SRC/tests/lib.sh"

d=$TL_SRC/tests/t7000-coll-extract.d
test_expect_success 'setup: the node stream of a trace with collectives' '
	tl-cat "$d/trace.json" >events.tsv &&
	tl-tree events.tsv >nodes.tsv
'
test_expect_success 'tl-coll --extract --analysis-dir: the stream and the sheet of two runs' '
	mkdir one two &&
	tl-coll --extract --rank 3 -o one.coll --analysis-dir one nodes.tsv 2>/dev/null &&
	tl-coll --extract --rank 3 -o two.coll nodes.tsv 2>/dev/null &&
	tl-coll --coll-analysis -o two two.coll &&
	test_cmp two.coll one.coll &&
	test -s two/coll_analysis.csv &&
	test_cmp two/coll_analysis.csv one/coll_analysis.csv
'
test_expect_code 2 'tl-coll --analysis-dir needs --extract' '
	tl-coll --analysis-dir one -o x two.coll
'
test_expect_code 2 'tl-coll --analysis-dir needs -o FILE (it reads the stream back)' '
	tl-coll --extract --analysis-dir one nodes.tsv
'
h=$TL_SRC/tests/t7004-coll-report.d/with-host.json
test_expect_success 'setup: a report folder (a trace with collectives)' '
	tl-report --no-html --collectives-out rep.coll -o rep "$h" >/dev/null 2>&1 &&
	test -f rep/report.md && rm rep/report.md &&
	cp -r rep rep2
'
test_expect_success 'tl-report: its coll_analysis.csv is what --coll-analysis writes from its stream' '
	mkdir sheet &&
	tl-coll --coll-analysis -o sheet rep.coll &&
	test -s rep/coll_analysis.csv &&
	test_cmp sheet/coll_analysis.csv rep/coll_analysis.csv
'
test_expect_success 'tl-html --md --html: both pages, as --md then a plain run write them' '
	tl-html --md --html rep &&
	tl-html --md rep2 && tl-html rep2 &&
	test_cmp rep2/report.md rep/report.md &&
	test_cmp rep2/report.html rep/report.html
'
test_expect_code 2 'tl-html --md --html with -o (one file) is a usage error' '
	tl-html --md --html -o x.html rep
'
test_expect_success 'tl-html --html alone writes report.html, as a plain run' '
	rm rep/report.html && tl-html --html rep &&
	test_cmp rep2/report.html rep/report.html
'
test_done
