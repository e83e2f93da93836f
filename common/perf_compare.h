/*
 * perf_compare: TraceLens's --comparison_json_path enrichment of
 * unified_perf_summary (Reporting/tracediff_comparison_extension.py): from
 * TraceDiff's diff_stats (tl-diff's diff_stats.csv), per summary row the
 * lowest common ancestors its GPU events fall under, their busy times in
 * both traces, the speedup and the delta.
 *
 *	struct perf_compare *pc = perf_compare_load("diff_stats.csv");  NULL: message printed
 *	int32_t row_of[nuid];    each GPU event uid's summary row, -1
 *	struct lca_meta *m = perf_compare_rows(pc, row_of, nuid, nrows);
 *	m[r].has ... m[r].ids, m[r].names, m[r].t1, m[r].t2, m[r].count2
 *	perf_compare_release_rows(m, nrows);
 *	perf_compare_free(pc);
 *
 * For each trace1 LCA group (by lowest_common_ancestor_id ascending): its
 * first busy_time, trace2's first busy_time for the same LCA (0.0 if
 * none), whether trace2 has GPU events there; every summary row one of the
 * group's GPU events maps to collects the LCA once (ids and names joined
 * with "; ", times summed, trace2 matches counted), as TraceLens does.
 */
#ifndef TL_PERF_COMPARE_H
#define TL_PERF_COMPARE_H

#include <stddef.h>
#include <stdint.h>

struct perf_compare;

struct lca_meta {
	int has;		/* 0: the row maps to no LCA (empty cells) */
	char *ids, *names;	/* "; "-joined */
	double t1, t2, count2;
};

struct perf_compare *perf_compare_load(const char *path);
void perf_compare_free(struct perf_compare *pc);
/* 1 if the diff_stats table has rows (TraceLens writes the sheet then) */
int perf_compare_has_rows(const struct perf_compare *pc);
struct lca_meta *perf_compare_rows(const struct perf_compare *pc, const int32_t *row_of,
				   size_t nuid, size_t nrows);
void perf_compare_release_rows(struct lca_meta *m, size_t nrows);

#endif
