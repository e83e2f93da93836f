#!/bin/sh
# tl-xlsx on TraceLens's own report folders (../shared/corpus/*/reference):
# every CSV cell is in its sheet, read back by tests/tools/xlsxdump.py.
. "$TL_SRC/tests/lib.sh"

if ! have_shared; then
	test_skip_all 'tl-xlsx on the corpus' "no corpus at $SHARED"
fi
if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'tl-xlsx on the corpus' 'python3 is not installed'
fi
dump() { python3 "$TL_SRC/tests/tools/xlsxdump.py" "$@"; }

for ref in "$SHARED"/corpus/*/reference; do
	ls "$ref"/*.csv >/dev/null 2>&1 || continue
	name=$(basename "$(dirname "$ref")")
	test_expect_success "$name: every CSV cell is in the workbook" "
		tl-xlsx -o '$name.xlsx' '$ref' 2>'$name.err' &&
		test ! -s '$name.err' &&
		dump '$name.xlsx' '$ref' >'$name.cmp' &&
		grep '^ok [1-9][0-9]* cells' '$name.cmp'
	"
done

# TraceLens's dict order for this trace (spec core §4.2; GEMM before SDPA
# before BinaryElementwise in op_to_perf_model_class_map).
cat >bert-order.txt <<'WANT'
gpu_timeline
ops_summary_by_category
ops_summary
ops_unique_args
unified_perf_summary
GEMM
SDPA_fwd
BinaryElementwise
Normalization
kernel_summary
short_kernel_histogram
short_kernels_summary
WANT
bert=h100-gaunernst_bert-small-uncased__1016001
test_expect_success 'bert: sheets in TraceLens order' '
	dump $bert.xlsx >bert.dump &&
	sed -n "s/^== //p" bert.dump >bert-names.txt &&
	test_cmp bert-order.txt bert-names.txt
'

test_expect_success 'bert: a float cell is stored as the CSV wrote it' '
	grep "^B2 n 0.30719775390625$" bert.dump
'

# openpyxl is what TraceLens writes and pandas reads workbooks with.
pyx=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import openpyxl' 2>/dev/null; then pyx=$py; break; fi
done
if [ -n "$pyx" ]; then
	test_expect_success 'bert: openpyxl reads the workbook' '
		"$pyx" -W error -c "
import openpyxl
wb = openpyxl.load_workbook(\"$bert.xlsx\")
ws = wb[\"gpu_timeline\"]
assert ws[\"A1\"].value == \"type\" and ws[\"A1\"].font.b, ws[\"A1\"].value
assert ws[\"B2\"].value == 0.30719775390625, ws[\"B2\"].value
assert wb.sheetnames[5] == \"GEMM\", wb.sheetnames
"
	'
else
	test_skip 'bert: openpyxl reads the workbook' 'python3 has no openpyxl'
fi
test_done
