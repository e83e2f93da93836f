#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_name.h"
#include "coll_table.h"
#include "err.h"
#include "hmap.h"
#include "pd_groupby.h"
#include "strpool.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

const char *const coll_col_name[COLL_NCOLS] = {
	"collective_id", "index_in_group", "rank", "Process Group Name",
	"Process Group Ranks", "Collective name", "Group size", "dtype",
	"In msg nelems", "In msg size (MB)", "Out msg nelems", "Out msg size (MB)",
	"In split size", "Out split size", "stream", "ts", "dur",
};

/* stream field → table column */
static const enum coll_col field_col[COLL_NFIELDS] = {
	COLL_C_PG_NAME, COLL_C_PG_RANKS, COLL_C_COLL_NAME, COLL_C_GROUP_SIZE,
	COLL_C_DTYPE, COLL_C_IN_NELEMS, COLL_C_OUT_NELEMS, COLL_C_IN_SPLIT,
	COLL_C_OUT_SPLIT, COLL_C_STREAM,
};

/* NcclAnalyser.dtype2bytes */
static int dtype_bytes(const struct cv *d)
{
	static const struct { const char *name; int bytes; } tab[] = {
		{ "Float", 4 }, { "Int", 4 }, { "Long", 8 }, { "BFloat16", 2 },
		{ "Bool", 1 }, { "Byte", 1 }, { "Double", 8 }, { "Half", 2 },
		{ "Short", 2 },
	};

	if (d->kind != CV_STR)
		return 0;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(d->s, tab[i].name))
			return tab[i].bytes;
	return 0;
}

/* nelems * bytes / 1024**2 as Python computes it; -1 if not a number */
static int msg_mb(const struct cv *nelems, int bytes, struct cv *out)
{
	if (nelems->kind == CV_INT || nelems->kind == CV_BOOL) {
		/* Python ints do not overflow; the quotient is correctly rounded */
		__int128 p = (__int128)nelems->i * bytes;
		*out = cv_float((double)p / 1048576.0);
		return 0;
	}
	if (nelems->kind == CV_FLOAT) {
		*out = cv_float(nelems->d * bytes / 1048576.0);
		return 0;
	}
	*out = cv_none();
	return -1;
}

const char *coll_table_file(const struct coll_table *t, const struct coll_row *r)
{
	return t->ranks[r->file].path;
}

static int cmp_rank(const void *a, const void *b)
{
	const long *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/*
 * Ranks: #rank, else the position in the list.  Sorts the streams into
 * rank order; a rank twice is an error.
 */
static int order_ranks(struct coll_table *t, struct coll_rank *ranks, size_t n)
{
	long (*key)[2] = xmalloc(st_mult(n ? n : 1, sizeof(*key)));
	struct coll_rank *tmp = xmalloc(st_mult(n ? n : 1, sizeof(*tmp)));
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		key[i][0] = ranks[i].rank >= 0 ? ranks[i].rank : (long)i;
		key[i][1] = (long)i;
	}
	tl_qsort(key, n, sizeof(*key), cmp_rank);	/* equal ranks: any order, error below */
	t->rank_of = xmalloc(st_mult(n ? n : 1, sizeof(*t->rank_of)));
	for (size_t i = 0; i < n; i++) {
		if (i && key[i][0] == key[i - 1][0] && !rc) {
			size_t a = (size_t)key[i - 1][1], b = (size_t)key[i][1];
			tl_warn("%s: rank %ld again (also %s)", ranks[a > b ? a : b].path,
				key[i][0], ranks[a > b ? b : a].path);
			rc = -1;
		}
		tmp[i] = ranks[key[i][1]];
		t->rank_of[i] = key[i][0];
	}
	tl_memcpy(ranks, tmp, n * sizeof(*tmp));
	free(tmp);
	free(key);
	return rc;
}

/*
 * The last value parsed for each field: a rank's kernels repeat the same
 * texts (a process group's ranks, a dtype), and interned texts are equal
 * exactly when their pointers are.
 */
struct parse_cache {
	const char *text[COLL_NFIELDS];
	struct cv v[COLL_NFIELDS];
};

static int add_row(struct coll_table *t, size_t file, const struct coll_event *e,
		   struct parse_cache *pc)
{
	struct coll_row *r = &t->row[t->n++];
	const char *path = t->ranks[file].path;
	int bytes;

	memset(r, 0, sizeof(*r));
	r->file = (uint32_t)file;
	r->uid = e->uid;
	r->kernel = strpool_str(t->sp, strpool_intern(t->sp, e->name, strlen(e->name)));
	r->c[COLL_C_RANK] = cv_int(t->rank_of[file]);
	for (int f = 0; f < COLL_NFIELDS; f++) {
		const char *j = e->field[f];
		if (j && j == pc->text[f]) {
			r->c[field_col[f]] = pc->v[f];
			continue;
		}
		if (cv_from_json(t->sp, j ? j : "", j ? strlen(j) : 0, &r->c[field_col[f]]) < 0) {
			tl_warn("%s: uid %llu: %s is not JSON", path,
				(unsigned long long)e->uid, coll_field_col[f]);
			return -1;
		}
		pc->text[f] = j;
		pc->v[f] = r->c[field_col[f]];
	}
	if (cv_from_json(t->sp, e->ts, strlen(e->ts), &r->c[COLL_C_TS]) < 0 ||
	    cv_from_json(t->sp, e->dur, strlen(e->dur), &r->c[COLL_C_DUR]) < 0 ||
	    !cv_isnum(&r->c[COLL_C_TS]) || !cv_isnum(&r->c[COLL_C_DUR])) {
		tl_warn("%s: uid %llu: ts or dur is not a number", path,
			(unsigned long long)e->uid);
		return -1;
	}
	/* _infer_collective_name: the default rule cross_device_reduce → allreduce */
	if (r->c[COLL_C_COLL_NAME].kind == CV_NONE &&
	    coll_name_search(e->name, strlen(e->name), "cross_device_reduce"))
		r->c[COLL_C_COLL_NAME] = cv_str(t->sp, "allreduce", 9);
	r->c[COLL_C_IN_MB] = r->c[COLL_C_OUT_MB] = cv_none();
	if ((bytes = dtype_bytes(&r->c[COLL_C_DTYPE])) && r->c[COLL_C_IN_NELEMS].kind != CV_NONE) {
		/* TraceLens stops with a TypeError here; the sizes stay unknown */
		if (msg_mb(&r->c[COLL_C_IN_NELEMS], bytes, &r->c[COLL_C_IN_MB]) < 0 ||
		    msg_mb(&r->c[COLL_C_OUT_NELEMS], bytes, &r->c[COLL_C_OUT_MB]) < 0)
			t->bad_nelems++;
	}
	return 0;
}

static void infer_column(struct coll_table *t, enum coll_col c)
{
	struct cv *v = xmalloc(st_mult(t->n ? t->n : 1, sizeof(*v)));

	for (size_t i = 0; i < t->n; i++)
		v[i] = t->row[i].c[c];
	t->dt[c] = cv_infer(v, t->n);
	cv_cast(v, t->n, t->dt[c]);
	for (size_t i = 0; i < t->n; i++)
		t->row[i].c[c] = v[i];
	free(v);
}

/*
 * Simplified mode (spec §3.2): no Process Group Name anywhere (all None,
 * or all "Unknown_Group" once filled) and at most one stream per rank.
 */
static int simplified(const struct coll_table *t)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		const struct cv *p = &t->row[i].c[COLL_C_PG_NAME];
		if (!cv_isna(p) && !(p->kind == CV_STR && !strcmp(p->s, "Unknown_Group")))
			return 0;
	}
	/* rows of a rank are adjacent: compare each stream with its rank's first */
	for (i = 0; i < t->n; i = j) {
		const struct cv *first = NULL;
		for (j = i; j < t->n && t->row[j].file == t->row[i].file; j++) {
			const struct cv *s = &t->row[j].c[COLL_C_STREAM];
			if (cv_isna(s))
				continue;
			if (!first)
				first = s;
			else if (!cv_same(first, s))
				return 0;
		}
	}
	return 1;
}

static const struct coll_table *sort_table;

/* groupby(...)["ts"].rank(method="first"): by ts, ties in row order */
static int cmp_ts(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct cv *p = &sort_table->row[x].c[COLL_C_TS];
	const struct cv *q = &sort_table->row[y].c[COLL_C_TS];
	int c = cv_cmp(p, q);

	return c ? c : (x > y) - (x < y);
}

static void number_groups(struct coll_table *t)
{
	struct pd_groupby *g = pd_groupby_new();
	struct pystr key = { 0 };

	for (size_t i = 0; i < t->n; i++) {
		pystr_reset(&key);
		pystr_add(&key, (const char *)&t->row[i].file, sizeof(t->row[i].file));
		pystr_addc(&key, PD_GROUPBY_SEP);
		cv_key(&key, &t->row[i].c[COLL_C_PG_NAME]);
		pd_groupby_add(g, key.buf, key.len, i);
	}
	sort_table = t;
	for (size_t gi = 0; gi < pd_groupby_count(g); gi++) {
		size_t n, *rows;
		const size_t *src = pd_groupby_rows(g, gi, &n);
		rows = xmalloc(st_mult(n, sizeof(*rows)));
		tl_memcpy(rows, src, n * sizeof(*rows));
		tl_qsort(rows, n, sizeof(*rows), cmp_ts);
		for (size_t k = 0; k < n; k++)
			t->row[rows[k]].c[COLL_C_INDEX] = cv_int((int64_t)k);
		free(rows);
	}
	pystr_release(&key);
	pd_groupby_free(g);
}

/* collective_id: str(index), or f"{Process Group Name}_{index}" */
static void name_collectives(struct coll_table *t)
{
	struct pystr id = { 0 };
	struct hmap seen = HMAP_INIT;
	size_t acids = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct coll_row *r = &t->row[i];
		uint32_t sid, k;
		pystr_reset(&id);
		if (!t->simplified) {
			cv_print(&id, &r->c[COLL_C_PG_NAME], t->dt[COLL_C_PG_NAME]);
			pystr_addc(&id, '_');
		}
		cv_print(&id, &r->c[COLL_C_INDEX], DT_INT);
		r->c[COLL_C_CID] = cv_str(t->sp, id.buf, id.len);
		sid = strpool_intern(t->sp, id.buf, id.len);
		if (!hmap_get(&seen, (uint64_t)sid + 1, &k)) {
			k = (uint32_t)t->ncids;
			xgrow((void **)&t->cids, &acids, t->ncids + 1, sizeof(*t->cids));
			memset(&t->cids[k], 0, sizeof(t->cids[k]));
			t->cids[k].id = r->c[COLL_C_CID].s;
			t->ncids++;
			hmap_put(&seen, (uint64_t)sid + 1, k);
		}
		r->cid = k;
	}
	/* each instance's rows, in row (= rank) order */
	for (size_t i = 0; i < t->n; i++)
		t->cids[t->row[i].cid].n++;
	for (size_t k = 0; k < t->ncids; k++) {
		t->cids[k].rows = xmalloc(st_mult(t->cids[k].n, sizeof(size_t)));
		t->cids[k].n = 0;
	}
	for (size_t i = 0; i < t->n; i++) {
		struct coll_cid *c = &t->cids[t->row[i].cid];
		c->rows[c->n++] = i;
	}
	hmap_release(&seen);
	pystr_release(&id);
}

int coll_table_build(struct coll_table *t, struct coll_rank *ranks, size_t nranks,
		     struct strpool *sp)
{
	size_t total = 0;

	memset(t, 0, sizeof(*t));
	t->sp = sp;
	t->ranks = ranks;
	t->nranks = nranks;
	if (order_ranks(t, ranks, nranks) < 0)
		return -1;
	for (size_t i = 0; i < nranks; i++)
		total += ranks[i].n;
	t->row = xmalloc(st_mult(total ? total : 1, sizeof(*t->row)));
	for (size_t i = 0; i < nranks; i++) {
		struct parse_cache pc;
		memset(&pc, 0, sizeof(pc));
		for (size_t k = 0; k < ranks[i].n; k++)
			if (add_row(t, i, &ranks[i].ev[k], &pc) < 0)
				return -1;
	}
	for (int c = COLL_C_RANK; c < COLL_NCOLS; c++)
		infer_column(t, (enum coll_col)c);
	t->simplified = t->n && simplified(t);
	for (size_t i = 0; i < t->n; i++) {
		struct cv *p = &t->row[i].c[COLL_C_PG_NAME];
		if (t->simplified)
			*p = cv_str(sp, "all", 3);
		else if (cv_isna(p))
			*p = cv_str(sp, "Unknown_Group", 13);
	}
	infer_column(t, COLL_C_PG_NAME);
	number_groups(t);
	t->dt[COLL_C_INDEX] = DT_INT;
	t->dt[COLL_C_CID] = DT_OBJ;
	name_collectives(t);
	return 0;
}

void coll_table_release(struct coll_table *t)
{
	for (size_t k = 0; k < t->ncids; k++)
		free(t->cids[k].rows);
	free(t->cids);
	free(t->row);
	free(t->rank_of);
	memset(t, 0, sizeof(*t));
}
