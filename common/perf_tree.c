#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_name.h"
#include "np_stat.h"
#include "py_repr.h"
#include "perf_model.h"
#include "perf_model_memo.h"
#include "hmap.h"
#include "perf_tree.h"
#include "strpool.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

static const struct node *N(const struct perf_tree *tp, uint32_t uid)
{
	return &tp->ns->node[uid];
}

static const char *name_of(const struct perf_tree *tp, uint32_t uid)
{
	return tree_nodes_str(tp->ns, N(tp, uid)->name);
}

/*
 * Is node uid's name a communication kernel's (TraceLens's
 * is_communication_string)?  Worked out once per pooled name: every GPU
 * event is asked up to four times, and kernel names are long and few.
 */
static int is_comm(const struct perf_tree *tp, uint32_t uid)
{
	uint32_t name = N(tp, uid)->name;
	const char *s = tree_nodes_str(tp->ns, name);
	size_t n = tree_nodes_len(tp->ns, name);

	if (name >= tp->ncomm)	/* a name pooled after the tree was made */
		return coll_name_match(s, n);
	return coll_name_match_memo(&tp->comm[name], s, n);
}

/*
 * perf_tree_op's memo: pooled name id + 1 → index in v + 1 of its entry
 * (NULL where the op table lacks the name).  A map, not an array by
 * name: the pool holds every string of the trace, 12 MB of pointers on
 * the x20 trace, and only op names are asked.
 */
struct perf_tree_opmemo {
	struct hmap map;
	const struct perf_ops_entry **v;
	size_t n, alloc;
};

const struct perf_ops_entry *perf_tree_op(const struct perf_tree *tp, uint32_t uid)
{
	struct perf_tree_opmemo *m = tp->opmemo;
	uint32_t name = N(tp, uid)->name, k;

	if (hmap_get(&m->map, (uint64_t)name + 1, &k))
		return m->v[k - 1];
	xgrow((void **)&m->v, &m->alloc, m->n + 1, sizeof(*m->v));
	m->v[m->n++] = perf_ops_lookup(tp->db, name_of(tp, uid));
	hmap_put(&m->map, (uint64_t)name + 1, (uint32_t)m->n);
	return m->v[m->n - 1];
}

/* Linked GPU event: TraceLens set its parent to the launching runtime event. */
static int linked_gpu(const struct node *n)
{
	return node_is_gpu(n) && n->parent >= 0;
}

static const struct perf_tree *sort_tp;

/* gpu_events order (spec core §2.4): runtime uid, then GPU file order; the
 * lists follow the children lists (dparent), as TraceLens's edits keep them */
static int cmp_by_parent(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int32_t px = N(sort_tp, x)->parent, py = N(sort_tp, y)->parent;
	if (px != py)
		return px < py ? -1 : 1;
	return (x > y) - (x < y);
}

static void build_gpu_events(struct perf_tree *tp)
{
	const struct tree_nodes *ns = tp->ns;
	uint32_t *g = xmalloc(st_mult(ns->n + 1, sizeof(*g))), ng = 0, *cur;
	size_t i;

	tp->ge_off = xcalloc(ns->n + 1, sizeof(*tp->ge_off));
	for (i = 0; i < ns->n; i++)
		if (linked_gpu(&ns->node[i]))
			g[ng++] = (uint32_t)i;
	sort_tp = tp;
	tl_qsort(g, ng, sizeof(*g), cmp_by_parent);
	for (i = 0; i < ng; i++)
		for (int32_t a = tp->dparent[g[i]]; a >= 0; a = tp->dparent[a])
			tp->ge_off[a + 1]++;
	for (i = 0; i < ns->n; i++)
		tp->ge_off[i + 1] += tp->ge_off[i];
	tp->ge = xmalloc(st_mult(tp->ge_off[ns->n] + 1, sizeof(*tp->ge)));
	cur = xmalloc(st_mult(ns->n + 1, sizeof(*cur)));
	tl_memcpy(cur, tp->ge_off, ns->n * sizeof(*cur));
	for (i = 0; i < ng; i++)
		for (int32_t a = tp->dparent[g[i]]; a >= 0; a = tp->dparent[a])
			tp->ge[cur[a]++] = g[i];
	free(cur);
	free(g);
}

/* children in sweep order: host children by (ts, uid), then GPU children by uid */
static int cmp_child(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct node *nx = N(sort_tp, x), *ny = N(sort_tp, y);
	int gx = node_is_gpu(nx), gy = node_is_gpu(ny);
	if (nx->parent != ny->parent)
		return nx->parent < ny->parent ? -1 : 1;
	if (gx != gy)
		return gx - gy;
	if (!gx && nx->ts != ny->ts)
		return nx->ts < ny->ts ? -1 : 1;
	return (x > y) - (x < y);
}

static int explicit_kids(const struct tree_nodes *ns, size_t i)
{
	return ns->kid_off && ns->kid_off[i] != UINT32_MAX;
}

/* dparent: listed in an explicit children list, else the parent link unless
 * the parent's children are explicit (then no list holds the node) */
static void build_dparent(struct perf_tree *tp)
{
	const struct tree_nodes *ns = tp->ns;

	tp->dparent = xmalloc(st_mult(ns->n + 1, sizeof(*tp->dparent)));
	for (size_t i = 0; i < ns->n; i++) {
		int32_t p = ns->node[i].parent;
		tp->dparent[i] = p >= 0 && !explicit_kids(ns, (size_t)p) ? p : -1;
	}
	for (size_t i = 0; i < ns->n; i++)
		if (explicit_kids(ns, i))
			for (const uint32_t *k = ns->kid + ns->kid_off[i]; *k != UINT32_MAX; k++)
				tp->dparent[*k] = (int32_t)i;
}

static void build_children(struct perf_tree *tp)
{
	const struct tree_nodes *ns = tp->ns;
	size_t i, nc = 0, *fill;

	tp->ch_off = xcalloc(ns->n + 1, sizeof(*tp->ch_off));
	tp->ch = xmalloc(st_mult(ns->n + 1, sizeof(*tp->ch)));
	for (i = 0; i < ns->n; i++) {
		if (explicit_kids(ns, i))
			for (const uint32_t *k = ns->kid + ns->kid_off[i]; *k != UINT32_MAX; k++)
				tp->ch_off[i + 1]++;
		if (ns->node[i].parent >= 0 && !explicit_kids(ns, (size_t)ns->node[i].parent))
			tp->ch_off[ns->node[i].parent + 1]++;
	}
	for (i = 0; i < ns->n; i++)
		tp->ch_off[i + 1] += tp->ch_off[i];
	nc = tp->ch_off[ns->n];
	tp->ch = xrealloc(tp->ch, st_mult(nc + 1, sizeof(*tp->ch)));
	fill = xcalloc(ns->n + 1, sizeof(*fill));
	for (i = 0; i < ns->n; i++) {
		int32_t p = ns->node[i].parent;
		if (explicit_kids(ns, i))
			for (const uint32_t *k = ns->kid + ns->kid_off[i]; *k != UINT32_MAX; k++)
				tp->ch[tp->ch_off[i] + fill[i]++] = *k;
		if (p >= 0 && !explicit_kids(ns, (size_t)p))
			tp->ch[tp->ch_off[p] + fill[p]++] = (uint32_t)i;
	}
	free(fill);
	sort_tp = tp;
	for (i = 0; i < ns->n; i++)
		if (!explicit_kids(ns, i) && tp->ch_off[i + 1] > tp->ch_off[i])
			tl_qsort(tp->ch + tp->ch_off[i], tp->ch_off[i + 1] - tp->ch_off[i],
			      sizeof(*tp->ch), cmp_child);
}

const uint32_t *perf_tree_gpu_events(const struct perf_tree *tp, uint32_t uid, uint32_t *n)
{
	*n = tp->ge_off[uid + 1] - tp->ge_off[uid];
	return tp->ge + tp->ge_off[uid];
}

double perf_tree_busy(const struct perf_tree *tp, const uint32_t *uids, size_t n)
{
	struct timeline_interval *iv = xmalloc(st_mult(n ? n : 1, sizeof(*iv)));
	double b;

	for (size_t i = 0; i < n; i++) {
		iv[i].start = N(tp, uids[i])->ts;
		iv[i].end = node_end(N(tp, uids[i]));
	}
	b = np_busy_time(iv, n);
	free(iv);
	return b;
}

int32_t perf_tree_cpu_op_above(const struct perf_tree *tp, uint32_t uid)
{
	for (int32_t a = N(tp, uid)->parent; a >= 0; a = N(tp, a)->parent)
		if (N(tp, a)->cat == NC_CPU_OP)
			return a;
	return -1;
}

/* §4.4: nearest cpu_op above the runtime call r, "execute" and python frames skipped */
static uint32_t leaf_of(const struct perf_tree *tp, uint32_t r)
{
	for (int32_t cur = N(tp, r)->parent; cur >= 0; cur = N(tp, cur)->parent) {
		const struct node *c = N(tp, cur);
		if (c->cat == NC_CPU_OP) {
			if (!strcmp(tree_nodes_str(tp->ns, c->name), "execute"))
				continue;
			return (uint32_t)cur;
		}
		if (c->cat != NC_PYTHON)
			break;
	}
	return r;
}

static int cmp_kern_ts(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double tx = N(sort_tp, x)->ts, ty = N(sort_tp, y)->ts;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x > y) - (x < y);
}

static int cmp_launch_ts(const void *a, const void *b)
{
	const struct launcher *x = a, *y = b;
	double tx = N(sort_tp, x->uid)->ts, ty = N(sort_tp, y->uid)->ts;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void finish_launcher(struct perf_tree *tp, struct launcher *L)
{
	uint32_t n;
	const uint32_t *ge = perf_tree_gpu_events(tp, L->uid, &n);

	L->direct_us = perf_tree_busy(tp, L->kern, L->nkern);
	L->subtree_us = perf_tree_busy(tp, ge, n);
	sort_tp = tp;
	tl_qsort(L->kern, L->nkern, sizeof(*L->kern), cmp_kern_ts);
	L->category = perf_ops_categorize(tp->db, name_of(tp, L->uid),
				      L->nkern ? name_of(tp, L->kern[0]) : NULL);
}

static void build_launchers(struct perf_tree *tp)
{
	const struct tree_nodes *ns = tp->ns;
	size_t i, alloc = 0, *kalloc = NULL;

	tp->launcher_of = xmalloc(st_mult(ns->n + 1, sizeof(*tp->launcher_of)));
	for (i = 0; i < ns->n; i++)
		tp->launcher_of[i] = -1;
	for (i = 0; i < ns->n; i++) {
		const struct node *k = &ns->node[i];
		uint32_t L;
		struct launcher *l;
		if (!node_is_gpu(k) || k->parent < 0 || is_comm(tp, (uint32_t)i))
			continue;
		L = leaf_of(tp, (uint32_t)k->parent);
		if (tp->launcher_of[L] < 0) {
			xgrow((void **)&tp->launch, &alloc, tp->nlaunch + 1, sizeof(*tp->launch));
			kalloc = xrealloc(kalloc, st_mult(alloc, sizeof(*kalloc)));
			memset(&tp->launch[tp->nlaunch], 0, sizeof(*tp->launch));
			kalloc[tp->nlaunch] = 0;
			tp->launch[tp->nlaunch].uid = L;
			tp->launch[tp->nlaunch].seq = (uint32_t)tp->nlaunch;
			tp->launcher_of[L] = (int32_t)tp->nlaunch++;
		}
		l = &tp->launch[tp->launcher_of[L]];
		xgrow((void **)&l->kern, &kalloc[tp->launcher_of[L]], l->nkern + 1, sizeof(*l->kern));
		l->kern[l->nkern++] = (uint32_t)i;
	}
	free(kalloc);
	for (i = 0; i < tp->nlaunch; i++)
		finish_launcher(tp, &tp->launch[i]);
	sort_tp = tp;
	/* a trace whose only kernels are collectives has no launcher */
	tl_qsort(tp->launch, tp->nlaunch, sizeof(*tp->launch), cmp_launch_ts);
	for (i = 0; i < tp->nlaunch; i++)
		tp->launcher_of[tp->launch[i].uid] = (int32_t)i;
}

static void total_time(struct perf_tree *tp, int all_gpu)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < tp->ns->n; i++) {
		const struct node *n = &tp->ns->node[i];
		if (!node_is_gpu(n) || (!all_gpu && n->parent < 0))
			continue;
		if (n->ts < lo)
			lo = n->ts;
		if (node_end(n) > hi)
			hi = node_end(n);
	}
	tp->total_us = lo <= hi ? hi - lo : NAN;
}

struct perf_tree *perf_tree_new(const struct tree_nodes *ns, const struct perf_ops *db, int all_gpu)
{
	struct perf_tree *tp = xcalloc(1, sizeof(*tp));

	tp->ns = ns;
	tp->db = db;
	tp->all_gpu = all_gpu;
	tp->gpu_only = 1;
	tp->ncomm = (size_t)strpool_count(ns->sp) + 1;
	tp->comm = xcalloc(tp->ncomm, 1);
	tp->opmemo = xcalloc(1, sizeof(*tp->opmemo));
	for (size_t i = 0; i < ns->n; i++) {
		if (ns->node[i].cat == NC_CPU_OP)
			tp->gpu_only = 0;
		if (ns->node[i].cat == NC_PYTHON && (ns->node[i].flags & NF_TREE))
			tp->python = 1;
	}
	build_dparent(tp);
	build_gpu_events(tp);
	build_children(tp);
	build_launchers(tp);
	total_time(tp, all_gpu);
	return tp;
}

void perf_tree_free(struct perf_tree *tp)
{
	if (!tp)
		return;
	/* the memo's keys are this tree's texts */
	perf_model_memo_free();
	perf_tree_overlap_free(tp);
	for (size_t i = 0; i < tp->nlaunch; i++)
		free(tp->launch[i].kern);
	free(tp->launch);
	free(tp->launcher_of);
	for (size_t i = 0; i < tp->nuni; i++) {
		free(tp->uni[i].gpu);
		free(tp->uni[i].cs);
	}
	free(tp->uni);
	for (size_t i = 0; i < tp->nsynth; i++)
		free(tp->synth_names[i]);
	free(tp->synth_names);
	free(tp->ge_off);
	free(tp->ge);
	free(tp->ch_off);
	free(tp->ch);
	free(tp->dparent);
	free(tp->comm);
	if (tp->opmemo) {
		hmap_release(&tp->opmemo->map);
		free(tp->opmemo->v);
		free(tp->opmemo);
	}
	free(tp);
}

const char *perf_tree_category(const struct perf_tree *tp, uint32_t uid)
{
	int32_t li = tp->launcher_of[uid];

	if (li >= 0)
		return tp->launch[li].category;
	return perf_ops_categorize(tp->db, name_of(tp, uid), NULL);
}

/* TritonCompiledPerfModel.can_model(): non-empty Input Dims, Input type
 * and Concrete Inputs, and an integer among the latter (spec perf_model
 * §1.1, §3.10): what the triton kind itself checks */
static int triton_can_model(const struct perf_tree *tp, uint32_t uid, const struct perf_ops_entry *e)
{
	const struct node *n = &tp->ns->node[uid];
	struct pm_args a = { .dims = tree_nodes_str(tp->ns, n->dims),
			     .types = tree_nodes_str(tp->ns, n->types),
			     .strides = n->strides ? tree_nodes_str(tp->ns, n->strides) : NULL,
			     .concrete = tree_nodes_str(tp->ns, n->concrete),
			     .opname = name_of(tp, uid) };
	struct pm_result r;
	int ok;

	perf_model_memo_compute(e, &a, NULL, 0, 0, &r);
	ok = r.status != PM_NOMODEL;
	pm_result_release(&r);
	return ok;
}

int perf_tree_has_perf_model(const struct perf_tree *tp, uint32_t uid)
{
	const struct perf_ops_entry *e = perf_tree_op(tp, uid);

	if (e && !strcmp(e->kind, "triton"))
		return triton_can_model(tp, uid, e);
	return e && strcmp(e->kind, "none");
}

const char *perf_tree_cs_name(const struct perf_tree *tp, uint32_t uid, struct pystr *out)
{
	const char *s = name_of(tp, uid), *p;

	if (N(tp, uid)->cat != NC_CPU_OP && !strstr(s, "nn.Module") && !strstr(s, "::") &&
	    !strchr(s, '/'))
		return NULL;
	pystr_reset(out);
	for (p = s; *p; ) {
		if (*p == '_' && p[1] >= '0' && p[1] <= '9') {
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
			continue;
		}
		pystr_addc(out, *p++);
	}
	pystr_addc(out, '\0');
	out->len--;
	return out->buf;
}

/* ---- unified perf table collection (§4.6) ----------------------------- */

/*
 * count_named's answers, for every node at once (built on first use): the
 * forest in which a node's children belong to it when they are cpu_ops
 * (the subtree count_named walks), in depth-first tour order, where node
 * w's descendants hold the tour positions tin[w]+1 .. tout[w]-1; the tour
 * positions of the cpu_ops launching GPU work, sorted by (name, position);
 * and their running count.  TraceLens walks the subtree for every backward
 * op it looks at, which a chain of nested ones makes quadratic; here each
 * question is a binary search.
 */
struct named_index {
	uint32_t *tin, *tout;	/* per uid */
	uint64_t *launch;	/* (name << 32 | position) of launching cpu_ops, sorted */
	size_t nlaunch;
	uint32_t *before;	/* before[t]: launching cpu_ops at positions < t */
};

struct uctx {
	struct perf_tree *tp;
	uint8_t *visited, *model_below;
	size_t alloc;
	uint32_t *cs;		/* python mode: the running call stack */
	uint32_t ncs;
	size_t acs;
	struct named_index *ix;
};

static uint32_t gpu_n(const struct perf_tree *tp, uint32_t uid)
{
	return tp->ge_off[uid + 1] - tp->ge_off[uid];
}

static void add_row(struct uctx *u, uint32_t uid, uint32_t row_uid, const char *name,
		    const char *cat, const uint32_t *gpu, uint32_t ngpu, int has_model)
{
	struct perf_tree *tp = u->tp;
	struct unirow *r;

	xgrow((void **)&tp->uni, &u->alloc, tp->nuni + 1, sizeof(*tp->uni));
	r = &tp->uni[tp->nuni++];
	r->uid = uid;
	r->row_uid = row_uid;
	r->name = name;
	r->category = cat;
	r->ngpu = ngpu;
	r->gpu = xmalloc(st_mult(ngpu ? ngpu : 1, sizeof(*r->gpu)));
	tl_memcpy(r->gpu, gpu, ngpu * sizeof(*gpu));
	r->kernel_us = perf_tree_busy(tp, gpu, ngpu);
	r->has_perf_model = has_model;
	r->cs = NULL;
	r->ncs = 0;
	r->has_cs = 0;
	if (tp->python && row_uid == uid) {
		r->has_cs = 1;
		r->ncs = u->ncs;
		r->cs = xmalloc(st_mult(u->ncs + 1, sizeof(*r->cs)));
		tl_memcpy(r->cs, u->cs, u->ncs * sizeof(*r->cs));
	}
}

static void collect(struct uctx *u, uint32_t e, const char *cat, int has_model)
{
	uint32_t n;
	const uint32_t *g = perf_tree_gpu_events(u->tp, e, &n);
	add_row(u, e, e, name_of(u->tp, e), cat, g, n, has_model);
}

/* is_leaf_cpu_op: a GPU child reachable through cuda_runtime/python frames
 * only, ten levels down at most (has_kernel_descendant's max_depth) */
static int reaches_gpu(const struct perf_tree *tp, uint32_t e, int depth)
{
	if (depth >= 10)
		return 0;
	for (uint32_t i = tp->ch_off[e]; i < tp->ch_off[e + 1]; i++) {
		const struct node *c = N(tp, tp->ch[i]);
		if (node_is_gpu(c))
			return 1;
		if ((c->cat == NC_RUNTIME || c->cat == NC_PYTHON) &&
		    reaches_gpu(tp, tp->ch[i], depth + 1))
			return 1;
	}
	return 0;
}

static int is_nccl_event(const struct perf_tree *tp, uint32_t e)
{
	uint32_t n;
	const uint32_t *g = perf_tree_gpu_events(tp, e, &n);
	for (uint32_t i = 0; i < n; i++)
		if (is_comm(tp, g[i]))
			return 1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int launching_op(const struct perf_tree *tp, uint32_t k)
{
	return N(tp, k)->cat == NC_CPU_OP && gpu_n(tp, k);
}

/* The tour: each component starts at a node that is not a cpu_op child. */
static struct named_index *named_index_new(const struct perf_tree *tp)
{
	struct named_index *ix = xcalloc(1, sizeof(*ix));
	size_t n = tp->ns->n, sp = 0;
	uint32_t t = 0, *stack = xmalloc(st_mult(n + 1, sizeof(*stack)));
	uint8_t *opened = xcalloc(n + 1, 1);

	ix->tin = xmalloc(st_mult(n + 1, sizeof(*ix->tin)));
	ix->tout = xmalloc(st_mult(n + 1, sizeof(*ix->tout)));
	ix->launch = xmalloc(st_mult(n + 1, sizeof(*ix->launch)));
	ix->before = xcalloc(n + 2, sizeof(*ix->before));
	for (uint32_t r = 0; r < n; r++) {
		if (N(tp, r)->cat == NC_CPU_OP && N(tp, r)->parent >= 0)
			continue;
		stack[sp++] = r;
		while (sp) {
			uint32_t w = stack[sp - 1];
			if (opened[w]) {	/* its subtree is done */
				ix->tout[w] = t;
				sp--;
				continue;
			}
			opened[w] = 1;
			ix->tin[w] = t++;
			if (launching_op(tp, w))
				ix->launch[ix->nlaunch++] = (uint64_t)N(tp, w)->name << 32 | ix->tin[w];
			for (uint32_t i = tp->ch_off[w + 1]; i-- > tp->ch_off[w];)
				if (N(tp, tp->ch[i])->cat == NC_CPU_OP)
					stack[sp++] = tp->ch[i];
		}
	}
	for (size_t k = 0; k < ix->nlaunch; k++)
		ix->before[(uint32_t)ix->launch[k] + 1]++;
	for (uint32_t k = 0; k < t; k++)
		ix->before[k + 1] += ix->before[k];
	tl_qsort(ix->launch, ix->nlaunch, sizeof(*ix->launch), cmp_u64);
	free(stack);
	free(opened);
	return ix;
}

static void named_index_free(struct named_index *ix)
{
	if (!ix)
		return;
	free(ix->tin);
	free(ix->tout);
	free(ix->launch);
	free(ix->before);
	free(ix);
}

/* The first entry of launch at or after key. */
static size_t lower_bound(const struct named_index *ix, uint64_t key)
{
	size_t lo = 0, hi = ix->nlaunch;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->launch[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* cpu_op descendants (through cpu_ops only) launching GPU work, named x (any if NULL) */
static size_t count_named(struct uctx *u, uint32_t w, const char *x)
{
	const struct named_index *ix;
	uint32_t lo, hi, name;

	if (!u->ix)
		u->ix = named_index_new(u->tp);
	ix = u->ix;
	lo = ix->tin[w] + 1;
	hi = ix->tout[w];
	if (!x)
		return ix->before[hi] - ix->before[lo];
	name = strpool_find(u->tp->ns->sp, x, strlen(x));
	if (name == UINT32_MAX)
		return 0;
	return lower_bound(ix, (uint64_t)name << 32 | hi) - lower_bound(ix, (uint64_t)name << 32 | lo);
}

/* compute_perf_metrics(fwd, bwd=True) does not raise (TP:1750-1760); a
 * model kind tl lacks cannot say, and counts as working */
static int bwd_metrics_ok(const struct perf_tree *tp, uint32_t fwd, const struct perf_ops_entry *e)
{
	const struct node *n = N(tp, fwd);
	struct pm_args a = { .dims = n->dims ? tree_nodes_str(tp->ns, n->dims) : NULL,
			     .types = n->types ? tree_nodes_str(tp->ns, n->types) : NULL,
			     .strides = n->strides ? tree_nodes_str(tp->ns, n->strides) : NULL,
			     .concrete = n->concrete ? tree_nodes_str(tp->ns, n->concrete) : NULL,
			     .opname = name_of(tp, fwd) };
	struct pm_result r;
	int ok;

	perf_model_memo_compute(e, &a, NULL, 0, 1, &r);
	ok = r.status == PM_OK || r.status == PM_NOMODEL;
	pm_result_release(&r);
	return ok;
}

/* is_sole_bwd_with_fwd_perf_model: the fwd model's bwd category, or NULL */
static const char *sole_bwd_category(struct uctx *u, uint32_t e)
{
	const struct perf_tree *tp = u->tp;
	int32_t w = (int32_t)e;
	const struct perf_ops_entry *fe;
	const char *colon;

	/* _get_linked_fwd_event: the first of the five parents (not the
	 * event itself) with a fwd_event */
	w = N(tp, e)->parent;
	for (int i = 1; i < 5 && w >= 0 && N(tp, w)->fwd <= 0; i++)
		w = N(tp, w)->parent;
	if (w < 0 || N(tp, w)->fwd <= 0)
		return NULL;
	fe = perf_tree_op(tp, (uint32_t)N(tp, w)->fwd);
	if (!fe || !strcmp(fe->kind, "none") || !strcmp(fe->bwd_category, "-") ||
	    !bwd_metrics_ok(tp, (uint32_t)N(tp, w)->fwd, fe))
		return NULL;
	colon = strstr(name_of(tp, (uint32_t)w), ": ");
	if (count_named(u, (uint32_t)w, colon ? colon + 2 : NULL) != 1)
		return NULL;
	return fe->bwd_category;
}

/* One node of collect_unified_perf_events' traverse() (TP:1826-1910):
 * which of e or its descendants become rows; 1 if its children are to be
 * visited. */
static int visit(struct uctx *u, uint32_t e)
{
	struct perf_tree *tp = u->tp;
	const char *bwd;

	if (!tp->python && N(tp, e)->cat != NC_CPU_OP)
		return 0;
	if (!gpu_n(tp, e))
		return 0;
	if (perf_tree_has_perf_model(tp, e)) {
		collect(u, e, perf_tree_category(tp, e), 1);
		return 0;
	}
	if ((bwd = sole_bwd_category(u, e))) {
		if (u->model_below[e])
			return 1;
		collect(u, e, bwd, 1);
		return 0;
	}
	if (u->model_below[e])
		return 1;
	if (N(tp, e)->cat == NC_CPU_OP && reaches_gpu(tp, e, 0)) {
		if (!is_nccl_event(tp, e))
			collect(u, e, perf_tree_category(tp, e), 0);
		return 0;
	}
	return 1;
}

#define POP_CS UINT32_MAX	/* on the walk's stack: leave a call-stack frame */

/*
 * TraceLens's recursive walk, in the same order (children pushed last
 * first), on a stack of its own: a chain of a million nested ops must not
 * overflow the C stack.  In python mode the running call stack (u->cs)
 * holds the ancestors TraceLens keeps, e included while e and its subtree
 * are visited: a POP_CS entry below e's children leaves e's frame.
 */
static void traverse(struct uctx *u, uint32_t root, uint32_t **stack, size_t *alloc)
{
	struct perf_tree *tp = u->tp;
	struct pystr t = {0};
	size_t n = 0;

	xgrow((void **)stack, alloc, 1, sizeof(**stack));
	(*stack)[n++] = root;
	while (n) {
		uint32_t e = (*stack)[--n];
		if (e == POP_CS) {
			u->ncs--;
			continue;
		}
		if (u->visited[e])
			continue;
		u->visited[e] = 1;
		xgrow((void **)stack, alloc, n + 1 + (tp->ch_off[e + 1] - tp->ch_off[e]),
		      sizeof(**stack));
		if (tp->python && perf_tree_cs_name(tp, e, &t)) {
			xgrow((void **)&u->cs, &u->acs, u->ncs + 1, sizeof(*u->cs));
			u->cs[u->ncs++] = e;
			(*stack)[n++] = POP_CS;
		}
		if (!visit(u, e))
			continue;
		for (uint32_t i = tp->ch_off[e + 1]; i-- > tp->ch_off[e];)
			(*stack)[n++] = tp->ch[i];
	}
	pystr_release(&t);
}

/*
 * model_below[a]: some cpu_op below a has a perf model and GPU work, found
 * the way _has_descendant_cpu_op_with_own_perf_model looks: down the
 * children lists through cpu_ops and python frames only.
 */
static void mark_model_below(struct uctx *u)
{
	const struct perf_tree *tp = u->tp;
	for (uint32_t i = 0; i < tp->ns->n; i++) {
		if (N(tp, i)->cat != NC_CPU_OP || !gpu_n(tp, i) || !perf_tree_has_perf_model(tp, i))
			continue;
		for (int32_t a = tp->dparent[i]; a >= 0; a = tp->dparent[a]) {
			u->model_below[a] = 1;
			if (N(tp, a)->cat != NC_CPU_OP && N(tp, a)->cat != NC_PYTHON)
				break;
		}
	}
}

/* cpu_root_nodes order: the list's own (tl-nodes 2), else ts, then uid */
static int cmp_root(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const uint32_t *ro = sort_tp->ns->root_order;

	if (ro && ro[x] != ro[y])
		return ro[x] < ro[y] ? -1 : 1;
	return cmp_kern_ts(a, b);
}

/*
 * The first kernel of an event's kernel_details as TraceLens has it when
 * it copies the event into a synthetic row: a launcher's direct kernels by
 * ts, or, for an op of a per-category sheet (whose perf metrics were
 * computed before), all its GPU events by ts; else none.
 */
static const char *first_kernel(const struct perf_tree *tp, uint32_t uid)
{
	const struct perf_ops_entry *e = perf_tree_op(tp, uid);
	int32_t li = tp->launcher_of[uid];

	if (e && strcmp(e->kind, "none") && strcmp(e->sheet, "-") && !strchr(e->name, '*')) {
		uint32_t n, best = UINT32_MAX;
		const uint32_t *g = perf_tree_gpu_events(tp, uid, &n);
		for (uint32_t i = 0; i < n; i++)
			if (best == UINT32_MAX || N(tp, g[i])->ts < N(tp, best)->ts ||
			    (N(tp, g[i])->ts == N(tp, best)->ts && g[i] < best))
				best = g[i];
		return best == UINT32_MAX ? NULL : name_of(tp, best);
	}
	if (li >= 0 && tp->launch[li].nkern)
		return name_of(tp, tp->launch[li].kern[0]);
	return NULL;
}

static void add_synthetic(struct uctx *u, uint32_t owner, uint32_t kk, uint32_t *next_uid,
			  size_t *salloc)
{
	struct perf_tree *tp = u->tp;
	struct pystr ps = {0};

	pystr_adds(&ps, name_of(tp, owner));
	pystr_adds(&ps, "->");
	pystr_adds(&ps, name_of(tp, kk));
	pystr_adds(&ps, " (Synthetic Op)");
	xgrow((void **)&tp->synth_names, salloc, tp->nsynth + 1, sizeof(*tp->synth_names));
	tp->synth_names[tp->nsynth++] = ps.buf;
	/* the copy keeps the owner's kernel_details: its category falls back
	 * on the owner's first kernel, not on the one it wraps (a graph
	 * launch's rows all get the launch's) */
	add_row(u, owner, (*next_uid)++, ps.buf,
		perf_ops_categorize(tp->db, ps.buf, first_kernel(tp, owner)), &kk, 1, 0);
}

/*
 * GPU events no row covers (TP:1928-1985): first those without a cpu_op
 * above, grouped by their launch call in order of first appearance, then
 * those under a cpu_op, in uid order; each gets a synthetic row and a new
 * UID from max(uid) + 1 in that order.
 */
static void add_orphans(struct uctx *u)
{
	struct perf_tree *tp = u->tp;
	size_t n = tp->ns->n, i, salloc = 0, nparent = 0;
	uint8_t *covered = xcalloc(n + 1, 1);
	uint32_t next_uid = (uint32_t)n, *parents = xmalloc(st_mult(n + 1, sizeof(*parents)));
	int32_t *first_of = xmalloc(st_mult(n + 1, sizeof(*first_of)));
	int32_t *next_of = xmalloc(st_mult(n + 1, sizeof(*next_of)));
	int32_t *last_of = xmalloc(st_mult(n + 1, sizeof(*last_of)));

	for (i = 0; i < tp->nuni; i++)
		for (uint32_t j = 0; j < tp->uni[i].ngpu; j++)
			covered[tp->uni[i].gpu[j]] = 1;
	for (i = 0; i < n; i++)
		first_of[i] = last_of[i] = next_of[i] = -1;
	for (i = 0; i < n; i++) {
		const struct node *k = N(tp, (uint32_t)i);
		int32_t p;
		if (!linked_gpu(k) || covered[i] || is_comm(tp, (uint32_t)i) ||
		    perf_tree_cpu_op_above(tp, (uint32_t)i) >= 0)
			continue;
		p = k->parent;
		if (first_of[p] < 0) {
			parents[nparent++] = (uint32_t)p;
			first_of[p] = (int32_t)i;
		} else {
			next_of[last_of[p]] = (int32_t)i;
		}
		last_of[p] = (int32_t)i;
	}
	for (size_t j = 0; j < nparent; j++)
		for (int32_t k = first_of[parents[j]]; k >= 0; k = next_of[k])
			add_synthetic(u, parents[j], (uint32_t)k, &next_uid, &salloc);
	for (i = 0; i < n; i++) {
		const struct node *k = N(tp, (uint32_t)i);
		int32_t owner;
		if (!linked_gpu(k) || covered[i] || is_comm(tp, (uint32_t)i) ||
		    (owner = perf_tree_cpu_op_above(tp, (uint32_t)i)) < 0)
			continue;
		add_synthetic(u, (uint32_t)owner, (uint32_t)i, &next_uid, &salloc);
	}
	free(covered);
	free(parents);
	free(first_of);
	free(next_of);
	free(last_of);
}

void perf_tree_unified(struct perf_tree *tp)
{
	struct uctx u = { .tp = tp };
	uint32_t *roots = xmalloc(st_mult(tp->ns->n + 1, sizeof(*roots))), nr = 0, *stack = NULL;
	size_t salloc = 0;

	u.visited = xcalloc(tp->ns->n + 1, 1);
	u.model_below = xcalloc(tp->ns->n + 1, 1);
	mark_model_below(&u);
	/* with python frames, parentless frames with GPU work first, in uid
	 * order, then the cpu_op roots not reached from them (TP:1912-1925) */
	if (tp->python)
		for (uint32_t i = 0; i < tp->ns->n; i++)
			if (N(tp, i)->cat == NC_PYTHON && N(tp, i)->parent < 0 && gpu_n(tp, i))
				traverse(&u, i, &stack, &salloc);
	for (uint32_t i = 0; i < tp->ns->n; i++)
		if (N(tp, i)->flags & NF_ROOT)
			roots[nr++] = i;
	sort_tp = tp;
	tl_qsort(roots, nr, sizeof(*roots), cmp_root);
	for (uint32_t i = 0; i < nr; i++)
		traverse(&u, roots[i], &stack, &salloc);
	add_orphans(&u);
	free(u.cs);
	named_index_free(u.ix);
	free(stack);
	free(roots);
	free(u.visited);
	free(u.model_below);
}
