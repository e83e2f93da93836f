#!/bin/sh
# common/py_set iterates a set of ints in CPython's order: random add and
# discard sequences (small and large keys, growth, dummies, shrinking
# rebuilds) replayed on python3's set and on py_set print the same orders.
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'py_set order' 'no python3'
fi
cat >gen.py <<'PY'
import random, sys
seed, n, span = map(int, sys.argv[1:4])
rnd = random.Random(seed)
ops, want, s = [], [], set()
for i in range(n):
    k = rnd.randrange(span)
    if rnd.random() < 0.35 and s:
        k = rnd.choice(sorted(s)) if rnd.random() < 0.8 else k
        ops.append("d %d" % k); s.discard(k)
    else:
        ops.append("a %d" % k); s.add(k)
    if rnd.random() < 0.1 or i == n - 1:
        ops.append("p"); want.append(" ".join(map(str, s)))
open("ops", "w").write("\n".join(ops) + "\n")
open("want", "w").write("\n".join(want) + "\n")
PY
for args in "1 40 16" "2 300 64" "3 2000 100000" "4 5000 3000" "5 200 8" "6 20000 1000000"; do
	test_expect_success "python3 set order: seed/ops/span $args" "
		python3 gen.py $args &&
		\"\$TL_UNIT/py-set\" <ops >got &&
		test_cmp want got
	"
done
test_done
