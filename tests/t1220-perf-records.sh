#!/bin/sh
# tl-perf keeps no record for the events no sheet reads (flows, instants,
# python frames out of the tree: common/tree_nodes.c), yet it still counts
# them and prints the trace's own uids.  Checked against the node stream
# itself, read another way (awk), on the owlv2 corpus trace, where such
# events come first and are 70 % of the events, so a record's index and its
# uid differ; and t3001's hand-made trace with a kernel's parent made a
# flow is refused with a message (tl-tree never writes one).
. "$TL_SRC/tests/lib.sh"

owl=$SHARED/corpus/h100-google_owlv2-large-patch14-ensemble__1016001/trace.json.gz
if have_shared && [ -f "$owl" ]; then
	test_expect_success 'tl-perf writes the sheets of the owlv2 trace' '
		tl-cat "$owl" | tl-tree >nodes &&
		tl-perf --csv -o out --info info.csv nodes 2>err
	'
	test_expect_success 'report_info counts every event of the stream, records or not' '
		awk -F "\t" "/^[0-9]/ { n++ } END { print \"events,\" n }" nodes >want &&
		grep "^events," info.csv >got &&
		test_cmp want got &&
		awk -F "\t" "/^[0-9]/ && (\$4 == \"ac2g\" || \$4 == \"python_function\") { n++ } END { exit n < 1000 }" nodes
	'
	test_expect_success 'every ex_UID of ops_unique_args is the uid of an op of that name' '
		python3 - out/ops_unique_args.csv nodes <<-\EOF
		import csv, sys
		name = {}
		with open(sys.argv[2]) as f:
		    for line in f:
		        if line[:1].isdigit():
		            c = line.rstrip("\n").split("\t")
		            name[int(c[0])] = c[4]
		n = 0
		with open(sys.argv[1], newline="") as f:
		    for row in csv.DictReader(f):
		        u = int(row["ex_UID"])
		        if name.get(u) != row["name"]:
		            sys.exit("ex_UID %d is %r, the row is %r" % (u, name.get(u), row["name"]))
		        n += 1
		sys.exit(0 if n > 10 else "only %d rows" % n)
		EOF
	'
else
	test_skip 'tl-perf on the owlv2 trace' 'no ../shared corpus'
	test_skip 'report_info counts every event' 'no ../shared corpus'
	test_skip 'ex_UID names the trace uids' 'no ../shared corpus'
fi

test_expect_success 'a kernel whose parent is a flow is refused, naming both' '
	tl-cat "$TL_SRC/tests/t3001-perf-sheets.d/trace.json" | tl-tree >good &&
	awk -F "\t" -v OFS="\t" "
		/^uid\t/ { for (i = 1; i <= NF; i++) col[\$i] = i }
		/^[0-9]/ && \$col[\"cat\"] == \"ac2g\" && flow == \"\" { flow = \$1 }
		/^[0-9]/ && \$col[\"cat\"] == \"kernel\" && flow != \"\" && !done { \$col[\"parent\"] = flow; done = 1 }
		{ print }" good >bad &&
	! cmp -s good bad &&
	test_must_fail tl-perf --csv -o badout bad 2>err &&
	grep "parent .* is a flow, instant or python frame out of the tree" err
'
test_done
