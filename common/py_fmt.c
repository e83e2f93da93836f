#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
#include "word_scan.h"
#include "banned.h"

/*
 * shortest_digits() finds the fewest significant digits (1..17) whose
 * correctly rounded decimal reads back as x.  It returns the digits (no
 * dot, trailing zeros removed) in d and the decimal exponent of the first
 * digit.
 */
static int round_trips(double x, int prec, char *tmp, size_t size)
{
	snprintf(tmp, size, "%.*e", prec - 1, x);
	return strtod(tmp, NULL) == x;
}

/*
 * The fast path of shortest_digits(), for the values our CSVs are made of
 * (microseconds with a few decimals, counts): the smallest k for which
 * m = x * 10^k rounded to an integer reads back as x (m / 10^k, one
 * correctly rounded division of two exact doubles, is what strtod makes
 * of "m e-k").  While x * 10^k < 2^50 an ulp of x is under a quarter of
 * 10^-k, so at most one such m exists at each k and the rounding of the
 * product cannot miss it; the k-decimal grid is the n-digit grid that the
 * search below walks, so the first k that reads back gives the same
 * digits.  Powers of two are left to the search: the neighbour below is
 * half as far there, and the search's answer is the one to keep.
 * Returns 0 when x is not for this path.
 */
static int shortest_digits_fast(double x, char *d, int *exp10)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
	};
	const double lim = 1125899906842624.0;	/* 2^50 */
	char tmp[24];
	int k, e, n, len;
	double m = 0;

	if (!(x >= 1e-4 && x < lim) || frexp(x, &e) == 0.5)
		return 0;
	for (k = 0; k < 18 && x * pow10[k] < lim; k++) {
		m = nearbyint(x * pow10[k]);
		if (m / pow10[k] == x)
			break;
	}
	if (k == 18 || !(x * pow10[k] < lim) || m < 1)
		return 0;
	/* m < 2^50: its decimal digits, most significant first */
	len = 0;
	for (uint64_t v = (uint64_t)m; v; v /= 10)
		tmp[len++] = (char)('0' + v % 10);
	for (n = 0; n < len; n++)
		d[n] = tmp[len - 1 - n];
	while (n > 1 && d[n - 1] == '0')
		n--;
	d[n] = '\0';
	*exp10 = len - 1 - k;
	return n;
}

static int shortest_digits(double x, char *d, int *exp10)
{
	char tmp[40];
	int n = 0;

	if ((n = shortest_digits_fast(x, d, exp10)) > 0)
		return n;

	/*
	 * 15 digits first: any decimal of p <= 15 digits that reads back as
	 * x is x rounded to p digits, and x is within half an ulp (2^-53 of
	 * x) of it, far less than half a unit of the 15th digit (5e-15 of
	 * x): so x rounded to 15 digits is that decimal padded with zeros,
	 * and dropping the zeros gives the fewest digits.  Else 16, else 17
	 * (which always reads back).  One to three tries where a search over
	 * 1..17 took five and a sixth to print (this runs once per float of
	 * every CSV and node row).  Subnormals have fewer bits, so a wider
	 * ulp: they get the binary search (round-tripping is monotonic in
	 * the number of digits).
	 */
	if (fabs(x) < DBL_MIN) {
		int lo = 1, hi = 17;

		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (round_trips(x, mid, tmp, sizeof(tmp)))
				hi = mid;
			else
				lo = mid + 1;
		}
		round_trips(x, lo, tmp, sizeof(tmp));
	} else if (!round_trips(x, 15, tmp, sizeof(tmp)) && !round_trips(x, 16, tmp, sizeof(tmp))) {
		snprintf(tmp, sizeof(tmp), "%.16e", x);
	}
	/* tmp is "d.ddde[+-]XX" */
	for (char *p = tmp; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			d[n++] = *p;
	while (n > 1 && d[n - 1] == '0')
		n--;
	d[n] = '\0';
	*exp10 = atoi(strchr(tmp, 'e') + 1);
	return n;
}

size_t py_float_repr(double x, char *buf)
{
	char d[24];
	int e, n, i, pos = 0;

	if (isnan(x))
		return (size_t)snprintf(buf, PY_FLOAT_MAX, "nan");
	if (isinf(x))
		return (size_t)snprintf(buf, PY_FLOAT_MAX, x < 0 ? "-inf" : "inf");
	if (x == 0)
		return (size_t)snprintf(buf, PY_FLOAT_MAX, signbit(x) ? "-0.0" : "0.0");
	if (x < 0) {
		buf[pos++] = '-';
		x = -x;
	}
	n = shortest_digits(x, d, &e);
	if (e < -4 || e >= 16) {
		buf[pos++] = d[0];
		if (n > 1) {
			buf[pos++] = '.';
			for (i = 1; i < n; i++)
				buf[pos++] = d[i];
		}
		pos += snprintf(buf + pos, (size_t)(PY_FLOAT_MAX - pos), "e%c%02d",
				e < 0 ? '-' : '+', e < 0 ? -e : e);
		return (size_t)pos;
	}
	if (e < 0) {
		buf[pos++] = '0';
		buf[pos++] = '.';
		for (i = 0; i < -e - 1; i++)
			buf[pos++] = '0';
		for (i = 0; i < n; i++)
			buf[pos++] = d[i];
	} else {
		for (i = 0; i <= e; i++)
			buf[pos++] = i < n ? d[i] : '0';
		buf[pos++] = '.';
		if (n > e + 1)
			for (i = e + 1; i < n; i++)
				buf[pos++] = d[i];
		else
			buf[pos++] = '0';
	}
	buf[pos] = '\0';
	return (size_t)pos;
}

void csv_cell(struct outbuf *ob, const char *s, size_t n)
{
	size_t i;

	/* skip the words with no comma, quote or control byte, then look closer */
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w;
		tl_memcpy(&w, s + i, 8);
		if (word_any_below(w, 14) | word_any_equal(w, ',') | word_any_equal(w, '"'))
			break;
	}
	for (; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			break;
	if (i == n) {
		outbuf_put(ob, s, n);
		return;
	}
	/* quoted, each inner quote doubled: the runs between quotes in one go */
	outbuf_putc(ob, '"');
	for (i = 0; i < n;) {
		const char *q = memchr(s + i, '"', n - i);
		size_t end = q ? (size_t)(q - s) + 1 : n;

		outbuf_put(ob, s + i, end - i);
		if (q)
			outbuf_putc(ob, '"');
		i = end;
	}
	outbuf_putc(ob, '"');
}

void csv_float(struct outbuf *ob, double x)
{
	char buf[PY_FLOAT_MAX];

	if (isnan(x))
		return;
	outbuf_put(ob, buf, py_float_repr(x, buf));
}
