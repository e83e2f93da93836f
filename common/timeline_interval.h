/*
 * interval: the interval algebra of TraceLens's GPUEventAnalyser, step for
 * step, so that sums come out bit for bit as TraceLens computes them.
 *
 * An interval is [start, end) in µs as doubles; end is ts + dur computed
 * once (never start + dur later), and a length is always end - start.
 *
 *	n = ival_merge(v, n);                     sorts v, unions it in place
 *	m = ival_subtract(a, na, b, nb, out);     out = b \ a, out holds na + nb
 *	us = ival_sum(out, m);                    Python's sum() of the lengths
 *
 * ival_merge() is merge_intervals(): sort by start, then fold, where an
 * interval that starts at or before the last end (touching included)
 * extends it.  ival_subtract() is subtract_intervalsA_from_B(): both lists
 * sorted and disjoint (as ival_merge() leaves them); the result is sorted
 * and disjoint and never has more than na + nb intervals.  ival_sum() adds
 * the lengths left to right from 0, as Python's sum() over a generator.
 */
#ifndef TL_TIMELINE_INTERVAL_H
#define TL_TIMELINE_INTERVAL_H

#include <stddef.h>

struct ival {
	double start, end;
};

size_t ival_merge(struct ival *v, size_t n);
size_t ival_subtract(const struct ival *a, size_t na, const struct ival *b,
		     size_t nb, struct ival *out);
double ival_sum(const struct ival *v, size_t n);

#endif
