/*
 * py_stat: Python's own statistics on integers, exactly as CPython 3.11
 * computes them (TraceLens's pftrace HIP API summary uses them on
 * nanoseconds).
 *
 *	double m = py_mean_int(x, n);     sum(x) / n       (int true division)
 *	double s = py_pstdev_int(x, n);   statistics.pstdev(x): exact fractions,
 *	                                  then the correctly rounded square root
 *	double m = py_mid_int(a, b);      (a + b) / 2, statistics.median's middle
 *	                                  of an even count: no int64 overflow
 *
 * Both need n > 0.  Sums beyond 128 bits are not expected (nanosecond
 * durations); they fall back to long double arithmetic.
 */
#ifndef TL_PY_STAT_H
#define TL_PY_STAT_H

#include <stddef.h>
#include <stdint.h>

double py_mean_int(const int64_t *x, size_t n);
double py_pstdev_int(const int64_t *x, size_t n);
double py_mid_int(int64_t a, int64_t b);

#endif
