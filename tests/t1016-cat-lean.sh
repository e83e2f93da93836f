#!/bin/sh
# tl-cat --lean writes the rows the call tree keeps nothing of (python
# frames out of the tree, instants, other categories no sheet reads) as
# "#dropped" lines of their first nine fields, the lines tl-tree --lean
# would make of them: tl-tree --lean (tl-report's) and --tree-rows
# (tl-diff's) must write the very same node stream from the lean event
# stream as from the whole one, read from a pipe (the spool) and from a
# file (read again); the lean lines must be the rows an awk rule picks
# from the whole stream; every other use is refused.
. "$TL_SRC/tests/lib.sh"

# thin.awk: the whole stream's rows tl-cat --lean thins, as "#dropped" and
# their first nine fields (tl-stream(5)): a category, none of corr, ext,
# seq, stream and device, not metadata nor a flow (ac2g), and a python
# frame or a category the sheets do not know that is no user annotation
cat >thin.awk <<-\AWK
BEGIN { FS = OFS = "\t"
	split("cpu_op cuda_runtime cuda_driver kernel gpu_memcpy gpu_memset", k, " ")
	for (i in k) known[k[i]] = 1 }
/^#/ || NR <= 2 { print; next }
$4 != "" && $11 $12 $13 $14 $15 == "" && $3 != "M" && $4 != "ac2g" &&
($4 == "python_function" || (!($4 in known) && index($4, "user_annotation") == 0)) {
	print "#dropped", $1, $2, $3, $4, $5, $6, $7, $8, $9; next }
{ print }
AWK

# tl-diff's node stream: its columns, the tree's rows only
diff_cols="--columns uid,src,cat,name,ts,dur,dims,types,strides,concrete,parent,root --tree-rows"

# same_nodes NAME TRACE: the lean event stream is the awk rule's, and
# tl-tree --lean, and --tree-rows as tl-diff runs it, make the same bytes
# of it, from a pipe and from a file
same_nodes() {
	tl-cat "$2" >"$1.events" && tl-cat --lean "$2" >"$1.lean" &&
	awk -f thin.awk "$1.events" >"$1.want" && cmp "$1.want" "$1.lean" &&
	grep -q "^#dropped	" "$1.lean" &&
	tl-tree --lean <"$1.events" >"$1.nodes" &&
	tl-tree --lean <"$1.lean" >"$1.got" && cmp "$1.nodes" "$1.got" &&
	tl-tree --lean "$1.lean" >"$1.got2" && cmp "$1.nodes" "$1.got2" &&
	tl-tree $diff_cols <"$1.events" >"$1.rows" &&
	tl-tree $diff_cols <"$1.lean" >"$1.got3" && cmp "$1.rows" "$1.got3" &&
	tl-tree $diff_cols "$1.lean" >"$1.got4" && cmp "$1.rows" "$1.got4" &&
	test "$(wc -c <"$1.lean")" -lt "$(wc -c <"$1.events")"
}

test_expect_success 'the sample: the awk rule'"'"'s lines, the same node stream' '
	same_nodes sample "$TL_SRC/share/tl/sample/trace.json"
'

for d in h100-google_owlv2-large-patch14-ensemble__1016001 mi300-resnet_act_checkpoint \
	 multirank-nccl-a100x4/ranks; do
	t=$(ls "$SHARED/corpus/$d"/*.json* 2>/dev/null | head -n 1)
	if [ -z "$t" ]; then
		test_skip "$d: the same node stream" "no ../shared/corpus/$d (the corpus is not there)"
		continue
	fi
	test_expect_success "$d: the awk rule's lines, the same node stream" "
		same_nodes corpus '$t'
	"
done

# a python frame first (a source's tree begun by a "#dropped" row), then
# an op, an instant, a flow and a kernel, in two sources
cat >two.json <<-\EOF
{"traceEvents":[
{"ph":"X","cat":"python_function","name":"a.py(1): f","pid":1,"tid":1,"ts":10,"dur":50,"args":{"Python id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":12,"dur":20,"args":{"External id":3}},
{"ph":"i","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":13,"s":"t","args":{"Bytes":4}},
{"ph":"X","cat":"user_annotation","name":"step","pid":1,"tid":1,"ts":11,"dur":40}
]}
EOF
test_expect_success 'a source begun by a "#dropped" row, two sources' '
	tl-cat two.json two.json >two.events && tl-cat --lean two.json two.json >two.lean &&
	test "$(grep -c "^#dropped" two.lean)" = 4 &&
	tl-tree --lean <two.events >want && tl-tree --lean <two.lean >got && cmp want got &&
	tl-tree --lean two.lean >got2 && cmp want got2 &&
	tl-tree $diff_cols <two.events >want && tl-tree $diff_cols <two.lean >got && cmp want got &&
	tl-tree $diff_cols two.lean >got2 && cmp want got2 && ! grep -q "^#dropped" got2
'

# Thin rows that come whole after "#dropped" ones: tl-cat leaves a row
# with a JSON escape whole, and a stream may mix the two ways; tl-tree,
# which cuts rows at once once it has seen a "#dropped" one, must still
# thin them as it thins the whole stream's
cat >esc.json <<-\EOF
{"traceEvents":[
{"ph":"X","cat":"python_function","name":"a.py(1): f","pid":1,"tid":1,"ts":10,"dur":50,"args":{"Python id":1}},
{"ph":"X","cat":"python_function","name":"b.py(2): g","pid":1,"tid":1,"ts":11,"dur":30,"args":{"Python id":2}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":12,"dur":20,"args":{"External id":3}},
{"ph":"X","cat":"python_function","name":"c.py(3): \"h\"","pid":1,"tid":1,"ts":13,"dur":5,"args":{"Python id":3}},
{"ph":"X","cat":"python_function","name":"d.py(4):\tk","pid":1,"tid":1,"ts":14,"dur":4,"args":{"Python id":4}},
{"ph":"i","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":15,"s":"t","args":{"Bytes":4}},
{"ph":"X","cat":"python_function","name":"e.py(5): m","pid":1,"tid":1,"ts":16,"dur":2,"args":{"Python id":5}}
]}
EOF
test_expect_success 'thin rows whole after "#dropped" ones: the same node stream' '
	tl-cat esc.json >esc.events && tl-cat --lean esc.json >esc.lean &&
	test "$(grep -c "^#dropped" esc.lean)" = 4 &&
	tl-tree --lean <esc.events >want && tl-tree --lean <esc.lean >got && cmp want got &&
	test "$(grep -c "^#dropped" want)" = 6 &&
	awk -F "\t" "NR == FNR { row[\$1] = \$0; next }
		/^#dropped/ && \$2 == 6 { print row[6]; next } { print }" \
		esc.events esc.lean >mixed.lean &&
	test "$(grep -c "^#dropped" mixed.lean)" = 3 &&
	tl-tree --lean <mixed.lean >got2 && cmp want got2 &&
	tl-tree --lean mixed.lean >got3 && cmp want got3
'

test_expect_success 'tl-tree without --lean or --tree-rows refuses a lean event stream' '
	test_must_fail tl-tree two.lean >out 2>err &&
	grep -q "two.lean:4: a \"#dropped\" row (tl-cat --lean) is read by tl-tree --lean or --tree-rows only" err &&
	test_must_fail tl-tree --columns uid,name two.lean >out 2>err &&
	grep -q "two.lean:4: a \"#dropped\" row" err
'

test_expect_success 'tl-tree --lean --python refuses it (python frames are in the tree)' '
	test_must_fail tl-tree --lean --python two.lean >out 2>err &&
	grep -q "tl-tree --lean or --tree-rows only, without --python" err &&
	test_must_fail tl-tree --tree-rows --python two.lean >out 2>err &&
	grep -q "without --python" err
'

test_expect_success 'a "#dropped" row of a category the tree reads is refused' '
	head -n 3 two.lean >bad2.lean &&
	printf "#dropped\t2\t0\tX\tcpu_op\taten::mm\t1\t1\t12\t20\n" >>bad2.lean &&
	test_must_fail tl-tree --lean bad2.lean >out 2>err &&
	grep -q "bad2.lean:4: a \"#dropped\" row (tl-cat --lean) of a category the tree reads" err
'

test_expect_success 'a "#dropped" row of ten fields is refused' '
	{ cat two.lean; printf "#dropped\t9\t1\tX\tpython_function\tg\t1\t1\t5\t1\t7\n"; } >bad4.lean &&
	test_must_fail tl-tree --lean bad4.lean >out 2>err &&
	grep -q "bad4.lean:.*not of nine fields" err
'

test_expect_success 'a "#dropped" row out of uid order is refused' '
	{ cat two.lean; printf "#dropped\t1\t1\tX\tpython_function\tg\t1\t1\t5\t1\n"; } >bad3.lean &&
	test_must_fail tl-tree --lean bad3.lean >out 2>err &&
	grep -q "uid 1 out of order" err
'

test_expect_success 'another reader of events refuses a lean one' '
	test_must_fail tl-idle --critical-path cp.json -o cp two.lean >out 2>err &&
	grep -q "\"#dropped\" row" err
'

test_expect_success '--lean is not for --ndjson' '
	{ tl-cat --lean --ndjson two.json >out 2>err; test $? = 2; } &&
	grep -q "not with --ndjson" err
'

test_done
