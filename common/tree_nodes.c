#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json_value.h"
#include "num_parse.h"
#include "tree_links.h"
#include "tree_nodes.h"
#include "stream.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* the metadata tree_nodes_process_name and the others look up */
enum { META_PROCESS_NAME, META_PROCESS_LABEL, META_THREAD_NAME, META_N };
static const char *const meta_key[META_N] = { "process_name", "process_labels", "thread_name" };
static const uint32_t meta_tid0 = UINT32_MAX;	/* tid "0": a process's row */

enum { C_UID, C_PH, C_CAT, C_NAME, C_PID, C_TID, C_TS, C_DUR, C_STREAM,
       C_DIMS, C_TYPES, C_STRIDES, C_CONCRETE, C_ARGS, C_PARENT, C_TREE, C_ROOT, C_FWD,
       C_GRAFT, C_KIDS, C_ROOT_ORDER, NCOL };
static const char *const colname[NCOL] = {
	"uid", "ph", "cat", "name", "pid", "tid", "ts", "dur", "stream",
	"dims", "types", "strides", "concrete", "args", "parent", "tree", "root", "fwd",
	"graft", "kids", "root_order"
};

/* columns a tl-nodes 1 stream may lack */
static int optional_col(int i)
{
	return i == C_FWD || i == C_ROOT || i == C_GRAFT || i == C_KIDS || i == C_ROOT_ORDER;
}

/* cat is name (n bytes, a constant: the compare is inlined) */
#define CAT_IS(cat, name) (!memcmp(cat, name, sizeof(name) - 1))

enum node_cat tree_nodes_cat(const char *ph, size_t phlen, const char *cat, size_t catlen)
{
	/* every row asks (tl-cat --lean, tl-tree, tl-perf): by length first,
	 * then one compare */
	if (phlen == 1 && ph[0] == 'M')
		return NC_META;
	switch (catlen) {
	case 6:
		return CAT_IS(cat, "cpu_op") ? NC_CPU_OP : CAT_IS(cat, "kernel") ? NC_KERNEL : NC_OTHER;
	case 10:
		return CAT_IS(cat, "gpu_memcpy") ? NC_MEMCPY :
		       CAT_IS(cat, "gpu_memset") ? NC_MEMSET : NC_OTHER;
	case 11:
		return CAT_IS(cat, "cuda_driver") ? NC_DRIVER : NC_OTHER;
	case 12:
		return CAT_IS(cat, "cuda_runtime") ? NC_RUNTIME : NC_OTHER;
	case 15:
		return CAT_IS(cat, "python_function") ? NC_PYTHON : NC_OTHER;
	default:
		return NC_OTHER;
	}
}

int tree_nodes_annotation(const char *cat, size_t len)
{
	static const char word[] = "user_annotation";
	const size_t n = sizeof(word) - 1;

	for (size_t k = 0; k + n <= len; k++)
		if (cat[k] == 'u' && !memcmp(cat + k, word, n))
			return 1;
	return 0;
}

int tree_nodes_thin_kind(enum node_cat c, const char *cat, size_t catlen)
{
	return c == NC_PYTHON || (c == NC_OTHER && !tree_nodes_annotation(cat, catlen));
}

int tree_nodes_thin(const char *ph, size_t phlen, const char *cat, size_t catlen, int python)
{
	enum node_cat c = tree_nodes_cat(ph, phlen, cat, catlen);

	if (!catlen || (c == NC_PYTHON && python) || (catlen == 4 && !memcmp(cat, "ac2g", 4)))
		return 0;
	return tree_nodes_thin_kind(c, cat, catlen);
}

static uint32_t intern(struct tree_nodes *ns, struct stream *s, int col)
{
	return strpool_intern(ns->sp, stream_field(s, col), stream_field_len(s, col));
}

/* intern, for a column whose value repeats from row to row (pid, tid) */
static uint32_t intern_last(struct tree_nodes *ns, struct stream *s, int col,
			    struct tree_nodes_text *m)
{
	const char *v = stream_field(s, col);
	size_t n = stream_field_len(s, col);

	if (!text_memo_same(&m->text, v, n))
		m->id = strpool_intern(ns->sp, v, n);
	return m->id;
}

/* An M event: remember its name → value (spec core §1.8). */
static void add_meta(struct tree_nodes *ns, struct stream *s, const int *col,
		     const char *name, size_t *alloc)
{
	const char *label = !strcmp(name, "process_labels") ? "labels" : "name";
	struct json_value *args;
	const struct json_value *v;

	if (strcmp(name, "process_name") && strcmp(name, "thread_name") &&
	    strcmp(name, "process_labels"))
		return;
	args = json_value_parse(stream_field(s, col[C_ARGS]), stream_field_len(s, col[C_ARGS]));
	v = json_value_get(args, label);
	if (v && v->type == JV_STR) {
		xgrow((void **)&ns->meta, alloc, ns->nmeta + 1, sizeof(*ns->meta));
		ns->meta[ns->nmeta].pid = intern(ns, s, col[C_PID]);
		ns->meta[ns->nmeta].tid = intern(ns, s, col[C_TID]);
		ns->meta[ns->nmeta].key = strpool_intern(ns->sp, name, strlen(name));
		ns->meta[ns->nmeta].value = strpool_intern(ns->sp, v->s, v->len);
		ns->nmeta++;
	}
	json_value_free(args);
}

static int32_t uid_field(struct stream *s, int col)
{
	const char *f = stream_field(s, col), *digits_end;
	char *end;
	long v;
	uint64_t u;

	if (!*f)
		return -1;
	/* digits only, as tl-tree writes them: no strtol call */
	if ((digits_end = num_u64(f, &u)) && !*digits_end)
		return u > INT32_MAX ? -2 : (int32_t)u;
	v = strtol(f, &end, 10);
	if (*end || v < 0 || v > INT32_MAX)
		return -2;
	return (int32_t)v;
}

/* kids and root_order of one row (tl-nodes 2) */
static int read_v2(struct tree_nodes *ns, struct stream *s, const int *col, struct node *n)
{
	const char *k = stream_field(s, col[C_KIDS]), *r = stream_field(s, col[C_ROOT_ORDER]);
	size_t i = (size_t)(n - ns->node);
	char *end;

	ns->kid_off[i] = UINT32_MAX;
	ns->root_order[i] = 0;
	if (*r) {
		unsigned long v = strtoul(r, &end, 10);
		if (*end || !v || v >= UINT32_MAX)
			goto bad;
		ns->root_order[i] = (uint32_t)v;
	}
	if (!*k)
		return 0;
	ns->kid_off[i] = (uint32_t)ns->nkid;
	while (*k) {
		unsigned long v = strtoul(k, &end, 10);
		if (end == k || v >= UINT32_MAX || (*end && *end != ','))
			goto bad;
		xgrow((void **)&ns->kid, &ns->akid, ns->nkid + 2, sizeof(*ns->kid));
		ns->kid[ns->nkid++] = (uint32_t)v;
		k = *end ? end + 1 : end;
	}
	ns->kid[ns->nkid++] = UINT32_MAX;	/* end of this list */
	return 0;
bad:
	tl_warn("%s:%ld: bad kids or root_order field", stream_name(s), stream_lineno(s));
	return -1;
}

/*
 * Events that no sheet reads — flows and instants (NC_OTHER but user
 * annotations) and python frames out of the tree, with no parent and, in
 * a tl-nodes 2 stream, no children list or root order — are counted and
 * their times folded into drop_t0/drop_t1, but hold no record: in a
 * PyTorch trace they are most of the events (flows, instants and python
 * frames without tl-tree --python: 70 % of owlv2's).  node[] keeps the
 * others in uid order, and uid[] (NULL while nothing was dropped) says
 * whose each record is.
 */
static int droppable(const struct tree_nodes *ns, const struct node *n)
{
	size_t i = ns->n;

	if (n->parent >= 0)
		return 0;
	if (ns->kid_off && (ns->kid_off[i] != UINT32_MAX || ns->root_order[i]))
		return 0;
	return (n->cat == NC_OTHER && !(n->flags & NF_ANNOT)) ||
	       (n->cat == NC_PYTHON && !(n->flags & NF_TREE));
}

/* the record just read: kept (the next slot), or dropped */
static void keep(struct tree_nodes *ns, struct node *n)
{
	size_t uid = ns->nevents++;

	if (droppable(ns, n)) {
		if (n->flags & NF_HAS_TS) {	/* report_info's span */
			ns->drop_t0 = fmin(ns->drop_t0, n->ts);
			ns->drop_t1 = fmax(ns->drop_t1, fmax(node_end(n), n->ts));
		}
		if (!ns->uid) {
			ns->uid = xmalloc(st_mult(ns->nalloc, sizeof(*ns->uid)));
			for (size_t i = 0; i < ns->n; i++)
				ns->uid[i] = (uint32_t)i;
		}
		return;
	}
	if (ns->uid)
		ns->uid[ns->n] = (uint32_t)uid;
	ns->n++;
}

static int read_row(struct tree_nodes *ns, struct stream *s, const int *col, size_t *metaalloc)
{
	struct node *n = &ns->node[ns->n];
	const char *ts = stream_field(s, col[C_TS]);

	memset(n, 0, sizeof(*n));
	if (uid_field(s, col[C_UID]) != (int32_t)ns->nevents) {
		tl_warn("%s:%ld: uid %s out of order (expected %zu)", stream_name(s),
			stream_lineno(s), stream_field(s, col[C_UID]), ns->nevents);
		return -1;
	}
	if (ns->kid_off && read_v2(ns, s, col, n) < 0)
		return -1;
	n->parent = uid_field(s, col[C_PARENT]);
	n->fwd = col[C_FWD] >= 0 ? uid_field(s, col[C_FWD]) : -1;
	if (n->parent < -1 || n->fwd < -1) {
		tl_warn("%s:%ld: bad parent or fwd uid", stream_name(s), stream_lineno(s));
		return -1;
	}
	n->cat = tree_nodes_cat(stream_field(s, col[C_PH]), stream_field_len(s, col[C_PH]),
				stream_field(s, col[C_CAT]), stream_field_len(s, col[C_CAT]));
	/* flows, instants, annotations: only their place in the tree matters */
	if (n->cat == NC_OTHER) {
		/* user_annotation/gpu_user_annotation: InferenceAttention's
		 * iteration label (perf_sheet's annotation lookup) */
		if (tree_nodes_annotation(stream_field(s, col[C_CAT]),
					  stream_field_len(s, col[C_CAT])) && *ts) {
			n->flags |= NF_ANNOT;
			n->name = intern(ns, s, col[C_NAME]);
			n->ts = num_strtod(ts, NULL);
			n->dur = num_strtod(stream_field(s, col[C_DUR]), NULL);
		}
		keep(ns, n);
		return 0;
	}
	if (!strcmp(stream_field(s, col[C_TREE]), "1"))
		n->flags |= NF_TREE;
	/* a python frame keep() drops (most rows of a trace with stacks):
	 * only its span is read */
	if (n->cat == NC_PYTHON && droppable(ns, n)) {
		if (*ts) {
			n->flags |= NF_HAS_TS;
			n->ts = num_strtod(ts, NULL);
			n->dur = num_strtod(stream_field(s, col[C_DUR]), NULL);
		}
		keep(ns, n);
		return 0;
	}
	/* python frames out of the tree (tl-tree without --python) are many
	 * and never read: only frames in the tree keep their name (call
	 * stacks, recompute regions) */
	if (n->cat != NC_PYTHON || (n->flags & NF_TREE))
		n->name = intern(ns, s, col[C_NAME]);
	if (n->cat != NC_PYTHON) {
		n->pid = intern_last(ns, s, col[C_PID], &ns->last_pid);
		n->tid = intern_last(ns, s, col[C_TID], &ns->last_tid);
	}
	if (*ts) {
		const char *d = stream_field(s, col[C_DUR]);
		n->flags |= NF_HAS_TS;
		n->ts = num_strtod(ts, NULL);
		n->dur = num_strtod(d, NULL);
		if (*d && !strpbrk(d, ".eE") && strcmp(d, "NaN") && strcmp(d, "Infinity") &&
		    strcmp(d, "-Infinity"))
			n->flags |= NF_DUR_INT;
	}
	/*
	 * A GPU event whose time is impossible (inf, a negative dur: tl-cat
	 * names them) counts in no sheet, as tl-timeline does not count it,
	 * rather than turn a sum into inf or below zero.
	 */
	if (node_is_gpu(n) && (!isfinite(n->ts) || !isfinite(n->dur) || n->dur < 0)) {
		n->cat = NC_OTHER;
		ns->bad_time++;
	}
	if (stream_field_len(s, col[C_DUR]))
		n->flags |= NF_HAS_DUR;
	if (stream_field_len(s, col[C_STREAM])) {
		n->flags |= NF_STREAM;
		n->stream = intern(ns, s, col[C_STREAM]);
	}
	if (col[C_ROOT] >= 0 && !strcmp(stream_field(s, col[C_ROOT]), "1"))
		n->flags |= NF_ROOT;
	if (n->cat == NC_CPU_OP) {
		n->dims = intern(ns, s, col[C_DIMS]);
		n->types = intern(ns, s, col[C_TYPES]);
		n->strides = intern(ns, s, col[C_STRIDES]);
		n->concrete = intern(ns, s, col[C_CONCRETE]);
		/* pseudo ops carry their model's arguments ("MoE topk") in args */
		if (col[C_GRAFT] >= 0 && !strcmp(stream_field(s, col[C_GRAFT]), "pseudo"))
			n->args = intern(ns, s, col[C_ARGS]);
	}

	if (n->cat == NC_META)
		add_meta(ns, s, col, tree_nodes_str(ns, n->name), metaalloc);
	keep(ns, n);
	return 0;
}

/* the record of uid u, or -1 where u was dropped */
int32_t tree_nodes_index(const struct tree_nodes *ns, uint32_t u)
{
	size_t lo = 0, hi = ns->n;

	if (!ns->uid)
		return u < ns->n ? (int32_t)u : -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ns->uid[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ns->n && ns->uid[lo] == u ? (int32_t)lo : -1;
}

/* a parent or child uid as a record index; -1 (message printed) where
 * it names no event or one that holds no record */
static int32_t link_of(struct tree_nodes *ns, size_t i, uint32_t u, const char *what)
{
	uint32_t self = tree_nodes_uid(ns, i);
	int32_t k;

	if (u >= ns->nevents || u == self) {
		tl_warn("%s: uid %u: %s %u is not an event of the stream", ns->source, self, what, u);
		return -1;
	}
	if ((k = tree_nodes_index(ns, u)) < 0)
		tl_warn("%s: uid %u: %s %u is a flow, instant or python frame out of the tree",
			ns->source, self, what, u);
	return k;
}

/* parent, fwd and kids name uids in the stream, records in memory */
static int check_links(struct tree_nodes *ns)
{
	for (size_t i = 0; i < ns->n; i++) {
		struct node *n = &ns->node[i];
		if (n->parent >= 0 && (n->parent = link_of(ns, i, (uint32_t)n->parent, "parent")) < 0)
			return -1;
		if (n->fwd >= 0)
			n->fwd = (size_t)n->fwd < ns->nevents ? tree_nodes_index(ns, (uint32_t)n->fwd) : -1;
		if (ns->kid_off && ns->kid_off[i] != UINT32_MAX)
			for (uint32_t *k = ns->kid + ns->kid_off[i]; *k != UINT32_MAX; k++) {
				int32_t c = link_of(ns, i, *k, "child");
				if (c < 0)
					return -1;
				*k = (uint32_t)c;
			}
	}
	return 0;
}

/* -1 after a message if following up[] from a record comes back to it */
static int loops(const struct tree_nodes *ns, const uint32_t *up, const char *what)
{
	uint32_t v = tree_links_loop(up, (uint32_t)ns->n);

	if (v == TREE_LINKS_NONE)
		return 0;
	tl_warn("%s: uid %u: %s form a loop", ns->source, tree_nodes_uid(ns, v), what);
	return -1;
}

/*
 * The tree must be one: no parent chain, and no chain of the children
 * lists where the stream gives them (what tl-perf's walks follow), may
 * come back to where it started; such a stream would make them go round
 * for ever.  And no node may be in two children lists (tree_links.h).
 * 0 ok, -1 after a message.
 */
static int check_loops(struct tree_nodes *ns)
{
	uint32_t *up = xmalloc(st_mult(ns->n + 1, sizeof(*up)));
	int rc;

	for (size_t i = 0; i < ns->n; i++)
		up[i] = ns->node[i].parent >= 0 ? (uint32_t)ns->node[i].parent : TREE_LINKS_NONE;
	rc = loops(ns, up, "parent links");
	if (!rc && ns->kid_off) {
		for (size_t i = 0; i < ns->n; i++) {
			int32_t p = ns->node[i].parent;
			up[i] = p >= 0 && ns->kid_off[p] == UINT32_MAX ? (uint32_t)p : TREE_LINKS_NONE;
		}
		for (size_t i = 0; i < ns->n && !rc; i++)
			if (ns->kid_off[i] != UINT32_MAX)
				for (const uint32_t *k = ns->kid + ns->kid_off[i]; *k != UINT32_MAX && !rc; k++)
					if (tree_links_set(up, *k, (uint32_t)i) < 0) {
						tree_links_warn_shared(ns->source, tree_nodes_uid(ns, *k),
								       tree_nodes_uid(ns, up[*k]),
								       tree_nodes_uid(ns, (uint32_t)i));
						rc = -1;
					}
		if (!rc)
			rc = loops(ns, up, "children lists");
	}
	free(up);
	return rc;
}

/* The first GPU's name from "#top SRC deviceProperties JSON", for picking
 * a roofline table; NULL for other keys or no name. */
static const char *device_name(struct tree_nodes *ns, const char *l)
{
	const char *p = strchr(l + 4, '\t'), *q;

	if (!p || strncmp(p + 1, "deviceProperties\t", 17))
		return NULL;
	if (!(p = strstr(p, "\"name\":\"")))
		return NULL;
	p += 8;
	for (q = p; *q && *q != '"'; q++)
		if (*q == '\\' && q[1])
			q++;
	return strpool_str(ns->sp, strpool_intern(ns->sp, p, (size_t)(q - p)));
}

/*
 * Whether the columns are where tl-tree --lean puts the nine a
 * "#dropped" row gives (uid, src, ph, cat, name, pid, tid, ts, dur), and
 * the others it does not give after them (read_dropped).
 */
static int dropped_layout(const int *col)
{
	static const int at[C_STREAM] = {
		[C_UID] = 0, [C_PH] = 2, [C_CAT] = 3, [C_NAME] = 4, [C_PID] = 5,
		[C_TID] = 6, [C_TS] = 7, [C_DUR] = 8,
	};

	for (int i = 0; i < NCOL; i++)
		if (i < C_STREAM ? col[i] != at[i] : col[i] >= 0 && col[i] < 9)
			return 0;
	return 1;
}

/*
 * A "#dropped" row (tl-tree --lean: a flow, an instant or a python frame,
 * most of a trace's rows), read from its nine fields as written without
 * cutting it, as read_row would read it: counted, and a python frame's
 * span taken.  1 if so; 0 where read_row must read it (an escape, a uid
 * out of order, an annotation, a category the sheets read: read_row says
 * what is wrong).  fast: the columns are where a lean stream has them.
 */
static int read_dropped(struct tree_nodes *ns, struct stream *s, int fast)
{
	struct node *n = &ns->node[ns->n];
	const char *f[9], *e;
	size_t len[9];
	uint64_t u;

	if (!fast || ns->kid_off || !stream_peek_first(s, 9, f, len))
		return 0;
	if (!(e = num_u64(f[0], &u)) || e != f[0] + len[0] || u != ns->nevents)
		return 0;
	memset(n, 0, sizeof(*n));
	n->parent = n->fwd = -1;	/* the columns a "#dropped" row does not give */
	n->cat = tree_nodes_cat(f[2], len[2], f[3], len[3]);
	if (n->cat == NC_OTHER && tree_nodes_annotation(f[3], len[3]))
		return 0;
	if (n->cat != NC_OTHER && n->cat != NC_PYTHON)
		return 0;
	/* a python frame out of the tree: its span (ts ends at a tab, which
	 * num_strtod stops at as at the NUL of the field cut) */
	if (n->cat == NC_PYTHON && len[7]) {
		n->flags |= NF_HAS_TS;
		n->ts = num_strtod(f[7], NULL);
		n->dur = num_strtod(f[8], NULL);
	}
	keep(ns, n);
	return 1;
}

static int read_all(struct tree_nodes *ns, struct stream *s)
{
	int col[NCOL], r, sources = 0, fast;
	size_t metaalloc = 0, v2alloc = 0, kept;

	for (int i = 0; i < NCOL; i++) {
		col[i] = stream_col(s, colname[i]);
		if (col[i] < 0 && !optional_col(i)) {
			tl_warn("%s:%ld: no column '%s' (is this a tl-tree node stream?)",
				stream_name(s), stream_lineno(s), colname[i]);
			return -1;
		}
	}
	fast = dropped_layout(col);
	while ((r = stream_next(s)) > 0) {
		if (r == STREAM_DIRECTIVE) {
			const char *l = stream_line(s);
			if (!strncmp(l, "source\t", 7) && sources++) {
				tl_warn("%s:%ld: more than one trace in the stream; run one trace at a time",
					stream_name(s), stream_lineno(s));
				return -1;
			}
			if (!strncmp(l, "top\t", 4) && !ns->device)
				ns->device = device_name(ns, l);
			if (!strncmp(l, "source\t", 7) && strchr(l + 7, '\t'))
				ns->source = strpool_str(ns->sp, strpool_intern(ns->sp,
					strchr(l + 7, '\t') + 1, strlen(strchr(l + 7, '\t') + 1)));
			continue;
		}
		if (ns->n + 1 > ns->nalloc) {
			xgrow((void **)&ns->node, &ns->nalloc, ns->n + 1, sizeof(*ns->node));
			if (ns->uid)
				ns->uid = xrealloc(ns->uid, st_mult(ns->nalloc, sizeof(*ns->uid)));
		}
		if (col[C_KIDS] >= 0 && col[C_ROOT_ORDER] >= 0 && v2alloc != ns->nalloc) {
			v2alloc = ns->nalloc;
			ns->kid_off = xrealloc(ns->kid_off, st_mult(v2alloc, sizeof(*ns->kid_off)));
			ns->root_order = xrealloc(ns->root_order, st_mult(v2alloc, sizeof(*ns->root_order)));
		}
		if (r == STREAM_DROPPED && read_dropped(ns, s, fast))
			continue;
		if (r == STREAM_DROPPED && stream_cut(s) < 0)
			return -1;
		kept = ns->n;
		if (read_row(ns, s, col, &metaalloc))
			return -1;
		/* a "#dropped" row lacks the columns a kept record reads */
		if (r == STREAM_DROPPED && ns->n > kept) {
			tl_warn("%s:%ld: a \"#dropped\" row the sheets read (uid %s): the "
				"stream is not one tl-tree --lean wrote", stream_name(s),
				stream_lineno(s), stream_field(s, col[C_UID]));
			return -1;
		}
	}
	return r < 0 || check_links(ns) < 0 ? -1 : check_loops(ns);
}

struct tree_nodes *tree_nodes_read(const char *path)
{
	struct stream *s = stream_open(path, "nodes");
	struct tree_nodes *ns;

	if (!s)
		return NULL;
	stream_allow_dropped(s);
	ns = xcalloc(1, sizeof(*ns));
	ns->drop_t0 = INFINITY;
	ns->drop_t1 = -INFINITY;
	ns->sp = strpool_new();
	ns->meta_memo = xcalloc(META_N, sizeof(*ns->meta_memo));
	ns->source = strpool_str(ns->sp, strpool_intern(ns->sp, stream_name(s),
							  strlen(stream_name(s))));
	if (read_all(ns, s)) {
		stream_close(s);
		tree_nodes_free(ns);
		return NULL;
	}
	stream_close(s);
	if (ns->bad_time)
		tl_warn("%s: %zu GPU event%s with an infinite ts or dur or a negative dur left out",
			ns->source, ns->bad_time, ns->bad_time == 1 ? "" : "s");
	return ns;
}

void tree_nodes_free(struct tree_nodes *ns)
{
	if (!ns)
		return;
	free(ns->node);
	free(ns->uid);
	free(ns->meta);
	free(ns->meta_memo);
	free(ns->kid_off);
	free(ns->kid);
	free(ns->root_order);
	strpool_free(ns->sp);
	free(ns);
}

const char *tree_nodes_str(const struct tree_nodes *ns, uint32_t id)
{
	return strpool_str(ns->sp, id);
}

uint32_t tree_nodes_uid(const struct tree_nodes *ns, size_t i)
{
	return ns->uid ? ns->uid[i] : (uint32_t)i;
}

size_t tree_nodes_len(const struct tree_nodes *ns, uint32_t id)
{
	return strpool_len(ns->sp, id);
}

/* Last M event wins (a dict assignment in TraceLens). */
/*
 * metadata[pid][tid][key]; tid meta_tid0 is the text "0" (a process's
 * row), looked up only when the memo does not answer
 */
static const char *meta_find(const struct tree_nodes *ns, uint32_t pid, uint32_t tid, int kind)
{
	struct tree_nodes_memo *m = &ns->meta_memo[kind];
	uint32_t k;

	if (m->have && m->pid == pid && m->tid == tid)
		return m->value;
	m->have = 1;
	m->pid = pid;
	m->tid = tid;
	if (tid == meta_tid0)
		tid = strpool_find(ns->sp, "0", 1);
	k = strpool_find(ns->sp, meta_key[kind], strlen(meta_key[kind]));
	m->value = "Unknown";
	for (size_t i = ns->nmeta; i-- > 0; )
		if (ns->meta[i].key == k && ns->meta[i].pid == pid && ns->meta[i].tid == tid) {
			m->value = tree_nodes_str(ns, ns->meta[i].value);
			break;
		}
	return m->value;
}

const char *tree_nodes_process_name(const struct tree_nodes *ns, const struct node *n)
{
	return meta_find(ns, n->pid, meta_tid0, META_PROCESS_NAME);
}

const char *tree_nodes_process_label(const struct tree_nodes *ns, const struct node *n)
{
	return meta_find(ns, n->pid, meta_tid0, META_PROCESS_LABEL);
}

const char *tree_nodes_thread_name(const struct tree_nodes *ns, const struct node *n)
{
	return meta_find(ns, n->pid, n->tid, META_THREAD_NAME);
}
