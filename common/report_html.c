#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report_chart.h"
#include "report_diff.h"
#include "report_facts.h"
#include "report_idle.h"
#include "report_html.h"
#include "report_job.h"
#include "report_name.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* ---- shared pieces ----------------------------------------------------- */

void report_html_title(struct outbuf *ob, const char *what, const char *s, size_t n)
{
	outbuf_puts(ob, "<h1>");
	html_str(ob, what);
	html_text(ob, s, n);
	outbuf_puts(ob, "</h1>\n");
}

void report_html_nav(struct outbuf *ob, const char *const *ids, const char *const *titles,
		     size_t n)
{
	outbuf_puts(ob, "<nav>");
	for (size_t i = 0; i < n; i++) {
		outbuf_puts(ob, "<a href=\"#");
		html_str(ob, ids[i]);
		outbuf_puts(ob, "\">");
		html_str(ob, titles[i]);
		outbuf_puts(ob, "</a>");
	}
	outbuf_puts(ob, "</nav>\n");
}

void report_html_note(struct outbuf *ob, const char *s)
{
	outbuf_puts(ob, "<p class=\"note\">");
	html_str(ob, s);
	outbuf_puts(ob, "</p>\n");
}

void report_html_footer(struct outbuf *ob)
{
	outbuf_puts(ob, "<footer>Drawn by tl-html from this folder's sheets; the CSV files hold "
		    "every row and the exact values.</footer>\n");
}

static void html_textz(struct outbuf *ob, const char *s, size_t n)
{
	html_text(ob, s, n);
}

/* ---- categories and their colours -------------------------------------- */

/*
 * The op categories of ops_summary_by_category.csv, in its order, each with
 * its colour; sorted by name too, so that a lookup costs O(log n).
 */
struct cats {
	const struct csv *c;
	long col;
	size_t *byname;		/* rows sorted by name, then row */
	size_t *pal;		/* palette index per row; (size_t)-1: grey */
	size_t n;
};

static const struct cats *sort_cats;	/* qsort has no context argument */

static int cmp_cat(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb, na, nb;
	const char *sa = report_str(sort_cats->c, a, sort_cats->col, &na);
	const char *sb = report_str(sort_cats->c, b, sort_cats->col, &nb);
	int c = memcmp(sa, sb, na < nb ? na : nb);

	if (c)
		return c;
	if (na != nb)
		return na < nb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int is_other(const char *s, size_t n)
{
	return n == 5 && !memcmp(s, "other", 5);
}

/* Categories get the palette in turn, in the summary's order; "other" grey. */
static void cats_init(struct cats *cs, const struct csv *c, long col)
{
	size_t k = 0;

	cs->c = c, cs->col = col;
	cs->n = c && col >= 0 ? c->nrows : 0;
	cs->byname = xmalloc((cs->n ? cs->n : 1) * sizeof(*cs->byname));
	cs->pal = xmalloc((cs->n ? cs->n : 1) * sizeof(*cs->pal));
	for (size_t r = 0; r < cs->n; r++) {
		size_t m;
		const char *t = report_str(c, r, col, &m);
		cs->byname[r] = r;
		cs->pal[r] = is_other(t, m) ? (size_t)-1 : k++;
	}
	sort_cats = cs;
	tl_qsort(cs->byname, cs->n, sizeof(*cs->byname), cmp_cat);
}

static void cats_release(struct cats *cs)
{
	free(cs->byname);
	free(cs->pal);
}

/* The summary's row of category s (its first, if repeated), or -1. */
static long cats_find(const struct cats *cs, const char *s, size_t n)
{
	size_t lo = 0, hi = cs->n;

	while (lo < hi) {	/* the first name >= s */
		size_t mid = lo + (hi - lo) / 2, m;
		const char *t = report_str(cs->c, cs->byname[mid], cs->col, &m);
		int c = memcmp(t, s, m < n ? m : n);
		if (c < 0 || (c == 0 && m < n))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cs->n) {
		size_t m;
		const char *t = report_str(cs->c, cs->byname[lo], cs->col, &m);
		if (m == n && !memcmp(t, s, n))
			return (long)cs->byname[lo];
	}
	return -1;
}

static const char *cat_color(const struct cats *cs, const char *s, size_t n)
{
	long r = cats_find(cs, s, n);

	return chart_palette(r < 0 ? (size_t)-1 : cs->pal[r]);
}

/* ops_summary's Categories cell, "['GEMM']": the first category in it. */
static void first_category(const char *s, size_t n, const char **out, size_t *len)
{
	size_t i = 0, j;

	while (i < n && (s[i] == '[' || s[i] == '\'' || s[i] == '"' || s[i] == ' '))
		i++;
	for (j = i; j < n && s[j] != '\'' && s[j] != '"' && s[j] != ',' && s[j] != ']'; j++)
		;
	*out = s + i;
	*len = j - i;
}

/* ---- head -------------------------------------------------------------- */

static void facts(struct outbuf *ob, const struct report_facts *f)
{
	outbuf_puts(ob, "<p class=\"facts\">");
	if (!f->trace.s) {
		outbuf_puts(ob, "This folder has no report_info.csv (TraceLens's own sheets?): the "
			    "GPU, the roofline table and the event count are not known.");
	} else {
		outbuf_puts(ob, "<b>GPU</b> ");
		if (f->device.s)
			html_text(ob, f->device.s, f->device.n);
		else
			outbuf_puts(ob, "not named in the trace");
		if (!isnan(f->gpus))
			html_printf(ob, " (%.0f GPU%s with events)", f->gpus, f->gpus == 1 ? "" : "s");
		outbuf_puts(ob, " &middot; <b>roofline table</b> ");
		report_arch_note(ob, f, html_textz);
		html_printf(ob, " \xc2\xb7 ");
		outbuf_puts(ob, "<b>trace</b> ");
		html_printf(ob, "%.0f events (%.0f on the GPU, %.0f kernels) over %.3f ms", f->events,
			    f->gpu_events, f->kernels, f->span_us / 1e3);
	}
	if (f->have_timeline) {
		outbuf_puts(ob, " &middot; <b>GPU span</b> ");
		html_printf(ob, "%.3f ms", f->total / 1e3);
	}
	outbuf_puts(ob, "</p>\n");
}

/* ---- GPU timeline ------------------------------------------------------ */

struct stack_ctx {
	const struct chart_stack *rows;
	const char *const *names;
	int nseg;
	const char *unit;	/* "ms" */
	double scale;		/* value → unit */
};

static void stack_tip(struct svg *g, void *ctx, size_t i)
{
	const struct stack_ctx *c = ctx;
	const struct chart_stack *r = &c->rows[i / (size_t)c->nseg];
	int k = (int)(i % (size_t)c->nseg);
	double total = 0;

	for (int j = 0; j < c->nseg; j++)
		total += r->v[j] > 0 ? r->v[j] : 0;
	svg_tip(g, r->label, r->label_len);
	svg_tipf(g, "\n%s: %.3f %s, %.1f %% of %.3f %s", c->names[k], r->v[k] * c->scale, c->unit,
		 total > 0 ? r->v[k] / total * 100 : 0, total * c->scale, c->unit);
}

/* Per GPU from the strip's "all" rows, when the trace has more than one GPU. */
static size_t per_gpu_rows(struct report_dir *rd, struct chart_stack **out, char (**labels)[72])
{
	const struct csv *c = report_dir_sheet(rd, "timeline_strip");
	long cg = report_col(c, "gpu"), cs = report_col(c, "stream"), ce = report_col(c, "end_us");
	long cv[3] = { report_col(c, "computation_us"), report_col(c, "exposed_comm_us"),
		       report_col(c, "exposed_memcpy_us") };
	struct chart_stack *rows = NULL;
	size_t n = 0, alloc = 0;
	double span = 0;

	*out = NULL;
	*labels = NULL;
	if (cg < 0 || cs < 0 || ce < 0 || cv[0] < 0 || cv[1] < 0 || cv[2] < 0)
		return 0;
	for (size_t r = 0; r < c->nrows; r++) {
		size_t gn, sn;
		const char *gpu = report_str(c, r, cg, &gn), *st = report_str(c, r, cs, &sn);
		span = fmax(span, report_num(c, r, ce));
		if (sn != 3 || memcmp(st, "all", 3))
			continue;
		if (!n || rows[n - 1].label_len != gn || memcmp(rows[n - 1].label, gpu, gn)) {
			xgrow((void **)&rows, &alloc, n + 1, sizeof(*rows));
			memset(&rows[n], 0, sizeof(rows[n]));
			rows[n].label = gpu;
			rows[n].label_len = gn;
			n++;
		}
		for (int k = 0; k < 3; k++) {
			double v = report_num(c, r, cv[k]);
			rows[n - 1].v[k] += v > 0 ? v : 0;
		}
	}
	*labels = xcalloc(n ? n : 1, sizeof(**labels));
	for (size_t i = 0; i < n; i++) {
		rows[i].v[3] = span - rows[i].v[0] - rows[i].v[1] - rows[i].v[2];
		snprintf(rows[i].right, sizeof(rows[i].right), "%.3f ms", span / 1e3);
		snprintf((*labels)[i], sizeof((*labels)[i]), "GPU %.*s",
			 (int)(rows[i].label_len > 60 ? 60 : rows[i].label_len), rows[i].label);
		rows[i].label = (*labels)[i];
		rows[i].label_len = strlen((*labels)[i]);
	}
	*out = rows;
	return n;
}

static void breakdown_table(struct outbuf *ob, struct report_dir *rd)
{
	static const char *const cols[] = { "type", "n:time (ms)", "n:% of GPU span" };
	const struct csv *c = report_dir_sheet(rd, "gpu_timeline");
	long ct = report_col(c, "type"), cm = report_col(c, "time ms"), cp = report_col(c, "percent");

	if (ct < 0 || cm < 0)
		return;
	outbuf_puts(ob, "<details><summary>gpu_timeline.csv</summary>\n");
	html_table_begin(ob, "t-gpu-timeline", cols, 3);
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *s = report_str(c, r, ct, &n);
		html_tr(ob);
		html_td_text(ob, s, n, HTML_TD_TEXT);
		html_td_num(ob, report_num(c, r, cm), 3);
		html_td_num(ob, report_num(c, r, cp), 2);
		html_tr_end(ob);
	}
	html_table_end(ob);
	outbuf_puts(ob, "</details>\n");
}

static void section_breakdown(struct outbuf *ob, struct report_dir *rd, const struct report_facts *f)
{
	struct chart_stack one, *rows = NULL;
	char (*labels)[72];
	size_t n = per_gpu_rows(rd, &rows, &labels);
	struct stack_ctx ctx = { NULL, chart_class_name, 4, "ms", 1e-3 };

	html_section(ob, "breakdown", "GPU timeline breakdown");
	if (n > 1) {
		report_html_note(ob, "One bar per GPU, each against the trace's GPU span (from the "
				 "timeline strip sheet).");
	} else if (f->have_timeline) {
		free(rows);
		rows = NULL;
		memset(&one, 0, sizeof(one));
		one.label = "GPU";
		one.label_len = 3;
		one.v[0] = f->comp, one.v[1] = f->xcomm, one.v[2] = f->xmem, one.v[3] = f->idle;
		snprintf(one.right, sizeof(one.right), "%.3f ms", f->total / 1e3);
		n = 1;
	} else {
		free(rows);
		free(labels);
		report_html_note(ob, "No gpu_timeline.csv in this folder.");
		html_section_end(ob);
		return;
	}
	ctx.rows = rows ? rows : &one;
	html_legend(ob, chart_class_name, chart_class_color, 4);
	chart_stacked(ob, "breakdown", "GPU timeline breakdown", ctx.rows, n, 4, chart_class_color,
		      stack_tip, &ctx);
	report_html_note(ob, "Exposed communication: communication not overlapped by "
			 "computation; exposed memcpy: memcpy overlapped by neither; idle: no GPU "
			 "event running.");
	breakdown_table(ob, rd);
	free(rows);
	free(labels);
	html_section_end(ob);
}

/* ---- the timeline strip ------------------------------------------------ */

struct strip_ctx {
	struct chart_strip_row *rows;
	double span;
};

static void strip_tip(struct svg *g, void *ctx, size_t i)
{
	const struct strip_ctx *c = ctx;
	const struct chart_strip_row *r = &c->rows[i / 3];
	int k = (int)(i % 3);
	double busy = 0;

	for (size_t b = 0; b < r->nbins; b++)
		busy += r->bins[b].v[k] > 0 ? r->bins[b].v[k] : 0;
	svg_tip(g, r->label, r->label_len);
	svg_tipf(g, "\n%s: %.3f ms of %.3f ms (%.1f %%)", chart_class_name[k], busy / 1e3,
		 c->span / 1e3, c->span > 0 ? busy / c->span * 100 : 0);
}

struct strip_group {
	size_t first, count;	/* rows of the sheet */
	int all;		/* a GPU's "all streams" row */
	size_t gpu_streams;	/* streams of its GPU */
	double busy;
	char *label;
};

/* The sheet's rows grouped by (gpu, stream), in sheet order. */
static struct strip_group *strip_groups(const struct csv *c, size_t *ng)
{
	long cg = report_col(c, "gpu"), cs = report_col(c, "stream");
	long cv[3] = { report_col(c, "computation_us"), report_col(c, "exposed_comm_us"),
		       report_col(c, "exposed_memcpy_us") };
	struct strip_group *g = NULL;
	size_t n = 0, alloc = 0;

	for (size_t r = 0; r < c->nrows; r++) {
		size_t gn, sn, pgn, psn;
		const char *gpu = report_str(c, r, cg, &gn), *st = report_str(c, r, cs, &sn);
		const char *pg = r ? report_str(c, r - 1, cg, &pgn) : NULL;
		const char *ps = r ? report_str(c, r - 1, cs, &psn) : NULL;
		if (!r || gn != pgn || sn != psn || memcmp(gpu, pg, gn) || memcmp(st, ps, sn)) {
			xgrow((void **)&g, &alloc, n + 1, sizeof(*g));
			memset(&g[n], 0, sizeof(g[n]));
			g[n].first = r;
			g[n].all = sn == 3 && !memcmp(st, "all", 3);
			n++;
		}
		g[n - 1].count++;
		for (int k = 0; k < 3; k++) {
			double v = report_num(c, r, cv[k]);
			g[n - 1].busy += v > 0 ? v : 0;
		}
	}
	/* streams per GPU: the groups after each "all" row up to the next */
	for (size_t i = 0; i < n; i++)
		if (g[i].all)
			for (size_t j = i + 1; j < n && !g[j].all; j++)
				g[i].gpu_streams++;
	*ng = n;
	return g;
}

static int cmp_busy(const void *pa, const void *pb)
{
	const struct strip_group *a = *(struct strip_group *const *)pa;
	const struct strip_group *b = *(struct strip_group *const *)pb;

	if (a->all != b->all)
		return a->all ? -1 : 1;
	if (a->busy != b->busy)
		return a->busy > b->busy ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

static int cmp_first(const void *pa, const void *pb)
{
	const struct strip_group *a = *(struct strip_group *const *)pa;
	const struct strip_group *b = *(struct strip_group *const *)pb;

	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * The groups drawn: a GPU's "all" row when it has more than one stream,
 * then the streams; at most REPORT_HTML_STREAMS, the busiest kept, in
 * sheet order.
 */
static size_t strip_pick(struct strip_group *g, size_t n, struct strip_group ***out, size_t *streams)
{
	struct strip_group **p = xmalloc((n ? n : 1) * sizeof(*p));
	size_t k = 0;

	*streams = 0;
	for (size_t i = 0; i < n; i++) {
		*streams += !g[i].all;
		if (!g[i].all || g[i].gpu_streams > 1)
			p[k++] = &g[i];
	}
	if (k > REPORT_HTML_STREAMS) {
		tl_qsort(p, k, sizeof(*p), cmp_busy);
		k = REPORT_HTML_STREAMS;
	}
	tl_qsort(p, k, sizeof(*p), cmp_first);
	*out = p;
	return k;
}

static char *strip_label(const struct csv *c, const struct strip_group *g)
{
	size_t gn, sn, len;
	const char *gpu = report_str(c, g->first, report_col(c, "gpu"), &gn);
	const char *st = report_str(c, g->first, report_col(c, "stream"), &sn);
	char *s;

	gn = gn > 64 ? 64 : gn, sn = sn > 64 ? 64 : sn;
	len = gn + sn + 32;
	s = xmalloc(len);
	if (g->all)
		snprintf(s, len, "GPU %.*s, all streams", (int)gn, gpu);
	else
		snprintf(s, len, "GPU %.*s stream %.*s", (int)gn, gpu, (int)sn, st);
	return s;
}

static void strip_rows(const struct csv *c, struct strip_group **p, size_t k,
		       struct chart_strip_row *rows, struct chart_strip_bin *bins)
{
	long c0 = report_col(c, "start_us"), c1 = report_col(c, "end_us");
	long cv[3] = { report_col(c, "computation_us"), report_col(c, "exposed_comm_us"),
		       report_col(c, "exposed_memcpy_us") };
	size_t nb = 0;

	for (size_t i = 0; i < k; i++) {
		p[i]->label = strip_label(c, p[i]);
		rows[i].label = p[i]->label;
		rows[i].label_len = strlen(p[i]->label);
		rows[i].bins = bins + nb;
		rows[i].nbins = p[i]->count;
		for (size_t r = p[i]->first; r < p[i]->first + p[i]->count; r++, nb++) {
			bins[nb].t0 = report_num(c, r, c0);
			bins[nb].t1 = report_num(c, r, c1);
			for (int j = 0; j < 3; j++)
				bins[nb].v[j] = report_num(c, r, cv[j]);
		}
	}
}

static void section_strip(struct outbuf *ob, struct report_dir *rd)
{
	const struct csv *c = report_dir_sheet(rd, "timeline_strip");
	long ce = report_col(c, "end_us");
	struct strip_group *g, **p;
	struct chart_strip_row *rows;
	struct chart_strip_bin *bins;
	struct strip_ctx ctx;
	size_t ng, k, nbins = 0, streams;
	double span = 0;

	if (!c || ce < 0 || report_col(c, "stream") < 0)
		return;
	html_section(ob, "strip", "Timeline per stream");
	g = strip_groups(c, &ng);
	k = strip_pick(g, ng, &p, &streams);
	for (size_t i = 0; i < k; i++)
		nbins += p[i]->count;
	for (size_t r = 0; r < c->nrows; r++)
		span = fmax(span, report_num(c, r, ce));
	rows = xcalloc(k ? k : 1, sizeof(*rows));
	bins = xcalloc(nbins ? nbins : 1, sizeof(*bins));
	strip_rows(c, p, k, rows, bins);
	report_html_note(ob, "Busy time against wall time: each column is one bin of the trace's "
			 "GPU span, its height the share of the bin the stream was busy; gaps are "
			 "idle time.");
	html_legend(ob, chart_class_name, chart_class_color, 3);
	ctx.rows = rows, ctx.span = span;
	chart_strip(ob, "strip", "Timeline per stream", rows, k, span, strip_tip, &ctx);
	{
		size_t drawn = 0;
		for (size_t i = 0; i < k; i++)
			drawn += !p[i]->all;
		if (drawn < streams) {
			outbuf_puts(ob, "<p class=\"note\">");
			html_printf(ob, "%zu of %zu streams are drawn, the busiest.", drawn, streams);
			outbuf_puts(ob, "</p>\n");
		}
	}
	for (size_t i = 0; i < ng; i++)
		free(g[i].label);
	free(g), free(p), free(rows), free(bins);
	html_section_end(ob);
}

/* ---- bars: categories, ops, kernels ------------------------------------ */

struct bar_ctx {
	const struct csv *c;
	struct report_names *rn;
	long cval, cpct, ccum, ccat, ccount;
	const char *unit;	/* of cval */
	const char *pct_of;
};

static void bar_tip(struct svg *g, void *ctx, size_t i)
{
	const struct bar_ctx *b = ctx;
	size_t n;
	const char *cat = report_str(b->c, i, b->ccat, &n);

	svg_tip_name(g, b->rn->s[i], b->rn->n[i]);
	if (b->ccat >= 0 && n) {
		svg_tipf(g, "\ncategory: ");
		svg_tip_name(g, cat, n);
	}
	svg_tipf(g, "\n%.3f %s", report_num(b->c, i, b->cval), b->unit);
	if (b->ccount >= 0)
		svg_tipf(g, " in %.0f calls", report_num(b->c, i, b->ccount));
	if (b->cpct >= 0)
		svg_tipf(g, "\n%.2f %% of %s", report_num(b->c, i, b->cpct), b->pct_of);
	if (b->ccum >= 0)
		svg_tipf(g, ", cumulative %.2f %%", report_num(b->c, i, b->ccum));
}

/*
 * Bars for the first rows of a sheet: value column cval (in unit), percent
 * and cumulative percent columns, colour by category column ccat (ops
 * summary's list form taken apart when list is set).
 */
static void sheet_bars(struct outbuf *ob, const char *chart, const char *title,
		       struct bar_ctx *b, long cname, const struct cats *cs, int list, size_t max,
		       int names)
{
	const struct csv *c = b->c;
	size_t n = c->nrows < max ? c->nrows : max;
	struct chart_bar *bars = xcalloc(n ? n : 1, sizeof(*bars));
	struct report_names rn = { 0 };

	for (size_t r = 0; r < n; r++) {
		size_t len;
		const char *s = report_str(c, r, cname, &len);
		report_names_add(&rn, s, len);
	}
	for (size_t r = 0; r < n; r++) {
		size_t len;
		const char *cat = report_str(c, r, b->ccat, &len);
		double pct = report_num(c, r, b->cpct), cum = report_num(c, r, b->ccum);
		if (list)
			first_category(cat, len, &cat, &len);
		bars[r].name = rn.s[r];
		bars[r].name_len = rn.n[r];
		bars[r].v = report_num(c, r, b->cval);
		bars[r].color = b->ccat >= 0 ? cat_color(cs, cat, len) : chart_palette(0);
		if (!isnan(cum))
			snprintf(bars[r].right, sizeof(bars[r].right), "%.3f %s \xc2\xb7 %.1f %% \xc2\xb7 "
				 "\xce\xa3 %.1f %%", bars[r].v, b->unit, pct, cum);
		else
			snprintf(bars[r].right, sizeof(bars[r].right), "%.3f %s \xc2\xb7 %.1f %%",
				 bars[r].v, b->unit, pct);
	}
	b->rn = &rn;
	chart_bars(ob, chart, title, bars, n, names, bar_tip, b);
	report_names_release(&rn);
	free(bars);
}

static void section_categories(struct outbuf *ob, const struct cats *cs)
{
	struct bar_ctx b = { cs->c, NULL, report_col(cs->c, "total_direct_kernel_time_ms"),
			     report_col(cs->c, "Percentage (%)"),
			     report_col(cs->c, "Cumulative Percentage (%)"), cs->col,
			     report_col(cs->c, "Count"), "ms", "the GPU kernel time of all ops" };

	if (cs->col < 0 || b.cval < 0)
		return;
	html_section(ob, "categories", "GPU kernel time by op category");
	report_html_note(ob, "Kernel time of the ops of each category; percent of the GPU kernel "
			 "time of all ops, \xce\xa3: cumulative.");
	sheet_bars(ob, "categories", "GPU kernel time by op category", &b, cs->col, cs, 0, 30,
		   CHART_NAMES_LEFT);
	html_section_end(ob);
}

static void ops_table(struct outbuf *ob, const struct csv *c)
{
	static const char *const cols[] = {
		"op", "category", "n:count", "n:GPU time (ms)", "n:% of GPU kernel time",
		"n:cumulative %"
	};
	long cn = report_col(c, "name"), cc = report_col(c, "Categories"), ccount = report_col(c, "Count");
	long cm = report_col(c, "total_direct_kernel_time_ms"), cp = report_col(c, "Percentage (%)");
	long cu = report_col(c, "Cumulative Percentage (%)");

	outbuf_puts(ob, "<details><summary>the first rows of ops_summary.csv</summary>\n");
	html_table_begin(ob, "t-ops", cols, 6);
	for (size_t r = 0; r < c->nrows && r < REPORT_HTML_ROWS; r++) {
		size_t n, m;
		const char *s = report_str(c, r, cn, &n), *cat = report_str(c, r, cc, &m);
		html_tr(ob);
		html_td_text(ob, s, n, HTML_TD_NAME);
		first_category(cat, m, &cat, &m);
		html_td_text(ob, cat, m, HTML_TD_TEXT);
		html_td_num(ob, report_num(c, r, ccount), 0);
		html_td_num(ob, report_num(c, r, cm), 3);
		html_td_num(ob, report_num(c, r, cp), 2);
		html_td_num(ob, report_num(c, r, cu), 2);
		html_tr_end(ob);
	}
	html_table_end(ob);
	outbuf_puts(ob, "</details>\n");
}

static void section_ops(struct outbuf *ob, struct report_dir *rd, const struct cats *cs)
{
	const struct csv *c = report_dir_sheet(rd, "ops_summary");
	struct bar_ctx b = { c, NULL, report_col(c, "total_direct_kernel_time_ms"),
			     report_col(c, "Percentage (%)"), report_col(c, "Cumulative Percentage (%)"),
			     report_col(c, "Categories"), report_col(c, "Count"), "ms",
			     "the GPU kernel time of all ops" };
	long cname = report_col(c, "name");

	if (cname < 0 || b.cval < 0)
		return;
	html_section(ob, "ops", "Top ops by GPU kernel time");
	report_html_note(ob, "GPU time: the kernel time each op launched itself; percent of the "
			 "GPU kernel time of all ops, \xce\xa3: cumulative.  Colour: op category.");
	sheet_bars(ob, "ops", "Top ops by GPU kernel time", &b, cname, cs, 1, REPORT_HTML_BARS,
		   CHART_NAMES_LEFT);
	ops_table(ob, c);
	html_section_end(ob);
}

static void kernels_table(struct outbuf *ob, const struct csv *c, long cname, long cparent)
{
	static const char *const cols[] = {
		"kernel", "parent op", "category", "stream", "n:count", "n:total (\xc2\xb5s)",
		"n:mean (\xc2\xb5s)", "n:% of kernel time"
	};
	long cc = report_col(c, "Parent op category"), cs = report_col(c, "Kernel stream");
	long cn = report_col(c, "Kernel duration (µs)_count"), ct = report_col(c, "Kernel duration (µs)_sum");
	long cm = report_col(c, "Kernel duration (µs)_mean");
	long cp = report_col(c, "Percent of kernels time (%)");
	struct report_names rn = { 0 };

	for (size_t r = 0; r < c->nrows && r < REPORT_HTML_ROWS; r++) {
		size_t n;
		const char *s = report_str(c, r, cname, &n);
		report_names_add(&rn, s, n);
	}
	outbuf_puts(ob, "<details><summary>the first rows of kernel_summary.csv (names "
		    "demangled)</summary>\n");
	html_table_begin(ob, "t-kernels", cols, 8);
	for (size_t r = 0; r < rn.count; r++) {
		size_t n[3];
		const char *p = report_str(c, r, cparent, &n[0]), *cat = report_str(c, r, cc, &n[1]);
		const char *st = report_str(c, r, cs, &n[2]);
		html_tr(ob);
		html_td_text(ob, rn.s[r], rn.n[r], HTML_TD_NAME);
		html_td_text(ob, p, n[0], HTML_TD_NAME);
		html_td_text(ob, cat, n[1], HTML_TD_TEXT);
		html_td_text(ob, st, n[2], HTML_TD_TEXT);
		html_td_num(ob, report_num(c, r, cn), 0);
		html_td_num(ob, report_num(c, r, ct), 3);
		html_td_num(ob, report_num(c, r, cm), 3);
		html_td_num(ob, report_num(c, r, cp), 2);
		html_tr_end(ob);
	}
	html_table_end(ob);
	outbuf_puts(ob, "</details>\n");
	report_names_release(&rn);
}

static void section_kernels(struct outbuf *ob, struct report_dir *rd, const struct cats *cs)
{
	const struct csv *c = report_dir_sheet(rd, "kernel_summary");
	long cname = report_col(c, "Kernel name"), cparent = report_col(c, "Parent cpu_op");
	struct bar_ctx b = { c, NULL, report_col(c, "Kernel duration (µs)_sum"),
			     report_col(c, "Percent of kernels time (%)"), -1,
			     report_col(c, "Parent op category"),
			     report_col(c, "Kernel duration (µs)_count"), "\xc2\xb5s",
			     "the time of all kernels" };

	if (cname < 0 || b.cval < 0)
		return;
	html_section(ob, "kernels", "Top kernels by GPU time");
	report_html_note(ob, "Kernel names demangled; percent of the time of all kernels.  "
			 "Colour: the category of the op that launched the kernel.");
	sheet_bars(ob, "kernels", "Top kernels by GPU time", &b, cname, cs, 0, REPORT_HTML_BARS,
		   CHART_NAMES_ABOVE);
	kernels_table(ob, c, cname, cparent);
	html_section_end(ob);
}

/* ---- roofline ---------------------------------------------------------- */

struct roof_ctx {
	const struct csv *c;
	size_t *row;		/* point → sheet row */
	struct report_names rn;
	double total;		/* Σ Kernel Time of all rows */
};

static void roof_tip(struct svg *g, void *ctx, size_t i)
{
	const struct roof_ctx *rc = ctx;
	const struct csv *c = rc->c;
	size_t r = rc->row[i], n;
	const char *s;
	double t = report_num(c, r, report_col(c, "Kernel Time (µs)_sum"));
	double pr = report_num(c, r, report_col(c, "Pct Roofline_mean"));

	svg_tip_name(g, rc->rn.s[i], rc->rn.n[i]);
	s = report_str(c, r, report_col(c, "Input Dims"), &n);
	if (n) {
		svg_tipf(g, "\nshape: ");
		svg_tip_name(g, s, n);
	}
	s = report_str(c, r, report_col(c, "op category"), &n);
	svg_tipf(g, "\ncategory: ");
	svg_tip_name(g, s, n);
	svg_tipf(g, "\nGPU time %.3f \xc2\xb5s (%.1f %%) in %.0f calls", t,
		 rc->total > 0 ? t / rc->total * 100 : 0,
		 report_num(c, r, report_col(c, "operation_count")));
	svg_tipf(g, "\n%.3g FLOPS/Byte, %.3g TFLOPS/s", report_num(c, r, report_col(c, "FLOPS/Byte")),
		 report_num(c, r, report_col(c, "TFLOPS/s_mean")));
	if (!isnan(pr)) {
		s = report_str(c, r, report_col(c, "Roofline Bound"), &n);
		svg_tipf(g, "\n%.1f %% of roofline, ", pr);
		svg_tip_name(g, s, n);
	}
	s = report_str(c, r, report_col(c, "Compute Spec"), &n);
	if (n) {
		svg_tipf(g, "\ncompute spec: ");
		svg_tip_name(g, s, n);
	}
}

/* Cell text comparison for sorting row indices (qsort has no context). */
static const struct csv *sort_sheet;
static long sort_column;
static size_t sort_skip;	/* bytes of the cell to skip: a key's prefix */

static int cmp_cell(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb, na, nb;
	const char *sa = report_str(sort_sheet, a, sort_column, &na);
	const char *sb = report_str(sort_sheet, b, sort_column, &nb);
	int c;

	sa += na >= sort_skip ? sort_skip : na, na -= na >= sort_skip ? sort_skip : na;
	sb += nb >= sort_skip ? sort_skip : nb, nb -= nb >= sort_skip ? sort_skip : nb;
	c = memcmp(sa, sb, na < nb ? na : nb);
	if (c)
		return c;
	if (na != nb)
		return na < nb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void sort_rows(size_t *v, size_t n, const struct csv *c, long col, size_t skip)
{
	sort_sheet = c, sort_column = col, sort_skip = skip;
	tl_qsort(v, n, sizeof(*v), cmp_cell);
}

/* report_info.csv's peak_tflops:SPEC for spec, by binary search in keys (sorted). */
static double info_peak(const struct csv *info, long ck, long cv, const size_t *keys, size_t nk,
			const char *spec, size_t sn)
{
	size_t lo = 0, hi = nk;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, kn;
		const char *k = report_str(info, keys[mid], ck, &kn) + 12;
		int c;
		kn -= 12;
		c = memcmp(k, spec, kn < sn ? kn : sn);
		if (c < 0 || (c == 0 && kn < sn))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nk) {
		size_t kn;
		const char *k = report_str(info, keys[lo], ck, &kn);
		if (kn == sn + 12 && !memcmp(k + 12, spec, sn))
			return report_num(info, keys[lo], cv);
	}
	return NAN;
}

/* The rows of report_info.csv with a peak_tflops: key, sorted by spec. */
static size_t *peak_keys(const struct csv *info, long ck, size_t *nk)
{
	size_t *k = xmalloc((info && info->nrows ? info->nrows : 1) * sizeof(*k));

	*nk = 0;
	for (size_t r = 0; info && ck >= 0 && r < info->nrows; r++) {
		size_t n;
		const char *key = report_str(info, r, ck, &n);
		if (n >= 12 && !memcmp(key, "peak_tflops:", 12))
			k[(*nk)++] = r;
	}
	sort_rows(k, *nk, info, ck, 12);
	return k;
}

/*
 * The peaks to draw: one per Compute Spec the points use, from the arch
 * given or the folder's report_info.csv.  O(n log n) in points and facts.
 */
static size_t roofs_of(struct report_dir *rd, const struct perf_arch *arch, const struct csv *c,
		       const size_t *row, size_t n, struct chart_roof **out, double *bw)
{
	const struct csv *info = report_dir_sheet(rd, "report_info");
	long cspec = report_col(c, "Compute Spec"), ck = report_col(info, "key");
	long cv = report_col(info, "value");
	struct chart_roof *r = NULL;
	size_t nr = 0, alloc = 0, nk, *keys = peak_keys(info, cv >= 0 ? ck : -1, &nk);
	size_t *pts = xmalloc((n ? n : 1) * sizeof(*pts));

	*bw = arch ? arch->mem_bw_gbps : NAN;
	for (size_t i = 0; !arch && ck >= 0 && cv >= 0 && i < info->nrows; i++) {
		size_t kn;
		const char *k = report_str(info, i, ck, &kn);
		if (kn == 11 && !memcmp(k, "mem_bw_gbps", 11))
			*bw = report_num(info, i, cv);
	}
	tl_memcpy(pts, row, n * sizeof(*pts));
	sort_rows(pts, n, c, cspec, 0);
	for (size_t i = 0; i < n; i++) {
		size_t sn, pn;
		const char *spec = report_str(c, pts[i], cspec, &sn), *prev;
		double peak = NAN;
		prev = i ? report_str(c, pts[i - 1], cspec, &pn) : NULL;
		if (!sn || (prev && pn == sn && !memcmp(prev, spec, sn)))
			continue;	/* each spec once */
		if (arch) {
			char *z = xstrndup(spec, sn);
			peak = perf_arch_peak(arch, z);
			free(z);
		} else if (cv >= 0) {
			peak = info_peak(info, ck, cv, keys, nk, spec, sn);
		}
		if (!(peak > 0))
			continue;
		xgrow((void **)&r, &alloc, nr + 1, sizeof(*r));
		r[nr].spec = xstrndup(spec, sn);
		r[nr++].tflops = peak;
	}
	free(pts);
	free(keys);
	*out = r;
	return nr;
}

static void roofline_note(struct outbuf *ob, const struct report_facts *f,
			  const struct perf_arch *arch, size_t nroofs, size_t skipped)
{
	outbuf_puts(ob, "<p class=\"note\">One point per op group (same name and arguments), "
		    "its area proportional to the group's GPU time, coloured by op category.  "
		    "Roofs: ");
	if (arch) {
		html_str(ob, arch->name);
		outbuf_puts(ob, " (given to tl-html with --arch)");
	} else if (f->arch.s) {
		report_arch_note(ob, f, html_textz);
	} else if (f->arch_how.s) {
		report_arch_note(ob, f, html_textz);
	} else {
		outbuf_puts(ob, "none: the folder has no report_info.csv with an arch table's peaks "
			    "(tl-html --arch NAME draws them)");
	}
	if (!nroofs && (arch || f->arch.s))
		outbuf_puts(ob, "; the table has no peak for the compute specs used");
	outbuf_puts(ob, ".");
	if (skipped)
		html_printf(ob, "  %zu op groups have no FLOPs or bytes and are not drawn.", skipped);
	outbuf_puts(ob, "</p>\n");
}

/* The colours of the categories that the points have, in the categories' order. */
static void category_legend(struct outbuf *ob, const struct cats *cs, const struct csv *c,
			    long cc, const size_t *row, size_t n)
{
	unsigned char *used = xcalloc(cs->n ? cs->n : 1, 1);
	int any = 0, unknown = 0;

	for (size_t k = 0; k < n; k++) {
		size_t pn;
		const char *p = report_str(c, row[k], cc, &pn);
		long r = cats_find(cs, p, pn);
		if (r >= 0)
			used[r] = 1;
		else
			unknown = 1;
	}
	for (size_t r = 0; r < cs->n; r++) {
		size_t m;
		const char *cat = report_str(cs->c, r, cs->col, &m);
		if (!used[r] || (long)r != cats_find(cs, cat, m))
			continue;
		outbuf_puts(ob, any ? "" : "<div class=\"legend\">");
		any = 1;
		outbuf_puts(ob, "<span><i style=\"background:");
		outbuf_puts(ob, chart_palette(cs->pal[r]));
		outbuf_puts(ob, "\"></i>");
		html_text(ob, cat, m > 100 ? 100 : m);
		outbuf_puts(ob, "</span>");
	}
	/* points whose category the summary does not list are grey */
	if (unknown) {
		outbuf_puts(ob, any ? "" : "<div class=\"legend\">");
		any = 1;
		outbuf_puts(ob, "<span><i style=\"background:");
		outbuf_puts(ob, chart_palette((size_t)-1));
		outbuf_puts(ob, "\"></i>other categories</span>");
	}
	if (any)
		outbuf_puts(ob, "</div>\n");
	free(used);
}

static void section_roofline(struct outbuf *ob, struct report_dir *rd, const struct cats *cs,
			     const struct report_facts *f, const struct perf_arch *arch)
{
	const struct csv *c = report_dir_sheet(rd, "unified_perf_summary");
	long cx = report_col(c, "FLOPS/Byte"), cy = report_col(c, "TFLOPS/s_mean");
	long ct = report_col(c, "Kernel Time (µs)_sum"), cc = report_col(c, "op category");
	long cname = report_col(c, "name");
	struct roof_ctx rc = { c, NULL, { 0 }, 0 };
	struct chart_point *p;
	struct chart_roof *roofs;
	size_t n = 0, nroofs;
	double bw;

	if (cx < 0 || cy < 0 || ct < 0 || cname < 0)
		return;
	html_section(ob, "roofline", "Roofline");
	p = xcalloc(c->nrows ? c->nrows : 1, sizeof(*p));
	rc.row = xcalloc(c->nrows ? c->nrows : 1, sizeof(*rc.row));
	for (size_t r = 0; r < c->nrows; r++) {
		double x = report_num(c, r, cx), y = report_num(c, r, cy), t = report_num(c, r, ct);
		size_t len;
		const char *s;
		rc.total += t > 0 ? t : 0;
		if (!(x > 0) || !(y > 0) || !isfinite(x) || !isfinite(y))
			continue;
		s = report_str(c, r, cc, &len);
		p[n] = (struct chart_point){ x, y, t > 0 ? t : 0, cat_color(cs, s, len) };
		rc.row[n++] = r;
		s = report_str(c, r, cname, &len);
		report_names_add(&rc.rn, s, len);
	}
	nroofs = roofs_of(rd, arch, c, rc.row, n, &roofs, &bw);
	roofline_note(ob, f, arch, nroofs, c->nrows - n);
	category_legend(ob, cs, c, cc, rc.row, n);
	if (n || nroofs)
		chart_roofline(ob, "roofline", p, n, bw, roofs, nroofs, roof_tip, &rc);
	for (size_t i = 0; i < nroofs; i++)
		free((char *)roofs[i].spec);
	free(roofs);
	report_names_release(&rc.rn);
	free(rc.row);
	free(p);
	html_section_end(ob);
}

/* ---- short kernels ----------------------------------------------------- */

struct hist_ctx {
	const double *lo, *hi, *count;
};

static void hist_tip(struct svg *g, void *ctx, size_t i)
{
	const struct hist_ctx *h = ctx;

	svg_tipf(g, "%.0f kernels of %.3f to %.3f \xc2\xb5s", h->count[i], h->lo[i], h->hi[i]);
}

static void section_short(struct outbuf *ob, struct report_dir *rd, const struct report_facts *f)
{
	const struct csv *c = report_dir_sheet(rd, "short_kernel_histogram");
	long c0 = report_col(c, "bin_start"), c1 = report_col(c, "bin_end"), cn = report_col(c, "count");
	double *v;
	struct hist_ctx h;

	if (c0 < 0 || c1 < 0 || cn < 0)
		return;
	html_section(ob, "short", "Short kernels");
	if (f->short_us > 0)
		html_printf(ob, "%.0f kernels shorter than %g \xc2\xb5s", f->short_count, f->short_us);
	else
		html_printf(ob, "%.0f short kernels", f->short_count);
	if (!isnan(f->kernel_count))
		html_printf(ob, " of %.0f", f->kernel_count);
	html_printf(ob, ", by duration.");
	v = xcalloc(3 * (c->nrows ? c->nrows : 1), sizeof(*v));
	for (size_t r = 0; r < c->nrows; r++) {
		v[r] = report_num(c, r, c0);
		v[c->nrows + r] = report_num(c, r, c1);
		v[2 * c->nrows + r] = report_num(c, r, cn);
	}
	h.lo = v, h.hi = v + c->nrows, h.count = v + 2 * c->nrows;
	chart_histogram(ob, "short", "Short-kernel histogram", h.lo, h.hi, h.count, c->nrows,
			"kernel duration (\xc2\xb5s)", hist_tip, &h);
	free(v);
	html_section_end(ob);
}

/* ---- why the GPU waits: tl-idle's summary, one row per rank ------------- */

static void section_idle(struct outbuf *ob, struct report_dir *rd)
{
	const char *cols[REPORT_IDLE_NCOLS];
	const struct csv *c = report_dir_sheet(rd, "idle/summary");
	long crank = report_col(c, "rank");

	if (crank < 0)
		return;
	for (size_t k = 0; k < REPORT_IDLE_NCOLS; k++)
		cols[k] = report_idle_cols[k].heading;
	html_section(ob, "idle", "Why the GPU waits");
	outbuf_puts(ob, "<p>HTA's breakdowns of the GPU's idle time; the tables are in "
		    "<code>idle/</code> (tl-idle(1)).</p>\n");
	html_table_begin(ob, "idle", cols, REPORT_IDLE_NCOLS);
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *rank = report_str(c, r, crank, &n);

		html_tr(ob);
		html_td_text(ob, rank, n, HTML_TD_TEXT);
		/* column 0 is the rank, the others numbers */
		for (size_t k = 1; k < REPORT_IDLE_NCOLS; k++) {
			const struct report_idle_col *ic = &report_idle_cols[k];
			double scale = ic->scale != 0 ? ic->scale : 1;

			html_td_num(ob, report_num(c, r, report_col(c, ic->col)) * scale, ic->prec);
		}
		html_tr_end(ob);
	}
	html_table_end(ob);
	html_section_end(ob);
}

/* ---- the page ---------------------------------------------------------- */

static void trace_page(struct report_dir *rd, struct outbuf *ob, const struct report_html_opts *o)
{
	static const char *const ids[] = { "breakdown", "strip", "categories", "ops", "kernels",
					   "roofline", "short", "idle" };
	static const char *const titles[] = { "breakdown", "timeline", "categories", "ops",
					      "kernels", "roofline", "short kernels", "why idle" };
	static const char *const sheets[] = { "gpu_timeline", "timeline_strip",
					      "ops_summary_by_category", "ops_summary",
					      "kernel_summary", "unified_perf_summary",
					      "short_kernel_histogram", "idle/summary" };
	const char *nid[8], *ntitle[8];
	size_t nn = 0;
	struct report_facts f;
	struct report_text t;
	struct cats cs;
	const struct csv *catsheet;
	char *verdict, *title;

	report_facts_get(&f, rd);
	t = report_title(rd, &f);
	catsheet = report_dir_sheet(rd, "ops_summary_by_category");
	cats_init(&cs, catsheet, report_col(catsheet, "op category"));
	title = xmalloc(t.n + 32);
	snprintf(title, t.n + 32, "tl report: %.*s", (int)(t.n > 200 ? 200 : t.n), t.s);
	html_begin(ob, title);
	free(title);
	report_html_title(ob, "Performance report: ", t.s, t.n);
	facts(ob, &f);
	if ((verdict = report_verdict(&f))) {
		outbuf_puts(ob, "<p class=\"verdict\"><b>Verdict.</b> ");
		html_str(ob, verdict);
		outbuf_puts(ob, "</p>\n");
		free(verdict);
	}
	/* links to the sections the folder's sheets give */
	for (size_t i = 0; i < 8; i++)
		if (i == 0 || report_dir_sheet(rd, sheets[i]))
			nid[nn] = ids[i], ntitle[nn++] = titles[i];
	report_html_nav(ob, nid, ntitle, nn);
	section_breakdown(ob, rd, &f);
	section_strip(ob, rd);
	section_categories(ob, &cs);
	section_ops(ob, rd, &cs);
	section_kernels(ob, rd, &cs);
	section_roofline(ob, rd, &cs, &f, o->arch);
	section_short(ob, rd, &f);
	section_idle(ob, rd);
	report_html_footer(ob);
	html_end(ob);
	cats_release(&cs);
}

int report_html_write(struct report_dir *rd, struct outbuf *ob, const struct report_html_opts *o)
{
	if (rd->kind == REPORT_JOB)
		report_html_job(rd, ob);
	else if (rd->kind == REPORT_DIFF)
		report_html_diff(rd, ob);
	else
		trace_page(rd, ob, o);
	return rd->bad ? 1 : 0;
}
