#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_stat.h"
#include "py_repr.h"
#include "perf_model.h"
#include "perf_tree.h"
#include "xalloc.h"
#include "banned.h"

static const struct node *N(const struct perf_tree *tp, uint32_t uid)
{
	return &tp->ns->node[uid];
}

static const char *name_of(const struct perf_tree *tp, uint32_t uid)
{
	return tree_nodes_str(tp->ns, N(tp, uid)->name);
}

int perf_tree_is_comm(const char *name)
{
	return strcasestr(name, "nccl") || strcasestr(name, "rccl") ||
	       strcasestr(name, "cross_device_reduce");
}

/* Linked GPU event: TraceLens set its parent to the launching runtime event. */
static int linked_gpu(const struct node *n)
{
	return node_is_gpu(n) && n->parent >= 0;
}

static const struct perf_tree *sort_tp;

/* gpu_events order (spec core §2.4): runtime uid, then GPU file order */
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
	qsort(g, ng, sizeof(*g), cmp_by_parent);
	for (i = 0; i < ng; i++)
		for (int32_t a = ns->node[g[i]].parent; a >= 0; a = ns->node[a].parent)
			tp->ge_off[a + 1]++;
	for (i = 0; i < ns->n; i++)
		tp->ge_off[i + 1] += tp->ge_off[i];
	tp->ge = xmalloc(st_mult(tp->ge_off[ns->n] + 1, sizeof(*tp->ge)));
	cur = xmalloc(st_mult(ns->n + 1, sizeof(*cur)));
	memcpy(cur, tp->ge_off, ns->n * sizeof(*cur));
	for (i = 0; i < ng; i++)
		for (int32_t a = ns->node[g[i]].parent; a >= 0; a = ns->node[a].parent)
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

static void build_children(struct perf_tree *tp)
{
	const struct tree_nodes *ns = tp->ns;
	size_t i, nc = 0;

	tp->ch_off = xcalloc(ns->n + 1, sizeof(*tp->ch_off));
	tp->ch = xmalloc(st_mult(ns->n + 1, sizeof(*tp->ch)));
	for (i = 0; i < ns->n; i++)
		if (ns->node[i].parent >= 0) {
			tp->ch[nc++] = (uint32_t)i;
			tp->ch_off[ns->node[i].parent + 1]++;
		}
	for (i = 0; i < ns->n; i++)
		tp->ch_off[i + 1] += tp->ch_off[i];
	sort_tp = tp;
	qsort(tp->ch, nc, sizeof(*tp->ch), cmp_child);
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
		iv[i].end = N(tp, uids[i])->t_end;
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
	qsort(L->kern, L->nkern, sizeof(*L->kern), cmp_kern_ts);
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
		if (!node_is_gpu(k) || k->parent < 0 || perf_tree_is_comm(tree_nodes_str(ns, k->name)))
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
	/* a trace whose only kernels are collectives has no launcher: NULL */
	if (tp->nlaunch)
		qsort(tp->launch, tp->nlaunch, sizeof(*tp->launch), cmp_launch_ts);
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
		if (n->t_end > hi)
			hi = n->t_end;
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
	for (size_t i = 0; i < ns->n; i++)
		if (ns->node[i].cat == NC_CPU_OP)
			tp->gpu_only = 0;
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

	perf_model_compute(e, &a, NULL, 0, 0, &r);
	ok = r.status != PM_NOMODEL;
	pm_result_release(&r);
	return ok;
}

int perf_tree_has_perf_model(const struct perf_tree *tp, uint32_t uid)
{
	const struct perf_ops_entry *e = perf_ops_lookup(tp->db, name_of(tp, uid));

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

struct uctx {
	struct perf_tree *tp;
	uint8_t *visited, *model_below;
	size_t alloc;
	uint32_t *cs;		/* python mode: the running call stack */
	uint32_t ncs;
	size_t acs;
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
	memcpy(r->gpu, gpu, ngpu * sizeof(*gpu));
	r->kernel_us = perf_tree_busy(tp, gpu, ngpu);
	r->has_perf_model = has_model;
	r->cs = NULL;
	r->ncs = 0;
	r->has_cs = 0;
	if (tp->python && row_uid == uid) {
		r->has_cs = 1;
		r->ncs = u->ncs;
		r->cs = xmalloc(st_mult(u->ncs + 1, sizeof(*r->cs)));
		memcpy(r->cs, u->cs, u->ncs * sizeof(*r->cs));
	}
}

static void collect(struct uctx *u, uint32_t e, const char *cat, int has_model)
{
	uint32_t n;
	const uint32_t *g = perf_tree_gpu_events(u->tp, e, &n);
	add_row(u, e, e, name_of(u->tp, e), cat, g, n, has_model);
}

/* is_leaf_cpu_op: a GPU child reachable through cuda_runtime/python frames only */
static int reaches_gpu(const struct perf_tree *tp, uint32_t e, int depth)
{
	if (depth > 10)
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
		if (perf_tree_is_comm(name_of(tp, g[i])))
			return 1;
	return 0;
}

/* cpu_op descendants (through cpu_ops only) launching GPU work, named x (any if NULL) */
static int count_named(const struct perf_tree *tp, uint32_t w, const char *x)
{
	int c = 0;
	for (uint32_t i = tp->ch_off[w]; i < tp->ch_off[w + 1]; i++) {
		uint32_t k = tp->ch[i];
		if (N(tp, k)->cat != NC_CPU_OP)
			continue;
		if (gpu_n(tp, k) && (!x || !strcmp(name_of(tp, k), x)))
			c++;
		c += count_named(tp, k, x);
	}
	return c;
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

	perf_model_compute(e, &a, NULL, 0, 1, &r);
	ok = r.status == PM_OK || r.status == PM_NOMODEL;
	pm_result_release(&r);
	return ok;
}

/* is_sole_bwd_with_fwd_perf_model: the fwd model's bwd category, or NULL */
static const char *sole_bwd_category(const struct perf_tree *tp, uint32_t e)
{
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
	fe = perf_ops_lookup(tp->db, name_of(tp, (uint32_t)N(tp, w)->fwd));
	if (!fe || !strcmp(fe->kind, "none") || !strcmp(fe->bwd_category, "-") ||
	    !bwd_metrics_ok(tp, (uint32_t)N(tp, w)->fwd, fe))
		return NULL;
	colon = strstr(name_of(tp, (uint32_t)w), ": ");
	if (count_named(tp, (uint32_t)w, colon ? colon + 2 : NULL) != 1)
		return NULL;
	return fe->bwd_category;
}

static void traverse(struct uctx *u, uint32_t e);

static void traverse_children(struct uctx *u, uint32_t e)
{
	for (uint32_t i = u->tp->ch_off[e]; i < u->tp->ch_off[e + 1]; i++)
		traverse(u, u->tp->ch[i]);
}

/* collect_unified_perf_events' traverse() (TP:1826-1910), without the call
 * stack: which of e or its descendants become rows */
static void traverse_node(struct uctx *u, uint32_t e)
{
	struct perf_tree *tp = u->tp;
	const char *bwd;

	if (!tp->python && N(tp, e)->cat != NC_CPU_OP)
		return;
	if (!gpu_n(tp, e))
		return;
	if (perf_tree_has_perf_model(tp, e)) {
		collect(u, e, perf_tree_category(tp, e), 1);
		return;
	}
	if ((bwd = sole_bwd_category(tp, e))) {
		if (u->model_below[e])
			traverse_children(u, e);
		else
			collect(u, e, bwd, 1);
		return;
	}
	if (u->model_below[e]) {
		traverse_children(u, e);
		return;
	}
	if (N(tp, e)->cat == NC_CPU_OP && reaches_gpu(tp, e, 0)) {
		if (!is_nccl_event(tp, e))
			collect(u, e, perf_tree_category(tp, e), 0);
		return;
	}
	traverse_children(u, e);
}

static void traverse(struct uctx *u, uint32_t e)
{
	struct perf_tree *tp = u->tp;
	struct pystr t = {0};
	int pushed = 0;

	if (u->visited[e])
		return;
	u->visited[e] = 1;
	/* the running call stack: this node's name when TraceLens keeps it */
	if (tp->python && perf_tree_cs_name(tp, e, &t)) {
		xgrow((void **)&u->cs, &u->acs, u->ncs + 1, sizeof(*u->cs));
		u->cs[u->ncs++] = e;
		pushed = 1;
	}
	pystr_release(&t);
	traverse_node(u, e);
	if (pushed)
		u->ncs--;
}

/* model_below[a]: some cpu_op strictly below a has a perf model and GPU work */
static void mark_model_below(struct uctx *u)
{
	const struct perf_tree *tp = u->tp;
	for (uint32_t i = 0; i < tp->ns->n; i++) {
		if (N(tp, i)->cat != NC_CPU_OP || !gpu_n(tp, i) || !perf_tree_has_perf_model(tp, i))
			continue;
		for (int32_t a = N(tp, i)->parent; a >= 0 && !u->model_below[a]; a = N(tp, a)->parent)
			u->model_below[a] = 1;
	}
}

static int cmp_root_ts(const void *a, const void *b)
{
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
	const struct perf_ops_entry *e = perf_ops_lookup(tp->db, name_of(tp, uid));
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
		if (!linked_gpu(k) || covered[i] || perf_tree_is_comm(name_of(tp, (uint32_t)i)) ||
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
		if (!linked_gpu(k) || covered[i] || perf_tree_is_comm(name_of(tp, (uint32_t)i)) ||
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
	uint32_t *roots = xmalloc(st_mult(tp->ns->n + 1, sizeof(*roots))), nr = 0;

	u.visited = xcalloc(tp->ns->n + 1, 1);
	u.model_below = xcalloc(tp->ns->n + 1, 1);
	mark_model_below(&u);
	/* with python frames, parentless frames with GPU work first, in uid
	 * order, then the cpu_op roots not reached from them (TP:1912-1925) */
	if (tp->python)
		for (uint32_t i = 0; i < tp->ns->n; i++)
			if (N(tp, i)->cat == NC_PYTHON && N(tp, i)->parent < 0 && gpu_n(tp, i))
				traverse(&u, i);
	for (uint32_t i = 0; i < tp->ns->n; i++)
		if (N(tp, i)->flags & NF_ROOT)
			roots[nr++] = i;
	sort_tp = tp;
	qsort(roots, nr, sizeof(*roots), cmp_root_ts);
	for (uint32_t i = 0; i < nr; i++)
		traverse(&u, roots[i]);
	add_orphans(&u);
	free(u.cs);
	free(roots);
	free(u.visited);
	free(u.model_below);
}
