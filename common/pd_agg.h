/*
 * pd_agg: pandas' groupby aggregations (the cython kernels of pandas 1.5,
 * _libs/groupby.pyx) and numpy's linear quantile, bit for bit, for the
 * tables tl writes the way HTA computes them.
 *
 *	s = pd_group_sum(x, n);         groupby().sum(): Kahan-compensated
 *	m = pd_group_mean(x, n);        groupby().mean(): Kahan sum / count
 *	d = pd_group_std(x, n);         groupby().std(): Welford, ddof 1
 *	q = np_quantile(sorted, n, q);  Series.quantile(q), method "linear"
 *
 * Values are taken in the order given (the rows of the group in frame
 * order).  pd_group_sum of nothing is 0, pd_group_mean NaN, pd_group_std
 * NaN for fewer than two values.  np_quantile wants the values sorted
 * ascending; NaN for n == 0.
 */
#ifndef TL_PD_AGG_H
#define TL_PD_AGG_H

#include <stddef.h>

double pd_group_sum(const double *x, size_t n);
double pd_group_mean(const double *x, size_t n);
double pd_group_std(const double *x, size_t n);
double np_quantile(const double *sorted, size_t n, double q);

#endif
