#!/bin/sh
# Every committed fuzz input, replayed: the seeds (tests/fuzz/corpus/NAME)
# and the crashers found so far (tests/fuzz/crashers/NAME) through their
# harness (tests/fuzz/fuzz-NAME.c, built with tests/fuzz/replay.c by make),
# and each crasher through the program itself, which must end with exit 0,
# or exit 1 and a message - never a crash or a sanitizer report (make check
# SAN=1 runs the same with ASan and UBSan).  tests/fuzz/README says how to
# add a harness and a crasher.
. "$TL_SRC/tests/lib.sh"

fuzz=$(dirname "$TL_UNIT")/fuzz

# 0 or 1-with-a-message from "$@" (output to files in the scratch folder),
# the message not an internal error; a run past two minutes is a hang (the
# crashers of a loop were hangs)
clean_exit() {
	timeout 120 "$@" >prog.out 2>prog.err
	rc=$?
	case $rc in
	124) echo "# no end after 120 s (a hang): $*" >&2; return 1 ;;
	0) return 0 ;;
	1) if grep -q "internal error" prog.err; then
		# tl's own checks failed, not the input's: a bug (one was
		# tl-cat -k on a rocprofv3 array name holding a newline)
		echo "# exit 1 on an internal error: $*" >&2
		sed 's/^/#   /' prog.err >&2
		return 1
	   fi
	   test -s prog.err && return 0
	   echo "# exit 1 without a message: $*" >&2; return 1 ;;
	*) echo "# exit $rc: $*" >&2; sed 's/^/#   /' prog.err >&2; return 1 ;;
	esac
}

# split FILE at its "\n\f\n" line into a.part and b.part (b = a if none)
split_ff() {
	python3 - "$1" <<-\PY
	import sys
	d = open(sys.argv[1], "rb").read()
	i = d.find(b"\n\f\n")
	a, b = (d, d) if i < 0 else (d[:i + 1], d[i + 3:])
	open("a.part", "wb").write(a)
	open("b.part", "wb").write(b)
	PY
}

# The programs that read what harness NAME reads, on one input.
through_programs() {
	name=$1 f=$2
	case $name in
	cat)	clean_exit tl-cat "$f" && clean_exit tl-cat --ndjson -k "$f" ;;
	rocprof|xplane)	# tl-cat finds the format by content: the harness calls
		# the reader itself, the program sees what a user's file gets
		clean_exit tl-cat "$f" && clean_exit tl-cat -k "$f" ;;
	tree)	clean_exit tl-tree "$f" && clean_exit tl-tree --python --print "$f" ;;
	timeline) clean_exit tl-timeline "$f" && clean_exit tl-timeline --csv --per-gpu "$f" ;;
	perf)	rm -rf sheets && clean_exit tl-perf -o sheets "$f" ;;
	diff)	split_ff "$f" && rm -rf d && clean_exit tl-diff -o d a.part b.part ;;
	xlsx)	cp "$f" sheet.csv && clean_exit tl-xlsx -o x.xlsx sheet.csv ;;
	compare) split_ff "$f" && rm -rf b v o && mkdir b v &&
		for s in ops_summary kernel_summary gpu_timeline GEMM; do
			cp a.part b/$s.csv && cp b.part v/$s.csv || return 1
		done && clean_exit tl-compare b v -o o ;;
	idle)	rm -rf i && clean_exit tl-idle -o i "$f" ;;
	pftrace) rm -rf p && clean_exit tl-pftrace --csv --write-md -o p "$f" ;;
	jax)	rm -rf j && clean_exit tl-jax --csv -o j "$f" ;;
	html)	rm -rf h && mkdir -p h/idle && python3 - "$f" <<-\PY &&
		import sys
		names = ["report_info", "gpu_timeline", "ops_summary", "kernel_summary",
		         "unified_perf_summary", "ops_summary_by_category", "short_kernel_histogram",
		         "short_kernels_summary", "timeline_strip", "idle/summary"]
		for name, part in zip(names, open(sys.argv[1], "rb").read().split(b"\n\f\n")):
		    open("h/%s.csv" % name, "wb").write(part if part.endswith(b"\n") or not part else part + b"\n")
		PY
		clean_exit tl-html --md h && clean_exit tl-html h ;;
	coll)	case $(head -c 8 "$f") in
		'#tl-coll') rm -rf c && clean_exit tl-coll -o c "$f" ;;
		*) clean_exit tl-coll --extract "$f" ;;
		esac ;;
	*)	return 0 ;;	# perfargs and new harnesses: the harness covers it
	esac
}

for src in "$TL_SRC"/tests/fuzz/fuzz-*.c; do
	h=$(basename "$src" .c)
	name=${h#fuzz-}
	if [ ! -x "$fuzz/$h" ]; then
		test_skip "$h" "not built ($fuzz/$h)"
		continue
	fi
	if [ -d "$TL_SRC/tests/fuzz/corpus/$name" ]; then
		test_expect_success "$h: seed corpus replays" "
			\"$fuzz/$h\" \"$TL_SRC/tests/fuzz/corpus/$name\" 2>/dev/null
		"
	fi
	for f in "$TL_SRC"/tests/fuzz/crashers/"$name"/*; do
		[ -f "$f" ] || continue
		c=$(basename "$f")
		test_expect_success "$h: crasher $c replays" "
			timeout 120 \"$fuzz/$h\" \"$f\" 2>/dev/null
		"
		test_expect_success "$name programs: crasher $c ends cleanly" "
			through_programs $name \"$f\"
		"
	done
done
test_done
