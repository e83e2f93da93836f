/*
 * idle_wait: HTA's idle time breakdown of one rank (get_idle_time_breakdown,
 * _analyze_idle_time_for_stream), per stream.
 *
 * The rows are the kernels, memcpys and memsets with a stream (cat kernel,
 * Kernel, gpu_memcpy, Memcpy, gpu_memset, Memset, mtia_ccp_events), each
 * joined with the start of its launching runtime call (index_correlation).
 * Per stream, in order of first appearance, the rows are sorted by start
 * (numpy's quicksort: ties in its order) and the gap before each row is
 * its start minus the previous row's end:
 *
 *   host_wait    the launch call started after the previous row ended
 *   kernel_wait  otherwise, a gap shorter than the threshold (HTA's
 *                consecutive_kernel_delay, 30; µs, as the timestamps are,
 *                although HTA's docstring says nanoseconds)
 *   other        the rest, including the stream's first row (no gap)
 *
 * Each category present gets the sum of its gaps (negative gaps, from
 * overlapping rows, included) and its ratio of the stream's total.
 */
#ifndef TL_IDLE_WAIT_H
#define TL_IDLE_WAIT_H

#include <stddef.h>
#include <stdint.h>

struct idle_set;
struct idle_trace;

enum { IDLE_HOST_WAIT = 0, IDLE_KERNEL_WAIT = 1, IDLE_OTHER_WAIT = 2 };

struct idle_wait_row {
	int64_t stream;
	int category;		/* IDLE_HOST_WAIT, ... */
	double time;		/* µs, the sum of the category's gaps */
	double ratio;		/* time / the stream's total */
	size_t count;		/* gaps in the category */
};

/* Category name as HTA writes it: "host_wait", "kernel_wait", "other". */
const char *idle_wait_name(int category);
/* The rank's rows, in HTA's order; *n set, array to free. */
struct idle_wait_row *idle_wait_breakdown(struct idle_set *set, const struct idle_trace *t,
					  double threshold, size_t *n);

#endif
