#!/bin/sh
# Memory stays flat as the input grows: peak RSS (GNU time's %M) on a
# 300,000-event trace is within 8 MB of that on a 100,000-event one, for
# plain JSON and gzip input, and both counts are right.  Not a speed test.
# The smaller trace (18 MB of JSON) already fills tl-cat's fixed buffers,
# the 8 MiB ring a gzip stream is inflated into (mapped twice: 16 MiB of
# RSS) and the 4 MiB view of a plain file, so that what is compared is
# growth with the events, 200,000 more (under 42 bytes an event).
. "$TL_SRC/tests/lib.sh"

if ! [ -x /usr/bin/time ]; then
	test_skip 'memory stays flat' 'no /usr/bin/time (apt-get install time)'
	test_done
	exit
fi
gen() {
	python3 -c '
import sys
n = int(sys.argv[1])
w = sys.stdout.write
w("{\"traceEvents\": [\n")
for i in range(n):
    w("  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void k%d<float>(float*)\", \"pid\": 0, \"tid\": 7, \"ts\": %d.5, \"dur\": 3.25, \"args\": {\"stream\": 7, \"correlation\": %d, \"grid\": [1, 2, 3]}}%s\n" % (i % 97, i * 4, i, "," if i < n - 1 else ""))
w("]}\n")' "$1"
}
gen 100000 >small.json && gen 300000 >big.json && gzip -k small.json big.json

# Under SAN=1 the peak RSS is mostly ASan's (its allocator and shadow):
# the same .json.gz took 25-35 MB from run to run there, more than the
# 8 MB allowed for growth, so only the counts are checked; the plain
# build's run checks the memory.
[ "${TL_SAN:-}" = 1 ] && echo "# SAN=1: peak RSS is ASan's, its growth not checked"
for f in json json.gz; do
	test_expect_success "peak RSS flat on .$f (100k vs 300k events)" '
		/usr/bin/time -f %M -o small.rss tl-cat small.$f >small.out &&
		/usr/bin/time -f %M -o big.rss tl-cat big.$f >big.out &&
		grep -qx "#end	0	100000	0" small.out &&
		grep -qx "#end	0	300000	0" big.out &&
		s=$(tail -1 small.rss) && b=$(tail -1 big.rss) &&
		echo "# RSS KiB: small $s, big $b" &&
		{ [ "${TL_SAN:-}" = 1 ] || test $((b - s)) -lt 8192; }
	'
done
test_done
