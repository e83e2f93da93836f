/*
 * report_facts: what a person needs first about one trace's report, from
 * its sheets: the GPU(s) and roofline table (report_info.csv), the span and
 * event count, the GPU timeline breakdown, the largest op category and how
 * close it runs to its roofline, the share of short kernels - and the
 * one-paragraph verdict report.md and report.html open with.
 *
 *	struct report_facts f;
 *	report_facts_get(&f, rd);
 *	char *v = report_verdict(&f);         plain text; escape it to show it
 *	free(v);
 *
 * Times are µs; a fact the folder does not hold is NaN (numbers) or NULL
 * (text).  Text points into the folder's sheets.
 */
#ifndef TL_REPORT_FACTS_H
#define TL_REPORT_FACTS_H

#include <stddef.h>

#include "outbuf.h"
#include "report_dir.h"

struct report_text {
	const char *s;		/* NULL: absent */
	size_t n;
};

struct report_facts {
	/* report_info.csv */
	struct report_text trace, device, arch, arch_file, arch_how;
	double gpus, events, gpu_events, kernels, span_us, short_us;
	/* gpu_timeline.csv */
	int have_timeline;
	double comp, xcomm, xmem, busy, idle, total, comm, mem;
	/* ops_summary_by_category.csv: the category with the most GPU time */
	struct report_text top_cat;
	double top_cat_pct;
	/* unified_perf_summary.csv: that category's roofline */
	double roof_pct;	/* Σ roofline time / Σ kernel time, % */
	double roof_cover;	/* % of the category's kernel time with a roofline */
	const char *roof_bound;	/* "memory" or "compute" (by time) */
	/* ops_summary.csv: the top op */
	struct report_text top_op;
	double top_op_pct;
	/* short_kernel_histogram.csv and kernel_summary.csv */
	double short_count, kernel_count;
};

void report_facts_get(struct report_facts *f, struct report_dir *rd);
/*
 * The report's title: the trace's last two path components (a folder and
 * "trace.json.gz" say more than the file name alone), else the folder's name.
 */
struct report_text report_title(const struct report_dir *rd, const struct report_facts *f);
/*
 * Which roofline table the report used and how it was chosen, written with
 * text() (the caller's escaping): "H100 (H100.tsv, picked from the device
 * name)", or why there is none.
 */
void report_arch_note(struct outbuf *ob, const struct report_facts *f,
		      void (*text)(struct outbuf *, const char *, size_t));
/* The verdict paragraph (allocated), or NULL when the sheets say too little. */
char *report_verdict(const struct report_facts *f);

#endif
