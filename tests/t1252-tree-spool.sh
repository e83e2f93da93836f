#!/bin/sh
# tl-tree reading a pipe spools the rows to a temporary file and reads them
# back, giving back the spool's pages already read (a hole punched every
# 16 MiB) while it writes; reading a regular file it reads the file again.
# Both must write the same node stream, full and lean, on a stream large
# enough for many holes: the owlv2 corpus trace three times (scale-trace,
# about 75 MB of events).
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'tl-tree spool on a large stream' 'no ../shared/corpus'
fi
trace=$SHARED/corpus/h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz

test_expect_success 'setup: the event stream of a 3x trace' '
	"$SHARED/tools/scale-trace" "$trace" 3 big.json.gz >/dev/null 2>&1 &&
	tl-cat big.json.gz >events.tsv &&
	test "$(wc -c <events.tsv)" -gt 50000000
'
for opt in "" --lean; do
	test_expect_success "tl-tree $opt: spooled (a pipe) = read again (a file)" '
		tl-tree $opt events.tsv >from-file &&
		cat events.tsv | tl-tree $opt >from-pipe &&
		test_cmp from-file from-pipe
	'
done
test_done
