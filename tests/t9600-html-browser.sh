#!/bin/sh
# report.html in a real browser: Debian's chromium, headless, with a fresh
# profile and every network request sent to a dead proxy, loads the page of
# two corpus traces, of the 8-rank job (assembled here from the layout
# tl-ranks writes), of TraceLens's own CSVs and of a tl-diff folder, with
# file://.  tests/tools/html-check.py then judges: nothing asked from
# outside the file, no console message, no request made by the page, and
# the page's own check - the marks the browser parsed in each chart -
# equal to counts computed from the CSV sheets.  Screenshots are kept in
# this test's scratch folder (sh tests/run.sh --preserve t9600).
. "$TL_SRC/tests/lib.sh"

if ! command -v chromium >/dev/null 2>&1; then
	test_skip_all 'report.html in a browser' 'chromium is not installed (apt-get install chromium)'
fi
if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'report.html in a browser' 'python3 is not installed'
fi
if ! have_shared; then
	test_skip_all 'report.html in a browser' '../shared/corpus is absent'
fi
corpus=$SHARED/corpus

# browse HTML NAME [shot]: NAME.dom, NAME.log, NAME.net.json (NAME.png)
browse() {
	page=$1 name=$2 shot=${3:-}
	rm -rf "$TRASH/profile"
	set -- --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$TRASH/profile" --proxy-server=127.0.0.1:9 \
		--hide-scrollbars
	# a guard against a browser that never ends, not a time limit on tl
	timeout 300 chromium "$@" --enable-logging=stderr --v=0 \
		--log-net-log="$TRASH/$name.net.json" --virtual-time-budget=5000 \
		--dump-dom "file://$page" >"$name.dom" 2>"$name.log" || return 1
	[ -z "$shot" ] && return 0
	rm -rf "$TRASH/profile"
	timeout 300 chromium "$@" --window-size=1200,4000 --screenshot="$TRASH/$name.png" \
		"file://$page" >/dev/null 2>&1 && test -s "$TRASH/$name.png"
}

judge() {
	python3 "$TL_SRC/tests/tools/html-check.py" "$1" "$2.dom" "$2.log" "$2.net.json" "$3"
}

bert=$corpus/h100-gaunernst_bert-small-uncased__1016001/trace.json.gz
test_expect_success 'bert (H100): the page passes in the browser' '
	tl-report -o bert "$bert" >out 2>err &&
	browse "$TRASH/bert/report.html" bert shot &&
	judge bert/report.html bert bert
'

# rank 0 of the DLRM job: NCCL on its own streams, four streams in all
r0=$corpus/multirank-dlrm-v100x8/ranks/rank0.json.gz
test_expect_success 'DLRM rank 0 (V100, no arch table): the page passes' '
	tl-report -o r0 "$r0" >out 2>err &&
	grep -F "no table in share/tl/arch matches" r0/report.md &&
	browse "$TRASH/r0/report.html" r0 shot &&
	judge r0/report.html r0 r0
'

# The job report's layout (tl-html(1), TEAM.md): rank_K/ from tl-report,
# collectives/ with TraceLens's multi-rank sheets, ranks.csv from the
# ranks' breakdowns and the straggler summary.
job_ranks() {
	echo "rank,trace,total_time_us,busy_time_us,idle_time_us,computation_time_us,exposed_comm_time_us,exposed_memcpy_time_us,collective_time_us,wait_time_us,arrived_last,straggler"
	for k in 0 1 2 3 4 5 6 7; do
		awk -F, -v k=$k -v trace="rank$k.json.gz" '
		FNR == NR { if (FNR > 1) v[$1] = $2 * 1000; next }
		FNR > 1 && $1 == k {
			printf "%s,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%s\n", k, trace,
				v["total_time"], v["busy_time"], v["idle_time"], v["computation_time"],
				v["exposed_comm_time"], v["exposed_memcpy_time"], v["total_comm_time"],
				$2, $4, ($6 > 50 ? 1 : 0) }' job/rank_$k/gpu_timeline.csv \
			job/collectives/straggler_summary.csv
	done
}

test_expect_success 'the 8-rank job: the page passes' '
	mkdir -p job/collectives &&
	for k in 0 1 2 3 4 5 6 7; do
		tl-report -o job/rank_$k "$corpus/multirank-dlrm-v100x8/ranks/rank$k.json.gz" \
			>out 2>err || return 1
	done &&
	cp "$corpus"/multirank-dlrm-v100x8/reference/*.csv job/collectives/ &&
	job_ranks >job/ranks.csv &&
	tl-html job && tl-html --md job &&
	grep -F "Rank 7 is a straggler" job/report.md &&
	browse "$TRASH/job/report.html" job shot &&
	judge job/report.html job job
'

test_expect_success 'the job page links each rank page that is there' '
	test $(grep -c "href=\"rank_[0-7]/report.html\"" job/report.html) = 8
'

ref=$corpus/h100-google_owlv2-large-patch14-ensemble__1016001/reference
test_expect_success "TraceLens's own CSVs: the page passes" '
	mkdir tlref && cp "$ref"/*.csv tlref/ &&
	tl-html --arch H100 tlref &&
	grep -F "H100 (given to tl-html with --arch)" tlref/report.html &&
	browse "$TRASH/tlref/report.html" tlref &&
	judge tlref/report.html tlref tlref
'

test_expect_success 'a tl-diff folder: the page passes' '
	mkdir diff && cp "$corpus"/tracediff-timesformer-mi300-vs-h100/reference/* diff/ &&
	tl-html diff &&
	browse "$TRASH/diff/report.html" diff &&
	judge diff/report.html diff diff
'

# JavaScript off: chromium's --dump-dom and --screenshot need scripts
# themselves, so the page is loaded with its one script taken out, which
# is what a browser with JavaScript off shows.
test_expect_success 'with JavaScript off the pictures are all there' '
	sed "/^<script>\$/,/^<\/script>\$/d" r0/report.html >noscript.html &&
	! grep -q "<script" noscript.html &&
	browse "$TRASH/noscript.html" noscript shot &&
	python3 "$TL_SRC/tests/tools/html-check.py" --no-script noscript.dom r0
'

# A page broken on purpose must fail the judge: the judge can fail.
test_expect_success 'the judge catches a page that lies about its marks' '
	sed "s/<g data-marks=\"\\([0-9]*\\)\">/<g data-marks=\"999\">/" bert/report.html >bad.html &&
	sed "s/<\\/main>/<img src=\"http:\\/\\/example.com\\/x.png\"><\\/main>/" bad.html >bad2.html &&
	browse "$TRASH/bad2.html" bad2 &&
	! judge bad2.html bad2 bert >judge.out &&
	grep "FAIL every chart drew" judge.out &&
	grep "FAIL nothing asked from outside" judge.out &&
	grep "FAIL no console message" judge.out &&
	grep "FAIL no request left the page" judge.out
'
test_done
