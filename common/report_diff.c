#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report_chart.h"
#include "report_diff.h"
#include "report_html.h"
#include "report_md.h"
#include "report_name.h"
#include "xalloc.h"
#include "banned.h"

struct diff_op {
	const char *name;
	size_t len;
	double t[2];		/* kernel time per side, µs */
	size_t n[2];		/* kernels per side */
};

struct diff {
	struct diff_op *op;
	size_t n;
	const char *side[2];	/* the source column's two values */
	size_t side_len[2];
	double total[2];
	size_t rows;
};

static const struct csv *sort_c;	/* qsort has no context argument */
static long sort_col;

static int cmp_row_name(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb, na, nb;
	const char *sa = report_str(sort_c, a, sort_col, &na);
	const char *sb = report_str(sort_c, b, sort_col, &nb);
	int c = memcmp(sa, sb, na < nb ? na : nb);

	if (c)
		return c;
	if (na != nb)
		return na < nb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int cmp_change(const void *pa, const void *pb)
{
	const struct diff_op *a = pa, *b = pb;
	double da = fabs(a->t[1] - a->t[0]), db = fabs(b->t[1] - b->t[0]);
	size_t m = a->len < b->len ? a->len : b->len;
	int c;

	if (da != db)
		return da > db ? -1 : 1;
	c = memcmp(a->name, b->name, m);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Which side a row is on: TraceDiff's "trace1" and "trace2", else the first value seen is side 0. */
static int side_of(struct diff *d, const char *s, size_t n)
{
	if (n == 6 && (!memcmp(s, "trace1", 6) || !memcmp(s, "trace2", 6))) {
		int k = s[5] - '1';
		if (!d->side[k])
			d->side[k] = s, d->side_len[k] = n;
		return k;
	}
	for (int k = 0; k < 2; k++) {
		if (!d->side[k]) {
			d->side[k] = s, d->side_len[k] = n;
			return k;
		}
		if (d->side_len[k] == n && !memcmp(d->side[k], s, n))
			return k;
	}
	return -1;
}

/* Kernel time per op name and side: rows sorted by name, then summed. */
static void diff_read(struct report_dir *rd, struct diff *d)
{
	const struct csv *c = report_dir_sheet(rd, "diff_stats");
	long cn = report_col(c, "cpu_op_name"), cs = report_col(c, "source");
	long ct = report_col(c, "kernel_time");
	size_t *order, alloc = 0;

	memset(d, 0, sizeof(*d));
	if (cn < 0 || cs < 0 || ct < 0)
		return;
	d->rows = c->nrows;
	order = xmalloc((c->nrows ? c->nrows : 1) * sizeof(*order));
	for (size_t r = 0; r < c->nrows; r++)
		order[r] = r;
	sort_c = c, sort_col = cn;
	qsort(order, c->nrows, sizeof(*order), cmp_row_name);
	for (size_t i = 0; i < c->nrows; i++) {
		size_t r = order[i], len, sl;
		const char *name = report_str(c, r, cn, &len), *src = report_str(c, r, cs, &sl);
		double t = report_num(c, r, ct);
		int k = side_of(d, src, sl);
		if (!d->n || d->op[d->n - 1].len != len || memcmp(d->op[d->n - 1].name, name, len)) {
			xgrow((void **)&d->op, &alloc, d->n + 1, sizeof(*d->op));
			memset(&d->op[d->n], 0, sizeof(d->op[d->n]));
			d->op[d->n].name = name, d->op[d->n].len = len;
			d->n++;
		}
		if (k < 0 || !(t >= 0))
			continue;
		d->op[d->n - 1].t[k] += t;
		d->op[d->n - 1].n[k]++;
		d->total[k] += t;
	}
	qsort(d->op, d->n, sizeof(*d->op), cmp_change);
	free(order);
}

static const char *side_name(int k)
{
	return k ? "trace2" : "trace1";
}

/* ---- HTML -------------------------------------------------------------- */

struct pair_ctx {
	const struct diff *d;
	struct report_names *rn;
};

static void pair_tip(struct svg *g, void *ctx, size_t i)
{
	const struct pair_ctx *c = ctx;
	const struct diff_op *o = &c->d->op[i / 2];
	int k = (int)(i % 2);

	svg_tip_name(g, c->rn->s[i / 2], c->rn->n[i / 2]);
	svg_tipf(g, "\n");
	if (c->d->side[k])
		svg_tip(g, c->d->side[k], c->d->side_len[k] > 100 ? 100 : c->d->side_len[k]);
	else
		svg_tipf(g, "%s", side_name(k));
	svg_tipf(g, ": %.3f \xc2\xb5s in %zu kernels\nchange %+.3f \xc2\xb5s", o->t[k], o->n[k],
		 o->t[1] - o->t[0]);
}

static void diff_facts(struct outbuf *ob, const struct diff *d, int md)
{
	for (int k = 0; k < 2; k++) {
		const char *s = d->side[k] ? d->side[k] : side_name(k);
		size_t n = d->side[k] ? d->side_len[k] : 6;
		if (md) {
			outbuf_puts(ob, "- ");
			md_text(ob, s, n > 100 ? 100 : n);
			outbuf_printf(ob, ": %.3f µs of GPU kernel time under the points of "
				      "difference\n", d->total[k]);
		} else {
			outbuf_puts(ob, k ? " &middot; <b>" : "<p class=\"facts\"><b>");
			html_text(ob, s, n > 100 ? 100 : n);
			outbuf_puts(ob, "</b> ");
			html_printf(ob, "%.3f \xc2\xb5s", d->total[k]);
		}
	}
	if (!md)
		html_printf(ob, " of GPU kernel time under the points of difference (%zu rows of "
			    "diff_stats.csv)", d->rows);
	if (!md)
		outbuf_puts(ob, "</p>\n");
}

static void diff_table(struct outbuf *ob, const struct diff *d)
{
	static const char *const cols[] = {
		"op", "n:trace1 (\xc2\xb5s)", "n:trace2 (\xc2\xb5s)", "n:change (\xc2\xb5s)",
		"n:change %", "n:kernels 1", "n:kernels 2"
	};

	html_section(ob, "table", "Ops by change");
	html_table_begin(ob, "t-diff", cols, 7);
	for (size_t i = 0; i < d->n && i < REPORT_HTML_ROWS; i++) {
		const struct diff_op *o = &d->op[i];
		html_tr(ob);
		html_td_text(ob, o->name, o->len, HTML_TD_NAME);
		html_td_num(ob, o->t[0], 3);
		html_td_num(ob, o->t[1], 3);
		html_td_num(ob, o->t[1] - o->t[0], 3);
		html_td_num(ob, o->t[0] > 0 ? (o->t[1] - o->t[0]) / o->t[0] * 100 : NAN, 1);
		html_td_num(ob, (double)o->n[0], 0);
		html_td_num(ob, (double)o->n[1], 0);
		html_tr_end(ob);
	}
	html_table_end(ob);
	html_section_end(ob);
}

void report_html_diff(struct report_dir *rd, struct outbuf *ob)
{
	static const char *const ids[] = { "changed", "table" };
	static const char *const titles[] = { "ops that changed most", "table" };
	static const char *const colors[2] = { "#4e79a7", "#f28e2b" };
	const char *sides[2];
	size_t n;
	struct diff d;
	struct chart_pair *p;
	struct report_names rn = { 0 };
	struct pair_ctx ctx;

	diff_read(rd, &d);
	n = d.n < REPORT_DIFF_BARS ? d.n : REPORT_DIFF_BARS;
	html_begin(ob, "tl diff report: trace1 vs trace2");
	report_html_title(ob, "Trace diff: ", "trace1 vs trace2", 16);
	diff_facts(ob, &d, 0);
	report_html_nav(ob, ids, titles, 2);
	html_section(ob, "changed", "Ops whose GPU kernel time changed most");
	report_html_note(ob, "Kernel time (\xc2\xb5s) under each op (cpu_op_name of "
			 "diff_stats.csv) on both sides, the largest changes first.");
	p = xcalloc(n ? n : 1, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		report_names_add(&rn, d.op[i].name, d.op[i].len);
	for (size_t i = 0; i < n; i++) {
		const struct diff_op *o = &d.op[i];
		p[i].name = rn.s[i], p[i].name_len = rn.n[i];
		p[i].a = o->t[0], p[i].b = o->t[1];
		if (o->t[0] > 0)
			snprintf(p[i].right, sizeof(p[i].right), "%+.3f \xc2\xb5s (%+.1f %%)",
				 o->t[1] - o->t[0], (o->t[1] - o->t[0]) / o->t[0] * 100);
		else
			snprintf(p[i].right, sizeof(p[i].right), "%+.3f \xc2\xb5s", o->t[1] - o->t[0]);
	}
	for (int k = 0; k < 2; k++)
		sides[k] = side_name(k);
	html_legend(ob, sides, colors, 2);
	ctx.d = &d, ctx.rn = &rn;
	chart_pairs(ob, "changed", "Ops whose GPU kernel time changed most", p, n, pair_tip,
		    &ctx);
	html_section_end(ob);
	diff_table(ob, &d);
	report_html_footer(ob);
	html_end(ob);
	report_names_release(&rn);
	free(p);
	free(d.op);
}

/* ---- Markdown ---------------------------------------------------------- */

int report_md_diff(struct report_dir *rd, struct outbuf *ob)
{
	struct diff d;
	struct report_names rn = { 0 };
	size_t n;

	diff_read(rd, &d);
	n = d.n < 10 ? d.n : 10;
	outbuf_puts(ob, "# Trace diff: trace1 vs trace2\n\n");
	diff_facts(ob, &d, 1);
	for (size_t i = 0; i < n; i++)
		report_names_add(&rn, d.op[i].name, d.op[i].len);
	report_names_cut(&rn, REPORT_NAME_CHARS);
	outbuf_printf(ob, "\n## The %zu ops whose GPU kernel time changed most\n\nKernel time "
		      "in µs under each op on both sides.\n\n| op | trace1 (µs) | trace2 (µs) | "
		      "change (µs) | change %% |\n|---|---:|---:|---:|---:|\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct diff_op *o = &d.op[i];
		outbuf_puts(ob, "| ");
		md_code(ob, rn.s[i], rn.n[i], rn.cut[i]);
		outbuf_puts(ob, " | ");
		md_num(ob, o->t[0], 3);
		outbuf_puts(ob, " | ");
		md_num(ob, o->t[1], 3);
		outbuf_puts(ob, " | ");
		outbuf_printf(ob, "%+.3f", o->t[1] - o->t[0]);
		outbuf_puts(ob, " | ");
		md_num(ob, o->t[0] > 0 ? (o->t[1] - o->t[0]) / o->t[0] * 100 : NAN, 1);
		outbuf_puts(ob, " |\n");
	}
	report_names_release(&rn);
	free(d.op);
	return rd->bad ? 1 : 0;
}
