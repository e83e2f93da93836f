#!/usr/bin/env python3
# Makes tests/t1235-common-pyfloat.tsv: doubles (float.hex) and Python's
# repr() of each, the expectation t1235 holds py_float_repr() to.
#   python3 tests/t1235-common-pyfloat.gen.py >tests/t1235-common-pyfloat.tsv
import math
import random

rng = random.Random(1235)
xs = []
# what tl's CSVs hold: microseconds and their sums and means
for k in range(0, 8):
    for _ in range(250):
        xs.append(round(rng.uniform(0, 10 ** rng.randint(0, 9)), k))
for _ in range(500):
    a = [round(rng.uniform(0, 5000), 3) for _ in range(rng.randint(1, 9))]
    xs.append(sum(a))
    xs.append(sum(a) / len(a))
    xs.append(sum(a) / 1000.0)
# any bit pattern
for _ in range(1500):
    x = rng.uniform(-1, 1) * 2.0 ** rng.randint(-30, 60)
    xs.append(x)
# powers of two and their neighbours, where the gap below is half the gap above
for e in range(-20, 60):
    p = 2.0 ** e
    xs += [p, math.nextafter(p, 0), math.nextafter(p, math.inf)]
# the edges of the fixed/scientific switch and of 2^50
for x in (1e-4, 1e-5, 9.999e-5, 1e15, 1e16, 9999999999999998.0, 2.0 ** 50,
          2.0 ** 50 - 0.25, 2.0 ** 50 + 1, 2.0 ** 53, 0.1 + 0.2, 1 / 3, 2 / 3,
          100.0, 123456789012345.6, 0.0, -0.0, 1.0, 9.5, 0.5, 1e22, 5e-324):
    xs.append(x)
xs += [-x for x in xs[::7]]
for x in xs:
    print("%s\t%r" % (float.hex(x), x))
