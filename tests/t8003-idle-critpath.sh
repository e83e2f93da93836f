#!/bin/sh
# tl-idle --critical-path against HTA's critical path: the corpus's
# simple_add and alexnet references (annotation
# [param|pytorch.model.alex_net|0|0|0|measure|forward], instance 1), and
# HTA's output, committed in t8003-idle-critpath.d/ (make-refs.sh), for the
# cuda_event_sync cases (sync edges: a path, not an error), end_to_end (the
# whole trace, data loading) and the shipped sample trace.  The summary must
# match byte for byte; the breakdown and the overlaid trace are compared by
# tests/tools/hta_cp_compare.py (HTA orders them by Python set order).
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'critical path conformance' "no corpus at $SHARED"
fi
C=$SHARED/corpus/hta-critical-path
ANN='[param|pytorch.model.alex_net|0|0|0|measure|forward]'
have_python=; command -v python3 >/dev/null 2>&1 && have_python=1
export ANN

judge() { # OUT REF
	test_cmp "$2/critical_path_summary.csv" "$1/critical_path_summary.csv" || return 1
	[ -z "$have_python" ] && return 0
	python3 "$TL_SRC/tests/tools/hta_cp_compare.py" "$1" "$2" >"$1.cmp" ||
	{ cat "$1.cmp"; return 1; }
}

# NAME TRACE REF ARGS...: the arguments go through a file, one a line
check() {
	name=$1 trace=$2 ref=$3
	shift 3
	printf '%s\n' "$@" >"$name.args"
	export name trace ref
	test_expect_success "$name: the critical path HTA finds" '
		tl-cat "$trace" >"$name.events" && tl-tree "$name.events" >"$name.nodes" &&
		set -- && while IFS= read -r a; do set -- "$@" "$a"; done <"$name.args" &&
		tl-idle "$@" -o "$name.cp" "$name.nodes" &&
		judge "$name.cp" "$ref"
	'
}

check simple_add "$C/simple_add/benchmark_result_493459_1694039959_trace.json.gz" \
	"$C/simple_add/reference" --critical-path "$ANN" --instance 1
check alexnet "$C/alexnet/benchmark_result_2869224_1695835535_trace.json.gz" \
	"$C/alexnet/reference" --critical-path "$ANN" --instance 1
check cuda_event_sync "$C/cuda_event_sync/event_sync_trace.json.gz" \
	"$TEST_DIR/cuda_event_sync" --critical-path ProfilerStep
check cuda_event_sync_multi_stream "$C/cuda_event_sync_multi_stream/event_sync_trace.json.gz" \
	"$TEST_DIR/cuda_event_sync_multi_stream" --critical-path ""
check end_to_end "$C/end_to_end/simple_add/input/trace.json.gz" \
	"$TEST_DIR/end_to_end" --critical-path "" --data-load data_load
check sample "$TL_SRC/share/tl/sample/trace.json" "$TEST_DIR/sample" --critical-path ProfilerStep

test_expect_success 'cuda_event_sync: the path crosses the sync edges' '
	grep -c ",critical_path_sync_dependency," cuda_event_sync.cp/critical_path_breakdown.csv >n &&
	test "$(cat n)" -ge 1
'
if [ -n "$have_python" ]; then
	test_expect_success 'end_to_end: as many critical events as HTA'"'"'s committed output' '
		python3 -c "
import gzip, json, sys
def crit(p):
    return sum(1 for e in json.load(gzip.open(p))[\"traceEvents\"]
               if \"critical\" in e.get(\"args\", {}))
a, b = crit(sys.argv[1]), crit(sys.argv[2])
assert a == b, (a, b)
" end_to_end.cp/overlaid_critical_path_trace.json.gz \
		"$C/end_to_end/simple_add/output/overlaid_critical_path_trace.json.gz"
	'
fi
test_expect_success 'standard input: the same path (read twice through a temporary file)' '
	tl-idle --critical-path "$ANN" --instance 1 -o stdin.cp <alexnet.nodes &&
	test_cmp alexnet.cp/critical_path_breakdown.csv stdin.cp/critical_path_breakdown.csv &&
	test -s stdin.cp/overlaid_critical_path_benchmark_result_2869224_1695835535_trace.json.gz
'
test_expect_success 'an instance range: instances 0 to 1 of simple_add' '
	tl-idle --critical-path "$ANN" --instance 0:1 -o range.cp simple_add.nodes &&
	test -s range.cp/critical_path_summary.csv
'
test_done
