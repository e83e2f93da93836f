#!/bin/sh
# Every program (bin/tl-* and scripts/tl-*, whoever adds them) has a man
# page, and its -h prints the usage, one line per option with what it does,
# and the man page's name; the options -h lists are exactly those of the
# man page's option list (.It Fl ...), both ways.
. "$TL_SRC/tests/lib.sh"

# Option words of a -h text: lines after the first blank line that start
# with blanks and a dash; forms before the first two blanks, comma-separated
# ("-o, --output DIR"); a line without a description is reported as such.
help_opts() {
	awk '
	!started { if ($0 == "") started = 1; next }
	/^ +-/ {
		line = $0; sub(/^ +/, "", line)
		forms = line; desc = ""
		if ((k = index(line, "  ")) > 0) {
			forms = substr(line, 1, k - 1); desc = substr(line, k)
			sub(/^ +/, "", desc)
		}
		if (desc == "") print "NO-DESCRIPTION:" forms
		n = split(forms, f, /, /)
		for (i = 1; i <= n; i++) { split(f[i], w, / /); print w[1] }
	}' "$1" | sort -u
}

# Option words of a man page: every "Fl X" on an .It line that starts with Fl.
man_opts() {
	awk '/^\.It Fl / {
		for (i = 2; i <= NF; i++)
			if ($(i - 1) == "Fl" && $i != "") print "-" $i
	}' "$1" | sort -u
}

programs=
for p in "$TL_BIN"/tl-* "$TL_SRC"/scripts/tl-*; do
	[ -f "$p" ] && [ -x "$p" ] || continue
	programs="$programs $p"
done
for p in $programs; do
	name=$(basename "$p")
	man=$TL_SRC/man/$name.1
	test_expect_success "$name has a man page" "test -f \"$man\""
	test_expect_success "$name -h: usage, options, man page" "
		\"$p\" -h >$name.h 2>$name.err &&
		test ! -s $name.err &&
		head -n 1 $name.h | grep -q \"^usage: $name\" &&
		grep -q \"^See $name(1)\\.\$\" $name.h &&
		help_opts $name.h >$name.hopts &&
		! grep NO-DESCRIPTION $name.hopts &&
		grep -q -- -h $name.hopts
	"
	test_expect_success "$name: -h and $name(1) list the same options" "
		help_opts $name.h >$name.hopts &&
		man_opts \"$man\" >$name.mopts &&
		test_cmp $name.mopts $name.hopts
	"
done
for m in "$TL_SRC"/man/*.1; do
	name=$(basename "$m" .1)
	test_expect_success "$name(1) documents a program" "
		test -x \"$TL_BIN/$name\" || test -x \"$TL_SRC/scripts/$name\"
	"
done
test_done
