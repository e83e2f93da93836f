#!/bin/sh
# tl-cat on JAX XPlane profiles (.xplane.pb): recognised by content; the
# events of xprof's trace-viewer conversion and each HLO module's text,
# checked field by field against tests/tools/pyxplane.py (an independent
# reading with its own protobuf decoder) on a synthetic XSpace made to
# reach every rule (t1101-cat-xplane.d/make-xspace.py) and on the corpus
# files; hand-checked values; truncated and foreign protobufs exit 1 with
# "tl-cat: FILE: byte N: what".
. "$TL_SRC/tests/lib.sh"
D=$TL_SRC/tests/t1101-cat-xplane.d
B=$TL_SRC/tests/bad

test_expect_success 'synthetic XSpace: events and HLO text agree with pyxplane' '
	test_expect_code_1() { "$@"; test $? = 1; } &&
	test_expect_code_1 tl-cat --ndjson "$D/synthetic.xplane.pb" >tl.nd 2>err &&
	python3 "$TL_SRC/tests/tools/pyxplane.py" "$D/synthetic.xplane.pb" >py.nd &&
	python3 "$TL_SRC/tests/tools/checkxplane.py" tl.nd py.nd
'

test_expect_success 'an unreadable HLO module is reported, the rest written, exit 1' '
	test_must_fail tl-cat "$D/synthetic.xplane.pb" >out 2>err &&
	echo "tl-cat: $D/synthetic.xplane.pb: HLO module of program \"broken(2)\": not a valid HloProto; its kernels get no HLO metadata" >want &&
	test_cmp want err && grep -qx "#end	0	42	0" out
'

# devices: GPU:0 → 1, GPU:3 → 4, CUSTOM id 2 → 503, hosts by name → 701, 702;
# a line id 2^63-5 → tid 4294967291 (32 bits); ps / 1e6 with %.17g
test_expect_success 'hand-checked devices, threads, times, flows and args' '
	tl-cat "$D/synthetic.xplane.pb" >out 2>/dev/null
	awk -F"\t" "\$3 == \"M\" && \$5 == \"process_name\" { printf \"%s \", \$6 }" out >got &&
	printf "1 4 503 701 702 " >want && test_cmp want got &&
	grep -q "	M		thread_name	701	4294967291	" out &&
	grep -q "	X	gpu_launch	fusion_kernel	1	5	1.0009999999999999	0.0050000000000000001	" out &&
	grep -q "	{\"bind_id\":77,\"flow_in\":true}$" out &&
	grep -q "{\"group_id\":3,\"long_name\":\"fusion_kernel_long_mangled_name\",\"hlo_module\":\"jit_f\",\"correlation_id\":11,\"hlo_op\":\"add_fusion\"}" out &&
	grep -q "\"big\":\"1152921504606846977\",\"neg\":\"-4611686018427387904\",\"nan\":\"NaN\"" out &&
	grep -q "	X		Step 7	701	" out && ! grep -q "MemoryAllocation" out &&
	! grep -q "kernel_details\|program_id\|\"_pt\"" out
'

test_expect_success 'the HLO module text, as XLA prints it' '
	tl-cat --ndjson "$D/synthetic.xplane.pb" 2>/dev/null >nd
	python3 -c "
import json, sys
for l in open(\"nd\"):
    o = json.loads(l)
    if o.get(\"top\") == \"hlo_module.jit_f(1)\":
        sys.stdout.write(o[\"value\"][\"text\"])
" >got &&
	test_cmp "$D/jit_f.hlo.txt" got
'

test_expect_success '--format says xplane; stdin and gzip read the same' '
	tl-cat --format "$D/synthetic.xplane.pb" >f &&
	printf "%s\txplane\n" "$D/synthetic.xplane.pb" >want && test_cmp want f &&
	tl-cat "$D/synthetic.xplane.pb" 2>/dev/null | sed 1,3d >a
	gzip -c "$D/synthetic.xplane.pb" | tl-cat 2>/dev/null | sed 1,3d >b
	test_cmp a b
'

# file | the whole of stderr (offsets by hand: 44 is the metadata plane's
# map entry that holds the HLO bytes; 7 the byte after the 5-byte plane)
while IFS='|' read -r f msg; do
	[ -n "$f" ] || continue
	test_expect_success "$f: exit 1, \"$msg\"" '
		cd "$B" && test_must_fail tl-cat "$f" >"$TRASH/out" 2>"$TRASH/err"; rc=$?
		cd "$TRASH" && echo "tl-cat: $f: $msg" >want && test $rc = 0 && test_cmp want err
	'
done <<'EOF_TABLE'
xplane-truncated.xplane.pb|byte 44: truncated protobuf: the field that starts here runs past the end
xplane-foreign.xplane.pb|byte 0: a protobuf but not an XSpace (no plane named "/..." first); a binary Perfetto trace? convert it with Perfetto's traceconv first: traceconv json xplane-foreign.xplane.pb xplane-foreign.xplane.pb.json
xplane-wiretype.xplane.pb|byte 0: not an XSpace protobuf (its fields do not fit the schema)
xplane-badtag.xplane.pb|byte 7: not an XSpace protobuf: unknown wire type
EOF_TABLE

test_expect_success 'an XSpace without events: its directives, no rows (fuzz-xplane)' '
	printf "\n\017\022\r/device:GPU:0" >noev.xplane.pb &&
	tl-cat noev.xplane.pb >out &&
	tail -n 3 out >got &&
	printf "#top\t0\txplane.hostnames\t[]\n" >want &&
	printf "#top\t0\txplane.planes\t[{\"name\":\"/device:GPU:0\",\"id\":0,\"lines\":0,\"stats\":{}}]\n" >>want &&
	printf "#end\t0\t0\t0\n" >>want &&
	test_cmp want got
'

if have_shared && [ -d "$SHARED/corpus/jax-conv-minimal" ]; then
	for f in legacy v08; do
		test_expect_success "jax-conv-minimal/$f.xplane.pb: agrees with pyxplane" '
			tl-cat --ndjson "$SHARED/corpus/jax-conv-minimal/$f.xplane.pb" >tl.nd &&
			python3 "$TL_SRC/tests/tools/pyxplane.py" "$SHARED/corpus/jax-conv-minimal/$f.xplane.pb" >py.nd &&
			python3 "$TL_SRC/tests/tools/checkxplane.py" tl.nd py.nd
		'
	done
	test_expect_success 'a corpus file cut short anywhere: exit 1, never a crash' '
		L=$SHARED/corpus/jax-conv-minimal/legacy.xplane.pb &&
		for n in 1 5 20 300 5000 100000 289000 289305; do
			head -c $n "$L" >cut.xplane.pb &&
			test_must_fail tl-cat cut.xplane.pb >/dev/null 2>err &&
			grep -q "^tl-cat: cut.xplane.pb: " err || exit 1
		done
	'
else
	test_skip 'jax-conv-minimal through pyxplane' "no $SHARED/corpus/jax-conv-minimal"
fi
test_done
