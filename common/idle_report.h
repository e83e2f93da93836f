/*
 * idle_report: the idle folder of tl-idle(1) for the traces of an
 * idle_set: HTA's CSV files with HTA's names, columns and row order, and
 * tl's summaries.
 *
 *	struct idle_opts o = IDLE_OPTS_INIT;
 *	idle_ranks_parse(&o, "0,3");                  or "all"; -1 if malformed
 *	rval = idle_report_write(&set, &o, "out/idle");     0, or 1 (message printed)
 *
 * Files (tl-idle(1) describes every column):
 *   temporal_breakdown.csv, comm_comp_overlap.csv, gpu_kernel_breakdown.csv,
 *   queue_length_summary.csv        every rank
 *   gpu_kernel_type_breakdown.csv   all ranks together
 *   idle_time_breakdown.csv, cuda_kernel_launch_stats.csv
 *                                   the selected ranks (HTA's default: rank 0;
 *                                   with one trace, its rank)
 *   launch_summary.csv, summary.csv every rank (tl)
 *   api_kernel_summary.csv          the first selected rank (tl, TraceLens's layout)
 */
#ifndef TL_IDLE_REPORT_H
#define TL_IDLE_REPORT_H

#include <stddef.h>

struct idle_set;

struct idle_opts {
	long *ranks;		/* selected ranks; NULL: the default */
	size_t nranks;
	int all_ranks;
	double kernel_delay;	/* consecutive_kernel_delay, µs */
	int verbose;
};

#define IDLE_OPTS_INIT { NULL, 0, 0, 30, 0 }

int idle_ranks_parse(struct idle_opts *o, const char *arg);
void idle_opts_release(struct idle_opts *o);
int idle_report_write(struct idle_set *set, const struct idle_opts *o, const char *dir);
/* mkdir -p; 0, or -1 with a message */
int idle_mkdirs(const char *dir);

#endif
