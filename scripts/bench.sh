#!/bin/sh
# scripts/bench.sh — `make bench`: how fast tl is on a large trace.
#
# Makes (once, cached in ${TL_BENCH_DIR:-$HOME/.cache/tl-bench}) the owlv2
# corpus trace scaled ×${TL_BENCH_SCALE:-20} with ../shared/tools/scale-trace
# (≈ 1.1 GB of JSON, 2.6 M events) as .json.gz and as plain .json, then runs
# each stage once, side by side in this one run, and prints one row per
# stage: wall seconds, MB/s of uncompressed JSON, peak RSS of each process,
# and the ratio of the wall time to `zcat FILE > /dev/null` on the same
# .json.gz.  CPU seconds (user + system, all threads) are shown too: on a
# shared machine wall time also counts waiting for a core, and
# "MB/s per CPU second" is the one-core figure.  Stages that are not built yet (tl-tree, tl-timeline, tl-diff,
# scripts/tl-report) are skipped, saying so.  What tl-idle adds to tl-report
# is the difference with a `tl-report --no-idle` run (target: at most 20 %
# of the wall time); HTA itself on the same trace runs with TL_BENCH_HTA=1
# (minutes and gigabytes, so only on request).
#
# Each row's ×zcat is its wall time over zcat's, and cpu×zcat its CPU
# seconds over zcat's, both measured in this run; tl-report is then run
# again in turns with zcat (TL_BENCH_PAIRS times) and the medians printed.  Targets (issue 12):
# tl-report at most 1.0× zcat (aim 0.6×); tl-cat ≥ 1 GB/s of JSON on one
# core; the largest tl-report process ≤ 60 bytes of peak RSS per event and
# the sum over its processes ≤ 430 MB; tl-diff of two traces ≤ 2× zcat.
# Timing uses /usr/bin/time (%e wall seconds, %M peak RSS in KiB, %U + %S).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TL_BIN:-$src/bin}
SHARED=${SHARED:-$(cd "$src/.." && pwd)/shared}
dir=${TL_BENCH_DIR:-$HOME/.cache/tl-bench}
scale=${TL_BENCH_SCALE:-20}
in=$SHARED/corpus/h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz
gz=$dir/owlv2-x$scale.json.gz
json=$dir/owlv2-x$scale.json
TIME=/usr/bin/time

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$TIME" ] || sh "$src/scripts/deps.sh" time >/dev/null 2>&1
[ -x "$TIME" ] || die "needs /usr/bin/time (apt-get install time)"
[ -f "$in" ] || die "no $in: ../shared is needed for the benchmark input"
[ -x "$BIN/tl-cat" ] || die "no $BIN/tl-cat: run make first"
mkdir -p "$dir" || die "cannot make $dir"

# The inputs, made once.  scale-trace writes gzip when OUT ends in .gz.
if [ ! -s "$gz" ]; then
	echo "bench: making $gz (owlv2 ×$scale, a few minutes, once)" >&2
	python3 "$SHARED/tools/scale-trace" "$in" "$scale" "$gz.tmp.gz" >&2 &&
		mv "$gz.tmp.gz" "$gz" || die "scale-trace failed"
fi
if [ ! -s "$json" ]; then
	zcat "$gz" >"$json.tmp" && mv "$json.tmp" "$json" || die "cannot write $json"
fi
mb=$(awk -v b="$(wc -c <"$json")" 'BEGIN { printf "%.1f", b / 1e6 }')
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM

# warm the page cache so the first row does not pay for the disk
cat "$gz" "$json" >/dev/null

# t NAME CMD...: run CMD with stdout to /dev/null, timed into $tmp/NAME
t() {
	name=$1; shift
	"$TIME" -f '%e %M %U %S' -o "$tmp/$name" "$@" >/dev/null 2>"$tmp/$name.err" ||
		{ echo "bench: $name failed: $(tail -1 "$tmp/$name.err")" >&2; echo "fail 0 0 0" >"$tmp/$name"; }
}
wall() { awk 'END { print $1 }' "$tmp/$1"; }
cpu() { awk 'END { printf "%.2f", $3 + $4 }' "$tmp/$1"; }
rss() { awk 'END { printf "%.1f", $2 / 1024 }' "$tmp/$1"; }

# row STAGE INPUT WALL CPU RSS_MB: one line of the table
row() {
	awk -v s="$1" -v i="$2" -v w="$3" -v c="$4" -v r="$5" -v z="$zwall" -v zc="$zcpu" -v mb="$mb" 'BEGIN {
		if (w == "fail") { printf "%-32s %-8s %7s\n", s, i, "failed"; exit }
		printf "%-32s %-8s %7.2f %7.2f %7.0f %7.0f %9s %6.2f %7.2f\n", s, i, w, c,
			(w > 0 ? mb / w : 0), (c > 0 ? mb / c : 0), r, (z > 0 ? w / z : 0),
			(zc > 0 ? c / zc : 0) }'
}

t zcat zcat "$gz"
zwall=$(wall zcat)
zcpu=$(cpu zcat)
t cat_gz "$BIN/tl-cat" "$gz"
t cat_json "$BIN/tl-cat" "$json"
t cat_nd "$BIN/tl-cat" --ndjson "$json"
events=$("$BIN/tl-cat" "$json" | awk -F'\t' '$1 == "#end" { print $3 }')

echo "input: $gz ($mb MB of JSON, $events events, scale ×$scale)"
printf "%-32s %-8s %7s %7s %7s %7s %9s %6s %8s\n" stage input wall_s cpu_s \
	"MB/s" "MB/cpu_s" "RSS_MB" "×zcat" "cpu×zcat"
for x in zcat:zcat:.json.gz cat_gz:tl-cat:.json.gz cat_json:tl-cat:.json \
	cat_nd:"tl-cat --ndjson":.json; do
	k=${x%%:*}; rest=${x#*:}
	row "${rest%:*}" "${rest##*:}" "$(wall "$k")" "$(cpu "$k")" "$(rss "$k")"
done

# The median of a[1..n], for the runs in turns below (awk)
awk_med='function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
		t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }'

# tl-cat on the .json again, in turns with zcat (the machine's speed moves
# within minutes, and one run of 1.5 s says as much about the minute as
# about tl-cat): TL_BENCH_PAIRS times (default 3), the medians
pairs=${TL_BENCH_PAIRS:-3}
: >"$tmp/catpairs"
i=0
while [ "$i" -lt "$pairs" ]; do
	t zpair zcat "$gz"
	t cpair "$BIN/tl-cat" "$json"
	echo "$(wall zpair) $(wall cpair) $(cpu cpair)" >>"$tmp/catpairs"
	i=$((i + 1))
done
awk -v mb="$mb" "$awk_med"'
	$1 == "fail" || $2 == "fail" { bad = 1; next }
	{ n++; c[n] = $2; cc[n] = $3; all = all sprintf(" %.2f/%.2f", $2, $1) }
	END { if (bad || !n) { print "  tl-cat .json and zcat in turns: failed"; exit }
		m = med(c, n)
		printf "  tl-cat .json and zcat in turns, %d pairs (tl-cat/zcat s:%s): median %.2f s, %.0f MB/s of JSON (target >= 1000: %s), CPU %.2f s\n",
			n, all, m, (m > 0 ? mb / m : 0), (m > 0 && mb / m >= 1000 ? "ok" : "not met"), med(cc, n) }' "$tmp/catpairs"

# Later stages, when built.  A pipeline is timed as a whole, and each
# process's peak RSS on its own.
if [ -x "$BIN/tl-tree" ] && [ -x "$BIN/tl-timeline" ]; then
	start=$(date +%s.%N)
	"$TIME" -f '%e %M %U %S' -o "$tmp/p1" "$BIN/tl-cat" "$gz" |
		"$TIME" -f '%e %M %U %S' -o "$tmp/p2" "$BIN/tl-tree" |
		"$TIME" -f '%e %M %U %S' -o "$tmp/p3" "$BIN/tl-timeline" >/dev/null 2>"$tmp/p.err"
	end=$(date +%s.%N)
	pw=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	pc=$(awk -v a="$(cpu p1)" -v b="$(cpu p2)" -v c="$(cpu p3)" 'BEGIN { print a + b + c }')
	row "tl-cat | tl-tree | tl-timeline" .json.gz "$pw" "$pc" \
		"$(rss p1)/$(rss p2)/$(rss p3)"
else
	echo "(tl-tree or tl-timeline not built: pipeline row skipped)"
fi
if [ -f "$src/scripts/tl-report" ]; then
	rm -rf "$tmp/report.d"
	PATH="$BIN:$PATH" TL_REPORT_TIME=$tmp/report.procs \
		t report sh "$src/scripts/tl-report" -o "$tmp/report.d" "$gz"
	row "scripts/tl-report" .json.gz "$(wall report)" "$(cpu report)" "$(rss report)"
	# peak RSS of every process, and their sum (an upper bound of the total)
	awk -v ev="$events" '{ n = $3; if (n == "nice") n = $6; sub(/.*\//, "", n); printf "%s%s %.0f", (NR > 1 ? ", " : ""), n, $2 / 1024
		s += $2; if ($2 > m) m = $2 } END { b = (ev > 0 ? m * 1024 / ev : 0)
		printf "; sum %.0f (target <= 430: %s); largest %.1f bytes/event (target <= 60: %s)\n",
		s / 1024, s / 1024 <= 430 ? "ok" : "OVER", b, b <= 60 ? "ok" : "OVER" }' "$tmp/report.procs" |
		sed 's/^/  tl-report processes, peak RSS MB: /'
	# The machine's speed moves by 15 % within minutes, and one zcat
	# beside one report says as much about the minute as about tl: zcat
	# and the report again, in turns, TL_BENCH_PAIRS times (default 3),
	# and the median of each and of the ratios of the pairs
	: >"$tmp/pairs"
	i=0
	while [ "$i" -lt "$pairs" ]; do
		t zpair zcat "$gz"
		rm -rf "$tmp/pair.d"
		PATH="$BIN:$PATH" t rpair sh "$src/scripts/tl-report" -o "$tmp/pair.d" "$gz"
		echo "$(wall zpair) $(wall rpair) $(cpu zpair) $(cpu rpair)" >>"$tmp/pairs"
		i=$((i + 1))
	done
	awk "$awk_med"'
		$1 == "fail" || $2 == "fail" { bad = 1; next }
		{ n++; z[n] = $1; r[n] = $2; q[n] = $2 / $1; zc[n] = $3; rc[n] = $4
		  all = all sprintf(" %.2f/%.2f", $2, $1) }
		END { if (bad || !n) { print "  tl-report and zcat in turns: failed"; exit }
			printf "  tl-report and zcat in turns, %d pairs (report/zcat s:%s): median %.2f s against %.2f, ratio of the pairs %.2f×zcat (median), CPU %.2f s against %.2f\n",
				n, all, med(r, n), med(z, n), med(q, n), med(rc, n), med(zc, n) }' "$tmp/pairs"
	# what tl-idle (HTA's breakdowns, OUT/idle/) adds to the report
	rm -rf "$tmp/report0.d"
	PATH="$BIN:$PATH" t report0 sh "$src/scripts/tl-report" --no-idle -o "$tmp/report0.d" "$gz"
	row "scripts/tl-report --no-idle" .json.gz "$(wall report0)" "$(cpu report0)" "$(rss report0)"
	awk -v a="$(wall report)" -v b="$(wall report0)" -v c="$(cpu report)" -v d="$(cpu report0)" \
		'BEGIN { if (b > 0 && d > 0) printf "  tl-idle adds %.0f %% to the wall time, %.0f %% to the CPU time (target: <= 20 %% wall)\n",
			100 * (a - b) / b, 100 * (c - d) / d }'
	"$BIN/tl-cat" "$gz" | "$BIN/tl-tree" >"$tmp/idle.nodes" 2>/dev/null &&
		t idle "$BIN/tl-idle" -o "$tmp/idle.d" "$tmp/idle.nodes"
	row "tl-idle (its node file)" nodes "$(wall idle)" "$(cpu idle)" "$(rss idle)"
	rm -f "$tmp/idle.nodes"
	# HTA itself on the same trace, on request: minutes and gigabytes
	if [ "${TL_BENCH_HTA:-}" = 1 ] && [ -x "$SHARED/tools/oracle/hta" ]; then
		mkdir -p "$tmp/hta.in" && ln -s "$gz" "$tmp/hta.in/trace.json.gz"
		t hta "$SHARED/tools/oracle/hta" "$tmp/hta.in" "$tmp/hta.out"
		row "HTA (oracle/hta: the same tables)" .json.gz "$(wall hta)" "$(cpu hta)" "$(rss hta)"
	else
		echo "  (HTA's own time on this trace: TL_BENCH_HTA=1 make bench; README has the figure)"
	fi
	# tl-html on the finished folder (tl-report ran it too): its cost, and
	# the page's size, which must stay under 2 MB whatever the trace's size
	if [ -x "$BIN/tl-html" ] && [ -d "$tmp/report.d" ]; then
		t html "$BIN/tl-html" -o "$tmp/report.html" "$tmp/report.d"
		row "tl-html (report.html)" folder "$(wall html)" "$(cpu html)" "$(rss html)"
		awk -v b="$(wc -c <"$tmp/report.html")" 'BEGIN { printf "  report.html: %.2f MB (limit 2 MB: %s)\n",
			b / 1048576, b < 2 * 1048576 ? "ok" : "OVER" }'
	fi
else
	echo "(scripts/tl-report not there: report row skipped)"
fi
if [ -x "$BIN/tl-diff" ] && [ -x "$BIN/tl-tree" ]; then
	# a perturbed copy: one op renamed throughout, made once
	pert=$dir/owlv2-x$scale-perturbed.json.gz
	if [ ! -s "$pert" ]; then
		sed 's/"aten::gelu"/"aten::relu"/' "$json" | gzip -1 >"$pert.tmp" &&
			mv "$pert.tmp" "$pert"
	fi
	"$BIN/tl-cat" "$gz" | "$BIN/tl-tree" >"$tmp/a.nodes" &&
		"$BIN/tl-cat" "$pert" | "$BIN/tl-tree" >"$tmp/b.nodes"
	t diff "$BIN/tl-diff" -o "$tmp/diff.d" "$tmp/a.nodes" "$tmp/b.nodes"
	row "tl-diff (nodes vs perturbed)" nodes "$(wall diff)" "$(cpu diff)" "$(rss diff)"
	# the whole job: both traces parsed and linked (two pipelines at once)
	t diff2 "$BIN/tl-diff" -o "$tmp/diff2.d" "$gz" "$pert"
	row "tl-diff (traces vs perturbed)" .json.gz "$(wall diff2)" "$(cpu diff2)" "$(rss diff2)"
else
	echo "(tl-diff not built: diff row skipped)"
fi
# The collective report's reduce alone (tl-coll -o DIR STREAM...) on 64
# ranks made once with make-ranks from the A100 corpus trace (cached in
# $dir/a100-ranks64): it reads only the small collectives streams, so it
# should take well under a second and memory in proportion to collectives.
a100=$SHARED/corpus/multirank-nccl-a100x4/ranks/rank0.json.gz
r64=$dir/a100-ranks64
if [ -x "$BIN/tl-coll" ] && [ -f "$a100" ]; then
	if [ ! -s "$r64/rank63.json.gz" ]; then
		echo "bench: making $r64 (64 ranks with make-ranks, minutes, once)" >&2
		rm -rf "$r64.tmp"
		python3 "$SHARED/tools/make-ranks" "$a100" 64 "$r64.tmp" --seed 1 --straggler 5 >/dev/null &&
			mv "$r64.tmp" "$r64" || die "make-ranks failed"
	fi
	mkdir -p "$tmp/streams.coll"
	r=0
	while [ $r -lt 64 ]; do
		"$BIN/tl-cat" "$r64/rank$r.json.gz" | "$BIN/tl-coll" --extract >"$tmp/streams.coll/rank$r.coll" ||
			die "tl-coll --extract failed on rank $r"
		r=$((r + 1))
	done
	t coll "$BIN/tl-coll" -o "$tmp/coll.d" "$tmp"/streams.coll/rank*.coll
	awk -v w="$(wall coll)" -v c="$(cpu coll)" -v r="$(rss coll)" \
		-v n="$(cat "$tmp"/streams.coll/*.coll | grep -c "^[0-9]")" -v kb="$(cat "$tmp"/streams.coll/*.coll | wc -c)" \
		'BEGIN { printf "tl-coll reduce, 64 ranks: %s s wall, %s s cpu, %s MB RSS (%d collective kernels, %.0f kB of streams)\n", w, c, r, n, kb / 1024 }'
else
	echo "(tl-coll or the A100 corpus set missing: reduce row skipped)"
fi
echo "targets: tl-report <= 1.0 ×zcat (aim 0.6); tl-cat >= 1000 MB/s on .json (one core);"
echo "         largest tl-report process <= 60 bytes/event, sum <= 430 MB; tl-diff of two traces <= 2 ×zcat;"
echo "         tl-coll reduce of 64 ranks < 1 s; report.html < 2 MB; tl-idle <= 20 % of tl-report's wall time"
