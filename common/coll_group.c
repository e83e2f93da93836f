#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll_group.h"
#include "pd_agg.h"
#include "pd_groupby.h"
#include "xalloc.h"
#include "banned.h"

struct sort_ctx {
	const struct coll_frame *f;
	const long *cols;
	size_t ncols;
	const size_t *first;	/* first row of each group */
};

static const struct sort_ctx *sort_ctx;

static int cmp_groups(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct sort_ctx *s = sort_ctx;

	for (size_t k = 0; k < s->ncols; k++) {
		int c = cv_cmp(coll_frame_cell(s->f, (size_t)s->cols[k], s->first[x]),
			       coll_frame_cell(s->f, (size_t)s->cols[k], s->first[y]));
		if (c)
			return c;
	}
	return (x > y) - (x < y);
}

void coll_group_by(struct coll_group *g, const struct coll_frame *f,
		   const char *const *keys, size_t nkeys, int dropna)
{
	struct pd_groupby *pg = pd_groupby_new();
	long *cols = xmalloc(st_mult(nkeys ? nkeys : 1, sizeof(*cols)));
	struct pystr key = { 0 };
	size_t *order, *first, ng, k = 0;
	struct sort_ctx ctx;

	for (size_t c = 0; c < nkeys; c++)
		cols[c] = coll_frame_find(f, keys[c]);
	for (size_t r = 0; r < f->nrows; r++) {
		int na = 0;
		pystr_reset(&key);
		for (size_t c = 0; c < nkeys; c++) {
			const struct cv *v = coll_frame_cell(f, (size_t)cols[c], r);
			na |= cv_isna(v);
			cv_key(&key, v);
			pystr_addc(&key, PD_GROUPBY_SEP);
		}
		if (!(na && dropna))
			pd_groupby_add(pg, key.buf, key.len, r);
	}
	ng = pd_groupby_count(pg);
	order = xmalloc(st_mult(ng ? ng : 1, sizeof(*order)));
	first = xmalloc(st_mult(ng ? ng : 1, sizeof(*first)));
	for (size_t i = 0; i < ng; i++) {
		size_t n;
		order[i] = i;
		first[i] = pd_groupby_rows(pg, i, &n)[0];
	}
	ctx.f = f;
	ctx.cols = cols;
	ctx.ncols = nkeys;
	ctx.first = first;
	sort_ctx = &ctx;
	qsort(order, ng, sizeof(*order), cmp_groups);
	g->n = ng;
	g->start = xmalloc(st_mult(ng + 1, sizeof(*g->start)));
	g->row = xmalloc(st_mult(f->nrows ? f->nrows : 1, sizeof(*g->row)));
	for (size_t i = 0; i < ng; i++) {
		size_t n;
		const size_t *rows = pd_groupby_rows(pg, order[i], &n);
		g->start[i] = k;
		memcpy(g->row + k, rows, n * sizeof(*rows));
		k += n;
	}
	g->start[ng] = k;
	free(order);
	free(first);
	free(cols);
	pystr_release(&key);
	pd_groupby_free(pg);
}

void coll_group_release(struct coll_group *g)
{
	free(g->start);
	free(g->row);
	memset(g, 0, sizeof(*g));
}

void coll_group_keys(const struct coll_group *g, const struct coll_frame *f,
		     const char *const *keys, size_t nkeys, struct coll_frame *out)
{
	struct cv *v = xmalloc(st_mult(g->n ? g->n : 1, sizeof(*v)));

	for (size_t c = 0; c < nkeys; c++) {
		long col = coll_frame_find(f, keys[c]);
		for (size_t i = 0; i < g->n; i++)
			v[i] = *coll_frame_cell(f, (size_t)col, g->row[g->start[i]]);
		coll_frame_put_col(out, keys[c], v);
	}
	free(v);
}

static const char *const known[] = {
	"sum", "mean", "median", "std", "var", "min", "max", "count", "size",
	"first", "last", "sum/1000",
};

int coll_group_agg_known(const char *agg)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(agg, known[i]))
			return 1;
	return 0;
}

/*
 * An int column (or a bool one) stays int under sum, min and max; the sum
 * wraps around as numpy's int64 does.
 */
static struct cv int_agg(const struct cv *c, size_t n, const char *agg)
{
	int is_sum = !strcmp(agg, "sum"), is_min = !strcmp(agg, "min");
	int is_max = !strcmp(agg, "max");
	int64_t acc = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (cv_isna(&c[i]))
			continue;
		if (is_sum)
			acc = (int64_t)((uint64_t)acc + (uint64_t)c[i].i);
		else if (!k || (is_min && c[i].i < acc) || (is_max && c[i].i > acc))
			acc = c[i].i;
		k++;
	}
	return k || is_sum ? cv_int(acc) : cv_nan();
}

static struct cv first_last(const struct cv *c, size_t n, int last)
{
	for (size_t i = 0; i < n; i++) {
		const struct cv *v = &c[last ? n - 1 - i : i];
		if (!cv_isna(v))
			return *v;
	}
	return cv_nan();
}

static struct cv float_agg(const struct cv *c, size_t n, const char *agg)
{
	double *x = xmalloc(st_mult(n ? n : 1, sizeof(*x))), r;

	for (size_t i = 0; i < n; i++)
		x[i] = cv_num(&c[i]);
	if (!strcmp(agg, "sum"))
		r = pd_group_sum(x, n);
	else if (!strcmp(agg, "mean"))
		r = pd_group_mean(x, n);
	else if (!strcmp(agg, "median"))
		r = pd_group_median(x, n);
	else if (!strcmp(agg, "std"))
		r = pd_group_std(x, n, 1);
	else if (!strcmp(agg, "var"))
		r = pd_group_var(x, n, 1);
	else if (!strcmp(agg, "min"))
		r = pd_group_min(x, n);
	else if (!strcmp(agg, "max"))
		r = pd_group_max(x, n);
	else
		r = pd_series_sum(x, n) / 1000.0;	/* sum/1000 */
	free(x);
	return cv_number(r);
}

static struct cv agg_one(const struct cv *c, size_t n, enum cv_dtype dt, const char *agg)
{
	size_t k = 0;

	if (!strcmp(agg, "size"))
		return cv_int((int64_t)n);
	if (!strcmp(agg, "count")) {
		for (size_t i = 0; i < n; i++)
			k += !cv_isna(&c[i]);
		return cv_int((int64_t)k);
	}
	if (!strcmp(agg, "first") || !strcmp(agg, "last"))
		return first_last(c, n, agg[0] == 'l');
	if (!strcmp(agg, "sum/1000") && (dt == DT_INT || dt == DT_BOOL)) {
		struct cv s = int_agg(c, n, "sum");
		return cv_float((double)s.i / 1000.0);
	}
	if ((dt == DT_INT || dt == DT_BOOL) &&
	    (!strcmp(agg, "sum") || !strcmp(agg, "min") || !strcmp(agg, "max")))
		return int_agg(c, n, agg);
	return float_agg(c, n, agg);
}

int coll_group_agg(const struct coll_group *g, const struct coll_frame *f,
		   const char *col, const char *agg, struct coll_frame *out,
		   const char *name)
{
	long c = coll_frame_find(f, col);
	struct cv *v, *cells;

	if (!coll_group_agg_known(agg) || c < 0)
		return -1;
	v = xmalloc(st_mult(g->n ? g->n : 1, sizeof(*v)));
	cells = xmalloc(st_mult(f->nrows ? f->nrows : 1, sizeof(*cells)));
	for (size_t i = 0; i < g->n; i++) {
		size_t n = g->start[i + 1] - g->start[i];
		for (size_t k = 0; k < n; k++)
			cells[k] = *coll_frame_cell(f, (size_t)c, g->row[g->start[i] + k]);
		v[i] = agg_one(cells, n, f->col[c].dt, agg);
	}
	coll_frame_put_col(out, name, v);
	free(v);
	free(cells);
	return 0;
}
