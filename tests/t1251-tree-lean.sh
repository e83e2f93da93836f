#!/bin/sh
# tl-tree --lean: the node stream with the rows no report sheet reads cut
# to "#dropped" lines of their first nine columns.  Which rows, checked
# against the full node stream cut by an awk of the rule (tl-tree(1)):
# out of the tree, no parent, not a metadata row, no corr, stream or
# device, a category, no escape in ph or cat, and a python frame or a
# category the sheets do not know (not a user annotation).  Then the programs that read lean streams
# (tl-perf, tl-timeline, tl-idle's breakdowns, tl-coll) must write the
# same bytes from both; the others must refuse a lean stream.
. "$TL_SRC/tests/lib.sh"
R=$TL_SRC/tests/t2000-tree-rules.d
TEST_DIR=$TL_SRC/tests/t1251-tree-lean.d

# lean_cut FILE: FILE (a full node stream) with the rule's rows cut
lean_cut() {
	awk -F'\t' 'BEGIN { OFS = "\t" }
		NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR <= 2 || /^#/ { print; next }
		{
			cat = $c["cat"]
			thin = $c["parent"] == "" && $c["tree"] != "1" && $3 != "M" &&
				$c["corr"] == "" && $c["stream"] == "" && $c["device"] == "" && cat != "" &&
				index($3, "\\") == 0 && index(cat, "\\") == 0
			known = cat == "cpu_op" || cat == "cuda_runtime" || cat == "cuda_driver" ||
				cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset"
			if (thin && (cat == "python_function" ||
				     (!known && index(cat, "user_annotation") == 0))) {
				print "#dropped", $1, $2, $3, $4, $5, $6, $7, $8, $9
				next
			}
			print
		}' "$1"
}

for ev in rules two; do
	for py in "" --python; do
		test_expect_success "$ev $py: --lean is the full stream cut by the rule" '
			tl-tree $py "$R/$ev.ev" >full &&
			lean_cut full >want &&
			tl-tree $py --lean "$R/$ev.ev" >got &&
			test_cmp want got &&
			tl-tree $py --lean <"$R/$ev.ev" >got.pipe &&
			test_cmp want got.pipe
		'
	done
done

test_expect_success 'the rules trace has rows of each kind: cut and kept' '
	tl-tree --lean "$R/rules.ev" >lean &&
	grep "^#dropped	" lean | cut -f5 | sort -u >cut.cats &&
	grep -qx ac2g cut.cats && grep -qx python_function cut.cats &&
	! grep -q "^#dropped	.*	cpu_op	" lean
'

# same_sheets: every program that reads lean streams, on the node streams
# in the files full and lean; their outputs in out.full and out.lean
same_sheets() {
	for f in full lean; do
		rm -rf out.$f && mkdir out.$f || return 1
		tl-perf --csv -o out.$f --info out.$f/info.csv $f >out.$f/perf.out 2>out.$f/perf.err &&
		tl-timeline --csv --strip out.$f/strip.csv $f >out.$f/timeline.csv 2>out.$f/timeline.err &&
		tl-idle -o out.$f/idle $f 2>out.$f/idle.err &&
		tl-coll --extract -o out.$f/coll --analysis-dir out.$f $f 2>out.$f/coll.err ||
			return 1
	done
	diff -r out.full out.lean
}

if have_shared; then
	C=$SHARED/corpus
	for t in h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz \
		 mi300-gaunernst_bert-small-uncased__1016001/trace.json.gz \
		 multirank-nccl-a100x4/ranks/rank0.json.gz \
		 multirank-dlrm-v100x8/ranks/rank3.json.gz \
		 hta-critical-path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz \
		 torch_compile_triton/trace.json.gz; do
		test_expect_success "${t%%/*}: the rule, and the same sheets from both streams" '
			tl-cat "$C/$t" >ev &&
			tl-tree ev >full && tl-tree --lean ev >lean &&
			lean_cut full >want && test_cmp want lean &&
			same_sheets
		'
	done
	test_expect_success 'owlv2: most rows are cut (flows, instants, python frames)' '
		tl-cat "$C/h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz" >ev &&
		tl-tree --lean ev >lean &&
		rows=$(grep -vc "^#" lean) && cut=$(grep -c "^#dropped	" lean) &&
		test "$cut" -gt "$rows"
	'
else
	test_skip "corpus traces: full and lean streams" "no ../shared/corpus"
fi

# A stream without #source lines whose second source holds only rows that
# are cut, and a host op of the category "python_func" (tl-coll counts
# those): tl-timeline and tl-coll must see both through the lean stream.
test_expect_success 'edge rows: a source of cut rows only, a python_func op' '
	{
		printf "#tl-events 1\n"
		sed -n 2p "$R/rules.ev"
		printf "0\t0\tX\tcpu_op\taten::mm\t1\t1\t0\t10\t\t\t\t\t\t\t\t\t\t\t{}\t\n"
		printf "1\t0\tX\tkernel\tgemm\t0\t7\t2\t4\t\t\t\t\t7\t\t\t\t\t\t{}\t\n"
		printf "2\t0\tX\tpython_func\tf.py(1): g\t1\t1\t0\t20\t\t\t\t\t\t\t\t\t\t\t{}\t\n"
		printf "0\t1\ti\tcpu_instant_event\t[memory]\t1\t1\t5\t\t\t\t\t\t\t\t\t\t\t\t{}\t{\"s\":\"t\"}\n"
	} >edge.ev &&
	mkdir -p f l &&
	tl-tree edge.ev >f/nodes && tl-tree --lean edge.ev >l/nodes &&
	test "$(grep -c "^#dropped" l/nodes)" = 2 &&
	for d in f l; do
		(cd $d &&
		 { tl-timeline --all-gpu --csv nodes >tl.out 2>tl.err; echo $? >tl.rc; } &&
		 { tl-coll --extract -o coll nodes 2>coll.err; echo $? >coll.rc; } &&
		 rm nodes) || return 1
	done &&
	diff -r f l &&
	grep -q "source 1" f/tl.err
'

# Cut rows are spooled already cut when tl-tree reads a pipe: their fields
# as written must be those of the rows read again from a file, escapes too
# (escapes.ev: a python frame named "f.py(1): a\\tb<TAB>c" with escaped
# args, an instant named "m\\x").
test_expect_success 'escaped fields in cut rows: spooled as read again' '
	tl-tree --lean "$TEST_DIR/escapes.ev" >from-file &&
	tl-tree --lean <"$TEST_DIR/escapes.ev" >from-pipe &&
	test_cmp from-file from-pipe &&
	test "$(grep -c "^#dropped" from-file)" = 2 &&
	grep "^#dropped	1	" from-file | cut -f6 >name &&
	printf "%s\n" "f.py(1): a\\\\tb\\tc" >want &&
	test_cmp want name
'
# From a pipe, tl-tree tells most cut rows from their first fields
# without cutting them (spool_thin_uncut); each condition it checks has a
# row here that fails it alone, and those rows must come out as they do
# read again from a file: python frames and instants (cut), one with a
# corr, a stream, a device (kept whole), an ext, a seq (tree nodes, cut by
# the rule all the same), a user annotation, a metadata row, a backslash
# in args, an empty cat, a second source; with --python the frames are
# kept.  A uid out of order or with a sign among
# them fails the same way.  A raw CR in a cut row's name is written
# escaped from a pipe (read again from a file, the row's bytes are copied
# as they are).
test_expect_success 'rows told uncut from a pipe: the node stream of the file read again' '
	h=$(sed -n 2p "$R/rules.ev") &&
	row() { printf "%s\t%s\t%s\t%s\t%s\t1\t1\t%s\t2\t\t%s\t%s\t%s\t%s\t%s\t\t\t\t\t%s\t\n" "$@"; } &&
	{
		printf "#tl-events 1\n%s\n#source\t0\tthin.json\n" "$h"
		row 0 0 X cpu_op aten::mm 0 "" "" "" "" "" "{}"
		row 1 0 X python_function "f.py(1): a" 1 "" "" "" "" "" "{\"Python id\":1}"
		row 2 0 i cpu_instant_event "[memory]" 2 "" "" "" "" "" "{}"
		row 3 0 X python_function "f.py(2): b" 3 7 "" "" "" "" "{}"
		row 4 0 X python_function "f.py(3): c" 4 "" 8 "" "" "" "{}"
		row 5 0 X python_function "f.py(4): d" 5 "" "" 9 "" "" "{}"
		row 6 0 X python_function "f.py(5): e" 6 "" "" "" 7 "" "{}"
		row 7 0 X python_function "f.py(6): f" 7 "" "" "" "" 0 "{}"
		row 8 0 X user_annotation "step" 8 "" "" "" "" "" "{}"
		row 9 0 M python_function "process_name" 9 "" "" "" "" "" "{}"
		row 10 0 X python_function "f.py(0): z" 10 "" "" "" "" "" "{}"
		row 11 0 X python_function "f.py(7): g" 11 "" "" "" "" "" "{\"a\":\"x\\\\\\\\y\"}"
		row 12 0 X "" "nocat" 12 "" "" "" "" "" "{}"
		row 13 0 X python_function "f.py(8): h" 13 "" "" "" "" "" "{}"
		printf "#end\t0\t14\t0\n#source\t1\tother.json\n"
		row 0 1 X python_function "f.py(9): i" 0 "" "" "" "" "" "{}"
		row 1 1 X python_function "f.py(9): j" 1 "" "" "" "" "" "{}"
		printf "#end\t1\t2\t0\n"
	} >thin.ev &&
	grep "f.py(7)" thin.ev | grep -q "\\\\" &&
	for py in "" --python; do
		tl-tree $py --lean thin.ev >file.out 2>file.err; echo "exit $?" >>file.err
		tl-tree $py --lean <thin.ev >pipe.out 2>pipe.err; echo "exit $?" >>pipe.err
		sed "s/^tl-tree: -:/tl-tree: thin.ev:/" pipe.err >pipe.err2 &&
		test_cmp file.out pipe.out && test_cmp file.err pipe.err2 || return 1
	done &&
	tl-tree --lean <thin.ev >pipe.out &&
	test "$(grep -c "^#dropped" pipe.out)" = 9 &&
	for bad in "s/^13	0	X/3	0	X/:uid 3 out of order" "s/^13	0	X/+13	0	X/:bad uid .+13."; do
		sed "${bad%%:*}" thin.ev >bad.ev &&
		test_must_fail tl-tree --lean bad.ev >/dev/null 2>file.err &&
		test_must_fail tl-tree --lean <bad.ev >/dev/null 2>pipe.err &&
		grep -q "${bad#*:}" file.err &&
		sed "s/^tl-tree: -:/tl-tree: bad.ev:/" pipe.err >pipe.err2 &&
		test_cmp file.err pipe.err2 || return 1
	done &&
	cr=$(printf "\r") &&
	sed "s/f.py(0): z/cr${cr}name/" thin.ev >cr.ev &&
	grep -q "cr${cr}name" cr.ev &&
	tl-tree --lean <cr.ev >pipe.out &&
	grep -q "^#dropped	10	0	X	python_function	cr\\\\rname	" pipe.out
'

# A cat with an escape (escaped-cat.ev: "kernel\0x", which a reader
# comparing C strings would take for "kernel", and "a\tb") keeps its row
# whole, from a file and from a pipe; a plain unknown cat is cut.  Once
# tl-tree cut the first and tl-perf, which read it as a kernel, refused
# the stream it had just been given.
test_expect_success 'a cat with an escape keeps its row whole; the readers agree' '
	tl-tree "$TEST_DIR/escaped-cat.ev" >full &&
	lean_cut full >want &&
	tl-tree --lean "$TEST_DIR/escaped-cat.ev" >lean &&
	test_cmp want lean &&
	tl-tree --lean <"$TEST_DIR/escaped-cat.ev" >lean.pipe &&
	test_cmp want lean.pipe &&
	grep "^#dropped	" lean | cut -f2 >cut &&
	echo 3 >want.cut && test_cmp want.cut cut &&
	for f in full lean; do
		rm -rf esc.$f && mkdir esc.$f &&
		tl-perf --csv -o esc.$f $f >esc.$f/perf.out 2>esc.$f/perf.err &&
		tl-timeline --all-gpu --csv $f >esc.$f/timeline.csv 2>esc.$f/timeline.err &&
		tl-idle -o esc.$f/idle $f 2>esc.$f/idle.err || return 1
	done &&
	diff -r esc.full esc.lean
'

# tl-idle reads most "#dropped" rows from their nine fields as written,
# without cutting them; those its breakdowns read otherwise go the long
# way.  Cut rows here: uid 0, a ProfilerStep, "Event Sync" and "Context
# Sync" (not counted as CPU rows), a float pid and a quoted tid (the
# columns' kinds), float times, no ts or dur (dropped; optional), the
# "Trace" span, an instant (optional); the launches, their kernels and the
# step's annotation are kept.  Its tables from the lean stream must be
# those from the full one; without the rows that lack a time, the cut
# frame's float ts, or its float dur, alone makes the time columns floats,
# so the tables differ from those of the same trace with both integers
# (the cut row's kinds are read, not skipped).
idle_edge() {	# idle_edge ROW8_TS ROW8_DUR [untimed]: the event stream
	h=$(sed -n 2p "$R/rules.ev")
	row() { printf "%s\t0\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t%s\t\t\t%s\t%s\t\t\t\t\t{}\t\n" "$@"; }
	printf "#tl-events 1\n%s\n#source\t0\tedge.json\n" "$h"
	n=0
	while read -r ph cat name pid tid ts dur corr stream device; do
		[ "$ts" = - ] && ts=
		[ "$dur" = - ] && dur=
		[ "$corr" = - ] && corr=
		[ "$stream" = - ] && stream=
		[ "$device" = - ] && device=
		row $n "$ph" "$cat" "$(echo "$name" | tr _ " ")" "$pid" "$tid" "$ts" "$dur" \
			"$corr" "$stream" "$device"
		n=$((n + 1))
	done <<-EOF
	X python_function f.py(1):_a 1 1 0 50 - - -
	X user_annotation ProfilerStep#1 1 1 0 100 - - -
	X cpu_op aten::mm 1 1 10 30 - - -
	X cuda_runtime cudaLaunchKernel 1 1 12 5 7 - -
	X kernel gemm 0 7 20 10 7 7 0
	X python_function ProfilerStep#2 1 1 40 5 - - -
	X python_function Event_Sync 1 1 41 1 - - -
	X python_function Context_Sync 1 1 42 1 - - -
	X python_function g.py(2):_b 1.5 "t" $1 $2 - - -
	X Trace Trace 1 1 0 200 - - -
	X cpu_op aten::add 1 1 60 30 - - -
	X cuda_runtime cudaLaunchKernel 1 1 62 5 8 - -
	X kernel add 0 7 70 10 8 7 0
	EOF
	if [ -n "${3:-}" ]; then
		row $n X python_function "h.py(3): c" 1 1 "" "" "" "" ""
		row $((n + 1)) i cpu_instant_event "[memory]" 1 1 44 "" "" "" ""
		n=$((n + 2))
	fi
	printf "#end\t0\t%s\t0\n" $n
}
test_expect_success 'tl-idle on "#dropped" rows read uncut: the edge rows' '
	for v in "43.5 2.25 untimed" "43.5 2" "43 2.25" "43 2"; do
		idle_edge $v >idle-edge.ev &&
		tl-tree idle-edge.ev >full &&
		tl-tree --lean idle-edge.ev >lean &&
		case $v in *untimed) cut=8 ;; *) cut=6 ;; esac &&
		test "$(grep -c "^#dropped" lean)" = $cut &&
		rm -rf idle.full idle.lean &&
		tl-idle -o idle.full full 2>idle.full.err &&
		tl-idle -o idle.lean lean 2>idle.lean.err &&
		diff -r idle.full idle.lean &&
		test_cmp idle.full.err idle.lean.err &&
		rm -rf "idle.$v" && mv idle.lean "idle.$v" || return 1
	done &&
	test -s "idle.43 2/temporal_breakdown.csv" &&
	! diff -r "idle.43.5 2" "idle.43 2" >/dev/null &&
	! diff -r "idle.43 2.25" "idle.43 2" >/dev/null
'

test_expect_success 'programs that need every row refuse a lean stream' '
	tl-tree --lean "$R/rules.ev" >lean &&
	test_must_fail tl-diff -o d lean lean 2>err &&
	grep -q "a \"#dropped\" row of a lean stream (tl-tree --lean, tl-cat --lean)" err &&
	test_must_fail tl-idle --critical-path cp.json -o cp lean 2>err &&
	grep -q "a \"#dropped\" row of a lean stream" err
'

test_expect_success 'tl-perf refuses a "#dropped" row the sheets would read' '
	tl-tree --lean "$R/rules.ev" >lean &&
	awk -F"\t" "BEGIN { OFS = \"\t\" }
		!done && !/^#/ && NR > 2 && \$4 == \"cpu_op\" {
			print \"#dropped\", \$1, \$2, \$3, \$4, \$5, \$6, \$7, \$8, \$9; done = 1; next }
		{ print }" lean >bad &&
	test_must_fail tl-perf --csv -o p bad 2>err &&
	grep -q "a \"#dropped\" row the sheets read (uid 0)" err
'

# tl-perf reads most "#dropped" rows from their nine fields as written,
# without cutting them; one with an escape, an annotation or a uid out of
# order goes the long way: the sheets of escapes.ev (escaped names in cut
# rows) from its lean stream are those of its full one, and a cut row's
# uid out of order is named as a kept row's is.
test_expect_success 'tl-perf on "#dropped" rows read uncut: escapes, a uid out of order' '
	tl-tree "$TEST_DIR/escapes.ev" >full &&
	tl-tree --lean "$TEST_DIR/escapes.ev" >lean &&
	grep -q "^#dropped	.*\\\\" lean &&
	for f in full lean; do
		rm -rf p.$f && mkdir p.$f &&
		tl-perf --csv -o p.$f --info p.$f/info.csv $f >p.$f/out 2>p.$f/err || return 1
	done &&
	diff -r p.full p.lean &&
	tl-tree --lean "$R/rules.ev" >lean &&
	u=$(grep "^#dropped	" lean | sed -n 2p | cut -f2) &&
	awk -F"\t" -v u="$u" "BEGIN { OFS = \"\t\" }
		\$1 == \"#dropped\" && \$2 == u { \$2 = u + 100 } { print }" lean >bad &&
	test_must_fail tl-perf --csv -o p bad 2>err &&
	grep -q "uid $((u + 100)) out of order (expected $u)" err
'

for opt in "--columns uid,name" --tree-rows --pseudo-ops --print; do
	test_expect_code 2 "--lean goes with the full node stream only: not with $opt" '
		tl-tree --lean $opt "$R/rules.ev"
	'
done

test_done
