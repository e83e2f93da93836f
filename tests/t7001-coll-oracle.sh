#!/bin/sh
# tl-coll against TraceLens itself on synthetic rank sets, one per corner
# of the collective analysis (spec tracelens-diff-collectives.md §3):
# simplified mode, missing args, all_to_allv with the heatmap, one rank,
# ranks with different collective counts, JSON lists, several process
# groups, ties (20 ranks in lockstep: pandas' unstable sorts),
# --gpus-per-node, --agg-metrics, and a job without any implicitly
# synchronising collective.  The inputs and TraceLens's sheets are
# committed in t7001-coll-oracle.d/CASE/, made by
#   t7001-coll-oracle.d/make-cases t7001-coll-oracle.d
#   t7001-coll-oracle.d/make-cases --oracle t7001-coll-oracle.d
# (../shared/tools/oracle/tracelens-coll, TraceLens 171dd747).  Every sheet
# must be byte-identical and pass tl-conform.  The mismatch case, where
# TraceLens raises ValueError, must fail cleanly with a message that names
# the collective, the field and the ranks.
. "$TL_SRC/tests/lib.sh"

# run CASE: every rank's stream, then the reduce into CASE.out/
run() {
	rm -rf "$1.out" && mkdir -p "$1.out" &&
	for f in "$TEST_DIR/$1"/rank*.json; do
		r=$(basename "$f" .json)
		tl-cat "$f" >"$1.out/$r.tsv" &&
		tl-coll --extract "$1.out/$r.tsv" >"$1.out/$r.coll" || return 1
	done &&
	# shellcheck disable=SC2046
	tl-coll $(cat "$TEST_DIR/$1/tl-flags") -o "$1.out/sheets" \
		$(ls "$1.out"/rank*.coll | sort -V)
}

same_sheets() {
	ref=$TEST_DIR/$1/reference
	(cd "$ref" && ls) >"$1.want" && (cd "$1.out/sheets" && ls) >"$1.got" &&
	test_cmp "$1.want" "$1.got" &&
	for f in "$ref"/*.csv; do
		test_cmp "$f" "$1.out/sheets/$(basename "$f")" || return 1
	done
}

for c in full simplified missing a2av one uneven lists ties broadcast; do
	test_expect_success "$c: the sheets TraceLens writes, byte for byte" "
		run $c 2>$c.err && same_sheets $c
	"
	if [ -x "$SHARED/tools/tl-conform" ]; then
		test_expect_success "$c: tl-conform" "
			\"\$SHARED/tools/tl-conform\" $c.out/sheets \"\$TEST_DIR/$c/reference\" >$c.conform ||
			{ cat $c.conform; exit 1; }
		"
	else
		test_skip "$c: tl-conform" 'no ../shared/tools/tl-conform'
	fi
done

test_expect_success 'mismatch: TraceLens raises, tl-coll says which collective and ranks' '
	cat "$TEST_DIR/mismatch/error" &&
	grep -q "Metadata mismatch in .In msg nelems. for collective 0_1" "$TEST_DIR/mismatch/error" &&
	! run mismatch 2>mismatch.err &&
	echo "tl-coll: mismatch.out/rank1.coll: collective 0_1 ('"'allreduce'"'): '"'In msg nelems'"' differs across ranks: 4096 on ranks 0, 2; 8192 on rank 1 (--no-strict: warn and use the first rank'"'"'s)" >mismatch.want &&
	test_cmp mismatch.want mismatch.err &&
	test ! -e mismatch.out/sheets
'
test_expect_success 'mismatch: exit status 1, not a crash' '
	test_must_fail tl-coll -o m2 mismatch.out/rank*.coll 2>/dev/null
'
test_expect_success 'mismatch --no-strict: a warning, the first rank'"'"'s metadata' '
	tl-coll --no-strict -o ns mismatch.out/rank0.coll mismatch.out/rank1.coll mismatch.out/rank2.coll 2>ns.err &&
	grep -q "^tl-coll: mismatch.out/rank1.coll: warning: collective 0_1" ns.err &&
	grep "^0_1,0,\"\[0, 1, 2\]\",allreduce,3,Float,4096,4096," ns/nccl_implicit_sync.csv
'
test_done
