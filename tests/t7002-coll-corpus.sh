#!/bin/sh
# tl-coll on the corpus's real rank sets against TraceLens's multi-rank
# collective report (reference/, made with --trace_pattern
# 'ranks/rank*.json.gz' --world_size N): multirank-dlrm-v100x8 (8 V100
# ranks, 2023 trace format without collective args: simplified mode) and
# multirank-nccl-a100x4 (4 ranks with full collective args, rank 2 a
# straggler).  Every reference sheet passes tl-conform and is
# byte-identical; the streams name their ranks, so the file order given
# does not matter.
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'multi-rank corpus' 'no ../shared/corpus'
fi
for name in multirank-dlrm-v100x8 multirank-nccl-a100x4; do
	case=$SHARED/corpus/$name
	if [ ! -d "$case/reference" ]; then
		test_skip "$name" "no $case/reference"
		continue
	fi
	test_expect_success "$name: one stream per rank" "
		mkdir -p $name &&
		for f in \"$case\"/ranks/rank*.json.gz; do
			r=\$(basename \"\$f\" .json.gz) &&
			tl-cat \"\$f\" | tl-coll --extract >$name/\$r.coll || exit 1
		done &&
		ls $name/*.coll >/dev/null
	"
	test_expect_success "$name: every reference sheet passes tl-conform" "
		tl-coll -o $name.out \$(ls $name/*.coll | sort -V) &&
		\"\$SHARED/tools/tl-conform\" $name.out \"$case/reference\" >$name.conform ||
		{ cat $name.conform; exit 1; }
	"
	test_expect_success "$name: byte-identical sheets, no others" "
		(cd \"$case/reference\" && ls) >$name.want && (cd $name.out && ls) >$name.got &&
		test_cmp $name.want $name.got &&
		for f in \"$case\"/reference/*.csv; do
			test_cmp \"\$f\" $name.out/\$(basename \"\$f\") || exit 1
		done
	"
	test_expect_success "$name: the same bytes from the files in reverse order" "
		tl-coll -o $name.rev \$(ls $name/*.coll | sort -rV) &&
		for f in $name.out/*.csv; do
			cmp \"\$f\" $name.rev/\$(basename \"\$f\") || exit 1
		done
	"
done
test_done
