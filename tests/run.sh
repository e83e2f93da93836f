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
pass=0 fail=0 skip=0
mkdir -p "$src/tests/trash"
for t in "$src"/tests/$pattern.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
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
	(cd "$TRASH" && TRASH="$TRASH" TEST_DIR="$src/tests/$name.d" sh "$t") >"$out" 2>&1
	rc=$?
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
	if [ "$f" -gt 0 ]; then
		echo "FAIL $name"; sed 's/^/    /' "$out"
	else
		echo "ok   $name ($p passed${s:+, $s skipped})" | sed 's/, 0 skipped//'
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	[ -n "$preserve" ] || rm -rf "$TRASH"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
