#!/bin/sh
# tl-fuse on three hand-made ranks (t7500-fuse-basic.d: process metadata,
# flows, string pids, a pid too large for its rank's range, a pid that
# meets a taken slot, an id above 10^10, escapes): event counts checked
# with python's json, the fused trace read back by tl-cat, pids never
# shared by two ranks, every event as TraceLens's TraceFuse writes it
# (tracelens-merge.json, made by make-reference.sh with the oracle).
. "$TL_SRC/tests/lib.sh"

D=$TEST_DIR
r0=$D/rank0.json r1=$D/rank1.json r2=$D/rank2.json
all="0=$r0 1=$r1 2=$r2"
if ! command -v python3 >/dev/null; then
	test_skip 'tl-fuse checks' 'python3 is missing (the independent checks read JSON with it)'
	test_done
	exit
fi
check() { python3 "$D/check.py" "$@"; }

test_expect_success 'three ranks fuse into one trace' '
	tl-fuse "$r0" "$r1" "$r2" >fused.json 2>err &&
	grep -q "^tl-fuse: 3 ranks: 51 events read, 33 written, 12 process metadata replaced by 34, 6 dropped by cat" err
'
test_expect_success 'event count = what each rank keeps + two per process (python json)' '
	check count fused.json $all
'
test_expect_success 'pids of different ranks never collide, all below 2^31' '
	check pids fused.json
'
test_expect_success 'every event as TraceLens'"'"'s TraceFuse (originals of renumbered values kept)' '
	check tracelens fused.json "$D/tracelens-merge.json"
'
test_expect_success 'the fused trace reads back through tl-cat, every event' '
	tl-cat fused.json >ev &&
	n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))[\"traceEvents\"]))" fused.json) &&
	grep -qx "#end	0	$n	0" ev
'
test_expect_success 'a pid at or above the rank'"'"'s range gets a free slot of that range' '
	grep -F "\"name\":\"dataloader\",\"pid\":299999997," fused.json &&
	grep -F "\"name\":\"worker\",\"pid\":299999996," fused.json &&
	grep -F "\"pid_raw\":123456789" fused.json
'
test_expect_success 'ids: rank * 10^10 + id, the original in *_raw; an id above 10^10 stays' '
	grep -F "\"External id\":20000000007,\"correlation\":20000000042,\"rank\":2" fused.json &&
	grep -F "\"ph\":\"s\",\"id\":10000000041," fused.json &&
	grep -F "\"External id\":12345678901,\"rank\":2,\"pid_raw\":4242}" fused.json &&
	grep -q "1 ids (id, correlation, External id) are not integers below 10^10" err
'
test_expect_success 'process names: RANK r - GPU/CPU, sort index 2r (+1 for GPU)' '
	grep -F "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":100000000,\"tid\":0,\"args\":{\"name\":\"RANK 1 - GPU\"}}" fused.json &&
	grep -F "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":100000000,\"tid\":0,\"args\":{\"sort_index\":3}}" fused.json &&
	grep -F "\"pid\":200004242,\"tid\":0,\"args\":{\"name\":\"RANK 2 - CPU\"}" fused.json &&
	grep -F "\"args\":{\"name\":\"RANK 0 - Traces\"}" fused.json
'
test_expect_success 'same input, same bytes' '
	tl-fuse "$r0" "$r1" "$r2" >again.json 2>/dev/null && test_cmp fused.json again.json
'
test_expect_success '--python keeps python_function events, --no-filter cat Trace too' '
	tl-fuse --python "$r0" "$r1" "$r2" >py.json 2>/dev/null &&
	check count py.json --python $all &&
	grep -q "train.py(10): step" py.json && ! grep -q "PyTorch Profiler (0)" py.json &&
	tl-fuse --no-filter "$r0" "$r1" "$r2" >nf.json 2>/dev/null &&
	check count nf.json --no-filter $all && grep -q "PyTorch Profiler (0)" nf.json
'
test_expect_success '--ranks 0,2: only those ranks, with their own numbers' '
	tl-fuse --ranks 0,2 "$r0" "$r1" "$r2" >sub.json 2>/dev/null &&
	check count sub.json 0=$r0 2=$r2 && check pids sub.json &&
	grep -q "RANK 2 - GPU" sub.json && ! grep -q "RANK 1 " sub.json
'
test_expect_success '--ranks 1-2 is a range; unselected traces are not opened' '
	tl-fuse -r 1-2 missing.json "$r1" "$r2" >rng.json 2>/dev/null &&
	check count rng.json 1=$r1 2=$r2
'
test_expect_success '--window 195:260 keeps what meets the window, and all metadata' '
	tl-fuse --window 195:260 "$r0" "$r1" "$r2" >win.json 2>err &&
	check count win.json --window 195:260 $all &&
	grep -q ", 24 outside the window" err &&
	grep -q "ampere_sgemm" win.json && ! grep -q "cudaLaunchKernel" win.json &&
	grep -q "thread_name" win.json
'
test_expect_success '--window with an open end' '
	tl-fuse --window 600: "$r0" >open.json 2>/dev/null &&
	check count open.json --window 600:1e300 0=$r0
'
test_expect_success '--job DIR takes the ranks from DIR/ranks.csv (tl-ranks)' '
	mkdir job && printf "rank,trace,x\n1,%s,a\n0,%s,b\n2,\"%s\",c\n" "$r1" "$r0" "$r2" >job/ranks.csv &&
	tl-fuse --job job >jobfused.json 2>/dev/null &&
	test_cmp fused.json jobfused.json
'
test_expect_success '-o FILE.gz writes gzip, the same JSON' '
	tl-fuse -o fused.json.gz "$r0" "$r1" "$r2" 2>/dev/null &&
	gzip -dc fused.json.gz >gunzipped.json && test_cmp fused.json gunzipped.json &&
	tl-cat fused.json.gz >ev.gz && grep -q "^#end	0	67	0" ev.gz
'
test_expect_success '-v: one line per rank' '
	tl-fuse -v "$r0" "$r1" >/dev/null 2>err &&
	grep -q "rank0.json: rank 0: 16 events read, 10 written" err &&
	grep -q "rank1.json: rank 1: 16 events read, 10 written" err
'

if [ "${TL_SAN:-}" = 1 ] || ! command -v valgrind >/dev/null 2>&1; then
	test_skip 'tl-fuse is valgrind-clean' 'SAN=1 build or no valgrind'
else
	test_expect_success 'tl-fuse is valgrind-clean (plain, gzip out, window, job)' '
		vg="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99" &&
		$vg tl-fuse -o vg.json "$r0" "$r1" "$r2" 2>/dev/null &&
		$vg tl-fuse -o vg.json.gz -w 100:300 --ranks 1,2 "$r0" "$r1" "$r2" 2>/dev/null &&
		$vg tl-fuse --job job -o vg2.json 2>/dev/null
	'
fi

# errors
printf '{"traceEvents": [ {"ph": "X", "pid": 1, "ts": 1}, {"ph": ' >bad.json
test_expect_success 'a bad rank: message, exit 1, the others still fused, valid JSON' '
	test_must_fail tl-fuse "$r0" bad.json "$r2" >part.json 2>err &&
	grep -q "^tl-fuse: bad.json: byte " err &&
	python3 -c "import json,sys; e=json.load(open(sys.argv[1]))[\"traceEvents\"]; assert any(x.get(\"args\",{}).get(\"rank\")==2 for x in e)" part.json
'
test_expect_success 'a missing trace: exit 1 with its name' '
	test_must_fail tl-fuse "$r0" nosuch.json >/dev/null 2>err && grep -q "nosuch.json" err
'
test_expect_success '--job without ranks.csv, or with a rank missing: exit 1' '
	mkdir nojob && test_must_fail tl-fuse --job nojob >/dev/null 2>err &&
	mkdir hole && printf "rank,trace\n0,a\n2,b\n" >hole/ranks.csv &&
	test_must_fail tl-fuse --job hole >/dev/null 2>err && grep -q "rank .2. is not one of 0 to 1" err
'
test_expect_code 2 'no trace is a usage error' 'tl-fuse'
test_expect_code 2 'traces and --job together are a usage error' 'tl-fuse --job job "$r0"'
test_expect_code 2 '--ranks beyond the traces is a usage error' 'tl-fuse --ranks 3 "$r0" "$r1"'
test_expect_code 2 '--ranks that is not a list is a usage error' 'tl-fuse --ranks 1,x "$r0" "$r1"'
test_expect_code 2 '--window that is not START:END is a usage error' 'tl-fuse --window 5 "$r0"'
test_expect_code 2 '--window with START after END is a usage error' 'tl-fuse --window 9:5 "$r0"'
test_expect_code 0 '-h prints the usage' 'tl-fuse -h >h && grep -q "^usage: tl-fuse" h'
test_done
