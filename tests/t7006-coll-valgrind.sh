#!/bin/sh
# tl-coll under valgrind: no leaks, no memory errors, on its success paths
# (extract, the reduce with every optional sheet, coll_analysis) and its
# failure paths (metadata mismatch, a bad stream, no collectives).
# Skipped under SAN=1 (ASan replaces valgrind) and without valgrind.
. "$TL_SRC/tests/lib.sh"

why=
if [ "${TL_SAN:-}" = 1 ]; then why='SAN=1 build (ASan replaces valgrind)'
elif ! command -v valgrind >/dev/null 2>&1; then why='valgrind is not installed'
fi
if [ -n "$why" ]; then
	test_skip_all 'tl-coll is valgrind-clean' "$why"
fi
vg() {
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@"
}
cases=$TL_SRC/tests/t7001-coll-oracle.d
test_expect_success 'extract' '
	for c in a2av mismatch; do
		for f in "$cases/$c"/rank*.json; do
			tl-cat "$f" >ev.tsv && vg tl-coll --extract -o "$c.$(basename "$f" .json).coll" ev.tsv || exit 1
		done
	done &&
	vg tl-coll --extract --rank 3 -o t.coll "$TL_SRC/tests/t7000-coll-extract.d/expect.coll" 2>/dev/null;
	test $? = 1
'
test_expect_success 'reduce with every sheet, coll_analysis' '
	vg tl-coll --all2allv-heatmap --agg-metrics mean,std,sum -o out a2av.rank*.coll &&
	test -f out/nccl_all2allv_heatmap.csv &&
	vg tl-coll --coll-analysis -o one a2av.rank0.coll && test -f one/coll_analysis.csv
'
test_expect_success 'failure paths' '
	vg tl-coll -o m mismatch.rank*.coll 2>/dev/null; test $? = 1 &&
	vg tl-coll --no-strict -o m mismatch.rank*.coll 2>/dev/null &&
	head -n 3 a2av.rank0.coll >cut.coll &&
	vg tl-coll -o c cut.coll a2av.rank1.coll 2>/dev/null; test $? = 1 &&
	echo "{\"traceEvents\": []}" >none.json && tl-cat none.json >none.tsv &&
	vg tl-coll --extract -o none.coll none.tsv && vg tl-coll -o n none.coll 2>/dev/null
'
test_done
