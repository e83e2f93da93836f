#!/bin/sh
# GPU arch tables share/tl/arch/*.tsv and common/arch (tests/unit/test-perf_arch.c).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'arch unit tests pass' '
	"$TL_UNIT/test-arch" >unit.tap &&
	! grep "^not ok" unit.tap
'
sed -n 's/^not ok/# not ok/p' unit.tap 2>/dev/null

test_expect_success 'every number in the arch tables names its source' '
	awk -F"\t" "!/^#/ && NF && \$1 != \"name\" && \$1 != \"match\" && (NF < 3 || \$3 == \"\") {
		print FILENAME \":\" FNR \": no source\"; bad = 1 } END { exit bad }" \
		"$TL_SRC"/share/tl/arch/*.tsv
'
test_done
