#!/bin/sh
# The HTA references of t8001 (CASE/hta/), made with the live oracle
# (../shared/tools/oracle, set up in ~/tl-oracle).  Run from this folder:
#   sh make-refs.sh ../../../shared
# CI has no oracle: the outputs are committed.
set -e
shared=${1:?usage: make-refs.sh SHARED_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in waits overlap launch sync many culaunch ns; do
	mkdir -p "$tmp/$c" && cp "$c/trace.json" "$tmp/$c/"
	rm -rf "$c/hta" && "$shared/tools/oracle/hta" "$tmp/$c" "$c/hta" 2>/dev/null
done
for c in launch sync; do
	"$shared/tools/oracle/hta-critical-path" "$tmp/$c" 0 'ProfilerStep#1' 0 "$tmp/$c.cp" >/dev/null 2>&1
	cp "$tmp/$c.cp"/critical_path_*.csv "$c/hta/"
done
