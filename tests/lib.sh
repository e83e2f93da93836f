# tests/lib.sh — sourced by every tests/tNNNN-*.sh; git-style TAP helpers.
#
#   test_expect_success 'title' 'commands'   ok if commands exit 0
#   test_expect_failure is not provided: known breakage is a failing test.
#   test_expect_code N 'title' 'commands'    ok if commands exit N
#   test_cmp EXPECTED ACTUAL                 diff -u, fails on difference
#   test_must_fail CMD...                    CMD exits 1 (bad input), not a crash
#   test_golden GOLDEN ACTUAL                like test_cmp against a file kept
#                                            beside the test; TL_UPDATE=1 rewrites it
#   test_skip 'title' 'why'                  ok … # SKIP why
#   test_done                                plan line; exit status
#
# Environment (set by tests/run.sh): TL_BIN (programs), TL_UNIT (unit test
# programs), TL_SRC (source tree), TEST_DIR (the test's own folder for
# goldens), SHARED (../shared, may be absent).  Each test runs in its own
# scratch directory.  Never pipe a tl-* command inside an assertion: write
# to a file and check $?.
test_count=0
test_failed=0
PATH="$TL_BIN:$TL_SRC/scripts:$PATH"
export PATH
LC_ALL=C
export LC_ALL

say_ok() { test_count=$((test_count + 1)); echo "ok $test_count - $1"; }
say_fail() {
	test_count=$((test_count + 1)); test_failed=$((test_failed + 1))
	echo "not ok $test_count - $1"
}

test_expect_success() {
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		say_ok "$1"
	else
		say_fail "$1"; sed 's/^/#   /' "$TRASH/.out"
	fi
}

test_expect_code() {
	want=$1; shift
	(eval "$2") >"$TRASH/.out" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then say_ok "$1"
	else say_fail "$1 (exit $got, want $want)"; sed 's/^/#   /' "$TRASH/.out"
	fi
}

test_skip() { test_count=$((test_count + 1)); echo "ok $test_count - $1 # SKIP $2"; }
# The whole file skipped: one skipped test saying why, then the end.
test_skip_all() { test_skip "$1" "$2"; test_done; exit; }

test_cmp() { diff -u "$1" "$2"; }

# Exit status must be exactly 1: a crash (signal 128+N, sanitizer 86/87
# as tests/run.sh sets them under SAN=1) or a usage error (2) is not
# "failed cleanly".
test_must_fail() {
	"$@"
	rc=$?
	case $rc in
	1) return 0 ;;
	86|87) echo "# $*: sanitizer report (exit $rc)" >&2 ;;
	0) echo "# expected exit 1 from $*, got 0" >&2 ;;
	*) if [ $rc -gt 128 ]; then echo "# $*: crashed (signal $((rc - 128)))" >&2
	   else echo "# expected exit 1 from $*, got $rc" >&2; fi ;;
	esac
	return 1
}

test_golden() {
	if [ "${TL_UPDATE:-}" = 1 ]; then
		mkdir -p "$(dirname "$1")"; cp "$2" "$1"; return 0
	fi
	diff -u "$1" "$2"
}

# have_shared: is ../shared/corpus there?  Tests skip with a message if not.
have_shared() { [ -d "$SHARED/corpus" ]; }

test_done() {
	echo "1..$test_count"
	[ "$test_failed" = 0 ]
}
