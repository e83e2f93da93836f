#!/bin/sh
# tl-cat on rocprofv3 results files: recognised by content, every record a
# row (checked field by field against tests/tools/pyrocprof.py, an
# independent Python reading), nanoseconds as exact decimal microseconds,
# agents as devices; bad files exit 1 with "tl-cat: FILE: byte N: what"
# (offsets worked out by hand).
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t1100-cat-rocprof.d
B=$TL_SRC/tests/bad

test_expect_success 'mixed records: rows, #top and ndjson agree with pyrocprof' '
	tl-cat "$D/mixed_results.json" >tl.tsv 2>err &&
	tl-cat --ndjson "$D/mixed_results.json" >tl.nd 2>/dev/null &&
	python3 "$TL_SRC/tests/tools/pycat.py" "$D/mixed_results.json" >py.tsv &&
	python3 "$TL_SRC/tests/tools/checkcat.py" "$D/mixed_results.json" tl.tsv py.tsv tl.nd
'

test_expect_success 'a second tool record is counted on stderr, exit 0' '
	tl-cat "$D/mixed_results.json" >out 2>err &&
	echo "tl-cat: $D/mixed_results.json: 1 more \"rocprofiler-sdk-tool\" record(s) not read (only the first is, as in TraceLens)" >want &&
	test_cmp want err
'

# uid: the columns name pid tid ts dur corr stream device, worked out by hand
# from the records (ns / 1000 written exactly, agents 200/201 are GPUs 0/1)
test_expect_success 'hand-checked rows' '
	tl-cat "$D/mixed_results.json" >out 2>/dev/null &&
	awk -F"\t" "/^[0-9]/ { print \$1, \$5, \$6, \$7, \$8, \$9, \$11, \$14, \$15 }" out >got &&
	cat >want <<-\EOF &&
	0 Cijk_Alik_Bljk_gemm.kd 0 7 2000 4 1 7 0
	1 softmax_warp_forward<float> 0 7 2004.5 0.003 2 7 0
	2 raw_kernel.kd 0 8 2005 0.007 3 8 0
	3 unknown_kernel_4 0 7 2006 0.001 4 7 0
	4 vectorized_elementwise_kernel 1 9 2007 2.999 5 9 1
	5 ncclDevKernel_Generic_1 0 10 2003 5 6 10 0
	6 unknown_kernel_9 0 7 2010 0.002 7 7 0
	7 reduce_kernel\t"tab" 0 7 2011 0 8 7 0
	8 unknown_kernel_None 4242 4242 2012 0.009 9  
	9 Cijk_Alik_Bljk_gemm.kd 0 7 1234.567 0.001 10 7 0
	10 hipLaunchKernel 4242 4242 1999 0.8 11  
	11 hipMemcpyAsync 4242 4242 2000.1 0.2 12  
	12 hipStreamSynchronize 4242 4243 2013 2 13  
	13 hip_api 4242 4242 2016 0.001 14  
	14 hsa_signal_wait_scacquire 4242 4242 2017 0.25 15  
	15 MEMORY_COPY_HOST_TO_DEVICE 0 0 3000 1 16  0
	16 MEMORY_COPY_DEVICE_TO_HOST 1 0 3002 0.5 17  1
	17 MEMORY_COPY_DEVICE_TO_DEVICE 1 0 3001.5 1.5 18  1
	18 custom_api 4242  0 0   
	EOF
	test_cmp want got
'

test_expect_success 'categories, deviceProperties from the GPU agents' '
	tl-cat "$D/mixed_results.json" >out 2>/dev/null &&
	awk -F"\t" "/^[0-9]/ { c[\$4]++ } END { for (k in c) print k, c[k] }" out | sort >got &&
	printf "%s\n" "cuda_runtime 4" "custom_api 1" "gpu_memcpy 3" "hsa_api 1" "kernel 10" >want &&
	test_cmp want got &&
	grep -qx "#top	0	deviceProperties	\[{\"id\":0,\"name\":\"AMD Instinct MI300X\",\"gcnArchName\":\"gfx942\",\"numSms\":304,\"warpSize\":64},{\"id\":1,\"name\":\"AMD Instinct MI300X\",\"gcnArchName\":\"gfx942\",\"numSms\":304,\"warpSize\":64}\]" out &&
	grep -q "^#top	0	rocprofiler-sdk-tool.buffer_records.summary_note	\"not an array\"$" out &&
	grep -qx "#end	0	19	0" out
'

test_expect_success 'gzip and stdin give the same stream' '
	tl-cat "$D/mixed_results.json" 2>/dev/null | sed 1,3d >plain &&
	gzip -c "$D/mixed_results.json" >r.json.gz &&
	tl-cat <r.json.gz 2>/dev/null | sed 1,3d >piped &&
	test_cmp plain piped
'

# file | the whole of stderr
while IFS='|' read -r f msg; do
	[ -n "$f" ] || continue
	test_expect_success "$f: exit 1, \"$msg\"" '
		cd "$B" && test_must_fail tl-cat "$f" >"$TRASH/out" 2>"$TRASH/err"; rc=$?
		cd "$TRASH" && echo "tl-cat: $f: $msg" >want && test $rc = 0 && test_cmp want err
	'
done <<'EOF_TABLE'
rocprof-float-ts.json|byte 103: record 1 (kernel_dispatch): start_timestamp is not an integer
rocprof-truncated.json|byte 124: truncated JSON: unexpected end of input
rocprof-empty-tool.json|byte 24: "rocprofiler-sdk-tool" is empty
rocprof-tool-not-object.json|byte 25: "rocprofiler-sdk-tool"[0] is not an object
rocprof-record-not-object.json|byte 55: record 0 (hip_api): record is not an object
rocprof-bad-literal.json|byte 41: invalid number or literal
rocprof-overflow.json|byte 55: record 0 (hip_api): end_timestamp - start_timestamp overflows
EOF_TABLE

test_expect_success '--keep-going skips the bad record, keeps its uid, counts it' '
	test_must_fail tl-cat -k "$B/rocprof-float-ts.json" >out 2>err &&
	grep -c "^[0-9]" out >n && echo 1 >want && test_cmp want n &&
	grep -qx "#end	0	2	1" out && grep -q "^0	" out
'

# a kernel_id with no symbol names the kernel f"unknown_kernel_{kernel_id}",
# str() of the value as Python holds it (True, 1e3 as 1000.0); an object id
# is unhashable, where TraceLens's symbol lookup raises TypeError: the
# record is refused (fuzz-rocprof found tl-cat writing it into the event's
# JSON unescaped, then dying with "internal error")
test_expect_success 'kernel_id true, 1e3, an object: str() of it, or refused' '
	cat >ids.json <<-\EOF &&
	{"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": [
	 {"start_timestamp": 1000, "end_timestamp": 2000, "dispatch_info": {"kernel_id": true}},
	 {"start_timestamp": 1000, "end_timestamp": 2000, "dispatch_info": {"kernel_id": 1e3}},
	 {"start_timestamp": 1000, "end_timestamp": 2000, "dispatch_info": {"kernel_id": {"y": 2}}}
	]}}]}
	EOF
	test_must_fail tl-cat ids.json >out 2>err &&
	grep "ids.json: byte [0-9]*: record 2 (kernel_dispatch): dispatch_info.kernel_id is an object or array" err &&
	{ tl-cat -k ids.json >out 2>err; test $? = 1; } && grep -q "^#end	0	3	1$" out &&
	awk -F"\t" "/^[0-9]/ { print \$5 }" out >got &&
	printf "%s\n" unknown_kernel_True unknown_kernel_1000.0 >want &&
	test_cmp want got
'
test_done
