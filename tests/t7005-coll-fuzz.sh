#!/bin/sh
# tests/fuzz/coll_stream.c, the libFuzzer harness of tl-coll's reduce (the
# collectives-stream reader and every sheet built from what it reads),
# built with clang's -fsanitize=fuzzer,address,undefined and run for a
# fixed number of inputs from seeds made of the committed test streams.
# Any crash, leak or sanitizer report fails.  Skipped without clang's
# libFuzzer.  Longer runs by hand: see the harness's header.
. "$TL_SRC/tests/lib.sh"

cc=$(command -v clang || command -v clang-14)
if [ -z "$cc" ] || ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >probe.c ||
   ! "$cc" -fsanitize=fuzzer probe.c -o probe 2>/dev/null; then
	test_skip 'coll stream fuzzing' 'no clang with libFuzzer (apt-get install clang)'
	test_done; exit
fi
test_expect_success 'the harness builds' '
	(cd "$TL_SRC" && "$cc" -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Icommon \
		tests/fuzz/coll_stream.c $(cat tests/fuzz/coll_stream.deps) -lm -o "$TRASH/fuzz-coll")
'
test_expect_success 'seeds: the test streams, one and several ranks' '
	mkdir -p seeds &&
	cp "$TL_SRC/tests/t7000-coll-extract.d/expect.coll" seeds/extract.coll &&
	for c in full simplified missing a2av mismatch lists; do
		for f in "$TL_SRC/tests/t7001-coll-oracle.d/$c"/rank[01].json; do
			tl-cat "$f" | tl-coll --extract || exit 1
		done >seeds/$c.coll
	done &&
	test $(ls seeds | wc -l) = 7
'
test_expect_success '2000 inputs: no crash, leak or sanitizer report' '
	./fuzz-coll -seed=7 -runs=2000 -max_len=8192 -close_fd_mask=2 seeds >fuzz.log 2>&1 ||
	{ tail -40 fuzz.log; exit 1; }
'
test_done
