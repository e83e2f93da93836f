/*
 * py_float_repr() against Python's own repr(): reads "HEX<TAB>REPR" lines
 * (tests/t1235-common-pyfloat.tsv, made by its .gen.py with Python 3) and
 * checks every double, the microsecond values tl's CSVs are made of, any
 * bit pattern, powers of two and their neighbours, and the edges of the
 * fixed/scientific switch.  One TAP line per input line that differs, and
 * one for the whole file.
 *
 * test-pyfloat --random N: N doubles of each of seven kinds (any bits,
 * decimals, dyadic fractions of 53 and of 20 bits (a duration of a few
 * binary fractions), powers of two and ten and their neighbours,
 * microsecond timestamps, integers to 2^54) against the definition: the
 * fewest significant digits (1..17) whose correctly rounded decimal
 * ("%.*e") reads back as the double, found by printing and reading back;
 * py_float_repr's digits and decimal exponent must be those.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
#include "tap.h"

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd64(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* The definition: digits (no dot, trailing zeros dropped) and exponent. */
static void defined_digits(double x, char *d, int *exp10)
{
	char tmp[40];
	int p, n = 0;

	for (p = 1; p < 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, x);
		if (strtod(tmp, NULL) == x)
			break;
	}
	snprintf(tmp, sizeof(tmp), "%.*e", p - 1, x);
	for (char *c = tmp; *c && *c != 'e'; c++)
		if (*c >= '0' && *c <= '9')
			d[n++] = *c;
	while (n > 1 && d[n - 1] == '0')
		n--;
	d[n] = '\0';
	*exp10 = atoi(strchr(tmp, 'e') + 1);
}

/* The digits and exponent of a repr() ("123.25", "1.5e-07", "-0.001"). */
static void repr_digits(const char *r, char *d, int *exp10)
{
	int n = 0, point = -1, lead = -1, i = 0;
	const char *e = strchr(r, 'e');

	if (*r == '-')
		r++;
	for (const char *c = r; *c && c != e; c++) {
		if (*c == '.') {
			point = i;
			continue;
		}
		if (lead >= 0 || *c != '0') {
			if (lead < 0)
				lead = i;
			d[n++] = *c;
		}
		i++;
	}
	if (point < 0)
		point = i;
	while (n > 1 && d[n - 1] == '0')
		n--;
	d[n] = '\0';
	*exp10 = (e ? atoi(e + 1) : 0) + point - lead - 1;
}

static int check_random(long n)
{
	char buf[PY_FLOAT_MAX], want[40], got[40], what[160];
	long bad = 0, seen = 0;

	for (long i = 0; i < n; i++) {
		double v[10];
		uint64_t r = rnd64();
		int k = 0;

		memcpy(&v[k++], &r, sizeof(r));
		v[k++] = (double)(rnd64() % 100000000000000ULL) / pow(10, (double)(rnd64() % 12));
		v[k++] = ldexp((double)(rnd64() >> 11), -(int)(rnd64() % 130));
		v[k++] = ldexp((double)(rnd64() % (1 << 20)), -(int)(rnd64() % 60));
		v[k] = ldexp(1.0, (int)(rnd64() % 200) - 100);
		v[k + 1] = nextafter(v[k], 0), v[k + 2] = nextafter(v[k], 1e300), k += 3;
		v[k++] = pow(10, (double)(rnd64() % 40) - 20);
		v[k++] = (double)(rnd64() % 2000000000000000ULL) / 1000.0 + (double)(rnd64() % 1000) / 1024.0;
		v[k++] = (double)(rnd64() % (UINT64_C(1) << 54));
		for (int j = 0; j < k; j++) {
			int we, ge;
			if (isnan(v[j]) || isinf(v[j]) || v[j] == 0)
				continue;
			seen++;
			defined_digits(v[j], want, &we);
			py_float_repr(v[j], buf);
			repr_digits(buf, got, &ge);
			if ((strcmp(want, got) || we != ge) && bad++ < 20) {
				snprintf(what, sizeof(what), "repr(%a) digits %s e%d", v[j], want, we);
				tap_str(buf, want, what);
			}
		}
	}
	snprintf(what, sizeof(what), "%ld of %ld random doubles with the defined digits", seen - bad, seen);
	tap_ok(seen > 9 * n && bad == 0, what);
	return tap_done();
}

int main(int argc, char **argv)
{
	char line[256], buf[PY_FLOAT_MAX], what[300];
	FILE *f;
	int n = 0, bad = 0;

	if (argc == 3 && !strcmp(argv[1], "--random"))
		return check_random(atol(argv[2]));
	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: test-pyfloat FILE.tsv | --random N\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *nl;

		if (!tab)
			continue;
		*tab++ = '\0';
		if ((nl = strchr(tab, '\n')))
			*nl = '\0';
		py_float_repr(strtod(line, NULL), buf);
		n++;
		if (strcmp(buf, tab)) {
			bad++;
			snprintf(what, sizeof(what), "repr(%s)", line);
			tap_str(buf, tab, what);
		}
	}
	fclose(f);
	snprintf(what, sizeof(what), "%d of %d doubles written as Python's repr", n - bad, n);
	tap_ok(n > 6000 && bad == 0, what);
	return tap_done();
}
