/*
 * tree: Trace2Tree on compact records.  The order of the steps and every
 * comparison follow TraceLens's trace_to_tree.py (spec §2) so that parents,
 * drops and links come out identical; see tl-tree(1) for the rules.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coll_name.h"
#include "err.h"
#include "hmap.h"
#include "num_parse.h"
#include "stream.h"
#include "strpool.h"
#include "text_memo.h"
#include "tree.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

enum { KEY_UNDECIDED = -1, KEY_CORR = 0, KEY_EXT = 1 };

/* A node added before the linking key was known keeps its correlation here. */
struct pending {
	uint32_t node, corr;
};

struct seqent {
	uint32_t seq, node;
};

/* Open addressing map from (thread, link id) to the last node with both. */
struct thread {
	uint32_t *v;
	size_t n, alloc;
	long cpu_ops;
};

struct tree {
	unsigned flags;
	struct strpool *sp, *threads;
	struct tree_node *node;
	size_t nr, alloc;
	unsigned long last_uid;
	int any, built, key;
	size_t events, untimed, dropped;
	struct pending *pend;
	size_t npend, apend;
	struct seqent *seq;
	size_t nseq, aseq;
	/* ac2g flows, indexed by the string id of the flow id */
	uint8_t *flow_s;
	size_t aflow_s;
	uint32_t *flow_f;	/* 0 none, 1 f without pid/tid, else thread + 2 */
	size_t aflow_f;
	struct hmap pm;		/* (thread << 32 | link id) → node, last one wins */
	uint32_t *roots;
	size_t nroots, aroots;
	/* rows come in runs of one thread: its key, and the last thread's
	 * "pid\ttid" with its id (thread_key) */
	char *tkey;
	size_t atkey, ltkey;
	uint32_t tkey_id;
	int tkey_set;
	/* and of one category, mostly: the last one's text and id */
	struct text_memo cat_last;
	uint32_t cat_id;
};

static const char *const link_words[] = {
	"", "linked", "graph", "no-key", "no-s-flow", "no-f-flow",
	"no-gpu-event", "host-target", "unlinked"
};

const char *tree_link_word(int link)
{
	if (link < 0 || (size_t)link >= sizeof(link_words) / sizeof(link_words[0]))
		return "";
	return link_words[link];
}

int tree_is_gpu(const struct tree_node *n)
{
	return n->kind == TK_KERNEL || n->kind == TK_MEMCPY || n->kind == TK_MEMSET;
}

static int is_host_kind(int kind)
{
	return kind == TK_CPU_OP || kind == TK_RUNTIME || kind == TK_DRIVER ||
	       kind == TK_PYTHON;
}

static int classify(const char *cat)
{
	static const struct {
		const char *name;
		int kind;
	} cats[] = {
		{ "cpu_op", TK_CPU_OP }, { "cuda_runtime", TK_RUNTIME },
		{ "cuda_driver", TK_DRIVER }, { "python_function", TK_PYTHON },
		{ "kernel", TK_KERNEL }, { "gpu_memcpy", TK_MEMCPY },
		{ "gpu_memset", TK_MEMSET },
	};
	if (!*cat)
		return TK_NOCAT;
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (cat[0] == cats[i].name[0] && !strcmp(cat, cats[i].name))
			return cats[i].kind;
	return TK_OTHER;
}

/* ---- reading rows ---------------------------------------------------- */

int tree_cols_init(struct tree_cols *c, const struct stream *s)
{
	static const char *const names[] = {
		"uid", "src", "ph", "cat", "name", "pid", "tid", "ts", "dur",
		"id", "corr", "ext", "seq", "args"
	};
	int *slot[] = {
		&c->uid, &c->src, &c->ph, &c->cat, &c->name, &c->pid, &c->tid,
		&c->ts, &c->dur, &c->id, &c->corr, &c->ext, &c->seq, &c->args
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		*slot[i] = stream_col(s, names[i]);
		if (*slot[i] < 0) {
			tl_warn("%s:2: no column '%s' in the header", stream_name(s),
				names[i]);
			return -1;
		}
	}
	return 0;
}

/* A JSON null pid or tid is None to TraceLens, like a missing one. */
static const char *nonnull(const char *s)
{
	return s[0] == 'n' && !strcmp(s, "null") ? "" : s;
}

int tree_event_read(struct tree_event *ev, const struct stream *s,
		    const struct tree_cols *c)
{
	const char *u = stream_field(s, c->uid), *args, *e;
	char *end;
	uint64_t d;

	if ((e = num_u64(u, &d)) && !*e && d <= ULONG_MAX)
		ev->uid = (unsigned long)d;	/* plain digits, the usual case */
	else if (*u < '0' || *u > '9' || (ev->uid = strtoul(u, &end, 10), *end)) {
		tl_warn("%s:%ld: bad uid '%s'", stream_name(s), stream_lineno(s), u);
		return -1;
	}
	ev->ph = stream_field(s, c->ph);
	ev->cat = stream_field(s, c->cat);
	ev->name = stream_field(s, c->name);
	ev->pid = nonnull(stream_field(s, c->pid));
	ev->tid = nonnull(stream_field(s, c->tid));
	ev->ts = stream_field(s, c->ts);
	ev->dur = stream_field(s, c->dur);
	ev->id = stream_field(s, c->id);
	ev->corr = stream_field(s, c->corr);
	ev->ext = stream_field(s, c->ext);
	ev->seq = stream_field(s, c->seq);
	args = stream_field(s, c->args);
	ev->args = args;
	ev->has_args = *args != '\0';
	return 0;
}

/* ---- adding events --------------------------------------------------- */

struct tree *tree_new(unsigned flags)
{
	struct tree *t = xcalloc(1, sizeof(*t));

	t->flags = flags;
	t->sp = strpool_new();
	t->threads = strpool_new();
	t->key = KEY_UNDECIDED;
	return t;
}

void tree_free(struct tree *t)
{
	if (!t)
		return;
	strpool_free(t->sp);
	strpool_free(t->threads);
	free(t->node);
	free(t->pend);
	free(t->seq);
	free(t->flow_s);
	free(t->flow_f);
	hmap_release(&t->pm);
	free(t->roots);
	free(t->tkey);
	free(t);
}

static uint32_t intern(struct tree *t, const char *s)
{
	return strpool_intern(t->sp, s, strlen(s));
}

/* intern for the category, which the row before mostly had too */
static uint32_t intern_cat(struct tree *t, const char *cat)
{
	size_t n = strlen(cat);

	if (!text_memo_same(&t->cat_last, cat, n))
		t->cat_id = strpool_intern(t->sp, cat, n);
	return t->cat_id;
}

static int parse_num(const char *s, double *v)
{
	char *end;

	if (!*s)
		return 0;
	*v = num_strtod(s, &end);
	/* NaN would upset the ts sort; 1e400 reads as inf (tl-cat says so) */
	return *end == '\0' && isfinite(*v);
}

static uint32_t thread_key(struct tree *t, const char *pid, const char *tid)
{
	size_t lp = strlen(pid), lt = strlen(tid), n = lp + lt + 1;

	/* the same thread as the last row: no key to build, no lookup */
	if (t->tkey_set && n == t->ltkey && !memcmp(t->tkey, pid, lp) &&
	    t->tkey[lp] == '\t' && !memcmp(t->tkey + lp + 1, tid, lt))
		return t->tkey_id;
	xgrow((void **)&t->tkey, &t->atkey, n + 1, 1);
	tl_memcpy(t->tkey, pid, lp);
	t->tkey[lp] = '\t';
	tl_memcpy(t->tkey + lp + 1, tid, lt + 1);
	t->ltkey = n;
	t->tkey_set = 1;
	t->tkey_id = strpool_intern(t->threads, t->tkey, n);
	return t->tkey_id;
}

static void add_flow(struct tree *t, const struct tree_event *ev)
{
	uint32_t id;

	if (!*ev->id)
		return;		/* TraceLens would stop with a KeyError */
	id = intern(t, ev->id);
	if (!strcmp(ev->ph, "s")) {
		if (id >= t->aflow_s) {
			size_t old = t->aflow_s;
			xgrow((void **)&t->flow_s, &t->aflow_s, (size_t)id + 1, 1);
			memset(t->flow_s + old, 0, t->aflow_s - old);
		}
		t->flow_s[id] = 1;
	} else if (!strcmp(ev->ph, "f")) {
		if (id >= t->aflow_f) {
			size_t old = t->aflow_f;
			xgrow((void **)&t->flow_f, &t->aflow_f, (size_t)id + 1,
			      sizeof(*t->flow_f));
			memset(t->flow_f + old, 0, (t->aflow_f - old) * sizeof(*t->flow_f));
		}
		/* (None, None, id) is never in the map: remember "f, no thread" */
		t->flow_f[id] = *ev->pid && *ev->tid ? 2 + thread_key(t, ev->pid, ev->tid) : 1;
	}
}

/*
 * TraceLens picks the linking key from the first runtime or driver event
 * (UID order) whose name contains "launch": "correlation" if its args
 * have one, else "External id".
 */
static void decide_key(struct tree *t, int key)
{
	t->key = key;
	for (size_t i = 0; i < t->npend; i++) {
		struct tree_node *n = &t->node[t->pend[i].node];
		n->lk = key == KEY_CORR ? t->pend[i].corr : n->ext;
	}
	t->npend = 0;
}

static int is_launch(const struct tree_event *ev, int kind)
{
	return (kind == TK_RUNTIME || kind == TK_DRIVER) && strcasestr(ev->name, "launch");
}

static void fill_node(struct tree *t, struct tree_node *n,
		      const struct tree_event *ev, int kind)
{
	double ts = 0, dur = 0;
	/* a negative dur is no duration: the event is left out like an untimed one */
	int has_ts = parse_num(ev->ts, &ts), has_dur = parse_num(ev->dur, &dur) && dur >= 0;

	memset(n, 0, sizeof(*n));
	n->uid = (uint32_t)ev->uid;
	n->parent = n->first_child = n->next_sibling = TREE_NONE;
	n->fwd_bwd = n->launcher = TREE_NONE;
	n->ts = has_ts ? ts : 0;	/* e.get("ts", 0) in fwd/bwd linking */
	n->dur = dur;
	n->kind = (uint8_t)kind;
	n->name = intern(t, ev->name);
	n->cat = intern_cat(t, ev->cat);
	n->pidtid = thread_key(t, ev->pid, ev->tid);
	if (!*ev->pid || !*ev->tid)
		n->flags |= TN_NOTHREAD;
	if (has_ts && has_dur)
		n->flags |= TN_TIMED;
	if (has_dur)
		n->flags |= TN_HAS_DUR;
	if (has_dur && !strpbrk(ev->dur, ".eE"))
		n->flags |= TN_DUR_INT;
	if (ev->has_args)
		n->ext = intern(t, ev->ext);
	if (tree_is_gpu(n))
		n->link = TLK_UNLINKED;
	if (kind == TK_RUNTIME || kind == TK_DRIVER)
		n->link = TLK_NO_KEY;
}

/* Every event's count and uid order, kept or not (tree_add, tree_skip). */
int tree_skip(struct tree *t, unsigned long uid)
{
	if ((t->any && uid <= t->last_uid) || uid >= UINT32_MAX)
		return -1;
	t->any = 1;
	t->last_uid = uid;
	t->events++;
	return 0;
}

int tree_add(struct tree *t, const struct tree_event *ev)
{
	int kind = classify(ev->cat), host, keep;
	uint32_t corr, idx;
	struct tree_node *n;

	if (tree_skip(t, ev->uid) < 0)
		return -1;
	if (ev->cat[0] == 'a' && !strcmp(ev->cat, "ac2g")) {
		add_flow(t, ev);
		return 0;
	}
	/* a non-numeric correlation stays in args; the key test only asks "in"
	 * (asked of the one event that decides, not of every row) */
	if (t->key == KEY_UNDECIDED && is_launch(ev, kind))
		decide_key(t, *ev->corr || strstr(ev->args, "\"correlation\":") ? KEY_CORR : KEY_EXT);
	host = kind == TK_CPU_OP || kind == TK_RUNTIME || kind == TK_DRIVER ||
	       (kind == TK_PYTHON && (t->flags & TREE_PYTHON));
	keep = host || kind == TK_KERNEL || kind == TK_MEMCPY || kind == TK_MEMSET ||
	       (ev->has_args && (*ev->corr || *ev->ext || *ev->seq));
	if (!keep)
		return 0;
	xgrow((void **)&t->node, &t->alloc, t->nr + 1, sizeof(*t->node));
	idx = (uint32_t)t->nr++;
	n = &t->node[idx];
	fill_node(t, n, ev, kind);
	if (host) {
		if (n->flags & TN_TIMED)
			n->flags |= TN_HOST;
		else
			t->untimed++;	/* TraceLens would stop with a KeyError */
	}
	if (ev->has_args) {
		corr = intern(t, ev->corr);
		if (t->key == KEY_UNDECIDED) {
			xgrow((void **)&t->pend, &t->apend, t->npend + 1, sizeof(*t->pend));
			t->pend[t->npend].node = idx;
			t->pend[t->npend++].corr = corr;
		} else {
			n->lk = t->key == KEY_CORR ? corr : n->ext;
		}
		if (*ev->seq) {
			xgrow((void **)&t->seq, &t->aseq, t->nseq + 1, sizeof(*t->seq));
			t->seq[t->nseq].seq = intern(t, ev->seq);
			t->seq[t->nseq++].node = idx;
		}
	}
	return 0;
}

/* ---- the (thread, link id) → event map ------------------------------- */

/* Whether node n goes into the map: it has a link id and a thread. */
static int pm_keyed(const struct tree_node *n)
{
	return n->lk && !(n->flags & TN_NOTHREAD);
}

static void pm_build(struct tree *t)
{
	size_t keyed = 0;

	/* counted first: the map is filled once, at its final size */
	for (size_t i = 0; i < t->nr; i++)
		keyed += pm_keyed(&t->node[i]);
	hmap_reserve(&t->pm, keyed);
	for (size_t i = 0; i < t->nr; i++) {
		const struct tree_node *n = &t->node[i];

		if (pm_keyed(n))
			hmap_put(&t->pm, (uint64_t)n->pidtid << 32 | n->lk, (uint32_t)i);
	}
}

static uint32_t pm_get(const struct tree *t, uint32_t thread, uint32_t lk)
{
	uint32_t i;

	return lk && hmap_get(&t->pm, (uint64_t)thread << 32 | lk, &i) ? i : TREE_NONE;
}

/* ---- host call stacks (spec §2.3) ------------------------------------ */

static double t_end(const struct tree_node *n)
{
	return n->ts + n->dur;
}

static void th_pop(struct tree *t, struct thread *th)
{
	uint32_t p = th->v[--th->n];
	if (t->node[p].kind == TK_CPU_OP)
		th->cpu_ops--;
}

static void append_child(struct tree *t, uint32_t *tail, uint32_t parent, uint32_t child)
{
	struct tree_node *p = &t->node[parent];

	if (p->first_child == TREE_NONE)
		p->first_child = child;
	else
		t->node[tail[parent]].next_sibling = child;
	tail[parent] = child;
}

static void place(struct tree *t, struct thread *th, uint32_t i, uint32_t *tail)
{
	struct tree_node *n = &t->node[i];
	double end = t_end(n);

	n->flags |= TN_TREE;
	while (th->n && n->ts >= t_end(&t->node[th->v[th->n - 1]]))
		th_pop(t, th);
	if (th->n && end > t_end(&t->node[th->v[th->n - 1]])) {
		/* event bleed: a sub-µs overlap pops the sibling, else drop */
		double overlap = t_end(&t->node[th->v[th->n - 1]]) - n->ts;
		if (overlap < 1.0 && th->n >= 2) {
			th_pop(t, th);
		} else {
			n->flags |= TN_DROP;
			t->dropped++;
			return;
		}
	}
	if (th->n) {
		uint32_t p = th->v[th->n - 1];
		append_child(t, tail, p, i);
		n->parent = p;
		n->depth = t->node[p].depth + 1;
	}
	xgrow((void **)&th->v, &th->alloc, th->n + 1, sizeof(*th->v));
	th->v[th->n++] = i;
	if (n->kind == TK_CPU_OP) {
		if (th->cpu_ops == 0) {
			n->flags |= TN_ROOT;
			xgrow((void **)&t->roots, &t->aroots, t->nroots + 1, sizeof(*t->roots));
			t->roots[t->nroots++] = i;
		}
		th->cpu_ops++;
	}
}

/* Host node i before j: by ts, file order on ties (a total order). */
static int ts_before(const struct tree_node *node, uint32_t i, uint32_t j)
{
	return node[i].ts < node[j].ts || (node[i].ts == node[j].ts && i < j);
}

/* The first place in v[lo..hi) that key goes before (v in order). */
static size_t first_after(const struct tree_node *node, const uint32_t *v, size_t lo,
			  size_t hi, uint32_t key)
{
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (ts_before(node, key, v[m]))
			hi = m;
		else
			lo = m + 1;
	}
	return lo;
}

/*
 * Merges the runs a[i..mid) and a[mid..end) into b[i..end).  Where runs
 * meet they overlap little: the parts of each that come before or after
 * all of the other are found by binary search and copied whole.
 */
static void merge_runs(const struct tree_node *node, const uint32_t *a, uint32_t *b,
		       size_t i, size_t mid, size_t end)
{
	size_t x = mid < end ? first_after(node, a, i, mid, a[mid]) : mid, y = mid, k = x;
	size_t tail = mid < end ? first_after(node, a, mid, end, a[mid - 1]) : end;

	tl_memcpy(b + i, a + i, (x - i) * sizeof(*b));
	while (x < mid && y < tail)
		b[k++] = ts_before(node, a[y], a[x]) ? a[y++] : a[x++];
	while (x < mid)
		b[k++] = a[x++];
	tl_memcpy(b + k, a + y, (end - y) * sizeof(*b));
}

/*
 * ord[0..n) into ts_before's order by merging the runs already in it: host
 * events come nearly sorted (60 descents among the x20 trace's 673,540),
 * where qsort made its n log n comparisons through the node array.  The
 * runs are found in one pass; then each pass merges neighbouring runs,
 * halving their number, and looks at the nodes only where runs meet.
 */
static void sort_by_ts(const struct tree_node *node, uint32_t *ord, size_t n)
{
	uint32_t *src = ord, *dst, *tmp;
	size_t *bound = NULL, nb = 0, alloc = 0, i;

	for (i = 1; i <= n; i++)	/* bound[k]: where run k ends */
		if (i == n || ts_before(node, ord[i], ord[i - 1])) {
			xgrow((void **)&bound, &alloc, nb + 1, sizeof(*bound));
			bound[nb++] = i;
		}
	if (nb <= 1) {
		free(bound);
		return;		/* in order already */
	}
	tmp = dst = xmalloc(st_mult(n, sizeof(*tmp)));
	while (nb > 1) {
		size_t k, merged = 0;
		for (k = 0; k < nb; k += 2) {
			size_t lo = k ? bound[k - 1] : 0;
			size_t mid = bound[k], end = k + 1 < nb ? bound[k + 1] : mid;
			merge_runs(node, src, dst, lo, mid, end);
			bound[merged++] = end;
		}
		nb = merged;
		dst = src;	/* what was merged is read next */
		src = src == ord ? tmp : ord;
	}
	if (src != ord)
		tl_memcpy(ord, src, n * sizeof(*ord));
	free(tmp);
	free(bound);
}

static void build_stacks(struct tree *t, uint32_t *tail)
{
	size_t nthreads = strpool_count(t->threads), nord = 0, i;
	struct thread *th = xcalloc(nthreads ? nthreads : 1, sizeof(*th));
	uint32_t *ord = xmalloc(st_mult(t->nr ? t->nr : 1, sizeof(*ord)));

	for (i = 0; i < t->nr; i++)
		if (t->node[i].flags & TN_HOST)
			ord[nord++] = (uint32_t)i;
	sort_by_ts(t->node, ord, nord);
	for (i = 0; i < nord; i++)
		place(t, &th[t->node[ord[i]].pidtid], ord[i], tail);
	for (i = 0; i < nthreads; i++)
		free(th[i].v);
	free(th);
	free(ord);
}

/* ---- CPU→GPU linking (spec §2.4) ------------------------------------- */

static void attach(struct tree *t, uint32_t *tail, uint32_t r, uint32_t g, int how)
{
	struct tree_node *gn = &t->node[g];
	uint32_t a;

	/* a second link re-parents, as in Python, but the node stays in one child list */
	if (gn->parent == TREE_NONE)
		append_child(t, tail, r, g);
	gn->parent = r;
	gn->flags |= TN_TREE;
	gn->link = (uint8_t)how;
	gn->depth = t->node[r].depth + 1;
	for (a = r; a != TREE_NONE; a = t->node[a].parent)
		t->node[a].gpu_n++;
}

static int is_graph_launch(const struct tree *t, const struct tree_node *n)
{
	const char *name = strpool_str(t->sp, n->name);
	return !strcmp(name, "cudaGraphLaunch") || !strcmp(name, "hipGraphLaunch");
}

static void link_graph(struct tree *t, uint32_t *tail, uint32_t r)
{
	struct tree_node *n = &t->node[r];
	uint32_t lk = n->lk, found = 0;

	if (!lk) {
		n->link = TLK_NO_KEY;
		return;
	}
	/* every GPU event with that id, file order; graph launches are rare */
	for (size_t i = 0; i < t->nr; i++)
		if (tree_is_gpu(&t->node[i]) && t->node[i].lk == lk) {
			attach(t, tail, r, (uint32_t)i, TLK_GRAPH);
			found++;
		}
	t->node[r].link = found ? TLK_GRAPH : TLK_NO_GPU_EVENT;
}

static void link_flow(struct tree *t, uint32_t *tail, uint32_t r)
{
	struct tree_node *n = &t->node[r];
	uint32_t lk = n->lk, f, g;

	if (!lk) {
		n->link = TLK_NO_KEY;
		return;
	}
	if (lk >= t->aflow_s || !t->flow_s[lk]) {
		n->link = TLK_NO_S_FLOW;
		return;
	}
	f = lk < t->aflow_f ? t->flow_f[lk] : 0;
	if (!f) {
		n->link = TLK_NO_F_FLOW;
		return;
	}
	g = f >= 2 ? pm_get(t, f - 2, lk) : TREE_NONE;
	if (g == TREE_NONE) {
		n->link = TLK_NO_GPU_EVENT;
	} else if (is_host_kind(t->node[g].kind)) {
		/* TraceLens would make a host event (maybe r itself) r's child */
		n->link = TLK_HOST_TARGET;
	} else {
		attach(t, tail, r, g, TLK_LINKED);
		t->node[r].link = TLK_LINKED;
	}
}

static void link_gpu(struct tree *t, uint32_t *tail)
{
	for (size_t i = 0; i < t->nr; i++) {
		int kind = t->node[i].kind;
		if (kind != TK_RUNTIME && kind != TK_DRIVER)
			continue;
		if (is_graph_launch(t, &t->node[i]))
			link_graph(t, tail, (uint32_t)i);
		else
			link_flow(t, tail, (uint32_t)i);
	}
}

/* ---- forward/backward (spec §2.6) ------------------------------------ */

static int by_seq(const void *a, const void *b)
{
	const struct seqent *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static void link_group(struct tree *t, const struct seqent *g, size_t n)
{
	static const char prefix[] = "autograd::engine::evaluate_function:";
	uint32_t bwd = TREE_NONE, fwd = TREE_NONE;
	double best = -1;

	for (size_t i = 0; i < n && bwd == TREE_NONE; i++)
		if (!strncmp(strpool_str(t->sp, t->node[g[i].node].name), prefix,
			     sizeof(prefix) - 1))
			bwd = g[i].node;
	if (bwd == TREE_NONE)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct tree_node *e = &t->node[g[i].node];
		if (e->pidtid != t->node[bwd].pidtid && e->ts > best) {
			best = e->ts;
			fwd = g[i].node;
		}
	}
	if (fwd == TREE_NONE)
		return;
	/* an event has one Sequence number, so each side gets at most one link */
	t->node[bwd].fwd_bwd = fwd;
	t->node[bwd].flags |= TN_FWD;
	t->node[fwd].fwd_bwd = bwd;
	t->node[fwd].flags |= TN_BWD;
}

static void link_fwd_bwd(struct tree *t)
{
	size_t i = 0, j;

	if (t->nseq)
		tl_qsort(t->seq, t->nseq, sizeof(*t->seq), by_seq);
	while (i < t->nseq) {
		for (j = i; j < t->nseq && t->seq[j].seq == t->seq[i].seq; j++)
			;
		link_group(t, t->seq + i, j - i);
		i = j;
	}
}

/* ---- kernel launchers (spec §4.4) ------------------------------------ */

/* coll_name_match of a pooled name, worked out once per name (three
 * case-blind searches per kernel cost 8 % of tl-tree) */
static int name_is_comm(const struct tree *t, uint8_t *memo, uint32_t name)
{
	return coll_name_match_memo(&memo[name], strpool_str(t->sp, name),
				    strpool_len(t->sp, name));
}

static void attribute_kernels(struct tree *t)
{
	uint8_t *memo = xcalloc((size_t)strpool_count(t->sp) + 1, 1);

	for (size_t i = 0; i < t->nr; i++) {
		struct tree_node *k = &t->node[i];
		uint32_t r = k->parent, cur, leaf = TREE_NONE;

		if (!tree_is_gpu(k) || r == TREE_NONE || name_is_comm(t, memo, k->name))
			continue;
		for (cur = t->node[r].parent; cur != TREE_NONE;) {
			const struct tree_node *c = &t->node[cur];
			if (c->kind == TK_CPU_OP) {
				if (strcmp(strpool_str(t->sp, c->name), "execute")) {
					leaf = cur;
					break;
				}
			} else if (c->kind != TK_PYTHON) {
				break;
			}
			cur = c->parent;
		}
		k->launcher = leaf != TREE_NONE ? leaf : r;
		t->node[k->launcher].flags |= TN_LAUNCHER;
	}
	free(memo);
}

void tree_build(struct tree *t)
{
	uint32_t *tail;

	if (t->built)
		return;
	t->built = 1;
	if (t->key == KEY_UNDECIDED)
		decide_key(t, KEY_EXT);
	free(t->pend);
	t->pend = NULL;
	tail = xmalloc(st_mult(t->nr ? t->nr : 1, sizeof(*tail)));
	pm_build(t);
	build_stacks(t, tail);
	link_gpu(t, tail);
	free(tail);
	hmap_release(&t->pm);
	free(t->flow_s);
	free(t->flow_f);
	t->flow_s = NULL;
	t->flow_f = NULL;
	link_fwd_bwd(t);
	free(t->seq);
	t->seq = NULL;
	attribute_kernels(t);
}

/* ---- queries ---------------------------------------------------------- */

size_t tree_count(const struct tree *t) { return t->nr; }
int tree_last_uid(const struct tree *t, unsigned long *uid)
{
	*uid = t->last_uid;
	return t->any;
}
const struct tree_node *tree_at(const struct tree *t, uint32_t i) { return &t->node[i]; }
const char *tree_str(const struct tree *t, uint32_t id) { return strpool_str(t->sp, id); }
const char *tree_thread(const struct tree *t, uint32_t i)
{
	return strpool_str(t->threads, t->node[i].pidtid);
}

const uint32_t *tree_roots(const struct tree *t, size_t *n)
{
	*n = t->nroots;
	return t->roots;
}

uint32_t tree_find(const struct tree *t, unsigned long uid)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->node[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nr && t->node[lo].uid == uid ? (uint32_t)lo : TREE_NONE;
}

uint32_t tree_find_ext(const struct tree *t, const char *ext, const char *pid,
		       const char *tid)
{
	uint32_t e = strpool_find(t->sp, ext, strlen(ext)), th;
	size_t lp = strlen(pid), lt = strlen(tid);
	char *key = xmalloc(lp + lt + 2);

	tl_memcpy(key, pid, lp);
	key[lp] = '\t';
	tl_memcpy(key + lp + 1, tid, lt + 1);
	th = strpool_find(t->threads, key, lp + lt + 1);
	free(key);
	if (!*ext || e == UINT32_MAX || th == UINT32_MAX || !*pid || !*tid)
		return TREE_NONE;
	for (size_t i = 0; i < t->nr; i++)
		if (t->node[i].ext == e && t->node[i].pidtid == th)
			return (uint32_t)i;
	return TREE_NONE;
}

struct tree_stats tree_stats(const struct tree *t)
{
	struct tree_stats st;

	memset(&st, 0, sizeof(st));
	st.events = t->events;
	st.nodes = t->nr;
	st.roots = t->nroots;
	st.dropped = t->dropped;
	st.untimed = t->untimed;
	st.key = t->key == KEY_CORR ? "correlation" : "External id";
	for (size_t i = 0; i < t->nr; i++) {
		const struct tree_node *n = &t->node[i];
		st.host += (n->flags & TN_HOST) != 0;
		if (tree_is_gpu(n)) {
			st.gpu++;
			st.gpu_linked += (n->flags & TN_TREE) != 0;
		}
		if (n->kind == TK_RUNTIME || n->kind == TK_DRIVER) {
			st.runtime++;
			st.runtime_linked += n->link == TLK_LINKED || n->link == TLK_GRAPH;
		}
	}
	return st;
}

/* ---- busy times --------------------------------------------------------- */

/* The walks' scratch space, one per thread asking (the tree stays const). */
struct tree_walk {
	double *iv;
	size_t aiv;
	uint32_t *stk;
	size_t astk;
	/* the last tree_gpu_busy() answer: busy_node's busy time */
	uint32_t busy_node;
	double busy_val;
};

struct tree_walk *tree_walk_new(void)
{
	struct tree_walk *w = xcalloc(1, sizeof(*w));

	w->busy_node = TREE_NONE;
	return w;
}

void tree_walk_free(struct tree_walk *w)
{
	if (!w)
		return;
	free(w->iv);
	free(w->stk);
	free(w);
}

static int by_start(const void *a, const void *b)
{
	const double *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* merge_intervals then sum(end - start), left to right (spec §3.2) */
static double busy(double *iv, size_t n)
{
	double total = 0, s, e;
	size_t i;

	if (!n)
		return 0;
	tl_qsort(iv, n, 2 * sizeof(*iv), by_start);
	s = iv[0];
	e = iv[1];
	for (i = 1; i < n; i++) {
		if (iv[2 * i] <= e) {
			if (iv[2 * i + 1] > e)
				e = iv[2 * i + 1];
		} else {
			total += e - s;
			s = iv[2 * i];
			e = iv[2 * i + 1];
		}
	}
	return total + (e - s);
}

/*
 * Collects the intervals of the linked events in i's subtree; with
 * launcher != TREE_NONE only those attributed to it.  Returns their number.
 */
static size_t gather(const struct tree *t, struct tree_walk *w, uint32_t i, uint32_t launcher,
		     size_t *count)
{
	size_t nstk = 0, niv = 0;

	*count = 0;
	xgrow((void **)&w->stk, &w->astk, 1, sizeof(*w->stk));
	w->stk[nstk++] = i;
	while (nstk) {
		const struct tree_node *n = &t->node[w->stk[--nstk]];
		uint32_t c;

		for (c = n->first_child; c != TREE_NONE; c = t->node[c].next_sibling) {
			const struct tree_node *cn = &t->node[c];
			if (cn->flags & TN_HOST) {
				xgrow((void **)&w->stk, &w->astk, nstk + 1, sizeof(*w->stk));
				w->stk[nstk++] = c;
				continue;
			}
			if (launcher != TREE_NONE && cn->launcher != launcher)
				continue;
			++*count;
			if (!(cn->flags & TN_TIMED))
				continue;
			xgrow((void **)&w->iv, &w->aiv, 2 * niv + 2, sizeof(*w->iv));
			w->iv[2 * niv] = cn->ts;
			w->iv[2 * niv + 1] = t_end(cn);
			niv++;
		}
	}
	return niv;
}

/* Is c the only node in p's child list, and a host node (walked through)? */
static int only_child(const struct tree *t, uint32_t p, uint32_t c)
{
	return t->node[p].first_child == c && t->node[c].next_sibling == TREE_NONE &&
	       (t->node[c].flags & TN_HOST);
}

/*
 * A node whose child list is one host node gathers exactly that child's
 * intervals, so the two have one busy time.  The rows come in trace order
 * (parents first) or, from tree_view, either way; remembering the last
 * answer lets a chain of nested ops reuse it a step at a time instead of
 * walking the rest of the chain for each op: a 100000-deep chain took
 * tl-tree 37 s (quadratic), now a walk per chain.
 */
double tree_gpu_busy(const struct tree *t, struct tree_walk *w, uint32_t i)
{
	size_t count, n;
	uint32_t m = w->busy_node;

	if (!t->node[i].gpu_n)
		return 0;
	if (m != TREE_NONE && (m == i || only_child(t, m, i) || only_child(t, i, m))) {
		w->busy_node = i;
		return w->busy_val;
	}
	n = gather(t, w, i, TREE_NONE, &count);
	w->busy_node = i;
	w->busy_val = busy(w->iv, n);
	return w->busy_val;
}

double tree_kernel_direct(const struct tree *t, struct tree_walk *w, uint32_t i, uint32_t *cnt)
{
	size_t count, n;

	*cnt = 0;
	if (!(t->node[i].flags & TN_LAUNCHER))
		return -1;
	n = gather(t, w, i, i, &count);
	*cnt = (uint32_t)count;
	return busy(w->iv, n);
}
