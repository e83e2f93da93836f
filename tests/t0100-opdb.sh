#!/bin/sh
# The op table share/tl/ops.tsv and common/opdb (tests/unit/test-perf_ops.c).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'perf_ops unit tests pass' '
	"$TL_UNIT/test-opdb" "$TL_SRC" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null

test_expect_success 'every ops.tsv row has 6 tab-separated fields' '
	awk -F"\t" "!/^#/ && NF != 6 { print FILENAME \":\" NR \": \" NF; bad = 1 } END { exit bad }" \
		"$TL_SRC/share/tl/ops.tsv"
'
test_done
