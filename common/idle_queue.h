/*
 * idle_queue: HTA's queue length per stream (trace_counters.py
 * _get_queue_length_time_series_for_rank, get_queue_length_summary).
 *
 * +1 at each launch call (HTA's runtime launch names: cudaLaunchKernel,
 * cudaLaunchKernelExC, cuLaunchKernel[Ex], cudaMemcpyAsync,
 * cudaMemsetAsync, their hip* twins, MTIA's runFunction; with an
 * index_correlation > 0), on the stream of the GPU row(s) of its
 * correlation; -1 at the start of each GPU row whose correlation is a
 * launch call's.  All points are sorted by time with numpy's quicksort
 * (the order of ties decides the values, as in HTA) and summed per
 * stream.  HTA asserts that there are as many +1 as -1 points; where
 * there are not, the rank has no queue length (a warning says so).
 */
#ifndef TL_IDLE_QUEUE_H
#define TL_IDLE_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct idle_set;
struct idle_trace;
struct outbuf;

struct idle_qpoint {
	int64_t index;		/* the launch call's or the GPU row's uid */
	int64_t stream;
	int64_t qlen;		/* queue length after this point */
	double ts;
};

/*
 * The series, grouped by stream (ascending), in time order within each;
 * NULL (and a warning) where HTA's assertion fails; *n set.
 */
struct idle_qpoint *idle_queue_series(struct idle_set *set, const struct idle_trace *t,
				      size_t *n);
/* queue_length_summary.csv rows of one rank (describe() per stream). */
void idle_queue_summary_rows(struct outbuf *ob, long rank, const struct idle_qpoint *q, size_t n);

#endif
