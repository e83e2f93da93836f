#!/usr/bin/env python3
"""padded-trace.py FILE SIZE [BIG]: a trace of small events padded with
blanks to exactly SIZE bytes, its last byte the closing brace; with BIG,
every 50th event (from the 8th) has an argument string of BIG bytes.  For
the tests of tl-cat's in-place readers (t1013, t1015): element and file
ends at chosen offsets, elements longer than a view or a ring."""
import sys

path, size = sys.argv[1], int(sys.argv[2])
big = int(sys.argv[3]) if len(sys.argv) > 3 else 0
ev = '{"ph":"X","cat":"cpu_op","name":"op%d","pid":1,"tid":1,"ts":%d.5,"dur":2%s}'
body, n = [], 0
while n < size - 200 - big:
    i = len(body)
    arg = ',"args":{"s":"%s"}' % ("y" * big) if big and i % 50 == 7 else ""
    body.append(ev % (i, 1000 + 10 * i, arg))
    n += len(body[-1]) + 1
doc = '{"traceEvents":[' + ",".join(body) + "]"
doc += " " * (size - len(doc) - 1) + "}"
assert len(doc) == size
open(path, "w").write(doc)
