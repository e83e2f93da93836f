#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csv.h"
#include "err.h"
#include "idle_merge.h"
#include "idle_report.h"
#include "np_stat.h"
#include "outbuf.h"
#include "path.h"
#include "py_fmt.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* DIR itself when it holds the idle files, else DIR/idle. */
static char *idle_dir(const char *dir)
{
	char *probe = path_join(dir, "temporal_breakdown.csv", ""), *sub;
	struct stat st;

	if (!stat(probe, &st)) {
		free(probe);
		return xstrdup(dir);
	}
	free(probe);
	sub = path_join(dir, "idle", "");
	probe = path_join(sub, "temporal_breakdown.csv", "");
	if (!stat(probe, &st)) {
		free(probe);
		return sub;
	}
	tl_warn("%s: no temporal_breakdown.csv, here or in idle/: not an idle folder", dir);
	free(probe);
	free(sub);
	return NULL;
}

struct mrow {
	const struct csv *c;
	size_t r;
	long rank;
	size_t seq;		/* input order, for stable sorts */
};

struct table {
	struct csv *c;		/* one per input */
	size_t n;
	long rank_col;
};

static const char *cell(const struct csv *c, size_t r, long col, size_t *n)
{
	const struct csv_field *f = csv_at(c, r, (size_t)col);
	*n = f->n;
	return f->s;
}

static long cell_long(const struct csv *c, size_t r, long col)
{
	size_t n;
	const char *s = cell(c, r, col, &n);
	char buf[32];

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	tl_memcpy(buf, s, n);
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

/* Reads NAME from every input; -1 (message printed) on error. */
static int load(struct table *t, char **dirs, size_t n, const char *name)
{
	memset(t, 0, sizeof(*t));
	t->c = xcalloc(n + 1, sizeof(*t->c));
	for (size_t i = 0; i < n; i++) {
		char *p = path_join(dirs[i], name, "");
		int rc = csv_read(&t->c[i], p);
		free(p);
		if (rc < 0)
			return -1;
		t->n = i + 1;
		if (t->c[i].ncols != t->c[0].ncols) {
			tl_warn("%s/%s: columns differ from %s/%s", dirs[i], name, dirs[0], name);
			return -1;
		}
		for (size_t k = 0; k < t->c[i].ncols; k++)
			if (strcmp(t->c[i].names[k], t->c[0].names[k])) {
				tl_warn("%s/%s: columns differ from %s/%s", dirs[i], name, dirs[0], name);
				return -1;
			}
	}
	t->rank_col = n ? csv_col(&t->c[0], "rank") : -1;
	return 0;
}

static void unload(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		csv_release(&t->c[i]);
	free(t->c);
}

static struct mrow *rows_of(const struct table *t, size_t *n)
{
	struct mrow *m = NULL;
	size_t alloc = 0, k = 0;

	for (size_t i = 0; i < t->n; i++)
		for (size_t r = 0; r < t->c[i].nrows; r++) {
			xgrow((void **)&m, &alloc, k + 1, sizeof(*m));
			m[k].c = &t->c[i];
			m[k].r = r;
			m[k].rank = t->rank_col >= 0 ? cell_long(&t->c[i], r, t->rank_col) : 0;
			m[k].seq = k;
			k++;
		}
	*n = k;
	return m;
}

static void put_header(struct outbuf *ob, const struct csv *c)
{
	for (size_t k = 0; k < c->ncols; k++) {
		if (k)
			outbuf_putc(ob, ',');
		csv_cell(ob, c->names[k], strlen(c->names[k]));
	}
	outbuf_putc(ob, '\n');
}

static void put_row(struct outbuf *ob, const struct mrow *m)
{
	for (size_t k = 0; k < m->c->ncols; k++) {
		size_t n;
		const char *s = cell(m->c, m->r, (long)k, &n);
		if (k)
			outbuf_putc(ob, ',');
		csv_cell(ob, s, n);
	}
	outbuf_putc(ob, '\n');
}

static long sort_col1, sort_col2;	/* for the comparators below */

static int by_rank(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_rank_stream(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	long s, t;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	s = cell_long(x->c, x->r, sort_col1);
	t = cell_long(y->c, y->r, sort_col1);
	if (s != t)
		return s < t ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int cmp_cells(const struct mrow *x, const struct mrow *y, long col)
{
	size_t na, nb;
	const char *a = cell(x->c, x->r, col, &na), *b = cell(y->c, y->r, col, &nb);
	int c = memcmp(a, b, na < nb ? na : nb);
	return c ? c : (na > nb) - (na < nb);
}

static int by_type_name_rank(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	int c = cmp_cells(x, y, sort_col1);
	if (!c)
		c = cmp_cells(x, y, sort_col2);
	if (!c && x->rank != y->rank)
		c = x->rank < y->rank ? -1 : 1;
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

enum order { BY_RANK, BY_RANK_STREAM, BY_TYPE_NAME_RANK, SELECTED };

static int merge_file(char **dirs, size_t n, const char *name, enum order order,
		      const long *sel, size_t nsel, const char *out)
{
	struct table t;
	struct mrow *m;
	size_t nm;
	struct outbuf *ob;
	char *path;

	if (load(&t, dirs, n, name) < 0) {
		unload(&t);
		return -1;
	}
	m = rows_of(&t, &nm);
	switch (order) {
	case BY_RANK_STREAM:
		sort_col1 = csv_col(&t.c[0], "stream");
		if (nm > 1)
			tl_qsort(m, nm, sizeof(*m), by_rank_stream);
		break;
	case BY_TYPE_NAME_RANK:
		sort_col1 = csv_col(&t.c[0], "kernel_type");
		sort_col2 = csv_col(&t.c[0], "name");
		if (nm > 1)
			tl_qsort(m, nm, sizeof(*m), by_type_name_rank);
		break;
	default:
		if (nm > 1)
			tl_qsort(m, nm, sizeof(*m), by_rank);
		break;
	}
	path = path_join(out, name, "");
	ob = outbuf_open_path(path);
	put_header(ob, &t.c[0]);
	if (order == SELECTED) {
		for (size_t k = 0; k < nsel; k++)	/* in the order the ranks were asked */
			for (size_t i = 0; i < nm; i++)
				if (m[i].rank == sel[k])
					put_row(ob, &m[i]);
	} else {
		for (size_t i = 0; i < nm; i++)
			put_row(ob, &m[i]);
	}
	outbuf_close(ob);
	free(path);
	free(m);
	unload(&t);
	return 0;
}

/* The ranks' time per kernel type, summed and sorted as HTA does. */
static int merge_kernel_types(char **dirs, size_t n, const char *out)
{
	const char *name = "gpu_kernel_type_breakdown.csv";
	struct table t;
	struct mrow *m;
	size_t nm, ng = 0, *ord;
	struct { const struct mrow *key; long long sum; } *g;
	double *sums;
	long long total = 0;
	long ct, cs;
	struct outbuf *ob;
	char *path;

	if (load(&t, dirs, n, name) < 0) {
		unload(&t);
		return -1;
	}
	ct = csv_col(&t.c[0], "kernel_type");
	cs = csv_col(&t.c[0], "sum");
	if (ct < 0 || cs < 0) {
		tl_warn("%s/%s: no kernel_type or sum column", dirs[0], name);
		unload(&t);
		return -1;
	}
	m = rows_of(&t, &nm);
	g = xcalloc(nm + 1, sizeof(*g));
	/* groupby(kernel_type).sum(): the keys sorted */
	sort_col1 = sort_col2 = ct;
	if (nm > 1)
		tl_qsort(m, nm, sizeof(*m), by_type_name_rank);
	for (size_t i = 0; i < nm; i++) {
		size_t len;
		const char *s = cell(m[i].c, m[i].r, cs, &len);
		char buf[32];
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		tl_memcpy(buf, s, len);
		buf[len] = 0;
		if (!ng || cmp_cells(g[ng - 1].key, &m[i], ct))
			g[ng++].key = &m[i];
		g[ng - 1].sum += strtoll(buf, NULL, 10);
	}
	sums = xmalloc(st_mult(ng + 1, sizeof(double)));
	ord = xmalloc(st_mult(ng + 1, sizeof(size_t)));
	for (size_t i = 0; i < ng; i++) {
		sums[i] = (double)g[i].sum;
		total += g[i].sum;
	}
	pd_argsort_desc(sums, ord, ng);
	path = path_join(out, name, "");
	ob = outbuf_open_path(path);
	outbuf_puts(ob, "kernel_type,sum,percentage\n");
	for (size_t k = 0; k < ng; k++) {
		size_t len;
		const char *s = cell(g[ord[k]].key->c, g[ord[k]].key->r, ct, &len);
		csv_cell(ob, s, len);
		outbuf_printf(ob, ",%lld,", g[ord[k]].sum);
		csv_float(ob, np_round((double)g[ord[k]].sum / (double)total * 100, 1));
		outbuf_putc(ob, '\n');
	}
	outbuf_close(ob);
	free(path);
	free(sums);
	free(ord);
	free(g);
	free(m);
	unload(&t);
	return 0;
}

/* Every rank once; the selected ranks as idle_report picks them. */
static int ranks(char **dirs, size_t n, const struct idle_opts *o, long **sel, size_t *nsel)
{
	struct table t;
	struct mrow *m;
	size_t nm;
	int rval = 0;

	*sel = NULL;
	*nsel = 0;
	if (load(&t, dirs, n, "temporal_breakdown.csv") < 0) {
		unload(&t);
		return -1;
	}
	m = rows_of(&t, &nm);
	if (nm > 1)
		tl_qsort(m, nm, sizeof(*m), by_rank);
	for (size_t i = 1; i < nm; i++)
		if (m[i].rank == m[i - 1].rank) {
			tl_warn("rank %ld is in two idle folders", m[i].rank);
			rval = -1;
		}
	*sel = xmalloc(st_mult(nm + o->nranks + 1, sizeof(long)));
	if (rval == 0 && o->all_ranks) {
		for (size_t i = 0; i < nm; i++)
			(*sel)[(*nsel)++] = m[i].rank;
	} else if (rval == 0 && o->nranks) {
		for (size_t k = 0; k < o->nranks; k++) {
			size_t i;
			for (i = 0; i < nm && m[i].rank != o->ranks[k]; i++)
				;
			if (i == nm) {
				tl_warn("no idle folder has rank %ld", o->ranks[k]);
				rval = -1;
			}
			(*sel)[(*nsel)++] = o->ranks[k];
		}
	} else if (rval == 0 && nm) {
		size_t i;
		for (i = 0; i < nm && m[i].rank != 0; i++)
			;
		(*sel)[(*nsel)++] = i < nm ? 0 : m[0].rank;
	}
	free(m);
	unload(&t);
	return rval;
}

int idle_merge(char **in, size_t n, const struct idle_opts *o, const char *out)
{
	static const struct { const char *name; enum order order; } files[] = {
		{ "temporal_breakdown.csv", BY_RANK },
		{ "idle_time_breakdown.csv", SELECTED },
		{ "comm_comp_overlap.csv", BY_RANK },
		{ "gpu_kernel_breakdown.csv", BY_TYPE_NAME_RANK },
		{ "cuda_kernel_launch_stats.csv", SELECTED },
		{ "queue_length_summary.csv", BY_RANK_STREAM },
		{ "launch_summary.csv", BY_RANK },
		{ "summary.csv", BY_RANK },
	};
	char **dirs = xcalloc(n + 1, sizeof(char *));
	long *sel = NULL;
	size_t nsel = 0;
	int rval = 0;

	for (size_t i = 0; i < n; i++)
		if (!(dirs[i] = idle_dir(in[i])))
			rval = 1;
	if (rval == 0 && ranks(dirs, n, o, &sel, &nsel) < 0)
		rval = 1;
	if (rval == 0 && idle_mkdirs(out) < 0)
		rval = 1;
	for (size_t f = 0; rval == 0 && f < sizeof(files) / sizeof(files[0]); f++)
		if (merge_file(dirs, n, files[f].name, files[f].order, sel, nsel, out) < 0)
			rval = 1;
	if (rval == 0 && merge_kernel_types(dirs, n, out) < 0)
		rval = 1;
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	free(sel);
	return rval;
}
