/*
 * report_dir: a finished report folder, as tl-html reads it: which kind it
 * is (by its files) and its CSV sheets, each read once on first use.
 *
 *	struct report_dir *rd = report_dir_open("out/");     NULL: message printed
 *	const struct csv *c = report_dir_sheet(rd, "ops_summary");  NULL if absent
 *	double v = report_num(c, row, report_col(c, "Count"));     NaN if not a number
 *	report_dir_free(rd);
 *
 * Kinds: a job report (tl-ranks: ranks.csv, rank_K/, collectives/; or
 * TraceLens's multi-rank collective sheets: straggler_summary.csv,
 * nccl_implicit_sync.csv), a tl-diff folder (diff_stats.csv), or one
 * trace's report (tl-report, or
 * TraceLens's own CSVs: gpu_timeline.csv, ops_summary.csv or
 * kernel_summary.csv).  A sheet that is there but cannot be read is
 * reported on stderr and rd->bad set; the page is drawn without it.
 */
#ifndef TL_REPORT_DIR_H
#define TL_REPORT_DIR_H

#include <stddef.h>

#include "csv.h"

enum report_kind { REPORT_TRACE, REPORT_JOB, REPORT_DIFF };

struct report_sheet;

struct report_dir {
	char *path;
	enum report_kind kind;
	int bad;
	struct report_sheet *sheets;
	size_t nsheets, alloc;
};

struct report_dir *report_dir_open(const char *path);
void report_dir_free(struct report_dir *rd);
/* name: "ops_summary", or "collectives/nccl_long"; ".csv" is added. */
const struct csv *report_dir_sheet(struct report_dir *rd, const char *name);
/*
 * The sheet a row at a time, for one too big to hold (a tl-diff folder's
 * diff_stats.csv): NULL when absent, or unreadable (rd->bad set).  The
 * caller closes it, and sets rd->bad when a later row is bad.
 */
struct csv_rows *report_dir_rows(struct report_dir *rd, const char *name);
/* Does the folder hold name (a file or folder, relative)? */
int report_dir_has(const struct report_dir *rd, const char *name);
/* The folder's last path component, for titles. */
const char *report_dir_name(const struct report_dir *rd);

/* Column of that name, or -1 (also for c NULL). */
long report_col(const struct csv *c, const char *name);
/*
 * The cell as a number (Python float() of the text: "1e-05", "inf",
 * "nan", leading/trailing spaces), NaN when empty, not a number, col < 0
 * or c NULL.
 */
double report_num(const struct csv *c, size_t row, long col);
/* The same of n bytes of text. */
double report_num_text(const char *s, size_t n);
/* The cell's text and length; "" for col < 0. */
const char *report_str(const struct csv *c, size_t row, long col, size_t *len);

/*
 * report_info.csv's value for key (report_info.h), or NULL: the table is
 * read once.
 */
const char *report_info(struct report_dir *rd, const char *key, size_t *len);

#endif
