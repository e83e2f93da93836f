/*
 * np_stat: statistics that equal numpy's and pandas' bit for bit where
 * TraceLens prints them inside object cells (kernel-detail dicts), and the
 * interval arithmetic of TraceLens's GPUEventAnalyser.
 *
 *	double s = np_sum(x, n);        np.sum: pairwise summation
 *	double m = np_mean(x, n);       np.mean = np_sum / n
 *	double d = np_std(x, n);        np.std (ddof=0)
 *	double md = np_median(x, n);    np.median (x is reordered)
 *	double r = np_round(x, 2);      np.round(x, 2) = rint(x*100)/100
 *	double v = pd_std(x, n);        pandas Series.std (ddof=1), NaN if n < 2
 *	double q = np_quantile(v, n, q); Series.quantile(q), "linear"; v sorted
 *	int64_t i = np_int64(x);       x.astype(np.int64), as on x86-64
 *	int64_t c = np_add_int64(a, b); a + b of int64 columns (wraps round)
 *
 * np_sum follows numpy's pairwise_sum (loops_utils.h.src): n < 8 a plain
 * left-to-right sum; 8 <= n <= 128 eight strided partial sums combined as
 * ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) then the rest added in order; larger
 * n split at n/2 rounded down to a multiple of 8.  Past 8192 values numpy's
 * reduction feeds blocks of 8192 (its buffer size), each block summed
 * pairwise and added to a running total.  An empty input gives 0;
 * np_mean/np_std/np_median of nothing give NaN.
 *
 * Intervals [start, end) (doubles, end = ts + dur computed once):
 * np_busy_time() is TraceLens's busy time: sort by start (stable), merge
 * touching or overlapping intervals, sum (end - start) left to right.
 * The array is reordered.
 */
#ifndef TL_NP_STAT_H
#define TL_NP_STAT_H

#include <stddef.h>
#include <stdint.h>

struct timeline_interval {
	double start, end;
};

double np_sum(const double *x, size_t n);
double np_mean(const double *x, size_t n);
double np_std(const double *x, size_t n);
double np_median(double *x, size_t n);
double np_round(double x, int decimals);
/*
 * A float64 made int64 as numpy does it on x86-64 (astype(int)): the
 * value truncated toward zero; NaN, the infinities and anything out of
 * int64's range give INT64_MIN, the CPU's answer.  C's cast is undefined
 * there.
 */
int64_t np_int64(double x);
/* a + b and a - b of numpy int64 values: wrapping round on overflow, where
 * C's signed overflow is undefined (only a bad trace gets there) */
int64_t np_add_int64(int64_t a, int64_t b);
int64_t np_sub_int64(int64_t a, int64_t b);
double pd_std(const double *x, size_t n);
/* pandas' groupby sum and mean: Kahan-compensated left to right (group_sum,
 * group_mean); mean of nothing NaN */
double pd_gsum(const double *x, size_t n);
double pd_mean(const double *x, size_t n);
/* pandas' groupby std (group_var, Welford, ddof 1): NaN if n < 2 */
double pd_gstd(const double *x, size_t n);
/* Python's builtin round(x, ndigits) on a float (not numpy's) */
double py_round(double x, int ndigits);
/* pandas' median: like np_median (NaN for n == 0) */
double pd_median(double *x, size_t n);
double np_min(const double *x, size_t n);
double np_max(const double *x, size_t n);
double np_busy_time(struct timeline_interval *iv, size_t n);
/*
 * numpy's classic introsort argsort (np.argsort(kind="quicksort") without
 * SIMD): idx gets 0..n-1 ordered by v ascending, ties in numpy's
 * (unstable) order.  pd_argsort_desc is pandas' nargsort(ascending=False)
 * on top of it — what DataFrame.sort_values(col, ascending=False) uses, so
 * rows with equal values come out in pandas' order.  NaN sorts last.
 */
void np_argsort_quick(const double *v, size_t *idx, size_t n);
void pd_argsort_desc(const double *v, size_t *idx, size_t n);
/* qsort comparator for doubles, ascending */
int np_cmp_double(const void *a, const void *b);
/* pandas groupby aggregates: pd_agg.h */
/*
 * np.histogram(x, bins) with equal-width bins: edge[0..bins] (linspace of
 * min..max, widened by 0.5 each way when they are equal) and count[0..bins),
 * numpy's index corrections included.  n must be > 0; x is not changed.
 */
void np_histogram(const double *x, size_t n, size_t bins, double *edge, size_t *count);

double np_quantile(const double *sorted, size_t n, double q);

#endif
