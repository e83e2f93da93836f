#!/bin/sh
# tl-compare on small hand-made report folders; every expected cell in
# t6002-compare-golden.d/expect*/ was worked out by hand from the rules of
# compare_perf_reports_pytorch (outer join in key order, TAG::column,
# diff = variant - base, pct = 100 * (diff / base) with base 0 -> empty,
# ints that meet a missing row print as floats, splits, sorting).
. "$TL_SRC/tests/lib.sh"

D=$TEST_DIR

test_expect_success 'two reports, default tags and sheets' '
	tl-compare "$D/a" "$D/b" -o out 2>err &&
	test ! -s err &&
	(cd "$D/expect" && ls) >want.ls && (cd out && ls) >got.ls &&
	test_cmp want.ls got.ls &&
	for f in "$D"/expect/*.csv; do
		test_cmp "$f" out/$(basename "$f") || exit 1
	done
'

test_expect_success 'empty split is a one-byte file' '
	printf "\n" >nl && cmp nl out/ops_unique_args_only_variant_b.csv
'

test_expect_success 'three reports with --names: diff columns per variant' '
	tl-compare "$D/a" "$D/b" "$D/c" --names base,v1,v2 \
		--sheets gpu_timeline -o out3 &&
	(cd out3 && ls) >got3.ls && echo gpu_timeline.csv >want3.ls &&
	test_cmp want3.ls got3.ls &&
	test_cmp "$D/expect3/gpu_timeline.csv" out3/gpu_timeline.csv
'

test_expect_success '--sheets may be repeated; --names as two words' '
	tl-compare --sheets gpu_timeline --sheets ops_summary \
		--names base --names v1 "$D/a" "$D/b" -o out4 &&
	(cd out4 && ls) >got4.ls &&
	printf "gpu_timeline.csv\nops_summary.csv\n" >want4.ls &&
	test_cmp want4.ls got4.ls &&
	sed "s/\([ab]\)::/X\1::/g; s/__b_/__v1_/g; s/Xa::/base::/g; s/Xb::/v1::/g" \
		"$D/expect/ops_summary.csv" >want4.csv &&
	test_cmp want4.csv out4/ops_summary.csv
'

# d has no total_direct_kernel_time_sum for one row: against a, that row is
# only in a (only_variant, whose all-empty sum diff columns go); against
# itself, it is in no split, and that is counted on stderr.
test_expect_success 'a missing first compared value decides the split' '
	tl-compare "$D/d" "$D/a" --sheets ops_all -o outD 2>errD &&
	test ! -s errD &&
	(cd "$D/expectD" && ls) >wantD.ls && (cd outD && ls) >gotD.ls &&
	test_cmp wantD.ls gotD.ls &&
	for f in "$D"/expectD/*.csv; do
		test_cmp "$f" outD/$(basename "$f") || exit 1
	done
'

test_expect_success 'rows in no split are counted on stderr' '
	tl-compare "$D/d" "$D/d" --names x,y --sheets ops_all -o outDD 2>errDD &&
	echo "tl-compare: ops_unique_args: 1 row without '"'"'total_direct_kernel_time_sum'"'"' in any report, in no ops_unique_args_* sheet" >wantDD &&
	test_cmp wantDD errDD &&
	test $(wc -l <outDD/ops_unique_args_intersect_y.csv) = 2
'

test_done
