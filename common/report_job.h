/*
 * report_job: the pages of a job report folder (tl-ranks -o OUT; layout in
 * tl-html(1)): OUT/ranks.csv (one row per rank: the GPU timeline in µs,
 * wait time, times arrived last, straggler), OUT/collectives/ (the
 * multi-rank collective sheets, TraceLens's names) and OUT/rank_K/ (each
 * rank's report folder).
 *
 * report.html: the per-rank breakdowns side by side, wait time and
 * arrivals per rank, the skew of the slowest collectives, the ranks table
 * with links to each rank's own page.  report.md: the same as tables.
 */
#ifndef TL_REPORT_JOB_H
#define TL_REPORT_JOB_H

#include "outbuf.h"
#include "report_dir.h"

/* Collectives drawn in the skew chart and listed in report.md. */
#define REPORT_JOB_COLLECTIVES 20

void report_html_job(struct report_dir *rd, struct outbuf *ob);
int report_md_job(struct report_dir *rd, struct outbuf *ob);

#endif
