#!/bin/sh
# Containers: zip, tar and tar.gz archives (every *.json / *.json.gz member
# in name order, each its own source "ARCHIVE:MEMBER", a gzip member
# inflated), archives on a pipe, multi-member gzip as zcat reads it.
# Expected rows are tl-cat's rows of the plain member files.
. "$TL_SRC/tests/lib.sh"

mk() {
	mkdir -p d/sub &&
	printf '[{"name":"b","ph":"X","ts":2}]' >d/b.json &&
	printf '{"traceEvents":[{"name":"a","ph":"X","ts":1}],"k":1}' >d/a.json &&
	printf '[{"name":"c","ph":"i","ts":3},{"name":"c2"}]' >d/sub/c.json &&
	gzip -c d/sub/c.json >d/sub/c.json.gz && rm d/sub/c.json &&
	echo notes >d/notes.txt
}
mk
# rows of the members, in name order, as separate plain files
tl-cat d/a.json >a.rows && tl-cat d/b.json >b.rows && tl-cat d/sub/c.json.gz >c.rows

# archive order b, sub/c, a, notes: tl-cat must read a, b, sub/c
(cd d && python3 -c '
import sys, zipfile
z = zipfile.ZipFile("../t.zip", "w")
for n in ["b.json", "sub/c.json.gz", "notes.txt", "a.json"]:
    z.write(n)
') && (cd d && tar cf ../t.tar b.json sub/c.json.gz notes.txt a.json) &&
gzip -c t.tar >t.tar.gz

rows() { grep -v "^#source" "$1" | sed -n '3,$p'; }
for a in t.zip t.tar t.tar.gz; do
	test_expect_success "$a: members in name order, one source each" '
		tl-cat $a >out &&
		grep "^#source" out >src &&
		printf "#source\t0\t$a:a.json\n#source\t1\t$a:b.json\n#source\t2\t$a:sub/c.json.gz\n" >want &&
		test_cmp want src &&
		{ rows a.rows; rows b.rows | sed "s/^\([0-9]*\)\t0\t/\1\t1\t/; s/^#end\t0/#end\t1/";
		  rows c.rows | sed "s/^\([0-9]*\)\t0\t/\1\t2\t/; s/^#end\t0/#end\t2/"; } >want.rows &&
		rows out >got.rows && test_cmp want.rows got.rows
	'
	test_expect_success "$a on a pipe reads the same" '
		tl-cat $a >file.out && cat $a | tl-cat >pipe.out &&
		sed "s/^\(#source\t[0-9]\t\)[^:]*:/\1/" file.out >x &&
		sed "s/^\(#source\t[0-9]\t\)[^:]*:/\1/" pipe.out >y &&
		test_cmp x y && grep -q "^#source	0	-:a.json" pipe.out
	'
done

test_expect_success 'multi-member gzip reads as one document (as zcat)' '
	printf "[{\"a\":1}," | gzip >m.gz && printf "{\"b\":2}]" | gzip >>m.gz &&
	tl-cat m.gz >out && grep -qx "#end	0	2	0" out
'

test_expect_success 'a gzip of a tar is an archive, told by magic' '
	cp t.tar.gz t.json.gz && tl-cat t.json.gz >out &&
	test "$(grep -c "^#source" out)" = 3
'
test_done
