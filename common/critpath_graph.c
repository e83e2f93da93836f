#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "critpath_graph.h"
#include "err.h"
#include "idle_queue.h"
#include "idle_trace.h"
#include "np_stat.h"
#include "xalloc.h"
#include "banned.h"

#define NONE UINT32_MAX
#define KERNEL_KERNEL_DELAY_THRESHOLD_US 1500

const char *critpath_etype_name(enum critpath_etype t)
{
	static const char *const names[] = {
		"critical_path_operator", "critical_path_dependency",
		"critical_path_kernel_launch_delay", "critical_path_kernel_kernel_delay",
		"critical_path_sync_dependency",
	};
	return names[t];
}

static uint64_t ikey(int64_t v)
{
	return (uint64_t)v ^ 0x8000000000000000ULL;
}

/* A map int64 → int64 on top of hmap (which holds 32-bit values). */
struct imap {
	struct hmap h;
	int64_t *val;
	size_t n, alloc;
};

static void imap_put(struct imap *m, int64_t k, int64_t v)
{
	uint32_t i;
	if (hmap_get(&m->h, ikey(k), &i)) {
		m->val[i] = v;
		return;
	}
	xgrow((void **)&m->val, &m->alloc, m->n + 1, sizeof(*m->val));
	m->val[m->n] = v;
	hmap_put(&m->h, ikey(k), (uint32_t)m->n++);
}

static int imap_get(const struct imap *m, int64_t k, int64_t *v)
{
	uint32_t i;
	if (!hmap_get(&m->h, ikey(k), &i))
		return 0;
	*v = m->val[i];
	return 1;
}

static void imap_release(struct imap *m)
{
	hmap_release(&m->h);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

static const struct idle_ev *ev_at(const struct critpath *g, size_t row)
{
	return &g->t->ev[row];
}

size_t critpath_clip_row(const struct critpath *g, int64_t ev)
{
	uint32_t r;
	return hmap_get(&g->clip_row, ikey(ev), &r) ? g->clip[r] : SIZE_MAX;
}

static uint32_t node_of(const struct hmap *m, int64_t ev)
{
	uint32_t n;
	return hmap_get(m, ikey(ev), &n) ? n : NONE;
}

static int name_is(const struct critpath *g, uint32_t name, const char *s)
{
	return idle_len(g->set, name) == strlen(s) && !memcmp(idle_str(g->set, name), s, strlen(s));
}

/* ------------------------------------------------------------------ */
/* the window and the clipped frame */

static int window(struct critpath *g, const char *ann, long first, long last)
{
	const struct idle_trace *t = g->t;
	size_t k = 0, found = 0;
	double lo = INFINITY, hi = -INFINITY;

	if (!*ann) {		/* the whole trace; HTA's end column is not aligned */
		for (size_t i = 0; i < t->n; i++) {
			double end = (t->ev[i].ts + g->set->min_ts) + t->ev[i].dur;
			if (t->ev[i].ts < lo)
				lo = t->ev[i].ts;
			if (end > hi)
				hi = end;
		}
		g->start_ts = lo;
		g->end_ts = hi;
		return 0;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (!memmem(idle_str(g->set, e->name), idle_len(g->set, e->name), ann, strlen(ann)))
			continue;
		found = 1;
		if ((long)k >= first && (long)k <= last) {
			if (e->ts < lo)
				lo = e->ts;
			if (e->ts + e->dur > hi)
				hi = e->ts + e->dur;
		}
		k++;
	}
	if (!found) {
		tl_warn("%s: rank %ld: no event named like '%s'", t->source, t->rank, ann);
		return -1;
	}
	if ((long)k <= first) {
		tl_warn("%s: rank %ld: no instance %ld of '%s' (instances 0 to %zu)",
			t->source, t->rank, first, ann, k - 1);
		return -1;
	}
	g->start_ts = lo;
	g->end_ts = hi;
	return 0;
}

struct urow {
	int64_t index;
	size_t row;
};

static int by_urow(const void *a, const void *b)
{
	const struct urow *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* trace_df.loc[a.index.union(b.index)]: sorted labels, every row of each */
static void clip(struct critpath *g)
{
	const struct idle_trace *t = g->t;
	struct hmap chosen = HMAP_INIT;
	struct imap ok_runtime = { 0 };	/* kernel index → 1 if a launch call is in the window */
	uint32_t swe = idle_symbol(g->set, "Stream Wait Event"), one;
	struct urow *u = xmalloc(st_mult(t->n + 1, sizeof(*u)));
	size_t nu = 0;
	int64_t v;

	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (e->stream != -1)
			continue;
		int in = e->ts >= g->start_ts && e->ts <= g->end_ts && e->dur > 0;
		if (in)
			hmap_put(&chosen, ikey(e->index), 1);
		/* the join of GPU rows with the CPU rows pointing at them */
		if (in)
			imap_put(&ok_runtime, e->icorr, 1);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (e->stream == -1)
			continue;
		if (imap_get(&ok_runtime, e->index, &v) || (swe != NONE && e->name == swe))
			hmap_put(&chosen, ikey(e->index), 1);
	}
	for (size_t i = 0; i < t->n; i++)
		if (hmap_get(&chosen, ikey(t->ev[i].index), &one)) {
			u[nu].index = t->ev[i].index;
			u[nu++].row = i;
		}
	qsort(u, nu, sizeof(*u), by_urow);
	g->clip = xmalloc(st_mult(nu + 1, sizeof(size_t)));
	for (size_t i = 0; i < nu; i++) {
		uint32_t r;
		g->clip[i] = u[i].row;
		if (!hmap_get(&g->clip_row, ikey(u[i].index), &r))
			hmap_put(&g->clip_row, ikey(u[i].index), (uint32_t)i);
	}
	g->nclip = nu;
	free(u);
	hmap_release(&chosen);
	imap_release(&ok_runtime);
}

/* ------------------------------------------------------------------ */
/* nodes and edges */

struct ntmp {
	double ts;
	int64_t ev;
	size_t order;		/* position in the concatenation: starts, then ends */
	unsigned char is_start, is_blocking;
};

static int by_ts_ev(const void *a, const void *b)
{
	const struct ntmp *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);	/* stable */
}

static int is_blocking(const struct critpath *g, uint32_t name)
{
	static const char *const calls[] = {
		"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
		"cudaEventSynchronize", "cudaMemcpy", "cudaMemcpyAsync",
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (name_is(g, name, calls[i]))
			return 1;
	return 0;
}

static void create_nodes(struct critpath *g)
{
	uint32_t cpu_op = idle_symbol(g->set, "cpu_op");
	uint32_t rt = idle_symbol(g->set, "cuda_runtime"), drv = idle_symbol(g->set, "cuda_driver");
	struct ntmp *n = xmalloc(st_mult(2 * g->nclip + 1, sizeof(*n)));
	size_t ne = 0, nn;

	for (size_t i = 0; i < g->nclip; i++) {
		const struct idle_ev *e = ev_at(g, g->clip[i]);
		int ev = (cpu_op != NONE && e->cat == cpu_op) || (rt != NONE && e->cat == rt) ||
			 (drv != NONE && e->cat == drv) || (e->stream != -1 && e->icorr >= 0) ||
			 critpath_data_load(g, idle_str(g->set, e->name), idle_len(g->set, e->name));
		if (!ev)
			continue;
		n[ne] = (struct ntmp){ e->ts, e->index, ne, 1, (unsigned char)is_blocking(g, e->name) };
		ne++;
	}
	for (size_t i = 0; i < ne; i++) {
		size_t r = critpath_clip_row(g, n[i].ev);
		const struct idle_ev *e = ev_at(g, r);
		n[ne + i] = n[i];
		n[ne + i].ts = n[i].ts + e->dur;
		n[ne + i].order = ne + i;
		n[ne + i].is_start = 0;
	}
	nn = 2 * ne;
	qsort(n, nn, sizeof(*n), by_ts_ev);
	g->node = xcalloc(nn + 1, sizeof(*g->node));
	g->nnode = nn;
	for (size_t i = 0; i < nn; i++) {
		struct critpath_node *x = &g->node[i];
		x->ev = n[i].ev;
		x->ts = n[i].ts;
		x->is_start = n[i].is_start;
		x->is_blocking = n[i].is_blocking;
		x->gpos = x->succ = x->pred = x->succ_last = x->pred_last = NONE;
		/* dict(zip(ev_idx, idx)): the last node of an event wins */
		hmap_put(n[i].is_start ? &g->start_of : &g->end_of, ikey(x->ev), (uint32_t)i);
	}
	free(n);
}

static void gnode(struct critpath *g, uint32_t id)
{
	if (g->node[id].gpos != NONE)
		return;
	g->node[id].gpos = (uint32_t)g->ngorder;
	g->gorder = xrealloc(g->gorder, st_mult(g->ngorder + 1, sizeof(uint32_t)));
	g->gorder[g->ngorder++] = id;
}

/* _add_edge_helper: networkx's add_edge updates an existing edge in place */
static uint32_t add_edge(struct critpath *g, uint32_t u, uint32_t v, enum critpath_etype type,
			 int zero_weight)
{
	uint64_t k = ((uint64_t)u << 32 | v) + 1;
	uint32_t id;
	struct critpath_edge *e;
	double w = type == CP_DEPENDENCY || type == CP_SYNC_DEPENDENCY || zero_weight ? 0 :
		   g->node[v].ts - g->node[u].ts;

	if (u == v)
		return NONE;	/* HTA asserts; never seen */
	if (hmap_get(&g->edge_of, k, &id)) {
		e = &g->edge[id];
		e->type = type;
		e->weight = e->gweight = w;
		return id;
	}
	gnode(g, u);
	gnode(g, v);
	xgrow((void **)&g->edge, &g->edge_alloc, g->nedge + 1, sizeof(*g->edge));
	id = (uint32_t)g->nedge++;
	e = &g->edge[id];
	memset(e, 0, sizeof(*e));
	e->u = u;
	e->v = v;
	e->type = type;
	e->weight = e->gweight = w;
	e->next_succ = e->next_pred = NONE;
	if (g->node[u].succ == NONE)
		g->node[u].succ = id;
	else
		g->edge[g->node[u].succ_last].next_succ = id;
	g->node[u].succ_last = id;
	if (g->node[v].pred == NONE)
		g->node[v].pred = id;
	else
		g->edge[g->node[v].pred_last].next_pred = id;
	g->node[v].pred_last = id;
	hmap_put(&g->edge_of, k, id);
	return id;
}

/* _attribute_edge: which event an operator span or a gap belongs to */
static void attribute(struct critpath *g, uint32_t id, int64_t src_parent)
{
	struct critpath_edge *e;
	const struct critpath_node *src, *dst;

	if (id == NONE)
		return;
	e = &g->edge[id];
	if (e->type != CP_OPERATOR_KERNEL && e->type != CP_KERNEL_KERNEL_DELAY)
		return;
	src = &g->node[e->u];
	dst = &g->node[e->v];
	e->has_attr = 1;
	if (e->type == CP_KERNEL_KERNEL_DELAY || src->is_start)
		e->attr = src->ev;
	else if (!dst->is_start)
		e->attr = dst->ev;
	else
		e->attr = src_parent;
}

/* ------------------------------------------------------------------ */
/* 1. the CUDA runtime lock */

static int runtime_locked(const struct critpath *g, uint32_t node)
{
	size_t r = critpath_clip_row(g, g->node[node].ev);
	uint32_t name = ev_at(g, r)->name;
	return name_is(g, name, "cudaHostAlloc") || name_is(g, name, "cudaLaunchKernel") ||
	       name_is(g, name, "cudaMemcpyAsync");
}

static void runtime_lock(struct critpath *g)
{
	uint32_t *starts = xmalloc(st_mult(g->nnode + 1, sizeof(uint32_t)));
	size_t ns = 0;
	uint32_t last = NONE;

	for (uint32_t i = 0; i < g->nnode; i++) {
		const struct critpath_node *x = &g->node[i];
		if (!runtime_locked(g, i))
			continue;
		if (x->is_start) {
			starts[ns++] = i;
		} else {
			while (ns) {
				uint32_t p = starts[--ns];
				if (g->node[p].ev == x->ev)
					attribute(g, add_edge(g, p, i, CP_OPERATOR_KERNEL, 0), x->ev);
				else
					add_edge(g, p, i, CP_DEPENDENCY, 0);
			}
			if (last != NONE && !g->node[last].is_start)
				add_edge(g, last, i, CP_DEPENDENCY, 0);
		}
		last = i;
	}
	free(starts);
}

/* ------------------------------------------------------------------ */
/* 2. CPU call stacks (HTA's CallStackGraph and its depth-first walk) */

struct csev {
	double time, dur;
	int64_t idx;
	int start;
};

/* compare_events for durations > 0: time; ends first; starts longest
 * first then lower index; ends shortest first then higher index */
static int by_csev(const void *a, const void *b)
{
	const struct csev *x = a, *y = b;
	if (x->idx == y->idx && x->start != y->start)
		return x->start ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->start != y->start)
		return x->start ? 1 : -1;
	if (x->start) {
		if (x->dur != y->dur)
			return x->dur > y->dur ? -1 : 1;
		return (x->idx > y->idx) - (x->idx < y->idx);
	}
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return (x->idx < y->idx) - (x->idx > y->idx);
}

struct csnode {
	int64_t idx, parent;
	uint32_t *kids;
	size_t nkids, alloc;
};

struct walk {
	uint32_t last;
	int64_t last_parent;
	int depth;
};

static int shares_lock(const struct critpath *g, uint32_t a, uint32_t b)
{
	return runtime_locked(g, a) && runtime_locked(g, b) &&
	       (g->node[a].is_start || !g->node[b].is_start);
}

static void cs_enter(struct critpath *g, struct walk *w, int64_t ev, int64_t parent)
{
	uint32_t s = node_of(&g->start_of, ev), e = node_of(&g->end_of, ev);

	if (s == NONE || e == NONE)
		return;
	if (w->last != NONE && !shares_lock(g, w->last, s))
		attribute(g, add_edge(g, w->last, s, w->depth == 0 ? CP_DEPENDENCY :
				      CP_OPERATOR_KERNEL, 0), w->last_parent);
	w->last = s;
	w->last_parent = parent;
	w->depth++;
}

static void cs_exit(struct critpath *g, struct walk *w, int64_t ev, int64_t parent)
{
	uint32_t s = node_of(&g->start_of, ev), e = node_of(&g->end_of, ev);

	if (s == NONE || e == NONE)
		return;
	if (w->last != NONE && !shares_lock(g, w->last, e))
		attribute(g, add_edge(g, w->last, e, CP_OPERATOR_KERNEL, g->node[s].is_blocking),
			  w->last_parent);
	w->last = e;
	w->last_parent = parent;
	w->depth--;
}

/* One thread: its stack from the sorted start/end events, then the walk. */
static void call_stack(struct critpath *g, const size_t *rows, size_t n)
{
	struct csev *ev = xmalloc(st_mult(2 * n + 1, sizeof(*ev)));
	struct csnode *cn = xcalloc(n + 1, sizeof(*cn));	/* cn[0] is the root */
	struct hmap local = HMAP_INIT;
	uint32_t *stack = xmalloc(st_mult(n + 1, sizeof(uint32_t)));
	size_t *cursor = xmalloc(st_mult(n + 2, sizeof(size_t)));
	size_t nev = 0, ncn = 1, top = 0;
	struct walk w = { NONE, -1, 0 };

	for (size_t i = 0; i < n; i++) {
		const struct idle_ev *e = ev_at(g, rows[i]);
		double dur = e->dur > 0 ? e->dur : 0;	/* np.maximum(dur, 0) */
		ev[nev++] = (struct csev){ e->ts, dur, e->index, 1 };
		ev[nev++] = (struct csev){ e->ts + dur, dur, e->index, 0 };
	}
	qsort(ev, nev, sizeof(*ev), by_csev);
	cn[0].idx = -1;
	cn[0].parent = -1;
	for (size_t i = 0; i < nev; i++) {
		uint32_t c, p;
		if (!ev[i].start) {
			if (top)
				top--;
			continue;
		}
		p = top ? stack[top - 1] : 0;
		if (!hmap_get(&local, ikey(ev[i].idx), &c)) {	/* a node is added once */
			c = (uint32_t)ncn++;
			cn[c].idx = ev[i].idx;
			cn[c].parent = cn[p].idx;
			hmap_put(&local, ikey(ev[i].idx), c);
			xgrow((void **)&cn[p].kids, &cn[p].alloc, cn[p].nkids + 1, sizeof(uint32_t));
			cn[p].kids[cn[p].nkids++] = c;
		}
		stack[top++] = c;
	}
	/* depth-first, iteratively: enter on the way down, exit on the way up */
	top = 0;
	stack[top] = 0;
	cursor[top++] = 0;
	while (top) {
		uint32_t c = stack[top - 1];
		if (cursor[top - 1] == 0 && c != 0)
			cs_enter(g, &w, cn[c].idx, cn[c].parent);
		if (cursor[top - 1] < cn[c].nkids) {
			uint32_t k = cn[c].kids[cursor[top - 1]++];
			stack[top] = k;
			cursor[top++] = 0;
			continue;
		}
		if (c != 0)
			cs_exit(g, &w, cn[c].idx, cn[c].parent);
		top--;
	}
	for (size_t i = 0; i < ncn; i++)
		free(cn[i].kids);
	free(cn);
	free(ev);
	free(stack);
	free(cursor);
	hmap_release(&local);
}

/* The one thread (tid) running events named like word, or NONE. */
static uint32_t tid_of(const struct critpath *g, const char *word)
{
	uint32_t cpu_op = idle_symbol(g->set, "cpu_op"), ua = idle_symbol(g->set, "user_annotation");
	uint32_t tid = NONE;

	for (size_t i = 0; i < g->nclip; i++) {
		const struct idle_ev *e = ev_at(g, g->clip[i]);
		if ((cpu_op == NONE || e->cat != cpu_op) && (ua == NONE || e->cat != ua))
			continue;
		if (!memmem(idle_str(g->set, e->name), idle_len(g->set, e->name), word, strlen(word)))
			continue;
		if (tid != NONE && tid != e->tid)
			return NONE;
		tid = e->tid;
	}
	return tid;
}

/* pid and tid are ordered as pandas sorts its groups: as numbers */
static int cmp_id_text(const struct idle_set *set, uint32_t a, uint32_t b)
{
	const char *sa = idle_str(set, a), *sb = idle_str(set, b);
	char *ea, *eb;
	double x = strtod(sa, &ea), y = strtod(sb, &eb);

	if (a == b)
		return 0;
	if (ea != sa && !*ea && eb != sb && !*eb && x != y)
		return x < y ? -1 : 1;
	return strcmp(sa, sb);
}

struct thread_row {
	uint32_t pid, tid;
	size_t pos;		/* position in clip */
};

static const struct idle_set *cmp_set;

static int by_thread(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	int c = cmp_id_text(cmp_set, x->pid, y->pid);
	if (!c)
		c = cmp_id_text(cmp_set, x->tid, y->tid);
	if (!c)
		c = (x->pos > y->pos) - (x->pos < y->pos);
	return c;
}

static void call_stacks(struct critpath *g)
{
	uint32_t fwd = tid_of(g, "forward"), bwd = tid_of(g, "autograd");
	struct thread_row *tr = xmalloc(st_mult(g->nclip + 1, sizeof(*tr)));
	size_t *rows = xmalloc(st_mult(g->nclip + 1, sizeof(size_t)));

	for (size_t i = 0; i < g->nclip; i++) {
		const struct idle_ev *e = ev_at(g, g->clip[i]);
		tr[i].pid = e->pid;
		/* the backward thread is merged into the forward one */
		tr[i].tid = fwd != NONE && bwd != NONE && e->tid == bwd ? fwd : e->tid;
		tr[i].pos = i;
	}
	cmp_set = g->set;
	qsort(tr, g->nclip, sizeof(*tr), by_thread);
	for (size_t i = 0, j; i < g->nclip; i = j) {
		int gpu = 0, cpu = 1;
		size_t n = 0;
		for (j = i; j < g->nclip && tr[j].pid == tr[i].pid && tr[j].tid == tr[i].tid; j++) {
			int64_t s = ev_at(g, g->clip[tr[j].pos])->stream;
			gpu |= s > 0;
			cpu &= s < 0;
		}
		if (gpu || !cpu)	/* GPU streams, or HTA's DeviceType.UNKNOWN */
			continue;
		for (size_t k = i; k < j; k++)
			rows[n++] = g->clip[tr[k].pos];
		call_stack(g, rows, n);
	}
	free(tr);
	free(rows);
}

/* ------------------------------------------------------------------ */
/* 3. kernels, launches and syncs */

static const char *const launch_names[] = {
	"cudaMemsetAsync", "cudaMemcpyAsync", "cudaLaunchKernel", "cudaLaunchKernelExC",
	"cuLaunchKernel", "runFunction - job_prep_and_submit_for_execution",
	"hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
	"hipMemcpyWithStream", "cuLaunchKernelEx",
};

/* _get_cuda_runtime_calls_df: launch calls by start (numpy quicksort), each
 * with the kernel its index_correlation names; launch_id = position */
struct launch {
	size_t row;		/* the launch call's row */
	int64_t stream;		/* the kernel's */
	uint32_t gpu;		/* the kernel's pid */
};

static size_t runtime_calls(const struct critpath *g, struct launch **out)
{
	const struct idle_trace *t = g->t;
	uint32_t ids[sizeof(launch_names) / sizeof(launch_names[0])];
	size_t nids = 0, n = 0, nl = 0;
	size_t *rows = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	size_t *ord = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	double *ts = xmalloc(st_mult(t->n + 1, sizeof(double)));
	struct imap kernel = { 0 };	/* kernel index → its row */
	struct launch *l;
	int64_t k;

	for (size_t i = 0; i < sizeof(launch_names) / sizeof(launch_names[0]); i++) {
		uint32_t id = idle_symbol(g->set, launch_names[i]);
		if (id != NONE)
			ids[nids++] = id;
	}
	for (size_t i = t->n; i-- > 0; )
		if (t->ev[i].stream != -1 && t->ev[i].icorr > 0)
			imap_put(&kernel, t->ev[i].index, (int64_t)i);
	for (size_t i = 0; i < t->n; i++) {
		if (!(t->ev[i].icorr > 0))
			continue;
		for (size_t j = 0; j < nids; j++)
			if (t->ev[i].name == ids[j]) {
				ts[n] = t->ev[i].ts;
				rows[n++] = i;
				break;
			}
	}
	np_argsort_quick(ts, ord, n);
	l = xmalloc(st_mult(n + 1, sizeof(*l)));
	for (size_t i = 0; i < n; i++) {
		const struct idle_ev *e = &t->ev[rows[ord[i]]];
		if (!imap_get(&kernel, e->icorr, &k))
			continue;	/* the inner merge */
		l[nl].row = rows[ord[i]];
		l[nl].stream = t->ev[k].stream;
		l[nl++].gpu = t->ev[k].pid;
	}
	imap_release(&kernel);
	free(rows);
	free(ord);
	free(ts);
	*out = l;
	return nl;
}

static size_t full_row(const struct critpath *g, int64_t index)
{
	uint32_t r;
	return hmap_get(&g->full_row, ikey(index), &r) ? r : SIZE_MAX;
}

/* (gpu, stream) as one key: the pid's strpool id and the stream number */
static int64_t gs_key(uint32_t gpu, int64_t stream)
{
	return (int64_t)((uint64_t)gpu << 32 | (uint32_t)stream);
}

/*
 * _get_cuda_event_record_df: for each cudaEventRecord that a sync waits
 * on, the last launch (by launch_id) on the recorded (gpu, stream) at or
 * before it in start order.  Fills rec: record correlation → launch row's
 * index (-1 when none).  Returns 0 when HTA's frame would be None.
 */
static int event_records(const struct critpath *g, const struct launch *l, size_t nl,
			 struct imap *rec)
{
	const struct idle_trace *t = g->t;
	uint32_t er = idle_symbol(g->set, "cudaEventRecord");
	struct imap stream_of = { 0 }, gpu_of = { 0 }, best = { 0 };
	size_t nr = 0, n = 0, *rows, *ord;
	double *ts;
	struct { size_t row; int64_t stream; uint32_t gpu; } *r;
	int64_t v;

	if (er == NONE)
		return 0;
	/* the (stream, gpu) each recorded event is waited on, first seen */
	for (size_t i = 0; i < t->nwait; i++) {
		const struct idle_wait *w = &t->wait[i];
		size_t row = full_row(g, w->index);
		if (w->stream <= -1 || row == SIZE_MAX || imap_get(&stream_of, w->corr, &v))
			continue;
		imap_put(&stream_of, w->corr, w->stream);
		imap_put(&gpu_of, w->corr, (int64_t)t->ev[row].pid);
	}
	rows = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	ts = xmalloc(st_mult(t->n + nl + 1, sizeof(double)));
	ord = xmalloc(st_mult(t->n + nl + 1, sizeof(size_t)));
	r = xmalloc(st_mult(t->n + 1, sizeof(*r)));
	for (size_t i = 0; i < t->n; i++)
		if (t->ev[i].name == er) {
			ts[nr] = t->ev[i].ts;
			rows[nr++] = i;
		}
	np_argsort_quick(ts, ord, nr);
	for (size_t i = 0; i < nr; i++) {
		const struct idle_ev *e = &t->ev[rows[ord[i]]];
		if (!imap_get(&stream_of, e->corr, &v))
			continue;	/* dropna(subset=["event_stream"]) */
		r[n].row = rows[ord[i]];
		r[n].stream = v;
		imap_get(&gpu_of, e->corr, &v);
		r[n++].gpu = (uint32_t)v;
	}
	if (n) {
		/* pd.concat([runtime_calls, cuda_record_calls]).sort_values("ts"),
		 * then per (gpu, stream) the running max of launch_id */
		for (size_t i = 0; i < nl; i++)
			ts[i] = t->ev[l[i].row].ts;
		for (size_t i = 0; i < n; i++)
			ts[nl + i] = t->ev[r[i].row].ts;
		np_argsort_quick(ts, ord, nl + n);
		for (size_t k = 0; k < nl + n; k++) {
			size_t o = ord[k];
			if (o < nl) {
				imap_put(&best, gs_key(l[o].gpu, l[o].stream), (int64_t)o);
			} else {
				const struct idle_ev *e = &t->ev[r[o - nl].row];
				int64_t b = -1;
				imap_get(&best, gs_key(r[o - nl].gpu, r[o - nl].stream), &b);
				imap_put(rec, e->corr, b >= 0 ? t->ev[l[b].row].index : -1);
			}
		}
	}
	free(rows);
	free(ts);
	free(ord);
	free(r);
	imap_release(&stream_of);
	imap_release(&gpu_of);
	imap_release(&best);
	return n > 0;
}

/*
 * _get_cuda_stream_wait_event_df: for each cudaStreamWaitEvent (whose GPU
 * "Stream Wait Event" gives its stream), the next launch on the same
 * (pid, tid, stream) at or after it in start order.  Fills next: the
 * call's index → the launch call's index (-1 when none).
 */
static int stream_waits(const struct critpath *g, const struct launch *l, size_t nl,
			struct imap *next)
{
	const struct idle_trace *t = g->t;
	uint32_t swe = idle_symbol(g->set, "cudaStreamWaitEvent");
	struct imap kernel_stream = { 0 };
	size_t nw = 0, n = 0, *rows, *ord;
	double *ts;
	struct { size_t row; int64_t stream; int64_t launch; } *w;
	int64_t v;

	if (swe == NONE || idle_symbol(g->set, "Stream Wait Event") == NONE)
		return 0;
	for (size_t i = t->n; i-- > 0; )
		if (t->ev[i].stream != -1 && t->ev[i].icorr > 0)
			imap_put(&kernel_stream, t->ev[i].index, t->ev[i].stream);
	rows = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	ts = xmalloc(st_mult(t->n + nl + 1, sizeof(double)));
	ord = xmalloc(st_mult(t->n + nl + 1, sizeof(size_t)));
	w = xmalloc(st_mult(t->n + 1, sizeof(*w)));
	for (size_t i = 0; i < t->n; i++)
		if (t->ev[i].name == swe && t->ev[i].icorr > 0) {
			ts[nw] = t->ev[i].ts;
			rows[nw++] = i;
		}
	np_argsort_quick(ts, ord, nw);
	for (size_t i = 0; i < nw; i++) {
		if (!imap_get(&kernel_stream, t->ev[rows[ord[i]]].icorr, &v))
			continue;	/* the inner merge */
		w[n].row = rows[ord[i]];
		w[n].stream = v;
		w[n++].launch = -1;
	}
	for (size_t i = 0; i < nl; i++)
		ts[i] = t->ev[l[i].row].ts;
	for (size_t i = 0; i < n; i++)
		ts[nl + i] = t->ev[w[i].row].ts;
	np_argsort_quick(ts, ord, nl + n);
	/* backwards: the smallest launch_id from here on, per (pid, tid, stream) */
	{
		struct hmap seen = HMAP_INIT;
		int64_t *low = xmalloc(st_mult(nl + n + 1, sizeof(int64_t)));
		uint32_t slot;
		size_t nslots = 0;
		for (size_t k = nl + n; k-- > 0; ) {
			size_t o = ord[k];
			const struct idle_ev *e = &t->ev[o < nl ? l[o].row : w[o - nl].row];
			int64_t stream = o < nl ? l[o].stream : w[o - nl].stream;
			uint64_t key = (uint64_t)e->pid * 0x9E3779B97F4A7C15ULL ^
				       (uint64_t)e->tid * 0xC2B2AE3D27D4EB4FULL ^
				       (uint64_t)stream * 0x165667B19E3779F9ULL;
			key = key ? key : 1;
			if (!hmap_get(&seen, key, &slot)) {
				slot = (uint32_t)nslots++;
				low[slot] = INT64_MAX;
				hmap_put(&seen, key, slot);
			}
			if (o < nl) {
				if ((int64_t)o < low[slot])
					low[slot] = (int64_t)o;
			} else {
				w[o - nl].launch = low[slot] == INT64_MAX ? -1 : low[slot];
			}
		}
		hmap_release(&seen);
		free(low);
	}
	for (size_t i = 0; i < n; i++)
		imap_put(next, t->ev[w[i].row].index,
			 w[i].launch >= 0 ? t->ev[l[w[i].launch].row].index : -1);
	imap_release(&kernel_stream);
	free(rows);
	free(ts);
	free(ord);
	free(w);
	return 1;
}

/* One GPU row of _construct_graph_from_kernels, with its joined columns. */
struct krow {
	size_t row;
	double qlen_runtime, qlen;	/* NaN when the queue has no value */
	int64_t prev_launch;		/* index_previous_launch; -1 */
	double sort_by;
};

struct last_node {
	int64_t stream;
	uint32_t node;
};

struct kstate {
	struct last_node *last;	/* per stream, in order of first kernel */
	size_t nlast;
	struct imap sync;	/* kernel index → kernel to wait for */
	int have_records;
	struct imap next_launch;
};

static uint32_t *last_on(struct kstate *k, int64_t stream)
{
	for (size_t i = 0; i < k->nlast; i++)
		if (k->last[i].stream == stream)
			return &k->last[i].node;
	return NULL;
}

static void sync_edge(struct critpath *g, uint32_t gpu_node, int64_t runtime)
{
	uint32_t end = node_of(&g->end_of, runtime);
	if (end != NONE)
		add_edge(g, gpu_node, end, CP_SYNC_DEPENDENCY, 0);
}

static int64_t icorr_of(const struct critpath *g, int64_t index)
{
	size_t r = full_row(g, index);
	return r == SIZE_MAX ? -1 : g->t->ev[r].icorr;
}

static void handle_sync(struct critpath *g, struct kstate *k, const struct krow *kr)
{
	const struct idle_ev *e = ev_at(g, kr->row);

	if (name_is(g, e->name, "Stream Wait Event") || name_is(g, e->name, "Event Sync")) {
		int64_t src, dest_launch, dest;
		uint32_t end;
		if (!k->have_records || kr->prev_launch == -1)
			return;	/* _check_event_sync_helper */
		src = icorr_of(g, kr->prev_launch);
		if (name_is(g, e->name, "Stream Wait Event")) {
			if (!imap_get(&k->next_launch, e->icorr, &dest_launch) || dest_launch < 0)
				return;
			dest = icorr_of(g, dest_launch);
			imap_put(&k->sync, dest, src);
			return;
		}
		end = node_of(&g->end_of, src);
		if (end != NONE)
			sync_edge(g, end, e->icorr);
		return;
	}
	if (name_is(g, e->name, "Context Sync")) {
		for (size_t i = 0; i < k->nlast; i++)
			sync_edge(g, k->last[i].node, e->icorr);
	} else if (name_is(g, e->name, "Stream Sync")) {
		uint32_t *l = last_on(k, e->stream);
		if (l)
			sync_edge(g, *l, e->icorr);
	}
}

static void handle_kernel(struct critpath *g, struct kstate *k, const struct krow *kr)
{
	const struct idle_ev *e = ev_at(g, kr->row);
	uint32_t s = node_of(&g->start_of, e->index), en = node_of(&g->end_of, e->index);
	uint32_t *last, sync_end = NONE;
	int64_t sync_ix;
	int has_sync = 0;
	size_t rt_row;
	double rt_ts;

	if (s == NONE || en == NONE)
		return;
	attribute(g, add_edge(g, s, en, CP_OPERATOR_KERNEL, 0), -1);
	if (imap_get(&k->sync, e->index, &sync_ix) && sync_ix != INT64_MIN) {
		has_sync = 1;
		sync_end = node_of(&g->end_of, sync_ix);
		if (sync_end == NONE)
			has_sync = 0;
		else
			add_edge(g, sync_end, s, CP_SYNC_DEPENDENCY, 0);
		imap_put(&k->sync, e->index, INT64_MIN);	/* kernel_sync[eid] = None */
	}
	last = last_on(k, e->stream);
	rt_row = full_row(g, e->icorr);
	rt_ts = rt_row == SIZE_MAX ? NAN : g->t->ev[rt_row].ts;
	if (kr->qlen_runtime == 1 && kr->qlen == 0 && (!last || g->node[*last].ts < rt_ts) &&
	    (!has_sync || g->node[sync_end].ts < rt_ts)) {
		uint32_t rs = node_of(&g->start_of, e->icorr);
		if (rs != NONE)
			add_edge(g, rs, s, CP_KERNEL_LAUNCH_DELAY, 0);
		else
			tl_warn("%s: kernel %lld: its launch call %lld has no node",
				g->t->source, (long long)e->index, (long long)e->icorr);
	} else if (last && g->node[s].ts - g->node[*last].ts < KERNEL_KERNEL_DELAY_THRESHOLD_US &&
		   (!has_sync || g->node[sync_end].ts < g->node[*last].ts)) {
		attribute(g, add_edge(g, *last, s, CP_KERNEL_KERNEL_DELAY, 0), -1);
	}
	if (last) {
		*last = en;
	} else {
		k->last = xrealloc(k->last, st_mult(k->nlast + 1, sizeof(*k->last)));
		k->last[k->nlast].stream = e->stream;
		k->last[k->nlast++].node = en;
	}
}

static int kernels(struct critpath *g)
{
	const struct idle_trace *t = g->t;
	uint32_t sync_cat = idle_symbol(g->set, "cuda_sync");
	uint32_t es = idle_symbol(g->set, "Event Sync"), cs = idle_symbol(g->set, "Context Sync");
	struct kstate k;
	struct imap qlen = { 0 }, rec = { 0 };
	struct idle_qpoint *q;
	struct launch *l;
	struct krow *kr;
	size_t nq, nl, nk = 0, *ord;
	double *sort_by;
	int64_t v;

	memset(&k, 0, sizeof(k));
	q = idle_queue_series(g->set, t, &nq);
	if (!q) {
		tl_warn("%s: rank %ld: the critical path needs the queue length", t->source, t->rank);
		return -1;
	}
	for (size_t i = nq; i-- > 0; )
		imap_put(&qlen, q[i].index, q[i].qlen);
	free(q);
	nl = runtime_calls(g, &l);
	k.have_records = event_records(g, l, nl, &rec);
	stream_waits(g, l, nl, &k.next_launch);
	kr = xmalloc(st_mult(g->nclip + 1, sizeof(*kr)));
	sort_by = xmalloc(st_mult(g->nclip + 1, sizeof(double)));
	ord = xmalloc(st_mult(g->nclip + 1, sizeof(size_t)));
	for (size_t i = 0; i < g->nclip; i++) {
		const struct idle_ev *e = ev_at(g, g->clip[i]);
		const struct idle_wait *w;
		if (!((e->stream != -1 || (es != NONE && e->name == es) ||
		       (cs != NONE && e->name == cs)) && e->icorr >= 0))
			continue;
		kr[nk].row = g->clip[i];
		kr[nk].qlen_runtime = imap_get(&qlen, e->icorr, &v) ? (double)v : NAN;
		kr[nk].qlen = imap_get(&qlen, e->index, &v) ? (double)v : NAN;
		kr[nk].prev_launch = -1;
		if (k.have_records) {	/* the merge with cuda_record_calls, then fillna(-1) */
			w = idle_trace_wait(t, e->index);
			if (w && imap_get(&rec, w->corr, &v))
				kr[nk].prev_launch = v;
			if (kr[nk].qlen_runtime != kr[nk].qlen_runtime)
				kr[nk].qlen_runtime = -1;
			if (kr[nk].qlen != kr[nk].qlen)
				kr[nk].qlen = -1;
		}
		/* syncs by their end: a stream sync overlaps the memcpy it waits for */
		sort_by[nk] = sync_cat != NONE && e->cat == sync_cat ? e->ts + e->dur : e->ts;
		nk++;
	}
	np_argsort_quick(sort_by, ord, nk);
	for (size_t i = 0; i < nk; i++) {
		const struct krow *x = &kr[ord[i]];
		if (sync_cat != NONE && ev_at(g, x->row)->cat == sync_cat)
			handle_sync(g, &k, x);
		else
			handle_kernel(g, &k, x);
	}
	free(kr);
	free(sort_by);
	free(ord);
	free(l);
	free(k.last);
	imap_release(&k.sync);
	imap_release(&k.next_launch);
	imap_release(&qlen);
	imap_release(&rec);
	return 0;
}

/* ------------------------------------------------------------------ */

int critpath_data_load(const struct critpath *g, const char *name, size_t len)
{
	for (size_t i = 0; i < g->ndata_load; i++)
		if (memmem(name, len, g->data_load[i], strlen(g->data_load[i])))
			return 1;
	return 0;
}

int critpath_build(struct critpath *g, struct idle_set *set, const struct idle_trace *t,
		   const char *annotation, long first, long last, char *const *data_load,
		   size_t ndata_load)
{
	memset(g, 0, sizeof(*g));
	g->set = set;
	g->t = t;
	g->data_load = data_load;
	g->ndata_load = ndata_load;
	for (size_t i = t->n; i-- > 0; )
		hmap_put(&g->full_row, ikey(t->ev[i].index), (uint32_t)i);
	if (window(g, annotation, first, last) < 0)
		return -1;
	clip(g);
	create_nodes(g);
	runtime_lock(g);
	call_stacks(g);
	return kernels(g);
}

void critpath_release(struct critpath *g)
{
	free(g->node);
	free(g->edge);
	free(g->gorder);
	free(g->clip);
	free(g->path);
	hmap_release(&g->edge_of);
	hmap_release(&g->start_of);
	hmap_release(&g->end_of);
	hmap_release(&g->clip_row);
	hmap_release(&g->full_row);
	memset(g, 0, sizeof(*g));
}
