#!/bin/sh
# tl-fuse on the corpus's multi-rank sets (8 real V100 ranks, 4 A100
# ranks): event counts checked with python's json, pids never shared by
# two ranks, the fused file read back by tl-cat; memory flat in the input
# size (peak RSS, not time).
. "$TL_SRC/tests/lib.sh"

check() { python3 "$TL_SRC/tests/t7500-fuse-basic.d/check.py" "$@"; }
if ! have_shared; then
	test_skip 'tl-fuse on the multi-rank corpus' '../shared/corpus is absent'
elif ! command -v python3 >/dev/null; then
	test_skip 'tl-fuse on the multi-rank corpus' 'python3 is missing'
else
	for set in multirank-dlrm-v100x8 multirank-nccl-a100x4; do
		dir=$SHARED/corpus/$set/ranks
		n=$(ls "$dir" | wc -l)
		ranks= list=
		i=0
		while [ $i -lt "$n" ]; do
			ranks="$ranks $dir/rank$i.json.gz" list="$list $i=$dir/rank$i.json.gz"
			i=$((i + 1))
		done
		test_expect_success "$set: $n ranks fused, event count checked with python" '
			tl-fuse -o $set.json.gz $ranks 2>err &&
			check count $set.json.gz $list
		'
		test_expect_success "$set: pids of different ranks never collide" '
			check pids $set.json.gz
		'
		test_expect_success "$set: the fused trace reads back through tl-cat" '
			tl-cat $set.json.gz >ev &&
			grep -q "^#end	0	" ev && ! grep -q "^#end	0	.*	[1-9]" ev
		'
	done
	test_expect_success 'the straggler of multirank-nccl-a100x4 beside rank 0, in a window' '
		dir=$SHARED/corpus/multirank-nccl-a100x4/ranks &&
		tl-fuse --ranks 0,2 --window 4458677010000:4458677013000 -o two.json \
			$dir/rank0.json.gz $dir/rank1.json.gz $dir/rank2.json.gz $dir/rank3.json.gz 2>err &&
		check count two.json --window 4458677010000:4458677013000 0=$dir/rank0.json.gz 2=$dir/rank2.json.gz &&
		grep -q "RANK 2 - GPU" two.json
	'
fi

# Memory: 2 ranks of 2,000 events against 6 of 60,000 (90x the input):
# peak RSS within 8 MB.
if [ "${TL_SAN:-}" = 1 ]; then
	# ASan's quarantine and shadow memory grow with what was allocated
	test_skip 'tl-fuse memory stays flat' 'RSS is not the program'"'"'s under SAN=1'
elif ! [ -x /usr/bin/time ] || ! command -v python3 >/dev/null; then
	test_skip 'tl-fuse memory stays flat' 'no /usr/bin/time or python3'
else
	gen() {
		python3 -c '
import sys
n, r = int(sys.argv[1]), int(sys.argv[2])
w = sys.stdout.write
w("{\"traceEvents\": [\n")
for i in range(n):
    w("  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": %d, \"tid\": 7, \"ts\": %d.5, \"dur\": 3.25, \"args\": {\"correlation\": %d, \"External id\": %d}}%s\n" % (i % 97, i % 3, i * 4, i, i + r, "," if i < n - 1 else ""))
w("]}\n")' "$1" "$2"
	}
	for r in 0 1; do gen 2000 $r >small$r.json; done
	for r in 0 1 2 3 4 5; do gen 60000 $r | gzip -1 >big$r.json.gz; done
	test_expect_success 'peak RSS flat: 2 x 2k events vs 6 x 60k events' '
		/usr/bin/time -f %M -o small.rss tl-fuse small0.json small1.json >small.out 2>/dev/null &&
		/usr/bin/time -f %M -o big.rss tl-fuse -o big.json.gz big0.json.gz big1.json.gz big2.json.gz \
			big3.json.gz big4.json.gz big5.json.gz 2>big.err &&
		grep -q "6 ranks: 360000 events read, 360000 written" big.err &&
		s=$(tail -1 small.rss) && b=$(tail -1 big.rss) &&
		echo "# RSS KiB: small $s, big $b" &&
		test $((b - s)) -lt 8192
	'
fi
test_done
