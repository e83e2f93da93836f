#!/bin/sh
# tl-report as a careless user meets it (finding 6 of issue 13): messages
# name the user's trace and event, never tl-report's temporary files; a
# failed report leaves no half-written folder (the sheets are written into
# a hidden folder beside the target and published when all succeeded); a
# trace whose name starts with '-' works after --; an existing -o folder
# keeps the files that are not ours.
. "$TL_SRC/tests/lib.sh"

trace=$TL_SRC/tests/t3001-perf-sheets.d/trace.json
cat >nodur.json <<-\EOF
{"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":10,"args":{"External id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":5,"External id":1}},
{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":5,"args":{"correlation":5,"External id":1}}
]}
EOF

test_expect_success 'a GPU event without dur: the message names the trace and the event' '
	test_must_fail tl-report nodur.json >out 2>err &&
	grep -q "^tl-timeline: nodur.json: event 2: GPU event with no numeric ts or dur" err &&
	! grep -e "tl-report\.[A-Za-z0-9]\{6\}" -e "/nodes" -e "/events" err
'

test_expect_success 'a failed report leaves no folder, not even a hidden one' '
	test_must_fail tl-report nodur.json >out 2>err &&
	test ! -e nodur_perf_report_csvs &&
	ls -a >entries &&
	! grep "^\.nodur" entries &&
	mkdir sub &&
	test_must_fail tl-report -o sub/r nodur.json 2>err &&
	test ! -e sub/r && test -z "$(ls -A sub)"
'

test_expect_success 'tl-report -- -x.json reports on a trace named -x.json' '
	cp "$trace" ./-x.json &&
	tl-report -- -x.json >out &&
	echo ./-x_perf_report_csvs >expect && test_cmp expect out &&
	test -f ./-x_perf_report_csvs/ops_summary.csv &&
	test -f ./-x_perf_report_csvs/report.md &&
	tl-report -o -y -- -x.json >out &&
	test -f ./-y/ops_summary.csv
'

test_expect_success 'a new folder gets the mode the umask gives, not mktemp 0700' '
	(umask 022 && tl-report -o fresh "$trace" >out) &&
	ls -ld fresh >mode &&
	grep -q "^drwxr-xr-x" mode
'

test_expect_success 'an existing -o folder keeps files that are not sheets' '
	mkdir keep && echo mine >keep/notes.txt &&
	tl-report -o keep "$trace" >out &&
	echo mine >expect && test_cmp expect keep/notes.txt &&
	test -f keep/ops_summary.csv && test -f keep/gpu_timeline.csv &&
	ls -a keep >entries && ! grep "^\.keep" entries &&
	ls -a >entries && ! grep "^\.keep" entries
'

test_expect_success 'a report over an old one replaces its sheets' '
	echo stale >keep/ops_summary.csv &&
	tl-report -o keep "$trace" >out &&
	! grep -qx stale keep/ops_summary.csv &&
	tl-report -o direct "$trace" >out &&
	test_cmp direct/ops_summary.csv keep/ops_summary.csv
'

test_expect_success '-o naming an existing file fails cleanly' '
	echo x >afile &&
	test_must_fail tl-report -o afile "$trace" >out 2>err &&
	grep -q "afile: exists and is not a folder" err &&
	echo x >expect && test_cmp expect afile &&
	ls -a >entries && ! grep "^\.afile" entries
'
test_done
