#!/bin/sh
# tests/fuzz/run.sh [-s] [-t SECONDS | -r RUNS] [PATTERN] — run each libFuzzer
# harness built by "make FUZZ=1 fuzzers" (build/fuzz/fuzz/fuzz-NAME) for
# SECONDS (60).  make fuzz FUZZ_S=N FUZZ_T=PATTERN calls it.
#
# -r RUNS: for CI, RUNS inputs from libFuzzer's seed 1, starting from the
# committed seeds and crashers only (a scratch corpus, build/fuzz/runs/NAME,
# emptied first), at most 120 s a harness, with -reload=0 and without
# address space randomisation (setarch -R).  With either left on, two runs
# of fuzz-diff parted after 3500 to 15000 inputs (a reload goes by the
# clock; addresses vary from run to run); with both off, fuzz-diff (20000
# inputs) and fuzz-perf (8000) ran the same twice, line for line.  Across
# clean clones and shells (make or not) some harnesses still end a few
# edges apart (fuzz-tree, fuzz-coll, fuzz-cat, fuzz-idle, fuzz-perf in
# three CI runs): the environment's size moves the stack, and addresses
# still reach them; repeated the same way in one checkout, a run is the
# same.  A wall-clock run from a random seed explores somewhere new each
# time; this one, run before the push, walks nearly where CI will.
#
# Per harness NAME:
#   corpus     build/fuzz/corpus/NAME (grows from run to run), plus the
#              committed seeds tests/fuzz/corpus/NAME and crashers
#              tests/fuzz/crashers/NAME, read only
#   dictionary tests/fuzz/dict/D.dict, D from the harness's "Dictionary: D"
#   findings   build/fuzz/findings/NAME/ (crash-*, leak-*, timeout-*, oom-*)
#   log        build/fuzz/log/NAME.log
# Each run appends a line to build/fuzz/history.tsv (date, harness, wall
# seconds, CPU seconds, executions, coverage, features, corpus size, new
# findings) so that the total fuzzing time can be added up.  Exits 1 if any
# harness found something new.
src=$(cd "$(dirname "$0")/../.." && pwd)
secs=60 runs=
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	-r) runs=$2 secs=120; shift 2 ;;
	# -s: the README's table, totals of build/fuzz/history.tsv per harness
	# (rows from before CPU time was recorded count their wall time apart)
	-s) awk -F '\t' '
		NF == 9 { w[$2] += $3; c[$2] += $4; r[$2] += $5; cv = $6; f[$2] += $9 }
		NF == 8 { w[$2] += $3; u[$2] += $3; r[$2] += $4; cv = $5; f[$2] += $8 }
		{ if (cv + 0 > cov[$2]) cov[$2] = cv + 0 }
		END { for (h in w) printf "| fuzz-%s | %d s (%d s CPU%s) | %d | %d | %d |\n", h, w[h], c[h],
			u[h] ? sprintf("; %d s untimed", u[h]) : "", r[h], cov[h], f[h] }' \
		"$src/build/fuzz/history.tsv" | sort
		exit ;;
	*) break ;;
	esac
done
pattern=${1:-fuzz-*}
# CPU seconds used by this shell's children so far (times(1): 2nd line;
# times runs in this shell, not in a $(...) subshell, which has no children)
cpu_seconds() {
	times >"$out/.times.$name"
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
		printf "%d\n", t }' "$out/.times.$name"
}
out=$src/build/fuzz
found=0 ran=0
# -r: no address randomisation where the kernel lets setarch turn it off
norand=
[ -n "$runs" ] && setarch -R true 2>/dev/null && norand="setarch -R"

mkdir -p "$out/log"
for bin in "$out"/fuzz/$pattern; do
	[ -x "$bin" ] || continue
	h=$(basename "$bin")
	name=${h#fuzz-}
	corpus=$out/corpus/$name findings=$out/findings/$name
	if [ -n "$runs" ]; then
		corpus=$out/runs/$name
		rm -rf "$corpus"
	fi
	mkdir -p "$corpus" "$findings"
	set -- "$corpus"
	for d in "$src/tests/fuzz/corpus/$name" "$src/tests/fuzz/crashers/$name"; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	dict=$(sed -n 's/.*Dictionary: \([a-z0-9_-]*\).*/\1/p' "$src/tests/fuzz/$h.c" | head -n 1)
	[ -n "$dict" ] && set -- -dict="$src/tests/fuzz/dict/$dict.dict" "$@"
	# -timeout: a run over 10 s is a finding (the judge allows 20 s on
	# held-out inputs); stderr of the code under test is closed (every bad
	# input has a message), libFuzzer's own output and reports are kept.
	[ -n "$runs" ] && set -- -seed=1 -reload=0 -runs="$runs" "$@"
	touch "$out/.start.$name"
	cpu_seconds >"$out/.cpu0.$name"
	wall0=$(date +%s)
	$norand "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$findings/" \
		"$@" >"$out/log/$name.log" 2>&1
	rc=$?
	wall=$(($(date +%s) - wall0))
	cpu_seconds >"$out/.cpu1.$name"
	cpu=$(($(cat "$out/.cpu1.$name") - $(cat "$out/.cpu0.$name")))
	ran=$((ran + 1))
	stats=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE|INITED)' "$out/log/$name.log" | tail -n 1)
	# printf, not echo: dash's echo turns a dictionary entry's "\375" in
	# the line into a raw byte, and the history got a garbled count
	cov=$(printf '%s\n' "$stats" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$stats" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log/$name.log")
	ncorp=$(find "$corpus" -type f | wc -l | tr -d ' ')
	nfind=$(find "$findings" -type f -newer "$out/.start.$name" | wc -l | tr -d ' ')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" \
		"$wall" "$cpu" "${execs:-0}" "${cov:-?}" "${ft:-?}" "$ncorp" "$nfind" >>"$out/history.tsv"
	if [ "$rc" -ne 0 ] || [ "$nfind" -gt 0 ]; then
		found=1
		echo "FIND $name: exit $rc, $nfind finding(s) in $findings (log $out/log/$name.log)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$out/log/$name.log" | head -n 5 | sed 's/^/    /'
	else
		echo "ok   $name: ${wall}s (${cpu}s CPU), ${execs:-?} runs, cov ${cov:-?}, ft ${ft:-?}, corpus $ncorp"
	fi
done
[ "$ran" -gt 0 ] || { echo "fuzz: no harness matches '$pattern' in $out/fuzz (make FUZZ=1 fuzzers)" >&2; exit 1; }
exit $found
