#!/bin/sh
# tl-xlsx on hand-made CSVs, read back by tests/tools/xlsxdump.py (zipfile +
# xml.etree, no code shared with tl-xlsx): cell types and values, sheet
# names and order, reproducible bytes.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'tl-xlsx workbooks' 'python3 is not installed'
fi
d="$TEST_DIR"
dump() { python3 "$TL_SRC/tests/tools/xlsxdump.py" "$@"; }

cat >want.txt <<'WANT'
== cells
A1 s "name"
B1 s "count"
C1 s "mean"
D1 s "flag"
E1 s "note"
A2 s "aten::addmm"
B2 n 12
C2 n 0.5
D2 b 1
E2 s "a, b"
A3 s "say \"hi\""
B3 n -3
C3 n 7.2192e-05
D3 b 0
E3 s "two\nlines"
A4 s "x&<y>"
B4 n 0
C4 n 1e+16
E4 s "ünïcödé ✓ 😀"
A5 s "007"
B5 s "1."
C5 s "inf"
D5 s "nan"
E5 n -0
A6 n -0.0
B6 n 1E5
C6 n -1.5e-300
D6 s "true"
E6 s "1e999"
== ctrl
A1 s "a"
B1 s "b"
A2 s "cr\r\nlf"
B2 s "_x0041_ and \u0001\u001f"
== empty
== header
A1 s "only"
B1 s "header"
WANT

test_expect_success 'CSV files become sheets, in command-line order' '
	tl-xlsx -o book.xlsx "$d/cells.csv" "$d/ctrl.csv" "$d/empty.csv" \
		"$d/header.csv" 2>err.txt &&
	dump book.xlsx >got.txt &&
	test_cmp want.txt got.txt
'

test_expect_success 'control characters are counted on stderr' '
	grep "ctrl.csv: 2 characters XML cannot hold written as _xHHHH_" err.txt &&
	test $(wc -l <err.txt) = 1
'

test_expect_success 'raw XML: CR as &#13;, _x escapes, XML-escaped text' '
	python3 -c "import zipfile,sys; z=zipfile.ZipFile(\"book.xlsx\"); \
sys.stdout.write(z.read(\"xl/worksheets/sheet2.xml\").decode()); \
sys.stdout.write(z.read(\"xl/worksheets/sheet1.xml\").decode())" >raw.xml &&
	grep -F "cr&#13;" raw.xml &&
	grep -F "_x005F_x0041_ and _x0001__x001F_" raw.xml &&
	grep -F "x&amp;&lt;y&gt;" raw.xml &&
	grep -F "say &quot;hi&quot;" raw.xml
'

test_expect_success 'every cell agrees with Python csv module' '
	dump book.xlsx "$d/cells.csv" "$d/ctrl.csv" "$d/empty.csv" \
		"$d/header.csv" >cmp.txt &&
	grep "^ok 35 cells" cmp.txt
'

test_expect_success 'same input, same bytes (any time zone, file or stdout)' '
	tl-xlsx -o again.xlsx "$d/cells.csv" "$d/ctrl.csv" "$d/empty.csv" \
		"$d/header.csv" 2>/dev/null &&
	TZ=Pacific/Kiritimati tl-xlsx -o tz.xlsx "$d/cells.csv" "$d/ctrl.csv" \
		"$d/empty.csv" "$d/header.csv" 2>/dev/null &&
	tl-xlsx -o - "$d/cells.csv" "$d/ctrl.csv" "$d/empty.csv" \
		"$d/header.csv" >stdout.xlsx 2>/dev/null &&
	cmp book.xlsx again.xlsx && cmp book.xlsx tz.xlsx &&
	cmp book.xlsx stdout.xlsx
'

# A report folder: TraceLens's sheet order, whatever readdir returns.
mkdir rep
for s in zzz aaa coll_analysis short_kernels_summary short_kernel_histogram \
	kernel_summary SDPA_bwd SDPA_fwd Normalization Reduce_fwd \
	BinaryElementwise UnaryElementwise CONV_bwd GEMM_kl_overlap GEMM \
	unified_perf_summary ops_unique_args ops_summary \
	ops_summary_by_category gpu_timeline; do
	printf 'sheet\n%s\n' "$s" >"rep/$s.csv"
done
printf 'not,a sheet\n' >rep/notes.txt
cat >order.txt <<'WANT'
gpu_timeline
ops_summary_by_category
ops_summary
ops_unique_args
unified_perf_summary
GEMM
GEMM_kl_overlap
CONV_bwd
SDPA_fwd
SDPA_bwd
UnaryElementwise
BinaryElementwise
Reduce_fwd
Normalization
kernel_summary
short_kernel_histogram
short_kernels_summary
coll_analysis
aaa
zzz
WANT

test_expect_success 'a folder: sheets in TraceLens order, default name' '
	tl-xlsx rep/ &&
	dump rep.xlsx >got.txt &&
	sed -n "s/^== //p" got.txt >names.txt &&
	test_cmp order.txt names.txt &&
	dump rep.xlsx rep >cmp.txt
'

test_expect_success 'a _csvs folder gives NAME.xlsx, as TraceLens names it' '
	cp -R rep x_perf_report_csvs &&
	tl-xlsx x_perf_report_csvs &&
	cmp rep.xlsx x_perf_report.xlsx &&
	cp "$d/header.csv" h.csv && tl-xlsx h.csv && test -f h.xlsx
'

# Sheet names Excel would refuse: cut, cleaned, made unique.
mkdir names
for f in "a:b[1]*?" History "'quoted'" \
	abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789x \
	ééééééééééééééééééééééééééééééééééééééééé \
	😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀; do
	printf 'x\n1\n' >"names/$f.csv"
done
cat >names-want.txt <<'WANT'
a_b_1___
History_
_quoted_
abcdefghijklmnopqrstuvwxyz01234
ABCDEFGHIJKLMNOPQRSTUVWXYZ012~2
ééééééééééééééééééééééééééééééé
😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀
WANT

test_expect_success 'sheet names are made Excel-safe, with a warning each' '
	tl-xlsx -o names.xlsx "names/a:b[1]*?.csv" names/History.csv \
		"names/'\''quoted'\''.csv" names/abc*.csv names/ABC*.csv \
		names/é*.csv names/😀*.csv 2>err.txt &&
	dump names.xlsx >got.txt &&
	sed -n "s/^== //p" got.txt >names.txt &&
	test_cmp names-want.txt names.txt &&
	test $(grep -c "named" err.txt) = 7
'

test_expect_success '-h prints the usage on stdout' '
	tl-xlsx -h >out.txt &&
	grep "^usage: tl-xlsx \[-h\] \[-o FILE\] DIR" out.txt
'
test_done
