#!/bin/sh
# Rebuild ref-NAME/ for every line of cases with TraceLens's own three
# Perfetto-style reports (HIP activity with its Markdown, HIP API <-> kernel,
# memory copies), run from ~/tl-oracle/TraceLens with Debian's python3:
#	sh refs.sh [NAME...]      (in this directory; all cases by default)
# An input "@rocprof-908" is from-rocprof.py's JSON for the corpus file.
set -eu
R=${TL_ORACLE:-$HOME/tl-oracle}/TraceLens
D=$(pwd)
C=${TL_CORPUS:-$D/../../../shared/corpus}
only=" $* "
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' cases | while IFS=';' read -r name input act api; do
	if [ "$only" != "  " ]; then
		case $only in *" $name "*) ;; *) continue ;; esac
	fi
	case $input in
	@rocprof-908)
		[ -f "$tmp/908.json" ] || /usr/bin/python3 from-rocprof.py \
			"$C/rocprof-908/trace_results.json.gz" >"$tmp/908.json"
		input=$tmp/908.json ;;
	*) input=$D/$input ;;
	esac
	rm -rf "ref-$name"
	mkdir "ref-$name"
	for rep in hip_activity hip_api memory_copy; do
		case $rep in
		hip_activity) flags="$act --output_md_path $D/ref-$name/report.md" ;;
		hip_api) flags=$api ;;
		*) flags= ;;
		esac
		eval "set -- $flags"
		(cd "$R" && PYTHONPATH=$R /usr/bin/python3 -W ignore \
			TraceLens/Reporting/generate_perf_report_pftrace_$rep.py \
			--trace_path "$input" --output_csvs_dir "$D/ref-$name" "$@" \
			>/dev/null)
	done
done
