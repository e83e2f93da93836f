#include <stdint.h>
#include <stdlib.h>

#include "num_parse.h"
#include "banned.h"

static const double pow10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* What may follow a number strtod would read further: leave those to it. */
static int continues(char c)
{
	return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == 'x' || c == 'X' ||
	       c == 'p' || c == 'P' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * The digits before the point, then those after it, each run in a loop
 * of its own: one loop with a flag for "after the point" and two counters
 * took three times the instructions a digit (timestamps have 16 or 17).
 * No bound is checked a digit: 19 digits cannot wrap m, and whether it
 * fits in 2^53 (every integer up to it is an exact double) is asked once
 * at the end (a check a digit was a fifth of the loop).
 */
double num_strtod(const char *s, char **end)
{
	const char *p = s, *run;
	uint64_t m = 0;
	int neg = *p == '-';
	size_t digits, frac = 0;
	unsigned d;
	double v;

	p += neg;
	for (run = p; (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
		m = m * 10 + d;
	digits = (size_t)(p - run);
	if (*p == '.') {
		for (run = ++p; (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
			m = m * 10 + d;
		frac = (size_t)(p - run);
		digits += frac;
	}
	if (!digits || digits > 19 || m > (UINT64_C(1) << 53) || frac > 22 || continues(*p))
		return strtod(s, end);
	v = frac ? (double)m / pow10[frac] : (double)m;
	if (end)
		*end = (char *)p;
	return neg ? -v : v;
}

const char *num_u64(const char *s, uint64_t *v)
{
	const char *p = s;
	uint64_t x = 0;
	unsigned d;

	/* the run's length asked once at its end: 19 digits cannot wrap x,
	 * and a longer run's wrapped value is not returned */
	for (; (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
		x = x * 10 + d;
	if (p == s || p - s > 19)
		return NULL;
	*v = x;
	return p;
}

uint64_t num_strtou64(const char *s)
{
	uint64_t v;
	const char *end = num_u64(s, &v);

	return end && !*end ? v : strtoull(s, NULL, 10);
}

int64_t num_strtoi64(const char *s)
{
	uint64_t v;
	const char *end = num_u64(s, &v);

	return end && !*end && v <= INT64_MAX ? (int64_t)v : strtoll(s, NULL, 10);
}
