#!/bin/sh
# The extra references of t8002, made with the live oracles (../shared/tools/
# oracle set up in ~/tl-oracle).  Run from this folder:
#   sh make-refs.sh ../../../shared
# CORPUS/*.csv: tests/tools/hta_refs_extra.py (HTA: every rank's idle
# breakdown and launch statistics; per-kernel statistics over launches);
# multirank-dlrm-v100x8/api_kernel_summary.rank0.csv: tests/tools/
# tracelens_api_kernel.py (TraceLens's T = A + Q + K table of rank 0).
set -e
shared=${1:?usage: make-refs.sh SHARED_DIR}
tools=../tools
for c in multirank-dlrm-v100x8 multirank-nccl-a100x4; do
	python3 "$tools/hta_refs_extra.py" "$shared/corpus/$c/ranks" "$c"
done
python3 "$tools/tracelens_api_kernel.py" "$shared/corpus/multirank-dlrm-v100x8/ranks/rank0.json.gz" \
	multirank-dlrm-v100x8/api_kernel_summary.rank0.csv
