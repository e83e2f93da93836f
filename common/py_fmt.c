#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
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

static int shortest_digits(double x, char *d, int *exp10)
{
	char tmp[40];
	int n = 0;

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

	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			break;
	if (i == n) {
		outbuf_put(ob, s, n);
		return;
	}
	outbuf_putc(ob, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			outbuf_putc(ob, '"');
		outbuf_putc(ob, s[i]);
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
