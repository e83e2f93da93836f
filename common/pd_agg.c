#include <math.h>

#include "pd_agg.h"
#include "banned.h"

/* group_add / group_mean: y = val - c; t = sum + y; c = (t - sum) - y. */
static double kahan(const double *x, size_t n)
{
	double sum = 0, comp = 0, y, t;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != x[i])
			continue;	/* NaN is skipped */
		y = x[i] - comp;
		t = sum + y;
		comp = t - sum - y;
		sum = t;
	}
	return sum;
}

static size_t count(const double *x, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += x[i] == x[i];
	return c;
}

double pd_group_sum(const double *x, size_t n)
{
	return kahan(x, n);
}

double pd_group_mean(const double *x, size_t n)
{
	size_t c = count(x, n);
	return c ? kahan(x, n) / (double)c : NAN;
}

/* group_var: Welford's update, then / (count - ddof); std = sqrt. */
double pd_group_std(const double *x, size_t n)
{
	double mean = 0, m2 = 0, old;
	size_t c = 0;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != x[i])
			continue;
		c++;
		old = mean;
		mean += (x[i] - old) / (double)c;
		m2 += (x[i] - mean) * (x[i] - old);
	}
	if (c <= 1)
		return NAN;
	return sqrt(m2 / (double)(c - 1));
}

/*
 * numpy 1.24 _quantile, "linear": virtual index (n - 1) * q; gamma its
 * distance from the floor (after clipping to the last index); _lerp
 * computes a + (b - a) * g, or b - (b - a) * (1 - g) when g >= 0.5.
 */
double np_quantile(const double *v, size_t n, double q)
{
	double virt, prev, gamma, a, b, diff;
	size_t lo, hi;

	if (!n)
		return NAN;
	virt = (double)(n - 1) * q;
	if (virt >= (double)(n - 1)) {
		lo = hi = n - 1;
		prev = -1;	/* numpy's index -1: gamma = virt + 1 */
	} else if (virt < 0) {
		lo = hi = 0;
		prev = 0;
	} else {
		prev = floor(virt);
		lo = (size_t)prev;
		hi = lo + 1;
	}
	gamma = virt - prev;
	a = v[lo];
	b = v[hi];
	diff = b - a;
	if (gamma >= 0.5)
		return b - diff * (1 - gamma);
	return a + diff * gamma;
}
