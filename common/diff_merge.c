#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_merge.h"
#include "display.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

#define UNSET (NT_NONE - 1)

struct vec {
	uint32_t *v;
	size_t n, alloc;
};

static void vpush(struct vec *a, uint32_t x)
{
	xgrow((void **)&a->v, &a->alloc, a->n + 1, sizeof(*a->v));
	a->v[a->n++] = x;
}

static void vfree(struct vec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->alloc = 0;
}

static void vswap(struct vec *a, struct vec *b)
{
	struct vec t = *a;
	*a = *b;
	*b = t;
}

static const struct tree_read_node *node(const struct diff_merge *tm, int side, uint32_t uid)
{
	return &tm->t[side]->n[uid];
}

static int gpu_path(const struct diff_merge *tm, int side, uint32_t uid)
{
	return uid != NT_NONE && (node(tm, side, uid)->flags & NT_GPU_PATH);
}

struct diff_merge *diff_merge_new(struct tree_read *t1, struct tree_read *t2)
{
	struct diff_merge *tm = xcalloc(1, sizeof(*tm));
	struct strpool *sp = t1->sp;

	tm->t[0] = t1;
	tm->t[1] = t2;
	for (int s = 0; s < 2; s++) {
		tm->norm[s] = xmalloc(st_mult((size_t)tm->t[s]->nr + 1, sizeof(uint32_t)));
		for (uint32_t u = 0; u < tm->t[s]->nr; u++)
			tm->norm[s][u] = UNSET;
	}
	tm->glaunch[0] = strpool_intern(sp, "cudaGraphLaunch", 15);
	tm->glaunch[1] = strpool_intern(sp, "hipGraphLaunch", 14);
	opname_init(&tm->on);
	return tm;
}

void diff_merge_free(struct diff_merge *tm)
{
	if (!tm)
		return;
	free(tm->m);
	free(tm->kids);
	free(tm->roots);
	free(tm->norm[0]);
	free(tm->norm[1]);
	free(tm->name_norm[0]);
	free(tm->name_norm[1]);
	hmap_release(&tm->memo);
	opname_release(&tm->on);
	free(tm);
}

const char *diff_merge_op_name(const struct diff_merge *tm, int side, uint32_t uid,
			   char buf[DIFF_MERGE_UIDBUF])
{
	const struct tree_read *t = tm->t[side];
	uint32_t name = t->n[uid].name;

	if (strpool_len(t->sp, name))
		return strpool_str(t->sp, name);
	snprintf(buf, DIFF_MERGE_UIDBUF, "%u", uid);
	return buf;
}

uint32_t diff_merge_norm(struct diff_merge *tm, int side, uint32_t uid)
{
	struct strpool *sp = tm->t[side]->sp;
	uint32_t name, *slot = &tm->norm[side][uid];
	const char *s;

	if (*slot != UNSET)
		return *slot;
	name = node(tm, side, uid)->name;
	if (!strpool_len(sp, name))
		return *slot = NT_NONE;
	/* a name is normalised once, however many nodes carry it */
	if (name < tm->name_norm_alloc[side] && tm->name_norm[side][name] != UNSET)
		return *slot = tm->name_norm[side][name];
	s = opname_norm(&tm->on, strpool_str(sp, name), strpool_len(sp, name), 0);
	*slot = strpool_intern(sp, s, tm->on.len);
	if (name >= tm->name_norm_alloc[side]) {
		size_t old = tm->name_norm_alloc[side];
		xgrow((void **)&tm->name_norm[side], &tm->name_norm_alloc[side], (size_t)name + 1,
		      sizeof(uint32_t));
		for (size_t k = old; k < tm->name_norm_alloc[side]; k++)
			tm->name_norm[side][k] = UNSET;
	}
	return tm->name_norm[side][name] = *slot;
}

/* The name Wagner-Fischer compares: _get_op_name() normalised. */
static uint32_t wf_name(struct diff_merge *tm, int side, uint32_t uid, int strip)
{
	struct strpool *sp = tm->t[side]->sp;
	char buf[DIFF_MERGE_UIDBUF];
	const char *raw;

	if (!strip && strpool_len(sp, node(tm, side, uid)->name))
		return diff_merge_norm(tm, side, uid);
	raw = diff_merge_op_name(tm, side, uid, buf);
	raw = opname_norm(&tm->on, raw, strlen(raw), strip);
	return strpool_intern(sp, raw, tm->on.len);
}

static int is_graph_launch(const struct diff_merge *tm, const struct tree_read_node *n)
{
	return n->name == tm->glaunch[0] || n->name == tm->glaunch[1];
}

/* cuda_runtime / cuda_driver, graph launches excepted */
static int is_dispatch(const struct diff_merge *tm, int side, uint32_t uid)
{
	const struct tree_read_node *n = node(tm, side, uid);
	return (n->cat == NT_RUNTIME || n->cat == NT_DRIVER) && !is_graph_launch(tm, n);
}

static int any_dispatch(const struct diff_merge *tm, int side, const uint32_t *c, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (is_dispatch(tm, side, c[k]))
			return 1;
	return 0;
}

static void gpu_kids(const struct diff_merge *tm, int side, uint32_t uid, struct vec *out)
{
	const struct tree_read *t = tm->t[side];
	const struct tree_read_node *n = &t->n[uid];

	out->n = 0;
	for (uint32_t k = 0; k < n->nkid; k++)
		if (t->n[t->kids[n->kid + k]].flags & NT_GPU_PATH)
			vpush(out, t->kids[n->kid + k]);
}

/* Python's sorted(nodes, key=ts): stable, missing ts counts as 0. */
struct tsref {
	double ts;
	size_t pos;
	uint32_t uid;
};

static int cmp_tsref(const void *a, const void *b)
{
	const struct tsref *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void sort_by_ts(const struct diff_merge *tm, int side, struct vec *v)
{
	struct tsref *r;

	if (v->n < 2)
		return;
	r = xmalloc(st_mult(v->n, sizeof(*r)));
	for (size_t k = 0; k < v->n; k++) {
		const struct tree_read_node *n = node(tm, side, v->v[k]);
		r[k].ts = (n->flags & NT_HAS_TS) ? n->ts : 0.0;
		r[k].pos = k;
		r[k].uid = v->v[k];
	}
	tl_qsort(r, v->n, sizeof(*r), cmp_tsref);
	for (size_t k = 0; k < v->n; k++)
		v->v[k] = r[k].uid;
	free(r);
}

static uint64_t name_key(uint32_t name)
{
	return (uint64_t)name + 1;
}

/*
 * get_children_with_missing: GPU-path children of each side, plus for a
 * name found on one side's GPU path only, the other side's (last) child of
 * that name even if it is off the GPU path.
 */
static void add_missing(struct diff_merge *tm, int side, uint32_t u, const struct vec *g,
			const struct vec *other, struct vec *out)
{
	const struct tree_read *t = tm->t[side];
	struct hmap mine = HMAP_INIT, last = HMAP_INIT, done = HMAP_INIT;
	const struct tree_read_node *n;
	uint32_t v;

	if (u == NT_NONE)
		return;
	n = &t->n[u];
	for (size_t k = 0; k < g->n; k++)
		hmap_put(&mine, name_key(diff_merge_norm(tm, side, g->v[k])), 1);
	for (uint32_t k = 0; k < n->nkid; k++) {
		uint32_t c = t->kids[n->kid + k];
		hmap_put(&last, name_key(diff_merge_norm(tm, side, c)), c);
	}
	for (size_t k = 0; k < other->n; k++) {
		uint64_t key = name_key(diff_merge_norm(tm, !side, other->v[k]));
		if (hmap_get(&mine, key, NULL) || hmap_get(&done, key, NULL))
			continue;
		hmap_put(&done, key, 1);
		if (hmap_get(&last, key, &v))
			vpush(out, v);
	}
	hmap_release(&mine);
	hmap_release(&last);
	hmap_release(&done);
}

static void children_with_missing(struct diff_merge *tm, uint32_t u1, uint32_t u2,
				  struct vec *c1, struct vec *c2)
{
	struct vec g1 = { 0 }, g2 = { 0 };

	if (u1 != NT_NONE)
		gpu_kids(tm, 0, u1, &g1);
	if (u2 != NT_NONE)
		gpu_kids(tm, 1, u2, &g2);
	for (size_t k = 0; k < g1.n; k++)
		vpush(c1, g1.v[k]);
	for (size_t k = 0; k < g2.n; k++)
		vpush(c2, g2.v[k]);
	add_missing(tm, 1, u2, &g2, &g1, c2);
	add_missing(tm, 0, u1, &g1, &g2, c1);
	sort_by_ts(tm, 0, c1);
	sort_by_ts(tm, 1, c2);
	vfree(&g1);
	vfree(&g2);
}

/*
 * collapse_single_gpu_child: go down through nodes with exactly one
 * GPU-path child; stop at a launching runtime call, at a cpu_op that
 * launches directly, or at a node with 0 or 2+ GPU-path children (whose
 * children are returned in kids).
 */
static uint32_t collapse(struct diff_merge *tm, int side, uint32_t uid, struct vec *kids)
{
	const struct tree_read *t = tm->t[side];
	struct vec g = { 0 };
	uint32_t cur = uid;

	kids->n = 0;
	for (;;) {
		const struct tree_read_node *n = &t->n[cur];
		if (is_dispatch(tm, side, cur))
			break;
		if (n->cat == NT_CPU_OP && any_dispatch(tm, side, t->kids + n->kid, n->nkid))
			break;
		gpu_kids(tm, side, cur, &g);
		if (g.n != 1) {
			for (size_t k = 0; k < g.n; k++)
				vpush(kids, g.v[k]);
			break;
		}
		cur = g.v[0];
	}
	vfree(&g);
	return cur;
}

/* ---- same-name disambiguation (_disambiguate_same_name_candidates) ---- */

struct levels {
	struct vec names;
	uint32_t off[5];
	int n;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Sorted GPU-path child names at BFS depths 1..4 below uid. */
static void bfs_levels(struct diff_merge *tm, int side, uint32_t uid, struct levels *lv)
{
	const struct tree_read *t = tm->t[side];
	struct vec front = { 0 }, next = { 0 };

	lv->names.n = 0;
	lv->n = 0;
	lv->off[0] = 0;
	vpush(&front, uid);
	for (int d = 0; d < 4; d++) {
		next.n = 0;
		for (size_t k = 0; k < front.n; k++) {
			const struct tree_read_node *n = &t->n[front.v[k]];
			for (uint32_t c = 0; c < n->nkid; c++) {
				uint32_t ch = t->kids[n->kid + c];
				if (!(t->n[ch].flags & NT_GPU_PATH))
					continue;
				vpush(&next, ch);
				vpush(&lv->names, diff_merge_norm(tm, side, ch));
			}
		}
		if (lv->names.n > lv->off[d])	/* never tl_qsort(NULL, 0) */
			tl_qsort(lv->names.v + lv->off[d], lv->names.n - lv->off[d],
			      sizeof(uint32_t), cmp_u32);
		lv->off[d + 1] = (uint32_t)lv->names.n;
		lv->n = d + 1;
		vswap(&front, &next);
		if (!front.n)
			break;
	}
	vfree(&front);
	vfree(&next);
}

/* (first differing level, multiset overlap there); (max levels, 0) if none */
static void match_depth(const struct levels *a, const struct levels *b, int *depth, int *overlap)
{
	int maxd = a->n > b->n ? a->n : b->n;

	for (int d = 0; d < maxd; d++) {
		size_t nx = d < a->n ? a->off[d + 1] - a->off[d] : 0;
		size_t ny = d < b->n ? b->off[d + 1] - b->off[d] : 0;
		/* names.v is NULL where no level has a name: no pointer made then */
		const uint32_t *x = nx ? a->names.v + a->off[d] : NULL;
		const uint32_t *y = ny ? b->names.v + b->off[d] : NULL;
		size_t i = 0, j = 0;
		int ov = 0;
		if (nx == ny && (!nx || !memcmp(x, y, nx * sizeof(*x))))
			continue;
		while (i < nx && j < ny) {
			if (x[i] == y[j])
				ov++, i++, j++;
			else if (x[i] < y[j])
				i++;
			else
				j++;
		}
		*depth = d;
		*overlap = ov;
		return;
	}
	*depth = maxd;
	*overlap = 0;
}

struct scored {
	int depth, overlap, not_orig;
	int32_t i, j;
};

static int cmp_scored(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;
	if (x->depth != y->depth)
		return y->depth - x->depth;
	if (x->overlap != y->overlap)
		return y->overlap - x->overlap;
	if (x->not_orig != y->not_orig)
		return x->not_orig - y->not_orig;
	if (x->i != y->i)
		return x->i - y->i;
	return x->j - y->j;
}

struct group {
	uint32_t name;
	struct vec i1, i2;
	int matched;
};

static uint64_t pair_key(int32_t i, int32_t j)
{
	return (((uint64_t)(uint32_t)i << 32) | (uint32_t)j) + 1;
}

/* Greedy best-pairs for one ambiguous name; marks results in the arrays. */
static void resolve_group(struct diff_merge *tm, struct group *g, const uint32_t *c1,
			  const uint32_t *c2, const struct hmap *orig, struct vec *nm,
			  uint8_t *del1, uint8_t *ins2)
{
	size_t n1 = g->i1.n, n2 = g->i2.n, np = 0, want = n1 < n2 ? n1 : n2, got = 0;
	struct levels *l1 = xcalloc(n1, sizeof(*l1)), *l2 = xcalloc(n2, sizeof(*l2));
	struct scored *sp = xmalloc(st_mult(st_mult(n1, n2), sizeof(*sp)));
	uint8_t *a1 = xcalloc(n1, 1), *a2 = xcalloc(n2, 1);

	tl_qsort(g->i1.v, n1, sizeof(uint32_t), cmp_u32);
	tl_qsort(g->i2.v, n2, sizeof(uint32_t), cmp_u32);
	for (size_t a = 0; a < n1; a++)
		bfs_levels(tm, 0, c1[g->i1.v[a]], &l1[a]);
	for (size_t b = 0; b < n2; b++)
		bfs_levels(tm, 1, c2[g->i2.v[b]], &l2[b]);
	for (size_t a = 0; a < n1; a++)
		for (size_t b = 0; b < n2; b++, np++) {
			match_depth(&l1[a], &l2[b], &sp[np].depth, &sp[np].overlap);
			sp[np].i = (int32_t)a;	/* positions; indices are sorted alike */
			sp[np].j = (int32_t)b;
			sp[np].not_orig = !hmap_get(orig, pair_key((int32_t)g->i1.v[a],
								 (int32_t)g->i2.v[b]), NULL);
		}
	tl_qsort(sp, np, sizeof(*sp), cmp_scored);
	for (size_t k = 0; k < np && got < want; k++) {
		if (a1[sp[k].i] || a2[sp[k].j])
			continue;
		a1[sp[k].i] = a2[sp[k].j] = 1;
		vpush(nm, g->i1.v[sp[k].i]);
		vpush(nm, g->i2.v[sp[k].j]);
		got++;
	}
	for (size_t a = 0; a < n1; a++)
		if (!a1[a])
			del1[g->i1.v[a]] = 1;
	for (size_t b = 0; b < n2; b++)
		if (!a2[b])
			ins2[g->i2.v[b]] = 1;
	for (size_t a = 0; a < n1; a++)
		vfree(&l1[a].names);
	for (size_t b = 0; b < n2; b++)
		vfree(&l2[b].names);
	free(l1);
	free(l2);
	free(sp);
	free(a1);
	free(a2);
}

static struct group *group_of(struct hmap *byname, struct group **gs, size_t *ng,
			      size_t *galloc, uint32_t name)
{
	uint32_t k;
	if (hmap_get(byname, name_key(name), &k))
		return &(*gs)[k];
	xgrow((void **)gs, galloc, *ng + 1, sizeof(**gs));
	memset(&(*gs)[*ng], 0, sizeof(**gs));
	(*gs)[*ng].name = name;
	hmap_put(byname, name_key(name), (uint32_t)*ng);
	return &(*gs)[(*ng)++];
}

/* CPython's hash((i, j)) for small non-negative ints (xxHash-based, 3.8+) */
static uint64_t py_tuple_hash(uint32_t i, uint32_t j)
{
	const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL;
	const uint64_t p5 = 2870177450012600261ULL;
	uint64_t acc = p5, lane[2] = { i, j };

	for (int k = 0; k < 2; k++) {
		acc += lane[k] * p2;
		acc = (acc << 31) | (acc >> 33);
		acc *= p1;
	}
	acc += 2 ^ (p5 ^ 3527539ULL);
	return acc == UINT64_MAX ? 1546275796 : acc;
}

/* set_insert_clean / set_add_entry probing (Objects/setobject.c) */
static void pyset_put(uint64_t *hash, int32_t *slot, size_t mask, uint64_t h, int32_t v)
{
	size_t i = (size_t)h & mask, perturb = (size_t)h;

	for (;;) {
		size_t probes = i + 9 <= mask ? 9 : 0;
		for (size_t k = 0; k <= probes; k++)
			if (slot[i + k] < 0) {
				slot[i + k] = v;
				hash[i + k] = h;
				return;
			}
		perturb >>= 5;
		i = (i * 5 + 1 + perturb) & mask;
	}
}

/*
 * Reorders the (i, j) pairs (added in this order) into the iteration order
 * of a CPython set built by set.add(): TraceLens emits its re-paired
 * matches by iterating such a set.
 */
static void pyset_order(uint32_t *pairs, size_t n)
{
	size_t mask = 7, used = 0;
	uint64_t *hash = xcalloc(mask + 1, sizeof(*hash));
	int32_t *slot = xmalloc((mask + 1) * sizeof(*slot));
	uint32_t *out = xmalloc(st_mult(2 * n + 2, sizeof(*out)));

	for (size_t k = 0; k <= mask; k++)
		slot[k] = -1;
	for (size_t k = 0; k < n; k++) {
		pyset_put(hash, slot, mask, py_tuple_hash(pairs[2 * k], pairs[2 * k + 1]), (int32_t)k);
		if (++used * 5 < mask * 3)
			continue;
		/* set_table_resize(so, used * 4): smallest power of 2 > used * 4 */
		size_t nm = 8, om = mask;
		uint64_t *oh = hash;
		int32_t *os = slot;
		while (nm <= used * 4)
			nm <<= 1;
		mask = nm - 1;
		hash = xcalloc(nm, sizeof(*hash));
		slot = xmalloc(nm * sizeof(*slot));
		for (size_t x = 0; x < nm; x++)
			slot[x] = -1;
		for (size_t x = 0; x <= om; x++)
			if (os[x] >= 0)
				pyset_put(hash, slot, mask, oh[x], os[x]);
		free(oh);
		free(os);
	}
	for (size_t x = 0, o = 0; x <= mask; x++)
		if (slot[x] >= 0) {
			out[o++] = pairs[2 * slot[x]];
			out[o++] = pairs[2 * slot[x] + 1];
		}
	tl_memcpy(pairs, out, 2 * n * sizeof(*out));
	free(out);
	free(hash);
	free(slot);
}

static void rebuild_ops(struct diff_align *al, const uint8_t *h1, const uint8_t *h2,
			struct vec *nm, const uint8_t *del1, uint32_t n1,
			const uint8_t *ins2, uint32_t n2)
{
	struct diff_align keep;

	diff_align_init(&keep);
	for (size_t k = 0; k < al->nr; k++) {
		const struct diff_align_op *o = &al->ops[k];
		if ((o->op == DIFF_ALIGN_MATCH && (h1[o->i] || h2[o->j])) ||
		    (o->op == DIFF_ALIGN_DELETE && h1[o->i]) || (o->op == DIFF_ALIGN_INSERT && h2[o->j]))
			continue;
		diff_align_push(&keep, o->op, o->i, o->j);
	}
	/*
	 * TraceLens iterates a Python set of (i, j) here: CPython's table
	 * order, emulated.  With several ambiguous names the pairs are added
	 * name by name in an order Python leaves to string hashing (random per
	 * process); tl-diff uses first appearance (see CAVEATS in tl-diff(1)).
	 */
	pyset_order(nm->v, nm->n / 2);
	for (size_t k = 0; k < nm->n; k += 2)
		diff_align_push(&keep, DIFF_ALIGN_MATCH, (int32_t)nm->v[k], (int32_t)nm->v[k + 1]);
	for (uint32_t i = 0; i < n1; i++)
		if (del1[i])
			diff_align_push(&keep, DIFF_ALIGN_DELETE, (int32_t)i, -1);
	for (uint32_t j = 0; j < n2; j++)
		if (ins2[j])
			diff_align_push(&keep, DIFF_ALIGN_INSERT, -1, (int32_t)j);
	free(al->ops);
	al->ops = keep.ops;
	al->nr = keep.nr;
	al->alloc = keep.alloc;
	free(keep.dp);
}

void diff_merge_pyset_order(uint32_t *pairs, size_t n)
{
	pyset_order(pairs, n);
}

void diff_merge_disambiguate(struct diff_merge *tm, struct diff_align *al,
			 const uint32_t *c1, uint32_t n1,
			 const uint32_t *c2, uint32_t n2)
{
	struct hmap byname = HMAP_INIT, orig = HMAP_INIT;
	struct group *gs = NULL;
	size_t ng = 0, galloc = 0, amb = 0;
	uint8_t *h1, *h2, *del1, *ins2;
	struct vec nm = { 0 };
	int changed = 0;

	for (size_t k = 0; k < al->nr; k++) {
		const struct diff_align_op *o = &al->ops[k];
		struct group *g;
		if (o->op != DIFF_ALIGN_INSERT) {
			g = group_of(&byname, &gs, &ng, &galloc, diff_merge_norm(tm, 0, c1[o->i]));
			vpush(&g->i1, (uint32_t)o->i);
			g->matched |= o->op == DIFF_ALIGN_MATCH;
		}
		if (o->op != DIFF_ALIGN_DELETE) {
			g = group_of(&byname, &gs, &ng, &galloc, diff_merge_norm(tm, 1, c2[o->j]));
			vpush(&g->i2, (uint32_t)o->j);
			g->matched |= o->op == DIFF_ALIGN_MATCH;
		}
		if (o->op == DIFF_ALIGN_MATCH)
			hmap_put(&orig, pair_key(o->i, o->j), 1);
	}
	h1 = xcalloc(n1 + 1, 1), h2 = xcalloc(n2 + 1, 1);
	del1 = xcalloc(n1 + 1, 1), ins2 = xcalloc(n2 + 1, 1);
	for (size_t k = 0; k < ng; k++) {
		struct group *g = &gs[k];
		if (!g->i1.n || !g->i2.n || !g->matched || (g->i1.n < 2 && g->i2.n < 2))
			continue;
		amb++;
		for (size_t a = 0; a < g->i1.n; a++)
			h1[g->i1.v[a]] = 1;
		for (size_t b = 0; b < g->i2.n; b++)
			h2[g->i2.v[b]] = 1;
		resolve_group(tm, g, c1, c2, &orig, &nm, del1, ins2);
	}
	for (size_t k = 0; k < nm.n && amb; k += 2)
		if (!hmap_get(&orig, pair_key((int32_t)nm.v[k], (int32_t)nm.v[k + 1]), NULL))
			changed = 1;
	if (changed)
		rebuild_ops(al, h1, h2, &nm, del1, n1, ins2, n2);
	for (size_t k = 0; k < ng; k++) {
		vfree(&gs[k].i1);
		vfree(&gs[k].i2);
	}
	free(gs);
	free(h1);
	free(h2);
	free(del1);
	free(ins2);
	vfree(&nm);
	hmap_release(&byname);
	hmap_release(&orig);
}

void diff_merge_aligned_wf(struct diff_merge *tm, struct diff_align *al,
		       const uint32_t *c1, uint32_t n1,
		       const uint32_t *c2, uint32_t n2, int strip_details)
{
	uint32_t *a = xmalloc(st_mult((size_t)n1 + 1, sizeof(*a)));
	uint32_t *b = xmalloc(st_mult((size_t)n2 + 1, sizeof(*b)));

	for (uint32_t k = 0; k < n1; k++)
		a[k] = wf_name(tm, 0, c1[k], strip_details);
	for (uint32_t k = 0; k < n2; k++)
		b[k] = wf_name(tm, 1, c2[k], strip_details);
	diff_align_wf(al, a, n1, b, n2);
	free(a);
	free(b);
	diff_merge_disambiguate(tm, al, c1, n1, c2, n2);
}

/* ---- the merge proper ---- */

static int has_unmatched(const struct diff_align *al)
{
	for (size_t k = 0; k < al->nr; k++)
		if (al->ops[k].op != DIFF_ALIGN_MATCH)
			return 1;
	return 0;
}

/* Phase 2 rule: by position when counts agree and nothing launches. */
static void pair_children(struct diff_merge *tm, struct diff_align *al, const struct vec *c1,
			  const struct vec *c2)
{
	if (c1->n == c2->n && !any_dispatch(tm, 0, c1->v, c1->n) &&
	    !any_dispatch(tm, 1, c2->v, c2->n)) {
		al->nr = 0;
		for (size_t k = 0; k < c1->n; k++)
			diff_align_push(al, DIFF_ALIGN_MATCH, (int32_t)k, (int32_t)k);
		return;
	}
	diff_merge_aligned_wf(tm, al, c1->v, (uint32_t)c1->n, c2->v, (uint32_t)c2->n, 0);
}

/* Kernels and launching runtime calls are never unwrapped. */
static int no_unwrap(const struct diff_merge *tm, int side, uint32_t uid)
{
	const struct tree_read_node *n = node(tm, side, uid);
	return (n->cat == NT_KERNEL || n->cat == NT_RUNTIME || n->cat == NT_DRIVER) &&
	       !is_graph_launch(tm, n);
}

static int contains_name(struct diff_merge *tm, int side, const struct vec *kids, uint32_t name)
{
	for (size_t k = 0; k < kids->n; k++)
		if (diff_merge_norm(tm, side, kids->v[k]) == name)
			return 1;
	return 0;
}

static int same_names(struct diff_merge *tm, const struct vec *a, const struct vec *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t k = 0; k < a->n; k++)
		if (diff_merge_norm(tm, 0, a->v[k]) != diff_merge_norm(tm, 1, b->v[k]))
			return 0;
	return 1;
}

/* Marks which deleted (s1) / inserted (s2) children are wrappers to open. */
static int find_wrappers(struct diff_merge *tm, const struct diff_align *al, const struct vec *c1,
			 const struct vec *c2, uint8_t *s1, uint8_t *s2)
{
	struct vec imd = { 0 }, imi = { 0 };
	int any = 0;

	for (size_t a = 0; a < al->nr; a++) {
		uint32_t di, nd, name_d;
		if (al->ops[a].op != DIFF_ALIGN_DELETE)
			continue;
		di = (uint32_t)al->ops[a].i, nd = c1->v[di];
		if (no_unwrap(tm, 0, nd))
			continue;
		name_d = diff_merge_norm(tm, 0, nd);
		gpu_kids(tm, 0, nd, &imd);
		for (size_t b = 0; b < al->nr; b++) {
			uint32_t ii, ni, name_i;
			if (al->ops[b].op != DIFF_ALIGN_INSERT)
				continue;
			ii = (uint32_t)al->ops[b].j, ni = c2->v[ii];
			if (no_unwrap(tm, 1, ni))
				continue;
			name_i = diff_merge_norm(tm, 1, ni);
			gpu_kids(tm, 1, ni, &imi);
			if (name_d != NT_NONE && contains_name(tm, 1, &imi, name_d))
				s2[ii] = 1, any = 1;
			if (name_i != NT_NONE && contains_name(tm, 0, &imd, name_i))
				s1[di] = 1, any = 1;
			if (imd.n && imi.n && same_names(tm, &imd, &imi))
				s1[di] = s2[ii] = 1, any = 1;
		}
	}
	vfree(&imd);
	vfree(&imi);
	return any;
}

static void expand(struct diff_merge *tm, int side, const struct vec *c, const uint8_t *sub,
		   struct vec *out)
{
	struct vec g = { 0 };

	for (size_t k = 0; k < c->n; k++) {
		if (!sub[k]) {
			vpush(out, c->v[k]);
			continue;
		}
		gpu_kids(tm, side, c->v[k], &g);
		for (size_t x = 0; x < g.n; x++)
			vpush(out, g.v[x]);
	}
	vfree(&g);
	sort_by_ts(tm, side, out);
}

/* Re-aligns the free (unpinned) entries of r1/r2 and appends the ops. */
static void align_free(struct diff_merge *tm, struct diff_align *out, const struct vec *r1,
		       const struct vec *r2, const uint8_t *p1, const uint8_t *p2)
{
	struct vec f1 = { 0 }, f2 = { 0 }, i1 = { 0 }, i2 = { 0 };
	struct diff_align fa;

	for (size_t k = 0; k < r1->n; k++)
		if (!p1[k])
			vpush(&f1, (uint32_t)k), vpush(&i1, r1->v[k]);
	for (size_t k = 0; k < r2->n; k++)
		if (!p2[k])
			vpush(&f2, (uint32_t)k), vpush(&i2, r2->v[k]);
	if (f1.n && f2.n) {
		diff_align_init(&fa);
		pair_children(tm, &fa, &i1, &i2);
		for (size_t k = 0; k < fa.nr; k++) {
			const struct diff_align_op *o = &fa.ops[k];
			diff_align_push(out, o->op, o->i < 0 ? -1 : (int32_t)f1.v[o->i],
				   o->j < 0 ? -1 : (int32_t)f2.v[o->j]);
		}
		diff_align_release(&fa);
	} else {
		for (size_t k = 0; k < f1.n; k++)
			diff_align_push(out, DIFF_ALIGN_DELETE, (int32_t)f1.v[k], -1);
		for (size_t k = 0; k < f2.n; k++)
			diff_align_push(out, DIFF_ALIGN_INSERT, -1, (int32_t)f2.v[k]);
	}
	vfree(&f1), vfree(&f2), vfree(&i1), vfree(&i2);
}

/* Phase 3 (reconcile_unmatched): open wrappers, keep the matches pinned. */
static void reconcile(struct diff_merge *tm, struct diff_align *al, struct vec *c1, struct vec *c2)
{
	uint8_t *s1 = xcalloc(c1->n + 1, 1), *s2 = xcalloc(c2->n + 1, 1), *p1, *p2;
	struct vec r1 = { 0 }, r2 = { 0 };
	struct hmap at1 = HMAP_INIT, at2 = HMAP_INIT;
	struct diff_align out;

	if (!find_wrappers(tm, al, c1, c2, s1, s2)) {
		free(s1), free(s2);
		return;
	}
	expand(tm, 0, c1, s1, &r1);
	expand(tm, 1, c2, s2, &r2);
	for (size_t k = 0; k < r1.n; k++)
		hmap_put(&at1, (uint64_t)r1.v[k] + 1, (uint32_t)k);
	for (size_t k = 0; k < r2.n; k++)
		hmap_put(&at2, (uint64_t)r2.v[k] + 1, (uint32_t)k);
	p1 = xcalloc(r1.n + 1, 1), p2 = xcalloc(r2.n + 1, 1);
	diff_align_init(&out);
	for (size_t k = 0; k < al->nr; k++) {
		uint32_t ri, rj;
		if (al->ops[k].op != DIFF_ALIGN_MATCH)
			continue;
		if (hmap_get(&at1, (uint64_t)c1->v[al->ops[k].i] + 1, &ri) &&
		    hmap_get(&at2, (uint64_t)c2->v[al->ops[k].j] + 1, &rj)) {
			diff_align_push(&out, DIFF_ALIGN_MATCH, (int32_t)ri, (int32_t)rj);
			p1[ri] = p2[rj] = 1;
		}
	}
	align_free(tm, &out, &r1, &r2, p1, p2);
	diff_align_release(al);
	*al = out;
	vswap(c1, &r1);
	vswap(c2, &r2);
	vfree(&r1), vfree(&r2);
	hmap_release(&at1), hmap_release(&at2);
	free(s1), free(s2), free(p1), free(p2);
}

static void collect_op(const struct diff_align *al, int op, struct vec *out)
{
	for (size_t k = 0; k < al->nr; k++)
		if (al->ops[k].op == op)
			vpush(out, (uint32_t)(op == DIFF_ALIGN_INSERT ? al->ops[k].j : al->ops[k].i));
}

/* Phase 4: collapse what is still unmatched and align again, twice. */
static void canonicalise(struct diff_merge *tm, struct diff_align *al, struct vec *c1, struct vec *c2)
{
	struct vec u1 = { 0 }, u2 = { 0 }, col1 = { 0 }, col2 = { 0 }, tmp = { 0 };
	struct vec s1 = { 0 }, s2 = { 0 }, l1 = { 0 }, l2 = { 0 };
	struct diff_align p1, p2, co, out;

	collect_op(al, DIFF_ALIGN_DELETE, &u1);
	collect_op(al, DIFF_ALIGN_INSERT, &u2);
	if (!u1.n || !u2.n) {
		vfree(&u1), vfree(&u2);
		return;
	}
	for (size_t k = 0; k < u1.n; k++)
		vpush(&col1, collapse(tm, 0, c1->v[u1.v[k]], &tmp));
	for (size_t k = 0; k < u2.n; k++)
		vpush(&col2, collapse(tm, 1, c2->v[u2.v[k]], &tmp));
	diff_align_init(&p1), diff_align_init(&p2), diff_align_init(&co), diff_align_init(&out);
	diff_merge_aligned_wf(tm, &p1, col1.v, (uint32_t)col1.n, col2.v, (uint32_t)col2.n, 0);
	collect_op(&p1, DIFF_ALIGN_DELETE, &s1);
	collect_op(&p1, DIFF_ALIGN_INSERT, &s2);
	if (s1.n && s2.n) {
		for (size_t k = 0; k < s1.n; k++)
			vpush(&l1, col1.v[s1.v[k]]);
		for (size_t k = 0; k < s2.n; k++)
			vpush(&l2, col2.v[s2.v[k]]);
		diff_merge_aligned_wf(tm, &p2, l1.v, (uint32_t)l1.n, l2.v, (uint32_t)l2.n, 1);
		for (size_t k = 0; k < p1.nr; k++)
			if (p1.ops[k].op == DIFF_ALIGN_MATCH)
				diff_align_push(&co, DIFF_ALIGN_MATCH, p1.ops[k].i, p1.ops[k].j);
		for (size_t k = 0; k < p2.nr; k++) {
			const struct diff_align_op *o = &p2.ops[k];
			diff_align_push(&co, o->op, o->i < 0 ? -1 : (int32_t)s1.v[o->i],
				   o->j < 0 ? -1 : (int32_t)s2.v[o->j]);
		}
	} else {
		for (size_t k = 0; k < p1.nr; k++)
			diff_align_push(&co, p1.ops[k].op, p1.ops[k].i, p1.ops[k].j);
	}
	for (size_t k = 0; k < al->nr; k++)
		if (al->ops[k].op == DIFF_ALIGN_MATCH)
			diff_align_push(&out, DIFF_ALIGN_MATCH, al->ops[k].i, al->ops[k].j);
	for (size_t k = 0; k < co.nr; k++) {
		const struct diff_align_op *o = &co.ops[k];
		int32_t oi = o->i < 0 ? -1 : (int32_t)u1.v[o->i];
		int32_t oj = o->j < 0 ? -1 : (int32_t)u2.v[o->j];
		if (oi >= 0)
			c1->v[oi] = col1.v[o->i];
		if (oj >= 0)
			c2->v[oj] = col2.v[o->j];
		diff_align_push(&out, o->op, oi, oj);
	}
	diff_align_release(al);
	*al = out;
	diff_align_release(&p1), diff_align_release(&p2), diff_align_release(&co);
	vfree(&u1), vfree(&u2), vfree(&col1), vfree(&col2), vfree(&tmp);
	vfree(&s1), vfree(&s2), vfree(&l1), vfree(&l2);
}

static uint32_t new_node(struct diff_merge *tm)
{
	xgrow((void **)&tm->m, &tm->alloc, (size_t)tm->nr + 1, sizeof(*tm->m));
	memset(&tm->m[tm->nr], 0, sizeof(*tm->m));
	return tm->nr++;
}

/* Phase 1: a one-child side against a many-child side goes down wrappers. */
static void collapse_lists(struct diff_merge *tm, uint32_t *u1, uint32_t *u2,
			   struct vec *c1, struct vec *c2)
{
	struct vec deeper = { 0 };
	uint32_t col;

	if (c1->n == c2->n)
		return;
	if (c1->n == 1) {
		col = collapse(tm, 0, c1->v[0], &deeper);
		if (deeper.n)
			*u1 = col, vswap(c1, &deeper);
	} else if (c2->n == 1) {
		col = collapse(tm, 1, c2->v[0], &deeper);
		if (deeper.n)
			*u2 = col, vswap(c2, &deeper);
	}
	vfree(&deeper);
}

/*
 * One merge(u1, u2) call of TraceDiff's traverse_and_merge in progress:
 * its node, its aligned children and the merged ones made so far.
 */
struct mframe {
	uint32_t mid, u1, u2;
	struct vec c1, c2, kids;
	struct diff_align al;
	size_t k;		/* next alignment op to merge */
};

/* A new merged node for (u1, u2) with its children aligned; the frame. */
static void merge_begin(struct diff_merge *tm, struct mframe *f, uint32_t u1, uint32_t u2,
			uint64_t key)
{
	memset(f, 0, sizeof(*f));
	f->mid = new_node(tm);
	hmap_put(&tm->memo, key, f->mid);
	children_with_missing(tm, u1, u2, &f->c1, &f->c2);
	collapse_lists(tm, &u1, &u2, &f->c1, &f->c2);
	f->u1 = u1, f->u2 = u2;
	diff_align_init(&f->al);
	pair_children(tm, &f->al, &f->c1, &f->c2);
	if (has_unmatched(&f->al))
		reconcile(tm, &f->al, &f->c1, &f->c2);
	canonicalise(tm, &f->al, &f->c1, &f->c2);
}

/* All children merged: fill the node in; the frame is released. */
static void merge_end(struct diff_merge *tm, struct mframe *f)
{
	struct diff_merge_node *m = &tm->m[f->mid];

	m->uid1 = f->u1;
	m->uid2 = f->u2;
	m->type = f->u1 != NT_NONE && f->u2 != NT_NONE ? TM_COMBINED :
		  f->u1 != NT_NONE ? TM_TRACE1 : TM_TRACE2;
	m->kid = (uint32_t)tm->nkids;
	m->nkid = (uint32_t)f->kids.n;
	xgrow((void **)&tm->kids, &tm->kids_alloc, tm->nkids + f->kids.n + 1, sizeof(*tm->kids));
	if (f->kids.n)
		tl_memcpy(tm->kids + tm->nkids, f->kids.v, f->kids.n * sizeof(*f->kids.v));
	tm->nkids += f->kids.n;
	diff_align_release(&f->al);
	vfree(&f->c1), vfree(&f->c2), vfree(&f->kids);
}

static uint64_t merge_key(uint32_t u1, uint32_t u2)
{
	return ((uint64_t)(uint32_t)(u1 + 1) << 32) | (uint32_t)(u2 + 1);
}

/*
 * traverse_and_merge, depth first as TraceDiff recurses (nodes numbered
 * in the same order, children's blocks appended as each node completes),
 * on a stack of frames instead of the C stack: trees can be a million
 * levels deep.
 */
static uint32_t merge(struct diff_merge *tm, uint32_t u1, uint32_t u2)
{
	struct mframe *st = NULL;
	size_t n = 0, alloc = 0;
	uint32_t mid;

	if (hmap_get(&tm->memo, merge_key(u1, u2), &mid))
		return mid;
	xgrow((void **)&st, &alloc, 1, sizeof(*st));
	merge_begin(tm, &st[n++], u1, u2, merge_key(u1, u2));
	for (;;) {
		struct mframe *f = &st[n - 1];
		if (f->k < f->al.nr) {
			const struct diff_align_op *o = &f->al.ops[f->k++];
			uint32_t a = o->i < 0 ? NT_NONE : f->c1.v[o->i];
			uint32_t b = o->j < 0 ? NT_NONE : f->c2.v[o->j];
			if (hmap_get(&tm->memo, merge_key(a, b), &mid)) {
				vpush(&f->kids, mid);
				continue;
			}
			xgrow((void **)&st, &alloc, n + 1, sizeof(*st));
			merge_begin(tm, &st[n++], a, b, merge_key(a, b));
			continue;
		}
		mid = f->mid;
		merge_end(tm, f);
		if (--n == 0)
			break;
		vpush(&st[n - 1].kids, mid);
	}
	free(st);
	return mid;
}

/*
 * _get_top_level_root: from a cpu_op root up to the node without parent,
 * then down through single children that are neither cpu_ops nor
 * launching runtime calls; the root then adopts that node's children.
 */
static uint32_t top_level_root(struct diff_merge *tm, int side, uint32_t uid)
{
	struct tree_read *t = tm->t[side];
	uint32_t root = uid, cur;

	while (t->n[root].parent != NT_NONE)
		root = t->n[root].parent;
	cur = root;
	while (t->n[cur].nkid == 1) {
		uint32_t c = t->kids[t->n[cur].kid];
		const struct tree_read_node *cn = &t->n[c];
		if ((cn->cat == NT_CPU_OP || cn->cat == NT_RUNTIME || cn->cat == NT_DRIVER) &&
		    !is_graph_launch(tm, cn))
			break;
		cur = c;
	}
	if (cur != root) {
		t->n[root].kid = t->n[cur].kid;
		t->n[root].nkid = t->n[cur].nkid;
		for (uint32_t k = 0; k < t->n[cur].nkid; k++)
			t->n[t->kids[t->n[cur].kid + k]].parent = root;
	}
	return cur;
}

static void top_roots(struct diff_merge *tm, int side, struct vec *out)
{
	struct hmap seen = HMAP_INIT;

	for (uint32_t k = 0; k < tm->t[side]->nroots; k++) {
		uint32_t r = top_level_root(tm, side, tm->t[side]->roots[k]);
		if (hmap_get(&seen, (uint64_t)r + 1, NULL))
			continue;
		hmap_put(&seen, (uint64_t)r + 1, 1);
		vpush(out, r);
	}
	hmap_release(&seen);
}

void diff_merge_run(struct diff_merge *tm)
{
	struct vec r1 = { 0 }, r2 = { 0 }, roots = { 0 };
	size_t n;

	top_roots(tm, 0, &r1);
	top_roots(tm, 1, &r2);
	n = r1.n > r2.n ? r1.n : r2.n;
	for (size_t k = 0; k < n; k++)
		vpush(&roots, merge(tm, k < r1.n ? r1.v[k] : NT_NONE, k < r2.n ? r2.v[k] : NT_NONE));
	tm->roots = roots.v;
	tm->nroots = (uint32_t)roots.n;
	vfree(&r1), vfree(&r2);
}

/* ---- merged_tree_output.txt ---- */

struct prefix {
	char *s;
	size_t n, alloc;
};

/* A name as the file has it, or for a terminal: demangled and escaped. */
static void put_name(struct outbuf *ob, const char *s, int display)
{
	char *d;

	if (!display) {
		outbuf_puts(ob, s);
		return;
	}
	d = display_demangle(s);
	display_escape(ob, d ? d : s, strlen(d ? d : s), DISPLAY_TERMINAL);
	free(d);
}

static void write_label(const struct diff_merge *tm, const struct diff_merge_node *m,
			struct outbuf *ob, int display)
{
	char b1[DIFF_MERGE_UIDBUF], b2[DIFF_MERGE_UIDBUF];
	const char *n1 = m->uid1 != NT_NONE ? diff_merge_op_name(tm, 0, m->uid1, b1) : NULL;
	const char *n2 = m->uid2 != NT_NONE ? diff_merge_op_name(tm, 1, m->uid2, b2) : NULL;

	if (m->type == TM_COMBINED && !strcmp(n1, n2)) {
		put_name(ob, n1, display);
	} else if (m->type == TM_COMBINED) {
		outbuf_puts(ob, "combined: ");
		put_name(ob, n1, display);
		outbuf_puts(ob, " | ");
		put_name(ob, n2, display);
	} else {
		outbuf_puts(ob, m->type == TM_TRACE1 ? ">> trace1: " : "<< trace2: ");
		put_name(ob, m->type == TM_TRACE1 ? n1 : n2, display);
	}
	outbuf_putc(ob, '\n');
}

/*
 * One subtree of the merged tree, depth first on a stack of its own (see
 * tree_view.c: a node's prefix is p->s[0..plen), written when it prints).
 */
static void write_subtree(const struct diff_merge *tm, uint32_t root, struct prefix *p,
			  int root_last, struct outbuf *ob, int display)
{
	struct wtodo { uint32_t mid; int last; size_t plen; } *st = NULL;
	size_t n = 0, alloc = 0;
	uint32_t *order = NULL;
	size_t oalloc = 0;

	xgrow((void **)&st, &alloc, 1, sizeof(*st));
	st[n++] = (struct wtodo){ root, root_last, p->n };
	while (n) {
		struct wtodo f = st[--n];
		const struct diff_merge_node *m = &tm->m[f.mid];
		size_t nkid = m->nkid, done = 0, cplen = f.plen + (f.last ? 4 : 6);

		outbuf_put(ob, p->s, f.plen);
		outbuf_puts(ob, f.last ? "└── " : "├── ");
		write_label(tm, m, ob, display);
		xgrow((void **)&p->s, &p->alloc, f.plen + 8, 1);
		tl_memcpy(p->s + f.plen, f.last ? "    " : "│   ", f.last ? 4 : 6);
		/* combined children first, then trace1-only, then trace2-only */
		xgrow((void **)&order, &oalloc, nkid + 1, sizeof(*order));
		for (int type = TM_COMBINED; type <= TM_TRACE2; type++)
			for (uint32_t k = 0; k < nkid; k++) {
				uint32_t c = tm->kids[m->kid + k];
				if (tm->m[c].type == type)
					order[done++] = c;
			}
		xgrow((void **)&st, &alloc, n + done, sizeof(*st));
		for (size_t k = done; k-- > 0;)
			st[n++] = (struct wtodo){ order[k], k + 1 == nkid, cplen };
	}
	free(st);
	free(order);
}

static void write_tree(struct diff_merge *tm, struct outbuf *ob, int prune_non_gpu, int display)
{
	struct prefix p = { NULL, 0, 0 };

	for (uint32_t k = 0; k < tm->nroots; k++) {
		const struct diff_merge_node *m = &tm->m[tm->roots[k]];
		if (prune_non_gpu && !gpu_path(tm, 0, m->uid1) && !gpu_path(tm, 1, m->uid2))
			continue;
		write_subtree(tm, tm->roots[k], &p, k + 1 == tm->nroots, ob, display);
	}
	free(p.s);
}

void diff_merge_write_tree(struct diff_merge *tm, struct outbuf *ob, int prune_non_gpu)
{
	write_tree(tm, ob, prune_non_gpu, 0);
}

void diff_merge_print_tree(struct diff_merge *tm, struct outbuf *ob, int prune_non_gpu)
{
	write_tree(tm, ob, prune_non_gpu, 1);
}
