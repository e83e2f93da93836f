#!/bin/sh
# valgrind finds no leaks and no memory errors in the programs, on a small
# real trace.  Skipped under SAN=1 (ASan and valgrind do not mix) and where
# valgrind is not installed.
. "$TL_SRC/tests/lib.sh"

trace=$SHARED/corpus/h100-gaunernst_bert-small-uncased__1016001/trace.json.gz
[ -f "$trace" ] || trace=$TL_SRC/share/tl/sample/trace.json
why=
if [ "${TL_SAN:-}" = 1 ]; then why='SAN=1 build (ASan replaces valgrind)'
elif ! command -v valgrind >/dev/null 2>&1; then why='valgrind is not installed'
elif [ ! -f "$trace" ]; then why='no trace: ../shared is absent and the sample is missing'
fi
if [ -n "$why" ]; then
	test_skip_all 'programs are valgrind-clean' "$why"
fi

# GLIBC_TUNABLES set: tl-diff then runs under valgrind itself, not again
# (common/heap_pages.h)
vg() {
	GLIBC_TUNABLES= valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@"
}

tl-cat "$trace" >events.tsv && tl-tree events.tsv >nodes.tsv || exit 1

test_expect_success 'tl-cat is valgrind-clean' 'vg tl-cat -o ev.tsv "$trace" && vg tl-cat --ndjson -o ev.ndjson "$trace"'
test_expect_success 'tl-tree is valgrind-clean' 'vg tl-tree events.tsv >nodes2.tsv && vg tl-tree --print events.tsv >tree.txt'
test_expect_success 'tl-timeline is valgrind-clean' 'vg tl-timeline --csv nodes.tsv >tl.csv && vg tl-timeline events.tsv >tl.txt'
test_expect_success 'tl-perf is valgrind-clean' 'vg tl-perf --csv -o perf nodes.tsv'
test_expect_success 'a lean node stream and its readers are valgrind-clean' '
	vg tl-tree --lean events.tsv >lean.tsv &&
	vg tl-perf --csv -o perf-lean lean.tsv &&
	vg tl-timeline --csv lean.tsv >tl-lean.csv &&
	vg tl-idle -o idle-lean lean.tsv &&
	vg tl-coll --extract -o lean.coll lean.tsv
'
if [ -x "$TL_BIN/tl-diff" ]; then
	test_expect_success 'tl-diff is valgrind-clean' 'vg tl-diff -o diff nodes.tsv nodes.tsv'
fi
if [ -x "$TL_BIN/tl-compare" ]; then
	test_expect_success 'tl-compare is valgrind-clean' 'cp -R perf perf2 && vg tl-compare -o cmp perf perf2'
fi
if [ -x "$TL_BIN/tl-xlsx" ]; then
	test_expect_success 'tl-xlsx is valgrind-clean' 'vg tl-xlsx -o r.xlsx perf'
fi
test_done
