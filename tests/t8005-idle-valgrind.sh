#!/bin/sh
# valgrind finds no leaks and no memory errors in tl-idle: the breakdowns
# of several ranks, the critical path with its gzip overlay, the merge of
# per-rank folders.  Skipped under SAN=1 and where valgrind is missing.
. "$TL_SRC/tests/lib.sh"

sample=$TL_SRC/share/tl/sample/trace.json
cp_trace=$SHARED/corpus/hta-critical-path/cuda_event_sync_multi_stream/event_sync_trace.json.gz
why=
if [ "${TL_SAN:-}" = 1 ]; then why='SAN=1 build (ASan replaces valgrind)'
elif ! command -v valgrind >/dev/null 2>&1; then why='valgrind is not installed'
fi
if [ -n "$why" ]; then
	test_skip_all 'tl-idle is valgrind-clean' "$why"
fi
[ -f "$cp_trace" ] || cp_trace=$sample

vg() {
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@"
}

tl-cat "$sample" >s.events && tl-tree s.events >s.nodes &&
	sed 's/"rank": 0/"rank": 1/' "$sample" >r1.json && tl-cat r1.json >r1.events &&
	tl-tree r1.events >r1.nodes && tl-cat "$cp_trace" >c.events && tl-tree c.events >c.nodes ||
	exit 1

test_expect_success 'breakdowns of two ranks' 'vg tl-idle -r all -o both s.nodes r1.nodes'
test_expect_success 'the critical path, overlay gzip' '
	vg tl-idle --critical-path "" -o cp c.nodes && ls cp/overlaid_critical_path_*
'
test_expect_success 'the critical path from standard input' '
	vg tl-idle --critical-path ProfilerStep -o cp2 <s.nodes
'
test_expect_success 'the merge of per-rank folders' '
	tl-idle -o r0 s.nodes && tl-idle -o r1 r1.nodes && vg tl-idle --merge -o job r0 r1
'
test_expect_success 'an error path' '
	vg tl-idle --critical-path nosuch -o x s.nodes 2>err; test $? = 1
'
test_done
