/*
 * report_diff: the pages of a tl-diff folder (diff_stats.csv, TraceDiff's
 * rows: one per GPU kernel under a point of difference, per side): the ops
 * (cpu_op_name) whose GPU kernel time changed most between the two
 * traces, both sides drawn on one scale.
 */
#ifndef TL_REPORT_DIFF_H
#define TL_REPORT_DIFF_H

#include "outbuf.h"
#include "report_dir.h"

#define REPORT_DIFF_BARS 20

void report_html_diff(struct report_dir *rd, struct outbuf *ob);
int report_md_diff(struct report_dir *rd, struct outbuf *ob);

#endif
