#!/bin/sh
# tl-xlsx on bad input: a message naming FILE:LINE, exit 1, no crash, no
# half-written workbook; usage errors exit 2; Excel's limits are warned.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'tl-xlsx bad input' 'python3 (the workbook reader) is not installed'
fi
d="$TEST_DIR"
for f in 'after-quote:2: text after closing quote' \
	'unterminated:3: unterminated quoted field' \
	'short-row:3: expected 2 fields, saw 1' 'bad-utf8:2: invalid UTF-8'; do
	name=${f%%:*}
	msg="tl-xlsx: $d/$name.csv:${f#*:}"
	test_expect_success "$name.csv: FILE:LINE message, exit 1, no output" "
		test_must_fail tl-xlsx -o out.xlsx '$d/$name.csv' 2>err.txt &&
		grep -F '$msg' err.txt &&
		test ! -e out.xlsx && test -z \"\$(ls | grep out.xlsx)\"
	"
done

test_expect_success 'a folder with one bad CSV: the others written, exit 1' '
	mkdir mixed && cp "$d/good.csv" "$d/after-quote.csv" mixed/ &&
	test_must_fail tl-xlsx -o mixed.xlsx mixed 2>err.txt &&
	grep -F "after-quote.csv:2: text after closing quote" err.txt &&
	python3 -c "import zipfile,re; z=zipfile.ZipFile(\"mixed.xlsx\"); \
print(*re.findall(\"name=.([a-z_-]+).\", z.read(\"xl/workbook.xml\").decode()))" \
		>names.txt &&
	echo good >want.txt && test_cmp want.txt names.txt
'

test_expect_success 'a missing folder or file: exit 1' '
	test_must_fail tl-xlsx nothere 2>err.txt &&
	grep "tl-xlsx: nothere: No such file or directory" err.txt &&
	test_must_fail tl-xlsx -o x.xlsx "$d/good.csv" nothere.csv 2>err.txt &&
	grep "tl-xlsx: nothere.csv: No such file or directory" err.txt
'

test_expect_success 'a folder with no CSV: exit 1, nothing written' '
	mkdir none && : >none/readme.txt &&
	test_must_fail tl-xlsx none 2>err.txt &&
	grep "tl-xlsx: none: no .csv files" err.txt &&
	test ! -e none.xlsx
'

test_expect_success 'a folder among CSV files: exit 1' '
	test_must_fail tl-xlsx -o dir.xlsx "$d/good.csv" none 2>err.txt &&
	grep "tl-xlsx: none: is a directory" err.txt && test -f dir.xlsx
'

test_expect_success 'an output folder that does not exist: exit 1' '
	test_must_fail tl-xlsx -o no/such/dir.xlsx "$d/good.csv" 2>err.txt &&
	grep "tl-xlsx: no/such/dir.xlsx: No such file or directory" err.txt
'

test_expect_code 2 'no operand: usage, exit 2' 'tl-xlsx'
test_expect_code 2 'unknown option: exit 2' 'tl-xlsx -q "$d/good.csv"'
test_expect_code 2 'several CSV files need -o' \
	'tl-xlsx "$d/good.csv" "$d/good.csv"'

# Excel's limits: 16384 columns, 32767 characters a cell.
test_expect_success 'columns past 16384 dropped with a count, exit 1' '
	awk "BEGIN { for (i = 1; i <= 16386; i++) printf \"c%d%s\", i, \
		(i < 16386 ? \",\" : \"\\n\"); printf \"1\"; \
		for (i = 2; i <= 16386; i++) printf \",\"; print \"\" }" >wide.csv &&
	test_must_fail tl-xlsx -o wide.xlsx wide.csv 2>err.txt &&
	grep "wide.csv: 2 columns past Excel.s limit of 16384 dropped" err.txt &&
	python3 "$TL_SRC/tests/tools/xlsxdump.py" wide.xlsx >dump.txt &&
	grep "^XFD1 s \"c16384\"$" dump.txt && ! grep "^XFE" dump.txt &&
	grep "^A2 n 1$" dump.txt
'

test_expect_success 'a cell past 32767 characters is cut, with a count' '
	awk "BEGIN { printf \"long\\n\"; for (i = 0; i < 40000; i++) \
		printf \"\\303\\251\"; print \"\" }" >long.csv &&
	tl-xlsx -o long.xlsx long.csv 2>err.txt &&
	grep "long.csv: 1 cells cut to Excel.s 32767 characters" err.txt &&
	python3 -c "import zipfile,re; z=zipfile.ZipFile(\"long.xlsx\"); \
x=z.read(\"xl/worksheets/sheet1.xml\").decode(); \
print(max(len(t) for t in re.findall(\">([^<]*)</t>\", x)))" >len.txt &&
	echo 32767 >want.txt && test_cmp want.txt len.txt
'
test_done
