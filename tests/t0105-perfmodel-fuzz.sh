#!/bin/sh
# Every op of the table on seeded random, malformed and absurd arguments
# (wrong types, huge or negative dims, bad literals, cut JSON): the models
# must fail cleanly, never crash (run it with make check SAN=1 too).
. "$TL_SRC/tests/lib.sh"

test_expect_success 'perf models survive 5000 random argument sets' '
	python3 - "$TL_SRC/share/tl/ops.tsv" >in.tsv <<-\PY &&
	import json, random, sys
	random.seed(5)
	names = [l.split("\t")[0] for l in open(sys.argv[1]) if l[0] != "#" and "\t" in l]
	big = [0, 1, 2, 3, 7, 16, -1, 2**40, 2**62, -2**62]
	def dim():
	    if random.random() < 0.1:
	        return random.choice([None, "x", 1.5, [[1, 2]], -3])
	    return [random.choice(big) for _ in range(random.randint(0, 6))]
	def typ():
	    return random.choice(["float", "c10::BFloat16", "bool", "", "Scalar", "c10::Float8_e4m3fn", None, 3])
	def conc():
	    return random.choice(["", "1", "0.", "True", "False", "[1, 2]", "[True]", "abc", "-5", "[", "None", "1e309", "[9223372036854775807, 5]"])
	for i in range(5000):
	    k = random.randint(0, 20)
	    d = json.dumps([dim() for _ in range(k)])
	    if random.random() < 0.02:
	        d = d[:len(d) // 2]
	    print("\t".join([random.choice(names), d, json.dumps([typ() for _ in range(k)]),
	                     json.dumps([dim() for _ in range(k)]), json.dumps([conc() for _ in range(k)]),
	                     str(random.randint(0, 1)), "Cijk_Alik_Bljk_x\x1fnvjet_T"]))
	PY
	"$TL_UNIT/pm-eval" "$TL_SRC/share/tl/ops.tsv" <in.tsv >out.tsv 2>err &&
	test ! -s err &&
	test $(wc -l <out.tsv) = 5000 &&
	cut -f1 out.tsv | sort -u >statuses &&
	grep -qx ok statuses && grep -qx fail statuses
'
test_done
