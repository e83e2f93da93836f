#!/bin/sh
# tl-diff runs itself again with glibc's heap in 2 MB pages (tl-report's
# GLIBC_TUNABLES; common/heap_pages.h) when the caller set none, so that
# it and the tl-cat | tl-tree it starts fault every 2 MB; a caller's own
# GLIBC_TUNABLES, even empty, is left alone and no second start is made.
# A copy of tl-diff with a tl-cat beside it that notes what it was given:
# its own GLIBC_TUNABLES and the one tl-diff was started with (the parent's
# /proc/PID/environ, which only an exec sets; glibc cuts it at the first
# ':' as it reads it), then runs the real tl-cat.
. "$TL_SRC/tests/lib.sh"

if [ ! -r /proc/self/environ ]; then
	test_skip_all 'tl-diff heap pages' 'no /proc/PID/environ to read'
fi
huge=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=16777216
sample=$TL_SRC/share/tl/sample/trace.json

test_expect_success 'setup: tl-diff beside a tl-cat that notes GLIBC_TUNABLES' '
	mkdir fake &&
	cp "$TL_BIN/tl-diff" "$TL_BIN/tl-tree" fake/ &&
	cat >fake/tl-cat <<-EOF &&
	#!/bin/sh
	own=\${GLIBC_TUNABLES-unset}
	parent=\$(tr "\\\\0" "\\\\n" </proc/\$PPID/environ | sed -n "s/^GLIBC_TUNABLES=\\([^:]*\\).*/\\1/p")
	printf "%s %s\\\\n" "\$own" "\$parent" >>"$PWD/tunables"
	exec "$TL_BIN/tl-cat" "\$@"
	EOF
	chmod +x fake/tl-cat
'

test_expect_success 'none set: tl-diff and both pipelines in 2 MB pages' '
	env -u GLIBC_TUNABLES fake/tl-diff -o d1 "$sample" "$sample" >/dev/null &&
	printf "%s %s\\n%s %s\\n" $huge ${huge%%:*} $huge ${huge%%:*} >expect &&
	test_cmp expect tunables
'

test_expect_success 'a caller'"'"'s own GLIBC_TUNABLES, even empty, is left alone' '
	rm -f tunables &&
	GLIBC_TUNABLES=glibc.malloc.arena_max=2 fake/tl-diff -o d2 "$sample" "$sample" >/dev/null &&
	GLIBC_TUNABLES= fake/tl-diff -o d3 "$sample" "$sample" >/dev/null &&
	printf "%s\\n" "glibc.malloc.arena_max=2 glibc.malloc.arena_max=2" \
		"glibc.malloc.arena_max=2 glibc.malloc.arena_max=2" " " " " >expect &&
	test_cmp expect tunables
'

test_expect_success 'the same folder either way' '
	diff -r d1 d2 && diff -r d1 d3
'
test_done
