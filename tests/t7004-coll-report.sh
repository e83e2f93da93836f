#!/bin/sh
# tl-report's coll_analysis sheet and its --collectives-out stream, against
# TraceLens's perf report (generate_perf_report_pytorch writes coll_analysis
# by default for a trace with collective kernels that is not GPU-only).
# References: the corpus's reference-rank0/ and reference-recompute/, and
# those t7004-coll-report.d/make-traces made with the oracle.
. "$TL_SRC/tests/lib.sh"

d=$TEST_DIR
conform() {	# conform OUT_DIR REF_CSV: tl-conform on one sheet
	mkdir -p "$1.ref" && cp "$2" "$1.ref/coll_analysis.csv" &&
	"$SHARED/tools/tl-conform" --deviations "$TL_SRC/tests/conformance/deviations.tsv" \
		"$1" "$1.ref" >"$1.conform" || { cat "$1.conform"; return 1; }
}

test_expect_success 'a trace with a host op: coll_analysis as TraceLens writes it' '
	tl-report -o host "$d/with-host.json" >/dev/null 2>err &&
	test_cmp "$d/with-host-coll_analysis.csv" host/coll_analysis.csv
'
test_expect_success 'a GPU-only trace: no coll_analysis, as TraceLens' '
	tl-report -o gpu "$d/gpu-only.json" >/dev/null 2>err &&
	(cd gpu && ls *.csv) >sheets && test_cmp "$d/gpu-only.sheets" sheets
'
test_expect_success '--no-coll and --disable_coll_analysis: no coll_analysis' '
	tl-report --no-coll -o nc "$d/with-host.json" >/dev/null 2>&1 &&
	test ! -e nc/coll_analysis.csv &&
	tl-report -o tlens "$d/with-host.json" --disable_coll_analysis >/dev/null 2>&1 &&
	test ! -e tlens/coll_analysis.csv && test -f tlens/gpu_timeline.csv
'
test_expect_success '--collectives-out: the stream tl-coll --extract writes, from the same parse' '
	tl-report --collectives-out host.coll --no-coll -o h2 "$d/with-host.json" >/dev/null 2>&1 &&
	tl-cat "$d/with-host.json" >events.tsv && tl-coll --extract events.tsv >want.coll &&
	sed /^#source/d want.coll >a && sed /^#source/d host.coll >b && test_cmp a b &&
	test ! -e h2/coll_analysis.csv
'
test_expect_success '--rank goes into the stream and the sheet' '
	tl-report --rank 5 --collectives-out r5.coll -o r5 "$d/with-host.json" >/dev/null 2>&1 &&
	grep -qx "#rank	5" r5.coll &&
	cut -d, -f1 r5/coll_analysis.csv | sort -u >ranks && printf "5\nrank\n" >ranks.want &&
	test_cmp ranks.want ranks
'
test_expect_code 2 '--collectives-out with two traces is a usage error' '
	tl-report --collectives-out x.coll "$d/with-host.json" "$d/gpu-only.json"
'
test_expect_code 2 '--rank needs a number' 'tl-report --rank two "$d/with-host.json"'

if ! have_shared; then
	test_skip_all 'corpus coll_analysis' 'no ../shared/corpus'
fi
a100=$SHARED/corpus/multirank-nccl-a100x4
test_expect_success 'A100 rank 0: coll_analysis is reference-rank0/coll_analysis.csv' '
	tl-report -o a0 "$a100/ranks/rank0.json.gz" >/dev/null 2>&1 &&
	test_cmp "$a100/reference-rank0/coll_analysis.csv" a0/coll_analysis.csv &&
	conform a0 "$a100/reference-rank0/coll_analysis.csv"
'
test_expect_success 'A100 rank 2: TraceLens says rank 0, tl rank 2 (a listed deviation)' '
	tl-report -o a2 "$a100/ranks/rank2.json.gz" >/dev/null 2>&1 &&
	sed "s/^2,/0,/" a2/coll_analysis.csv >a2.as-tracelens &&
	test_cmp "$d/rank2-coll_analysis.csv" a2.as-tracelens &&
	conform a2 "$d/rank2-coll_analysis.csv" &&
	grep -q "1 deviations\|[0-9] deviations" a2.conform && ! grep -q " 0 deviations" a2.conform
'
res=$SHARED/corpus/mi300-resnet_act_checkpoint
test_expect_success 'MI300 resnet (RCCL kernels, some without args): float columns as TraceLens' '
	tl-report -o res "$res/trace.json.gz" >/dev/null 2>&1 &&
	test_cmp "$res/reference-recompute/coll_analysis.csv" res/coll_analysis.csv
'
test_expect_success 'DLRM rank 0 (no collective args): no coll_analysis, as TraceLens' '
	tl-report -o dlrm "$SHARED/corpus/multirank-dlrm-v100x8/ranks/rank0.json.gz" >/dev/null 2>&1 &&
	test ! -e dlrm/coll_analysis.csv &&
	test ! -e "$SHARED/corpus/multirank-dlrm-v100x8/reference-rank0/coll_analysis.csv"
'
test_done
