#!/bin/sh
# tl-tree --columns and --tree-rows: the node stream with columns and rows
# cut must be the full node stream cut another way (awk by header name and
# by the tree column), for a regular file (read twice) and for a pipe
# (spooled), with and without --python; and tl-diff, which reads trace
# operands through them, must give what it gives on full node streams.
. "$TL_SRC/tests/lib.sh"
R=$TL_SRC/tests/t2000-tree-rules.d
OWL=$SHARED/corpus/h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz

# cut_stream COLS ROWS FILE: FILE's lines with only the columns named in
# COLS (comma-separated; uid always; in the stream's order), and with ROWS
# = tree only the rows whose tree column is 1; directives unchanged.
cut_stream() {
	awk -F'\t' -v cols="$1" -v rows="$2" 'BEGIN { OFS = "\t"; n = split(cols, w, ",") }
		NR == 1 { print; next }
		NR == 2 { for (i = 1; i <= NF; i++) {
				if ($i == "tree") tr = i
				want = cols == "" || $i == "uid"
				for (j = 1; j <= n; j++) if ($i == w[j]) want = 1
				if (want) keep[++m] = i
			}
		}
		NR > 2 && /^#/ { print; next }
		NR > 2 && rows == "tree" && $tr != "1" { next }
		{ s = $keep[1]; for (k = 2; k <= m; k++) s = s OFS $keep[k]; print s }' "$3"
}

DIFFCOLS=uid,src,cat,name,ts,dur,dims,types,strides,concrete,parent,root

for ev in rules two; do
	for py in "" --python; do
		test_expect_success "$ev $py: full node stream" '
			tl-tree $py "$R/$ev.ev" >full.$ev$py
		'
		for sel in "$DIFFCOLS" "name,gpu_busy_us,kernel_direct_n,link,args" ""; do
			for rows in "" tree; do
				opts=
				[ -n "$sel" ] && opts="--columns $sel"
				[ -n "$rows" ] && opts="$opts --tree-rows"
				[ -n "$opts" ] || continue
				test_expect_success "$ev $py $opts: the full stream cut, from a file" '
					cut_stream "$sel" "$rows" full.$ev$py >want &&
					tl-tree $py $opts "$R/$ev.ev" >got &&
					test_cmp want got
				'
				test_expect_success "$ev $py $opts: the same from a pipe" '
					tl-tree $py $opts <"$R/$ev.ev" >got.pipe &&
					test_cmp want got.pipe
				'
			done
		done
	done
done

test_expect_success '--tree-rows leaves out the flows and, without --python, the python frames' '
	awk -F"\t" "NR > 2 && !/^#/ { print \$4 }" full.rules | sort -u >cats.full &&
	grep -qx ac2g cats.full && grep -qx python_function cats.full &&
	tl-tree --tree-rows --columns cat "$R/rules.ev" | awk -F"\t" "NR > 2 && !/^#/ { print \$2 }" |
		sort -u >cats &&
	! grep -qx ac2g cats && ! grep -qx python_function cats && grep -qx kernel cats &&
	tl-tree --python --tree-rows --columns cat "$R/rules.ev" | awk -F"\t" "NR > 2 && !/^#/ { print \$2 }" |
		sort -u >cats.py &&
	grep -qx python_function cats.py && ! grep -qx ac2g cats.py
'
test_expect_success '--columns: uid is written even when not named' '
	tl-tree --columns gpu_busy_us,name "$R/rules.ev" | sed -n 2p >hdr &&
	printf "uid\tname\tgpu_busy_us\n" >want.hdr &&
	test_cmp want.hdr hdr
'
test_expect_code 1 '--columns: an unknown column is an error' '
	tl-tree --columns uid,nosuch "$R/rules.ev" >/dev/null 2>err
'
test_expect_success '... and says which' '
	grep "no column .nosuch." err
'
test_expect_code 2 '--columns goes with the node stream only' '
	tl-tree --print --columns uid "$R/rules.ev"
'
test_expect_code 2 '--tree-rows goes with the node stream only' '
	tl-tree --pseudo-ops --tree-rows "$R/rules.ev"
'

if [ -f "$OWL" ]; then
	test_expect_success 'owlv2: the cut stream through a pipe equals the full one cut' '
		tl-cat "$OWL" >owl.ev && tl-tree owl.ev >owl.full &&
		cut_stream "$DIFFCOLS" tree owl.full >owl.want &&
		tl-tree --columns "$DIFFCOLS" --tree-rows <owl.ev >owl.got &&
		cmp owl.want owl.got
	'
	for py in "" --python; do
		test_expect_success "owlv2 $py: tl-diff of the traces equals tl-diff of full node streams" '
			tl-tree $py owl.ev >owl.nodes &&
			tl-diff $py --no-html -o from-nodes owl.nodes owl.nodes >s1 &&
			tl-diff $py --no-html -o from-trace "$OWL" "$OWL" >s2 &&
			test_cmp s1 s2 && diff -r from-nodes from-trace &&
			test -s from-trace/diff_stats.csv
		'
	done
else
	test_skip 'owlv2' "no corpus at $SHARED/corpus"
fi
test_done
