/*
 * diff_report: the reports TraceLens's TraceDiff.generate_tracediff_report()
 * builds from a merged tree (diff_merge.h), written the way
 * print_tracediff_report_files() writes them.
 *
 *	struct diff_report *td = diff_report_new(tm);         rows, groups, maps
 *	if (diff_report_write_stats(td, "out", 0) > 0)  tree, diff_stats.csv
 *		diff_report_write_rest(td, "out");      the other four files
 *	diff_report_write_summary(td, ob, 10);          the short table (--summary)
 *	diff_report_free(td);
 *
 * diff_stats rows: for every "combined" merged node on both GPU paths
 * whose trace-only children launch GPU work (or that is a matched kernel
 * pair) - the lowest common ancestor (LCA) - one row per GPU event below
 * those children, per side; for trace-only subtrees not under such a node,
 * one row per GPU event with the parent combined node as LCA.
 * busy_time is the union length of the side's GPU intervals under the LCA
 * rounded as numpy rounds to 3 decimals.
 */
#ifndef TL_DIFF_REPORT_H
#define TL_DIFF_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"
#include "diff_merge.h"

struct diff_report_row {
	uint32_t gpu, cpu;		/* uids in the row's side */
	uint32_t lca_name;		/* strpool id, NT_NONE for None */
	uint32_t lca;			/* merged id, NT_NONE for None */
	double busy, busy_raw;
	uint8_t side;			/* 0 = trace1, 1 = trace2 */
};

struct diff_report_group;

struct diff_report {
	struct diff_merge *tm;
	struct diff_report_row *rows;
	size_t nrows, alloc;
	int identical;			/* TraceDiff's identical_traces */
	int kt_int;			/* every kernel_time is an integer */
	int lca_none;			/* some lca id is None: ids print as floats */
	size_t no_cpu_op;		/* GPU events left out: no cpu_op above them */
	struct diff_report_group *g;
	size_t ng;
	uint32_t *rename;		/* per group: renamed cpu_op_name id */
	void *cache;			/* internal string caches */
};

struct diff_report *diff_report_new(struct diff_merge *tm);
void diff_report_free(struct diff_report *td);
/*
 * The six files in two steps, so that a page can be drawn from
 * diff_stats.csv while the rest is written: merged_tree_output.txt and
 * diff_stats.csv first (1; 0 when there are no GPU events under the trees
 * and the other five are not written, with a warning; -1 when dir cannot
 * be made), then, after a 1, the summary CSV and the three JSON maps.  The
 * summary CSV is written by a thread started in the first step and joined
 * in the second (or by diff_report_free).
 */
int diff_report_write_stats(struct diff_report *td, const char *dir, int prune_non_gpu);
void diff_report_write_rest(struct diff_report *td, const char *dir);
void diff_report_write_stats_csv(struct diff_report *td, struct outbuf *ob);
void diff_report_write_summary_csv(struct diff_report *td, struct outbuf *ob);
void diff_report_write_map_side(struct diff_report *td, struct outbuf *ob, int side);
void diff_report_write_map(struct diff_report *td, struct outbuf *ob);
void diff_report_write_summary(struct diff_report *td, struct outbuf *ob, int top);

#endif
