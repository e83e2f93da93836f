#!/bin/sh
# Conformance: for every corpus folder with a TraceLens gpu_timeline.csv,
# tl-timeline --csv must pass tl-conform for that sheet, on
#   (1) the event stream of tests/tools/pycat.py (independent of tl-cat),
#   (2) the real pipeline tl-cat trace | tl-tree | tl-timeline --csv,
#       and the event stream of tl-cat must give the same CSV as the nodes.
# Intermediate streams are files, and every exit status is checked.
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'gpu_timeline conformance' "no corpus at $SHARED"
fi

# tl-conform compares every reference sheet in REFDIR: give it only ours.
conform() {
	mkdir -p "$1.ref" &&
	cp "$2/reference/gpu_timeline.csv" "$1.ref/" &&
	"$SHARED/tools/tl-conform" "$1" "$1.ref" >"$1.conform" ||
	{ cat "$1.conform"; return 1; }
}

have_python=; command -v python3 >/dev/null 2>&1 && have_python=1
have_pipeline=; [ -x "$TL_BIN/tl-cat" ] && [ -x "$TL_BIN/tl-tree" ] && have_pipeline=1

for dir in "$SHARED"/corpus/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -f "$dir/reference/gpu_timeline.csv" ] && [ -f "$dir/trace.json.gz" ] || continue
	export dir name

	if [ -n "$have_python" ]; then
		test_expect_success "$name: pycat events | tl-timeline --csv conforms" '
			python3 "$TL_SRC/tests/tools/pycat.py" "$dir/trace.json.gz" >"$name.py.tsv" &&
			mkdir -p "$name.py" &&
			tl-timeline --csv "$name.py.tsv" >"$name.py/gpu_timeline.csv" 2>"$name.py.err" &&
			conform "$name.py" "$dir"
		'
	else
		test_skip "$name: pycat events conform" "python3 not found"
	fi

	if [ -z "$have_pipeline" ]; then
		test_skip "$name: tl-cat | tl-tree | tl-timeline --csv conforms" \
			"tl-cat or tl-tree not built yet (not in $TL_BIN)"
		continue
	fi
	test_expect_success "$name: tl-cat | tl-tree | tl-timeline --csv conforms" '
		tl-cat "$dir/trace.json.gz" >"$name.events" &&
		tl-tree <"$name.events" >"$name.nodes" &&
		mkdir -p "$name.out" "$name.ev" &&
		tl-timeline --csv "$name.nodes" >"$name.out/gpu_timeline.csv" 2>"$name.err" &&
		conform "$name.out" "$dir"
	'
	test_expect_success "$name: events and nodes give the same breakdowns" '
		tl-timeline --csv "$name.events" >"$name.ev/gpu_timeline.csv" 2>"$name.ev.err" &&
		test_cmp "$name.out/gpu_timeline.csv" "$name.ev/gpu_timeline.csv" &&
		tl-timeline --csv --per-stream --micro-idle 10 "$name.events" >"$name.ev.s" &&
		tl-timeline --csv --per-stream --micro-idle 10 "$name.nodes" >"$name.out.s" &&
		test_cmp "$name.out.s" "$name.ev.s"
	'
done
test_done
