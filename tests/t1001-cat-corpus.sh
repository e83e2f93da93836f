#!/bin/sh
# tl-cat on the real traces of ../shared/corpus: for each, the row count is
# len(traceEvents) as python3's json module counts it, every uid appears
# once in order, every row agrees with tests/tools/pycat.py field by field,
# and --ndjson gives back each original event (tests/tools/checkcat.py).
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip 'corpus traces' "no $SHARED/corpus"
	test_done
	exit
fi
# Under SAN=1 the sanitizers watch tl-cat read every real trace, and its
# bytes must equal the plain build's (bin/, built first: make check, then
# make check SAN=1), which the plain run of this test checks against
# Python; the Python side (about 20 s a trace, the same in both builds)
# runs only there.  Without a plain build the SAN run checks as the plain
# one does.
plain="$TL_SRC/bin/tl-cat"
if [ "${TL_SAN:-}" = 1 ] && [ -x "$plain" ] && [ "$plain" != "$TL_BIN/tl-cat" ]; then
	for t in "$SHARED"/corpus/*/trace*.json.gz; do
		name=$(basename "$(dirname "$t")")/$(basename "$t")
		test_expect_success "$name: the same rows and ndjson as the plain build" '
			tl-cat "$t" >tl.tsv && "$plain" "$t" >plain.tsv && cmp tl.tsv plain.tsv &&
			tl-cat --ndjson "$t" >tl.nd && "$plain" --ndjson "$t" >plain.nd && cmp tl.nd plain.nd
		'
	done
	test_done
	exit
fi
for t in "$SHARED"/corpus/*/trace*.json.gz; do
	name=$(basename "$(dirname "$t")")/$(basename "$t")
	test_expect_success "$name: counts, uids, fields, ndjson round trip" '
		tl-cat "$t" >tl.tsv &&
		tl-cat --ndjson "$t" >tl.nd &&
		python3 "$TL_SRC/tests/tools/pycat.py" "$t" >py.tsv &&
		python3 "$TL_SRC/tests/tools/checkcat.py" "$t" tl.tsv py.tsv tl.nd
	'
done
test_done
