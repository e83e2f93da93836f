#!/bin/sh
# replay.py, run by PyTorch on CPU (Debian's python3-torch), rebuilds every
# op tl-replay wrote (the synthetic rules trace of t1150 and every cpu_op of
# the corpus's bert-small) with the recorded shape, dtype and strides
# (--check), resolves the same IR at run time as tl-replay wrote (--ir), and
# names each op it cannot run; their number is checked against the IR
# (TraceLens's normal_() refuses a non-float tensor) and CPU PyTorch's
# "not implemented" kernels.  Few timed calls (--iters 3): CI's time is short.
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t1150-replay-ir.d
C=$SHARED/corpus/h100-gaunernst_bert-small-uncased__1016001

# an interpreter that imports torch: Debian's is /usr/bin/python3 (a
# python3 earlier on PATH may be another one, without torch)
PY=
for p in ${TL_TORCH_PYTHON:-} /usr/bin/python3 python3; do
	if "$p" -c "import torch" 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	test_skip_all 'replay.py under PyTorch' "no python3 here imports torch (apt-get install python3-torch)"
fi

# check OUT DIR: --check's lines, the IR's tensors and refusals agree
check_run() {
	python3 - "$2/event_replay_ir.json" "$1" "$2/ir.json" <<-\PY
	import json, re, sys
	ir = json.load(open(sys.argv[1]))
	out = open(sys.argv[2]).read()
	assert json.load(open(sys.argv[3])) == ir, "replay.py resolved another IR"
	body = re.split(r"^replayed \d+ of", out, flags=re.M)[0]
	blocks = re.split(r"^\[\d+/\d+\] ", body, flags=re.M)[1:]
	assert len(blocks) == len(ir), (len(blocks), len(ir))
	floats = ("float", "double", "c10::Half", "c10::BFloat16")
	refused_normal = other = 0
	for e, b in zip(ir, blocks):
	    args = e["replay_ir"]["list_pos_args"] + e["replay_ir"]["list_kwargs"]
	    tensors = [a for a in args if a["arg_type"].startswith("Tensor") and a["value"]]
	    bad = [t for t in tensors if t["value"]["init"] == "normal" and t["value"]["dtype"] not in floats]
	    if bad:  # TraceLens's build_tensor raises before anything runs
	        refused_normal += 1
	        assert "not replayed: cannot initialize" in b, b
	        continue
	    checks = re.findall(r"^  check (\w+): shape (\[.*?\]) dtype (\S+) strides (\[.*?\]): ok$", b, re.M)
	    want = [(t["arg_name"], str(t["value"]["shape"]), t["value"]["dtype"], str(t["value"]["strides"])) for t in tensors]
	    assert checks == want, (e["op_name"], checks, want)
	    if "  not replayed: " in b:
	        assert "not implemented for" in b, b  # no CPU kernel for it
	        other += 1
	    else:
	        assert "Average time taken" in b, b
	n = refused_normal + other
	want = "replayed %d of %d ops; %d not replayed; 0 tensor mismatches" % (len(ir) - n, len(ir), n)
	assert want in out, want
	print("replayed %d, refused by normal_() %d, no CPU kernel %d" % (len(ir) - n, refused_normal, other))
	PY
}

test_expect_success 'synthetic rules trace: every tensor as recorded' '
	tl-cat "$D/ops-trace.json" >ev && tl-tree ev >nodes &&
	tl-replay --uid $(seq -s, 0 18) -o ops nodes 2>/dev/null &&
	(cd ops && "$PY" replay.py --check --iters 3 --warmup 0 --ir ir.json >../out 2>../err; test $? = 1) &&
	check_run out ops >summary &&
	echo "replayed 11, refused by normal_() 2, no CPU kernel 1" >want &&
	test_cmp want summary &&
	test $(wc -l <err) = 3 && grep -q "^replay.py: op 12 aten::index_select: not replayed: cannot initialize a long tensor" err
'

if ! have_shared; then
	test_skip_all 'corpus trace' "no ../shared/corpus here"
fi
# the corpus run is PyTorch's time, the same in both builds: CI runs it once
if [ "${TL_SAN:-}" = 1 ]; then
	test_skip_all 'corpus trace under PyTorch' "SAN=1: the plain build runs it (tl-replay itself is checked under ASan by t1150, t1151)"
fi

test_expect_success 'every cpu_op of a real trace that CPU PyTorch runs, tensors as recorded' '
	tl-cat "$C/trace.json.gz" >ev && tl-tree ev >nodes &&
	tl-replay --uid $(awk -F"\t" "\$4 == \"cpu_op\" { print \$1 }" nodes | paste -sd,) -o all nodes 2>/dev/null &&
	(cd all && "$PY" replay.py --check --iters 1 --warmup 0 --ir ir.json >../out 2>../err; test $? = 1) &&
	check_run out all >summary &&
	echo "replayed 98, refused by normal_() 4, no CPU kernel 0" >want &&
	test_cmp want summary
'

test_done
