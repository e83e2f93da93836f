#!/bin/sh
# tl-idle on the corpus's multi-rank traces against HTA's own tables:
#   reference-hta/ (oracle/hta: HTA's defaults) through tl-conform with
#   tests/conformance/deviations.tsv, byte for byte where tl agrees;
#   t8002-idle-corpus.d/ (make-refs.sh): every rank's idle breakdown and
#   launch statistics (-r all), the per-kernel statistics tl gives where HTA
#   is wrong, and TraceLens's T = A + Q + K table of rank 0;
#   --merge of the per-rank folders = all ranks read at once.
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'corpus conformance' "no corpus at $SHARED"
fi
DEV=$TL_SRC/tests/conformance/deviations.tsv

for c in multirank-dlrm-v100x8 multirank-nccl-a100x4; do
	dir=$SHARED/corpus/$c
	[ -d "$dir/reference-hta" ] || { test_skip "$c" "no $dir/reference-hta"; continue; }
	export c dir
	test_expect_success "$c: each rank's node stream" '
		mkdir -p "$c.nodes" &&
		for f in "$dir"/ranks/rank*.json.gz; do
			r=$(basename "$f" .json.gz) &&
			tl-cat "$f" >"$c.nodes/$r.events" &&
			tl-tree "$c.nodes/$r.events" >"$c.nodes/$r.nodes" &&
			rm "$c.nodes/$r.events" || return 1
		done
	'
	test_expect_success "$c: HTA's tables (tl-conform)" '
		tl-idle -o "$c.all" "$c.nodes"/rank*.nodes &&
		"$SHARED/tools/tl-conform" --deviations "$DEV" "$c.all" "$dir/reference-hta" \
			>"$c.conform" || { cat "$c.conform"; false; }
	'
	test_expect_success "$c: byte for byte where tl agrees with HTA" '
		for f in temporal_breakdown idle_time_breakdown comm_comp_overlap \
			gpu_kernel_type_breakdown cuda_kernel_launch_stats queue_length_summary; do
			test_cmp "$dir/reference-hta/$f.csv" "$c.all/$f.csv" || return 1
		done
	'
	test_expect_success "$c: every rank's idle breakdown and launches; per-launch kernel statistics" '
		tl-idle -r all -o "$c.every" "$c.nodes"/rank*.nodes &&
		for f in idle_time_breakdown cuda_kernel_launch_stats gpu_kernel_breakdown; do
			test_cmp "$TEST_DIR/$c/$f.csv" "$c.every/$f.csv" || return 1
		done
	'
	test_expect_success "$c: --merge of per-rank folders = all ranks at once" '
		for f in "$c.nodes"/rank*.nodes; do
			r=$(basename "$f" .nodes) &&
			tl-idle -o "$c.ranks/$r/idle" "$f" || return 1
		done &&
		tl-idle --merge -o "$c.merged" "$c.ranks"/rank* &&
		for f in "$c.all"/*.csv; do
			[ "$(basename "$f")" = api_kernel_summary.csv ] && continue
			test_cmp "$f" "$c.merged/$(basename "$f")" || return 1
		done &&
		test ! -e "$c.merged/api_kernel_summary.csv"
	'
done

test_expect_success "multirank-dlrm-v100x8 rank 0: TraceLens's T = A + Q + K table" '
	test_cmp "$TEST_DIR/multirank-dlrm-v100x8/api_kernel_summary.rank0.csv" \
		multirank-dlrm-v100x8.ranks/rank0/idle/api_kernel_summary.csv
'
test_done
