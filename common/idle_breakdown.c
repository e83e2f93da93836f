#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idle_breakdown.h"
#include "idle_kind.h"
#include "idle_trace.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

struct iv {
	double ts, end;
};

/* Reorders x[0..n) (doubles) by idx. */
static void permute(double *x, const size_t *idx, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = x[idx[i]];
	if (n)
		tl_memcpy(x, tmp, n * sizeof(*x));
}

/*
 * merge_kernel_intervals: sort by ts (numpy quicksort), group while the
 * start does not exceed the running max of earlier ends, each group's min
 * start and max end, sorted by start again.  Returns the count; out has
 * room for n.
 */
static size_t merge_rows(const struct idle_trace *t, const size_t *rows, size_t n, struct iv *out)
{
	double *ts = xmalloc(st_mult(n + 1, sizeof(double)));
	double *gts = xmalloc(st_mult(n + 1, sizeof(double)));
	size_t *ord = xmalloc(st_mult(n + 1, sizeof(size_t))), ng = 0;
	struct iv *g = xmalloc(st_mult(n + 1, sizeof(*g)));
	double cm = NAN;

	for (size_t i = 0; i < n; i++)
		ts[i] = t->ev[rows[i]].ts;
	np_argsort_quick(ts, ord, n);
	for (size_t k = 0; k < n; k++) {
		const struct idle_ev *e = &t->ev[rows[ord[k]]];
		double end = e->ts + e->dur;
		if (k == 0 || e->ts > cm) {
			g[ng].ts = e->ts;
			g[ng++].end = end;
		} else {
			if (e->ts < g[ng - 1].ts)
				g[ng - 1].ts = e->ts;
			if (end > g[ng - 1].end)
				g[ng - 1].end = end;
		}
		if (k == 0 || end > cm)
			cm = end;
	}
	for (size_t i = 0; i < ng; i++)
		gts[i] = g[i].ts;
	np_argsort_quick(gts, ord, ng);
	for (size_t i = 0; i < ng; i++)
		out[i] = g[ord[i]];
	free(ts);
	free(gts);
	free(ord);
	free(g);
	return ng;
}

/* end.sum() - ts.sum(), both numpy pairwise sums */
static double busy(const struct iv *m, size_t n)
{
	double *a = xmalloc(st_mult(n + 1, sizeof(double)));
	double *b = xmalloc(st_mult(n + 1, sizeof(double))), r;

	for (size_t i = 0; i < n; i++) {
		a[i] = m[i].end;
		b[i] = m[i].ts;
	}
	r = np_sum(a, n) - np_sum(b, n);
	free(a);
	free(b);
	return r;
}

/* The rows with a stream, split by kernel type, in frame order. */
struct typed_rows {
	size_t *all, *type[4];
	size_t nall, n[4];
};

static void split_rows(struct idle_set *set, const struct idle_trace *t, struct typed_rows *r)
{
	memset(r, 0, sizeof(*r));
	r->all = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	for (int k = 0; k < 4; k++)
		r->type[k] = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		int k;
		if (e->stream == -1)
			continue;
		r->all[r->nall++] = i;
		k = idle_ktype(set, e->name);
		r->type[k][r->n[k]++] = i;
	}
}

static void free_rows(struct typed_rows *r)
{
	free(r->all);
	for (int k = 0; k < 4; k++)
		free(r->type[k]);
}

static size_t merged(const struct idle_trace *t, const size_t *rows, size_t n, struct iv **out)
{
	*out = xmalloc(st_mult(n + 1, sizeof(**out)));
	return merge_rows(t, rows, n, *out);
}

static void temporal(const struct iv *all, size_t na, const struct iv *comp, size_t nc,
		     struct idle_temporal *o)
{
	memset(o, 0, sizeof(*o));
	if (!na) {
		o->empty = 1;
		return;
	}
	o->kernel_time = all[na - 1].end - all[0].ts;
	o->idle = o->kernel_time - busy(all, na);
	o->compute = busy(comp, nc);
	o->non_compute = o->kernel_time - o->compute - o->idle;
}

/* A status change of the sweeps: +v at a start, -v at an end. */
struct sweep {
	double *time;
	int64_t *status;
	size_t n, alloc;
};

/* melt(): every start (in order), then every end, appended */
static void sweep_add(struct sweep *s, const struct iv *m, size_t n, int64_t v)
{
	size_t need = s->n + 2 * n;

	if (need > s->alloc) {
		s->alloc = need * 2 + 16;
		s->time = xrealloc(s->time, st_mult(s->alloc, sizeof(double)));
		s->status = xrealloc(s->status, st_mult(s->alloc, sizeof(int64_t)));
	}
	for (size_t i = 0; i < n; i++) {
		s->time[s->n] = m[i].ts;
		s->status[s->n++] = v;
	}
	for (size_t i = 0; i < n; i++) {
		s->time[s->n] = m[i].end;
		s->status[s->n++] = -v;
	}
}

/* sort_values(by="time"): numpy's quicksort, ties in its order */
static void sweep_sort(struct sweep *s)
{
	size_t *ord = xmalloc(st_mult(s->n + 1, sizeof(size_t)));
	double *tmp = xmalloc(st_mult(s->n + 1, sizeof(double)));
	int64_t *st = xmalloc(st_mult(s->n + 1, sizeof(int64_t)));

	np_argsort_quick(s->time, ord, s->n);
	permute(s->time, ord, s->n, tmp);
	for (size_t i = 0; i < s->n; i++)
		st[i] = s->status[ord[i]];
	if (s->n)
		tl_memcpy(s->status, st, s->n * sizeof(*st));
	free(ord);
	free(tmp);
	free(st);
}

static double comm_overlap(const struct iv *comp, size_t nc, const struct iv *comm, size_t nm)
{
	struct sweep s = { 0 };
	double *d = xmalloc(st_mult(nm + nc + 1, 2 * sizeof(double))), over, den;
	size_t nd = 0;
	int64_t run = 0;

	sweep_add(&s, comm, nm, 1);
	sweep_add(&s, comp, nc, 2);
	sweep_sort(&s);
	/* rows where the running status is 3, up to the next row */
	for (size_t i = 0; i < s.n; i++) {
		run += s.status[i];
		if (run == 3 && i + 1 < s.n)
			d[nd++] = s.time[i + 1] - s.time[i];
	}
	over = np_sum(d, nd);
	for (size_t i = 0; i < nm; i++)
		d[i] = comm[i].end - comm[i].ts;
	den = np_sum(d, nm);
	free(d);
	free(s.time);
	free(s.status);
	return over / den;
}

static size_t kernel_states(struct iv *const m[3], const size_t nm[3],
			    struct idle_state_time *out)
{
	struct sweep s = { 0 };
	int64_t run = 0;
	size_t nout = 0;

	/* each type's intervals are added, then everything is sorted again */
	for (int k = 0; k < 3; k++) {
		sweep_add(&s, m[k], nm[k], (int64_t)1 << k);
		sweep_sort(&s);
	}
	for (size_t i = 0; i < s.n; i++) {
		size_t j;
		run += s.status[i];
		if (run <= 0 || i + 1 >= s.n)
			continue;
		for (j = 0; j < nout && out[j].state != run; j++)
			;
		if (j == nout) {
			if (nout == 16)
				continue;	/* at most 7 states exist; defensive */
			out[nout].state = run;
			out[nout++].sum = 0;
		}
		/* (next_time - time).astype(int): truncation per segment; the
		 * groupby sum wraps round as numpy's int64 does (a bad trace) */
		out[j].sum = np_add_int64(out[j].sum, np_int64(s.time[i + 1] - s.time[i]));
	}
	free(s.time);
	free(s.status);
	/* groupby(kernel_type) names them; ascending states */
	for (size_t a = 1; a < nout; a++)
		for (size_t b = a; b > 0 && out[b - 1].state > out[b].state; b--) {
			struct idle_state_time x = out[b];
			out[b] = out[b - 1];
			out[b - 1] = x;
		}
	return nout;
}

void idle_breakdown_run(struct idle_set *set, const struct idle_trace *t, struct idle_breakdown *b)
{
	struct typed_rows r;
	struct iv *all, *m[3];
	size_t na, nm[3];
	static const int types[] = { IDLE_COMPUTE, IDLE_COMM, IDLE_MEMORY };

	split_rows(set, t, &r);
	na = merged(t, r.all, r.nall, &all);
	for (int k = 0; k < 3; k++)
		nm[k] = merged(t, r.type[types[k]], r.n[types[k]], &m[k]);
	temporal(all, na, m[0], nm[0], &b->temporal);
	b->overlap = comm_overlap(m[0], nm[0], m[1], nm[1]);
	b->nstates = kernel_states(m, nm, b->states);
	free(all);
	for (int k = 0; k < 3; k++)
		free(m[k]);
	free_rows(&r);
}

void idle_state_name(int64_t state, char *buf, size_t size)
{
	/* kernel_t_mapping's insertion order: COMPUTATION, COMMUNICATION, MEMORY */
	static const char *const names[] = { "COMPUTATION", "COMMUNICATION", "MEMORY" };
	size_t len = 0;

	buf[0] = 0;
	for (int b = 0; b < 3; b++) {
		if (!(state & (1 << b)))
			continue;
		const char *sep = len ? " overlapping " : "";
		size_t need = strlen(sep) + strlen(names[b]);
		if (len + need + 1 > size)
			break;
		tl_memcpy(buf + len, sep, strlen(sep));
		tl_memcpy(buf + len + strlen(sep), names[b], strlen(names[b]) + 1);
		len += need;
	}
}

/* ------------------------------------------------------------------ */
/* the per-kernel table */

struct kgroup {
	uint32_t name;
	double *dur;		/* durations in frame order */
	size_t *row;		/* and their rows */
	size_t n, alloc, ralloc;
	double sum;
};

/* A launch of a kernel grouped as "others": pandas aggregates in frame order. */
struct olaunch {
	size_t row;
	double dur;
};

static int by_row(const void *a, const void *b)
{
	const struct olaunch *x = a, *y = b;
	return (x->row > y->row) - (x->row < y->row);
}

static int cmp_name(struct idle_set *set, uint32_t a, uint32_t b)
{
	const char *sa = a == UINT32_MAX ? "others" : idle_str(set, a);
	const char *sb = b == UINT32_MAX ? "others" : idle_str(set, b);
	size_t la = a == UINT32_MAX ? 6 : idle_len(set, a);
	size_t lb = b == UINT32_MAX ? 6 : idle_len(set, b);
	int c = memcmp(sa, sb, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static struct idle_set *sort_set;	/* for qsort's comparators */

static int by_name(const void *a, const void *b)
{
	return cmp_name(sort_set, ((const struct kgroup *)a)->name,
			((const struct kgroup *)b)->name);
}

static void krow_from(struct idle_krow *r, const double *x, size_t n)
{
	r->sum = pd_group_sum(x, n);
	r->max = np_max(x, n);
	r->min = np_min(x, n);
	r->mean = pd_group_mean(x, n);
	r->std = pd_group_std(x, n, 1);
	if (r->std != r->std)
		r->std = 0;	/* fillna({"std": 0}) */
}

static void push_row(struct idle_krow **rows, size_t *n, size_t *alloc, const struct idle_krow *r)
{
	xgrow((void **)rows, alloc, *n + 1, sizeof(**rows));
	(*rows)[(*n)++] = *r;
}

/* _aggr_gpu_kernel_time for one kernel type, num_kernels 10, ratio 0.8 */
static void aggregate(struct idle_set *set, struct kgroup *g, size_t ng, int ktype, long rank,
		      struct idle_krow **rows, size_t *n, size_t *alloc)
{
	double *sums = xmalloc(st_mult(ng + 1, sizeof(double)));
	double *cum = xmalloc(st_mult(ng + 1, sizeof(double)));
	size_t *ord = xmalloc(st_mult(ng + 1, sizeof(size_t)));
	unsigned char *other = xcalloc(ng + 1, 1);
	struct idle_krow r;
	double q, c = 0;

	/* groupby(name) sorts the names; then sort_values("sum", desc) */
	sort_set = set;
	if (ng > 1)
		tl_qsort(g, ng, sizeof(*g), by_name);
	for (size_t i = 0; i < ng; i++)
		sums[i] = g[i].sum = pd_group_sum(g[i].dur, g[i].n);
	pd_argsort_desc(sums, ord, ng);
	if (ng > 10) {
		for (size_t k = 0; k < ng; k++) {
			c += sums[ord[k]];	/* cumsum, in the sorted order */
			cum[k] = c;
		}
		tl_memcpy(sums, cum, ng * sizeof(double));
		tl_qsort(sums, ng, sizeof(double), np_cmp_double);
		q = np_quantile(sums, ng, 0.8);
		for (size_t k = 0; k < ng; k++)
			if (cum[k] > q || k >= 10)
				other[ord[k]] = 1;
	}
	memset(&r, 0, sizeof(r));
	r.ktype = ktype;
	r.rank = rank;
	/* named rows in name order, "others" at its place among them */
	{
		struct olaunch *ol = NULL;
		double *od;
		size_t on = 0, oalloc = 0, placed = 0;
		for (size_t i = 0; i < ng; i++) {
			if (!other[i])
				continue;
			xgrow((void **)&ol, &oalloc, on + g[i].n, sizeof(*ol));
			for (size_t k = 0; k < g[i].n; k++) {
				ol[on].row = g[i].row[k];
				ol[on++].dur = g[i].dur[k];
			}
		}
		if (on > 1)
			tl_qsort(ol, on, sizeof(*ol), by_row);
		od = xmalloc(st_mult(on + 1, sizeof(double)));
		for (size_t k = 0; k < on; k++)
			od[k] = ol[k].dur;
		free(ol);
		for (size_t i = 0; i <= ng; i++) {
			if (on && !placed && (i == ng || (!other[i] &&
						cmp_name(set, UINT32_MAX, g[i].name) < 0))) {
				r.name = UINT32_MAX;
				krow_from(&r, od, on);
				push_row(rows, n, alloc, &r);
				placed = 1;
			}
			if (i == ng || other[i])
				continue;
			r.name = g[i].name;
			krow_from(&r, g[i].dur, g[i].n);
			push_row(rows, n, alloc, &r);
		}
		free(od);
	}
	free(sums);
	free(cum);
	free(ord);
	free(other);
}

void idle_kernel_rows(struct idle_set *set, const struct idle_trace *t, struct idle_krow **rows,
		      size_t *n, size_t *alloc)
{
	static const int types[] = { IDLE_COMPUTE, IDLE_COMM, IDLE_MEMORY };
	uint32_t *gi = NULL;	/* name id → group index + 1, per type */
	size_t gi_alloc = 0;

	for (int k = 0; k < 3; k++) {
		struct kgroup *g = NULL;
		size_t ng = 0, galloc = 0;
		for (size_t i = 0; i < t->n; i++) {
			const struct idle_ev *e = &t->ev[i];
			struct kgroup *kg;
			if (e->stream == -1 || idle_ktype(set, e->name) != types[k])
				continue;
			if (e->name >= gi_alloc) {
				size_t old = gi_alloc;
				xgrow((void **)&gi, &gi_alloc, (size_t)e->name + 1, sizeof(*gi));
				memset(gi + old, 0, (gi_alloc - old) * sizeof(*gi));
			}
			if (!gi[e->name]) {
				xgrow((void **)&g, &galloc, ng + 1, sizeof(*g));
				memset(&g[ng], 0, sizeof(g[ng]));
				g[ng].name = e->name;
				gi[e->name] = (uint32_t)++ng;
			}
			kg = &g[gi[e->name] - 1];
			xgrow((void **)&kg->dur, &kg->alloc, kg->n + 1, sizeof(double));
			xgrow((void **)&kg->row, &kg->ralloc, kg->n + 1, sizeof(size_t));
			kg->row[kg->n] = i;
			kg->dur[kg->n++] = e->dur;
		}
		for (size_t i = 0; i < ng; i++)
			gi[g[i].name] = 0;
		aggregate(set, g, ng, types[k], t->rank, rows, n, alloc);
		for (size_t i = 0; i < ng; i++) {
			free(g[i].dur);
			free(g[i].row);
		}
		free(g);
	}
	free(gi);
}

static int by_type_name_rank(const void *a, const void *b)
{
	const struct idle_krow *x = a, *y = b;
	int c = strcmp(idle_ktype_name(x->ktype), idle_ktype_name(y->ktype));

	if (c)
		return c;
	c = cmp_name(sort_set, x->name, y->name);
	if (c)
		return c;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

void idle_kernel_rows_sort(struct idle_set *set, struct idle_krow *rows, size_t n)
{
	sort_set = set;
	if (n > 1)
		tl_qsort(rows, n, sizeof(*rows), by_type_name_rank);
}
