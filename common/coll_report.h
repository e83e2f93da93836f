/*
 * coll_report: the reduce step of the collective report.  From the
 * collectives streams of all ranks (coll_stream.h) it writes TraceLens's
 * multi-rank report (generate_multi_rank_collective_report_pytorch) into
 * a folder, sheet for sheet, and a single trace's coll_analysis sheet
 * (generate_perf_report_pytorch).
 *
 *	struct coll_report_opts o = COLL_REPORT_OPTS_INIT;
 *	rc = coll_report_write(ranks, n, "out/", &o);     0, or 1 (message printed)
 *	rc = coll_analysis_write(&rank, "report/");
 *
 * Sheets are built in memory first and written only when every check
 * passed, so a failed run leaves no half report; a dir of NULL builds
 * them and writes nothing.  Optional sheets a run
 * does not write (all-to-allv, heatmap, straggler) are removed from the
 * folder if an earlier run left them.
 */
#ifndef TL_COLL_REPORT_H
#define TL_COLL_REPORT_H

#include <stddef.h>

#include "coll_stream.h"

struct coll_report_opts {
	const char *const *agg;	/* --agg-metrics; NULL: mean median min max */
	size_t nagg;
	long gpus_per_node;	/* 0: len(deviceProperties) of rank 0's trace */
	int heatmap;		/* the nccl_all2allv_heatmap sheet */
	int strict;		/* metadata mismatch is an error (TraceLens's CLI) */
};

#define COLL_REPORT_OPTS_INIT { NULL, 0, 0, 0, 1 }

int coll_report_write(struct coll_rank *ranks, size_t n, const char *dir,
		      const struct coll_report_opts *o);
/*
 * DIR/coll_analysis.csv: nccl_summary_long of the one trace, written when
 * it has rows and the trace has host ops (TraceLens skips GPU-only
 * traces); an older coll_analysis.csv is removed otherwise.
 */
int coll_analysis_write(struct coll_rank *r, const char *dir);

#endif
