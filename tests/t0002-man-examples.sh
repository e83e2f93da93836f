#!/bin/sh
# Every ".Dl $ command" line in man/*.1 runs and exits 0 (as jq's man.test).
# The examples are run, in a scratch folder, against fixtures named as the
# pages name them: trace.json (the sample trace the repo ships),
# trace.json.gz, traces.tar.gz (also as run.tar.gz), events.tsv, nodes.tsv, base.json.gz,
# variant.json.gz, rank0.json.gz and rank1.json.gz, base_report/ and variant_report/,
# run_results.json (rocprofv3), profile.xplane.pb (JAX), perfetto.json.
. "$TL_SRC/tests/lib.sh"

sample="$TL_SRC/share/tl/sample/trace.json"
if [ ! -f "$sample" ]; then
	test_skip_all 'man page examples' 'share/tl/sample/trace.json is missing'
fi
cp "$sample" trace.json
gzip -c trace.json >trace.json.gz
cp trace.json.gz base.json.gz
sed 's/"dur": *\([0-9]\)/"dur": 1\1/' trace.json | gzip -c >variant.json.gz
tar czf traces.tar.gz trace.json
cp traces.tar.gz run.tar.gz
# two ranks of a job (tl-fuse, tl-ranks)
cp trace.json.gz rank0.json.gz
sed 's/"rank": 0, "world_size": 2/"rank": 1, "world_size": 2/' trace.json | gzip -c >rank1.json.gz
tl-cat trace.json >events.tsv && tl-tree events.tsv >nodes.tsv
cp "$TL_SRC/tests/t1100-cat-rocprof.d/mixed_results.json" run_results.json
cp "$TL_SRC/tests/t3510-jax-sheets.d/synthetic_jax.xplane.pb" profile.xplane.pb
cp "$TL_SRC/tests/t3520-pftrace-sheets.d/edge.json" perfetto.json
if [ -f "$TL_SRC/scripts/tl-report" ]; then
	sh "$TL_SRC/scripts/tl-report" -o base_report base.json.gz >/dev/null 2>&1
	sh "$TL_SRC/scripts/tl-report" -o variant_report variant.json.gz >/dev/null 2>&1
fi

# mdoc text → shell: \- is -, \e is \, \& is nothing, \(aq is '
extract() {
	sed -n 's/^\.Dl \$ //p' "$1" |
	sed -e 's/\\-/-/g' -e 's/\\&//g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g'
}

for page in "$TL_SRC"/man/*.1; do
	name=$(basename "$page")
	extract "$page" >examples.txt
	while IFS= read -r cmd; do
		missing=
		for w in $(printf '%s\n' "$cmd" | tr '|' '\n' | awk '{print $1}'); do
			command -v "$w" >/dev/null 2>&1 || missing="$missing $w"
		done
		if [ -n "$missing" ]; then
			test_skip "$name: $cmd" "not installed:$missing"
			continue
		fi
		test_expect_success "$name: $cmd" "bash -o pipefail -c '$(printf '%s' "$cmd" | sed "s/'/'\\\\''/g")' >/dev/null"
	done <examples.txt
done
test_done
