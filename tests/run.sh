#!/bin/sh
# tests/run.sh [--update] [--preserve] [PATTERN] — runs tests/t*.sh (TAP)
# and ends with the line "N passed, M failed, K skipped".
#   --update    rewrite golden files from the current output (TL_UPDATE=1)
#   --preserve  keep each test's scratch directory under tests/trash/
src=$(cd "$(dirname "$0")/.." && pwd)
preserve=
while [ $# -gt 0 ]; do
	case $1 in
	--update) TL_UPDATE=1; export TL_UPDATE ;;
	--preserve) preserve=1 ;;
	*) break ;;
	esac
	shift
done
pattern=${1:-t*}
: "${TL_BIN:=$src/bin}" "${TL_UNIT:=$src/build/opt/unit}"
SHARED=${SHARED:-$(cd "$src/.." && pwd)/shared}
TL_SHARE=${TL_SHARE:-$src/share/tl}
export TL_BIN TL_UNIT SHARED TL_SHARE TL_SRC="$src"
mkdir -p "$src/tests/trash"

# one NAME: run tests/NAME.sh into tests/trash/NAME.tap and write its
# result line ("ok"/"FAIL", passed, failed, skipped) to tests/trash/NAME.res
one() {
	name=$1
	t="$src/tests/$name.sh"
	TRASH="$src/tests/trash/$name"
	rm -rf "$TRASH"; mkdir -p "$TRASH"
	out="$src/tests/trash/$name.tap"
	# Under SAN=1 every sanitizer report fails the test, even one from a
	# process whose exit status or stderr the test did not look at: the
	# reports go to files (log_path) that are checked below.
	san="$src/tests/trash/$name.san"
	rm -f "$san".*
	if [ "${TL_SAN:-}" = 1 ]; then
		ASAN_OPTIONS="halt_on_error=1:exitcode=86:detect_leaks=1:log_path=$san"
		UBSAN_OPTIONS="halt_on_error=1:exitcode=87:print_stacktrace=1:log_path=$san"
		LSAN_OPTIONS="exitcode=86"
		export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
	fi
	t0=$(date +%s)
	(cd "$TRASH" && TRASH="$TRASH" TEST_DIR="$src/tests/$name.d" sh "$t") >"$out" 2>&1
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	for r in "$san".*; do
		[ -f "$r" ] || continue
		echo "not ok - sanitizer report ($(basename "$r"))" >>"$out"
		sed 's/^/#   /' "$r" >>"$out"
		rm -f "$r"
	done
	p=$(grep -c '^ok ' "$out" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$out" | tr -d ' ')
	f=$(grep -c '^not ok ' "$out" | tr -d ' ')
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $name exited $rc" >>"$out"; fi
	echo "$p $f $s $secs" >"$src/tests/trash/$name.res"
	[ -n "$preserve" ] || rm -rf "$TRASH"
}

if [ "${TL_RUN_ONE:-}" ]; then
	one "$TL_RUN_ONE"
	exit 0
fi

# The tests run TL_TEST_JOBS at a time (default: the number of CPUs; each
# has its own scratch folder); the results are printed in name order.
jobs=${TL_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
names=
for t in "$src"/tests/$pattern.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	rm -f "$src/tests/trash/$name.res"
	names="$names $name"
done
[ -z "$names" ] ||
	printf '%s\n' $names | TL_UPDATE=${TL_UPDATE:-} xargs -P "$jobs" -I{} \
		env TL_RUN_ONE={} sh "$0" ${preserve:+--preserve}
pass=0 fail=0 skip=0
rm -f "$src/tests/trash/times"
for name in $names; do
	out="$src/tests/trash/$name.tap"
	res="$src/tests/trash/$name.res"
	if [ -f "$res" ]; then
		read -r p f s secs <"$res"
	else
		p=0 f=1 s=0 secs=0
		echo "not ok - $name did not finish" >>"$out"
	fi
	rm -f "$res"
	if [ "$f" -gt 0 ]; then
		echo "FAIL $name"; sed 's/^/    /' "$out"
	else
		echo "ok   $name ($p passed${s:+, $s skipped}, ${secs} s)" | sed 's/, 0 skipped//'
	fi
	echo "$secs $name" >>"$src/tests/trash/times"
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done
# the slowest tests, so that a suite growing past CI's time shows where
echo "slowest (wall s): $(sort -rn "$src/tests/trash/times" 2>/dev/null | head -8 | tr '\n' ' ')"
rm -f "$src/tests/trash/times"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
