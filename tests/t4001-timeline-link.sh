#!/bin/sh
# Which GPU events count: TraceLens's linking rules (tracelens-core §2.4, §6)
# on a hand-made event stream, and the same stream as nodes with "tree".
. "$TL_SRC/tests/lib.sh"
. "$TEST_DIR/events.sh"

# Linked: k1 [10,20), graph kernels [60,70) [75,80), memcpy [130,140).
# Unlinked: k2 (no launch), k3 (f flow on another tid), k14 (a later
# event with the same pid/tid/correlation shadows it), k19 (the last f
# flow is on the CPU), k22 (no s flow).
{
	ev_header
	ev 0 X cuda_runtime cudaLaunchKernel 100 100 0 5 - 1 - -
	ev 1 s ac2g ac2g 100 100 0 - 1 - - -
	ev 2 X kernel k1 0 7 10 10 - 1 - 7
	ev 3 f ac2g ac2g 0 7 10 - 1 - - -
	ev 4 X kernel k2 0 7 30 5 - 2 - 7
	ev 5 X cuda_runtime cudaLaunchKernel 100 100 36 1 - 3 - -
	ev 6 s ac2g ac2g 100 100 36 - 3 - - -
	ev 7 X kernel k3 0 7 40 10 - 3 - 7
	ev 8 f ac2g ac2g 0 8 40 - 3 - - -
	ev 9 X cuda_runtime cudaGraphLaunch 100 100 50 1 - 4 - -
	ev 10 X kernel g1 0 7 60 10 - 4 - 7
	ev 11 X kernel g2 0 9 75 5 - 4 - 9
	ev 12 X cuda_runtime cudaLaunchKernel 100 100 85 1 - 5 - -
	ev 13 s ac2g ac2g 100 100 85 - 5 - - -
	ev 14 X kernel k14 0 7 90 10 - 5 - 7
	ev 15 f ac2g ac2g 0 7 90 - 5 - - -
	ev 16 X gpu_user_annotation step 0 7 0 200 - 5 - -
	ev 17 X cuda_runtime cudaLaunchKernel 100 100 95 1 - 6 - -
	ev 18 s ac2g ac2g 100 100 95 - 6 - - -
	ev 19 X kernel k19 0 7 100 20 - 6 - 7
	ev 20 f ac2g ac2g 0 7 100 - 6 - - -
	ev 21 f ac2g ac2g 100 100 100 - 6 - - -
	ev 22 X kernel k22 0 7 150 10 - 8 - 7
	ev 23 f ac2g ac2g 0 7 150 - 8 - - -
	ev 24 X cuda_runtime cudaLaunchKernel 100 100 149 1 - 8 - -
	ev 25 X cuda_runtime cudaMemcpyAsync 100 100 125 2 - 7 - -
	ev 26 s ac2g ac2g 100 100 125 - 7 - - -
	ev 27 X gpu_memcpy "Memcpy HtoD" 0 7 130 10 - 7 - 7
	ev 28 f ac2g ac2g 0 7 130 - 7 - - -
} >events.tsv

cat >linked.csv <<'EOT'
type,time ms,percent
computation_time,0.025,19.230769230769234
exposed_comm_time,0.0,0.0
exposed_memcpy_time,0.01,7.6923076923076925
busy_time,0.035,26.923076923076923
idle_time,0.095,73.07692307692307
total_time,0.13,100.0
total_comm_time,0.0,0.0
total_memcpy_time,0.01,7.6923076923076925
EOT

# --all-gpu: [10,20) [30,35) [40,50) [60,70) [75,80) [90,120) [130,140) [150,160)
cat >all.csv <<'EOT'
type,time ms,percent
computation_time,0.08,53.333333333333336
exposed_comm_time,0.0,0.0
exposed_memcpy_time,0.01,6.666666666666667
busy_time,0.09,60.0
idle_time,0.06,40.0
total_time,0.15,100.0
total_comm_time,0.0,0.0
total_memcpy_time,0.01,6.666666666666667
EOT

test_expect_success 'only linked GPU events count by default' '
	tl-timeline --csv events.tsv >out.csv 2>err &&
	test_cmp linked.csv out.csv &&
	grep "5 of 9 GPU events are not linked" err
'

test_expect_success '--all-gpu counts unlinked ones too' '
	tl-timeline --csv --all-gpu events.tsv >out.csv 2>err &&
	test_cmp all.csv out.csv &&
	! test -s err
'

# The same rows as a node stream, "tree" = 1 on exactly the linked GPU
# events (and on the host events, which tl-timeline must ignore).
test_expect_success 'a node stream with tree=1 on the linked events agrees' '
	awk -F "\t" -v OFS="\t" "
		NR == 1 { print \"#tl-nodes 1\"; next }
		NR == 2 { print \$0, \"parent\", \"depth\", \"tree\"; next }
		{ t = (\$1 == 2 || \$1 == 10 || \$1 == 11 || \$1 == 27 || \$4 == \"cuda_runtime\") ? 1 : 0
		  print \$0, \"\", \"\", t }" events.tsv >nodes.tsv &&
	tl-timeline --csv nodes.tsv >out.csv 2>err &&
	test_cmp linked.csv out.csv
'

test_expect_success 'a node stream with tree=1 everywhere counts every GPU event' '
	awk -F "\t" -v OFS="\t" "
		NR == 1 { print \"#tl-nodes 1\"; next }
		NR == 2 { print \$0, \"tree\"; next }
		{ print \$0, 1 }" events.tsv >nodes-all.tsv &&
	tl-timeline --csv nodes-all.tsv >out.csv &&
	test_cmp all.csv out.csv
'

# External id is the key when the first launch carries no correlation:
# k1 links through ext 5 although its correlation (99) has no flows.
test_expect_success 'External id links when the first launch has no correlation' '
	{
		ev_header
		ev 0 X cuda_runtime cudaLaunchKernel 100 100 0 5 - - 5 -
		ev 1 s ac2g ac2g 100 100 0 - 5 - - -
		ev 2 X kernel k1 0 7 10 10 - 99 5 7
		ev 3 f ac2g ac2g 0 7 10 - 5 - - -
		ev 4 X cuda_runtime cudaLaunchKernel 100 100 20 5 - 6 6 -
		ev 5 s ac2g ac2g 100 100 20 - 6 - - -
		ev 6 X kernel k2 0 7 30 10 - 6 - 7
		ev 7 f ac2g ac2g 0 7 30 - 6 - - -
	} >ext.tsv &&
	tl-timeline --csv ext.tsv >out.csv 2>err &&
	grep "^total_time,0.01,100.0$" out.csv &&
	grep "1 of 2 GPU events are not linked" err
'

# The key is decided by the first launch even when GPU events and flows
# come before it in the file (file order is not causal).
test_expect_success 'links resolve whatever the file order' '
	{
		ev_header
		ev 0 X kernel k1 0 7 10 10 - 1 - 7
		ev 1 f ac2g ac2g 0 7 10 - 1 - - -
		ev 2 X cuda_runtime cudaLaunchKernel 100 100 0 5 - 1 - -
		ev 3 s ac2g ac2g 100 100 0 - 1 - - -
	} >order.tsv &&
	tl-timeline --csv order.tsv >out.csv 2>err &&
	grep "^busy_time,0.01,100.0$" out.csv &&
	! test -s err
'

test_done
