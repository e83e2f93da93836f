#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "report_facts.h"
#include "report_idle.h"
#include "report_md.h"
#include "report_name.h"
#include "report_diff.h"
#include "report_job.h"
#include "banned.h"

void md_text(struct outbuf *ob, const char *s, size_t n)
{
	display_escape(ob, s, n, DISPLAY_MARKDOWN);
}

/*
 * A code span keeps '<', '*' and '_' of C++ names from turning into HTML
 * or emphasis when the file is rendered; its fence is one backtick longer
 * than the longest run of backticks inside.
 */
void md_code(struct outbuf *ob, const char *s, size_t n, size_t cut)
{
	size_t run = 0, longest = 0;
	int pad;

	if (!n)
		return;
	for (size_t i = 0; i < cut; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	pad = s[0] == '`' || (cut == n && s[cut - 1] == '`');
	for (size_t i = 0; i <= longest; i++)
		outbuf_putc(ob, '`');
	if (pad)
		outbuf_putc(ob, ' ');
	md_text(ob, s, cut);
	if (cut < n)
		outbuf_puts(ob, "\xe2\x80\xa6");
	if (pad)
		outbuf_putc(ob, ' ');
	for (size_t i = 0; i <= longest; i++)
		outbuf_putc(ob, '`');
}

void md_num(struct outbuf *ob, double v, int prec)
{
	if (!isnan(v))
		outbuf_printf(ob, "%.*f", prec, v);
}

static void md_textz(struct outbuf *ob, const struct report_text *t)
{
	md_text(ob, t->s, t->n);
}

/* ---- the head: facts and verdict -------------------------------------- */

static void facts(struct outbuf *ob, const struct report_facts *f)
{
	if (!f->trace.s) {
		outbuf_puts(ob, "- Facts: this folder has no report_info.csv (TraceLens's own "
			    "sheets?), so the GPU, the roofline table and the event count are "
			    "not known\n");
	} else {
		outbuf_puts(ob, "- GPU: ");
		if (f->device.s)
			md_textz(ob, &f->device);
		else
			outbuf_puts(ob, "not named in the trace (no deviceProperties)");
		if (!isnan(f->gpus))
			outbuf_printf(ob, " (%.0f GPU%s with events)", f->gpus, f->gpus == 1 ? "" : "s");
		outbuf_puts(ob, "\n- Roofline table: ");
		report_arch_note(ob, f, md_text);
		outbuf_printf(ob, "\n- Trace: %.0f events (%.0f on the GPU, %.0f kernels) over "
			      "%.3f ms\n", f->events, f->gpu_events, f->kernels, f->span_us / 1e3);
	}
	if (f->have_timeline)
		outbuf_printf(ob, "- GPU span: %.3f ms, from the first GPU event's start to the "
			      "last one's end\n", f->total / 1e3);
}

static void head(struct report_dir *rd, struct outbuf *ob, const struct report_facts *f)
{
	struct report_text t = report_title(rd, f);
	char *v = report_verdict(f);

	outbuf_puts(ob, "# Performance report: ");
	md_textz(ob, &t);
	outbuf_puts(ob, "\n\n");
	facts(ob, f);
	if (v) {
		outbuf_puts(ob, "\n**Verdict.** ");
		md_text(ob, v, strlen(v));
		outbuf_putc(ob, '\n');
	}
	free(v);
}

/* ---- tables ------------------------------------------------------------ */

static void gpu_timeline(struct report_dir *rd, struct outbuf *ob)
{
	const struct csv *c = report_dir_sheet(rd, "gpu_timeline");
	long ct = report_col(c, "type"), cm = report_col(c, "time ms"), cp = report_col(c, "percent");

	if (ct < 0 || cm < 0)
		return;
	outbuf_puts(ob, "\n## GPU timeline\n\nTimes in ms; percent of `total_time`, the GPU span.\n\n"
		    "| type | time (ms) | % of GPU span |\n|---|---:|---:|\n");
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *s = report_str(c, r, ct, &n);
		outbuf_puts(ob, "| ");
		md_text(ob, s, n);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cm), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cp), 2);
		outbuf_puts(ob, " |\n");
	}
}

static void categories(struct report_dir *rd, struct outbuf *ob)
{
	const struct csv *c = report_dir_sheet(rd, "ops_summary_by_category");
	long cc = report_col(c, "op category"), cn = report_col(c, "Count");
	long cm = report_col(c, "total_direct_kernel_time_ms"), cp = report_col(c, "Percentage (%)");
	long cu = report_col(c, "Cumulative Percentage (%)");

	if (cc < 0 || cm < 0)
		return;
	outbuf_puts(ob, "\n## GPU kernel time by op category\n\nGPU time: the kernel time of the "
		    "ops of the category; percent of the GPU kernel time of all ops.\n\n"
		    "| category | ops | GPU time (ms) | % of GPU kernel time | cumulative % |\n"
		    "|---|---:|---:|---:|---:|\n");
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *s = report_str(c, r, cc, &n);
		outbuf_puts(ob, "| ");
		md_code(ob, s, n, n);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cn), 0);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cm), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cp), 2);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cu), 2);
		outbuf_puts(ob, " |\n");
	}
}

/* The first k rows' names of column col, cut where they still differ. */
static void names_of(struct report_names *rn, const struct csv *c, long col, size_t k)
{
	for (size_t r = 0; r < c->nrows && r < k; r++) {
		size_t n;
		const char *s = report_str(c, r, col, &n);
		report_names_add(rn, s, n);
	}
	report_names_cut(rn, REPORT_NAME_CHARS);
}

static void top_ops(struct report_dir *rd, struct outbuf *ob)
{
	const struct csv *c = report_dir_sheet(rd, "ops_summary");
	long cname = report_col(c, "name"), cm = report_col(c, "total_direct_kernel_time_ms");
	long cn = report_col(c, "Count"), cp = report_col(c, "Percentage (%)");
	long cu = report_col(c, "Cumulative Percentage (%)");
	struct report_names rn = { 0 };

	if (cname < 0 || cm < 0)
		return;
	names_of(&rn, c, cname, REPORT_MD_TOP);
	outbuf_printf(ob, "\n## Top %d ops by GPU kernel time\n\nGPU time: the kernel time the "
		      "op launched itself; percent of the GPU kernel time of all ops.\n\n"
		      "| op | GPU time (ms) | count | %% of GPU kernel time | cumulative %% |\n"
		      "|---|---:|---:|---:|---:|\n", REPORT_MD_TOP);
	for (size_t r = 0; r < rn.count; r++) {
		outbuf_puts(ob, "| ");
		md_code(ob, rn.s[r], rn.n[r], rn.cut[r]);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cm), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cn), 0);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cp), 2);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cu), 2);
		outbuf_puts(ob, " |\n");
	}
	report_names_release(&rn);
}

static void top_kernels(struct report_dir *rd, struct outbuf *ob)
{
	const struct csv *c = report_dir_sheet(rd, "kernel_summary");
	long ck = report_col(c, "Kernel name"), cparent = report_col(c, "Parent cpu_op");
	long cs = report_col(c, "Kernel duration (µs)_sum"), cn = report_col(c, "Kernel duration (µs)_count");
	long cmean = report_col(c, "Kernel duration (µs)_mean");
	long cp = report_col(c, "Percent of kernels time (%)");
	struct report_names kn = { 0 }, pn = { 0 };

	if (cparent < 0)
		cparent = report_col(c, "Parent op category");
	if (ck < 0 || cs < 0)
		return;
	names_of(&kn, c, ck, REPORT_MD_TOP);
	if (cparent >= 0)
		names_of(&pn, c, cparent, REPORT_MD_TOP);
	outbuf_printf(ob, "\n## Top %d kernels\n\nKernel names demangled; percent of the time of "
		      "all kernels.\n\n| kernel | parent op | total (µs) | count | mean (µs) | "
		      "%% of kernel time |\n|---|---|---:|---:|---:|---:|\n", REPORT_MD_TOP);
	for (size_t r = 0; r < kn.count; r++) {
		outbuf_puts(ob, "| ");
		md_code(ob, kn.s[r], kn.n[r], kn.cut[r]);
		outbuf_puts(ob, " | ");
		if (r < pn.count)
			md_code(ob, pn.s[r], pn.n[r], pn.cut[r]);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cs), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cn), 0);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cmean), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cp), 2);
		outbuf_puts(ob, " |\n");
	}
	report_names_release(&kn);
	report_names_release(&pn);
}

static void roofline(struct report_dir *rd, struct outbuf *ob)
{
	const struct csv *c = report_dir_sheet(rd, "unified_perf_summary");
	long cname = report_col(c, "name"), cd = report_col(c, "Input Dims");
	long cn = report_col(c, "operation_count"), ct = report_col(c, "Kernel Time (µs)_sum");
	long ctf = report_col(c, "TFLOPS/s_mean"), cai = report_col(c, "FLOPS/Byte");
	long cr = report_col(c, "Pct Roofline_mean"), cb = report_col(c, "Roofline Bound");
	struct report_names rn = { 0 }, dn = { 0 };

	if (cname < 0 || ct < 0 || ctf < 0)
		return;
	names_of(&rn, c, cname, REPORT_MD_TOP);
	names_of(&dn, c, cd, REPORT_MD_TOP);
	outbuf_printf(ob, "\n## Top %d op groups (same name and arguments) by GPU time\n\n"
		      "%% of roofline: the time the roofline allows over the time taken "
		      "(mean over the group's calls)%s.\n\n"
		      "| op | input dims | count | GPU time (µs) | TFLOPS/s | FLOPS/Byte | "
		      "%% of roofline | bound |\n|---|---|---:|---:|---:|---:|---:|---|\n",
		      REPORT_MD_TOP, cr < 0 ? "; empty: no arch table was used" : "");
	for (size_t r = 0; r < rn.count; r++) {
		size_t n;
		const char *b = report_str(c, r, cb, &n);
		outbuf_puts(ob, "| ");
		md_code(ob, rn.s[r], rn.n[r], rn.cut[r]);
		outbuf_puts(ob, " | ");
		if (r < dn.count)
			md_code(ob, dn.s[r], dn.n[r], dn.cut[r]);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cn), 0);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, ct), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, ctf), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cai), 2);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(c, r, cr), 1);
		outbuf_puts(ob, " | ");
		md_text(ob, b, n);
		outbuf_puts(ob, " |\n");
	}
	report_names_release(&rn);
	report_names_release(&dn);
}

static void short_kernels(struct report_dir *rd, struct outbuf *ob, const struct report_facts *f)
{
	const struct csv *c = report_dir_sheet(rd, "short_kernels_summary");
	long cs = report_col(c, "Short Kernel duration (µs) sum");
	double sum = 0;

	if (isnan(f->short_count))
		return;
	for (size_t r = 0; cs >= 0 && r < c->nrows; r++) {
		double v = report_num(c, r, cs);
		if (v > 0)
			sum += v;
	}
	outbuf_puts(ob, "\n## Short kernels\n\n");
	outbuf_printf(ob, "%.0f kernels", f->short_count);
	if (!isnan(f->kernel_count))
		outbuf_printf(ob, " of %.0f", f->kernel_count);
	if (f->short_us > 0)
		outbuf_printf(ob, " are shorter than %g µs", f->short_us);
	else
		outbuf_puts(ob, " are short (short_kernel_histogram.csv)");
	if (cs >= 0)
		outbuf_printf(ob, "; those under an op with shapes take %.3f µs in all "
			      "(short_kernels_summary.csv)", sum);
	outbuf_puts(ob, ".\n");
}

/*
 * Why the GPU waits: tl-idle's summary (idle/summary.csv, one row per
 * rank), when the folder has it (tl-report --no-idle leaves it out), with
 * report.html's columns (report_idle.h).  Percentages and counts as
 * tl-idle wrote them, times in ms.
 */
static void idle_cell(struct outbuf *ob, const struct csv *c, size_t r, const char *col, double scale,
		      int prec)
{
	long k = report_col(c, col);
	size_t n;
	const char *s;

	if (k < 0)
		return;
	if (scale == 0) {
		s = report_str(c, r, k, &n);
		md_text(ob, s, n);
	} else {
		md_num(ob, report_num(c, r, k) * scale, prec);
	}
}

static void idle_summary(struct report_dir *rd, struct outbuf *ob)
{
	const struct csv *c = report_dir_sheet(rd, "idle/summary");

	if (!c || report_col(c, "rank") < 0)
		return;
	outbuf_puts(ob, "\n## Why the GPU waits\n\nHTA's breakdowns; the tables are in "
		    "idle/ (tl-idle(1)).\n\n|");
	for (size_t k = 0; k < REPORT_IDLE_NCOLS; k++) {
		outbuf_puts(ob, " ");
		outbuf_puts(ob, report_idle_cols[k].heading);
		outbuf_puts(ob, " |");
	}
	outbuf_puts(ob, "\n|");
	for (size_t k = 0; k < REPORT_IDLE_NCOLS; k++)
		outbuf_puts(ob, "---:|");
	outbuf_puts(ob, "\n");
	for (size_t r = 0; r < c->nrows; r++) {
		outbuf_puts(ob, "|");
		for (size_t k = 0; k < REPORT_IDLE_NCOLS; k++) {
			outbuf_puts(ob, " ");
			idle_cell(ob, c, r, report_idle_cols[k].col, report_idle_cols[k].scale,
				  report_idle_cols[k].prec);
			outbuf_puts(ob, " |");
		}
		outbuf_puts(ob, "\n");
	}
}

int report_md_write(struct report_dir *rd, struct outbuf *ob)
{
	struct report_facts f;

	if (rd->kind == REPORT_JOB)
		return report_md_job(rd, ob);
	if (rd->kind == REPORT_DIFF)
		return report_md_diff(rd, ob);
	report_facts_get(&f, rd);
	head(rd, ob, &f);
	gpu_timeline(rd, ob);
	categories(rd, ob);
	top_ops(rd, ob);
	top_kernels(rd, ob);
	roofline(rd, ob);
	short_kernels(rd, ob, &f);
	idle_summary(rd, ob);
	return rd->bad ? 1 : 0;
}
