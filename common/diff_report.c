#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "path.h"
#include "py_repr.h"
#include "py_fmt.h"
#include "diff_report.h"
#include "display.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

enum { K_NAME, K_COUNT, K_CPU, K_UID, K_SRC, K_DIMS, K_STRIDES, K_TYPES, K_CONCRETE,
       K_BUSY, K_LCA, K_STACK, K_PARENT, K_MEAN, K_N };

struct diff_report_group {
	size_t first;			/* a row of the group */
	uint32_t count;
	double ksum, kmean;
	const char *key[K_N];		/* str() of each column, for the sort */
	char *own;			/* storage of the numeric keys */
};

struct cpuinfo {
	uint32_t name;			/* op name id (uid in decimal when empty) */
	uint32_t parent;		/* nn_module_parent id */
	char *stack;			/* nn_module_stack joined by ';' */
};

struct cache {
	struct hmap repr_at;		/* strpool id + 1 -> index in reprs */
	char **reprs;
	size_t nrepr, arepr;
	struct hmap cpu_at[2];		/* uid + 1 -> index in cpus */
	struct cpuinfo *cpus;
	size_t ncpu, acpu;
	struct opname on;
	struct hmap label_at;		/* name id * 2 + side + 1 -> lca_label id */
	/* the summary CSV, written in a thread beside diff_stats.csv */
	pthread_t summary;
	int summary_running;
	struct outbuf *summary_ob;
};

static struct cache *C(struct diff_report *td)
{
	return td->cache;
}

static struct strpool *SP(struct diff_report *td)
{
	return td->tm->t[0]->sp;
}

static uint32_t intern(struct diff_report *td, const char *s)
{
	return strpool_intern(SP(td), s, strlen(s));
}

static const char *str(struct diff_report *td, uint32_t id)
{
	return strpool_str(SP(td), id);
}

/* repr() of an arg (lists as tuples); "" when absent, as _get_node_arg. */
static const char *arg_repr(struct diff_report *td, uint32_t id)
{
	struct cache *c = C(td);
	uint32_t at;
	char *r;

	if (!id)
		return "";
	if (hmap_get(&c->repr_at, (uint64_t)id + 1, &at))
		return c->reprs[at];
	if (!strcmp(str(td, id), "null")) {
		r = xstrdup("");
	} else {
		struct pystr ps = { 0 };
		if (py_repr_json(&ps, str(td, id), strpool_len(SP(td), id), PY_REPR_TUPLE) == 0 && ps.buf)
			r = ps.buf;
		else	/* not JSON: keep the text */
			r = xstrdup(str(td, id)), pystr_release(&ps);
	}
	xgrow((void **)&c->reprs, &c->arepr, c->nrepr + 1, sizeof(*c->reprs));
	c->reprs[c->nrepr] = r;
	hmap_put(&c->repr_at, (uint64_t)id + 1, (uint32_t)c->nrepr);
	return c->reprs[c->nrepr++];
}

/* "nn.Module: Linear_0" -> "nn.Module: Linear" (re.sub(r"_\d+$", "", s)) */
static size_t strip_index(const char *s, size_t n)
{
	size_t k = n;
	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	return k < n && k > 0 && s[k - 1] == '_' ? k - 1 : n;
}

/* A stack a tl-nodes 2 stream fixes: the frames of a capture copy as its
 * capture trace had them ("a;b", "root"), or none (pseudo ops) */
static int fixed_stack(struct diff_report *td, const struct tree_read *t, uint32_t uid,
		       struct cpuinfo *ci)
{
	const char *fx, *p, *last;
	size_t len = 0, n;
	char *s;

	switch (tree_read_modules(t, uid, &fx)) {
	case 2:
		ci->stack = xstrdup("");
		ci->parent = intern(td, "");
		return 1;
	case 1:
		break;
	default:
		return 0;
	}
	s = xmalloc(strlen(fx) + 1);
	last = fx;
	for (p = fx;; p++) {
		if (*p && *p != ';')
			continue;
		n = strip_index(last, (size_t)(p - last));
		if (len)
			s[len++] = ';';
		tl_memcpy(s + len, last, n);
		len += n;
		s[len] = '\0';
		if (!*p)
			break;
		last = p + 1;
	}
	ci->stack = s;
	ci->parent = strpool_intern(SP(td), last, strip_index(last, strlen(last)));
	return 1;
}

static void build_stack(struct diff_report *td, int side, uint32_t uid, struct cpuinfo *ci)
{
	const struct tree_read *t = td->tm->t[side];
	uint32_t *anc = NULL, top;
	size_t na = 0, aa = 0, len = 0, alloc = 0;
	char *s = NULL;

	if (fixed_stack(td, t, uid, ci))
		return;

	for (uint32_t p = t->n[uid].oparent; p != NT_NONE; p = t->n[p].oparent) {
		const char *nm = strpool_str(t->sp, t->n[p].name);
		if (t->n[p].cat == NT_PYTHON && !strncmp(nm, "nn.Module:", 10)) {
			xgrow((void **)&anc, &aa, na + 1, sizeof(*anc));
			anc[na++] = p;
		}
	}
	xgrow((void **)&s, &alloc, 8, 1);
	s[0] = '\0';
	if (!na) {
		ci->stack = xstrdup("root");
		ci->parent = intern(td, "root");
		free(s);
		return;
	}
	for (size_t k = na; k-- > 0;) {
		const char *nm = strpool_str(t->sp, t->n[anc[k]].name);
		size_t n = strip_index(nm, strpool_len(t->sp, t->n[anc[k]].name));
		xgrow((void **)&s, &alloc, len + n + 2, 1);
		if (k != na - 1)
			s[len++] = ';';
		tl_memcpy(s + len, nm, n);
		len += n;
		s[len] = '\0';
	}
	top = anc[0];
	ci->parent = strpool_intern(td->tm->t[side]->sp, strpool_str(t->sp, t->n[top].name),
				    strip_index(strpool_str(t->sp, t->n[top].name),
						strpool_len(t->sp, t->n[top].name)));
	ci->stack = s;
	free(anc);
}

static const struct cpuinfo *cpu(struct diff_report *td, int side, uint32_t uid)
{
	struct cache *c = C(td);
	char buf[DIFF_MERGE_UIDBUF];
	uint32_t at;

	if (hmap_get(&c->cpu_at[side], (uint64_t)uid + 1, &at))
		return &c->cpus[at];
	xgrow((void **)&c->cpus, &c->acpu, c->ncpu + 1, sizeof(*c->cpus));
	c->cpus[c->ncpu].name = intern(td, diff_merge_op_name(td->tm, side, uid, buf));
	build_stack(td, side, uid, &c->cpus[c->ncpu]);
	hmap_put(&c->cpu_at[side], (uint64_t)uid + 1, (uint32_t)c->ncpu);
	return &c->cpus[c->ncpu++];
}

/* ---- rows (generate_diff_stats) ---- */

struct ival {
	double s, e;
};

static int cmp_ival(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;
	return x->s < y->s ? -1 : x->s > y->s;
}

/* GPUEventAnalyser busy_time: length of the union of [ts, ts+dur]. */
static double union_length(const struct tree_read *t, const uint32_t *u, size_t n)
{
	struct ival *iv = xmalloc(st_mult(n + 1, sizeof(*iv)));
	size_t m = 0;
	double sum = 0, s, e;

	for (size_t k = 0; k < n; k++) {
		const struct tree_read_node *g = &t->n[u[k]];
		if (!tree_read_is_gpu(g) || !(g->flags & NT_HAS_TS) || !(g->flags & NT_HAS_DUR))
			continue;
		iv[m].s = g->ts;
		iv[m].e = g->ts + g->dur;
		m++;
	}
	/* merge_intervals sorts stably; equal starts give the same union either way */
	tl_qsort(iv, m, sizeof(*iv), cmp_ival);
	for (size_t k = 0; k < m;) {	/* the inner loop moves k on */
		s = iv[k].s, e = iv[k].e;
		for (k++; k < m && iv[k].s <= e; k++)
			if (iv[k].e > e)
				e = iv[k].e;
		sum += e - s;
	}
	free(iv);
	return sum;
}

/* numpy.round(x, 3): rint(x * 1000) / 1000 */
static double np_round3(double x)
{
	return rint(x * 1000.0) / 1000.0;
}

static int is_kernel(const struct tree_read *t, uint32_t uid)
{
	return uid != NT_NONE && (t->n[uid].cat == NT_KERNEL || t->n[uid].cat == NT_MEMCPY);
}

static int gpath(const struct tree_read *t, uint32_t uid)
{
	return uid != NT_NONE && (t->n[uid].flags & NT_GPU_PATH);
}

static void collect(struct diff_report *td, int side, const uint32_t *g, size_t n,
		    uint32_t lca_name, uint32_t lca)
{
	const struct tree_read *t = td->tm->t[side];
	double busy = n ? union_length(t, g, n) : 0.0;

	for (size_t k = 0; k < n; k++) {
		uint32_t p = t->n[g[k]].parent;
		while (p != NT_NONE && t->n[p].cat != NT_CPU_OP)
			p = t->n[p].parent;
		if (p == NT_NONE) {
			td->no_cpu_op++;
			continue;
		}
		xgrow((void **)&td->rows, &td->alloc, td->nrows + 1, sizeof(*td->rows));
		td->rows[td->nrows++] = (struct diff_report_row){ g[k], p, lca_name, lca,
							    np_round3(busy), busy, (uint8_t)side };
	}
}

static uint32_t lca_label(struct diff_report *td, int side, uint32_t uid)
{
	char buf[DIFF_MERGE_UIDBUF];
	uint32_t name = td->tm->t[side]->n[uid].name, id;
	uint64_t key = (uint64_t)name * 2 + (uint64_t)side + 1;
	const char *nm, *s;

	/* kernel names run to kilobytes: unparenthesise each name once */
	if (strpool_len(td->tm->t[side]->sp, name) && hmap_get(&C(td)->label_at, key, &id))
		return id;
	nm = diff_merge_op_name(td->tm, side, uid, buf);
	s = opname_unparen(&C(td)->on, nm, strlen(nm));
	id = intern(td, s);
	if (strpool_len(td->tm->t[side]->sp, name))	/* not an uid standing in */
		hmap_put(&C(td)->label_at, key, id);
	return id;
}

static uint32_t lca_name(struct diff_report *td, const struct diff_merge_node *m)
{
	uint32_t a = lca_label(td, 0, m->uid1), b = lca_label(td, 1, m->uid2);
	char *s;
	size_t n;

	if (a == b)
		return a;
	n = strpool_len(SP(td), a) + strpool_len(SP(td), b) + 4;
	s = xmalloc(n);
	snprintf(s, n, "%s | %s", str(td, a), str(td, b));
	a = intern(td, s);
	free(s);
	return a;
}

/* GPU events of the trace-only children of an LCA (+ the node if a kernel). */
static size_t lca_events(struct diff_report *td, int side, const struct diff_merge_node *m,
			 uint32_t **g, size_t *alloc, uint8_t *visited)
{
	const struct diff_merge *tm = td->tm;
	const struct tree_read *t = tm->t[side];
	uint32_t self = side ? m->uid2 : m->uid1;
	size_t n = 0;

	for (uint32_t k = 0; k < m->nkid; k++) {
		uint32_t c = tm->kids[m->kid + k];
		uint32_t u = side ? tm->m[c].uid2 : tm->m[c].uid1;
		if (tm->m[c].type == TM_COMBINED || !gpath(t, u))
			continue;
		visited[c] = 1;
		n = tree_read_gpu_events(t, u, g, n, alloc);
		if (is_kernel(t, u)) {
			xgrow((void **)g, alloc, n + 1, sizeof(**g));
			(*g)[n++] = u;
		}
	}
	if (is_kernel(t, self)) {
		xgrow((void **)g, alloc, n + 1, sizeof(**g));
		(*g)[n++] = self;
	}
	return n;
}

static int has_lca_work(const struct diff_merge *tm, const struct diff_merge_node *m)
{
	for (uint32_t k = 0; k < m->nkid; k++) {
		const struct diff_merge_node *c = &tm->m[tm->kids[m->kid + k]];
		if (c->type == TM_COMBINED)
			continue;
		if (gpath(tm->t[0], c->uid1) || gpath(tm->t[1], c->uid2))
			return 1;
	}
	return is_kernel(tm->t[0], m->uid1) && is_kernel(tm->t[1], m->uid2);
}

static void stats_combined(struct diff_report *td, uint32_t mid, uint8_t *visited)
{
	const struct diff_merge_node *m = &td->tm->m[mid];
	uint32_t *g = NULL, name;
	size_t alloc = 0, n;

	if (!gpath(td->tm->t[0], m->uid1) || !gpath(td->tm->t[1], m->uid2) ||
	    !has_lca_work(td->tm, m))
		return;
	name = lca_name(td, m);
	n = lca_events(td, 0, m, &g, &alloc, visited);
	collect(td, 0, g, n, name, mid);
	n = lca_events(td, 1, m, &g, &alloc, visited);
	collect(td, 1, g, n, name, mid);
	visited[mid] = 1;
	free(g);
}

static void stats_only(struct diff_report *td, int side, uint32_t mid, uint32_t parent)
{
	const struct diff_merge_node *m = &td->tm->m[mid];
	const struct tree_read *t = td->tm->t[side];
	uint32_t u = side ? m->uid2 : m->uid1, name = NT_NONE, *g = NULL;
	size_t alloc = 0, n;

	if (!gpath(t, u))
		return;
	if (parent != NT_NONE) {
		const struct diff_merge_node *p = &td->tm->m[parent];
		name = lca_label(td, side, side ? p->uid2 : p->uid1);
	}
	n = tree_read_gpu_events(t, u, &g, 0, &alloc);
	collect(td, side, g, n, name, parent);
	free(g);
}

/*
 * TraceDiff's recursive walk of the merged tree, in its order (children
 * pushed last first), on a stack of its own: trees a million levels deep
 * must not overflow the C stack.
 */
static void traverse(struct diff_report *td, uint32_t root, uint8_t *visited)
{
	struct { uint32_t mid, parent; } *st = NULL;
	size_t n = 0, alloc = 0;

	xgrow((void **)&st, &alloc, 1, sizeof(*st));
	st[n].mid = root, st[n++].parent = NT_NONE;
	while (n) {
		uint32_t mid = st[--n].mid, parent = st[n].parent;
		const struct diff_merge_node *m = &td->tm->m[mid];

		if (visited[mid])
			continue;
		if (m->type != TM_COMBINED) {
			stats_only(td, m->type == TM_TRACE2, mid, parent);
			visited[mid] = 1;
			continue;
		}
		stats_combined(td, mid, visited);
		if (!gpath(td->tm->t[0], m->uid1) && !gpath(td->tm->t[1], m->uid2))
			continue;
		xgrow((void **)&st, &alloc, n + m->nkid, sizeof(*st));
		for (uint32_t k = m->nkid; k-- > 0;)
			st[n].mid = td->tm->kids[m->kid + k], st[n++].parent = mid;
	}
	free(st);
}

static int rows_equal(struct diff_report *td, const struct diff_report_row *a, const struct diff_report_row *b)
{
	const struct tree_read_node *ga = &td->tm->t[0]->n[a->gpu], *gb = &td->tm->t[1]->n[b->gpu];
	const struct tree_read_node *ca = &td->tm->t[0]->n[a->cpu], *cb = &td->tm->t[1]->n[b->cpu];
	const struct cpuinfo *ia, *ib;

	/*
	 * cpu() may grow the cache and move it: fill both entries first, then
	 * take the pointers (the second lookups are hits and do not grow it).
	 */
	cpu(td, 0, a->cpu);
	cpu(td, 1, b->cpu);
	ia = cpu(td, 0, a->cpu);
	ib = cpu(td, 1, b->cpu);

	return a->gpu == b->gpu && a->cpu == b->cpu && ga->name == gb->name &&
	       ia->name == ib->name && ia->parent == ib->parent && !strcmp(ia->stack, ib->stack) &&
	       ca->dims == cb->dims && ca->strides == cb->strides && ca->types == cb->types &&
	       ca->concrete == cb->concrete && ga->dur == gb->dur && a->busy == b->busy &&
	       a->lca_name == b->lca_name && a->lca == b->lca;
}

/* identical_traces: the trace1 rows equal the trace2 rows, source aside. */
static int identical(struct diff_report *td)
{
	size_t n1 = 0, n2 = 0, i = 0, j = 0;

	if (!td->nrows)
		return 1;
	for (size_t k = 0; k < td->nrows; k++)
		td->rows[k].side ? n2++ : n1++;
	if (n1 != n2)
		return 0;
	for (;;) {
		while (i < td->nrows && td->rows[i].side)
			i++;
		while (j < td->nrows && !td->rows[j].side)
			j++;
		if (i >= td->nrows || j >= td->nrows)
			return 1;
		if (!rows_equal(td, &td->rows[i++], &td->rows[j++]))
			return 0;
	}
}

/* ---- diff_stats_unique_args_summary (get_df_diff_stats_unique_args) ---- */

static struct diff_report *cmp_td;

/* the grouping key: every column but lca id, gpu uid and kernel_time */
static int cmp_rowkey(const void *a, const void *b)
{
	const struct diff_report_row *x = &cmp_td->rows[*(const size_t *)a];
	const struct diff_report_row *y = &cmp_td->rows[*(const size_t *)b];
	uint32_t nx = cmp_td->tm->t[x->side]->n[x->gpu].name;
	uint32_t ny = cmp_td->tm->t[y->side]->n[y->gpu].name;

	if (x->side != y->side)
		return x->side - y->side;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	if (x->busy != y->busy)
		return x->busy < y->busy ? -1 : 1;
	if (x->lca_name != y->lca_name)
		return x->lca_name < y->lca_name ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static double kernel_time(struct diff_report *td, const struct diff_report_row *r)
{
	const struct tree_read_node *g = &td->tm->t[r->side]->n[r->gpu];
	return (g->flags & NT_HAS_DUR) ? g->dur : 0.0;
}

static void fmt_float(char *buf, double x, int as_int)
{
	if (as_int && fabs(x) < 9e15)
		snprintf(buf, PY_FLOAT_MAX, "%.0f", x);
	else
		py_float_repr(x, buf);
}

static void group_keys(struct diff_report *td, struct diff_report_group *g)
{
	const struct diff_report_row *r = &td->rows[g->first];
	const struct tree_read_node *c = &td->tm->t[r->side]->n[r->cpu];
	const struct cpuinfo *ci = cpu(td, r->side, r->cpu);
	char *o = xmalloc(4 * PY_FLOAT_MAX);

	g->own = o;
	snprintf(o, PY_FLOAT_MAX, "%u", g->count);
	snprintf(o + PY_FLOAT_MAX, PY_FLOAT_MAX, "%u", r->cpu);
	py_float_repr(r->busy, o + 2 * PY_FLOAT_MAX);
	py_float_repr(g->kmean, o + 3 * PY_FLOAT_MAX);
	g->key[K_NAME] = str(td, td->tm->t[r->side]->n[r->gpu].name);
	g->key[K_COUNT] = o;
	g->key[K_CPU] = str(td, ci->name);
	g->key[K_UID] = o + PY_FLOAT_MAX;
	g->key[K_SRC] = r->side ? "trace2" : "trace1";
	g->key[K_DIMS] = arg_repr(td, c->dims);
	g->key[K_STRIDES] = arg_repr(td, c->strides);
	g->key[K_TYPES] = arg_repr(td, c->types);
	g->key[K_CONCRETE] = arg_repr(td, c->concrete);
	g->key[K_BUSY] = o + 2 * PY_FLOAT_MAX;
	g->key[K_LCA] = r->lca_name == NT_NONE ? "None" : str(td, r->lca_name);
	g->key[K_STACK] = ci->stack;
	g->key[K_PARENT] = str(td, ci->parent);
	g->key[K_MEAN] = o + 3 * PY_FLOAT_MAX;
}

/*
 * strcmp, where equal pooled texts (names, shapes) are one pointer: the
 * groups tied on the kernel time sum, and the maps' keys and lists, are
 * mostly the same kernel or op, whose name is long.
 */
static int text_cmp(const char *a, const char *b)
{
	if (a == b)
		return 0;
	/* the rest are mostly short numbers (counts, uids): no call */
	for (int k = 0; k < 16; k++, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a < (unsigned char)*b ? -1 : *a != *b;
	return strcmp(a, b);
}

/* kernel_time_sum descending, then str() of every other column in order */
static int cmp_group(const void *a, const void *b)
{
	const struct diff_report_group *x = a, *y = b;

	if (x->ksum != y->ksum)
		return x->ksum > y->ksum ? -1 : 1;
	for (int k = 0; k < K_N; k++) {
		int c = text_cmp(x->key[k], y->key[k]);
		if (c)
			return c;
	}
	return x->first < y->first ? -1 : x->first > y->first;
}

static void build_groups(struct diff_report *td)
{
	size_t *ix = xmalloc(st_mult(td->nrows + 1, sizeof(*ix)));

	for (size_t k = 0; k < td->nrows; k++)
		ix[k] = k;
	cmp_td = td;
	tl_qsort(ix, td->nrows, sizeof(*ix), cmp_rowkey);
	td->g = xcalloc(td->nrows + 1, sizeof(*td->g));
	for (size_t k = 0; k < td->nrows;) {
		struct diff_report_group *g = &td->g[td->ng++];
		double comp = 0, sum = 0;
		size_t e = k;
		/* rows of a group, in row order (ix is stable) */
		do {
			/* pandas sums groups with Kahan compensation */
			double y = kernel_time(td, &td->rows[ix[e]]) - comp, t = sum + y;
			comp = (t - sum) - y;
			sum = t;
			e++;
		} while (e < td->nrows && cmp_rowkey(&ix[k], &ix[e]) < 0 &&
			 td->rows[ix[e]].side == td->rows[ix[k]].side &&
			 td->rows[ix[e]].cpu == td->rows[ix[k]].cpu &&
			 td->tm->t[td->rows[ix[e]].side]->n[td->rows[ix[e]].gpu].name ==
			 td->tm->t[td->rows[ix[k]].side]->n[td->rows[ix[k]].gpu].name &&
			 td->rows[ix[e]].busy == td->rows[ix[k]].busy &&
			 td->rows[ix[e]].lca_name == td->rows[ix[k]].lca_name);
		g->first = ix[k];
		g->count = (uint32_t)(e - k);
		g->ksum = sum;
		g->kmean = sum / (double)g->count;
		k = e;
	}
	free(ix);
	for (size_t k = 0; k < td->ng; k++)
		group_keys(td, &td->g[k]);
	tl_qsort(td->g, td->ng, sizeof(*td->g), cmp_group);
}

/* ---- rename map (get_rename_map / find_common_name) ---- */

struct vec32 {
	uint32_t *v;
	size_t n, alloc;
};

static void vput(struct vec32 *a, uint32_t x)
{
	xgrow((void **)&a->v, &a->alloc, a->n + 1, sizeof(*a->v));
	a->v[a->n++] = x;
}

static void vput_unique(struct vec32 *a, uint32_t x)
{
	for (size_t k = 0; k < a->n; k++)
		if (a->v[k] == x)
			return;
	vput(a, x);
}

static int vhas(const struct vec32 *a, uint32_t x)
{
	for (size_t k = 0; k < a->n; k++)
		if (a->v[k] == x)
			return 1;
	return 0;
}

static void vremove(struct vec32 *a, uint32_t x)
{
	for (size_t k = 0; k < a->n; k++)
		if (a->v[k] == x) {
			tl_memmove(a->v + k, a->v + k + 1, (a->n - k - 1) * sizeof(*a->v));
			a->n--;
			return;
		}
}

/* name.split("::")[-1] */
static const char *after_colons(const char *s)
{
	const char *last = s, *p = s;
	while ((p = strstr(p, "::"))) {
		p += 2;
		last = p;
	}
	return last;
}

/* byte length of the first 20 code points (Python's s[0:20]) */
static size_t prefix20(const char *s)
{
	size_t n = 0;
	int cp = 0;
	for (; s[n]; n++) {
		if (((unsigned char)s[n] & 0xc0) != 0x80 && cp++ == 20)
			break;
	}
	return n;
}

struct modmap {
	struct hmap at;			/* cpu name id + 1 -> index */
	struct vec32 *mods[2];
	size_t n, alloc[2];
};

static const struct vec32 *modules(struct modmap *mm, uint32_t name)
{
	uint32_t at;
	static const struct vec32 none;
	if (!hmap_get(&mm->at, (uint64_t)name + 1, &at))
		return &none;
	return mm->mods[1][at].n ? &mm->mods[1][at] : &mm->mods[0][at];
}

static uint32_t common_name(struct diff_report *td, struct modmap *mm, uint32_t n1, uint32_t n2)
{
	const char *c1 = after_colons(str(td, n1)), *c2 = after_colons(str(td, n2));
	const struct vec32 *m1 = modules(mm, n1), *m2 = modules(mm, n2);
	size_t p1 = prefix20(c1), p2 = prefix20(c2);

	if (!strcmp(c1, c2) || strstr(c2, c1))
		return intern(td, c1);
	if (strstr(c1, c2))
		return intern(td, c2);
	if (p1 == p2 && !memcmp(c1, c2, p1)) {
		size_t n = strlen(c1) + strlen(c2) + 2;
		char *s = xmalloc(n);
		uint32_t id;
		snprintf(s, n, "%s/%s", c1, c2);
		id = intern(td, s);
		free(s);
		return id;
	}
	if (m1->n == 1 && m2->n == 1 && m1->v[0] == m2->v[0]) {
		const char *m = str(td, m1->v[0]);
		char *s = xmalloc(strlen(m) + 1);
		size_t k = 0;
		uint32_t id;
		for (; *m; m++)
			if (*m != ' ')
				s[k++] = *m;
		s[k] = '\0';
		id = intern(td, s);
		free(s);
		return id;
	}
	return NT_NONE;
}

static void build_modmap(struct diff_report *td, struct modmap *mm)
{
	memset(mm, 0, sizeof(*mm));
	for (size_t k = 0; k < td->nrows; k++) {
		const struct diff_report_row *r = &td->rows[k];
		const struct cpuinfo *ci = cpu(td, r->side, r->cpu);
		uint32_t at;
		if (!hmap_get(&mm->at, (uint64_t)ci->name + 1, &at)) {
			at = (uint32_t)mm->n;
			for (int s = 0; s < 2; s++)
				xgrow((void **)&mm->mods[s], &mm->alloc[s], mm->n + 1,
				      sizeof(struct vec32));
			memset(&mm->mods[0][at], 0, sizeof(struct vec32));
			memset(&mm->mods[1][at], 0, sizeof(struct vec32));
			mm->n++;
			hmap_put(&mm->at, (uint64_t)ci->name + 1, at);
		}
		vput_unique(&mm->mods[r->side][at], ci->parent);
	}
}

static void free_modmap(struct modmap *mm)
{
	for (size_t k = 0; k < mm->n; k++) {
		free(mm->mods[0][k].v);
		free(mm->mods[1][k].v);
	}
	free(mm->mods[0]);
	free(mm->mods[1]);
	hmap_release(&mm->at);
}

static void rename_unequal(struct diff_report *td, struct modmap *mm, struct hmap *ren,
			   struct vec32 *l1in, struct vec32 *l2)
{
	struct vec32 l1 = { 0 }, l1b = { 0 };

	for (size_t k = 0; k < l1in->n; k++)
		vput(&l1, l1in->v[k]);
	for (size_t a = 0; a < l1in->n; a++)
		if (vhas(l2, l1in->v[a])) {
			vremove(&l1, l1in->v[a]);
			vremove(l2, l1in->v[a]);
		}
	for (size_t k = 0; k < l1.n; k++)
		vput(&l1b, l1.v[k]);
	for (size_t a = 0; a < l1.n; a++)
		for (size_t b = 0; b < l2->n; b++) {
			uint32_t cn = common_name(td, mm, l1.v[a], l2->v[b]);
			if (cn == NT_NONE)
				continue;
			hmap_put(ren, (uint64_t)l1.v[a] + 1, cn);
			hmap_put(ren, (uint64_t)l2->v[b] + 1, cn);
			vremove(l2, l2->v[b]);
			vremove(&l1b, l1.v[a]);
			break;
		}
	free(l1.v);
	free(l1b.v);
}

static void rename_lca(struct diff_report *td, struct modmap *mm, struct hmap *ren,
		       struct hmap *visited, struct vec32 *n1, struct vec32 *n2)
{
	int all = 1;

	for (size_t k = 0; k < n1->n; k++)
		all &= hmap_get(visited, (uint64_t)n1->v[k] + 1, NULL);
	for (size_t k = 0; k < n2->n; k++)
		all &= hmap_get(visited, (uint64_t)n2->v[k] + 1, NULL);
	if (all)
		return;
	for (size_t k = 0; k < n1->n; k++)
		hmap_put(visited, (uint64_t)n1->v[k] + 1, 1);
	for (size_t k = 0; k < n2->n; k++)
		hmap_put(visited, (uint64_t)n2->v[k] + 1, 1);
	if (n1->n != n2->n) {
		rename_unequal(td, mm, ren, n1, n2);
		return;
	}
	for (size_t k = 0; k < n1->n; k++) {
		uint32_t cn;
		if (n1->v[k] == n2->v[k])
			continue;
		cn = common_name(td, mm, n1->v[k], n2->v[k]);
		if (cn == NT_NONE)
			continue;
		hmap_put(ren, (uint64_t)n2->v[k] + 1, cn);
		hmap_put(ren, (uint64_t)n1->v[k] + 1, cn);
	}
}

/* Fills td->rename: the cpu_op_name each summary group is shown under. */
static void build_rename(struct diff_report *td)
{
	struct hmap at = HMAP_INIT, ren = HMAP_INIT, visited = HMAP_INIT;
	struct vec32 *names[2] = { NULL, NULL };
	size_t nl = 0, alloc0 = 0, alloc1 = 0;
	struct modmap mm;

	build_modmap(td, &mm);
	for (size_t k = 0; k < td->nrows; k++) {
		const struct diff_report_row *r = &td->rows[k];
		uint32_t i;
		if (r->lca == NT_NONE)
			continue;
		if (!hmap_get(&at, (uint64_t)r->lca + 1, &i)) {
			i = (uint32_t)nl;
			xgrow((void **)&names[0], &alloc0, nl + 1, sizeof(struct vec32));
			xgrow((void **)&names[1], &alloc1, nl + 1, sizeof(struct vec32));
			memset(&names[0][i], 0, sizeof(struct vec32));
			memset(&names[1][i], 0, sizeof(struct vec32));
			nl++;
			hmap_put(&at, (uint64_t)r->lca + 1, i);
		}
		vput_unique(&names[r->side][i], cpu(td, r->side, r->cpu)->name);
	}
	for (size_t i = 0; i < nl; i++)
		if (names[0][i].n && names[1][i].n)
			rename_lca(td, &mm, &ren, &visited, &names[0][i], &names[1][i]);
	td->rename = xmalloc(st_mult(td->ng + 1, sizeof(*td->rename)));
	for (size_t k = 0; k < td->ng; k++) {
		const struct diff_report_row *r = &td->rows[td->g[k].first];
		uint32_t name = cpu(td, r->side, r->cpu)->name, to;
		td->rename[k] = hmap_get(&ren, (uint64_t)name + 1, &to) ? to : name;
	}
	for (size_t i = 0; i < nl; i++) {
		free(names[0][i].v);
		free(names[1][i].v);
	}
	free(names[0]);
	free(names[1]);
	free_modmap(&mm);
	hmap_release(&at), hmap_release(&ren), hmap_release(&visited);
}

/* ---- writers ---- */

static void cell(struct outbuf *ob, const char *s)
{
	csv_cell(ob, s, strlen(s));
}

static void num(struct outbuf *ob, double x, int as_int)
{
	char b[PY_FLOAT_MAX];
	fmt_float(b, x, as_int);
	outbuf_puts(ob, b);
}

static void args_cells(struct diff_report *td, struct outbuf *ob, const struct tree_read_node *c)
{
	uint32_t a[4] = { c->dims, c->strides, c->types, c->concrete };
	for (int k = 0; k < 4; k++) {
		cell(ob, arg_repr(td, a[k]));
		outbuf_putc(ob, ',');
	}
}

/* Runs beside the summary's writer: looks up only what warm_caches filled. */
void diff_report_write_stats_csv(struct diff_report *td, struct outbuf *ob)
{
	outbuf_puts(ob, td->identical ? "name,cpu_op_name,cpu_op_uid," :
		    "name,cpu_op_name,cpu_op_uid,source,");
	outbuf_puts(ob, "Input Dims,Input Strides,Input type,Concrete Inputs,kernel_time,"
		    "busy_time,lowest_common_ancestor_name,lowest_common_ancestor_id,"
		    "gpu_op_uid,nn_module_stack,nn_module_parent\n");
	for (size_t k = 0; k < td->nrows; k++) {
		const struct diff_report_row *r = &td->rows[k];
		const struct tree_read *t = td->tm->t[r->side];
		const struct cpuinfo *ci = cpu(td, r->side, r->cpu);
		if (td->identical && r->side)
			continue;
		cell(ob, str(td, t->n[r->gpu].name));
		outbuf_putc(ob, ',');
		cell(ob, str(td, ci->name));
		outbuf_printf(ob, ",%u,", r->cpu);
		if (!td->identical)
			outbuf_puts(ob, r->side ? "trace2," : "trace1,");
		args_cells(td, ob, &t->n[r->cpu]);
		num(ob, kernel_time(td, r), td->kt_int);
		outbuf_putc(ob, ',');
		csv_float(ob, r->busy);
		outbuf_putc(ob, ',');
		if (r->lca_name != NT_NONE)
			cell(ob, str(td, r->lca_name));
		outbuf_putc(ob, ',');
		if (r->lca != NT_NONE)
			outbuf_printf(ob, td->lca_none ? "%u.0" : "%u", r->lca);
		outbuf_printf(ob, ",%u,", r->gpu);
		cell(ob, ci->stack);
		outbuf_putc(ob, ',');
		cell(ob, str(td, ci->parent));
		outbuf_putc(ob, '\n');
	}
}

static char *no_spaces(const char *s)
{
	char *o = xmalloc(strlen(s) + 1);
	size_t k = 0;
	for (; *s; s++)
		if (*s != ' ')
			o[k++] = *s;
	o[k] = '\0';
	return o;
}

/* Runs in a thread beside diff_stats.csv's writer (see warm_caches). */
void diff_report_write_summary_csv(struct diff_report *td, struct outbuf *ob)
{
	outbuf_puts(ob, td->identical ? "name,operation_count,cpu_op_name,cpu_op_uid," :
		    "name,operation_count,cpu_op_name,cpu_op_uid,source,");
	outbuf_puts(ob, "Input Dims,Input Strides,Input type,Concrete Inputs,busy_time,"
		    "lowest_common_ancestor_name,nn_module_stack,nn_module_parent,"
		    "kernel_time_mean,kernel_time_sum\n");
	for (size_t k = 0; k < td->ng; k++) {
		const struct diff_report_group *g = &td->g[k];
		const struct diff_report_row *r = &td->rows[g->first];
		char *parent;
		if (td->identical && r->side)
			continue;
		cell(ob, g->key[K_NAME]);
		outbuf_printf(ob, ",%u,", g->count);
		cell(ob, str(td, td->rename[k]));
		outbuf_printf(ob, ",%u,", r->cpu);
		if (!td->identical)
			outbuf_puts(ob, r->side ? "trace2," : "trace1,");
		args_cells(td, ob, &td->tm->t[r->side]->n[r->cpu]);
		csv_float(ob, r->busy);
		outbuf_putc(ob, ',');
		if (r->lca_name != NT_NONE)
			cell(ob, str(td, r->lca_name));
		outbuf_putc(ob, ',');
		cell(ob, g->key[K_STACK]);
		outbuf_putc(ob, ',');
		parent = no_spaces(g->key[K_PARENT]);
		cell(ob, parent);
		free(parent);
		outbuf_putc(ob, ',');
		csv_float(ob, g->kmean);
		outbuf_putc(ob, ',');
		num(ob, g->ksum, td->kt_int);
		outbuf_putc(ob, '\n');
	}
}

/* json.dump(..., ensure_ascii=False) string */
static void json_str(struct outbuf *ob, const char *s)
{
	outbuf_putc(ob, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			outbuf_putc(ob, '\\');
			outbuf_putc(ob, (char)c);
		} else if (c == '\n') {
			outbuf_puts(ob, "\\n");
		} else if (c == '\r') {
			outbuf_puts(ob, "\\r");
		} else if (c == '\t') {
			outbuf_puts(ob, "\\t");
		} else if (c == '\b') {
			outbuf_puts(ob, "\\b");
		} else if (c == '\f') {
			outbuf_puts(ob, "\\f");
		} else if (c < 0x20) {
			outbuf_printf(ob, "\\u%04x", c);
		} else {
			outbuf_putc(ob, (char)c);
		}
	}
	outbuf_putc(ob, '"');
}

static int cmp_strp(const void *a, const void *b)
{
	return text_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* A sorted list of unique strings as an indented JSON array. */
static void json_list(struct outbuf *ob, const char **v, size_t n, int indent)
{
	size_t out = 0;

	tl_qsort(v, n, sizeof(*v), cmp_strp);
	if (!n) {
		outbuf_puts(ob, "[]");
		return;
	}
	outbuf_putc(ob, '[');
	for (size_t k = 0; k < n; k++) {
		if (k && !text_cmp(v[k], v[k - 1]))
			continue;
		outbuf_puts(ob, out++ ? ",\n" : "\n");
		outbuf_printf(ob, "%*s", indent + 2, "");
		json_str(ob, v[k]);
	}
	outbuf_printf(ob, "\n%*s]", indent, "");
}

struct kv {
	const char *key, *val;
};

static int cmp_kv(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	return text_cmp(x->key, y->key);
}

/* cpu_op_map_traceN.json: {cpu_op_name: sorted kernel names}, keys sorted. */
void diff_report_write_map_side(struct diff_report *td, struct outbuf *ob, int side)
{
	struct kv *kv = xmalloc(st_mult(td->ng + 1, sizeof(*kv)));
	const char **vals = xmalloc(st_mult(td->ng + 1, sizeof(*vals)));
	size_t n = 0, keys = 0;

	for (size_t k = 0; k < td->ng; k++) {
		const struct diff_report_row *r = &td->rows[td->g[k].first];
		if (r->side != side)
			continue;
		kv[n].key = td->g[k].key[K_CPU];
		kv[n++].val = td->g[k].key[K_NAME];
	}
	tl_qsort(kv, n, sizeof(*kv), cmp_kv);
	outbuf_putc(ob, '{');
	for (size_t k = 0; k < n;) {
		size_t e = k, nv = 0;
		while (e < n && !text_cmp(kv[e].key, kv[k].key))
			vals[nv++] = kv[e++].val;
		outbuf_puts(ob, keys++ ? ",\n  " : "\n  ");
		json_str(ob, kv[k].key);
		outbuf_puts(ob, ": ");
		json_list(ob, vals, nv, 2);
		k = e;
	}
	outbuf_puts(ob, keys ? "\n}" : "}");
	free(kv);
	free(vals);
}

/* {"kernels": [...], "nn_module_parents": [...]} of the groups in a list */
static void map_side_value(struct diff_report *td, struct outbuf *ob, uint32_t head,
			   const uint32_t *next, int indent, const char **v1, const char **v2)
{
	size_t n = 0;

	for (uint32_t k = head; k != NT_NONE; k = next[k]) {
		v1[n] = td->g[k].key[K_NAME];
		v2[n++] = no_spaces(td->g[k].key[K_PARENT]);
	}
	outbuf_printf(ob, "{\n%*s\"kernels\": ", indent + 2, "");
	json_list(ob, v1, n, indent + 2);
	outbuf_printf(ob, ",\n%*s\"nn_module_parents\": ", indent + 2, "");
	json_list(ob, v2, n, indent + 2);
	outbuf_printf(ob, "\n%*s}", indent, "");
	for (size_t k = 0; k < n; k++)
		free((char *)v2[k]);
}

/*
 * cpu_op_map.json: per (renamed) cpu_op_name in summary order, per side,
 * the sorted kernels and module parents; with identical traces only the
 * trace1 value, unwrapped.
 */
void diff_report_write_map(struct diff_report *td, struct outbuf *ob)
{
	struct hmap at = HMAP_INIT;
	uint32_t *keys = xmalloc(st_mult(td->ng + 1, sizeof(*keys)));
	uint32_t *head = xmalloc(st_mult(2 * td->ng + 2, sizeof(*head)));
	uint32_t *tail = xmalloc(st_mult(2 * td->ng + 2, sizeof(*tail)));
	uint32_t *next = xmalloc(st_mult(td->ng + 1, sizeof(*next)));
	const char **v1 = xmalloc(st_mult(td->ng + 1, sizeof(*v1)));
	const char **v2 = xmalloc(st_mult(td->ng + 1, sizeof(*v2)));
	size_t nk = 0;

	for (size_t k = 0; k < td->ng; k++) {
		uint32_t ki, slot;
		if (!hmap_get(&at, (uint64_t)td->rename[k] + 1, &ki)) {
			ki = (uint32_t)nk;
			keys[nk++] = td->rename[k];
			head[2 * ki] = head[2 * ki + 1] = NT_NONE;
			hmap_put(&at, (uint64_t)td->rename[k] + 1, ki);
		}
		slot = 2 * ki + td->rows[td->g[k].first].side;
		next[k] = NT_NONE;
		if (head[slot] == NT_NONE)
			head[slot] = (uint32_t)k;
		else
			next[tail[slot]] = (uint32_t)k;
		tail[slot] = (uint32_t)k;
	}
	outbuf_putc(ob, '{');
	for (size_t ki = 0; ki < nk; ki++) {
		int sides = 0;
		outbuf_puts(ob, ki ? ",\n  " : "\n  ");
		json_str(ob, str(td, keys[ki]));
		outbuf_puts(ob, ": ");
		if (td->identical) {
			map_side_value(td, ob, head[2 * ki], next, 2, v1, v2);
			continue;
		}
		outbuf_putc(ob, '{');
		for (int s = 0; s < 2; s++) {
			if (head[2 * ki + s] == NT_NONE)
				continue;
			outbuf_puts(ob, sides++ ? ",\n    " : "\n    ");
			outbuf_puts(ob, s ? "\"trace2\": " : "\"trace1\": ");
			map_side_value(td, ob, head[2 * ki + s], next, 4, v1, v2);
		}
		outbuf_puts(ob, sides ? "\n  }" : "}");
	}
	outbuf_puts(ob, nk ? "\n}" : "}");
	hmap_release(&at);
	free(keys), free(head), free(tail), free(next), free(v1), free(v2);
}

/* ---- construction ---- */

struct diff_report *diff_report_new(struct diff_merge *tm)
{
	struct diff_report *td = xcalloc(1, sizeof(*td));
	uint8_t *visited = xcalloc((size_t)tm->nr + 1, 1);
	struct cache *c = xcalloc(1, sizeof(*c));

	td->tm = tm;
	td->cache = c;
	opname_init(&c->on);
	for (uint32_t k = 0; k < tm->nroots; k++)
		traverse(td, tm->roots[k], visited);
	free(visited);
	td->kt_int = 1;
	for (size_t k = 0; k < td->nrows; k++) {
		const struct diff_report_row *r = &td->rows[k];
		const struct tree_read_node *g = &tm->t[r->side]->n[r->gpu];
		if ((g->flags & NT_HAS_DUR) && !(g->flags & NT_DUR_INT))
			td->kt_int = 0;
		if (r->lca == NT_NONE)
			td->lca_none = 1;
	}
	td->identical = identical(td);
	build_groups(td);
	build_rename(td);
	return td;
}

static void summary_join(struct diff_report *td)
{
	if (C(td)->summary_running)
		pthread_join(C(td)->summary, NULL);
	C(td)->summary_running = 0;
}

void diff_report_free(struct diff_report *td)
{
	struct cache *c;

	if (!td)
		return;
	summary_join(td);
	c = td->cache;
	for (size_t k = 0; k < td->ng; k++)
		free(td->g[k].own);
	free(td->g);
	free(td->rows);
	free(td->rename);
	for (size_t k = 0; k < c->nrepr; k++)
		free(c->reprs[k]);
	free(c->reprs);
	for (size_t k = 0; k < c->ncpu; k++)
		free(c->cpus[k].stack);
	free(c->cpus);
	hmap_release(&c->repr_at);
	hmap_release(&c->cpu_at[0]);
	hmap_release(&c->cpu_at[1]);
	hmap_release(&c->label_at);
	opname_release(&c->on);
	free(c);
	free(td);
}

/* mkdir -p */
static int make_dir(const char *dir)
{
	char *p = xstrdup(dir);
	struct stat st;
	int rc = 0;

	for (char *s = p + 1; *s && !rc; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0777) < 0 && errno != EEXIST)
				rc = -1;
			*s = '/';
		}
	if (!rc && mkdir(p, 0777) < 0 && errno != EEXIST)
		rc = -1;
	if (!rc && (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)))
		rc = -1, errno = ENOTDIR;
	if (rc)
		tl_warn_errno("%s: cannot create directory", p);
	free(p);
	return rc;
}

static struct outbuf *open_in(const char *dir, const char *name)
{
	char *path = path_join(dir, name, "");
	struct outbuf *ob = outbuf_open_path(path);

	free(path);
	return ob;
}

/*
 * Every cache entry the two CSV writers look up (cpu() and arg_repr() fill
 * theirs on first use), so that while they run side by side they only
 * read.  The summary's rows are rows of diff_stats.csv.
 */
static void warm_caches(struct diff_report *td)
{
	for (size_t k = 0; k < td->nrows; k++) {
		const struct diff_report_row *r = &td->rows[k];
		const struct tree_read_node *c = &td->tm->t[r->side]->n[r->cpu];
		uint32_t a[4] = { c->dims, c->strides, c->types, c->concrete };
		cpu(td, r->side, r->cpu);
		for (int i = 0; i < 4; i++)
			arg_repr(td, a[i]);
	}
}

static void *summary_job(void *arg)
{
	struct diff_report *td = arg;

	diff_report_write_summary_csv(td, C(td)->summary_ob);
	outbuf_close(C(td)->summary_ob);
	return NULL;
}

/*
 * The two CSVs take about the same time (0.7 s each on a 2.6 M-event
 * trace): the summary is written in a second thread, joined by
 * diff_report_write_rest.
 */
int diff_report_write_stats(struct diff_report *td, const char *dir, int prune_non_gpu)
{
	struct outbuf *ob;
	struct cache *c = C(td);

	if (make_dir(dir) < 0)
		return -1;
	if (td->no_cpu_op)
		tl_warn("%zu GPU event%s under the differences %s no cpu_op above %s: "
			"not in diff_stats.csv (as in TraceDiff)", td->no_cpu_op,
			td->no_cpu_op == 1 ? "" : "s", td->no_cpu_op == 1 ? "has" : "have",
			td->no_cpu_op == 1 ? "it" : "them");
	ob = open_in(dir, "merged_tree_output.txt");
	diff_merge_write_tree(td->tm, ob, prune_non_gpu);
	outbuf_close(ob);
	if (!td->nrows) {
		tl_warn("no GPU events under the merged trees: diff_stats.csv, "
			"diff_stats_unique_args_summary.csv and cpu_op_map*.json not written");
		return 0;
	}
	warm_caches(td);
	c->summary_ob = open_in(dir, "diff_stats_unique_args_summary.csv");
	c->summary_running = pthread_create(&c->summary, NULL, summary_job, td) == 0;
	if (!c->summary_running)
		summary_job(td);
	ob = open_in(dir, "diff_stats.csv");
	diff_report_write_stats_csv(td, ob);
	outbuf_close(ob);
	return 1;
}

void diff_report_write_rest(struct diff_report *td, const char *dir)
{
	struct outbuf *ob;

	summary_join(td);
	ob = open_in(dir, "cpu_op_map_trace1.json");
	diff_report_write_map_side(td, ob, 0);
	outbuf_close(ob);
	ob = open_in(dir, "cpu_op_map_trace2.json");
	diff_report_write_map_side(td, ob, 1);
	outbuf_close(ob);
	ob = open_in(dir, "cpu_op_map.json");
	diff_report_write_map(td, ob);
	outbuf_close(ob);
}

/* ---- --summary ---- */

struct lca_sum {
	uint32_t lca, name, n;
	double t[2];
	int seen[2];
	struct vec32 ops[2];
};

static int cmp_lca_sum(const void *a, const void *b)
{
	const struct lca_sum *x = a, *y = b;
	double dx = fabs(x->t[1] - x->t[0]), dy = fabs(y->t[1] - y->t[0]);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->lca < y->lca ? -1 : x->lca > y->lca;
}

static struct lca_sum *lca_slot(struct hmap *at, struct lca_sum **ls, size_t *n,
				size_t *alloc, uint64_t key)
{
	uint32_t i;
	if (hmap_get(at, key, &i))
		return &(*ls)[i];
	xgrow((void **)ls, alloc, *n + 1, sizeof(**ls));
	memset(&(*ls)[*n], 0, sizeof(**ls));
	hmap_put(at, key, (uint32_t)*n);
	return &(*ls)[(*n)++];
}

/* Per LCA node: its busy time on each side (rows without LCA add up). */
static size_t collect_lcas(struct diff_report *td, struct lca_sum **out)
{
	struct hmap at = HMAP_INIT;
	struct lca_sum *ls = NULL;
	size_t n = 0, alloc = 0;

	for (size_t k = 0; k < td->nrows; k++) {
		const struct diff_report_row *r = &td->rows[k];
		struct lca_sum *l = lca_slot(&at, &ls, &n, &alloc, (uint64_t)r->lca + 1);
		l->lca = r->lca;
		l->name = r->lca_name;
		l->n = 1;
		if (r->lca == NT_NONE)
			l->t[r->side] += kernel_time(td, r);
		else if (!l->seen[r->side])
			l->t[r->side] = r->busy_raw;
		l->seen[r->side] = 1;
		vput_unique(&l->ops[r->side], cpu(td, r->side, r->cpu)->name);
	}
	hmap_release(&at);
	*out = ls;
	return n;
}

/* The LCA nodes summed by LCA name: one line per kind of difference. */
static size_t by_name(struct lca_sum *ls, size_t n, struct lca_sum **out)
{
	struct hmap at = HMAP_INIT;
	struct lca_sum *g = NULL;
	size_t ng = 0, alloc = 0;

	for (size_t k = 0; k < n; k++) {
		struct lca_sum *l = lca_slot(&at, &g, &ng, &alloc, (uint64_t)ls[k].name + 1);
		if (!l->n++)
			l->lca = ls[k].lca;
		l->name = ls[k].name;
		for (int s = 0; s < 2; s++) {
			l->t[s] += ls[k].t[s];
			for (size_t o = 0; o < ls[k].ops[s].n; o++)
				vput_unique(&l->ops[s], ls[k].ops[s].v[o]);
		}
	}
	hmap_release(&at);
	*out = g;
	return ng;
}

static int same_ops(const struct lca_sum *l)
{
	if (l->ops[0].n != l->ops[1].n)
		return 0;
	for (size_t k = 0; k < l->ops[0].n; k++)
		if (!vhas(&l->ops[1], l->ops[0].v[k]))
			return 0;
	return 1;
}

/* A name in --summary (text for a terminal): demangled, control characters escaped. */
static void put_display(struct outbuf *ob, const char *s)
{
	char *d = display_demangle(s);

	display_escape(ob, d ? d : s, strlen(d ? d : s), DISPLAY_TERMINAL);
	free(d);
}

static void write_ops(struct diff_report *td, struct outbuf *ob, const struct vec32 *v)
{
	for (size_t k = 0; k < v->n; k++) {
		if (k)
			outbuf_puts(ob, ", ");
		put_display(ob, str(td, v->v[k]));
	}
}

static void free_sums(struct lca_sum *ls, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(ls[k].ops[0].v), free(ls[k].ops[1].v);
	free(ls);
}

void diff_report_write_summary(struct diff_report *td, struct outbuf *ob, int top)
{
	struct lca_sum *nodes, *ls;
	size_t nn = collect_lcas(td, &nodes), n = by_name(nodes, nn, &ls);
	double tot[2] = { 0, 0 }, absum = 0;

	for (size_t k = 0; k < n; k++) {
		tot[0] += ls[k].t[0], tot[1] += ls[k].t[1];
		absum += fabs(ls[k].t[1] - ls[k].t[0]);
	}
	tl_qsort(ls, n, sizeof(*ls), cmp_lca_sum);
	outbuf_printf(ob, "points of difference: %zu; GPU time under them: trace1 %.3f us, "
		      "trace2 %.3f us, change %+.3f us\n", nn, tot[0], tot[1], tot[1] - tot[0]);
	outbuf_puts(ob, "   change_us  share  trace1_us  trace2_us  count  lowest common ancestor\n");
	for (size_t k = 0; k < n && (top <= 0 || k < (size_t)top); k++) {
		const struct lca_sum *l = &ls[k];
		double d = l->t[1] - l->t[0];
		outbuf_printf(ob, "%+12.3f %5.1f%% %10.3f %10.3f %6u  ", d,
			      absum > 0 ? 100 * fabs(d) / absum : 0.0, l->t[0], l->t[1], l->n);
		if (l->name == NT_NONE)
			outbuf_puts(ob, "(no common ancestor)");
		else
			put_display(ob, str(td, l->name));
		outbuf_putc(ob, '\n');
		if (l->ops[0].n && l->ops[1].n && !same_ops(l)) {
			outbuf_puts(ob, "                lowered differently: ");
			write_ops(td, ob, &l->ops[0]);
			outbuf_puts(ob, " (trace1) vs ");
			write_ops(td, ob, &l->ops[1]);
			outbuf_puts(ob, " (trace2)\n");
		}
	}
	free_sums(nodes, nn);
	free_sums(ls, n);
}
