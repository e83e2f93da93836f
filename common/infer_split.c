/*
 * infer_split: the events of a trace as split_inference_trace_annotation.py
 * sees them, and extract_iteration over them.  TraceLens scans every event
 * for every iteration; here the timed events are indexed by thread and ts
 * once, so a window costs O(k log n) for its k events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "infer_annot.h"
#include "infer_split.h"
#include "json_value.h"
#include "py_set.h"
#include "stream.h"
#include "strpool.h"
#include "tree.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

enum {
	EV_TS = 1, EV_DUR = 2, EV_TS_FLOAT = 4, EV_DUR_FLOAT = 8,
	EV_GPU = 16,		/* kernel, gpu_memcpy, gpu_memset, gpu_user_annotation */
	EV_FLOW = 32,		/* ph s or f with a usable id */
	EV_ROW = 64		/* the stream had this uid */
};

struct sev {
	double ts, dur;
	uint32_t thread;	/* "PID\tTID" as an id; "" parts for None */
	uint8_t flags;
	int64_t corr, flow, batch;	/* -1: none (or not a non-negative int) */
};

/* a list of uids under an integer key */
struct keyed {
	struct hmap map;	/* key + 1 → list index */
	struct vec { uint32_t *v; size_t n, alloc; } *lists;
	size_t nlists, alists;
};

struct infer_trace {
	struct strpool *sp;
	struct sev *ev;
	size_t n, alloc;
	int c_uid, c_ph, c_cat, c_name, c_pid, c_tid, c_ts, c_dur, c_id, c_corr, c_dims;
	struct keyed gpu, flows;
	/* annotations (cat user_annotation), in uid order */
	struct infer_root *ann;
	size_t nann, aann;
	struct infer_root *roots;
	size_t nroots, aroots;
	char **names;		/* names of generic roots, owned */
	size_t nnames;
	/* timed events by (thread, ts, uid), built on first extraction */
	uint32_t *byts;
	size_t nbyts;
	double maxneg;		/* the largest -dur of a timed event (0 if none) */
};

struct infer_trace *infer_trace_new(const struct stream *s)
{
	struct infer_trace *it = xcalloc(1, sizeof(*it));

	it->sp = strpool_new();
	it->c_uid = stream_col(s, "uid");
	it->c_ph = stream_col(s, "ph");
	it->c_cat = stream_col(s, "cat");
	it->c_name = stream_col(s, "name");
	it->c_pid = stream_col(s, "pid");
	it->c_tid = stream_col(s, "tid");
	it->c_ts = stream_col(s, "ts");
	it->c_dur = stream_col(s, "dur");
	it->c_id = stream_col(s, "id");
	it->c_corr = stream_col(s, "corr");
	it->c_dims = stream_col(s, "dims");
	return it;
}

static void keyed_free(struct keyed *k)
{
	for (size_t i = 0; i < k->nlists; i++)
		free(k->lists[i].v);
	free(k->lists);
	hmap_release(&k->map);
}

void infer_trace_free(struct infer_trace *it)
{
	if (!it)
		return;
	keyed_free(&it->gpu);
	keyed_free(&it->flows);
	for (size_t i = 0; i < it->nnames; i++)
		free(it->names[i]);
	free(it->names);
	free(it->ev);
	free(it->ann);
	free(it->roots);
	free(it->byts);
	strpool_free(it->sp);
	free(it);
}

size_t infer_trace_count(const struct infer_trace *it)
{
	return it->n;
}

static void keyed_add(struct keyed *k, int64_t key, uint32_t uid)
{
	uint32_t li;

	if (!hmap_get(&k->map, (uint64_t)key + 1, &li)) {
		xgrow((void **)&k->lists, &k->alists, k->nlists + 1, sizeof(*k->lists));
		li = (uint32_t)k->nlists++;
		memset(&k->lists[li], 0, sizeof(k->lists[li]));
		hmap_put(&k->map, (uint64_t)key + 1, li);
	}
	xgrow((void **)&k->lists[li].v, &k->lists[li].alloc, k->lists[li].n + 1, sizeof(uint32_t));
	k->lists[li].v[k->lists[li].n++] = uid;
}

static const struct vec *keyed_get(const struct keyed *k, int64_t key)
{
	uint32_t li;

	return hmap_get(&k->map, (uint64_t)key + 1, &li) ? &k->lists[li] : NULL;
}

static const char *field(const struct stream *s, int col)
{
	return col >= 0 ? stream_field(s, col) : "";
}

/* a non-negative integer written as one, else -1 */
static int64_t nonneg_int(const char *s)
{
	int ok;
	int64_t v;

	if (!*s || strpbrk(s, ".eE"))
		return -1;
	v = infer_int(s, strlen(s), &ok);
	return ok && v >= 0 && *s != '-' && *s != '+' ? v : -1;
}

/* dims[0][0] of "Input Dims", when it is a non-negative int */
static int64_t first_dim(const char *dims)
{
	struct json_value *v;
	int64_t b = -1;

	if (!*dims || !(v = json_value_parse(dims, strlen(dims))))
		return -1;
	if (v->type == JV_ARR && v->n && v->kids[0].type == JV_ARR && v->kids[0].n &&
	    v->kids[0].kids[0].type == JV_INT)
		b = nonneg_int(v->kids[0].kids[0].s);
	json_value_free(v);
	return b;
}

static uint32_t thread_of(struct infer_trace *it, const struct stream *s)
{
	const char *p = field(s, it->c_pid), *t = field(s, it->c_tid);
	size_t lp = strlen(p), lt = strlen(t);
	char *k = xmalloc(lp + lt + 2);
	uint32_t id;

	/* a JSON null is None, like an absent key */
	if (!strcmp(p, "null"))
		p = "", lp = 0;
	if (!strcmp(t, "null"))
		t = "", lt = 0;
	tl_memcpy(k, p, lp);
	k[lp] = '\t';
	tl_memcpy(k + lp + 1, t, lt + 1);
	id = strpool_intern(it->sp, k, lp + lt + 1);
	free(k);
	return id;
}

static int is_float_text(const char *s)
{
	return strpbrk(s, ".eE") != NULL;
}

int infer_trace_add(struct infer_trace *it, const struct stream *s)
{
	const char *u = field(s, it->c_uid), *ts = field(s, it->c_ts), *dur = field(s, it->c_dur);
	const char *ph = field(s, it->c_ph), *cat = field(s, it->c_cat), *name = field(s, it->c_name);
	char *end;
	unsigned long uid;
	struct sev *e;

	if (*u < '0' || *u > '9' || (uid = strtoul(u, &end, 10), *end) || uid >= UINT32_MAX ||
	    uid < it->n)
		return -1;
	if (uid >= it->alloc || !it->ev) {
		size_t old = it->alloc;
		xgrow((void **)&it->ev, &it->alloc, uid + 1, sizeof(*it->ev));
		memset(it->ev + old, 0, (it->alloc - old) * sizeof(*it->ev));
	}
	it->n = uid + 1;
	e = &it->ev[uid];
	e->flags = EV_ROW;
	e->corr = e->flow = e->batch = -1;
	e->thread = thread_of(it, s);
	if (*ts) {
		e->flags |= EV_TS | (is_float_text(ts) ? EV_TS_FLOAT : 0);
		e->ts = strtod(ts, NULL);
	}
	if (*dur) {
		e->flags |= EV_DUR | (is_float_text(dur) ? EV_DUR_FLOAT : 0);
		e->dur = strtod(dur, NULL);
	}
	e->corr = nonneg_int(field(s, it->c_corr));
	if (strstr(name, "vllm::unified_attention_with_output") ||
	    strstr(name, "sgl_kernel::sgl_per_token_group_quant_8bit"))
		e->batch = first_dim(field(s, it->c_dims));
	/* preprocess_trace: untimed events are metadata; flows; GPU events */
	if (!(e->flags & EV_TS))
		return 0;
	if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
		if ((e->flow = nonneg_int(field(s, it->c_id))) >= 0) {
			e->flags |= EV_FLOW;
			keyed_add(&it->flows, e->flow, (uint32_t)uid);
		}
		return 0;
	}
	if (!strcmp(cat, "kernel") || !strcmp(cat, "gpu_memcpy") || !strcmp(cat, "gpu_memset") ||
	    !strcmp(cat, "gpu_user_annotation")) {
		e->flags |= EV_GPU;
		if (e->corr >= 0)
			keyed_add(&it->gpu, e->corr, (uint32_t)uid);
		return 0;
	}
	if (!strcmp(cat, "user_annotation")) {
		struct infer_root *r;
		xgrow((void **)&it->ann, &it->aann, it->nann + 1, sizeof(*it->ann));
		r = &it->ann[it->nann++];
		r->uid = (uint32_t)uid;
		r->ts = e->ts;
		r->dur = e->flags & EV_DUR ? e->dur : 0;
		r->thread = e->thread;
		r->name = strpool_str(it->sp, strpool_intern(it->sp, name, strlen(name)));
	}
	return 0;
}

/* ---- iteration roots ---------------------------------------------------- */

static const struct infer_root *sort_roots;

static int by_root_ts(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double tx = sort_roots[x].ts, ty = sort_roots[y].ts;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x > y) - (x < y);
}

const struct infer_root *infer_trace_roots(struct infer_trace *it, size_t *n)
{
	uint32_t *k = xmalloc(st_mult(it->nann + 1, sizeof(*k)));
	size_t nk = 0;

	for (int tier = 1; tier <= 2 && !nk; tier++)
		for (size_t i = 0; i < it->nann; i++)
			if (infer_iter_tier(it->ann[i].name) == tier)
				k[nk++] = (uint32_t)i;
	sort_roots = it->ann;
	if (nk)
		tl_qsort(k, nk, sizeof(*k), by_root_ts);
	it->nroots = 0;
	for (size_t i = 0; i < nk; i++) {
		xgrow((void **)&it->roots, &it->aroots, it->nroots + 1, sizeof(*it->roots));
		it->roots[it->nroots++] = it->ann[k[i]];
	}
	free(k);
	*n = it->nroots;
	return it->roots;
}

/*
 * _find_repeating_period: the first (start, period) — starts ascending,
 * then periods — where at least 3 copies of names[start, start+p) follow
 * each other from start and cover more than half of names[start:].  The
 * copies are counted with the Z-array of each suffix (copies = 1 +
 * z[p] / p), so a start costs O(m), not TraceLens's O(m^2).
 */
static int find_period(const uint32_t *names, size_t n, size_t *start, size_t *period)
{
	size_t *z = xmalloc(st_mult(n + 1, sizeof(*z)));
	int found = 0;

	for (size_t st = 0; st < n && !found; st++) {
		const uint32_t *s = names + st;
		size_t m = n - st, l = 0, r = 0;
		z[0] = m;
		for (size_t i = 1; i < m; i++) {
			size_t k = 0;
			if (i < r)
				k = z[i - l] < r - i ? z[i - l] : r - i;
			while (i + k < m && s[k] == s[i + k])
				k++;
			z[i] = k;
			if (i + k > r) {
				l = i;
				r = i + k;
			}
		}
		for (size_t p = 1; p <= m / 2; p++) {
			size_t count = 1 + z[p] / p;
			if (count >= 3 && (double)(count * p) > (double)m * 0.5) {
				*start = st;
				*period = p;
				found = 1;
				break;
			}
		}
	}
	free(z);
	return found;
}

static size_t children(const struct tree *t, uint32_t i, uint32_t **out, size_t *alloc)
{
	size_t n = 0;

	for (uint32_t c = tree_at(t, i)->first_child; c != TREE_NONE; c = tree_at(t, c)->next_sibling) {
		xgrow((void **)out, alloc, n + 1, sizeof(**out));
		(*out)[n++] = c;
	}
	return n;
}

static void add_generic_root(struct infer_trace *it, const struct tree *t, uint32_t first,
			     uint32_t last)
{
	const struct tree_node *f = tree_at(t, first), *l = tree_at(t, last);
	struct infer_root *r;
	const char *th = tree_thread(t, first);

	xgrow((void **)&it->roots, &it->aroots, it->nroots + 1, sizeof(*it->roots));
	r = &it->roots[it->nroots++];
	r->uid = f->uid;
	r->ts = f->ts;
	r->dur = (l->ts + ((l->flags & TN_HAS_DUR) ? l->dur : 0)) - f->ts;
	r->thread = strpool_intern(it->sp, th, strlen(th));
	r->name = tree_str(t, f->name);
}

const struct infer_root *infer_trace_roots_found(const struct infer_trace *it)
{
	return it->roots;
}

/* _detect_iteration_roots_from_tree: breadth first from the trace's roots */
size_t infer_trace_generic_roots(struct infer_trace *it, const struct tree *t)
{
	size_t nr, head = 0, nq = 0, aq = 0, ak = 0, ai = 0;
	const uint32_t *croots = tree_roots(t, &nr);
	uint32_t *q = NULL, *kids = NULL, *ids = NULL;
	struct strpool *names = strpool_new();
	uint8_t *seen = xcalloc(tree_count(t) + 1, 1);

	it->nroots = 0;
	/* each cpu_op root up through its python frames to a parentless node */
	for (size_t k = 0; k < nr; k++) {
		uint32_t e = croots[k];
		while (tree_at(t, e)->parent != TREE_NONE)
			e = tree_at(t, e)->parent;
		if (seen[e])
			continue;
		seen[e] = 1;
		xgrow((void **)&q, &aq, nq + 1, sizeof(*q));
		q[nq++] = e;
	}
	while (head < nq) {
		uint32_t cur = q[head++];
		size_t nk = children(t, cur, &kids, &ak), start, p, any = 0;
		for (size_t c = 0; c < nk; c++)
			any |= !tree_is_gpu(tree_at(t, kids[c])) && tree_at(t, kids[c])->gpu_n;
		if (!nk || !any)
			continue;
		xgrow((void **)&ids, &ai, nk + 1, sizeof(*ids));
		for (size_t c = 0; c < nk; c++) {
			const char *nm = tree_str(t, tree_at(t, kids[c])->name);
			ids[c] = strpool_intern(names, nm, strlen(nm));
		}
		if (!find_period(ids, nk, &start, &p)) {
			for (size_t c = 0; c < nk; c++)
				if (!tree_is_gpu(tree_at(t, kids[c])) && tree_at(t, kids[c])->gpu_n) {
					xgrow((void **)&q, &aq, nq + 1, sizeof(*q));
					q[nq++] = kids[c];
				}
			continue;
		}
		/* the n-th first-anchor name to the n-th last-anchor name */
		{
			uint32_t fa = ids[start], la = ids[start + p - 1];
			size_t i = start, j = start;
			for (;;) {
				while (i < nk && ids[i] != fa)
					i++;
				while (j < nk && ids[j] != la)
					j++;
				if (i >= nk || j >= nk || j < i)
					break;
				add_generic_root(it, t, kids[i], kids[j]);
				i++;
				j++;
			}
		}
		break;
	}
	free(q);
	free(kids);
	free(ids);
	free(seen);
	strpool_free(names);
	/* the roots' names live in the tree: keep copies */
	for (size_t k = 0; k < it->nroots; k++) {
		xgrow((void **)&it->names, &it->nnames, k + 1, sizeof(*it->names));
		it->names[k] = xstrdup(it->roots[k].name);
		it->roots[k].name = it->names[k];
	}
	it->nnames = it->nroots;
	return it->nroots;
}

/* ---- extract_iteration ---------------------------------------------------- */

static const struct infer_trace *sort_it;

static int by_thread_ts(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct sev *ex = &sort_it->ev[x], *ey = &sort_it->ev[y];

	if (ex->thread != ey->thread)
		return ex->thread < ey->thread ? -1 : 1;
	if (ex->ts != ey->ts)
		return ex->ts < ey->ts ? -1 : 1;
	return (x > y) - (x < y);
}

static void index_timed(struct infer_trace *it)
{
	size_t n = 0;

	it->byts = xmalloc(st_mult(it->n + 1, sizeof(*it->byts)));
	for (uint32_t u = 0; u < it->n; u++) {
		const struct sev *e = &it->ev[u];
		if ((e->flags & (EV_ROW | EV_TS | EV_DUR)) == (EV_ROW | EV_TS | EV_DUR)) {
			it->byts[n++] = u;
			if (-e->dur > it->maxneg)
				it->maxneg = -e->dur;
		}
	}
	it->nbyts = n;
	sort_it = it;
	tl_qsort(it->byts, n, sizeof(*it->byts), by_thread_ts);
}

/* the first position in byts not ordered before (thread, ts) */
static size_t lower(const struct infer_trace *it, uint32_t thread, double ts)
{
	size_t lo = 0, hi = it->nbyts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sev *e = &it->ev[it->byts[mid]];
		if (e->thread < thread || (e->thread == thread && e->ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static void push(struct infer_extract *x, uint32_t uid)
{
	xgrow((void **)&x->uid, &x->alloc, x->n + 1, sizeof(*x->uid));
	x->uid[x->n++] = uid;
}

/* Python's a + b on numbers: a float if either is */
static struct infer_num add(struct infer_num a, struct infer_num b)
{
	struct infer_num r = { a.v + b.v, a.is_float || b.is_float };
	return r;
}

/* one root: its CPU events, its flows and GPU events by correlation */
static void one_root(const struct infer_trace *it, const struct infer_root *r,
		     struct infer_extract *x)
{
	double end = r->ts + r->dur;
	size_t lo = lower(it, r->thread, r->ts), hi = lower(it, r->thread, end + it->maxneg), m = 0;
	uint32_t *cpu = xmalloc(st_mult(hi - lo + 1, sizeof(*cpu)));
	struct py_set corr;
	struct infer_num mn = { 0, 0 }, mx = { 0, 0 };
	int any = 0;
	int64_t c;

	for (size_t k = lo; k < hi; k++) {
		const struct sev *e = &it->ev[it->byts[k]];
		if (e->ts >= r->ts && e->ts + e->dur <= end)
			cpu[m++] = it->byts[k];
	}
	tl_qsort(cpu, m, sizeof(*cpu), cmp_u32);
	py_set_init(&corr);
	for (size_t k = 0; k < m; k++) {
		push(x, cpu[k]);
		if (it->ev[cpu[k]].corr >= 0)
			py_set_add(&corr, it->ev[cpu[k]].corr);
	}
	for (size_t pos = 0; py_set_next(&corr, &pos, &c); ) {
		const struct vec *f = keyed_get(&it->flows, c);
		for (size_t k = 0; f && k < f->n; k++)
			push(x, f->v[k]);
	}
	for (size_t pos = 0; py_set_next(&corr, &pos, &c); ) {
		const struct vec *g = keyed_get(&it->gpu, c);
		for (size_t k = 0; g && k < g->n; k++) {
			const struct sev *e = &it->ev[g->v[k]];
			struct infer_num ts = { e->ts, (e->flags & EV_TS_FLOAT) != 0 };
			struct infer_num dur = { e->dur, (e->flags & EV_DUR_FLOAT) != 0 };
			struct infer_num te = add(ts, dur);
			push(x, g->v[k]);
			/* min()/max() keep the first extreme */
			if (!any || ts.v < mn.v)
				mn = ts;
			if (!any || te.v > mx.v)
				mx = te;
			any = 1;
			x->gpu_busy = add(x->gpu_busy, dur);
			x->num_gpu_events++;
		}
	}
	if (any) {
		struct infer_num d = { mx.v - mn.v, mx.is_float || mn.is_float };
		x->gpu_dur = add(x->gpu_dur, d);
	}
	py_set_release(&corr);
	free(cpu);
}

void infer_trace_extract(const struct infer_trace *it, const struct infer_root *r, size_t n,
			 struct infer_extract *x)
{
	struct py_set b;
	int64_t v;

	memset(x, 0, sizeof(*x));
	if (!it->byts)
		index_timed((struct infer_trace *)it);
	for (size_t k = 0; k < n; k++)
		one_root(it, &r[k], x);
	/* the events without ts (process and thread names), after all roots */
	for (uint32_t u = 0; u < it->n; u++)
		if ((it->ev[u].flags & EV_ROW) && !(it->ev[u].flags & EV_TS))
			push(x, u);
	py_set_init(&b);
	for (size_t k = 0; k < x->n; k++)
		if (it->ev[x->uid[k]].batch >= 0)
			py_set_add(&b, it->ev[x->uid[k]].batch);
	x->batch = xmalloc(st_mult(py_set_len(&b) + 1, sizeof(*x->batch)));
	for (size_t pos = 0; py_set_next(&b, &pos, &v); )
		x->batch[x->nbatch++] = v;
	py_set_release(&b);
}

void infer_extract_release(struct infer_extract *x)
{
	free(x->uid);
	free(x->batch);
	memset(x, 0, sizeof(*x));
}
