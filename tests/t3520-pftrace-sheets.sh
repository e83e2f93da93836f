#!/bin/sh
# tl-pftrace: TraceLens's three Perfetto-style reports (HIP activity with
# its Markdown, HIP API <-> kernel, memory copies), byte for byte, on the
# event sets of TraceLens's own tests (minimal, rich, full, the HIP API and
# memory-copy cases) rebuilt as JSON, on edge.json made to reach the rules
# those leave alone, and at scale on a Perfetto-style rendering of the
# rocprof-908 corpus file.  The references are TraceLens's
# (t3520-pftrace-sheets.d/refs.sh; the cases and their flags in cases).
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t3520-pftrace-sheets.d
C=$SHARED/corpus

grep -v '^#' "$D/cases" >cases
while IFS=';' read -r name input act api; do
	case $input in
	@rocprof-908)
		if ! test -f "$C/rocprof-908/trace_results.json.gz"; then
			test_skip "$name" "no corpus"; continue
		fi
		if ! test -f 908.json; then
			python3 "$D/from-rocprof.py" "$C/rocprof-908/trace_results.json.gz" \
				>908.json || { rm -f 908.json; test_skip "$name" "no python3"; continue; }
		fi
		input=$PWD/908.json ;;
	*) input=$D/$input ;;
	esac
	flags="$act $api"
	# the 33 MB rocprof-908 rendering is read once for its two cases
	case $input in
	*/908.json) [ -f ev908 ] || tl-cat "$input" >ev908 || rm -f ev908; cat_ev='cp ev908 ev' ;;
	*) cat_ev='tl-cat "$input" >ev' ;;
	esac
	test_expect_success "$name: every sheet and report.md as TraceLens writes them" '
		rm -rf out && eval "$cat_ev" &&
		eval "tl-pftrace --csv -o out --md out/report.md $flags ev" &&
		(cd "$D/ref-$name" && ls) >want && (cd out && ls) >got && test_cmp want got &&
		for f in "$D/ref-$name"/*; do test_cmp "$f" "out/${f##*/}" || exit 1; done
	'
done <cases

test_expect_success 'TSV by default; -s SHEET alone writes it to stdout' '
	tl-cat "$D/memcpy.json" >ev && tl-pftrace -s memory_copy_by_copy_bytes ev >s &&
	printf "#tl-sheet 1\ncopy_bytes\tdirection\tcount\n4096\td2h (GPU 1)\t1\n" >want &&
	printf "8192\td2d (GPU 0 -> GPU 1)\t1\n20138\th2d (GPU 2)\t2\n" >>want &&
	test_cmp want s
'

test_expect_success 'TraceLens flags in either spelling' '
	tl-cat "$D/edge.json" >ev &&
	tl-pftrace --csv -o a --merge_kernels --kernel_summary_group name ev &&
	tl-pftrace --csv -o b --merge-kernels --kernel-summary-group name ev &&
	diff -r a b
'

test_expect_success '--no_kernel_summary and --no_hip_summary drop their sheets' '
	tl-cat "$D/edge.json" >ev &&
	tl-pftrace -o o --no_kernel_summary --no-hip-summary ev && ls o >got &&
	printf "%s\n" api_kernel_summary.tsv category_summary.tsv \
		memory_copy_by_copy_bytes.tsv xla_top.tsv >want && test_cmp want got
'

test_expect_success '--write_md writes DIR/report.md' '
	tl-cat "$D/minimal.json" | tl-pftrace -o w --write_md &&
	test_cmp "$D/ref-minimal/report.md" w/report.md
'

test_expect_success 'a value TraceLens cannot int() stops that report only' '
	printf "%s\n" "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":9,\"args\":{\"agent\":\"g\",\"begin_ns\":\"x\",\"delta_ns\":5}}," \
		"{\"ph\":\"X\",\"cat\":\"memory_copy\",\"name\":\"MEMORY_COPY_HOST_TO_DEVICE\",\"args\":{\"copy_bytes\":8,\"dst_agent\":1}}]}" >bad.json &&
	tl-cat bad.json >ev &&
	test_must_fail tl-pftrace --csv -o bad ev 2>err &&
	grep -q "HIP activity report: args.begin_ns is no integer" err &&
	ls bad >got && printf "%s\n" api_kernel_summary.csv memory_copy_by_copy_bytes.csv >want &&
	test_cmp want got
'

# Times that fit int64 but whose difference or sum does not (Python's ints
# would go on): the HIP API report stops, named, the others are written;
# two kernels of one API at huge times: their median is (a + b) / 2 as
# Python computes it, not an int64 sum (a fuzzing finding).
test_expect_success 'HIP API times beyond 64-bit integers stop that report only' '
	printf "%s\n" "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"hip_api\",\"name\":\"hipLaunchKernel\",\"pid\":1,\"tid\":1,\"args\":{\"corr_id\":1,\"begin_ns\":-9000000000000000000,\"end_ns\":9000000000000000000}}," \
		"{\"ph\":\"X\",\"cat\":\"kernel_dispatch\",\"name\":\"k\",\"pid\":2,\"tid\":1,\"ts\":1,\"dur\":4,\"args\":{\"corr_id\":1}}]}" >sum.json &&
	tl-cat sum.json >ev &&
	test_must_fail tl-pftrace --csv -o sum ev 2>err &&
	grep -q "HIP API report: args.end_ns - begin_ns is beyond 64-bit integers; no HIP API sheets" err &&
	! test -e sum/api_kernel_summary.csv
'
test_expect_success 'an activity ts + dur beyond 64-bit integers stops that report only' '
	printf "%s\n" "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"args\":{\"agent\":\"g\",\"begin_ns\":9000000000000000000,\"delta_ns\":9000000000000000000}}]}" >end.json &&
	tl-cat end.json >ev &&
	test_must_fail tl-pftrace --csv -o end ev 2>err &&
	grep -q "HIP activity report: ts + dur is beyond 64-bit integers; no HIP activity sheets" err
'
test_expect_success 'activity durations adding up beyond 64-bit integers stop that report' '
	printf "%s\n" "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"args\":{\"agent\":\"g\",\"begin_ns\":0,\"delta_ns\":5000000000000000000}}," \
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"args\":{\"agent\":\"g\",\"begin_ns\":0,\"delta_ns\":5000000000000000000}}]}" >sum2.json &&
	tl-cat sum2.json >ev &&
	test_must_fail tl-pftrace --csv -o sum2 ev 2>err &&
	grep -q "HIP activity report: the sum of the durations is beyond 64-bit integers" err
'
test_expect_success 'the median of two huge API times is Python'"'"'s (a + b) / 2' '
	printf "%s\n" "{\"traceEvents\":[" \
		"{\"ph\":\"X\",\"cat\":\"hip_api\",\"name\":\"hipLaunchKernel\",\"pid\":1,\"tid\":1,\"args\":{\"corr_id\":1,\"begin_ns\":0,\"end_ns\":6030055555554959550}}," \
		"{\"ph\":\"X\",\"cat\":\"kernel_dispatch\",\"name\":\"k\",\"pid\":2,\"tid\":1,\"args\":{\"corr_id\":1,\"begin_ns\":0,\"end_ns\":1}}," \
		"{\"ph\":\"X\",\"cat\":\"hip_api\",\"name\":\"hipLaunchKernel\",\"pid\":1,\"tid\":1,\"args\":{\"corr_id\":2,\"begin_ns\":0,\"end_ns\":6030055555554959550}}," \
		"{\"ph\":\"X\",\"cat\":\"kernel_dispatch\",\"name\":\"k\",\"pid\":2,\"tid\":1,\"args\":{\"corr_id\":2,\"begin_ns\":0,\"end_ns\":1}}]}" >mid.json &&
	tl-cat mid.json >ev &&
	tl-pftrace --csv -o mid ev &&
	python3 -c "a = 6030055555554959550; print(repr((a + a) / 2))" >want 2>/dev/null ||
		echo 6.030055555554959e+18 >want &&
	sed -n 2p mid/api_kernel_summary.csv | cut -d, -f12 >got &&
	test_cmp want got
'

test_expect_code 2 'a Python regex tl cannot run is a usage error' \
	'tl-pftrace --exclude_kernel_regex "(?<=x)y" -o o /dev/null'
test_expect_code 2 'an unknown choice is a usage error' \
	'tl-pftrace --kernel_summary_group grid -o o /dev/null'
test_expect_code 2 'no -o, no --md and no single -s: usage error' 'tl-pftrace /dev/null'

test_expect_success 'a user regex (POSIX translation) excludes kernels' '
	tl-cat "$D/edge.json" >ev &&
	tl-pftrace --csv -s api_kernel_summary --exclude_kernel_regex "^Cijk_\w+$" ev >s &&
	! grep -q Cijk s && grep -q fusion_123 s
'

test_expect_success 'not an event stream: exit 1, named' '
	echo hello >junk && test_must_fail tl-pftrace -o o junk 2>err && grep -q junk err
'
test_done
