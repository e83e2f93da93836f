/*
 * report_html: report.html of a report folder (report_dir.h): one page,
 * the facts and verdict first, then the pictures, each with a table that
 * sorts when its header is clicked.  A single trace's page has the GPU
 * timeline breakdown, the timeline strip per stream, GPU time by op
 * category, the top ops and kernels, the roofline plot and the short-kernel
 * histogram; a job's page (report_job.h) and a tl-diff folder's page
 * (report_diff.h) have their own.  What the folder lacks is left out with a
 * note saying so.
 *
 *	struct report_html_opts o = { .arch = NULL };
 *	rval = report_html_write(rd, ob, &o);     0, or 1 if a sheet could not be read
 */
#ifndef TL_REPORT_HTML_H
#define TL_REPORT_HTML_H

#include "outbuf.h"
#include "perf_arch.h"
#include "report_dir.h"

struct report_html_opts {
	/* roofs for the roofline plot when the folder has no report_info.csv
	 * peaks (TraceLens's CSVs), or to draw another GPU's; NULL: the folder's */
	const struct perf_arch *arch;
};

/* Rows of the bar charts and of the tables. */
#define REPORT_HTML_BARS 20
#define REPORT_HTML_ROWS 50
#define REPORT_HTML_STREAMS 48

int report_html_write(struct report_dir *rd, struct outbuf *ob, const struct report_html_opts *o);

/* Pieces the job and diff pages share. */
void report_html_title(struct outbuf *ob, const char *what, const char *s, size_t n);
/* Links to the sections: ids[i] titled titles[i]. */
void report_html_nav(struct outbuf *ob, const char *const *ids, const char *const *titles,
		     size_t n);
/* <p class="note">, the text escaped. */
void report_html_note(struct outbuf *ob, const char *s);
/* The footer: where the page comes from, where the exact values are. */
void report_html_footer(struct outbuf *ob);

#endif
