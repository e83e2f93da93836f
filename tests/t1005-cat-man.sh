#!/bin/sh
# The EXAMPLES of man/tl-cat.1 run as written (on the shipped sample trace,
# an archive of it and its gzip), and -h prints the man page's SYNOPSIS.
. "$TL_SRC/tests/lib.sh"

cp "$TL_SRC/share/tl/sample/trace.json" trace.json
gzip -c trace.json >trace.json.gz
mkdir run && cp trace.json run/ && tar czf run.tar.gz run
cp "$TL_SRC/tests/t1100-cat-rocprof.d/mixed_results.json" run_results.json

sed -n 's/^\.Dl \$ //p' "$TL_SRC/man/tl-cat.1" | sed 's/\\e/\\/g' >examples
while read -r cmd; do
	case $cmd in *"| jq"*) command -v jq >/dev/null ||
		{ test_skip "$cmd" "no jq"; continue; } ;; esac
	test_expect_success "example: $cmd" '
		sh -c "$cmd" >out 2>err && { test -s out || test -s events.tsv; }
	'
done <examples

test_expect_success 'usage is the SYNOPSIS' '
	tl-cat -h >h &&
	grep -q "^usage: tl-cat \[-hkv\] \[--format\] \[--lean\] \[--lend-pages\] \[--ndjson\] \[-o FILE\] \[FILE...\]$" h &&
	grep -q "^\.Op Fl hkv$" "$TL_SRC/man/tl-cat.1" &&
	grep -q "^\.Op Fl -lean$" "$TL_SRC/man/tl-cat.1" &&
	grep -q "^\.Op Fl -lend-pages$" "$TL_SRC/man/tl-cat.1" &&
	grep -q "^\.Op Fl -ndjson$" "$TL_SRC/man/tl-cat.1"
'
test_done
