#!/bin/sh
# The tl-stream(5) reader (common/stream.c), in C: tests/unit/test-stream.c,
# on each of its row-splitting paths: the default (AVX2 where the CPU has
# it), SSE2 (TL_STREAM_SCAN=sse2), and memchr, the path of machines without
# SSE2 (aarch64), which TL_STREAM_SCAN=memchr takes here too.  Then the
# four readers of tl-report's node file write the same bytes on each.
. "$TL_SRC/tests/lib.sh"

for p in default sse2 memchr; do
	test_expect_success "stream reader unit tests pass (path $p)" '
		TL_STREAM_SCAN=$p "$TL_UNIT/test-stream" >unit.tap &&
		! grep "^not ok" unit.tap
	'
	sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null
done

# readers PATH: tl-perf, tl-timeline, tl-idle and tl-coll on nodes, into PATH/
readers() {
	mkdir -p "$1" &&
	TL_STREAM_SCAN=$1 tl-perf -o "$1/perf" nodes >/dev/null 2>"$1/perf.err" &&
	TL_STREAM_SCAN=$1 tl-timeline --csv nodes >"$1/timeline.csv" &&
	TL_STREAM_SCAN=$1 tl-idle -o "$1/idle" nodes &&
	TL_STREAM_SCAN=$1 tl-coll --extract -o "$1/coll.tsv" nodes
}

trace=$SHARED/corpus/h100-Qwen_Qwen1.5-0.5B-Chat__1016005/trace.json.gz
if have_shared && [ -f "$trace" ]; then
	test_expect_success 'the readers of a node stream: the same bytes on both paths' '
		tl-cat "$trace" | tl-tree --lean >nodes &&
		test $(grep -c "^#dropped" nodes) -gt 1000 &&
		readers default && readers sse2 && readers memchr &&
		diff -r default sse2 && diff -r sse2 memchr
	'
else
	test_skip 'the readers of a node stream on both paths' '../shared/corpus is absent'
fi
test_done
