#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report_chart.h"
#include "report_html.h"
#include "report_job.h"
#include "report_md.h"
#include "xalloc.h"
#include "banned.h"

struct job_rank {
	const char *rank;
	size_t rank_len;
	double total, busy, idle, comp, xcomm, xmem, coll, wait, last;
	int straggler;
};

struct job {
	struct job_rank *r;
	size_t n;
	int coll_dir;		/* the collective sheets are in collectives/ */
	int timeline;		/* ranks.csv: per-rank GPU timelines */
	const struct csv *coll;	/* collectives/nccl_implicit_sync */
	size_t *slow;		/* its rows, slowest first */
	size_t nslow;
	double mean_total, mean_wait, mean_idle_pct;
	size_t most_wait, least_wait, most_idle, least_idle;
};

static int truthy(const char *s, size_t n)
{
	return (n == 1 && s[0] == '1') || (n == 4 && !memcmp(s, "True", 4)) ||
	       (n == 4 && !memcmp(s, "true", 4)) || (n == 3 && !memcmp(s, "yes", 3));
}

/*
 * Without ranks.csv (TraceLens's collective folder): the ranks of
 * straggler_summary.csv, their wait and late arrivals, no timeline; a
 * straggler as tl-ranks calls one: arrived last at max(1/2, 2/N) of the
 * collectives or more.
 */
static void read_stragglers(struct report_dir *rd, struct job *j)
{
	const struct csv *c = report_dir_sheet(rd, j->coll_dir ? "collectives/straggler_summary"
							   : "straggler_summary");
	long cr = report_col(c, "rank"), cw = report_col(c, "total_wait_time_us");
	long cl = report_col(c, "times_arrived_last"), cn = report_col(c, "num_collectives");

	j->n = c && cr >= 0 ? c->nrows : 0;
	j->r = xcalloc(j->n ? j->n : 1, sizeof(*j->r));
	for (size_t i = 0; i < j->n; i++) {
		struct job_rank *r = &j->r[i];
		double ncoll = report_num(c, i, cn), share = 2.0 / (double)j->n;
		r->rank = report_str(c, i, cr, &r->rank_len);
		r->total = r->busy = r->idle = r->comp = r->xcomm = r->xmem = r->coll = NAN;
		r->wait = report_num(c, i, cw);
		r->last = report_num(c, i, cl);
		r->straggler = ncoll > 0 && r->last / ncoll >= (share > 0.5 ? share : 0.5);
	}
}

static void read_ranks(struct report_dir *rd, struct job *j)
{
	static const char *const names[] = {
		"total_time_us", "busy_time_us", "idle_time_us", "computation_time_us",
		"exposed_comm_time_us", "exposed_memcpy_time_us", "collective_time_us",
		"wait_time_us", "arrived_last"
	};
	const struct csv *c = report_dir_sheet(rd, "ranks");
	long col[9], cr = report_col(c, "rank"), cs = report_col(c, "straggler");

	if (!c) {
		read_stragglers(rd, j);
		return;
	}
	j->n = c->nrows;
	j->r = xcalloc(j->n ? j->n : 1, sizeof(*j->r));
	for (int k = 0; k < 9; k++)
		col[k] = report_col(c, names[k]);
	for (size_t i = 0; i < j->n; i++) {
		struct job_rank *r = &j->r[i];
		double *v[9] = { &r->total, &r->busy, &r->idle, &r->comp, &r->xcomm, &r->xmem,
				 &r->coll, &r->wait, &r->last };
		size_t n;
		const char *s = report_str(c, i, cs, &n);
		r->rank = report_str(c, i, cr, &r->rank_len);
		r->straggler = truthy(s, n);
		for (int k = 0; k < 9; k++)
			*v[k] = report_num(c, i, col[k]);
	}
}

static const struct csv *sort_coll;	/* qsort has no context argument */
static long sort_skew, sort_lat;

static double coll_time(size_t r)
{
	double s = report_num(sort_coll, r, sort_skew), l = report_num(sort_coll, r, sort_lat);

	return (s > 0 ? s : 0) + (l > 0 ? l : 0);
}

static int cmp_slow(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double ta = coll_time(a), tb = coll_time(b);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The collectives by skew in start time + latency, slowest first. */
static void read_collectives(struct report_dir *rd, struct job *j)
{
	const struct csv *c = report_dir_sheet(rd, j->coll_dir ? "collectives/nccl_implicit_sync"
							   : "nccl_implicit_sync");

	j->coll = c;
	sort_skew = report_col(c, "skew in start time");
	sort_lat = report_col(c, "comm_latency");
	if (!c || sort_skew < 0 || sort_lat < 0) {
		j->coll = NULL;
		return;
	}
	j->slow = xmalloc((c->nrows ? c->nrows : 1) * sizeof(*j->slow));
	for (size_t r = 0; r < c->nrows; r++)
		j->slow[r] = r;
	sort_coll = c;
	qsort(j->slow, c->nrows, sizeof(*j->slow), cmp_slow);
	j->nslow = c->nrows < REPORT_JOB_COLLECTIVES ? c->nrows : REPORT_JOB_COLLECTIVES;
}

static void job_stats(struct job *j)
{
	double sw = 0, st = 0, si = 0;
	size_t nw = 0, nt = 0;

	for (size_t i = 0; i < j->n; i++) {
		const struct job_rank *r = &j->r[i];
		double idle = r->total > 0 ? r->idle / r->total * 100 : NAN;
		if (!isnan(r->wait)) {
			sw += r->wait, nw++;
			if (isnan(j->r[j->most_wait].wait) || r->wait > j->r[j->most_wait].wait)
				j->most_wait = i;
			if (isnan(j->r[j->least_wait].wait) || r->wait < j->r[j->least_wait].wait)
				j->least_wait = i;
		}
		if (!isnan(idle)) {
			const struct job_rank *a = &j->r[j->most_idle], *b = &j->r[j->least_idle];
			st += r->total, si += idle, nt++;
			if (!(a->idle / a->total * 100 >= idle))
				j->most_idle = i;
			if (!(b->idle / b->total * 100 <= idle))
				j->least_idle = i;
		}
	}
	j->mean_wait = nw ? sw / (double)nw : NAN;
	j->mean_total = nt ? st / (double)nt : NAN;
	j->mean_idle_pct = nt ? si / (double)nt : NAN;
}

static void job_read(struct report_dir *rd, struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->coll_dir = report_dir_has(rd, "collectives");
	j->timeline = report_dir_has(rd, "ranks.csv");
	read_ranks(rd, j);
	read_collectives(rd, j);
	job_stats(j);
}

static void job_free(struct job *j)
{
	free(j->r);
	free(j->slow);
}

/* ---- the verdict, as plain text ---------------------------------------- */

static void put_rank(struct outbuf *ob, const struct job_rank *r,
		     void (*text)(struct outbuf *, const char *, size_t))
{
	text(ob, r->rank, r->rank_len > 40 ? 40 : r->rank_len);
}

static void verdict(struct outbuf *ob, const struct job *j,
		    void (*text)(struct outbuf *, const char *, size_t))
{
	char buf[256];
	int any = 0;

	for (size_t i = 0; i < j->n; i++) {
		if (!j->r[i].straggler)
			continue;
		text(ob, any ? " Rank " : "Rank ", any ? 6 : 5);
		put_rank(ob, &j->r[i], text);
		snprintf(buf, sizeof(buf), " is a straggler: it arrived last at %.0f collectives "
			 "and waits %.3f ms, the others wait for it.", j->r[i].last,
			 j->r[i].wait / 1e3);
		text(ob, buf, strlen(buf));
		any = 1;
	}
	if (!isnan(j->mean_wait) && j->n) {
		snprintf(buf, sizeof(buf), "%sRanks wait %.3f ms on average in collectives",
			 any ? " " : "", j->mean_wait / 1e3);
		text(ob, buf, strlen(buf));
		if (j->mean_total > 0) {
			snprintf(buf, sizeof(buf), " (%.1f %% of the mean GPU span)",
				 j->mean_wait / j->mean_total * 100);
			text(ob, buf, strlen(buf));
		}
		text(ob, "; rank ", 7);
		put_rank(ob, &j->r[j->most_wait], text);
		snprintf(buf, sizeof(buf), " waits most (%.3f ms), rank ",
			 j->r[j->most_wait].wait / 1e3);
		text(ob, buf, strlen(buf));
		put_rank(ob, &j->r[j->least_wait], text);
		snprintf(buf, sizeof(buf), " least (%.3f ms).", j->r[j->least_wait].wait / 1e3);
		text(ob, buf, strlen(buf));
		any = 1;
	}
	if (!isnan(j->mean_idle_pct)) {
		const struct job_rank *a = &j->r[j->least_idle], *b = &j->r[j->most_idle];
		snprintf(buf, sizeof(buf), "%sGPU idle time ranges from %.1f %% (rank ", any ? " " : "",
			 a->idle / a->total * 100);
		text(ob, buf, strlen(buf));
		put_rank(ob, a, text);
		snprintf(buf, sizeof(buf), ") to %.1f %% (rank ", b->idle / b->total * 100);
		text(ob, buf, strlen(buf));
		put_rank(ob, b, text);
		text(ob, ").", 2);
	}
}

/* ---- HTML -------------------------------------------------------------- */

struct job_ctx {
	const struct job *j;
	struct chart_stack *rows;
};

static void rank_tip(struct svg *g, void *ctx, size_t i)
{
	const struct job_ctx *c = ctx;
	const struct chart_stack *r = &c->rows[i / 4];
	int k = (int)(i % 4);
	double total = r->v[0] + r->v[1] + r->v[2] + r->v[3];

	svg_tip(g, r->label, r->label_len);
	svg_tipf(g, "\n%s: %.3f ms, %.1f %% of %.3f ms", chart_class_name[k], r->v[k] / 1e3,
		 total > 0 ? r->v[k] / total * 100 : 0, total / 1e3);
}

static void rank_label(char *buf, size_t size, const struct job_rank *r)
{
	snprintf(buf, size, "rank %.*s%s", (int)(r->rank_len > 40 ? 40 : r->rank_len), r->rank,
		 r->straggler ? " (straggler)" : "");
}

static void section_ranks(struct outbuf *ob, const struct job *j)
{
	struct chart_stack *rows = xcalloc(j->n ? j->n : 1, sizeof(*rows));
	char (*labels)[64] = xcalloc(j->n ? j->n : 1, sizeof(*labels));
	struct job_ctx ctx = { j, rows };

	html_section(ob, "ranks", "GPU timeline per rank");
	if (!j->timeline) {
		report_html_note(ob, "No ranks.csv in this folder (TraceLens's collective sheets "
				 "alone): no per-rank GPU timeline to draw.");
		free(rows);
		free(labels);
		html_section_end(ob);
		return;
	}
	for (size_t i = 0; i < j->n; i++) {
		const struct job_rank *r = &j->r[i];
		rank_label(labels[i], sizeof(labels[i]), r);
		rows[i].label = labels[i];
		rows[i].label_len = strlen(labels[i]);
		rows[i].v[0] = r->comp, rows[i].v[1] = r->xcomm, rows[i].v[2] = r->xmem;
		rows[i].v[3] = r->idle;
		snprintf(rows[i].right, sizeof(rows[i].right), "%.3f ms", r->total / 1e3);
	}
	html_legend(ob, chart_class_name, chart_class_color, 4);
	chart_stacked(ob, "ranks", "GPU timeline per rank", rows, j->n, 4, chart_class_color,
		      rank_tip, &ctx);
	report_html_note(ob, "Each rank's GPU span split as in its own report; bars share one "
			 "scale, so a longer bar is a longer span.");
	free(rows);
	free(labels);
	html_section_end(ob);
}

struct wait_ctx {
	const struct job *j;
};

static void wait_tip(struct svg *g, void *ctx, size_t i)
{
	const struct job_rank *r = &((const struct wait_ctx *)ctx)->j->r[i];

	svg_tipf(g, "rank ");
	svg_tip(g, r->rank, r->rank_len > 40 ? 40 : r->rank_len);
	svg_tipf(g, "\nwaits %.3f ms in collectives, arrived last %.0f times%s", r->wait / 1e3,
		 r->last, r->straggler ? "\nstraggler" : "");
}

static void section_wait(struct outbuf *ob, const struct job *j)
{
	struct chart_bar *bars = xcalloc(j->n ? j->n : 1, sizeof(*bars));
	char (*labels)[64] = xcalloc(j->n ? j->n : 1, sizeof(*labels));
	struct wait_ctx ctx = { j };

	html_section(ob, "wait", "Wait time and late arrivals per rank");
	for (size_t i = 0; i < j->n; i++) {
		const struct job_rank *r = &j->r[i];
		rank_label(labels[i], sizeof(labels[i]), r);
		bars[i].name = labels[i];
		bars[i].name_len = strlen(labels[i]);
		bars[i].v = r->wait / 1e3;
		bars[i].color = r->straggler ? chart_class_color[1] : chart_class_color[0];
		snprintf(bars[i].right, sizeof(bars[i].right), "%.3f ms \xc2\xb7 arrived last %.0f\xc3\x97",
			 r->wait / 1e3, r->last);
	}
	report_html_note(ob, "Time each rank spends waiting in collectives for the others to "
			 "arrive; the rank that arrives last waits least and makes the others wait.");
	chart_bars(ob, "wait", "Wait time per rank", bars, j->n, CHART_NAMES_LEFT, wait_tip, &ctx);
	free(bars);
	free(labels);
	html_section_end(ob);
}

struct coll_ctx {
	const struct job *j;
	struct chart_stack *rows;
};

static void coll_tip(struct svg *g, void *ctx, size_t i)
{
	const struct coll_ctx *c = ctx;
	const struct csv *s = c->j->coll;
	size_t r = c->j->slow[i / 2], n;
	const char *e = report_str(s, r, report_col(s, "earliest arrival rank"), &n);

	svg_tip(g, c->rows[i / 2].label, c->rows[i / 2].label_len);
	svg_tipf(g, "\n%s: %.3f \xc2\xb5s", i % 2 ? "comm latency" : "skew in start time",
		 c->rows[i / 2].v[i % 2]);
	svg_tipf(g, "\nskew in end time %.3f \xc2\xb5s, mean wait %.3f \xc2\xb5s, earliest rank ",
		 report_num(s, r, report_col(s, "skew in end time")),
		 report_num(s, r, report_col(s, "avg_wait_time")));
	svg_tip_name(g, e, n);
}

static void coll_label(char *buf, size_t size, const struct csv *c, size_t r)
{
	size_t ni, nn;
	const char *id = report_str(c, r, report_col(c, "collective_id"), &ni);
	const char *name = report_str(c, r, report_col(c, "Collective name"), &nn);
	double mb = report_num(c, r, report_col(c, "Full msg size (MB)"));

	ni = ni > 24 ? 24 : ni, nn = nn > 40 ? 40 : nn;
	if (!nn)
		name = "(no name in the trace)", nn = strlen(name);
	if (isnan(mb))
		snprintf(buf, size, "#%.*s %.*s", (int)ni, id, (int)nn, name);
	else
		snprintf(buf, size, "#%.*s %.*s %.3g MB", (int)ni, id, (int)nn, name, mb);
}

static void section_collectives(struct outbuf *ob, const struct job *j)
{
	static const char *const names[2] = { "skew in start time", "comm latency" };
	static const char *const colors[2] = { "#e15759", "#4e79a7" };
	struct chart_stack *rows;
	char (*labels)[96];
	struct coll_ctx ctx;

	html_section(ob, "collectives", "Slowest collectives");
	if (!j->coll) {
		report_html_note(ob, "No nccl_implicit_sync.csv in this folder.");
		html_section_end(ob);
		return;
	}
	rows = xcalloc(j->nslow ? j->nslow : 1, sizeof(*rows));
	labels = xcalloc(j->nslow ? j->nslow : 1, sizeof(*labels));
	for (size_t i = 0; i < j->nslow; i++) {
		size_t r = j->slow[i];
		coll_label(labels[i], sizeof(labels[i]), j->coll, r);
		rows[i].label = labels[i];
		rows[i].label_len = strlen(labels[i]);
		rows[i].v[0] = report_num(j->coll, r, sort_skew);
		rows[i].v[1] = report_num(j->coll, r, sort_lat);
		snprintf(rows[i].right, sizeof(rows[i].right), "%.1f \xc2\xb5s",
			 (rows[i].v[0] > 0 ? rows[i].v[0] : 0) + (rows[i].v[1] > 0 ? rows[i].v[1] : 0));
	}
	ctx.j = j, ctx.rows = rows;
	outbuf_puts(ob, "<p class=\"note\">");
	html_printf(ob, "The %zu of %zu collectives with the largest skew in start time plus "
		    "latency (\xc2\xb5s): the skew is how long the first rank waited for the last.",
		    j->nslow, j->coll->nrows);
	outbuf_puts(ob, "</p>\n");
	html_legend(ob, names, colors, 2);
	chart_stacked(ob, "collectives", "Slowest collectives", rows, j->nslow, 2, colors,
		      coll_tip, &ctx);
	free(rows);
	free(labels);
	html_section_end(ob);
}

static void ranks_table(struct outbuf *ob, struct report_dir *rd, const struct job *j)
{
	static const char *const cols[] = {
		"rank", "n:GPU span (ms)", "n:busy %", "n:computation (ms)",
		"n:exposed comm (ms)", "n:exposed memcpy (ms)", "n:idle %", "n:wait (ms)",
		"n:arrived last", "straggler", "report"
	};
	char path[96];

	html_section(ob, "table", "Ranks");
	html_table_begin(ob, "t-ranks", cols, 11);
	for (size_t i = 0; i < j->n; i++) {
		const struct job_rank *r = &j->r[i];
		html_tr(ob);
		html_td_text(ob, r->rank, r->rank_len, HTML_TD_TEXT);
		html_td_num(ob, r->total / 1e3, 3);
		html_td_num(ob, r->total > 0 ? r->busy / r->total * 100 : NAN, 1);
		html_td_num(ob, r->comp / 1e3, 3);
		html_td_num(ob, r->xcomm / 1e3, 3);
		html_td_num(ob, r->xmem / 1e3, 3);
		html_td_num(ob, r->total > 0 ? r->idle / r->total * 100 : NAN, 1);
		html_td_num(ob, r->wait / 1e3, 3);
		html_td_num(ob, r->last, 0);
		html_td_text(ob, r->straggler ? "yes" : "", r->straggler ? 3 : 0, HTML_TD_TEXT);
		/* a link only to a page that is there, and only for a plain rank number */
		snprintf(path, sizeof(path), "rank_%.*s/report.html", (int)(r->rank_len > 20 ? 20 : r->rank_len),
			 r->rank);
		if (r->rank_len && strspn(r->rank, "0123456789") >= r->rank_len && r->rank_len <= 20 &&
		    report_dir_has(rd, path)) {
			outbuf_puts(ob, "<td><a href=\"");
			html_str(ob, path);
			outbuf_puts(ob, "\">page</a></td>");
		} else {
			outbuf_puts(ob, "<td></td>");
		}
		html_tr_end(ob);
	}
	html_table_end(ob);
	html_section_end(ob);
}

static void job_facts_html(struct outbuf *ob, struct report_dir *rd, const struct job *j)
{
	size_t n = 0;
	const char *dev = NULL;
	const struct csv *info = report_dir_sheet(rd, "rank_0/report_info");
	long ck = report_col(info, "key"), cv = report_col(info, "value");

	for (size_t r = 0; ck >= 0 && cv >= 0 && r < info->nrows; r++) {
		size_t kn;
		const char *k = report_str(info, r, ck, &kn);
		if (kn == 6 && !memcmp(k, "device", 6))
			dev = report_str(info, r, cv, &n);
	}
	outbuf_puts(ob, "<p class=\"facts\">");
	html_printf(ob, "%zu ranks", j->n);
	if (dev && n) {
		outbuf_puts(ob, " &middot; <b>GPU</b> ");
		html_text(ob, dev, n);
		outbuf_puts(ob, " (rank 0)");
	}
	if (!isnan(j->mean_total))
		html_printf(ob, " \xc2\xb7 mean GPU span %.3f ms", j->mean_total / 1e3);
	if (j->coll)
		html_printf(ob, " \xc2\xb7 %zu collectives", j->coll->nrows);
	outbuf_puts(ob, "</p>\n");
}

static void html_textz(struct outbuf *ob, const char *s, size_t n)
{
	html_text(ob, s, n);
}

void report_html_job(struct report_dir *rd, struct outbuf *ob)
{
	static const char *const ids[] = { "ranks", "wait", "collectives", "table" };
	static const char *const titles[] = { "per rank", "wait time", "slowest collectives",
					      "ranks table" };
	const char *name = report_dir_name(rd);
	struct job j;
	char title[300];

	job_read(rd, &j);
	snprintf(title, sizeof(title), "tl job report: %.200s", name);
	html_begin(ob, title);
	report_html_title(ob, "Job report: ", name, strlen(name));
	job_facts_html(ob, rd, &j);
	outbuf_puts(ob, "<p class=\"verdict\"><b>Verdict.</b> ");
	verdict(ob, &j, html_textz);
	outbuf_puts(ob, "</p>\n");
	report_html_nav(ob, ids, titles, 4);
	section_ranks(ob, &j);
	section_wait(ob, &j);
	section_collectives(ob, &j);
	ranks_table(ob, rd, &j);
	report_html_footer(ob);
	html_end(ob);
	job_free(&j);
}

/* ---- Markdown ---------------------------------------------------------- */

static void md_collectives(struct outbuf *ob, const struct job *j)
{
	size_t n = j->nslow < 10 ? j->nslow : 10;

	if (!j->coll)
		return;
	outbuf_printf(ob, "\n## The %zu slowest of %zu collectives\n\nTimes in µs; slowest by "
		      "skew in start time plus latency.\n\n| collective | size (MB) | skew in "
		      "start time (µs) | latency (µs) | skew in end time (µs) | mean wait (µs) |\n"
		      "|---|---:|---:|---:|---:|---:|\n", n, j->coll->nrows);
	for (size_t i = 0; i < n; i++) {
		size_t r = j->slow[i];
		char label[96];
		coll_label(label, sizeof(label), j->coll, r);
		outbuf_puts(ob, "| ");
		md_text(ob, label, strlen(label));
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(j->coll, r, report_col(j->coll, "Full msg size (MB)")), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(j->coll, r, sort_skew), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(j->coll, r, sort_lat), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(j->coll, r, report_col(j->coll, "skew in end time")), 3);
		outbuf_puts(ob, " | ");
		md_num(ob, report_num(j->coll, r, report_col(j->coll, "avg_wait_time")), 3);
		outbuf_puts(ob, " |\n");
	}
}

int report_md_job(struct report_dir *rd, struct outbuf *ob)
{
	const char *name = report_dir_name(rd);
	struct job j;

	job_read(rd, &j);
	outbuf_puts(ob, "# Job report: ");
	md_text(ob, name, strlen(name));
	if (j.timeline)
		outbuf_printf(ob, "\n\n- %zu ranks; each rank's report is in rank_K/\n", j.n);
	else
		outbuf_printf(ob, "\n\n- %zu ranks (TraceLens's collective sheets: no per-rank "
			      "GPU timeline)\n", j.n);
	outbuf_puts(ob, "\n**Verdict.** ");
	verdict(ob, &j, md_text);
	outbuf_puts(ob, "\n\n## Ranks\n\nTimes in ms; busy and idle in % of the rank's GPU span.\n\n"
		    "| rank | GPU span (ms) | busy % | computation (ms) | exposed comm (ms) | "
		    "exposed memcpy (ms) | idle % | wait (ms) | arrived last | straggler |\n"
		    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i < j.n; i++) {
		const struct job_rank *r = &j.r[i];
		outbuf_puts(ob, "| ");
		md_text(ob, r->rank, r->rank_len);
		outbuf_puts(ob, " | ");
		md_num(ob, r->total / 1e3, 3);
		outbuf_puts(ob, " | ");
		md_num(ob, r->total > 0 ? r->busy / r->total * 100 : NAN, 1);
		outbuf_puts(ob, " | ");
		md_num(ob, r->comp / 1e3, 3);
		outbuf_puts(ob, " | ");
		md_num(ob, r->xcomm / 1e3, 3);
		outbuf_puts(ob, " | ");
		md_num(ob, r->xmem / 1e3, 3);
		outbuf_puts(ob, " | ");
		md_num(ob, r->total > 0 ? r->idle / r->total * 100 : NAN, 1);
		outbuf_puts(ob, " | ");
		md_num(ob, r->wait / 1e3, 3);
		outbuf_puts(ob, " | ");
		md_num(ob, r->last, 0);
		outbuf_puts(ob, r->straggler ? " | yes |\n" : " |  |\n");
	}
	md_collectives(ob, &j);
	job_free(&j);
	return rd->bad ? 1 : 0;
}
