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
