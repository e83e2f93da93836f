#include <math.h>
#include <stdlib.h>

#include "np_stat.h"
#include "pd_agg.h"
#include "xalloc.h"
#include "banned.h"

double pd_group_sum(const double *x, size_t n)
{
	double s = 0, c = 0, y, t;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != x[i])
			continue;
		y = x[i] - c;
		t = s + y;
		c = t - s - y;
		s = t;
	}
	return s;
}

double pd_group_mean(const double *x, size_t n)
{
	double s = 0, c = 0, y, t;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != x[i])
			continue;
		k++;
		y = x[i] - c;
		t = s + y;
		c = t - s - y;
		s = t;
	}
	return k ? s / (double)k : NAN;
}

double pd_group_var(const double *x, size_t n, int ddof)
{
	double mean = 0, out = 0, old;
	long k = 0;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != x[i])
			continue;
		k++;
		old = mean;
		mean += (x[i] - old) / (double)k;
		out += (x[i] - mean) * (x[i] - old);
	}
	return k <= ddof ? NAN : out / (double)(k - ddof);
}

double pd_group_std(const double *x, size_t n, int ddof)
{
	return sqrt(pd_group_var(x, n, ddof));
}

/* Moves the non-NaN values to the front; returns how many there are. */
static size_t compact(double *x, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i])
			x[k++] = x[i];
	return k;
}

double pd_group_median(double *x, size_t n)
{
	return np_median(x, compact(x, n));
}

double pd_group_min(const double *x, size_t n)
{
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i] && !(m <= x[i]))
			m = x[i];
	return m;
}

double pd_group_max(const double *x, size_t n)
{
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i] && !(m >= x[i]))
			m = x[i];
	return m;
}

double pd_series_sum(const double *x, size_t n)
{
	double *y = xmalloc(st_mult(n ? n : 1, sizeof(*y))), s;

	for (size_t i = 0; i < n; i++)
		y[i] = x[i] == x[i] ? x[i] : 0.0;
	s = np_sum(y, n);
	free(y);
	return s;
}

double pd_series_mean(const double *x, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += x[i] == x[i];
	return k ? pd_series_sum(x, n) / (double)k : NAN;
}

void pd_argsort_asc(const double *v, size_t *idx, size_t n)
{
	double *w = xmalloc(st_mult(n ? n : 1, sizeof(*w)));
	size_t *map = xmalloc(st_mult(n ? n : 1, sizeof(*map)));
	size_t *o = xmalloc(st_mult(n ? n : 1, sizeof(*o)));
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] == v[i]) {
			map[m] = i;
			w[m++] = v[i];
		}
	np_argsort_quick(w, o, m);
	for (size_t i = 0; i < m; i++)
		idx[k++] = map[o[i]];
	for (size_t i = 0; i < n; i++)
		if (v[i] != v[i])
			idx[k++] = i;
	free(w);
	free(map);
	free(o);
}
