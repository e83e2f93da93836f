/*
 * coll_sheets: the sheets of TraceLens's multi-rank collective report
 * (NcclAnalyser, spec tracelens-diff-collectives.md §3.2-3.5), each built
 * from the long table as the DataFrame NcclAnalyser builds, with its
 * columns, row order and pandas types.
 *
 *	coll_sheet_long(&t, &f)                nccl_long
 *	coll_sheet_implicit(&t, strict, &f)    nccl_implicit_sync (detailed)
 *	coll_sheet_implicit_summary(&f, agg, nagg, &s)   nccl_summary_implicit_sync
 *	coll_sheet_straggler(&t, &f, &s)       straggler_summary
 *	coll_sheet_summary_long(&t, &s)        nccl_summary_long, coll_analysis
 *	coll_sheet_a2av(&t, strict, &f)        nccl_all2allv (detailed)
 *	coll_sheet_a2av_summary(&f, agg, nagg, &s)   nccl_summary_all2allv
 *	coll_sheet_heatmap(&t, world, &s)      nccl_all2allv_heatmap
 *	coll_sheet_node_columns(&f, gpus_per_node)   node_id, node_span
 *
 * Each fills an initialised, empty coll_frame.  A frame left without
 * columns stands for TraceLens's empty DataFrame (or None: the sheet is
 * not written); the caller decides which, as generate_collective_report
 * does.  coll_sheet_implicit and coll_sheet_a2av return -1 when strict and
 * the ranks disagree on a collective's metadata (message printed, naming
 * the stream, the collective and the ranks); without strict they warn.
 */
#ifndef TL_COLL_SHEETS_H
#define TL_COLL_SHEETS_H

#include <stddef.h>

#include "coll_frame.h"
#include "coll_table.h"

void coll_sheet_long(const struct coll_table *t, struct coll_frame *out);
int coll_sheet_implicit(const struct coll_table *t, int strict, struct coll_frame *out);
void coll_sheet_implicit_summary(const struct coll_frame *detailed, const char *const *agg,
				 size_t nagg, struct coll_frame *out);
void coll_sheet_straggler(const struct coll_table *t, const struct coll_frame *detailed,
			  struct coll_frame *out);
void coll_sheet_summary_long(const struct coll_table *t, struct coll_frame *out);
int coll_sheet_a2av(const struct coll_table *t, int strict, struct coll_frame *out);
void coll_sheet_a2av_summary(const struct coll_frame *detailed, const char *const *agg,
			     size_t nagg, struct coll_frame *out);
void coll_sheet_heatmap(const struct coll_table *t, long world_size, struct coll_frame *out);
void coll_sheet_node_columns(struct coll_frame *f, long gpus_per_node);

#endif
