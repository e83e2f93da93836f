/*
 * tree_graft: a built tree copied into editable nodes; see tree_graft.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hmap.h"
#include "json_value.h"
#include "stream.h"
#include "strpool.h"
#include "tree_graft.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* One name of name2event_uids. */
struct gname {
	uint32_t name;
	uint32_t *nodes;
	size_t n, alloc;
};

/* Texts of one row that graft_note_row kept, indexed by uid. */
struct rowtext {
	uint32_t stream, corr, kernel, extra;
};

struct graft {
	struct tree *t;
	struct strpool *sp;
	struct gnode *n;
	size_t nn, an, nbase;
	uint32_t elements;
	uint32_t *roots;
	size_t nroots, aroots;
	struct gname *names;
	size_t nnames, anames;
	struct hmap name_slot;		/* name id + 1 → names[] index */
	/* graft_note_row: the rows with a text, found by uid (uids may be
	 * sparse: a dense array by uid could be any size) */
	struct rowtext *rt;
	size_t nrt, art;
	struct hmap rt_of;		/* uid → rt[] index */
	struct graft_event *ann, *gl;
	size_t nann, aann, ngl, agl;
	int c_stream, c_concrete, c_dims, cols_known;
};

struct graft *graft_new(void)
{
	struct graft *g = xcalloc(1, sizeof(*g));

	g->sp = strpool_new();
	return g;
}

static void drop_nodes(struct graft *g);

void graft_free(struct graft *g)
{
	if (!g)
		return;
	drop_nodes(g);
	free(g->names);
	hmap_release(&g->name_slot);
	free(g->n);
	free(g->roots);
	free(g->rt);
	hmap_release(&g->rt_of);
	free(g->ann);
	free(g->gl);
	tree_free(g->t);
	strpool_free(g->sp);
	free(g);
}

uint32_t graft_intern(struct graft *g, const char *s)
{
	return strpool_intern(g->sp, s, strlen(s));
}

const char *graft_str(const struct graft *g, uint32_t id)
{
	return strpool_str(g->sp, id);
}

/* ---- pass 1: the texts the tree does not keep ------------------------- */

/* row uid's texts, made empty where it has none yet */
static struct rowtext *rowtext(struct graft *g, uint32_t uid)
{
	uint32_t i;

	if (hmap_get(&g->rt_of, uid, &i))
		return &g->rt[i];
	xgrow((void **)&g->rt, &g->art, g->nrt + 1, sizeof(*g->rt));
	memset(&g->rt[g->nrt], 0, sizeof(*g->rt));
	hmap_put(&g->rt_of, uid, (uint32_t)g->nrt);
	return &g->rt[g->nrt++];
}

static uint32_t field_id(struct graft *g, const struct stream *s, int col)
{
	return col < 0 ? 0 : strpool_intern(g->sp, stream_field(s, col), stream_field_len(s, col));
}

/* args.kernel of a capture launch: the kernel it captured */
static uint32_t args_kernel(struct graft *g, const char *args)
{
	struct json_value *v;
	const struct json_value *k;
	uint32_t id = 0;

	if (!strstr(args, "\"kernel\""))
		return 0;
	v = json_value_parse(args, strlen(args));
	k = json_value_get(v, "kernel");
	/* a non-string kernel never equals a name: keep it as "\1" */
	if (k)
		id = k->type == JV_STR ? strpool_intern(g->sp, k->s, k->len) :
					 strpool_intern(g->sp, "\1", 1);
	json_value_free(v);
	return id;
}

static void keep_event(struct graft *g, struct graft_event **v, size_t *n, size_t *alloc,
		       unsigned long uid, const struct stream *s, const struct tree_cols *c)
{
	struct graft_event *e;
	const char *ts = stream_field(s, c->ts), *dur = stream_field(s, c->dur);

	xgrow((void **)v, alloc, *n + 1, sizeof(**v));
	e = &(*v)[(*n)++];
	e->uid = (uint32_t)uid;
	e->name = field_id(g, s, c->name);
	e->ts = *ts ? field_id(g, s, c->ts) : 0;
	e->dur = *dur ? field_id(g, s, c->dur) : 0;
	e->tsv = *ts ? strtod(ts, NULL) : 0;
	e->durv = *dur ? strtod(dur, NULL) : 0;
}

void graft_note_row(struct graft *g, const struct stream *s, const struct tree_cols *c)
{
	const char *u = stream_field(s, c->uid), *cat = stream_field(s, c->cat),
		   *name = stream_field(s, c->name);
	unsigned long uid = strtoul(u, NULL, 10);
	struct rowtext r = { 0, 0, 0, 0 };

	if (uid >= UINT32_MAX)
		return;
	if (!g->cols_known) {
		g->c_stream = stream_col(s, "stream");
		g->c_concrete = stream_col(s, "concrete");
		g->c_dims = stream_col(s, "dims");
		g->cols_known = 1;
	}
	if (*stream_field(s, c->corr))
		r.corr = field_id(g, s, c->corr);
	if (g->c_stream >= 0 && *stream_field(s, g->c_stream))
		r.stream = field_id(g, s, g->c_stream);
	if (!strcmp(cat, "cuda_runtime") || !strcmp(cat, "cuda_driver"))
		r.kernel = args_kernel(g, stream_field(s, c->args));
	if (strstr(name, "TopK"))
		r.extra = field_id(g, s, g->c_concrete);
	else if (!strcmp(name, "vllm::outplace_fused_experts"))
		r.extra = field_id(g, s, g->c_dims);
	if (r.corr || r.stream || r.kernel || r.extra)
		*rowtext(g, (uint32_t)uid) = r;
	if (!strcmp(cat, "user_annotation"))
		keep_event(g, &g->ann, &g->nann, &g->aann, uid, s, c);
	if (strcasestr(name, "graphlaunch"))
		keep_event(g, &g->gl, &g->ngl, &g->agl, uid, s, c);
}

const struct graft_event *graft_annotations(const struct graft *g, size_t *n)
{
	*n = g->nann;
	return g->ann;
}

const struct graft_event *graft_launches(const struct graft *g, size_t *n)
{
	*n = g->ngl;
	return g->gl;
}

static const struct rowtext *rt_get(const struct graft *g, uint32_t uid)
{
	static const struct rowtext none;
	uint32_t i;

	return hmap_get(&g->rt_of, uid, &i) ? &g->rt[i] : &none;
}

uint32_t graft_row_stream(const struct graft *g, uint32_t uid) { return rt_get(g, uid)->stream; }
uint32_t graft_row_kernel(const struct graft *g, uint32_t uid) { return rt_get(g, uid)->kernel; }
uint32_t graft_row_topk(const struct graft *g, uint32_t uid) { return rt_get(g, uid)->extra; }
uint32_t graft_row_dims(const struct graft *g, uint32_t uid) { return rt_get(g, uid)->extra; }

static uint32_t reintern(struct graft *g, const struct graft *src, uint32_t id)
{
	return id ? strpool_intern(g->sp, strpool_str(src->sp, id), strpool_len(src->sp, id)) : 0;
}

void graft_copy_row(struct graft *g, uint32_t uid, const struct graft *src, uint32_t suid)
{
	struct rowtext t = *rt_get(src, suid);	/* before rowtext() may move g->rt */

	t.stream = reintern(g, src, t.stream);
	t.corr = reintern(g, src, t.corr);
	t.kernel = reintern(g, src, t.kernel);
	t.extra = reintern(g, src, t.extra);
	*rowtext(g, uid) = t;
}

/* ---- the copy of the built tree ------------------------------------- */

static struct gnode *new_node(struct graft *g)
{
	struct gnode *n;

	xgrow((void **)&g->n, &g->an, g->nn + 1, sizeof(*g->n));
	n = &g->n[g->nn++];
	memset(n, 0, sizeof(*n));
	n->parent = GN_NONE;
	n->from = GN_NONE;
	return n;
}

static void push(uint32_t **v, uint32_t *n, uint32_t *alloc, uint32_t x)
{
	size_t a = *alloc;

	xgrow((void **)v, &a, (size_t)*n + 1, sizeof(**v));
	*alloc = (uint32_t)a;
	(*v)[(*n)++] = x;
}

void graft_name_append(struct graft *g, uint32_t name, uint32_t node)
{
	uint32_t slot;
	struct gname *e;

	if (!hmap_get(&g->name_slot, (uint64_t)name + 1, &slot)) {
		xgrow((void **)&g->names, &g->anames, g->nnames + 1, sizeof(*g->names));
		slot = (uint32_t)g->nnames++;
		memset(&g->names[slot], 0, sizeof(g->names[slot]));
		g->names[slot].name = name;
		hmap_put(&g->name_slot, (uint64_t)name + 1, slot);
	}
	e = &g->names[slot];
	xgrow((void **)&e->nodes, &e->alloc, e->n + 1, sizeof(*e->nodes));
	e->nodes[e->n++] = node;
}

static const struct tree *sort_t;

/* the build's sweep order: host events by ts, ties in uid order */
static int by_sweep(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	double x = tree_at(sort_t, i)->ts, y = tree_at(sort_t, j)->ts;

	if (x != y)
		return x < y ? -1 : 1;
	return (i > j) - (i < j);
}

/* name2event_uids as build_tree fills it: the ts sweep, then GPU links */
static void index_names(struct graft *g)
{
	size_t nr = tree_count(g->t), nh = 0;
	uint32_t *ord = xmalloc(st_mult(nr + 1, sizeof(*ord)));

	for (uint32_t i = 0; i < nr; i++)
		if (tree_at(g->t, i)->flags & TN_HOST)
			ord[nh++] = i;
	sort_t = g->t;
	tl_qsort(ord, nh, sizeof(*ord), by_sweep);
	for (size_t k = 0; k < nh; k++)
		graft_name_append(g, g->n[ord[k]].name, ord[k]);
	free(ord);
	for (uint32_t r = 0; r < nr; r++) {
		const struct tree_node *rn = tree_at(g->t, r);
		if (rn->kind != TK_RUNTIME && rn->kind != TK_DRIVER)
			continue;
		for (uint32_t c = rn->first_child; c != TREE_NONE; c = tree_at(g->t, c)->next_sibling)
			if (tree_is_gpu(tree_at(g->t, c)) && tree_at(g->t, c)->parent == r)
				graft_name_append(g, g->n[c].name, c);
	}
}

static void drop_nodes(struct graft *g)
{
	for (size_t i = 0; i < g->nn; i++) {
		free(g->n[i].kids);
		free(g->n[i].gev);
	}
	for (size_t i = 0; i < g->nnames; i++)
		free(g->names[i].nodes);
	g->nn = g->nnames = g->nroots = 0;
	hmap_clear(&g->name_slot);
}

void graft_reset(struct graft *g)
{
	drop_nodes(g);
	graft_attach(g, g->t, g->elements);
}

void graft_attach(struct graft *g, struct tree *t, uint32_t elements)
{
	size_t nr = tree_count(t), nroots;
	const uint32_t *roots = tree_roots(t, &nroots);

	g->t = t;
	g->elements = elements;
	for (uint32_t i = 0; i < nr; i++) {
		const struct tree_node *tn = tree_at(t, i);
		struct gnode *n = new_node(g);
		n->ts = tn->ts;
		n->dur = tn->dur;
		n->uid = tn->uid;
		n->parent = tn->parent;
		n->name = graft_intern(g, tree_str(t, tn->name));
		n->from = i;
		n->kind = tn->kind;
		n->link = tn->link;
		n->origin = GO_TRACE;
		n->corr = rt_get(g, tn->uid)->corr;
		n->thread = graft_intern(g, tree_thread(t, i));
		n->flags = GF_BUILD;
		if (tn->flags & TN_TREE)
			n->flags |= GF_TREE;
		if (tn->flags & TN_DROP)
			n->flags |= GF_DROP;
		if (tn->flags & TN_NOTHREAD)
			n->flags |= GF_NOTHREAD;
		/* build-time gpu_events: runtime calls and their ancestors */
		if (tn->gpu_n)
			n->flags |= GF_HASGEV;
	}
	for (uint32_t i = 0; i < nr; i++) {
		const struct tree_node *tn = tree_at(t, i);
		for (uint32_t c = tn->first_child; c != TREE_NONE; c = tree_at(t, c)->next_sibling)
			push(&g->n[i].kids, &g->n[i].nkids, &g->n[i].akids, c);
	}
	g->nbase = g->nn;
	for (size_t k = 0; k < nroots; k++)
		graft_root_append(g, roots[k]);
	index_names(g);
}

size_t graft_count(const struct graft *g) { return g->nn; }
struct gnode *graft_at(const struct graft *g, uint32_t i) { return &g->n[i]; }
const struct tree *graft_tree(const struct graft *g) { return g->t; }
const char *graft_name(const struct graft *g, uint32_t i) { return graft_str(g, g->n[i].name); }

uint32_t graft_next_uid(const struct graft *g)
{
	return g->elements + (uint32_t)(g->nn - g->nbase);
}

uint32_t graft_find(const struct graft *g, uint32_t uid)
{
	uint32_t i;

	if (uid >= g->elements) {
		size_t k = g->nbase + (uid - g->elements);
		return k < g->nn ? (uint32_t)k : GN_NONE;
	}
	i = tree_find(g->t, uid);
	return i == TREE_NONE ? GN_NONE : i;
}

uint32_t graft_add(struct graft *g, int kind, int origin, const char *name)
{
	uint32_t uid = graft_next_uid(g);
	struct gnode *n = new_node(g);

	n->uid = uid;
	n->kind = (uint8_t)kind;
	n->origin = (uint8_t)origin;
	n->name = graft_intern(g, name);
	n->flags = GF_TREE;
	return (uint32_t)(g->nn - 1);
}

int graft_is_gpu(const struct gnode *n)
{
	return n->kind == TK_KERNEL || n->kind == TK_MEMCPY || n->kind == TK_MEMSET;
}

/* ---- children --------------------------------------------------------- */

void graft_kids_set(struct graft *g, uint32_t i, const uint32_t *kids, uint32_t n)
{
	struct gnode *x = &g->n[i];

	x->nkids = 0;
	for (uint32_t k = 0; k < n; k++)
		push(&x->kids, &x->nkids, &x->akids, kids[k]);
	x->flags |= GF_KIDS;
}

void graft_kid_append(struct graft *g, uint32_t i, uint32_t kid)
{
	struct gnode *x = &g->n[i];

	push(&x->kids, &x->nkids, &x->akids, kid);
	x->flags |= GF_KIDS;
}

int graft_kid_index(const struct graft *g, uint32_t i, uint32_t kid)
{
	const struct gnode *x = &g->n[i];

	for (uint32_t k = 0; k < x->nkids; k++)
		if (x->kids[k] == kid)
			return (int)k;
	return -1;
}

int graft_kid_remove(struct graft *g, uint32_t i, uint32_t kid)
{
	struct gnode *x = &g->n[i];
	int k = graft_kid_index(g, i, kid);

	if (k < 0)
		return -1;
	tl_memmove(x->kids + k, x->kids + k + 1, (x->nkids - (uint32_t)k - 1) * sizeof(*x->kids));
	x->nkids--;
	x->flags |= GF_KIDS;
	return 0;
}

/* ---- gpu_events --------------------------------------------------------- */

static int by_runtime(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t px = tree_at(sort_t, x)->parent, py = tree_at(sort_t, y)->parent;

	if (px != py)
		return px < py ? -1 : 1;
	return (x > y) - (x < y);
}

/* The build-time list: GPU events under i in the tree as built, in the
 * order add_gpu_ops_to_tree appended them (runtime call, then link). */
static uint32_t *build_gev(const struct graft *g, uint32_t i, uint32_t *n, uint32_t *alloc)
{
	const struct tree *t = g->t;
	uint32_t *stk = NULL, *out = NULL, ns = 0, as = 0;

	*n = 0;
	push(&stk, &ns, &as, i);
	while (ns) {
		const struct tree_node *x = tree_at(t, stk[--ns]);
		for (uint32_t c = x->first_child; c != TREE_NONE; c = tree_at(t, c)->next_sibling) {
			const struct tree_node *cn = tree_at(t, c);
			if (tree_is_gpu(cn))
				push(&out, n, alloc, c);
			else if (cn->flags & TN_HOST)
				push(&stk, &ns, &as, c);
		}
	}
	free(stk);
	sort_t = t;
	if (*n)
		tl_qsort(out, *n, sizeof(*out), by_runtime);
	return out;
}

uint32_t *graft_gpu_events(const struct graft *g, uint32_t i, uint32_t *n)
{
	const struct gnode *x = &g->n[i];
	uint32_t *out = NULL, alloc = 0;

	*n = 0;
	if ((x->flags & GF_BUILD) && tree_at(g->t, x->from)->gpu_n)
		out = build_gev(g, x->from, n, &alloc);
	for (uint32_t k = 0; k < x->ngev; k++)
		push(&out, n, &alloc, x->gev[k]);
	return out;
}

void graft_gev_append(struct graft *g, uint32_t i, uint32_t gpu)
{
	struct gnode *x = &g->n[i];

	push(&x->gev, &x->ngev, &x->agev, gpu);
	x->flags |= GF_HASGEV;
}

void graft_gev_set(struct graft *g, uint32_t i, const uint32_t *gev, uint32_t n)
{
	struct gnode *x = &g->n[i];

	x->flags &= (uint16_t)~GF_BUILD;
	x->ngev = 0;
	for (uint32_t k = 0; k < n; k++)
		push(&x->gev, &x->ngev, &x->agev, gev[k]);
	x->flags |= GF_HASGEV;
}

int graft_non_gpu(const struct graft *g, uint32_t i)
{
	return !(g->n[i].flags & GF_HASGEV);
}

/* ---- cpu_root_nodes --------------------------------------------------- */

const uint32_t *graft_roots(const struct graft *g, size_t *n)
{
	*n = g->nroots;
	return g->roots;
}

void graft_root_append(struct graft *g, uint32_t i)
{
	xgrow((void **)&g->roots, &g->aroots, g->nroots + 1, sizeof(*g->roots));
	g->roots[g->nroots++] = i;
}

void graft_root_remove(struct graft *g, uint32_t i)
{
	for (size_t k = 0; k < g->nroots; k++)
		if (g->roots[k] == i) {
			tl_memmove(g->roots + k, g->roots + k + 1, (g->nroots - k - 1) * sizeof(*g->roots));
			g->nroots--;
			return;
		}
}

/* ---- name2event_uids ---------------------------------------------------- */

size_t graft_names(const struct graft *g) { return g->nnames; }
uint32_t graft_names_name(const struct graft *g, size_t k) { return g->names[k].name; }

const uint32_t *graft_names_nodes(const struct graft *g, size_t k, size_t *n)
{
	*n = g->names[k].n;
	return g->names[k].nodes;
}

const uint32_t *graft_named(const struct graft *g, const char *name, size_t *n)
{
	uint32_t id = strpool_find(g->sp, name, strlen(name)), slot;

	*n = 0;
	if (id == UINT32_MAX || !hmap_get(&g->name_slot, (uint64_t)id + 1, &slot))
		return NULL;
	*n = g->names[slot].n;
	return g->names[slot].nodes;
}

void graft_rename(struct graft *g, const char *old, const char *new)
{
	uint32_t oid = strpool_find(g->sp, old, strlen(old)), nid = graft_intern(g, new), slot;
	struct gname e;

	if (oid == UINT32_MAX || !hmap_get(&g->name_slot, (uint64_t)oid + 1, &slot))
		return;
	e = g->names[slot];
	/* del name2event_uids[old]: later slots move up */
	tl_memmove(g->names + slot, g->names + slot + 1, (g->nnames - slot - 1) * sizeof(*g->names));
	g->nnames--;
	hmap_clear(&g->name_slot);
	for (size_t k = 0; k < g->nnames; k++)
		hmap_put(&g->name_slot, (uint64_t)g->names[k].name + 1, (uint32_t)k);
	for (size_t k = 0; k < e.n; k++) {
		g->n[e.nodes[k]].name = nid;
		g->n[e.nodes[k]].flags |= GF_RENAMED;
		graft_name_append(g, nid, e.nodes[k]);
	}
	free(e.nodes);
}
