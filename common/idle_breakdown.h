/*
 * idle_breakdown: HTA's whole-GPU breakdowns of one rank, over the rows
 * with a stream (stream != -1: kernels, memcpy/memset, and whatever else
 * carries args.stream), computed as HTA does (breakdown_analysis.py,
 * communication_analysis.py):
 *
 * idle_breakdown_run() computes the first three:
 *
 *   temporal               get_temporal_breakdown: kernel time = end of the
 *                          last merged interval - start of the first; idle =
 *                          kernel time - merged busy time; compute = merged
 *                          busy time of COMPUTATION kernels; non-compute = the
 *                          rest
 *   overlap                get_comm_comp_overlap: time both merged
 *                          COMMUNICATION and merged COMPUTATION intervals run,
 *                          over the merged COMMUNICATION time
 *   states                 _get_gpu_kernel_type_time: the merged intervals of
 *                          COMPUTATION (1), COMMUNICATION (2) and MEMORY (4)
 *                          swept in pandas' (unstable) sort order; time per
 *                          running state, truncated to integers per segment
 *   idle_kernel_rows()     the per-kernel table of get_gpu_kernel_breakdown
 *
 * "Merged" is merge_kernel_intervals: rows sorted by ts (numpy quicksort),
 * a new interval where a start exceeds every end before it.
 */
#ifndef TL_IDLE_BREAKDOWN_H
#define TL_IDLE_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>

struct idle_set;
struct idle_trace;

struct idle_temporal {
	double idle, compute, non_compute, kernel_time;	/* µs */
	int empty;		/* no GPU rows: HTA fails; tl writes empty cells */
};

/* Running states of the kernel-type sweep: bits 1, 2, 4 as above. */
struct idle_state_time {
	int64_t state;
	int64_t sum;		/* µs, the sum of truncated segments */
};

/* The three whole-GPU breakdowns of one rank, computed together. */
struct idle_breakdown {
	struct idle_temporal temporal;
	double overlap;		/* the overlap ratio (0..1); NaN without communication */
	struct idle_state_time states[16];	/* ascending by state */
	size_t nstates;
};

void idle_breakdown_run(struct idle_set *set, const struct idle_trace *t, struct idle_breakdown *b);
/* HTA's name of a state: "COMPUTATION overlapping COMMUNICATION", ... */
void idle_state_name(int64_t state, char *buf, size_t size);

/* One row of gpu_kernel_breakdown.csv. */
struct idle_krow {
	uint32_t name;		/* strpool id; UINT32_MAX for "others" */
	int ktype;		/* IDLE_COMPUTE, IDLE_COMM, IDLE_MEMORY */
	long rank;
	double sum, max, min, std, mean;
};
/*
 * Appends the rank's rows (HTA's aggregation: names past the 80 % cumulative
 * quantile or the 10th become "others") to *rows.  Unlike HTA, max, min,
 * mean and stddev are those of the row's kernels' durations: HTA
 * re-aggregates its table of per-kernel sums when it groups "others", so
 * its max/min/mean of a named kernel are that kernel's sum.
 */
void idle_kernel_rows(struct idle_set *set, const struct idle_trace *t, struct idle_krow **rows,
		      size_t *n, size_t *alloc);

/* Pandas' order of the per-kernel table: kernel type, name, rank. */
void idle_kernel_rows_sort(struct idle_set *set, struct idle_krow *rows, size_t n);

#endif
