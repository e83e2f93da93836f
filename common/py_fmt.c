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
 * The fast path of shortest_digits(), exact: x = M / 2^F (M the 53-bit
 * significand, 0 <= F <= 120) is a fraction whose numerator times 10^k
 * fits 128 bits for k <= 21.  For k = 0, 1, ... take m, x * 10^k rounded
 * to the nearest integer (ties to even, as printf rounds), and ask
 * whether m / 10^k reads back as x: whether it lies within half an ulp
 * of x (a quarter below a power of two, where the neighbour below is
 * half as far), the ends included when M is even (strtod rounds a tie
 * to the even significand).  m at the first k that does is x correctly
 * rounded to that many decimals, which is what the search below finds
 * among significant digits: the same digits, in a few integer steps
 * where that search prints and reads back a decimal two or three times
 * (two thirds of tl-timeline's time on a rank's strip were those).
 * Returns 0 when x is not for this path.
 */
#ifdef __SIZEOF_INT128__
/*
 * The first k worth trying: with z = M's trailing zero bits, x * 10^k is
 * (M / 2^z) * 5^k / 2^(f - z - k), an odd numerator, so below k = f - z
 * it is at least 2^-(f - z - k) from any integer, while the half ulp it
 * may be off is 10^k / 2^(f + 1): below that k an integer can be in
 * reach only once 5^k >= 2^(z + 1).  A duration of a few binary
 * fractions (0.800048828125) starts at its twelfth decimal, not at none.
 */
static int first_k(uint64_t m53, int f)
{
	int z = __builtin_ctzll(m53), k = 0;
	uint64_t p5 = 1;
	int exact = f - z > 0 ? f - z : 0;

	/* 5^k >= 2^(z + 1), z <= 52: k <= 23 (5^23 < 2^64) */
	while (k < exact && p5 < (UINT64_C(1) << (z + 1)))
		p5 *= 5, k++;
	return k;
}

static int shortest_digits_fast(double x, char *d, int *exp10)
{
	typedef unsigned __int128 u128;
	uint64_t bits, m53;
	int e2, f, k, len, n;
	u128 p10 = 1, mask, half;
	char tmp[24];

	tl_memcpy(&bits, &x, sizeof(bits));
	e2 = (int)((bits >> 52) & 0x7ff);
	if (e2 == 0 || e2 == 0x7ff)
		return 0;		/* subnormal, inf, nan: the search */
	m53 = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
	f = 1075 - e2;			/* x = m53 / 2^f */
	if (f < 0 || f > 120)
		return 0;
	k = first_k(m53, f);
	for (int i = 0; i < k; i++)
		p10 *= 10;
	mask = ((u128)1 << f) - 1;
	half = (u128)1 << f >> 1;	/* 0 when x is an integer: r is 0 then */
	for (; k <= 21; k++, p10 *= 10) {
		u128 num = (u128)m53 * p10, q = num >> f, r = num & mask;
		u128 lhs, gap;
		int up, inside;

		if (r > half || (r == half && f > 0 && (q & 1)))
			q++;
		if (q == 0)
			continue;
		/* |q / 10^k - x| against half the gap: times 10^k * 2^(f+1) */
		lhs = q << (f + 1);
		up = lhs >= 2 * num;
		gap = up ? lhs - 2 * num : 2 * num - lhs;
		if (!up && m53 == UINT64_C(1) << 52 && e2 > 1)
			gap *= 2;	/* the neighbour below is half as far */
		inside = gap < p10 || (gap == p10 && !(m53 & 1));
		if (!inside)
			continue;
		len = 0;
		for (uint64_t v = (uint64_t)q; v; v /= 10)
			tmp[len++] = (char)('0' + v % 10);
		for (n = 0; n < len; n++)
			d[n] = tmp[len - 1 - n];
		while (n > 1 && d[n - 1] == '0')
			n--;
		d[n] = '\0';
		*exp10 = len - 1 - k;
		return n;
	}
	return 0;
}
#else
static int shortest_digits_fast(double x, char *d, int *exp10)
{
	(void)x, (void)d, (void)exp10;
	return 0;
}
#endif

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
