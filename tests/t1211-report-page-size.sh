#!/bin/sh
# tl-report runs its programs with glibc's heap in 2 MB pages (its
# GLIBC_TUNABLES), but tl-perf, its largest process, in 4 KB pages with
# glibc's first mmap threshold kept once the node file is over 44 MiB
# (tl-report(1), ENVIRONMENT): a tl-perf
# on PATH that notes the GLIBC_TUNABLES it was given, on the owlv2 corpus
# trace (a 20 MB lean node file) and on three copies of it made by
# scale-trace (61 MB); a caller's own GLIBC_TUNABLES is left alone.
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'tl-perf page size by node-file size' 'no ../shared/corpus'
fi
if [ "${TL_SAN:-}" = 1 ]; then
	# the choice is the script's; the plain build's run checks it
	test_skip_all 'tl-perf page size by node-file size' 'SAN=1 build (the plain run checks the script)'
fi
trace=$SHARED/corpus/h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz
huge=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=16777216

test_expect_success 'setup: a tl-perf that notes its GLIBC_TUNABLES; a 3x trace' '
	mkdir fake &&
	real=$(command -v tl-perf) &&
	cat >fake/tl-perf <<-EOF &&
	#!/bin/sh
	printf "%s\\n" "\${GLIBC_TUNABLES-unset}" >>"$PWD/tunables"
	exec "$real" "\$@"
	EOF
	chmod +x fake/tl-perf &&
	"$SHARED/tools/scale-trace" "$trace" 3 big.json.gz >/dev/null 2>&1
'
test_expect_success 'a 20 MB node file: tl-perf in 2 MB pages, as the other programs' '
	rm -f tunables &&
	env -u GLIBC_TUNABLES PATH="$PWD/fake:$PATH" tl-report --no-html --no-idle -o small "$trace" >/dev/null 2>&1 &&
	echo "$huge" >expect &&
	test_cmp expect tunables
'
test_expect_success 'a 61 MB node file: tl-perf in 4 KB pages, its mmap threshold kept' '
	rm -f tunables &&
	env -u GLIBC_TUNABLES PATH="$PWD/fake:$PATH" tl-report --no-html --no-idle -o big big.json.gz >/dev/null 2>&1 &&
	echo glibc.malloc.mmap_threshold=131072 >expect &&
	test_cmp expect tunables
'
test_expect_success 'a GLIBC_TUNABLES of the caller is what tl-perf gets' '
	rm -f tunables &&
	GLIBC_TUNABLES=glibc.malloc.arena_max=2 PATH="$PWD/fake:$PATH" \
		tl-report --no-html --no-idle -o big2 big.json.gz >/dev/null 2>&1 &&
	echo glibc.malloc.arena_max=2 >expect &&
	test_cmp expect tunables
'
test_expect_success 'the sheets do not depend on the page size' '
	diff -r big big2
'
test_done
