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
#include "sort.h"
#include "strpool.h"
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
	struct strpool *sp;	/* the text of names and sources */
};

/* What the page takes of a row of diff_stats.csv. */
struct diff_row {
	uint32_t name, src;	/* in d->sp */
	double t;
};

static const struct strpool *sort_sp;	/* qsort has no context argument */

static int cmp_name(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	size_t na = strpool_len(sort_sp, a), nb = strpool_len(sort_sp, b);
	int c = memcmp(strpool_str(sort_sp, a), strpool_str(sort_sp, b), na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
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

/* The distinct names of the rows, sorted by their bytes; *nnames of them. */
static uint32_t *sorted_names(const struct diff *d, const struct diff_row *row, size_t nrow,
			      size_t *nnames)
{
	uint8_t *seen = xcalloc(strpool_count(d->sp), 1);
	uint32_t *names = xmalloc((nrow ? nrow : 1) * sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; i < nrow; i++)
		if (!seen[row[i].name]) {
			seen[row[i].name] = 1;
			names[n++] = row[i].name;
		}
	sort_sp = d->sp;
	tl_qsort(names, n, sizeof(*names), cmp_name);
	free(seen);
	*nnames = n;
	return names;
}

/*
 * Kernel time per op name and side, summed name by name in byte order and,
 * within a name, in the order of the rows (so the totals' last digits do
 * not depend on how the rows were read).
 */
static void diff_sum(struct diff *d, const struct diff_row *row, size_t nrow)
{
	size_t nnames, *first, *order;
	uint32_t *names = sorted_names(d, row, nrow, &nnames);
	uint32_t *rank = xcalloc(strpool_count(d->sp), sizeof(*rank));

	/* the rows grouped by name, in order within a group (a counting sort) */
	first = xcalloc(nnames + 1, sizeof(*first));
	order = xmalloc((nrow ? nrow : 1) * sizeof(*order));
	for (size_t g = 0; g < nnames; g++)
		rank[names[g]] = (uint32_t)g;
	for (size_t i = 0; i < nrow; i++)
		first[rank[row[i].name] + 1]++;
	for (size_t g = 0; g < nnames; g++)
		first[g + 1] += first[g];
	for (size_t i = 0; i < nrow; i++)
		order[first[rank[row[i].name]]++] = i;
	d->rows = nrow;
	d->op = xcalloc(nnames ? nnames : 1, sizeof(*d->op));
	for (size_t g = 0, i = 0; g < nnames; g++) {
		struct diff_op *o = &d->op[d->n++];
		o->name = strpool_str(d->sp, names[g]);
		o->len = strpool_len(d->sp, names[g]);
		for (; i < first[g]; i++) {
			const struct diff_row *w = &row[order[i]];
			int k = side_of(d, strpool_str(d->sp, w->src), strpool_len(d->sp, w->src));
			if (k < 0 || !(w->t >= 0))
				continue;
			o->t[k] += w->t;
			o->n[k]++;
			d->total[k] += w->t;
		}
	}
	tl_qsort(d->op, d->n, sizeof(*d->op), cmp_change);
	free(names);
	free(rank);
	free(first);
	free(order);
}

/*
 * diff_stats.csv a row at a time (on a big trace it is hundreds of MB,
 * for a page of a few kB): the name, source and kernel time of each row.
 */
static void diff_read(struct report_dir *rd, struct diff *d)
{
	struct csv_rows *r = report_dir_rows(rd, "diff_stats");
	struct diff_row *row = NULL;
	size_t nrow = 0, alloc = 0;
	long cn, cs, ct;
	int k = 0;

	memset(d, 0, sizeof(*d));
	d->sp = strpool_new();
	if (!r)
		return;
	cn = csv_col(csv_rows_head(r), "cpu_op_name");
	cs = csv_col(csv_rows_head(r), "source");
	ct = csv_col(csv_rows_head(r), "kernel_time");
	while (cn >= 0 && cs >= 0 && ct >= 0 && (k = csv_rows_next(r)) > 0) {
		const struct csv_field *n = csv_rows_field(r, (size_t)cn);
		const struct csv_field *s = csv_rows_field(r, (size_t)cs);
		const struct csv_field *t = csv_rows_field(r, (size_t)ct);
		xgrow((void **)&row, &alloc, nrow + 1, sizeof(*row));
		row[nrow].name = strpool_intern(d->sp, n->s, n->n);
		row[nrow].src = strpool_intern(d->sp, s->s, s->n);
		row[nrow].t = report_num_text(t->s, t->n);
		nrow++;
	}
	csv_rows_close(r);
	if (k < 0)
		rd->bad = 1;	/* drawn without the sheet, as one that could not be read */
	else
		diff_sum(d, row, nrow);
	free(row);
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
	strpool_free(d.sp);
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
	strpool_free(d.sp);
	return rd->bad ? 1 : 0;
}
