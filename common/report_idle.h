/*
 * report_idle: the columns of the "Why the GPU waits" table, which
 * report.md (report_md.c) and report.html (report_html.c) both draw from
 * tl-idle's idle/summary.csv, one row per rank.  One table, so that the
 * two pages cannot drift apart.
 *
 *	for (size_t k = 0; k < REPORT_IDLE_NCOLS; k++)
 *		report_idle_cols[k].col, .heading, .scale, .prec
 *
 * scale 0: the cell is shown as tl-idle wrote it (report.md) or as a
 * number with prec digits (report.html); otherwise the number times scale
 * (µs to ms: 1e-3) with prec digits.
 */
#ifndef TL_REPORT_IDLE_H
#define TL_REPORT_IDLE_H

#include <stddef.h>

struct report_idle_col {
	const char *col;     /* idle/summary.csv's column */
	const char *heading; /* what a person reads */
	double scale;
	int prec;
};

#define REPORT_IDLE_NCOLS 11
extern const struct report_idle_col report_idle_cols[REPORT_IDLE_NCOLS];

#endif
