#include <math.h>
#include <stdlib.h>

#include "npstat.h"
#include "xalloc.h"
#include "banned.h"

static double pairwise(const double *a, size_t n)
{
	double r[8], res;
	size_t i, j;

	if (n < 8) {
		res = 0.;
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - (n % 8); i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

double np_sum(const double *x, size_t n)
{
	/* numpy starts the reduction from the identity 0.0 */
	return 0.0 + pairwise(x, n);
}

double np_mean(const double *x, size_t n)
{
	return n ? np_sum(x, n) / (double)n : NAN;
}

static double sum_sq_dev(const double *x, size_t n, double mean)
{
	double *d = xmalloc(st_mult(n, sizeof(*d))), s;

	for (size_t i = 0; i < n; i++)
		d[i] = (x[i] - mean) * (x[i] - mean);
	s = np_sum(d, n);
	free(d);
	return s;
}

double np_std(const double *x, size_t n)
{
	if (!n)
		return NAN;
	return sqrt(sum_sq_dev(x, n, np_mean(x, n)) / (double)n);
}

int np_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double np_median(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), np_cmp_double);
	if (n % 2)
		return x[n / 2];
	/* numpy takes the mean of the two middle values: (0 + a + b) / 2 */
	return (0.0 + x[n / 2 - 1] + x[n / 2]) / 2.0;
}

double np_round(double x, int decimals)
{
	double f = pow(10.0, decimals);
	return rint(x * f) / f;
}

double pd_mean(const double *x, size_t n)
{
	return np_mean(x, n);
}

double pd_std(const double *x, size_t n)
{
	if (n < 2)
		return NAN;
	return sqrt(sum_sq_dev(x, n, np_mean(x, n)) / (double)(n - 1));
}

double pd_median(double *x, size_t n)
{
	return np_median(x, n);
}

double np_min(const double *x, size_t n)
{
	double m = n ? x[0] : NAN;
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double np_max(const double *x, size_t n)
{
	double m = n ? x[0] : NAN;
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

struct ivpos {
	double start, end;
	size_t pos;
};

static int cmp_ivpos(const void *a, const void *b)
{
	const struct ivpos *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Stable by start: equal starts keep their input order (Python's sort). */
static void sort_intervals(struct interval *iv, size_t n)
{
	struct ivpos *t;
	size_t i;

	for (i = 1; i < n; i++)
		if (iv[i].start < iv[i - 1].start)
			break;
	if (i >= n)
		return;
	t = xmalloc(st_mult(n, sizeof(*t)));
	for (i = 0; i < n; i++) {
		t[i].start = iv[i].start;
		t[i].end = iv[i].end;
		t[i].pos = i;
	}
	qsort(t, n, sizeof(*t), cmp_ivpos);
	for (i = 0; i < n; i++) {
		iv[i].start = t[i].start;
		iv[i].end = t[i].end;
	}
	free(t);
}

double np_busy_time(struct interval *iv, size_t n)
{
	double sum = 0, s, e;
	size_t i;

	if (!n)
		return 0;
	sort_intervals(iv, n);
	s = iv[0].start;
	e = iv[0].end;
	for (i = 1; i < n; i++) {
		if (iv[i].start <= e) {
			if (iv[i].end > e)
				e = iv[i].end;
			continue;
		}
		sum += e - s;
		s = iv[i].start;
		e = iv[i].end;
	}
	return sum + (e - s);
}
