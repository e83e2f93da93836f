#!/bin/sh
# scripts/bench-ranks.sh — `make bench`, the job part: the wall time of
# `tl-ranks -j 2` (every rank's report plus the collective report) on 64
# ranks made with ../shared/tools/make-ranks from the corpus's A100 trace
# (40,573 events, 8.7 MB of JSON each; made once, cached in
# ${TL_BENCH_DIR:-$HOME/.cache/tl-bench}/a100-ranks64 as scripts/bench.sh
# makes it), on xargs -P (the default engine) and on GNU parallel
# (--parallel), and the reduce alone; beside
# the same job done with TraceLens's CLIs (its perf report on each rank,
# then its collective report).  TraceLens is run when TL_BENCH_TRACELENS=1
# and ../shared/tools/oracle is set up (minutes; one rank at a time, as
# issue 9 measured it, or TL_BENCH_TRACELENS_JOBS at a time); otherwise the figures
# measured for issue 9 on this machine are quoted: 1.73 s per rank and
# 6.4 s for the collective report, about 117 s in all.
#
# Targets: the whole job >= 30x faster than TraceLens's (<= 4 s on 2
# cores), the reduce under 1 s.  CPU seconds are printed too: on a shared
# machine wall time also counts waiting for a core.
#
# The job makes and deletes about 2,000 files.  On this machine's root file
# system (ext4 without a journal) a file made within minutes of many
# deletions costs more (the kernel skips inodes freed recently): runs of
# the job back to back took 4.4-4.6 s where the first took 3.6 s, so a
# figure for the README is one run after a few quiet minutes, or one on a
# file system made for it (TMPDIR on it: the job's folders go there too).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TL_BIN:-$src/bin}
SHARED=${SHARED:-$(cd "$src/.." && pwd)/shared}
dir=${TL_BENCH_DIR:-$HOME/.cache/tl-bench}
jobs=${TL_BENCH_JOBS:-2}
a100=$SHARED/corpus/multirank-nccl-a100x4/ranks/rank0.json.gz
r64=$dir/a100-ranks64
TIME=/usr/bin/time

die() { echo "bench-ranks: $*" >&2; exit 1; }
[ -x "$TIME" ] || die "needs /usr/bin/time (apt-get install time)"
[ -f "$a100" ] || die "no $a100: ../shared is needed for the benchmark input"
[ -x "$BIN/tl-coll" ] || die "no $BIN/tl-coll: run make first"
mkdir -p "$dir" || die "cannot make $dir"
if [ ! -s "$r64/rank63.json.gz" ]; then
	echo "bench-ranks: making $r64 (64 ranks with make-ranks, minutes, once)" >&2
	rm -rf "$r64.tmp"
	python3 "$SHARED/tools/make-ranks" "$a100" 64 "$r64.tmp" --seed 1 --straggler 5 >/dev/null &&
		mv "$r64.tmp" "$r64" || die "make-ranks failed"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tl-bench-ranks.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
PATH=$BIN:$src/scripts:$PATH
export PATH

# t NAME CMD...: wall, CPU (user + system, children included) and peak RSS
t() {
	name=$1; shift
	$TIME -f '%e %U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		{ tail -n 5 "$tmp/$name.err" >&2; die "$name failed"; }
}
wall() { awk '{ print $1 }' "$tmp/$1.time" | tail -n 1; }
cpu() { awk '{ printf "%.2f", $2 + $3 }' "$tmp/$1.time" | tail -n 1; }

mb=$(for f in "$r64"/rank*.json.gz; do gzip -dc "$f" | wc -c; done | awk '{ s += $1 } END { printf "%.0f", s / 1048576 }')
events=$(gzip -dc "$r64/rank0.json.gz" | grep -c '"ph"')
cat "$r64"/rank*.json.gz >/dev/null	# the page cache, as for every later run
echo "tl-ranks -j $jobs on 64 ranks of the A100 trace ($mb MB of JSON, about $events events a rank), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"

row() { printf '%-44s %8s s wall %8s s cpu   %s\n' "$1" "$2" "$3" "${4:-}"; }
t xargs sh "$src/scripts/tl-ranks" -j "$jobs" -o "$tmp/jobx" --trace-dir "$r64"
row "tl-ranks (xargs -P, the default; all 64 reports + collectives)" "$(wall xargs)" "$(cpu xargs)"
if command -v parallel >/dev/null 2>&1; then
	t par sh "$src/scripts/tl-ranks" --parallel -j "$jobs" -o "$tmp/job" --trace-dir "$r64"
	row "tl-ranks --parallel (GNU parallel), the same" "$(wall par)" "$(cpu par)"
else
	echo "(GNU parallel is not installed: the --parallel row skipped)"
fi
best=$(wall xargs)
t reduce sh "$src/scripts/tl-ranks" --reduce "$tmp/jobx"
row "  the reduce alone (tl-coll, ranks.csv, report.md)" "$(wall reduce)" "$(cpu reduce)"
one=$(ls "$r64"/rank1.json.gz)
t one sh "$src/scripts/tl-report" --collectives-out "$tmp/one.coll" --rank 1 -o "$tmp/one" "$one"
row "  one rank's tl-report (the map of one rank)" "$(wall one)" "$(cpu one)"

oracle=${TL_ORACLE_TOOLS:-$SHARED/tools/oracle}
if [ "${TL_BENCH_TRACELENS:-0}" = 1 ] && [ -x "$oracle/tracelens-report" ] && [ -d "${TL_ORACLE:-$HOME/tl-oracle}/TraceLens" ]; then
	# TraceLens's CLIs on the same job, measured as issue 9 measured its
	# 117 s: its perf report on each rank one after another (TraceLens
	# runs one trace at a time), then its collective report;
	# TL_BENCH_TRACELENS_JOBS=2 runs two ranks at a time instead.
	tjobs=${TL_BENCH_TRACELENS_JOBS:-1}
	cat >"$tmp/tl1.sh" <<-EOF
	#!/bin/sh
	exec "$oracle/tracelens-report" "$r64/rank\$1.json.gz" "$tmp/tl/rank\$1" >/dev/null 2>&1
	EOF
	t tlrep sh -c 'seq 0 63 | xargs -P "$1" -n 1 sh "$2"' sh "$tjobs" "$tmp/tl1.sh"
	t tlcoll "$oracle/tracelens-coll" "$r64/rank*.json.gz" 64 "$tmp/tl/coll"
	tl_total=$(awk -v a="$(wall tlrep)" -v b="$(wall tlcoll)" 'BEGIN { printf "%.1f", a + b }')
	tl_cpu=$(awk -v a="$(cpu tlrep)" -v b="$(cpu tlcoll)" 'BEGIN { printf "%.1f", a + b }')
	row "TraceLens perf report x 64 (xargs -P $tjobs)" "$(wall tlrep)" "$(cpu tlrep)"
	row "TraceLens collective report" "$(wall tlcoll)" "$(cpu tlcoll)"
	row "TraceLens, the whole job" "$tl_total" "$tl_cpu"
	awk -v a="$tl_cpu" -v b="$(cpu xargs)" 'BEGIN {
		printf "CPU seconds: TraceLens %s, tl-ranks %s (%.0fx less)\n", a, b, a / b }'
	what="measured now"
else
	tl_total=117
	row "TraceLens, the whole job (issue 9's figures)" "$tl_total" "" "1.73 s x 64 ranks + 6.4 s collective report"
	what="issue 9's figures; TL_BENCH_TRACELENS=1 measures them"
fi
awk -v tl="$tl_total" -v us="$best" -v what="$what" 'BEGIN {
	printf "speed-up: %.0fx (TraceLens %s s, %s; tl-ranks %s s)\n", tl / us, tl, what, us }'
echo "targets: the whole job >= 30x faster than TraceLens (<= 4 s on 2 cores); the reduce < 1 s"
