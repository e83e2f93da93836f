#!/bin/sh
# tl-cat --lend-pages hands a pipe its output's pages (vmsplice) instead of
# copying them, fills other buffers while the pipe may still hold them,
# and lets filled ones wait while the pipe is full.  The reader must get
# the very bytes tl-cat writes to a file: when it reads at once, when it
# lets the pipe fill (buffers wait, then tl-cat waits), and when the pipe
# holds more pages than tl-cat's ring of buffers (each buffer is then
# replaced, not reused: the reader made the pipe bigger, or TL_LEND_RING,
# here).
. "$TL_SRC/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip_all 'tl-cat --lend-pages' 'python3 is not installed (it writes the input and reads the pipe)'
fi

# gen.py FILE N: a trace of N events with distinct names and times
cat >gen.py <<-\PY
import sys
path, n = sys.argv[1], int(sys.argv[2])
ev = '{"ph":"X","cat":"cpu_op","name":"op%d","pid":1,"tid":%d,"ts":%d.5,"dur":%d}'
body = [ev % (i, i % 7, 1000 + 10 * i, i % 13) for i in range(n)]
open(path, "w").write('{"traceEvents":[' + ",".join(body) + "]}")
PY

# read.py [WAIT]: copies its stdin to stdout with read(2), after WAIT
# seconds (the pipe fills meanwhile), in small reads
cat >read.py <<-\PY
import os, sys, time
time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 0)
while True:
    b = os.read(0, 1 << 16)
    if not b:
        break
    os.write(1, b)
PY

python3 gen.py big.json 400000 || exit 1
tl-cat big.json >expect || exit 1

test_expect_success 'the input is big enough to go round the ring of buffers' '
	test "$(wc -c <expect)" -gt 16000000
'

test_expect_success 'to a file, --lend-pages writes as usual' '
	tl-cat --lend-pages big.json >got &&
	test_cmp expect got
'

test_expect_success 'a reader that reads at once gets the same bytes' '
	{ tl-cat --lend-pages big.json; echo "exit $?" >rc; } | python3 read.py >got &&
	echo "exit 0" >rc.want && test_cmp rc.want rc &&
	cmp expect got
'

test_expect_success 'a reader that lets the pipe fill gets the same bytes' '
	{ tl-cat --lend-pages big.json; echo "exit $?" >rc; } | python3 read.py 0.5 >got &&
	test_cmp rc.want rc &&
	cmp expect got
'

# TL_LEND_RING=8: while the pipe is full two buffers wait their turn (8
# less the four the pipe holds, the one being filled and the next), and
# the buffer after them may still be in the pipe: each is replaced
test_expect_success 'buffers that wait for the pipe keep their order' '
	{ TL_LEND_RING=8 tl-cat --lend-pages big.json; echo "exit $?" >rc; } |
		python3 read.py 0.5 >got &&
	test_cmp rc.want rc &&
	cmp expect got
'

# TL_LEND_RING=2: two buffers where the 1 MiB pipe holds four, so each
# buffer may still be in the pipe when its turn comes again
test_expect_success 'with too few buffers for the pipe each is replaced, not reused' '
	{ TL_LEND_RING=2 tl-cat --lend-pages big.json; echo "exit $?" >rc; } |
		python3 read.py 0.5 >got &&
	test_cmp rc.want rc &&
	cmp expect got
'

test_expect_success 'tl-tree reads the lent pages as it reads a file' '
	tl-tree --lean expect >nodes.want &&
	mkfifo events &&
	{ tl-cat --lend-pages big.json >events & } &&
	tl-tree --lean events >nodes.got &&
	wait $! &&
	cmp nodes.want nodes.got
'

test_expect_success 'a reader that goes away: tl-cat ends as it does with copies' '
	{ tl-cat big.json 2>err.want; echo "exit $?" >rc.want; } | head -c 100 >/dev/null;
	{ tl-cat --lend-pages big.json 2>err; echo "exit $?" >rc; } | head -c 100 >/dev/null;
	test_cmp rc.want rc && test_cmp err.want err
'

test_done
