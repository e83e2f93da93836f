#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "idle_breakdown.h"
#include "idle_kind.h"
#include "idle_launch.h"
#include "idle_queue.h"
#include "idle_report.h"
#include "idle_trace.h"
#include "idle_wait.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "outbuf.h"
#include "py_fmt.h"
#include "xalloc.h"
#include "banned.h"

int idle_ranks_parse(struct idle_opts *o, const char *arg)
{
	const char *p = arg;

	if (!strcmp(arg, "all")) {
		o->all_ranks = 1;
		return 0;
	}
	while (*p) {
		char *end;
		long r = strtol(p, &end, 10);
		if (end == p || r < 0 || (*end && *end != ','))
			return -1;
		o->ranks = xrealloc(o->ranks, st_mult(o->nranks + 1, sizeof(long)));
		o->ranks[o->nranks++] = r;
		p = *end ? end + 1 : end;
	}
	return o->nranks ? 0 : -1;
}

void idle_opts_release(struct idle_opts *o)
{
	free(o->ranks);
	o->ranks = NULL;
	o->nranks = 0;
}

int idle_mkdirs(const char *dir)
{
	char *p = xstrdup(dir);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			tl_warn_errno("%s: cannot make the folder", p);
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST) {
		tl_warn_errno("%s: cannot make the folder", p);
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

static struct outbuf *open_csv(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = xmalloc(n);
	struct outbuf *ob;

	memcpy(path, dir, strlen(dir));
	path[strlen(dir)] = '/';
	memcpy(path + strlen(dir) + 1, name, strlen(name) + 1);
	ob = outbuf_open_path(path);
	free(path);
	return ob;
}

/* A number of a column pandas typed int64 (7) or float64 (7.0). */
static void num(struct outbuf *ob, double x, int is_int)
{
	if (is_int && x == x && fabs(x) < 9.2e18)
		outbuf_i64(ob, (int64_t)x);
	else
		csv_float(ob, x);
}

static void sep_num(struct outbuf *ob, double x, int is_int)
{
	outbuf_putc(ob, ',');
	num(ob, x, is_int);
}

/* end = ts + dur is int64 only when both columns are */
static int int_times(const struct idle_trace *t)
{
	return t->ts_type == IDLE_INT && t->dur_type == IDLE_INT;
}

/* The traces whose idle breakdown and launch statistics are written. */
static int selected(const struct idle_set *set, const struct idle_opts *o, size_t **out,
		    size_t *n)
{
	*n = 0;
	*out = xmalloc(st_mult(set->n + 1, sizeof(size_t)));
	if (o->all_ranks || (!o->nranks && set->n == 1)) {
		for (size_t i = 0; i < set->n; i++)
			(*out)[(*n)++] = i;
		return 0;
	}
	if (!o->nranks) {	/* HTA's default ranks=[0]; the lowest rank without one */
		size_t i;
		for (i = 0; i < set->n && set->t[i].rank != 0; i++)
			;
		(*out)[(*n)++] = i < set->n ? i : 0;
		return 0;
	}
	for (size_t k = 0; k < o->nranks; k++) {
		size_t i;
		for (i = 0; i < set->n && set->t[i].rank != o->ranks[k]; i++)
			;
		if (i == set->n) {
			tl_warn("no trace for rank %ld", o->ranks[k]);
			return -1;
		}
		(*out)[(*n)++] = i;
	}
	return 0;
}

/* Everything the files need of one rank, computed once. */
struct rank_res {
	struct idle_breakdown b;
	struct idle_launch *l;
	size_t nl;
	struct idle_wait_row *w;
	size_t nw;
	struct idle_qpoint *q;	/* NULL where HTA's assertion fails */
	size_t nq;
};

static struct rank_res *compute(struct idle_set *set, const struct idle_opts *o)
{
	struct rank_res *r = xcalloc(set->n + 1, sizeof(*r));

	for (size_t i = 0; i < set->n; i++) {
		const struct idle_trace *t = &set->t[i];
		idle_breakdown_run(set, t, &r[i].b);
		r[i].l = idle_launches(set, t, &r[i].nl);
		r[i].w = idle_wait_breakdown(set, t, o->kernel_delay, &r[i].nw);
		r[i].q = idle_queue_series(set, t, &r[i].nq);
	}
	return r;
}

static void release(struct rank_res *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].l);
		free(r[i].w);
		free(r[i].q);
	}
	free(r);
}

static void write_temporal(struct idle_set *set, const struct rank_res *res, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "temporal_breakdown.csv");

	outbuf_puts(ob, "rank,idle_time(us),compute_time(us),non_compute_time(us),"
		    "kernel_time(us),idle_time_pctg,compute_time_pctg,non_compute_time_pctg\n");
	for (size_t i = 0; i < set->n; i++) {
		const struct idle_trace *t = &set->t[i];
		struct idle_temporal b = res[i].b.temporal;
		int it = int_times(t);
		outbuf_printf(ob, "%ld", t->rank);
		if (b.empty) {
			outbuf_puts(ob, ",,,,,,,\n");
			continue;
		}
		sep_num(ob, b.idle, it);
		sep_num(ob, b.compute, it);
		sep_num(ob, b.non_compute, it);
		sep_num(ob, b.kernel_time, it);
		sep_num(ob, np_round(100 * (b.idle / b.kernel_time), 2), 0);
		sep_num(ob, np_round(100 * (b.compute / b.kernel_time), 2), 0);
		sep_num(ob, np_round(100 * (b.non_compute / b.kernel_time), 2), 0);
		outbuf_putc(ob, '\n');
	}
	outbuf_close(ob);
}

static void write_overlap(struct idle_set *set, const struct rank_res *res, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "comm_comp_overlap.csv");

	outbuf_puts(ob, "rank,comp_comm_overlap_pctg\n");
	for (size_t i = 0; i < set->n; i++) {
		double r = res[i].b.overlap;
		outbuf_printf(ob, "%ld,", set->t[i].rank);
		csv_float(ob, np_round(100 * r, 2));
		outbuf_putc(ob, '\n');
	}
	outbuf_close(ob);
}

/* kernel_type_df summed over ranks by name, sorted by sum descending */
static void write_kernel_types(struct idle_set *set, const struct rank_res *res, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "gpu_kernel_type_breakdown.csv");
	struct { char name[96]; int64_t sum; } g[64];
	size_t ng = 0, ord[64];
	double sums[64];
	int64_t total = 0;

	for (size_t i = 0; i < set->n; i++) {
		const struct idle_state_time *st = res[i].b.states;
		size_t ns = res[i].b.nstates;
		for (size_t k = 0; k < ns; k++) {
			char name[96];
			size_t j;
			idle_state_name(st[k].state, name, sizeof(name));
			for (j = 0; j < ng && strcmp(g[j].name, name); j++)
				;
			if (j == ng) {
				if (ng == 64)
					continue;
				memcpy(g[ng].name, name, sizeof(name));
				g[ng++].sum = 0;
			}
			g[j].sum += st[k].sum;
		}
	}
	/* groupby(kernel_type) sorts by name; then sort_values("sum", desc) */
	for (size_t a = 1; a < ng; a++)
		for (size_t b = a; b > 0 && strcmp(g[b - 1].name, g[b].name) > 0; b--) {
			char tmp[96];
			int64_t s = g[b].sum;
			memcpy(tmp, g[b].name, 96);
			memcpy(g[b].name, g[b - 1].name, 96);
			g[b].sum = g[b - 1].sum;
			memcpy(g[b - 1].name, tmp, 96);
			g[b - 1].sum = s;
		}
	for (size_t k = 0; k < ng; k++) {
		sums[k] = (double)g[k].sum;
		total += g[k].sum;
	}
	pd_argsort_desc(sums, ord, ng);
	outbuf_puts(ob, "kernel_type,sum,percentage\n");
	for (size_t k = 0; k < ng; k++) {
		const char *name = g[ord[k]].name;
		csv_cell(ob, name, strlen(name));
		outbuf_printf(ob, ",%lld,", (long long)g[ord[k]].sum);
		csv_float(ob, np_round((double)g[ord[k]].sum / (double)total * 100, 1));
		outbuf_putc(ob, '\n');
	}
	outbuf_close(ob);
}

static void write_kernel_rows(struct idle_set *set, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "gpu_kernel_breakdown.csv");
	struct idle_krow *rows = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < set->n; i++)
		idle_kernel_rows(set, &set->t[i], &rows, &n, &alloc);
	idle_kernel_rows_sort(set, rows, n);
	outbuf_puts(ob, "name,sum (us),max (us),min (us),stddev,mean (us),kernel_type,rank\n");
	for (size_t i = 0; i < n; i++) {
		const struct idle_krow *r = &rows[i];
		size_t t;
		int it;
		for (t = 0; t < set->n && set->t[t].rank != r->rank; t++)
			;
		it = set->t[t].dur_type == IDLE_INT;
		if (r->name == UINT32_MAX)
			outbuf_puts(ob, "others");
		else
			csv_cell(ob, idle_str(set, r->name), idle_len(set, r->name));
		sep_num(ob, r->sum, it);
		sep_num(ob, r->max, it);
		sep_num(ob, r->min, it);
		sep_num(ob, r->std, 0);
		sep_num(ob, r->mean, 0);
		outbuf_printf(ob, ",%s,%ld\n", idle_ktype_name(r->ktype), r->rank);
	}
	free(rows);
	outbuf_close(ob);
}

static void write_idle_time(struct idle_set *set, const struct rank_res *res, const size_t *sel,
			    size_t nsel, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "idle_time_breakdown.csv");

	outbuf_puts(ob, "rank,stream,idle_category,idle_time,idle_time_ratio\n");
	for (size_t k = 0; k < nsel; k++) {
		const struct idle_trace *t = &set->t[sel[k]];
		size_t n = res[sel[k]].nw;
		const struct idle_wait_row *w = res[sel[k]].w;
		for (size_t i = 0; i < n; i++) {
			outbuf_printf(ob, "%ld,%lld,%s,", t->rank, (long long)w[i].stream,
				      idle_wait_name(w[i].category));
			csv_float(ob, np_round(w[i].time, 2));
			outbuf_putc(ob, ',');
			csv_float(ob, np_round(w[i].ratio, 2));
			outbuf_putc(ob, '\n');
		}
	}
	outbuf_close(ob);
}

static void write_launches(struct idle_set *set, const struct rank_res *res, const size_t *sel,
			   size_t nsel, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "cuda_kernel_launch_stats.csv");

	outbuf_puts(ob, "correlation,cpu_duration,gpu_duration,launch_delay,rank\n");
	for (size_t k = 0; k < nsel; k++) {
		const struct idle_trace *t = &set->t[sel[k]];
		size_t n = res[sel[k]].nl;
		const struct idle_launch *l = res[sel[k]].l;
		int id = t->dur_type == IDLE_INT;
		for (size_t i = 0; i < n; i++) {
			outbuf_i64(ob, l[i].corr);
			sep_num(ob, l[i].cpu_dur, id);
			sep_num(ob, l[i].gpu_dur, id);
			sep_num(ob, l[i].delay, int_times(t));
			outbuf_printf(ob, ",%ld\n", t->rank);
		}
	}
	outbuf_close(ob);
}

static void write_queue(struct idle_set *set, const struct rank_res *res, const char *dir)
{
	struct outbuf *ob = open_csv(dir, "queue_length_summary.csv");

	outbuf_puts(ob, "rank,stream,count,mean,std,min,25%,50%,75%,max\n");
	for (size_t i = 0; i < set->n; i++)
		if (res[i].q)
			idle_queue_summary_rows(ob, set->t[i].rank, res[i].q, res[i].nq);
	outbuf_close(ob);
}

/* launch_summary.csv and summary.csv: one row per rank */
static void write_summaries(struct idle_set *set, const struct rank_res *res, const char *dir)
{
	struct outbuf *ls = open_csv(dir, "launch_summary.csv");
	struct outbuf *sm = open_csv(dir, "summary.csv");

	idle_launch_summary_header(ls);
	outbuf_puts(sm, "rank,kernel_time_us,idle_time_us,idle_pct,compute_pct,non_compute_pct,"
		    "host_wait_us,kernel_wait_us,other_wait_us,comm_comp_overlap_pct,launches,"
		    "short_kernels,launch_delay_p50_us,launch_delay_p99_us,max_queue_length\n");
	for (size_t i = 0; i < set->n; i++) {
		const struct idle_trace *t = &set->t[i];
		struct idle_temporal b = res[i].b.temporal;
		double wait[3] = { 0, 0, 0 }, *d;
		size_t nl = res[i].nl, nw = res[i].nw, nq = res[i].nq, shorts = 0;
		const struct idle_launch *l = res[i].l;
		const struct idle_wait_row *w = res[i].w;
		const struct idle_qpoint *q = res[i].q;
		int64_t qmax = 0;

		idle_launch_summary_row(ls, t->rank, l, nl);
		for (size_t k = 0; k < nw; k++)
			wait[w[k].category] += w[k].time;
		d = xmalloc(st_mult(nl + 1, sizeof(double)));
		for (size_t k = 0; k < nl; k++) {
			d[k] = l[k].delay;
			shorts += l[k].cpu_dur <= IDLE_RUNTIME_CUTOFF && l[k].gpu_dur < l[k].cpu_dur;
		}
		qsort(d, nl, sizeof(double), np_cmp_double);
		for (size_t k = 0; k < nq; k++)
			if (q[k].qlen > qmax)
				qmax = q[k].qlen;
		outbuf_printf(sm, "%ld", t->rank);
		if (b.empty) {
			outbuf_puts(sm, ",,,,,");
		} else {
			sep_num(sm, b.kernel_time, 0);
			sep_num(sm, b.idle, 0);
			sep_num(sm, np_round(100 * (b.idle / b.kernel_time), 2), 0);
			sep_num(sm, np_round(100 * (b.compute / b.kernel_time), 2), 0);
			sep_num(sm, np_round(100 * (b.non_compute / b.kernel_time), 2), 0);
		}
		for (int c = 0; c < 3; c++)
			sep_num(sm, np_round(wait[c], 2), 0);
		sep_num(sm, np_round(100 * res[i].b.overlap, 2), 0);
		outbuf_printf(sm, ",%zu,%zu", nl, shorts);
		sep_num(sm, np_quantile(d, nl, 0.5), 0);
		sep_num(sm, np_quantile(d, nl, 0.99), 0);
		if (q)
			outbuf_printf(sm, ",%lld\n", (long long)qmax);
		else
			outbuf_puts(sm, ",\n");
		free(d);
	}
	outbuf_close(ls);
	outbuf_close(sm);
}

int idle_report_write(struct idle_set *set, const struct idle_opts *o, const char *dir)
{
	size_t *sel, nsel;
	struct rank_res *res;

	if (selected(set, o, &sel, &nsel) < 0) {
		free(sel);
		return 1;
	}
	if (idle_mkdirs(dir) < 0) {
		free(sel);
		return 1;
	}
	res = compute(set, o);
	write_temporal(set, res, dir);
	write_idle_time(set, res, sel, nsel, dir);
	write_overlap(set, res, dir);
	write_kernel_types(set, res, dir);
	write_kernel_rows(set, dir);
	write_launches(set, res, sel, nsel, dir);
	write_queue(set, res, dir);
	write_summaries(set, res, dir);
	if (nsel) {
		struct outbuf *ob = open_csv(dir, "api_kernel_summary.csv");
		idle_api_kernel_summary(ob, set, &set->t[sel[0]], res[sel[0]].l, res[sel[0]].nl);
		outbuf_close(ob);
	}
	release(res, set->n);
	free(sel);
	return 0;
}
