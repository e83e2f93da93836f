#!/bin/sh
# make-refs.sh: the TraceLens references of t1150 and t1151, made with
# TraceLens's own EventReplayer (the oracle checkout, ~/tl-oracle/TraceLens)
# under Debian 12's python3-torch 1.13 (/usr/bin/python3).  CI has no
# oracle: the outputs are committed.  Run from the source tree:
#	sh tests/t1151-replay-corpus.d/make-refs.sh
set -e
D1=tests/t1150-replay-ir.d D2=tests/t1151-replay-corpus.d
PY=/usr/bin/python3
T=${TMPDIR:-/tmp}/make-refs.$$
mkdir -p "$T"
echo 0 >"$T/uids"
$PY $D2/oracle-ir.py $D1/mm-trace.json "$T/uids" >$D1/mm-tracelens.json
seq 0 18 >"$T/uids"
$PY $D2/oracle-ir.py $D1/ops-trace.json "$T/uids" >$D1/ops-tracelens.json 2>"$T/err"
sed 's/^uid \([0-9]*\):.*/\1/' "$T/err" >$D1/ops-tracelens.failed
# every cpu_op of the corpus trace, by uid (tl-tree's numbering: the
# event's index in traceEvents, as TraceLens's UID)
trace=../shared/corpus/h100-gaunernst_bert-small-uncased__1016001/trace.json.gz
bin/tl-cat $trace | bin/tl-tree | awk -F'\t' '$4 == "cpu_op" { print $1 }' >"$T/uids"
$PY $D2/oracle-ir.py $trace "$T/uids" >$D2/bert-tracelens.json 2>"$T/err"
sed 's/^uid \([0-9]*\):.*/\1/' "$T/err" >$D2/bert-tracelens.failed
rm -rf "$T"
