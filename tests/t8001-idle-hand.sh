#!/bin/sh
# tl-idle on hand-made traces (t8001-idle-hand.d/README.md works out every
# expected figure): each idle category, a sync, two streams, overlapping
# communication and computation, a kernel that runs before the next launch,
# float timestamps, and the two places tl deviates from HTA on purpose.
# CASE/expect/ must match byte for byte; CASE/hta/ (HTA's own output) must
# pass tl-conform with tests/conformance/deviations.tsv.
. "$TL_SRC/tests/lib.sh"

D=$TEST_DIR
DEV=$TL_SRC/tests/conformance/deviations.tsv

have_conform=; [ -x "$SHARED/tools/tl-conform" ] && command -v python3 >/dev/null 2>&1 &&
	have_conform=1

for c in waits overlap launch sync many culaunch ns; do
	export c
	test_expect_success "$c: tl-cat | tl-tree | tl-idle" '
		tl-cat "$D/$c/trace.json" >"$c.events" &&
		tl-tree "$c.events" >"$c.nodes" &&
		tl-idle -o "$c.out" "$c.nodes"
	'
	for f in "$D/$c/expect"/*.csv; do
		b=$(basename "$f")
		case $b in critical_path_*) continue ;; esac
		export b
		test_expect_success "$c: $b as worked out by hand" '
			test_golden "$D/$c/expect/$b" "$c.out/$b"
		'
	done
	if [ -z "$have_conform" ]; then
		test_skip "$c: HTA's tables" "no ../shared/tools/tl-conform or python3"
		continue
	fi
	test_expect_success "$c: HTA's tables (tl-conform, deviations.tsv)" '
		mkdir -p "$c.ref" &&
		for f in "$D/$c/hta"/*.csv; do
			case $(basename "$f") in critical_path_*) continue ;; esac
			# culaunch: HTA has no row for the cuLaunchKernel launch (README)
			[ "$c/$(basename "$f")" = culaunch/cuda_kernel_launch_stats.csv ] && continue
			cp "$f" "$c.ref/" || return 1
		done &&
		"$SHARED/tools/tl-conform" --deviations "$DEV" "$c.out" "$c.ref" >"$c.conform" ||
		{ cat "$c.conform"; false; }
	'
done

# the two places where tl and HTA differ, and by how much
test_expect_success 'many: HTA gives a named kernel its sum as max/min/mean' '
	grep "^k11,36.0,36.0,36.0,0.0,36.0,COMPUTATION,0\$" "$D/many/hta/gpu_kernel_breakdown.csv" &&
	grep "^k11,36.0,24.0,12.0,8.48528137423857,18.0,COMPUTATION,0\$" many.out/gpu_kernel_breakdown.csv
'
test_expect_success 'culaunch: HTA misses the cuLaunchKernel launch, tl has it' '
	! grep "^2," "$D/culaunch/hta/cuda_kernel_launch_stats.csv" &&
	grep "^2,4.0,2.0,6.0,0\$" culaunch.out/cuda_kernel_launch_stats.csv
'

for c in launch sync; do
	export c
	test_expect_success "$c: the critical path worked out by hand" '
		tl-idle --critical-path "ProfilerStep#1" -o "$c.cp" "$c.nodes" &&
		test_golden "$D/$c/expect/critical_path_summary.csv" "$c.cp/critical_path_summary.csv" &&
		test_golden "$D/$c/expect/critical_path_breakdown.csv" "$c.cp/critical_path_breakdown.csv"
	'
	if command -v python3 >/dev/null 2>&1; then
		test_expect_success "$c: the critical path HTA finds" '
			python3 "$TL_SRC/tests/tools/hta_cp_compare.py" "$c.cp" "$D/$c/hta" >"$c.cmp" ||
			{ cat "$c.cmp"; false; }
		'
	else
		test_skip "$c: the critical path HTA finds" "python3 not found"
	fi
done

test_expect_success 'launch: the overlaid trace is plain JSON (its name has no .gz) with the path marked' '
	! gzip -t launch.cp/overlaid_critical_path_trace.json 2>/dev/null &&
	python3 -c "
import json, sys
d = json.load(open(\"launch.cp/overlaid_critical_path_trace.json\"))
ev = d[\"traceEvents\"]
crit = sorted(e[\"name\"] for e in ev if e.get(\"cat\") != \"critical_path\" and e.get(\"args\", {}).get(\"critical\") == 1)
flows = [e for e in ev if e.get(\"cat\") == \"critical_path\"]
assert crit == [\"cudaLaunchKernel\", \"cudaLaunchKernel\", \"void gemm_kernel<1>(int)\"], crit
assert sorted(e[\"args\"][\"type\"] for e in flows) == sorted(
	[\"critical_path_dependency\"] * 2 + [\"critical_path_kernel_launch_delay\"] * 2), flows
assert d[\"traceName\"] == \"hand.json\" and d[\"distributedInfo\"][\"rank\"] == 0
"
'
test_done
