#!/bin/sh
# tl-cat's number classes (a ts or dur that reads as inf, a negative dur,
# an integer beyond 2^53) come from the number's text where it is short and
# has no exponent, from strtod otherwise: both ways must agree with the
# values by hand.  "-0", "-0.0" and a negative number that underflows to
# -0 are not negative; "-1e400" is inf, not negative; a ts is never
# "negative"; more than 300 characters take strtod's way.
. "$TL_SRC/tests/lib.sh"

zeros() { printf "%0${1}d" 0; }
nines() { printf "%${1}s" "" | tr " " 9; }

durs="-0 -0.0 -0.000 -0e5 -1e-400 0 -0.5 -1 -12.25 1e400 -1e400 1E400 1.5e308
9007199254740993 9007199254740992 -9007199254740993 12345678901234567.0
1$(zeros 349) $(nines 300) -0.$(zeros 330)1 0.$(zeros 330)1"

test_expect_success 'a trace with every kind of dur, and a negative ts' '
	{
		printf "{\"traceEvents\": [\n"
		printf "  {\"ph\": \"X\", \"name\": \"t\", \"pid\": 1, \"tid\": 1, \"ts\": -5, \"dur\": 1}"
		for d in $durs; do
			printf ",\n  {\"ph\": \"X\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": %s}" "$d"
		done
		printf "\n]}\n"
	} >n.json &&
	tl-cat n.json >ev 2>err
'

test_expect_success 'inf: 1e400, -1e400, 1E400 and a 350-digit integer (first: event 10)' '
	grep -q "^tl-cat: n.json: 4 events with a ts or dur too large for a double (it reads as inf): left out of the tree and the timeline (first: event 10, dur 1e400)$" err
'

test_expect_success 'negative: -0.5, -1, -12.25, -9007199254740993; no zero, no ts' '
	grep -q "^tl-cat: n.json: 4 events with a negative dur: left out of the tree and the timeline (first: event 7, dur -0.5)$" err
'

test_expect_success 'beyond 2^53: 9007199254740993, its negative and a 300-digit integer' '
	grep -q "^tl-cat: n.json: 3 events with an integer ts or dur beyond 2^53, rounded to the nearest double (first: event 14, dur 9007199254740993)$" err &&
	test $(wc -l <err) = 3
'

test_done
