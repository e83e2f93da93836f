#!/bin/sh
# Text for a person shows control characters escaped and C++ names
# demangled (finding 4 of issue 13): tl-tree --print/--up/--node, tl-diff
# --summary and -p, and every message on stderr.  The streams and files
# (node stream, merged_tree_output.txt, CSV) keep a trace's exact bytes.
. "$TL_SRC/tests/lib.sh"

esc=$(printf '\033')
# an op named ESC ] 0 ; pwned BEL (retitles a terminal) and ESC [ 2 J
# (clears it), launching a kernel with an Itanium-mangled name
cat >evil.json <<-\EOF
{"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::\u001b]0;pwned\u0007mm\u001b[2J","pid":1,"tid":1,"ts":0,"dur":50,"args":{"External id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":5,"External id":1}},
{"ph":"s","id":5,"pid":1,"tid":1,"ts":1,"cat":"ac2g","name":"ac2g"},
{"ph":"X","cat":"kernel","name":"_ZN5aiter11fmha_fwd_v3ILi128EEEvv","pid":0,"tid":7,"ts":10,"dur":5,"args":{"correlation":5,"External id":1,"stream":7}},
{"ph":"f","id":5,"pid":0,"tid":7,"ts":10,"cat":"ac2g","name":"ac2g","bp":"e"}
]}
EOF

test_expect_success 'tl-tree --print: control characters escaped, kernel demangled' '
	tl-cat evil.json >ev &&
	tl-tree --print ev >print &&
	! grep -q "$esc" print &&
	grep -q "Name: aten::\\\\x1b\]0;pwned\\\\x07mm\\\\x1b\[2J$" print &&
	grep -q "Name: void aiter::fmha_fwd_v3<128>(), Duration: 5$" print
'

test_expect_success 'tl-tree --up and --node: the same, --node adds the demangled name' '
	tl-tree --up 3 ev >up &&
	! grep -q "$esc" up &&
	grep -q "aiter::fmha_fwd_v3<128>()" up &&
	grep -q "pwned\\\\x07mm" up &&
	tl-tree --node 0 ev >node0 && ! grep -q "$esc" node0 &&
	grep -qx "name: aten::\\\\x1b\]0;pwned\\\\x07mm\\\\x1b\[2J" node0 &&
	tl-tree --node 3 ev >node3 &&
	grep -qx "name: _ZN5aiter11fmha_fwd_v3ILi128EEEvv" node3 &&
	grep -qx "demangled: void aiter::fmha_fwd_v3<128>()" node3
'

test_expect_success 'the node stream keeps the exact bytes' '
	tl-tree ev >nodes &&
	grep -q "aten::$esc\]0;pwned" nodes &&
	grep -q "	_ZN5aiter11fmha_fwd_v3ILi128EEEvv	" nodes
'

test_expect_success 'tl-diff --summary and -p escape and demangle; the files keep the bytes' '
	tl-diff --summary nodes nodes >summary &&
	! grep -q "$esc" summary &&
	tl-diff -p -o d nodes nodes >printed &&
	! grep -q "$esc" printed &&
	grep -q "aiter::fmha_fwd_v3<128>()" printed &&
	grep -q "pwned\\\\x07mm" printed &&
	grep -q "$esc\]0;pwned" d/merged_tree_output.txt &&
	grep -q "_ZN5aiter11fmha_fwd_v3ILi128EEEvv" d/merged_tree_output.txt
'

test_expect_success 'messages escape names: a file called e ESC[2J vil.json' '
	printf "{\"traceEvents\":[{" >"e$esc[2Jvil.json" &&
	test_must_fail tl-cat "e$esc[2Jvil.json" >out 2>err &&
	! grep -q "$esc" err &&
	grep -q "^tl-cat: e\\\\x1b\[2Jvil.json: byte" err
'

test_expect_success 'a zip member name with control characters, in messages' '
	if ! command -v python3 >/dev/null 2>&1; then exit 0; fi &&
	python3 -c "
import zipfile
with zipfile.ZipFile(\"m.zip\", \"w\") as z:
    z.writestr(\"a\x1b]0;x\x07.json\", \"{\\\"traceEvents\\\":[{\")
" &&
	test_must_fail tl-cat m.zip >out 2>err &&
	! grep -q "$esc" err &&
	grep -q "m.zip:a\\\\x1b\]0;x\\\\x07.json: byte" err
'
test_done
