#!/bin/sh
# valgrind finds no leaks and no memory errors in tl-html (a trace's, a
# job's and a tl-diff folder's pages and summaries) and in the sheets it
# reads that tl-report adds (tl-timeline --strip, tl-perf --info).  Skipped
# under SAN=1 (ASan and valgrind do not mix) and where valgrind is missing.
. "$TL_SRC/tests/lib.sh"

trace=$TL_SRC/share/tl/sample/trace.json
why=
if [ "${TL_SAN:-}" = 1 ]; then why='SAN=1 build (ASan replaces valgrind)'
elif ! command -v valgrind >/dev/null 2>&1; then why='valgrind is not installed'
fi
if [ -n "$why" ]; then
	test_skip_all 'tl-html is valgrind-clean' "$why"
fi

vg() {
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@"
}

tl-cat "$trace" >events.tsv && tl-tree events.tsv >nodes.tsv || exit 1

test_expect_success 'tl-timeline --strip and tl-perf --info are valgrind-clean' '
	mkdir rep &&
	vg tl-timeline --csv --strip rep/timeline_strip.csv nodes.tsv >rep/gpu_timeline.csv &&
	vg tl-perf --csv -o rep --info rep/report_info.csv --arch auto nodes.tsv 2>/dev/null
'

test_expect_success 'tl-html on a trace report is valgrind-clean' '
	vg tl-html rep && vg tl-html --md rep && test -s rep/report.html
'

ranks=$SHARED/corpus/multirank-dlrm-v100x8/reference
diff=$SHARED/corpus/tracediff-timesformer-mi300-vs-h100/reference
if have_shared && [ -d "$ranks" ] && [ -d "$diff" ]; then
	test_expect_success 'tl-html on a job and a tl-diff folder is valgrind-clean' '
		mkdir -p job/collectives && cp "$ranks"/*.csv job/collectives/ &&
		printf "%s\n" "rank,trace,total_time_us,busy_time_us,idle_time_us,computation_time_us,exposed_comm_time_us,exposed_memcpy_time_us,collective_time_us,wait_time_us,arrived_last,straggler" \
			"0,a,100,60,40,50,8,2,9,3,1,0" "1,b,90,50,40,45,4,1,5,7,0,1" >job/ranks.csv &&
		vg tl-html job && vg tl-html --md job &&
		mkdir d && cp "$diff"/diff_stats.csv d/ &&
		vg tl-html d && vg tl-html --md d
	'
else
	test_skip 'job and tl-diff folders' '../shared/corpus is absent'
fi
test_done
