#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "perf_compare.h"
#include "py_repr.h"
#include "xalloc.h"
#include "banned.h"

/* one diff_stats row, the columns the enrichment reads */
struct drow {
	int trace1;		/* source == "trace1" (else trace2 or other) */
	int trace2;
	double uid;		/* gpu_op_uid, NaN if missing */
	double lca;		/* lowest_common_ancestor_id, NaN if missing */
	const char *lca_text;	/* its text (str() of the value) */
	const char *name;	/* lowest_common_ancestor_name, NULL if missing */
	double busy;		/* busy_time, NaN if missing */
};

struct perf_compare {
	struct csv c;
	struct drow *r;
	size_t n;
	char **text;		/* the lca id and name texts, two per row */
};

static int col_of(const struct csv *c, const char *name)
{
	for (size_t i = 0; i < c->ncols; i++)
		if (!strcmp(c->names[i], name))
			return (int)i;
	return -1;
}

/* a cell's text as a malloc'd string, NULL for a missing column */
static char *cell(const struct csv *c, size_t r, int col)
{
	const struct csv_field *f;

	if (col < 0)
		return NULL;
	f = csv_at(c, r, (size_t)col);
	return xstrndup(f->s, f->n);
}

static double num(const char *s)
{
	char *e;
	double v;

	if (!s || !*s)
		return NAN;
	v = strtod(s, &e);
	return *e ? NAN : v;
}

struct perf_compare *perf_compare_load(const char *path)
{
	struct perf_compare *pc = xcalloc(1, sizeof(*pc));
	int cs, cu, cl, cn, cb;

	if (csv_read(&pc->c, path) < 0) {
		free(pc);
		return NULL;
	}
	cs = col_of(&pc->c, "source");
	cu = col_of(&pc->c, "gpu_op_uid");
	cl = col_of(&pc->c, "lowest_common_ancestor_id");
	cn = col_of(&pc->c, "lowest_common_ancestor_name");
	cb = col_of(&pc->c, "busy_time");
	pc->r = xcalloc(pc->c.nrows + 1, sizeof(*pc->r));
	pc->text = xcalloc(2 * pc->c.nrows + 1, sizeof(*pc->text));
	for (size_t i = 0; i < pc->c.nrows; i++) {
		struct drow *d = &pc->r[pc->n++];
		char *s = cell(&pc->c, i, cs), *u = cell(&pc->c, i, cu), *b = cell(&pc->c, i, cb);
		char *l = cell(&pc->c, i, cl), *nm = cell(&pc->c, i, cn);
		d->trace1 = s && !strcmp(s, "trace1");
		d->trace2 = s && !strcmp(s, "trace2");
		d->uid = num(u);
		d->lca = num(l);
		d->lca_text = l ? l : "";
		d->name = nm && *nm ? nm : NULL;
		d->busy = num(b);
		pc->text[2 * i] = l;
		pc->text[2 * i + 1] = nm;
		free(s);
		free(u);
		free(b);
	}
	return pc;
}

void perf_compare_free(struct perf_compare *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < 2 * pc->n; i++)
		free(pc->text[i]);
	free(pc->text);
	free(pc->r);
	csv_release(&pc->c);
	free(pc);
}

int perf_compare_has_rows(const struct perf_compare *pc)
{
	return pc && pc->n > 0;
}

static const struct perf_compare *sort_pc;

/* trace1 rows with an LCA by LCA id (groupby sorts its keys), then order */
static int cmp_lca(const void *a, const void *b)
{
	const struct drow *x = &sort_pc->r[*(const size_t *)a], *y = &sort_pc->r[*(const size_t *)b];

	if (x->lca != y->lca)
		return x->lca < y->lca ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* one more LCA for a row: an LCA group visits a row once, so no id is
 * added twice (TraceLens's "lca_id not in lca_ids" never fails here) */
static void add_lca(struct lca_meta *m, struct pystr *ids, struct pystr *names,
		    const struct drow *first, const char *name, double t1, double t2, int has2)
{
	if (ids->len)
		pystr_adds(ids, "; ");
	pystr_adds(ids, first->lca_text);
	if (name) {
		if (names->len)
			pystr_adds(names, "; ");
		pystr_adds(names, name);
	}
	if (!m->has) {
		m->has = 1;
		m->t1 = t1;
		m->t2 = t2;
		m->count2 = has2;
		return;
	}
	m->t1 += t1;
	m->t2 += t2;
	m->count2 += has2;
}

struct lca_meta *perf_compare_rows(const struct perf_compare *pc, const int32_t *row_of,
				   size_t nuid, size_t nrows)
{
	struct lca_meta *m = xcalloc(nrows + 1, sizeof(*m));
	size_t *t1 = xmalloc(st_mult(pc->n + 1, sizeof(*t1))), n1 = 0;
	size_t *t2 = xmalloc(st_mult(pc->n + 1, sizeof(*t2))), n2 = 0, k2 = 0;
	size_t *seen = xcalloc(nrows + 1, sizeof(*seen)), gen = 0;
	struct pystr *ids = xcalloc(nrows + 1, sizeof(*ids)), *names = xcalloc(nrows + 1, sizeof(*names));

	/* dropna(subset=[lowest_common_ancestor_id]), split by source */
	for (size_t i = 0; i < pc->n; i++) {
		if (pc->r[i].lca != pc->r[i].lca)
			continue;
		if (pc->r[i].trace1)
			t1[n1++] = i;
		else if (pc->r[i].trace2)
			t2[n2++] = i;
	}
	sort_pc = pc;
	qsort(t1, n1, sizeof(*t1), cmp_lca);
	qsort(t2, n2, sizeof(*t2), cmp_lca);
	for (size_t a = 0, b; a < n1; a = b) {
		const struct drow *f = &pc->r[t1[a]];
		double tt1 = f->busy, tt2 = NAN;
		int has2 = 0;
		const char *name = NULL;
		for (b = a; b < n1 && pc->r[t1[b]].lca == f->lca; b++)
			if (!name && pc->r[t1[b]].name)
				name = pc->r[t1[b]].name;
		/* trace2's rows of the same LCA: first busy_time, any GPU event */
		while (k2 < n2 && pc->r[t2[k2]].lca < f->lca)
			k2++;
		for (size_t i = k2; i < n2 && pc->r[t2[i]].lca == f->lca; i++) {
			const struct drow *d = &pc->r[t2[i]];
			if (tt2 != tt2 && d->busy == d->busy)
				tt2 = d->busy;
			if (d->uid == d->uid)
				has2 = 1;
		}
		if (tt2 != tt2)
			tt2 = 0.0;
		gen++;		/* seen[row] == gen: this group reached the row */
		for (size_t j = a; j < b; j++) {
			const struct drow *d = &pc->r[t1[j]];
			int32_t row;
			if (d->uid != d->uid || d->uid < 0 || d->uid >= (double)nuid)
				continue;
			row = row_of[(size_t)d->uid];
			if (row < 0 || seen[row] == gen)
				continue;
			seen[row] = gen;
			add_lca(&m[row], &ids[row], &names[row], f, name, tt1, tt2, has2);
		}
	}
	for (size_t r = 0; r < nrows; r++) {
		if (m[r].has) {
			m[r].ids = ids[r].buf;
			m[r].names = names[r].buf ? names[r].buf : xstrdup("");
		} else {
			pystr_release(&ids[r]);
			pystr_release(&names[r]);
		}
	}
	free(ids);
	free(names);
	free(t1);
	free(t2);
	free(seen);
	return m;
}

void perf_compare_release_rows(struct lca_meta *m, size_t nrows)
{
	for (size_t i = 0; m && i < nrows; i++) {
		free(m[i].ids);
		free(m[i].names);
	}
	free(m);
}
