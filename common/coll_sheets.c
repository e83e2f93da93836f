#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_group.h"
#include "coll_sheets.h"
#include "err.h"
#include "hmap.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "py_literal.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* ---- numbers as numpy computes them: int64 stays int64, else float64 ---- */

static int both_int(const struct cv *a, const struct cv *b)
{
	return (a->kind == CV_INT || a->kind == CV_BOOL) && (b->kind == CV_INT || b->kind == CV_BOOL);
}

static struct cv num_add(struct cv a, struct cv b)
{
	if (both_int(&a, &b))
		return cv_int((int64_t)((uint64_t)a.i + (uint64_t)b.i));
	return cv_number(cv_num(&a) + cv_num(&b));
}

static struct cv num_sub(struct cv a, struct cv b)
{
	if (both_int(&a, &b))
		return cv_int((int64_t)((uint64_t)a.i - (uint64_t)b.i));
	return cv_number(cv_num(&a) - cv_num(&b));
}

static int num_gt(const struct cv *a, const struct cv *b)
{
	if (both_int(a, b))
		return a->i > b->i;
	return cv_num(a) > cv_num(b);
}

/* Python's max()/min() over a sequence: the first, replaced by a strictly greater (smaller) one */
static struct cv py_max(const struct cv *v, size_t n)
{
	struct cv m = v[0];

	for (size_t i = 1; i < n; i++)
		if (num_gt(&v[i], &m))
			m = v[i];
	return m;
}

static struct cv py_min(const struct cv *v, size_t n)
{
	struct cv m = v[0];

	for (size_t i = 1; i < n; i++)
		if (num_gt(&m, &v[i]))
			m = v[i];
	return m;
}

/* sum(seq) / len(seq): Python's sum from int 0, then a true division */
static struct cv py_mean(const struct cv *v, size_t n)
{
	struct cv s = cv_int(0);

	for (size_t i = 0; i < n; i++)
		s = num_add(s, cv_isna(&v[i]) ? cv_nan() : v[i]);
	return cv_number(cv_num(&s) / (double)n);
}

static struct cv py_sum(const struct cv *v, size_t n)
{
	struct cv s = cv_int(0);

	for (size_t i = 0; i < n; i++)
		s = num_add(s, cv_isna(&v[i]) ? cv_nan() : v[i]);
	return s;
}

/* ---- nccl_long ---- */

void coll_sheet_long(const struct coll_table *t, struct coll_frame *out)
{
	for (size_t i = 0; i < t->n; i++) {
		coll_frame_addrow(out);
		for (int c = 0; c < COLL_NCOLS; c++)
			coll_frame_set(out, coll_col_name[c], t->row[i].c[c]);
	}
	coll_frame_infer(out);
}

/* ---- metadata consistency ---- */

/* collective_name2type */
static const char *coll_type(const struct cv *name)
{
	static const struct { const char *name, *type; } tab[] = {
		{ "allreduce", "allreduce" }, { "allreduce_coalesced", "allreduce" },
		{ "reducescatter", "reducescatter" }, { "_reduce_scatter_base", "reducescatter" },
		{ "reduce_scatter_tensor_coalesced", "reducescatter" },
		{ "allgather", "allgather" }, { "all_gather", "allgather" },
		{ "_allgather_base", "allgather" },
		{ "all_gather_into_tensor_coalesced", "allgather" },
		{ "allgather_into_tensor_coalesced", "allgather" },
		{ "all_to_all", "alltoall" }, { "all_to_allv", "alltoallv" },
	};

	if (name->kind != CV_STR)
		return NULL;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(name->s, tab[i].name))
			return tab[i].type;
	return NULL;
}

/*
 * "'Float' on ranks 0, 1, 3; 'Half' on rank 2": the values of column col
 * over an instance's rows, each with the ranks that hold it.
 */
static void describe(const struct coll_table *t, const struct coll_cid *k,
		     enum coll_col col, struct pystr *ps)
{
	char *done = xcalloc(k->n, 1);

	for (size_t a = 0; a < k->n; a++) {
		size_t cnt = 0;
		if (done[a])
			continue;
		const struct cv *v = &t->row[k->rows[a]].c[col];
		for (size_t b = a; b < k->n; b++)
			cnt += !done[b] && cv_same(v, &t->row[k->rows[b]].c[col]);
		if (a)
			pystr_adds(ps, "; ");
		cv_repr(ps, v);
		pystr_adds(ps, cnt > 1 ? " on ranks " : " on rank ");
		for (size_t b = a, m = 0; b < k->n; b++) {
			const struct coll_row *r = &t->row[k->rows[b]];
			char num[24];
			if (done[b] || !cv_same(v, &r->c[col]))
				continue;
			done[b] = 1;
			snprintf(num, sizeof(num), "%s%lld", m++ ? ", " : "",
				 (long long)r->c[COLL_C_RANK].i);
			pystr_adds(ps, num);
		}
	}
	free(done);
}

/*
 * The strict metadata check of build_df_nccl_implicit_sync_cat and
 * build_df_nccl_all2allv: every listed column has one value on all the
 * ranks of the instance.  -1 (message printed) when strict and they
 * differ; a warning otherwise.
 */
static int check_meta(const struct coll_table *t, const struct coll_cid *k,
		      const enum coll_col *cols, size_t ncols, int strict)
{
	const struct coll_row *ref = &t->row[k->rows[0]];

	for (size_t c = 0; c < ncols; c++) {
		struct pystr ps = { 0 }, name = { 0 };
		const struct coll_row *odd = NULL;
		for (size_t i = 1; i < k->n && !odd; i++)
			if (!cv_same(&ref->c[cols[c]], &t->row[k->rows[i]].c[cols[c]]))
				odd = &t->row[k->rows[i]];
		if (!odd)
			continue;
		describe(t, k, cols[c], &ps);
		cv_repr(&name, &ref->c[COLL_C_COLL_NAME]);
		tl_warn("%s: %scollective %s (%s): '%s' differs across ranks: %s%s",
			coll_table_file(t, odd), strict ? "" : "warning: ", k->id, name.buf,
			coll_col_name[cols[c]], ps.buf,
			strict ? " (--no-strict: warn and use the first rank's)" : "");
		pystr_release(&ps);
		pystr_release(&name);
		if (strict)
			return -1;
	}
	return 0;
}

/* ---- nccl_implicit_sync ---- */

static void set_rank_col(struct coll_frame *f, int64_t rank, const char *what, struct cv v)
{
	char name[96];

	snprintf(name, sizeof(name), "rank_%lld_%s", (long long)rank, what);
	coll_frame_set(f, name, v);
}

static const enum coll_col implicit_meta[] = {
	COLL_C_PG_NAME, COLL_C_PG_RANKS, COLL_C_COLL_NAME, COLL_C_GROUP_SIZE, COLL_C_DTYPE,
	COLL_C_IN_NELEMS, COLL_C_OUT_NELEMS, COLL_C_IN_MB, COLL_C_OUT_MB,
};
#define NMETA(a) (sizeof(a) / sizeof((a)[0]))

/* collective2scaling_factor(n); NaN where Python would raise */
static double bus_factor(const char *type, const struct cv *n)
{
	double x = cv_num(n);

	if (!cv_isnum(n))
		return NAN;
	if (!strcmp(type, "allreduce"))
		return 2 * (x - 1) / x;
	return (x - 1) / x;
}

static void implicit_row(const struct coll_table *t, const struct coll_cid *k,
			 const char *type, struct coll_frame *f)
{
	const struct coll_row *ref = &t->row[k->rows[0]];
	struct cv *ts = xmalloc(st_mult(k->n, sizeof(*ts)));
	struct cv *dur = xmalloc(st_mult(k->n, sizeof(*dur)));
	struct cv *end = xmalloc(st_mult(k->n, sizeof(*end)));
	struct cv *wait = xmalloc(st_mult(k->n, sizeof(*wait)));
	struct cv latest, lat, full, algo, bus;
	size_t i, imax = 0;

	coll_frame_addrow(f);
	coll_frame_set(f, "collective_id", ref->c[COLL_C_CID]);
	for (i = 0; i < NMETA(implicit_meta); i++)
		coll_frame_set(f, coll_col_name[implicit_meta[i]], ref->c[implicit_meta[i]]);
	for (i = 0; i < k->n; i++) {
		const struct coll_row *r = &t->row[k->rows[i]];
		ts[i] = r->c[COLL_C_TS];
		dur[i] = r->c[COLL_C_DUR];
		end[i] = num_add(ts[i], dur[i]);
		set_rank_col(f, r->c[COLL_C_RANK].i, "ts", ts[i]);
		set_rank_col(f, r->c[COLL_C_RANK].i, "dur", dur[i]);
	}
	latest = py_max(ts, k->n);
	lat = py_min(dur, k->n);
	coll_frame_set(f, "comm_latency", lat);
	for (i = 0; i < k->n; i++) {
		wait[i] = num_sub(latest, ts[i]);
		set_rank_col(f, t->row[k->rows[i]].c[COLL_C_RANK].i, "wait_time", wait[i]);
		/* max((wait, rank)): the largest wait, ties to the larger rank */
		if (i && !num_gt(&wait[imax], &wait[i]))
			imax = i;
	}
	coll_frame_set(f, "skew in start time", wait[imax]);
	coll_frame_set(f, "earliest arrival rank", t->row[k->rows[imax]].c[COLL_C_RANK]);
	coll_frame_set(f, "avg_wait_time", py_mean(wait, k->n));
	coll_frame_set(f, "skew in end time", num_sub(py_max(end, k->n), py_min(end, k->n)));
	full = algo = bus = cv_nan();
	/* "is not None": a NaN size of a float column counts as present */
	if (ref->c[COLL_C_IN_MB].kind != CV_NONE && ref->c[COLL_C_OUT_MB].kind != CV_NONE && type) {
		full = ref->c[!strcmp(type, "allgather") ? COLL_C_OUT_MB : COLL_C_IN_MB];
		if (cv_num(&lat) > 0)
			algo = cv_number((cv_num(&full) / 1024) / (cv_num(&lat) / 1e6));
		if (ref->c[COLL_C_GROUP_SIZE].kind != CV_NONE && strcmp(type, "alltoallv"))
			bus = cv_number(cv_num(&algo) *
					bus_factor(type, &ref->c[COLL_C_GROUP_SIZE]));
	}
	coll_frame_set(f, "Full msg size (MB)", full);
	coll_frame_set(f, "algo bw (GB/s)", algo);
	coll_frame_set(f, "bus bw (GB/s)", bus);
	free(ts);
	free(dur);
	free(end);
	free(wait);
}

static const char *const implicit_general[] = {
	"collective_id", "Process Group Name", "Process Group Ranks", "Collective name",
	"Group size", "dtype", "In msg nelems", "Out msg nelems", "In msg size (MB)",
	"Out msg size (MB)", "Full msg size (MB)", "comm_latency", "skew in start time",
	"earliest arrival rank", "avg_wait_time", "skew in end time", "algo bw (GB/s)",
	"bus bw (GB/s)",
};

/* df[general_cols + per_rank_cols] */
static void order_general(struct coll_frame *f, const char *const *general, size_t ngen)
{
	const char **names = xmalloc(st_mult(ngen + f->ncols, sizeof(*names)));
	size_t n = 0;

	for (size_t i = 0; i < ngen; i++)
		names[n++] = general[i];
	for (size_t c = 0; c < f->ncols; c++)
		if (!strncmp(f->col[c].name, "rank_", 5))
			names[n++] = f->col[c].name;
	coll_frame_select(f, names, n);
	free(names);
}

int coll_sheet_implicit(const struct coll_table *t, int strict, struct coll_frame *out)
{
	for (size_t k = 0; k < t->ncids; k++) {
		const struct coll_cid *c = &t->cids[k];
		const struct cv *name = &t->row[c->rows[0]].c[COLL_C_COLL_NAME];
		const char *type = coll_type(name);
		int sync = type && strcmp(type, "alltoallv");

		/* simplified mode keeps a missing or unknown name */
		if (!sync && !(t->simplified && (name->kind == CV_NONE || !type)))
			continue;
		if (!t->simplified &&
		    check_meta(t, c, implicit_meta, NMETA(implicit_meta), strict) < 0)
			return -1;
		implicit_row(t, c, type, out);
	}
	if (!out->nrows)
		return 0;
	coll_frame_infer(out);
	order_general(out, implicit_general, NMETA(implicit_general));
	return 0;
}

/* ---- nccl_summary_implicit_sync ---- */

static void agg_into(const struct coll_group *g, const struct coll_frame *f, const char *col,
		     const char *agg, struct coll_frame *out)
{
	char name[128];

	snprintf(name, sizeof(name), "%s_%s", col, agg);
	coll_group_agg(g, f, col, agg, out, name);
}

static int all_nan(const struct coll_frame *f, const char *col)
{
	long c = coll_frame_find(f, col);

	for (size_t r = 0; c >= 0 && r < f->nrows; r++)
		if (!cv_isna(coll_frame_cell(f, (size_t)c, r)))
			return 0;
	return 1;
}

/* sort_values(col, ascending=False) */
static void sort_desc(struct coll_frame *f, const char *col)
{
	long c = coll_frame_find(f, col);
	double *v = xmalloc(st_mult(f->nrows ? f->nrows : 1, sizeof(*v)));
	size_t *idx = xmalloc(st_mult(f->nrows ? f->nrows : 1, sizeof(*idx)));

	for (size_t r = 0; r < f->nrows; r++)
		v[r] = cv_num(coll_frame_cell(f, (size_t)c, r));
	pd_argsort_desc(v, idx, f->nrows);
	coll_frame_take(f, idx, f->nrows);
	free(v);
	free(idx);
}

void coll_sheet_implicit_summary(const struct coll_frame *detailed, const char *const *agg,
				 size_t nagg, struct coll_frame *out)
{
	static const char *const keys[] = { "Collective name", "dtype", "In msg nelems" };
	static const char *const meta[] = { "Process Group Name", "Group size", "Full msg size (MB)" };
	const char *metrics[5] = { "comm_latency", "skew in start time", "skew in end time" };
	size_t nmetrics = 3;
	struct coll_frame w;
	struct coll_group g;

	if (!detailed->nrows)
		return;
	coll_frame_init(&w, detailed->sp);
	coll_frame_copy(&w, detailed);
	coll_frame_filter_prefix(&w, "rank_", 0);
	/* fillna("Unknown") on the keys, so that groupby keeps those rows */
	for (size_t k = 0; k < 3; k++) {
		long c = coll_frame_find(&w, keys[k]);
		for (size_t r = 0; r < w.nrows; r++)
			if (cv_isna(coll_frame_cell(&w, (size_t)c, r)))
				*coll_frame_cell(&w, (size_t)c, r) = cv_str(w.sp, "Unknown", 7);
	}
	if (!all_nan(&w, "algo bw (GB/s)"))
		metrics[nmetrics++] = "algo bw (GB/s)";
	if (!all_nan(&w, "bus bw (GB/s)"))
		metrics[nmetrics++] = "bus bw (GB/s)";
	coll_group_by(&g, &w, keys, 3, 1);
	out->nrows = g.n;
	coll_group_keys(&g, &w, keys, 3, out);
	for (size_t k = 0; k < 3; k++)
		coll_group_agg(&g, &w, meta[k], "first", out, meta[k]);
	for (size_t m = 0; m < nmetrics; m++)
		for (size_t a = 0; a < nagg; a++)
			agg_into(&g, &w, metrics[m], agg[a], out);
	coll_group_agg(&g, &w, "comm_latency", "size", out, "count");
	coll_group_agg(&g, &w, "comm_latency", "sum/1000", out, "Total comm latency (ms)");
	sort_desc(out, "Total comm latency (ms)");
	coll_group_release(&g);
	coll_frame_release(&w);
}

/* ---- straggler_summary ---- */

static double *column_nums(const struct coll_frame *f, size_t c)
{
	double *v = xmalloc(st_mult(f->nrows ? f->nrows : 1, sizeof(*v)));

	for (size_t r = 0; r < f->nrows; r++)
		v[r] = cv_num(coll_frame_cell(f, c, r));
	return v;
}

/* Series.sum() of a column: exact for int64, numpy's pairwise sum for float64 */
static struct cv series_sum(const struct coll_frame *f, size_t c)
{
	double *v;
	struct cv s;

	if (f->col[c].dt == DT_INT || f->col[c].dt == DT_BOOL) {
		s = cv_int(0);
		for (size_t r = 0; r < f->nrows; r++)
			s = num_add(s, *coll_frame_cell(f, c, r));
		return s;
	}
	v = column_nums(f, c);
	s = cv_number(pd_series_sum(v, f->nrows));
	free(v);
	return s;
}

/* round(x, 1) of a numpy scalar: an int stays as it is */
static struct cv round1(struct cv x)
{
	return x.kind == CV_FLOAT ? cv_number(np_round(x.d, 1)) : x;
}

/* idxmin(axis=1) over the wait columns: the first column holding the row's minimum */
static long *row_idxmin(const struct coll_frame *f, const size_t *wc, size_t nwc)
{
	long *best = xmalloc(st_mult(f->nrows ? f->nrows : 1, sizeof(*best)));

	for (size_t r = 0; r < f->nrows; r++) {
		double m = NAN;
		best[r] = -1;
		for (size_t k = 0; k < nwc; k++) {
			double x = cv_num(coll_frame_cell(f, wc[k], r));
			if (x == x && (best[r] < 0 || x < m)) {
				m = x;
				best[r] = (long)k;
			}
		}
	}
	return best;
}

/*
 * df_per_rank_coll.groupby("rank")["dur"].sum() for one rank; the table's
 * rows are in rank order, so the rank's rows are found by bisection.
 */
static struct cv rank_dur_sum(const struct coll_table *t, int64_t rank)
{
	double *x;
	struct cv s = cv_int(0);
	size_t lo = 0, hi = t->n, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->row[mid].c[COLL_C_RANK].i < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (hi = lo; hi < t->n && t->row[hi].c[COLL_C_RANK].i == rank; hi++)
		;
	x = xmalloc(st_mult(hi - lo + 1, sizeof(*x)));
	for (size_t i = lo; i < hi; i++) {
		s = num_add(s, t->row[i].c[COLL_C_DUR]);
		x[n++] = cv_num(&t->row[i].c[COLL_C_DUR]);
	}
	if (t->dt[COLL_C_DUR] != DT_INT)
		s = cv_number(pd_group_sum(x, n));	/* Kahan-compensated */
	free(x);
	return s;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void coll_sheet_straggler(const struct coll_table *t, const struct coll_frame *detailed,
			  struct coll_frame *out)
{
	size_t *wc = xmalloc(st_mult(detailed->ncols + 1, sizeof(*wc))), nwc = 0;
	int64_t *ranks = xmalloc(st_mult(detailed->ncols + 1, sizeof(*ranks)));
	long *last;
	double *key;
	size_t *idx, num = detailed->nrows;
	long ea = coll_frame_find(detailed, "earliest arrival rank");

	for (size_t c = 0; c < detailed->ncols; c++) {
		const char *n = detailed->col[c].name;
		size_t len = strlen(n);
		if (strncmp(n, "rank_", 5) || len < 15 || strcmp(n + len - 10, "_wait_time"))
			continue;
		wc[nwc] = c;
		ranks[nwc++] = strtoll(n + 5, NULL, 10);
	}
	if (!num || !nwc) {
		free(wc);
		free(ranks);
		return;
	}
	last = row_idxmin(detailed, wc, nwc);
	qsort(ranks, nwc, sizeof(*ranks), cmp_i64);
	for (size_t i = 0; i < nwc; i++) {
		char name[64];
		long c, times_last = 0, times_first = 0;
		double *w;

		snprintf(name, sizeof(name), "rank_%lld_wait_time", (long long)ranks[i]);
		c = coll_frame_find(detailed, name);
		for (size_t r = 0; r < num; r++) {
			times_last += last[r] >= 0 && wc[last[r]] == (size_t)c;
			times_first += cv_num(coll_frame_cell(detailed, (size_t)ea, r)) == (double)ranks[i];
		}
		w = column_nums(detailed, (size_t)c);
		coll_frame_addrow(out);
		coll_frame_set(out, "rank", cv_int(ranks[i]));
		coll_frame_set(out, "total_wait_time_us", round1(series_sum(detailed, (size_t)c)));
		coll_frame_set(out, "mean_wait_time_us",
			       cv_number(np_round(pd_series_mean(w, num), 1)));
		coll_frame_set(out, "times_arrived_last", cv_int(times_last));
		coll_frame_set(out, "times_arrived_first", cv_int(times_first));
		coll_frame_set(out, "pct_arrived_last",
			       cv_number(np_round(100.0 * (double)times_last / (double)num, 1)));
		coll_frame_set(out, "num_collectives", cv_int((int64_t)num));
		coll_frame_set(out, "total_nccl_dur_us", round1(rank_dur_sum(t, ranks[i])));
		free(w);
	}
	coll_frame_infer(out);
	/* sort_values("total_wait_time_us") */
	key = column_nums(out, 1);
	idx = xmalloc(st_mult(out->nrows, sizeof(*idx)));
	pd_argsort_asc(key, idx, out->nrows);
	coll_frame_take(out, idx, out->nrows);
	free(key);
	free(idx);
	free(last);
	free(wc);
	free(ranks);
}

/* ---- nccl_summary_long (and the single-rank coll_analysis) ---- */

void coll_sheet_summary_long(const struct coll_table *t, struct coll_frame *out)
{
	static const char *const keys[] = {
		"rank", "Process Group Name", "Process Group Ranks", "Collective name",
		"Group size", "dtype", "In msg nelems", "Out msg nelems", "In split size",
		"Out split size", "stream",
	};
	static const char *const stats[] = { "sum", "mean", "std", "min", "max" };
	struct coll_frame df;
	struct coll_group g;

	if (!t->n)
		return;
	coll_frame_init(&df, t->sp);
	coll_sheet_long(t, &df);
	coll_group_by(&g, &df, keys, NMETA(keys), 1);
	out->nrows = g.n;
	coll_group_keys(&g, &df, keys, NMETA(keys), out);
	agg_into(&g, &df, "In msg size (MB)", "first", out);
	agg_into(&g, &df, "Out msg size (MB)", "first", out);
	for (size_t a = 0; a < NMETA(stats); a++)
		agg_into(&g, &df, "dur", stats[a], out);
	coll_group_agg(&g, &df, "collective_id", "count", out, "operation_count");
	sort_desc(out, "dur_sum");
	coll_group_release(&g);
	coll_frame_release(&df);
}

/* ---- all_to_allv ---- */

static const enum coll_col a2av_meta[] = {
	COLL_C_PG_NAME, COLL_C_PG_RANKS, COLL_C_COLL_NAME, COLL_C_GROUP_SIZE, COLL_C_DTYPE,
	COLL_C_STREAM,
};

static const enum coll_col a2av_per_rank[] = {
	COLL_C_TS, COLL_C_DUR, COLL_C_IN_NELEMS, COLL_C_OUT_NELEMS, COLL_C_IN_MB,
	COLL_C_OUT_MB, COLL_C_IN_SPLIT, COLL_C_OUT_SPLIT,
};

/* x / 1024 / (us / 1e6): GiB/s as TraceLens computes it */
static double gib_per_s(double mb, double us)
{
	return (mb / 1024) / (us / 1e6);
}

static void a2av_row(const struct coll_table *t, const struct coll_cid *k, struct coll_frame *f)
{
	const struct coll_row *ref = &t->row[k->rows[0]];
	size_t n = k->n, i;
	struct cv *ts = xmalloc(st_mult(n, sizeof(*ts))), *dur = xmalloc(st_mult(n, sizeof(*dur)));
	struct cv *end = xmalloc(st_mult(n, sizeof(*end))), *in = xmalloc(st_mult(n, sizeof(*in)));
	struct cv *nel = xmalloc(st_mult(n, sizeof(*nel)));
	struct cv es, ls, ee, le, wall, total, big;
	double tmax = NAN, tmin = NAN, mean;

	coll_frame_addrow(f);
	coll_frame_set(f, "collective_id", ref->c[COLL_C_CID]);
	for (i = 0; i < NMETA(a2av_meta); i++)
		coll_frame_set(f, coll_col_name[a2av_meta[i]], ref->c[a2av_meta[i]]);
	for (i = 0; i < n; i++) {
		const struct coll_row *r = &t->row[k->rows[i]];
		for (size_t c = 0; c < NMETA(a2av_per_rank); c++)
			set_rank_col(f, r->c[COLL_C_RANK].i, coll_col_name[a2av_per_rank[c]],
				     r->c[a2av_per_rank[c]]);
		ts[i] = r->c[COLL_C_TS];
		dur[i] = r->c[COLL_C_DUR];
		end[i] = num_add(ts[i], dur[i]);
		/* a size Python could not add (None) is NaN here */
		in[i] = cv_isnum(&r->c[COLL_C_IN_MB]) ? r->c[COLL_C_IN_MB] : cv_nan();
		nel[i] = cv_isnum(&r->c[COLL_C_IN_NELEMS]) ? r->c[COLL_C_IN_NELEMS] : cv_nan();
	}
	es = py_min(ts, n);
	ls = py_max(ts, n);
	ee = py_min(end, n);
	le = py_max(end, n);
	coll_frame_set(f, "skew in start time", num_sub(ls, es));
	coll_frame_set(f, "skew in end time", num_sub(le, ee));
	for (i = 0; i < n; i++) {
		int64_t rk = t->row[k->rows[i]].c[COLL_C_RANK].i;
		set_rank_col(f, rk, "skew in start time", num_sub(ts[i], es));
		set_rank_col(f, rk, "skew in end time", num_sub(le, end[i]));
	}
	total = py_sum(in, n);
	coll_frame_set(f, "total data communicated (MB)", total);
	coll_frame_set(f, "total nelems communicated", py_sum(nel, n));
	wall = num_sub(le, es);
	coll_frame_set(f, "wall_time (us)", wall);
	coll_frame_set(f, "max_rank_dur (us)", py_max(dur, n));
	coll_frame_set(f, "min_rank_dur (us)", py_min(dur, n));
	coll_frame_set(f, "avg_rank_dur (us)", py_mean(dur, n));
	coll_frame_set(f, "throughput (GB/s)", cv_num(&wall) > 0 ?
		       cv_number(gib_per_s(cv_num(&total), cv_num(&wall))) : cv_nan());
	for (i = 0; i < n; i++) {
		double s = cv_num(&in[i]), d = cv_num(&dur[i]), x;
		if (!(s > 0 && d > 0))
			continue;
		x = gib_per_s(s, d);
		if (tmax != tmax || x > tmax)
			tmax = x;
		if (tmin != tmin || x < tmin)
			tmin = x;
	}
	coll_frame_set(f, "max_rank_throughput (GB/s)", cv_number(tmax));
	coll_frame_set(f, "min_rank_throughput (GB/s)", cv_number(tmin));
	mean = cv_num(&total) / (double)n;
	big = py_max(in, n);
	coll_frame_set(f, "size_imbalance", mean > 0 ? cv_number(cv_num(&big) / mean) : cv_nan());
	free(ts);
	free(dur);
	free(end);
	free(in);
	free(nel);
}

static const char *const a2av_general[] = {
	"collective_id", "Process Group Name", "Process Group Ranks", "Collective name",
	"Group size", "dtype", "stream", "total data communicated (MB)",
	"total nelems communicated", "wall_time (us)", "max_rank_dur (us)",
	"min_rank_dur (us)", "avg_rank_dur (us)", "throughput (GB/s)",
	"max_rank_throughput (GB/s)", "min_rank_throughput (GB/s)", "size_imbalance",
	"skew in start time", "skew in end time",
};

int coll_sheet_a2av(const struct coll_table *t, int strict, struct coll_frame *out)
{
	for (size_t k = 0; k < t->ncids; k++) {
		const struct coll_cid *c = &t->cids[k];
		const struct cv *name = &t->row[c->rows[0]].c[COLL_C_COLL_NAME];

		if (name->kind != CV_STR || strcmp(name->s, "all_to_allv"))
			continue;
		if (check_meta(t, c, a2av_meta, NMETA(a2av_meta), strict) < 0)
			return -1;
		a2av_row(t, c, out);
	}
	if (!out->nrows)
		return 0;
	coll_frame_infer(out);
	order_general(out, a2av_general, NMETA(a2av_general));
	sort_desc(out, "total data communicated (MB)");
	return 0;
}

void coll_sheet_a2av_summary(const struct coll_frame *detailed, const char *const *agg,
			     size_t nagg, struct coll_frame *out)
{
	static const char *const keys[] = { "Process Group Name", "dtype" };
	static const char *const two[] = { "mean", "max" };
	static const char *const pairs[] = {
		"size_imbalance", "max_rank_dur (us)", "skew in start time", "skew in end time",
	};
	static const char *const meta[] = { "Process Group Ranks", "Collective name", "Group size" };
	struct coll_frame w;
	struct coll_group g;
	struct cv *ms;
	long tot;

	if (!detailed->nrows)
		return;
	coll_frame_init(&w, detailed->sp);
	coll_frame_copy(&w, detailed);
	coll_frame_filter_prefix(&w, "rank_", 0);
	coll_group_by(&g, &w, keys, 2, 1);
	if (!g.n) {
		coll_group_release(&g);
		coll_frame_release(&w);
		return;		/* empty: TraceLens writes no sheet */
	}
	out->nrows = g.n;
	coll_group_keys(&g, &w, keys, 2, out);
	for (size_t a = 0; a < nagg; a++)
		agg_into(&g, &w, "total data communicated (MB)", agg[a], out);
	for (size_t a = 0; a < nagg; a++)
		if (strcmp(agg[a], "sum"))	/* TraceLens raises on a second "sum" */
			agg_into(&g, &w, "wall_time (us)", agg[a], out);
	coll_group_agg(&g, &w, "wall_time (us)", "sum", out, "Total wall_time (us)");
	for (size_t a = 0; a < nagg; a++)
		agg_into(&g, &w, "throughput (GB/s)", agg[a], out);
	for (size_t p = 0; p < NMETA(pairs); p++)
		for (size_t a = 0; a < 2; a++)
			agg_into(&g, &w, pairs[p], two[a], out);
	coll_group_agg(&g, &w, "collective_id", "count", out, "count");
	for (size_t m = 0; m < NMETA(meta); m++)
		coll_group_agg(&g, &w, meta[m], "first", out, meta[m]);
	tot = coll_frame_find(out, "Total wall_time (us)");
	ms = xmalloc(st_mult(g.n, sizeof(*ms)));
	for (size_t i = 0; i < g.n; i++)
		ms[i] = cv_number(cv_num(coll_frame_cell(out, (size_t)tot, i)) / 1000);
	coll_frame_put_col(out, "Total wall_time (ms)", ms);
	free(ms);
	sort_desc(out, "Total wall_time (ms)");
	coll_group_release(&g);
	coll_frame_release(&w);
}

/* ---- nccl_all2allv_heatmap ---- */

/* _parse_split_sizes: -1 when TraceLens skips the row */
static int split_sizes(const struct cv *v, int64_t **out, size_t *n)
{
	const char *s;
	size_t len;

	*out = NULL;
	*n = 0;
	if (v->kind == CV_OBJ && v->json && v->json[0] == '[') {
		s = v->s;	/* the tuple's repr parses as the list did */
		len = strlen(s);
		return py_literal_ints(s, len, out, n) == PY_LITERAL_LIST ? 0 : -1;
	}
	if (v->kind != CV_STR)
		return -1;
	s = v->s;
	len = strlen(s);
	while (len && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')) {
		s++;
		len--;
	}
	if (!len || *s != '[')
		return -1;
	return py_literal_ints(s, len, out, n) == PY_LITERAL_LIST ? 0 : -1;
}

struct pair {
	int64_t src, dst;
	__int128 bytes;
	int64_t count;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return (x->dst > y->dst) - (x->dst < y->dst);
}

static int dtype_size(const struct cv *d)
{
	static const char *const names[] = { "Float", "Int", "Long", "BFloat16", "Bool",
					     "Byte", "Double", "Half", "Short" };
	static const int bytes[] = { 4, 4, 8, 2, 1, 1, 8, 2, 2 };

	for (size_t i = 0; d->kind == CV_STR && i < NMETA(names); i++)
		if (!strcmp(d->s, names[i]))
			return bytes[i];
	return 0;
}

void coll_sheet_heatmap(const struct coll_table *t, long world_size, struct coll_frame *out)
{
	struct pair *p = NULL;
	size_t np = 0, ap = 0, k = 0;

	if (world_size > 1024) {
		tl_warn("warning: no all2allv heatmap for world size %ld (over 1024, as TraceLens)",
			world_size);
		return;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct coll_row *r = &t->row[i];
		int64_t *sz;
		size_t n;
		int b;
		if (r->c[COLL_C_COLL_NAME].kind != CV_STR || strcmp(r->c[COLL_C_COLL_NAME].s, "all_to_allv"))
			continue;
		if (split_sizes(&r->c[COLL_C_IN_SPLIT], &sz, &n) < 0)
			continue;
		/* len != Group size (a NaN size never equals) or an unknown dtype: skipped */
		if ((r->c[COLL_C_GROUP_SIZE].kind != CV_NONE &&
		     !(cv_isnum(&r->c[COLL_C_GROUP_SIZE]) &&
		       cv_num(&r->c[COLL_C_GROUP_SIZE]) == (double)n)) ||
		    !(b = dtype_size(&r->c[COLL_C_DTYPE]))) {
			free(sz);
			continue;
		}
		for (size_t d = 0; d < n; d++) {
			xgrow((void **)&p, &ap, np + 1, sizeof(*p));
			p[np].src = r->c[COLL_C_RANK].i;
			p[np].dst = (int64_t)d;
			p[np].bytes = (__int128)sz[d] * b;
			p[np++].count = 1;
		}
		free(sz);
	}
	if (!np)
		return;
	qsort(p, np, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < np; i = k) {
		__int128 bytes = 0;
		int64_t count = 0;
		double mb;
		for (k = i; k < np && !cmp_pair(&p[i], &p[k]); k++) {
			bytes += p[k].bytes;
			count += p[k].count;
		}
		mb = (double)bytes / 1048576.0;
		coll_frame_addrow(out);
		coll_frame_set(out, "src_rank", cv_int(p[i].src));
		coll_frame_set(out, "dst_rank", cv_int(p[i].dst));
		coll_frame_set(out, "total_sent_MB", cv_number(mb));
		coll_frame_set(out, "avg_sent_MB", cv_number(mb / (double)count));
		coll_frame_set(out, "count", cv_int(count));
	}
	coll_frame_infer(out);
	free(p);
}

/* ---- node_id, node_span (reporting_utils.add_node_span_columns) ---- */

static int64_t floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static const char NODE_UNKNOWN[] = "unknown", NODE_INTRA[] = "intra_node",
		  NODE_INTER[] = "inter_node";

/* _parse_pg_ranks then _node_span_for_pg */
static const char *node_span(const struct cv *v, long gpn)
{
	int64_t *r = NULL;
	size_t n = 0;
	const char *span;

	if (v->kind == CV_OBJ && v->json && v->json[0] == '[') {
		if (py_literal_ints(v->s, strlen(v->s), &r, &n) != PY_LITERAL_LIST)
			n = 0;
	} else if (v->kind == CV_STR) {
		int rc = py_literal_ints(v->s, strlen(v->s), &r, &n);
		if (rc == PY_LITERAL_ERROR)
			py_findall_digits(v->s, strlen(v->s), &r, &n);
	}
	span = NODE_UNKNOWN;
	if (n) {
		span = NODE_INTRA;
		for (size_t i = 1; i < n; i++)
			if (floordiv(r[i], gpn) != floordiv(r[0], gpn))
				span = NODE_INTER;
	}
	free(r);
	return span;
}

void coll_sheet_node_columns(struct coll_frame *f, long gpus_per_node)
{
	long rc = coll_frame_find(f, "rank"), pc = coll_frame_find(f, "Process Group Ranks");
	struct cv *v;

	if (!f->nrows || (rc < 0 && pc < 0))
		return;
	v = xmalloc(st_mult(f->nrows, sizeof(*v)));
	if (rc >= 0) {
		for (size_t r = 0; r < f->nrows; r++) {
			const struct cv *x = coll_frame_cell(f, (size_t)rc, r);
			v[r] = cv_isnum(x) ? cv_int(floordiv((int64_t)cv_num(x), gpus_per_node)) : cv_nan();
		}
		coll_frame_put_col(f, "node_id", v);
	}
	if (pc >= 0) {
		/* once per distinct value, as TraceLens maps pg_series.unique() */
		struct hmap seen = HMAP_INIT;
		static const char *const spans[] = { NODE_UNKNOWN, NODE_INTRA, NODE_INTER };
		for (size_t r = 0; r < f->nrows; r++) {
			const struct cv *x = coll_frame_cell(f, (size_t)pc, r);
			uint64_t key = (x->kind == CV_STR || x->kind == CV_OBJ) ? (uint64_t)(uintptr_t)x->s : 0;
			uint32_t k;
			if (!key || !hmap_get(&seen, key, &k)) {
				const char *s = node_span(x, gpus_per_node);
				k = s == spans[0] ? 0 : s == spans[1] ? 1 : 2;
				if (key)
					hmap_put(&seen, key, k);
			}
			v[r] = cv_str(f->sp, spans[k], strlen(spans[k]));
		}
		hmap_release(&seen);
		coll_frame_put_col(f, "node_span", v);
	}
	free(v);
}
