#!/bin/sh
# scripts/bench.sh — `make bench`: how fast tl is on a large trace.
#
# Makes (once, cached in ${TL_BENCH_DIR:-$HOME/.cache/tl-bench}) the owlv2
# corpus trace scaled ×${TL_BENCH_SCALE:-20} with ../shared/tools/scale-trace
# (≈ 1.1 GB of JSON, 2.6 M events) as .json.gz and as plain .json, then runs
# each stage once, side by side in this one run, and prints one row per
# stage: wall seconds, MB/s of uncompressed JSON, peak RSS of each process,
# and the ratio of the wall time to `zcat FILE > /dev/null` on the same
# .json.gz.  Stages that are not built yet (tl-tree, tl-timeline, tl-diff,
# scripts/tl-report) are skipped, saying so.
#
# Targets (tl-cat): ≥ 400 MB/s of JSON on one core; on .json.gz at most
# 1.5× zcat's wall time; peak RSS under 64 MB whatever the input size.
# Timing uses /usr/bin/time (%e wall seconds, %M peak RSS in KiB).
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
	"$TIME" -f '%e %M' -o "$tmp/$name" "$@" >/dev/null 2>"$tmp/$name.err" ||
		{ echo "bench: $name failed: $(tail -1 "$tmp/$name.err")" >&2; echo "fail 0" >"$tmp/$name"; }
}
wall() { awk '{ print $1 }' "$tmp/$1"; }
rss() { awk 'END { printf "%.1f", $2 / 1024 }' "$tmp/$1"; }

# row STAGE INPUT WALL RSS_MB: one line of the table
row() {
	awk -v s="$1" -v i="$2" -v w="$3" -v r="$4" -v z="$zwall" -v mb="$mb" 'BEGIN {
		if (w == "fail") { printf "%-34s %-8s %8s\n", s, i, "failed"; exit }
		printf "%-34s %-8s %8.2f %9.0f %12s %8.2f\n", s, i, w,
			(w > 0 ? mb / w : 0), r, (z > 0 ? w / z : 0) }'
}

t zcat zcat "$gz"
zwall=$(wall zcat)
t cat_gz "$BIN/tl-cat" "$gz"
t cat_json "$BIN/tl-cat" "$json"
t cat_nd "$BIN/tl-cat" --ndjson "$json"
events=$("$BIN/tl-cat" "$json" | awk -F'\t' '$1 == "#end" { print $3 }')

echo "input: $gz ($mb MB of JSON, $events events, scale ×$scale)"
printf "%-34s %-8s %8s %9s %12s %8s\n" stage input wall_s "MB/s" peak_RSS_MB "×zcat"
row "zcat" .json.gz "$zwall" "$(rss zcat)"
row "tl-cat" .json.gz "$(wall cat_gz)" "$(rss cat_gz)"
row "tl-cat" .json "$(wall cat_json)" "$(rss cat_json)"
row "tl-cat --ndjson" .json "$(wall cat_nd)" "$(rss cat_nd)"

# Later stages, when built.  A pipeline is timed as a whole, and each
# process's peak RSS on its own.
if [ -x "$BIN/tl-tree" ] && [ -x "$BIN/tl-timeline" ]; then
	start=$(date +%s.%N)
	"$TIME" -f '%e %M' -o "$tmp/p1" "$BIN/tl-cat" "$gz" |
		"$TIME" -f '%e %M' -o "$tmp/p2" "$BIN/tl-tree" |
		"$TIME" -f '%e %M' -o "$tmp/p3" "$BIN/tl-timeline" >/dev/null 2>"$tmp/p.err"
	end=$(date +%s.%N)
	pw=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	row "tl-cat | tl-tree | tl-timeline" .json.gz "$pw" \
		"$(rss p1)/$(rss p2)/$(rss p3)"
else
	echo "(tl-tree or tl-timeline not built: pipeline row skipped)"
fi
if [ -f "$src/scripts/tl-report" ]; then
	rm -rf "$tmp/report"
	PATH="$BIN:$PATH" t report sh "$src/scripts/tl-report" "$gz" -o "$tmp/report"
	row "scripts/tl-report" .json.gz "$(wall report)" "$(rss report)"
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
	t diff "$BIN/tl-diff" "$tmp/a.nodes" "$tmp/b.nodes"
	row "tl-diff (nodes vs perturbed)" nodes "$(wall diff)" "$(rss diff)"
else
	echo "(tl-diff not built: diff row skipped)"
fi
echo "targets: tl-cat >= 400 MB/s on .json; <= 1.5 ×zcat on .json.gz; RSS < 64 MB"
