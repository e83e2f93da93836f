#!/bin/sh
# Options and output forms: --per-gpu, --per-stream, --micro-idle, the
# default table, several sources in one stream.
. "$TL_SRC/tests/lib.sh"
. "$TL_SRC/tests/t4001-timeline-link.d/events.sh"

{
	ev_header
	ev 0 X kernel a 1 3 0 10 - - - 3
	ev 1 X kernel b 0 7 5 10 - - - 7
	ev 2 X kernel c 0 2 20 5 - - - -
	ev 3 X kernel d 10 1 0 1 - - - 1
	ev 4 X kernel e 2 1 0 2 - - - 1
	ev 5 X kernel f '"GPU x"' 1 0 4 - - - 1
} >gpus.tsv

test_expect_success '--per-gpu: one breakdown per pid, numbers in numeric order' '
	tl-timeline --all-gpu --per-gpu --csv gpus.tsv >out.csv &&
	head -n 1 out.csv >head &&
	echo "gpu,type,time ms,percent" >want && test_cmp want head &&
	sed 1d out.csv | cut -d, -f1 | uniq >order &&
	printf "0\n1\n2\n10\nGPU x\n" >want && test_cmp want order &&
	test "$(wc -l <out.csv)" = 41 &&
	grep "^0,total_time,0.02,100.0$" out.csv &&
	grep "^0,busy_time,0.015,75.0$" out.csv &&
	grep "^0,idle_time,0.005,25.0$" out.csv &&
	grep "^GPU x,total_time,0.004,100.0$" out.csv
'

test_expect_success '--per-stream: per pid and stream (tid when no stream)' '
	tl-timeline --all-gpu --per-stream --csv gpus.tsv >out.csv &&
	sed 1d out.csv | cut -d, -f1,2 | uniq >order &&
	printf "0,2\n0,7\n1,3\n2,1\n10,1\nGPU x,1\n" >want && test_cmp want order &&
	grep "^0,2,total_time,0.005,100.0$" out.csv &&
	grep "^0,7,total_time,0.01,100.0$" out.csv
'

# gaps of 50 and 5 us; T = 30 makes the 5 micro and the 50 macro.
test_expect_success '--micro-idle splits idle time' '
	{
		ev_header
		ev 0 X kernel a 0 7 0 50 - - - 7
		ev 1 X kernel b 0 7 100 50 - - - 7
		ev 2 X kernel c 0 7 155 5 - - - 7
	} >gaps.tsv &&
	tl-timeline --all-gpu --micro-idle 30 --csv gaps.tsv >out.csv &&
	cat >want <<-\EOT &&
	type,time ms,percent
	computation_time,0.105,65.625
	exposed_comm_time,0.0,0.0
	exposed_memcpy_time,0.0,0.0
	busy_time,0.105,65.625
	micro_idle_time,0.005,3.125
	macro_idle_time,0.05,31.25
	total_time,0.16,100.0
	total_comm_time,0.0,0.0
	total_memcpy_time,0.0,0.0
	EOT
	test_cmp want out.csv
'

test_expect_success 'the default output is an aligned table' '
	tl-timeline --all-gpu gaps.tsv >out.txt &&
	cat >want <<-\EOT &&
	type                 time_ms  percent
	computation_time       0.105    65.62
	exposed_comm_time      0.000     0.00
	exposed_memcpy_time    0.000     0.00
	busy_time              0.105    65.62
	idle_time              0.055    34.38
	total_time             0.160   100.00
	total_comm_time        0.000     0.00
	total_memcpy_time      0.000     0.00
	EOT
	test_cmp want out.txt
'

test_expect_success 'a table with --per-gpu leads with the gpu' '
	tl-timeline --all-gpu --per-gpu gpus.tsv >out.txt &&
	head -n 2 out.txt >got &&
	printf "gpu    type                 time_ms  percent\n0      computation_time       0.015    75.00\n" >want &&
	test_cmp want got
'

# Two traces in one stream (tl-cat a.json b.json): one breakdown each,
# after a source column; a source without GPU events is reported.
test_expect_success 'several sources: a source column, one breakdown each' '
	{
		ev_header
		printf "#source\t0\ta.json\n"
		ev 0 X kernel a 0 7 0 10 - - - 7 {} 0
		printf "#end\t0\t1\t0\n#source\t1\tb.json\n"
		ev 0 X cpu_op x 1 1 0 10 - - - - {} 1
		printf "#end\t1\t1\t0\n#source\t2\tc,d.json\n"
		ev 0 X kernel a 0 7 0 20 - - - 7 {} 2
		ev 1 X kernel a 0 7 30 10 - - - 7 {} 2
		printf "#end\t2\t2\t0\n"
	} >multi.tsv &&
	test_must_fail tl-timeline --all-gpu --csv multi.tsv >out.csv 2>err &&
	grep "^tl-timeline: b.json: no GPU events found in the trace$" err &&
	head -n 1 out.csv >got && echo "source,type,time ms,percent" >want &&
	test_cmp want got &&
	grep "^a.json,total_time,0.01,100.0$" out.csv &&
	grep "^\"c,d.json\",idle_time,0.01,25.0$" out.csv &&
	test "$(wc -l <out.csv)" = 17
'
test_done
