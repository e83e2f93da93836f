#include <stdlib.h>

#include "timeline_interval.h"
#include "sort.h"
#include "banned.h"

/*
 * Python sorts stably by start; ties in start need no tie-break here
 * because the fold below gives the same union whatever their order.
 */
static int by_start(const void *pa, const void *pb)
{
	const struct ival *a = pa, *b = pb;
	return (a->start > b->start) - (a->start < b->start);
}

size_t ival_merge(struct ival *v, size_t n)
{
	size_t out = 0;

	if (!n)
		return 0;
	tl_qsort(v, n, sizeof(*v), by_start);
	for (size_t i = 1; i < n; i++) {
		if (v[i].start <= v[out].end) {
			if (v[i].end > v[out].end)
				v[out].end = v[i].end;
		} else {
			v[++out] = v[i];
		}
	}
	return out + 1;
}

size_t ival_subtract(const struct ival *a, size_t na, const struct ival *b,
		     size_t nb, struct ival *out)
{
	size_t ai = 0, n = 0;

	for (size_t i = 0; i < nb; i++) {
		double bs = b[i].start, be = b[i].end, cur = bs;

		while (ai < na && a[ai].end <= bs)
			ai++;
		for (size_t t = ai; t < na && a[t].start < be; t++) {
			if (a[t].start > cur)
				out[n++] = (struct ival){ cur, be < a[t].start ? be : a[t].start };
			if (a[t].end > cur)
				cur = a[t].end;
			if (cur >= be)
				break;
		}
		if (cur < be)
			out[n++] = (struct ival){ cur, be };
	}
	return n;
}

double ival_sum(const struct ival *v, size_t n)
{
	double s = 0.0;

	for (size_t i = 0; i < n; i++)
		s += v[i].end - v[i].start;
	return s;
}
