/*
 * pd_agg: pandas 1.5's aggregations, bit for bit, where a sheet prints
 * their results (TraceLens's NcclAnalyser summaries).  NaN is a missing
 * value throughout.
 *
 *	groupby(...).agg("sum")     pd_group_sum     Kahan-compensated, NaN skipped (0 if none)
 *	groupby(...).agg("mean")    pd_group_mean    Kahan sum / count; NaN if none
 *	groupby(...).agg("std")     pd_group_std     sqrt of Welford's var, ddof 1
 *	groupby(...).agg("var")     pd_group_var
 *	groupby(...).agg("median")  pd_group_median  NaN skipped; x is reordered
 *	Series.sum()                pd_series_sum    numpy's pairwise sum with NaN as 0
 *	Series.mean()               pd_series_mean   that sum / the count of non-NaN
 *	sort_values(ascending=True) pd_argsort_asc   numpy quicksort of the non-NaN, NaN last
 *
 * The sums are those of pandas/_libs/groupby.pyx group_sum/group_mean
 * (y = v - c; t = s + y; c = t - s - y; s = t) and group_var (Welford),
 * and of nanops.nansum (values.sum() after filling NaN with 0).
 */
#ifndef TL_PD_AGG_H
#define TL_PD_AGG_H

#include <stddef.h>

double pd_group_sum(const double *x, size_t n);
double pd_group_mean(const double *x, size_t n);
double pd_group_var(const double *x, size_t n, int ddof);
double pd_group_std(const double *x, size_t n, int ddof);
double pd_group_median(double *x, size_t n);
double pd_group_min(const double *x, size_t n);
double pd_group_max(const double *x, size_t n);
double pd_series_sum(const double *x, size_t n);
double pd_series_mean(const double *x, size_t n);
void pd_argsort_asc(const double *v, size_t *idx, size_t n);

#endif
