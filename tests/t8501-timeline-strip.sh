#!/bin/sh
# tl-timeline --strip: the timeline per stream, downsampled to bins, that
# tl-html draws.  Hand-computed bins for a small trace; on a corpus trace
# the bins add up to the breakdowns tl-timeline computes another way
# (gpu_timeline.csv for the GPU's "all" rows, --per-stream for each stream).
. "$TL_SRC/tests/lib.sh"

# stream 7: gemm [0,10) and [30,40), memcpy [50,60); stream 8: nccl [5,25)
cat >trace.json <<'JSON'
{"traceEvents":[
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1000,"dur":10,"args":{"stream":7}},
{"ph":"X","cat":"kernel","name":"ncclAllReduce","pid":0,"tid":8,"ts":1005,"dur":20,"args":{"stream":8}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1030,"dur":10,"args":{"stream":7}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":1050,"dur":10,"args":{"stream":7}}
]}
JSON
# bins of 10 us over the span [0, 60); on the GPU as a whole the comm
# kernel is exposed only where no gemm runs: [10, 25)
cat >want.csv <<'WANT'
gpu,stream,bin,start_us,end_us,computation_us,exposed_comm_us,exposed_memcpy_us
0,all,0,0.0,10.0,10.0,0.0,0.0
0,all,1,10.0,20.0,0.0,10.0,0.0
0,all,2,20.0,30.0,0.0,5.0,0.0
0,all,3,30.0,40.0,10.0,0.0,0.0
0,all,5,50.0,60.0,0.0,0.0,10.0
0,7,0,0.0,10.0,10.0,0.0,0.0
0,7,3,30.0,40.0,10.0,0.0,0.0
0,7,5,50.0,60.0,0.0,0.0,10.0
0,8,0,0.0,10.0,0.0,5.0,0.0
0,8,1,10.0,20.0,0.0,10.0,0.0
0,8,2,20.0,30.0,0.0,5.0,0.0
WANT

test_expect_success 'hand-computed bins: per GPU and per stream, empty bins left out' '
	tl-cat trace.json >events.tsv &&
	tl-timeline --all-gpu --csv --strip strip.csv --strip-bins 6 events.tsv >tl.csv &&
	test_cmp want.csv strip.csv &&
	grep -q "^computation_time,0.02," tl.csv
'

test_expect_success 'one bin holds the whole span' '
	tl-timeline --all-gpu --strip one.csv --strip-bins 1 events.tsv >/dev/null &&
	sed -n 2p one.csv >got &&
	echo "0,all,0,0.0,60.0,20.0,15.0,10.0" >want &&
	test_cmp want got
'

test_expect_success '--strip takes one trace' '
	tl-cat trace.json trace.json >two.tsv &&
	test_must_fail tl-timeline --all-gpu --strip s2.csv two.tsv >/dev/null 2>err &&
	grep "takes one trace" err
'

test_expect_code 2 '--strip-bins out of range is a usage error' '
	tl-timeline --strip x.csv --strip-bins 0 events.tsv
'

# Sums over bins against breakdowns computed without bins (1e-6 ms).
check_sums() {
	awk -F, '
	FILENAME == ARGV[1] && FNR > 1 {	# the strip: sums per (gpu, stream)
		k = $1 "," $2; c[k] += $6; x[k] += $7; m[k] += $8; next }
	FILENAME == ARGV[2] && FNR > 1 {	# gpu_timeline.csv: the "all" row
		v[$1] = $2; next }
	FILENAME == ARGV[3] && FNR > 1 {	# --per-stream: gpu,stream,type,time ms
		p[$1 "," $2 "," $3] = $4; next }
	function off(a, b) { d = a - b; return d > 1e-6 || d < -1e-6 }
	END {
		bad = 0
		for (k in c) {
			split(k, f, ",")
			if (f[2] == "all") {
				if (off(c[k] / 1e3, v["computation_time"]) ||
				    off(x[k] / 1e3, v["exposed_comm_time"]) ||
				    off(m[k] / 1e3, v["exposed_memcpy_time"])) { print "all: " k; bad = 1 }
				continue
			}
			if (off(c[k] / 1e3, p[k ",computation_time"]) ||
			    off(x[k] / 1e3, p[k ",exposed_comm_time"]) ||
			    off(m[k] / 1e3, p[k ",exposed_memcpy_time"])) { print "stream: " k; bad = 1 }
			n++
		}
		if (n < 2) { print "want several streams, got " n; bad = 1 }
		exit bad
	}' "$@"
}

trace=$SHARED/corpus/multirank-dlrm-v100x8/ranks/rank0.json.gz
if have_shared && [ -f "$trace" ]; then
	test_expect_success 'corpus trace: bins add up to the breakdowns, per GPU and per stream' '
		tl-cat "$trace" >ev.tsv && tl-tree ev.tsv >nodes.tsv &&
		tl-timeline --csv --strip s.csv nodes.tsv >gpu_timeline.csv &&
		tl-timeline --csv --per-stream nodes.tsv >per_stream.csv &&
		check_sums s.csv gpu_timeline.csv per_stream.csv
	'
	test_expect_success 'corpus trace: at most --strip-bins rows per stream, same bytes twice' '
		tl-timeline --strip s50.csv --strip-bins 50 nodes.tsv >/dev/null &&
		awk -F, "NR > 1 { n[\$1 \",\" \$2]++ } END { for (k in n) if (n[k] > 50) exit 1 }" s50.csv &&
		tl-timeline --strip again.csv --strip-bins 50 nodes.tsv >/dev/null &&
		cmp s50.csv again.csv
	'
else
	test_skip 'corpus strips' '../shared/corpus is absent'
fi
test_done
