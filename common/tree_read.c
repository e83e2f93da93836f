#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num_parse.h"
#include "tree_links.h"
#include "tree_read.h"
#include "stream.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

struct tree_read *tree_read_new(struct strpool *sp)
{
	struct tree_read *t = xcalloc(1, sizeof(*t));
	t->sp = sp;
	t->path = "-";
	return t;
}

void tree_read_free(struct tree_read *t)
{
	if (!t)
		return;
	free(t->n);
	free(t->kids);
	free(t->roots);
	free(t->xk);
	free(t->xkid);
	free(t->rorder);
	for (size_t i = 0; i < t->nmods; i++)
		free(t->mods[i]);
	free(t->mods);
	hmap_release(&t->modmap);
	free(t);
}

void tree_read_set_kids(struct tree_read *t, uint32_t uid, const uint32_t *kids, size_t n)
{
	xgrow((void **)&t->xk, &t->axk, t->nxk + n + 1, sizeof(*t->xk));
	xgrow((void **)&t->xkid, &t->axkid, t->nxkid + 1, sizeof(*t->xkid));
	t->xkid[t->nxkid][0] = uid;
	t->xkid[t->nxkid][1] = (uint32_t)t->nxk;
	t->xkid[t->nxkid++][2] = (uint32_t)n;
	tl_memcpy(t->xk + t->nxk, kids, n * sizeof(*kids));
	t->nxk += n;
}

int tree_read_modules(const struct tree_read *t, uint32_t uid, const char **stack)
{
	uint32_t k;

	if (!hmap_get(&t->modmap, (uint64_t)uid + 1, &k))
		return 0;
	if (k == NT_NONE)
		return 2;
	*stack = t->mods[k];
	return 1;
}

void tree_read_set_root_order(struct tree_read *t, uint32_t uid, uint32_t order)
{
	if ((size_t)uid >= t->arorder) {
		size_t old = t->arorder;
		xgrow((void **)&t->rorder, &t->arorder, (size_t)uid + 1, sizeof(*t->rorder));
		memset(t->rorder + old, 0, (t->arorder - old) * sizeof(*t->rorder));
	}
	t->rorder[uid] = order;
}

static const struct {
	const char *name;
	int cat;
} cats[] = {
	{ "cpu_op", NT_CPU_OP }, { "cuda_runtime", NT_RUNTIME },
	{ "cuda_driver", NT_DRIVER }, { "kernel", NT_KERNEL },
	{ "gpu_memcpy", NT_MEMCPY }, { "gpu_memset", NT_MEMSET },
	{ "python_function", NT_PYTHON },
};

static int cat_of(const char *s)
{
	/* the first letters told apart before strcmp: a row's category took
	 * up to seven calls (python frames the last), a sixth of tl-diff's
	 * strcmp time with the row's other short fields below */
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (cats[i].name[0] == s[0] && !strcmp(cats[i].name, s))
			return cats[i].cat;
	return NT_OTHER;
}

/* A field that is this one character (a flag, a source, a count of 0). */
static int is_char(const char *s, char c)
{
	return s[0] == c && s[1] == '\0';
}

/* A JSON integer literal stays an int in Python; anything else is a float. */
static int is_int_text(const char *s)
{
	return !strpbrk(s, ".eEnN");
}

static struct tree_read_node *slot(struct tree_read *t, uint32_t uid)
{
	if (uid >= t->nr) {
		xgrow((void **)&t->n, &t->alloc, (size_t)uid + 1, sizeof(*t->n));
		memset(t->n + t->nr, 0, ((size_t)uid + 1 - t->nr) * sizeof(*t->n));
		for (uint32_t u = t->nr; u <= uid; u++)
			t->n[u].parent = t->n[u].oparent = NT_NONE;
		t->nr = uid + 1;
	}
	return &t->n[uid];
}

void tree_read_add(struct tree_read *t, uint32_t uid, const char *cat, const char *name,
	       const char *ts, const char *dur, uint32_t parent, int is_root)
{
	struct tree_read_node *n = slot(t, uid);

	n->cat = (uint8_t)cat_of(cat);
	n->name = strpool_intern(t->sp, name, strlen(name));
	n->flags = NT_PRESENT | (is_root ? NT_ROOT : 0);
	if (*ts) {
		n->ts = num_strtod(ts, NULL);
		n->flags |= NT_HAS_TS;
	}
	if (*dur) {
		n->dur = num_strtod(dur, NULL);
		n->flags |= NT_HAS_DUR | (is_int_text(dur) ? NT_DUR_INT : 0);
	}
	n->parent = n->oparent = parent;
}

static uint32_t intern0(struct tree_read *t, const char *s)
{
	return *s ? strpool_intern(t->sp, s, strlen(s)) : 0;
}

void tree_read_set_args(struct tree_read *t, uint32_t uid, const char *dims,
		    const char *types, const char *strides, const char *concrete)
{
	struct tree_read_node *n = slot(t, uid);
	n->dims = intern0(t, dims);
	n->types = intern0(t, types);
	n->strides = intern0(t, strides);
	n->concrete = intern0(t, concrete);
}

/* Parents must exist and never loop; 0 ok, -1 after a message. */
static int check_parents(struct tree_read *t)
{
	uint32_t *up = xmalloc(st_mult(t->nr + 1, sizeof(*up)));
	uint32_t v;
	int rc = 0;

	for (uint32_t u = 0; u < t->nr && !rc; u++) {
		uint32_t p = t->n[u].oparent;
		if (p != NT_NONE && (p >= t->nr || !(t->n[p].flags & NT_PRESENT))) {
			tl_warn("%s: uid %u: parent %u is not in the stream", t->path, u, p);
			rc = -1;
		}
		up[u] = p;
	}
	if (!rc && (v = tree_links_loop(up, t->nr)) != TREE_LINKS_NONE) {
		tl_warn("%s: uid %u: parent links form a loop", t->path, v);
		rc = -1;
	}
	free(up);
	return rc;
}

static int cmp_kid(const void *a, const void *b, void *arg)
{
	const struct tree_read *t = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int gx = tree_read_is_gpu(&t->n[x]), gy = tree_read_is_gpu(&t->n[y]);

	if (gx != gy)
		return gx - gy;
	if (!gx && t->n[x].ts != t->n[y].ts)
		return t->n[x].ts < t->n[y].ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int cmp_root(const void *a, const void *b, void *arg)
{
	const struct tree_read *t = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (t->rorder) {
		uint32_t ox = x < t->arorder ? t->rorder[x] : 0, oy = y < t->arorder ? t->rorder[y] : 0;
		if (ox != oy)
			return ox && (!oy || ox < oy) ? -1 : 1;
	}
	if (t->n[x].ts != t->n[y].ts)
		return t->n[x].ts < t->n[y].ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* tl-nodes 2: the children lists the stream gives, in place of the above */
static int explicit_children(struct tree_read *t)
{
	size_t base = t->nkids;

	if (!t->nxkid)
		return 0;
	xgrow((void **)&t->kids, &t->kids_alloc, t->nkids + t->nxk + 1, sizeof(*t->kids));
	for (size_t i = 0; i < t->nxk; i++) {
		if (t->xk[i] >= t->nr || !(t->n[t->xk[i]].flags & NT_PRESENT)) {
			tl_warn("%s: kids: uid %u is not in the stream", t->path, t->xk[i]);
			return -1;
		}
		t->kids[base + i] = t->xk[i];
	}
	t->nkids += t->nxk;
	for (size_t k = 0; k < t->nxkid; k++) {
		struct tree_read_node *n = &t->n[t->xkid[k][0]];
		n->okid = n->kid = (uint32_t)(base + t->xkid[k][1]);
		n->onkid = n->nkid = t->xkid[k][2];
	}
	return 0;
}

/*
 * A node is in one children list at most (TraceLens's edits move a node
 * from one list to another), and the lists never lead back to a node they
 * came from: the walks down them (TraceDiff's, the merged tree's) would
 * take a shared node once per path to it, or never end.  0 ok, -1 after a
 * message.
 */
static int check_kids(struct tree_read *t)
{
	uint32_t *up = xmalloc(st_mult(t->nr + 1, sizeof(*up)));
	uint32_t v;
	int rc = 0;

	for (uint32_t u = 0; u < t->nr; u++)
		up[u] = TREE_LINKS_NONE;
	for (uint32_t u = 0; u < t->nr && !rc; u++) {
		const struct tree_read_node *n = &t->n[u];
		for (uint32_t k = 0; k < n->onkid && !rc; k++) {
			uint32_t c = t->kids[n->okid + k];
			if (tree_links_set(up, c, u) < 0) {
				tree_links_warn_shared(t->path, c, up[c], u);
				rc = -1;
			}
		}
	}
	if (!rc && (v = tree_links_loop(up, t->nr)) != TREE_LINKS_NONE) {
		tl_warn("%s: uid %u: children lists form a loop", t->path, v);
		rc = -1;
	}
	free(up);
	return rc;
}

static void build_children(struct tree_read *t)
{
	uint32_t *fill;

	for (uint32_t u = 0; u < t->nr; u++)
		if (t->n[u].oparent != NT_NONE)
			t->n[t->n[u].oparent].onkid++;
	t->nkids = 0;
	for (uint32_t u = 0; u < t->nr; u++) {
		t->n[u].okid = (uint32_t)t->nkids;
		t->nkids += t->n[u].onkid;
	}
	xgrow((void **)&t->kids, &t->kids_alloc, t->nkids + 1, sizeof(*t->kids));
	fill = xcalloc(t->nr ? t->nr : 1, sizeof(*fill));
	for (uint32_t u = 0; u < t->nr; u++) {
		uint32_t p = t->n[u].oparent;
		if (p != NT_NONE)
			t->kids[t->n[p].okid + fill[p]++] = u;
	}
	free(fill);
	for (uint32_t u = 0; u < t->nr; u++) {
		struct tree_read_node *n = &t->n[u];
		if (n->onkid > 1)
			tl_qsort_r(t->kids + n->okid, n->onkid, sizeof(uint32_t), cmp_kid, t);
		n->kid = n->okid;
		n->nkid = n->onkid;
	}
}

static void mark_gpu_paths(struct tree_read *t)
{
	for (uint32_t u = 0; u < t->nr; u++) {
		struct tree_read_node *n = &t->n[u];
		if (t->edited) {
			if (tree_read_is_gpu(n) || (n->flags & NT_GPU_N))
				n->flags |= NT_GPU_PATH;
			continue;
		}
		if (!(n->flags & NT_PRESENT) || !tree_read_is_gpu(n))
			continue;
		n->flags |= NT_GPU_PATH;
		for (uint32_t p = n->oparent; p != NT_NONE; p = t->n[p].oparent) {
			if (t->n[p].flags & NT_GPU_PATH)
				break;
			t->n[p].flags |= NT_GPU_PATH;
		}
	}
}

int tree_read_finish(struct tree_read *t)
{
	uint32_t nroots = 0;

	if (check_parents(t) < 0)
		return -1;
	build_children(t);
	if (explicit_children(t) < 0 || (t->nxkid && check_kids(t) < 0))
		return -1;
	mark_gpu_paths(t);
	for (uint32_t u = 0; u < t->nr; u++)
		nroots += (t->n[u].flags & NT_ROOT) != 0;
	t->roots = xmalloc(((size_t)nroots + 1) * sizeof(*t->roots));
	t->nroots = 0;
	for (uint32_t u = 0; u < t->nr; u++)
		if (t->n[u].flags & NT_ROOT)
			t->roots[t->nroots++] = u;
	tl_qsort_r(t->roots, t->nroots, sizeof(uint32_t), cmp_root, t);
	return 0;
}

static int cmp_gpu_event(const void *a, const void *b, void *arg)
{
	const struct tree_read *t = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t px = t->n[x].oparent, py = t->n[y].oparent;

	if (px != py)
		return px < py ? -1 : 1;
	return x < y ? -1 : x > y;
}

size_t tree_read_gpu_events(const struct tree_read *t, uint32_t uid, uint32_t **out,
			size_t nr, size_t *alloc)
{
	uint32_t *stack = NULL;
	size_t sn = 0, salloc = 0, start = nr;

	if (uid >= t->nr)
		return nr;
	xgrow((void **)&stack, &salloc, 1, sizeof(*stack));
	stack[sn++] = uid;
	while (sn) {
		const struct tree_read_node *n = &t->n[stack[--sn]];
		for (uint32_t k = 0; k < n->onkid; k++) {
			uint32_t c = t->kids[n->okid + k];
			if (tree_read_is_gpu(&t->n[c])) {
				xgrow((void **)out, alloc, nr + 1, sizeof(**out));
				(*out)[nr++] = c;
			} else {
				xgrow((void **)&stack, &salloc, sn + 1, sizeof(*stack));
				stack[sn++] = c;
			}
		}
	}
	free(stack);
	if (nr - start > 1)
		tl_qsort_r(*out + start, nr - start, sizeof(uint32_t), cmp_gpu_event, (void *)t);
	return nr;
}

static int parse_uid(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;
	uint64_t d;
	const char *e = num_u64(s, &d);

	/* plain digits, the usual case, without strtoul's locale and errno */
	if (e && !*e) {
		if (d >= NT_NONE)
			return -1;
		*out = (uint32_t)d;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v >= NT_NONE)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

enum { C_UID, C_SRC, C_CAT, C_NAME, C_TS, C_DUR, C_DIMS, C_TYPES, C_STRIDES,
       C_CONCRETE, C_PARENT, C_ROOT, C_KIDS, C_ROOT_ORDER, C_GPU_N, C_GRAFT, C_MODULES, C_N };

static const char *const colnames[C_N] = {
	"uid", "src", "cat", "name", "ts", "dur", "dims", "types", "strides",
	"concrete", "parent", "root", "kids", "root_order", "gpu_n", "graft", "nn_module_stack",
};

/* "U,U,...": the kids column of tl-nodes 2 */
static int read_kids(struct tree_read *t, uint32_t uid, const char *s)
{
	uint32_t *v = NULL;
	size_t n = 0, a = 0;
	int rc = 0;

	while (*s) {
		char *end;
		unsigned long k;
		errno = 0;
		k = strtoul(s, &end, 10);
		if (errno || end == s || k >= NT_NONE || (*end && *end != ',')) {
			rc = -1;
			break;
		}
		xgrow((void **)&v, &a, n + 1, sizeof(*v));
		v[n++] = (uint32_t)k;
		s = *end ? end + 1 : end;
	}
	if (!rc)
		tree_read_set_kids(t, uid, v, n);
	free(v);
	return rc;
}

static int read_row(struct tree_read *t, struct stream *s, const int *col)
{
	uint32_t uid, parent = NT_NONE;
	const char *p = stream_field(s, col[C_PARENT]);
	const char *cat = stream_field(s, col[C_CAT]);

	if (!is_char(stream_field(s, col[C_SRC]), '0') && *stream_field(s, col[C_SRC])) {
		tl_warn("%s:%ld: more than one trace in one stream; give each trace separately",
			stream_name(s), stream_lineno(s));
		return -1;
	}
	if (parse_uid(stream_field(s, col[C_UID]), &uid) < 0 || (*p && parse_uid(p, &parent) < 0)) {
		tl_warn("%s:%ld: bad uid or parent", stream_name(s), stream_lineno(s));
		return -1;
	}
	if (uid < t->nr && (t->n[uid].flags & NT_PRESENT)) {
		tl_warn("%s:%ld: uid %u appears twice", stream_name(s), stream_lineno(s), uid);
		return -1;
	}
	tree_read_add(t, uid, cat, stream_field(s, col[C_NAME]), stream_field(s, col[C_TS]),
		  stream_field(s, col[C_DUR]), parent, is_char(stream_field(s, col[C_ROOT]), '1'));
	if (t->n[uid].cat == NT_CPU_OP)
		tree_read_set_args(t, uid, stream_field(s, col[C_DIMS]), stream_field(s, col[C_TYPES]),
			       stream_field(s, col[C_STRIDES]), stream_field(s, col[C_CONCRETE]));
	p = stream_field(s, col[C_GRAFT]);
	if (*p && (!strcmp(p, "pseudo") || !strncmp(p, "capture-root:", 13))) {
		hmap_put(&t->modmap, (uint64_t)uid + 1, NT_NONE);
	} else if (*(p = stream_field(s, col[C_MODULES]))) {
		xgrow((void **)&t->mods, &t->amods, t->nmods + 1, sizeof(*t->mods));
		t->mods[t->nmods] = xstrdup(p);
		hmap_put(&t->modmap, (uint64_t)uid + 1, (uint32_t)t->nmods++);
	}
	p = stream_field(s, col[C_GPU_N]);
	if (*p && !is_char(p, '0'))
		t->n[uid].flags |= NT_GPU_N;
	if (*(p = stream_field(s, col[C_KIDS])) && read_kids(t, uid, p) < 0) {
		tl_warn("%s:%ld: bad kids list", stream_name(s), stream_lineno(s));
		return -1;
	}
	if (*(p = stream_field(s, col[C_ROOT_ORDER]))) {
		uint32_t order;
		if (parse_uid(p, &order) < 0) {
			tl_warn("%s:%ld: bad root_order", stream_name(s), stream_lineno(s));
			return -1;
		}
		tree_read_set_root_order(t, uid, order);
	}
	return 0;
}

struct tree_read *tree_read_read(const char *path, struct strpool *sp)
{
	struct stream *s = stream_open(path, "nodes");
	struct tree_read *t;
	int col[C_N], r = 0, bad = 0, open_sources = 0;

	if (!s)
		return NULL;
	for (int i = 0; i < C_N; i++) {
		col[i] = stream_col(s, colnames[i]);
		if (col[i] < 0 && i != C_SRC && i < C_KIDS && !bad) {
			tl_warn("%s: no column '%s' in the node stream", stream_name(s), colnames[i]);
			bad = 1;
		}
	}
	t = tree_read_new(sp);
	t->path = path && strcmp(path, "-") ? path : "-";
	t->edited = stream_col(s, "graft") >= 0;
	while (!bad && (r = stream_next(s)) > 0) {
		if (r == STREAM_ROW && read_row(t, s, col) < 0)
			bad = 1;
		else if (r == STREAM_DIRECTIVE)
			open_sources += !strncmp(stream_line(s), "source\t", 7) -
					!strncmp(stream_line(s), "end\t", 4);
	}
	if (!bad && r < 0)
		bad = 1;
	/* tl-stream(5): a source without #end was cut short */
	if (!bad && open_sources > 0) {
		tl_warn("%s: the stream was cut short (a #source without #end)", stream_name(s));
		bad = 1;
	}
	stream_close(s);
	if (bad || tree_read_finish(t) < 0) {
		tree_read_free(t);
		return NULL;
	}
	return t;
}

void tree_read_repool(struct tree_read *t, struct strpool *sp)
{
	uint32_t n = strpool_count(t->sp);
	uint32_t *to = xmalloc(st_mult((size_t)n + 1, sizeof(*to)));

	for (uint32_t id = 0; id < n; id++)
		to[id] = strpool_intern(sp, strpool_str(t->sp, id), strpool_len(t->sp, id));
	for (uint32_t u = 0; u < t->nr; u++) {
		struct tree_read_node *x = &t->n[u];
		x->name = to[x->name];
		x->dims = to[x->dims];
		x->types = to[x->types];
		x->strides = to[x->strides];
		x->concrete = to[x->concrete];
	}
	free(to);
	t->sp = sp;
}
