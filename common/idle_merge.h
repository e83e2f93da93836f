/*
 * idle_merge: a job's idle folder from its ranks' idle folders (tl-idle
 * --merge), what HTA writes for all ranks at once:
 *
 *   temporal_breakdown, comm_comp_overlap, launch_summary, summary
 *                          every rank's rows, by rank
 *   queue_length_summary   by rank, then stream
 *   gpu_kernel_breakdown   by kernel type, name, rank (pandas' sort)
 *   gpu_kernel_type_breakdown
 *                          the ranks' time per kernel type summed, sorted by
 *                          the sum, descending (numpy's quicksort: ties as
 *                          pandas orders them), percentages of the total
 *   idle_time_breakdown, cuda_kernel_launch_stats
 *                          the selected ranks only (HTA's default: rank 0;
 *                          without rank 0, the lowest)
 *
 * Each input is an idle folder or a report folder holding one (DIR/idle).
 * A rank found in two inputs is an error.
 *
 *	rval = idle_merge(dirs, ndirs, &opts, "out/idle");    0 or 1
 */
#ifndef TL_IDLE_MERGE_H
#define TL_IDLE_MERGE_H

#include <stddef.h>

struct idle_opts;

int idle_merge(char **dirs, size_t ndirs, const struct idle_opts *o, const char *out);

#endif
