#!/bin/sh
# tl-replay on every cpu_op of a real trace (the corpus's bert-small, H100)
# gives the IR TraceLens's own EventReplayer gives for the same events, and
# refuses the same ops (reference: t1151-replay-corpus.d/make-refs.sh, run
# with the oracle checkout and Debian's python3-torch); --top N picks
# ops_unique_args's first N rows (TraceLens's reference sheet) with their
# operation_count as count.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t1151-replay-corpus.d
C=$SHARED/corpus/h100-gaunernst_bert-small-uncased__1016001

if ! have_shared; then
	test_skip_all 'corpus trace' "no ../shared/corpus here"
fi

test_expect_success 'every cpu_op: the same IR as TraceLens, the same ops refused' '
	tl-cat "$C/trace.json.gz" >ev && tl-tree ev >nodes &&
	awk -F"\t" "\$4 == \"cpu_op\" { print \$1 }" nodes >uids &&
	test $(wc -l <uids) = 479 &&
	tl-replay --uid $(paste -sd, uids) -o all nodes 2>err &&
	test_cmp "$D/bert-tracelens.json" all/event_replay_ir.json &&
	sed -n "s/^tl-replay: .*: uid \([0-9]*\): .*: cannot replay: .*/\1/p" err >refused &&
	test_cmp "$D/bert-tracelens.failed" refused &&
	echo "tl-replay: 377 of 479 ops cannot be replayed (named above); 102 written" >want &&
	tail -n 1 err >got && test_cmp want got
'

# ops_unique_args.csv (TraceLens): name, ..., operation_count, ..., ex_UID
test_expect_success '--top 8: ops_unique_args order and counts' '
	tl-replay --top 8 -o top nodes 2>err &&
	python3 - "$C/reference/ops_unique_args.csv" top/event_replay_ir.json err <<-\PY
	import csv, json, re, sys
	rows = list(csv.DictReader(open(sys.argv[1])))[:8]
	refused = set(re.findall(r"uid (\d+): ", open(sys.argv[3]).read()))
	want = [(r["name"], int(r["operation_count"])) for r in rows if r["ex_UID"] not in refused]
	got = [(e["op_name"], e["count"]) for e in json.load(open(sys.argv[2]))]
	assert got == want and len(got) + len(refused) == 8, (got, want, refused)
	PY
'

if [ "${TL_SAN:-}" = 1 ]; then
	test_skip 'tl-replay is valgrind-clean' 'SAN=1 build (ASan replaces valgrind)'
elif ! command -v valgrind >/dev/null 2>&1; then
	test_skip 'tl-replay is valgrind-clean' 'valgrind is not installed'
else
	test_expect_success 'tl-replay is valgrind-clean (--uid all, --top, --name)' '
		vg() { valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
			--error-exitcode=99 "$@"; } &&
		vg tl-replay --uid $(paste -sd, uids) -o vg1 nodes 2>/dev/null &&
		vg tl-replay --top 8 -o vg2 nodes 2>/dev/null &&
		vg tl-replay --name aten::addmm -o vg3 nodes 2>/dev/null &&
		test_cmp all/event_replay_ir.json vg1/event_replay_ir.json
	'
fi

test_done
