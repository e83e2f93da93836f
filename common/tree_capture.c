/*
 * tree_capture: merge_capture_trace_into_graph, step by step as TraceLens
 * 171dd74 does it (the function names below are its own).
 */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "hmap.h"
#include "infer_annot.h"
#include "json_value.h"
#include "stream.h"
#include "stream_rows.h"
#include "strpool.h"
#include "tree.h"
#include "tree_capture.h"
#include "tree_graft.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* A list of node indexes. */
struct vec {
	uint32_t *v;
	size_t n, alloc;
};

static void vpush(struct vec *x, uint32_t e)
{
	xgrow((void **)&x->v, &x->alloc, x->n + 1, sizeof(*x->v));
	x->v[x->n++] = e;
}

static void vfree(struct vec *x)
{
	free(x->v);
	x->v = NULL;
	x->n = x->alloc = 0;
}

/* One capture window, its copyable events (get_subtree_events). */
struct croot {
	uint32_t node;		/* the CaptureRoot placeholder */
	struct vec events;	/* subtree, sorted by ts (stable over BFS order) */
	struct vec filtered;	/* its launch/memcpy/memset runtime calls, same order */
};

/* What classify_graph_capture_trace looks at, gathered while reading. */
struct classify {
	size_t dummy_runs, begin_captures;
	int has_capture_ann;
	double capture_ann_ts;
	int64_t capture_bs;
	char capture_mode[64];
	size_t capture_anns;
	struct hmap count;		/* first dim + 1 → count index */
	int64_t *dim;			/* first dims in first-seen order */
	size_t *cnt, ndim, adim, acnt;
};

struct capsrc {
	char *src;		/* the src column value */
	char *name;		/* the #source name */
	uint32_t srcno;
	struct tree *t;
	struct graft *g;
	uint32_t elements;
	int roots_done;
	struct croot *roots;
	size_t nroots;
	struct classify cl;
};

struct capture_set {
	struct capsrc *c;
	size_t n, alloc;
	struct stream_rows *rows;
	char *path;
};

/* ---- reading the capture traces ---------------------------------------- */

static regex_t dummy_re;
static int dummy_re_ok;

static int is_dummy_run(const char *name)
{
	if (!dummy_re_ok) {
		if (regcomp(&dummy_re, "^vllm/v1/worker/gpu_model_runner\\.py\\([0-9]+\\): _dummy_run",
			    REG_EXTENDED | REG_NOSUB))
			tl_die("internal error: dummy-run pattern");
		dummy_re_ok = 1;
	}
	return regexec(&dummy_re, name, 0, NULL, 0) == 0;
}

/* Counter of the first dims of cpu_op Input Dims (infer_batch_size_from_cpu_ops) */
static void count_dims(struct classify *cl, const char *dims)
{
	struct json_value *v;

	if (!*dims || !(v = json_value_parse(dims, strlen(dims))))
		return;
	if (v->type == JV_ARR)
		for (size_t i = 0; i < v->n; i++) {
			const struct json_value *d = &v->kids[i];
			int64_t x;
			uint32_t k;
			int ok;
			if (d->type != JV_ARR || !d->n || d->kids[0].type != JV_INT)
				continue;
			x = infer_int(d->kids[0].s, d->kids[0].len, &ok);
			if (!hmap_get(&cl->count, (uint64_t)x + 1, &k)) {
				xgrow((void **)&cl->dim, &cl->adim, cl->ndim + 1, sizeof(*cl->dim));
				xgrow((void **)&cl->cnt, &cl->acnt, cl->ndim + 1, sizeof(*cl->cnt));
				cl->dim[cl->ndim] = x;
				cl->cnt[cl->ndim] = 0;
				k = (uint32_t)cl->ndim++;
				hmap_put(&cl->count, (uint64_t)x + 1, k);
			}
			cl->cnt[k]++;
		}
	json_value_free(v);
}

static void classify_row(struct capsrc *c, const struct stream *s, const struct tree_cols *tc,
			 int c_dims)
{
	const char *cat = stream_field(s, tc->cat), *name = stream_field(s, tc->name);
	int64_t bs;
	char mode[64];

	if (is_dummy_run(name))
		c->cl.dummy_runs++;
	if (strstr(name, "StreamBeginCapture") && !strcmp(cat, "cuda_runtime"))
		c->cl.begin_captures++;
	if (!strcmp(cat, "cpu_op") && c_dims >= 0)
		count_dims(&c->cl, stream_field(s, c_dims));
	if (!strcmp(cat, "user_annotation") && infer_capture_parse(name, &bs, mode, sizeof(mode))) {
		const char *ts = stream_field(s, tc->ts);
		double t = *ts ? strtod(ts, NULL) : 0;
		c->cl.capture_anns++;
		/* the first by ts, ties in file order */
		if (!c->cl.has_capture_ann || t < c->cl.capture_ann_ts) {
			c->cl.has_capture_ann = 1;
			c->cl.capture_ann_ts = t;
			c->cl.capture_bs = bs;
			snprintf(c->cl.capture_mode, sizeof(c->cl.capture_mode), "%s", mode);
		}
	}
}

static struct capsrc *source(struct capture_set *cs, const char *src, const char *name)
{
	struct capsrc *c;

	for (size_t i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].src, src))
			return &cs->c[i];
	xgrow((void **)&cs->c, &cs->alloc, cs->n + 1, sizeof(*cs->c));
	c = &cs->c[cs->n];
	memset(c, 0, sizeof(*c));
	c->src = xstrdup(src);
	c->name = xstrdup(name ? name : src);
	c->srcno = (uint32_t)cs->n++;
	c->t = tree_new(TREE_PYTHON);
	c->g = graft_new();
	return c;
}

/*
 * "#source\tSRC\tNAME" and "#end\tSRC\tELEMENTS\tSKIPPED": -1 (message
 * printed) for an element count that is not one, or not above the
 * source's uids (the uids of the nodes a merge adds count on from it).
 */
static int directive(struct capture_set *cs, struct stream *s, char **pending_src,
		     char **pending_name)
{
	const char *l = stream_line(s);
	const char *a = strchr(l, '\t'), *b = a ? strchr(a + 1, '\t') : NULL;
	uint32_t n;
	int r;

	if (!a || !b)
		return 0;
	if (!strncmp(l, "source\t", 7)) {
		free(*pending_src);
		free(*pending_name);
		*pending_src = xstrndup(a + 1, (size_t)(b - a - 1));
		*pending_name = xstrdup(b + 1);
		return 0;
	}
	if ((r = stream_end_elements(s, &n)) == 0)
		return 0;
	if (r < 0) {
		tl_warn("%s:%ld: #end: the element count is not a number up to 2^31",
			stream_name(s), stream_lineno(s));
		return -1;
	}
	for (size_t i = 0; i < cs->n; i++) {
		struct capsrc *c = &cs->c[i];
		unsigned long last;
		if (strlen(c->src) != (size_t)(b - a - 1) || memcmp(c->src, a + 1, (size_t)(b - a - 1)))
			continue;
		if (tree_last_uid(c->t, &last) && last >= n) {
			tl_warn("%s:%ld: #end: %u elements, but the source has uid %lu",
				stream_name(s), stream_lineno(s), n, last);
			return -1;
		}
		c->elements = n;
	}
	return 0;
}

void capture_set_free(struct capture_set *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->n; i++) {
		struct capsrc *c = &cs->c[i];
		free(c->src);
		free(c->name);
		/* graft_attach hands the tree to the graft; a read that failed
		 * before it left them apart */
		if (!c->g || graft_tree(c->g) != c->t)
			tree_free(c->t);
		graft_free(c->g);
		for (size_t k = 0; k < c->nroots; k++) {
			vfree(&c->roots[k].events);
			vfree(&c->roots[k].filtered);
		}
		free(c->roots);
		hmap_release(&c->cl.count);
		free(c->cl.dim);
		free(c->cl.cnt);
	}
	free(cs->c);
	stream_rows_free(cs->rows);
	free(cs->path);
	free(cs);
}

struct capture_set *capture_set_read(const char *path, int verbose)
{
	struct stream *s = stream_open(path, "events");
	struct capture_set *cs;
	struct tree_cols tc;
	char *psrc = NULL, *pname = NULL;
	int r, c_dims;

	if (!s)
		return NULL;
	if (tree_cols_init(&tc, s) < 0) {
		stream_close(s);
		return NULL;
	}
	cs = xcalloc(1, sizeof(*cs));
	cs->path = xstrdup(path);
	cs->rows = stream_rows_new(s);
	c_dims = stream_col(s, "dims");
	while ((r = stream_next(s)) > 0) {
		struct tree_event ev;
		struct capsrc *c;
		if (r == STREAM_DIRECTIVE) {
			if (directive(cs, s, &psrc, &pname) < 0) {
				r = STREAM_ERROR;
				break;
			}
			continue;
		}
		c = source(cs, stream_field(s, tc.src),
			   psrc && !strcmp(psrc, stream_field(s, tc.src)) ? pname : NULL);
		if (tree_event_read(&ev, s, &tc) < 0 || tree_add(c->t, &ev) < 0 ||
		    stream_rows_add(cs->rows, s, c->srcno) < 0) {
			tl_warn("%s:%ld: bad or out-of-order uid", stream_name(s), stream_lineno(s));
			r = STREAM_ERROR;
			break;
		}
		graft_note_row(c->g, s, &tc);
		classify_row(c, s, &tc, c_dims);
	}
	free(psrc);
	free(pname);
	stream_close(s);
	if (r < 0) {
		capture_set_free(cs);
		return NULL;
	}
	for (size_t i = 0; i < cs->n; i++) {
		struct capsrc *c = &cs->c[i];
		tree_build(c->t);
		if (!c->elements) {
			size_t nr = tree_count(c->t);
			c->elements = nr ? tree_at(c->t, (uint32_t)nr - 1)->uid + 1 : 0;
		}
		graft_attach(c->g, c->t, c->elements);
		if (verbose)
			tl_warn("%s: capture trace '%s': %zu tree nodes", path, c->name,
				graft_count(c->g));
	}
	return cs;
}

const char *capture_set_name(const struct capture_set *cs, uint32_t cap)
{
	return cs->c[cap].name;
}

const struct graft *capture_set_graft(const struct capture_set *cs, uint32_t cap)
{
	return cs->c[cap].g;
}

const struct tree *capture_set_tree(const struct capture_set *cs, uint32_t cap)
{
	return cs->c[cap].t;
}

const char *capture_set_field(const struct capture_set *cs, uint32_t cap, uint32_t node,
			      const char *col)
{
	const struct capsrc *c = &cs->c[cap];
	const char *v = stream_rows_get(cs->rows, c->srcno, graft_at(c->g, node)->uid, col);

	return v ? v : "";
}

/* ---- execution_details.json ------------------------------------------ */

/* One capture trace by "{batch_size}_{mode}" (load_capture_folder). */
struct capkey {
	char key[96];
	int cap;		/* source, -1: file not found (entry skipped) */
};

struct details {
	struct capkey *k;
	size_t n, alloc;
	int64_t *bs;		/* capture_batch_sizes, every valid entry */
	size_t nbs, abs;
};

static int find_source(const struct capture_set *cs, const char *file)
{
	size_t fl = strlen(file);

	for (size_t i = 0; i < cs->n; i++) {
		const char *nm = cs->c[i].name;
		size_t nl = strlen(nm);
		if (!strcmp(nm, file) || (nl > fl && nm[nl - fl - 1] == '/' && !strcmp(nm + nl - fl, file)))
			return (int)i;
	}
	return -1;
}

static void details_put(struct details *d, const char *key, int cap, int64_t bs, int missing)
{
	xgrow((void **)&d->bs, &d->abs, d->nbs + 1, sizeof(*d->bs));
	d->bs[d->nbs++] = bs;
	if (missing)
		return;
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->k[i].key, key)) {
			d->k[i].cap = cap;	/* a later entry replaces it */
			return;
		}
	xgrow((void **)&d->k, &d->alloc, d->n + 1, sizeof(*d->k));
	snprintf(d->k[d->n].key, sizeof(d->k[d->n].key), "%s", key);
	d->k[d->n++].cap = cap;
}

/* One entry: {"file", "batch_size", "mode"}; invalid ones are skipped. */
static void details_entry(struct details *d, const struct capture_set *cs,
			  const struct json_value *e, const char *path)
{
	const struct json_value *f = json_value_get(e, "file"), *b = json_value_get(e, "batch_size"),
				*m = json_value_get(e, "mode");
	char key[96], bstr[32];
	int64_t bs;
	int ok = 1, cap;

	if (!f || f->type != JV_STR || !b || !m) {
		tl_warn("%s: capture entry without file, batch_size or mode: skipped", path);
		return;
	}
	/* isinstance(batch_size, int) holds for JSON true and false too */
	if (b->type == JV_INT) {
		bs = infer_int(b->s, b->len, &ok);
		snprintf(bstr, sizeof(bstr), "%.*s", (int)b->len, b->s);
	} else if (b->type == JV_TRUE || b->type == JV_FALSE) {
		bs = b->type == JV_TRUE;
		snprintf(bstr, sizeof(bstr), "%s", bs ? "True" : "False");
	} else {
		ok = 0;
	}
	if (!ok || m->type != JV_STR || (strcmp(m->s, "FULL") && strcmp(m->s, "PIECEWISE"))) {
		tl_warn("%s: invalid batch size or mode, skipping entry for '%s'", path, f->s);
		return;
	}
	snprintf(key, sizeof(key), "%s_%s", bstr, m->s);
	cap = find_source(cs, f->s);
	if (cap < 0)
		tl_warn("%s: capture file '%s' is not among the capture traces, skipping it", path, f->s);
	details_put(d, key, cap, bs, cap < 0);
}

static int details_read(struct details *d, const struct capture_set *cs, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, alloc = 0, got;
	struct json_value *v;

	if (!fp) {
		tl_warn_errno("%s", path);
		return -1;
	}
	do {
		xgrow((void **)&buf, &alloc, len + 65536, 1);
		got = fread(buf + len, 1, alloc - len, fp);
		len += got;
	} while (got > 0);
	if (ferror(fp)) {
		tl_warn_errno("%s: read error", path);
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	v = json_value_parse(buf, len);
	free(buf);
	if (!v || v->type != JV_ARR) {
		tl_warn("%s: not a JSON list of capture entries", path);
		json_value_free(v);
		return -1;
	}
	for (size_t i = 0; i < v->n; i++) {
		if (v->kids[i].type != JV_OBJ) {
			tl_warn("%s: entry %zu is not an object", path, i);
			json_value_free(v);
			return -1;
		}
		details_entry(d, cs, &v->kids[i], path);
	}
	json_value_free(v);
	return 0;
}

/* classify_graph_capture_trace, one entry per capture trace */
static void details_classify(struct details *d, const struct capture_set *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		const struct classify *cl = &cs->c[i].cl;
		char key[96];
		int64_t bs = 0;
		int has_bs = 0;
		const char *mode;

		if (cl->capture_anns && cl->capture_anns == cl->dummy_runs) {
			bs = cl->capture_bs;
			has_bs = 1;
			mode = cl->capture_mode;
		} else {
			size_t best = 0;
			mode = cl->begin_captures <= 1 ? "FULL" : "PIECEWISE";
			/* Counter.most_common(1): ties go to the first seen */
			for (size_t k = 0; k < cl->ndim; k++)
				if (cl->cnt[k] > cl->cnt[best])
					best = k;
			if (cl->ndim) {
				bs = cl->dim[best];
				has_bs = 1;
			}
		}
		tl_warn("capture trace '%s': batch_size %s%lld, mode %s (%s)", cs->c[i].name,
			has_bs ? "" : "None", has_bs ? (long long)bs : 0LL, mode,
			cl->capture_anns && cl->capture_anns == cl->dummy_runs ?
			"from its capture annotation" : "inferred");
		if (!has_bs || (strcmp(mode, "FULL") && strcmp(mode, "PIECEWISE"))) {
			tl_warn("capture trace '%s': invalid batch size or mode, skipping it",
				cs->c[i].name);
			continue;
		}
		snprintf(key, sizeof(key), "%lld_%s", (long long)bs, mode);
		details_put(d, key, (int)i, bs, 0);
	}
}

static int details_find(const struct details *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->k[i].key, key))
			return d->k[i].cap;
	return -1;
}

static int details_has(const struct details *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->k[i].key, key))
			return 1;
	return 0;
}

/* ---- subtrees ----------------------------------------------------------- */

static const struct graft *sort_g;

static int by_ts_pos(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;	/* (node, BFS position) pairs */
	double tx = graft_at(sort_g, x[0])->ts, ty = graft_at(sort_g, y[0])->ts;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

static void sort_ts(const struct graft *g, struct vec *v)
{
	uint32_t *pairs = xmalloc(st_mult(v->n + 1, 2 * sizeof(*pairs)));

	for (size_t i = 0; i < v->n; i++) {
		pairs[2 * i] = v->v[i];
		pairs[2 * i + 1] = (uint32_t)i;
	}
	sort_g = g;
	if (v->n)
		tl_qsort(pairs, v->n, 2 * sizeof(*pairs), by_ts_pos);
	for (size_t i = 0; i < v->n; i++)
		v->v[i] = pairs[2 * i];
	free(pairs);
}

static int is_gpu_kind(int kind)
{
	return kind == TK_KERNEL || kind == TK_MEMCPY || kind == TK_MEMSET;
}

/*
 * get_subtree_events: breadth first from root through the children lists;
 * both lists sorted by ts, stable.  capture: keep launch, memcpy and
 * memset runtime/driver calls; else keep GPU events.
 */
static void subtree(const struct graft *g, uint32_t root, int capture, struct vec *all,
		    struct vec *filt)
{
	size_t head = 0;

	all->n = filt->n = 0;
	vpush(all, root);
	while (head < all->n) {
		uint32_t x = all->v[head++];
		const struct gnode *n = graft_at(g, x);
		const char *name = graft_str(g, n->name);
		int keep = capture ? (n->kind == TK_RUNTIME || n->kind == TK_DRIVER) &&
				     (strcasestr(name, "launch") || strcasestr(name, "memcpy") ||
				      strcasestr(name, "memset")) :
				     is_gpu_kind(n->kind);
		if (keep)
			vpush(filt, x);
		for (uint32_t k = 0; k < n->nkids; k++)
			vpush(all, n->kids[k]);
	}
	sort_ts(g, all);
	sort_ts(g, filt);
}

/* find_capture_roots: a placeholder per StreamBeginCapture/EndCapture pair */
static void find_capture_roots(struct capsrc *c)
{
	struct graft *g = c->g;
	size_t nn = graft_count(g), nb = 0, ne = 0, ab = 0, ae = 0;
	double *begin = NULL, *end = NULL;

	c->roots_done = 1;
	for (uint32_t i = 0; i < nn; i++) {
		const struct gnode *n = graft_at(g, i);
		const char *name = graft_str(g, n->name);
		if (n->kind != TK_RUNTIME)
			continue;
		if (strstr(name, "StreamBeginCapture")) {
			xgrow((void **)&begin, &ab, nb + 1, sizeof(*begin));
			begin[nb++] = n->ts + n->dur;
		} else if (strstr(name, "StreamEndCapture")) {
			xgrow((void **)&end, &ae, ne + 1, sizeof(*end));
			end[ne++] = n->ts;
		}
	}
	for (size_t w = 0; w < nb && w < ne; w++) {
		struct vec roots = { 0 };
		uint32_t cr;
		for (uint32_t i = 0; i < graft_count(g); i++) {
			const struct gnode *n = graft_at(g, i), *p;
			if (n->ts < begin[w] || n->ts + n->dur > end[w] || n->parent == GN_NONE ||
			    (n->kind != TK_CPU_OP && n->kind != TK_PYTHON))
				continue;
			p = graft_at(g, n->parent);
			if (p->ts >= begin[w] && p->ts + p->dur <= end[w])
				continue;
			vpush(&roots, i);
		}
		cr = graft_add(g, TK_RUNTIME, GO_CAPROOT, "CaptureRoot");
		graft_at(g, cr)->ts = begin[w];
		graft_at(g, cr)->dur = end[w] - begin[w];
		graft_at(g, cr)->flags |= GF_NOTHREAD;
		graft_at(g, cr)->link = TLK_NO_KEY;	/* args {}: no correlation */
		graft_kids_set(g, cr, roots.v, (uint32_t)roots.n);
		for (size_t k = 0; k < roots.n; k++)
			graft_at(g, roots.v[k])->parent = cr;
		c->roots = xrealloc(c->roots, st_mult(c->nroots + 1, sizeof(*c->roots)));
		memset(&c->roots[c->nroots], 0, sizeof(*c->roots));
		c->roots[c->nroots++].node = cr;
		vfree(&roots);
	}
	for (size_t k = 0; k < c->nroots; k++)
		subtree(g, c->roots[k].node, 1, &c->roots[k].events, &c->roots[k].filtered);
	free(begin);
	free(end);
}

/* ---- pairing captured launches with replayed kernels -------------------- */

/* The two sides of one graph launch: capture nodes and graph GPU nodes. */
struct side {
	const struct graft *cg, *g;
};

/* _capture_kernel_name: args.kernel, else the call's name */
static const char *cname(const struct side *s, uint32_t c)
{
	uint32_t k = graft_row_kernel(s->cg, graft_at(s->cg, c)->uid);

	return k ? graft_str(s->cg, k) : graft_name(s->cg, c);
}

static int has_kernel_arg(const struct side *s, uint32_t c)
{
	return graft_row_kernel(s->cg, graft_at(s->cg, c)->uid) != 0;
}

static const char *gname(const struct side *s, uint32_t k)
{
	return graft_name(s->g, k);
}

/* _names_match: Memcpy/Memset carry no kernel arg */
static int names_match(const struct side *s, uint32_t c, const char *g_name)
{
	const char *c_name = graft_name(s->cg, c);

	if ((strstr(c_name, "Memcpy") && strstr(g_name, "Memcpy")) ||
	    (strstr(c_name, "Memset") && (strstr(g_name, "Memset") || strstr(g_name, "fillBuffer"))))
		return 1;
	return !strcmp(cname(s, c), g_name);
}

/* _align_capture_to_graph: greedy forward scan; 0 if a kernel is unmatched */
static int align_greedy(const struct side *s, const struct vec *cap, const struct vec *gr,
			struct vec *out)
{
	size_t ci = 0;

	out->n = 0;
	for (size_t gi = 0; gi < gr->n; gi++) {
		const char *g_name = gname(s, gr->v[gi]);
		int matched = 0;
		while (ci < cap->n) {
			uint32_t c = cap->v[ci++];
			if (names_match(s, c, g_name)) {
				vpush(out, c);
				matched = 1;
				break;
			}
		}
		if (!matched)
			return 0;
	}
	return 1;
}

/* _align_graph_to_capture_by_group: per-name positional; 0 on a count mismatch */
static int align_groups(const struct side *s, const struct vec *cap, const struct vec *gr,
			struct vec *out)
{
	struct strpool *names = strpool_new();
	size_t nn;
	struct vec *byname;
	size_t *ccount, *used;
	int ok = 1;

	for (size_t i = 0; i < cap->n; i++) {
		const char *n = cname(s, cap->v[i]);
		strpool_intern(names, n, strlen(n));
	}
	for (size_t i = 0; i < gr->n; i++) {
		const char *n = gname(s, gr->v[i]);
		strpool_intern(names, n, strlen(n));
	}
	nn = strpool_count(names);
	byname = xcalloc(nn + 1, sizeof(*byname));
	ccount = xcalloc(nn + 1, sizeof(*ccount));
	used = xcalloc(nn + 1, sizeof(*used));
	for (size_t i = 0; i < cap->n; i++) {
		const char *n = cname(s, cap->v[i]);
		ccount[strpool_find(names, n, strlen(n))]++;
	}
	for (size_t i = 0; i < gr->n; i++) {
		const char *n = gname(s, gr->v[i]);
		vpush(&byname[strpool_find(names, n, strlen(n))], gr->v[i]);
	}
	for (size_t k = 0; k < nn; k++)
		if (ccount[k] != byname[k].n) {
			tl_warn("capture: group alignment: count mismatch for kernel '%s': capture %zu, graph %zu",
				strpool_str(names, (uint32_t)k), ccount[k], byname[k].n);
			ok = 0;
			break;
		}
	out->n = 0;
	for (size_t i = 0; ok && i < cap->n; i++) {
		const char *n = cname(s, cap->v[i]);
		uint32_t k = strpool_find(names, n, strlen(n));
		vpush(out, byname[k].v[used[k]++]);
	}
	for (size_t k = 0; k < nn; k++)
		vfree(&byname[k]);
	free(byname);
	free(ccount);
	free(used);
	strpool_free(names);
	return ok;
}

/* verify_subtree_events: 1 positional, 2 greedy, 3 by group, 0 failed;
 * capture and graph hold the (re)aligned lists on success */
static int verify(const struct side *s, struct vec *cap, struct vec *gr)
{
	struct vec out = { 0 };
	int rc = 1;

	if (cap->n != gr->n) {
		if (!align_greedy(s, cap, gr, &out)) {
			vfree(&out);
			return 0;
		}
		vfree(cap);
		*cap = out;
		return 2;
	}
	for (size_t i = 0; i < cap->n; i++) {
		uint32_t c = cap->v[i];
		const char *cn = graft_name(s->cg, c);
		if (!has_kernel_arg(s, c)) {
			if (!strstr(cn, "Memcpy") && !strstr(cn, "Memset"))
				tl_warn("capture: kernel name missing in capture event args, alignment has not been verified");
			continue;
		}
		if (strcmp(gname(s, gr->v[i]), cname(s, c))) {
			rc = align_groups(s, cap, gr, &out) ? 3 : 0;
			if (rc == 3) {
				vfree(gr);
				*gr = out;
			} else {
				vfree(&out);
			}
			return rc;
		}
	}
	return rc;
}

static int is_multistream(const struct side *s, const struct vec *gr)
{
	for (size_t i = 1; i < gr->n; i++)
		if (graft_row_stream(s->g, graft_at(s->g, gr->v[i])->uid) !=
		    graft_row_stream(s->g, graft_at(s->g, gr->v[0])->uid))
			return 1;
	return 0;
}

static int capture_has_kernel_names(const struct side *s, const struct vec *cap)
{
	for (size_t i = 0; i < cap->n; i++) {
		const char *n = graft_name(s->cg, cap->v[i]);
		if (strstr(n, "Memcpy") || strstr(n, "Memset"))
			continue;
		if (!has_kernel_arg(s, cap->v[i]))
			return 0;
	}
	return 1;
}

/*
 * align_streams: graph kernels queued per stream (first-seen stream
 * order); each capture call takes the head of a queue whose name matches,
 * the longest forward run of matches breaking ties.  0 if a kernel is
 * left unmatched; else cap becomes the captures in graph order.
 */
static int align_streams(const struct side *s, struct vec *cap, const struct vec *gr)
{
	size_t nq = 0, *head, *qn;
	uint32_t *qstream = xmalloc(st_mult(gr->n + 1, sizeof(*qstream)));
	uint32_t **q = xcalloc(gr->n + 1, sizeof(*q));
	uint32_t *mapping = xmalloc(st_mult(gr->n + 1, sizeof(*mapping)));
	uint32_t *qpos = xmalloc(st_mult(gr->n + 1, sizeof(*qpos)));
	size_t *cand = xmalloc(st_mult(gr->n + 1, sizeof(*cand)));
	int ok = 1;

	head = xcalloc(gr->n + 1, sizeof(*head));
	qn = xcalloc(gr->n + 1, sizeof(*qn));
	for (size_t i = 0; i < gr->n; i++) {
		uint32_t st = graft_row_stream(s->g, graft_at(s->g, gr->v[i])->uid);
		size_t k;
		for (k = 0; k < nq && qstream[k] != st; k++)
			;
		if (k == nq) {
			qstream[nq] = st;
			q[nq] = xmalloc(st_mult(gr->n, sizeof(**q)));
			nq++;
		}
		qpos[i] = (uint32_t)qn[k];
		q[k][qn[k]++] = (uint32_t)i;
		mapping[i] = GN_NONE;
	}
	for (size_t ci = 0; ci < cap->n; ci++) {
		size_t nc = 0, chosen;
		for (size_t k = 0; k < nq; k++)
			if (head[k] < qn[k] && names_match(s, cap->v[ci], gname(s, gr->v[q[k][head[k]]])))
				cand[nc++] = k;
		if (!nc)
			continue;
		chosen = cand[0];
		if (nc > 1) {
			long best = -1;
			for (size_t j = 0; j < nc; j++) {
				size_t k = cand[j];
				long run = 0;
				while (head[k] + (size_t)run < qn[k] && ci + (size_t)run < cap->n &&
				       names_match(s, cap->v[ci + (size_t)run],
						   gname(s, gr->v[q[k][head[k] + (size_t)run]])))
					run++;
				if (run > best) {
					best = run;
					chosen = k;
				}
			}
		}
		mapping[q[chosen][head[chosen]++]] = cap->v[ci];
	}
	for (size_t i = 0; i < gr->n; i++)
		if (mapping[i] == GN_NONE)
			ok = 0;
	if (ok) {
		cap->n = 0;
		for (size_t i = 0; i < gr->n; i++)
			vpush(cap, mapping[i]);
	}
	for (size_t k = 0; k < nq; k++)
		free(q[k]);
	free(q);
	free(qstream);
	free(mapping);
	free(qpos);
	free(cand);
	free(head);
	free(qn);
	return ok;
}

/* ---- copying a capture window under its graph launch ------------------- */

/* update_subtree_uids_and_timestamps + append_subtree_to_event; returns
 * the copies (copy[i] of events[i]) */
static uint32_t *graft_window(struct graft *g, struct capsrc *c, const struct croot *cr,
			      uint32_t groot, const struct graft_event *ge, uint32_t *map)
{
	const struct graft *cg = c->g;
	size_t n = cr->events.n, nroots;
	uint32_t *copy = xmalloc(st_mult(n + 1, sizeof(*copy)));
	const uint32_t *croots;
	const struct gnode *gr = graft_at(g, groot);

	for (size_t i = 0; i < n; i++) {
		uint32_t ce = cr->events.v[i], x;
		const struct gnode *cn = graft_at(cg, ce);
		struct gnode *xn;
		x = graft_add(g, cn->kind, cn->origin == GO_CAPROOT ? GO_CAPROOT : GO_COPY,
			      graft_name(cg, ce));
		xn = graft_at(g, x);
		gr = graft_at(g, groot);
		xn->ts = gr->ts;
		xn->dur = gr->dur;
		xn->tstext = ge->ts;
		xn->durtext = ge->dur;
		xn->from = ce;
		xn->cap = c->srcno;
		xn->link = cn->link;
		xn->flags = (uint16_t)(GF_TREE | (cn->flags & GF_NOTHREAD));
		xn->corr = cn->corr ? graft_intern(g, graft_str(cg, cn->corr)) : 0;
		xn->thread = graft_intern(g, graft_str(cg, cn->thread));
		graft_copy_row(g, xn->uid, cg, cn->uid);
		copy[i] = x;
		map[ce] = x;
	}
	for (size_t i = 0; i < n; i++) {
		const struct gnode *cn = graft_at(cg, cr->events.v[i]);
		graft_at(g, copy[i])->parent = cn->parent != GN_NONE ? map[cn->parent] : GN_NONE;
		for (uint32_t k = 0; k < cn->nkids; k++)
			if (map[cn->kids[k]] != GN_NONE)
				graft_kid_append(g, copy[i], map[cn->kids[k]]);
	}
	graft_at(g, copy[0])->parent = groot;
	graft_kids_set(g, groot, &copy[0], 1);
	for (size_t i = 0; i < n; i++)
		graft_name_append(g, graft_at(g, copy[i])->name, copy[i]);
	croots = graft_roots(cg, &nroots);
	for (size_t k = 0; k < nroots; k++)
		if (map[croots[k]] != GN_NONE)
			graft_root_append(g, map[croots[k]]);
	return copy;
}

/* make_connections: each kernel under the launch call captured for it */
static void connect(struct graft *g, const struct vec *gr, const struct vec *cap,
		    const uint32_t *map)
{
	for (size_t i = 0; i < gr->n && i < cap->n; i++) {
		uint32_t k = gr->v[i], c = map[cap->v[i]];
		struct gnode *kn = graft_at(g, k);
		graft_kids_set(g, c, &k, 1);
		kn->parent = c;
		kn->corr = graft_at(g, c)->corr;
		kn->flags |= GF_CORR;
		graft_gev_append(g, c, k);
		for (uint32_t a = graft_at(g, c)->parent; a != GN_NONE; a = graft_at(g, a)->parent)
			graft_gev_append(g, a, k);
	}
}

/* ---- the merge ---------------------------------------------------------- */

static const struct graft_event *sort_ev;

static int by_tsv(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double tx = sort_ev[x].tsv, ty = sort_ev[y].tsv;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x > y) - (x < y);
}

/* find_iteration_roots_by_priority: the detailed tier, else the native one */
static uint32_t *execution_roots(const struct graft *g, size_t *n)
{
	size_t na;
	const struct graft_event *a = graft_annotations(g, &na);
	uint32_t *out = xmalloc(st_mult(na + 1, sizeof(*out)));

	*n = 0;
	for (int tier = 1; tier <= 2 && !*n; tier++)
		for (size_t i = 0; i < na; i++)
			if (infer_iter_tier(graft_str(g, a[i].name)) == tier)
				out[(*n)++] = (uint32_t)i;
	sort_ev = a;
	if (*n)
		tl_qsort(out, *n, sizeof(*out), by_tsv);
	return out;
}

/* find_execution_details: the batch size text, or NULL */
static int execution_batch(const char *name, int64_t *bs)
{
	struct infer_iter it;
	const char *u, *p;
	int ok;

	infer_iter_parse(&it, name);
	if (it.kind) {
		*bs = it.batch_size;
		return 1;
	}
	/* name.split("_")[1] when it is all digits (a leading "-" allowed) */
	if (!(u = strchr(name, '_')))
		return 0;
	u++;
	p = u;
	while (*p == '-')
		p++;
	if (!*p || *p == '_')
		return 0;
	for (const char *q = p; *q && *q != '_'; q++)
		if (!isdigit((unsigned char)*q))
			return 0;
	*bs = infer_int(u, strcspn(u, "_"), &ok);
	return ok;
}

struct merge {
	struct graft *g;
	struct capture_set *cs;
	struct details d;
	uint32_t *map;
	size_t amap;
	int failed, verbose;
};

static void merge_pair(struct merge *m, struct capsrc *c, const struct croot *cr,
		       uint32_t groot, const struct graft_event *ge)
{
	struct side s = { c->g, m->g };
	struct vec all = { 0 }, gr = { 0 }, cap = { 0 };
	uint32_t *copy;
	size_t nc = graft_count(c->g);

	subtree(m->g, groot, 0, &all, &gr);
	vfree(&all);
	for (size_t i = 0; i < cr->filtered.n; i++)
		vpush(&cap, cr->filtered.v[i]);
	if (!gr.n) {
		tl_warn("capture: no kernel events in graph root uid %u; skipping merge",
			graft_at(m->g, groot)->uid);
		goto out;
	}
	if (is_multistream(&s, &gr)) {
		if (!capture_has_kernel_names(&s, &cap)) {
			tl_warn("capture: graph capture merge failed: multistream graph root uid %u but capture kernel names are absent",
				graft_at(m->g, groot)->uid);
			m->failed = 1;
			goto out;
		}
		if (!align_streams(&s, &cap, &gr)) {
			tl_warn("capture: multistream alignment failed for graph root uid %u; not merged",
				graft_at(m->g, groot)->uid);
			goto out;
		}
	} else if (!verify(&s, &cap, &gr)) {
		tl_warn("capture: subtree events verification failed for graph root uid %u; not merged",
			graft_at(m->g, groot)->uid);
		goto out;
	}
	xgrow((void **)&m->map, &m->amap, nc + 1, sizeof(*m->map));
	for (size_t i = 0; i < nc; i++)
		m->map[i] = GN_NONE;
	copy = graft_window(m->g, c, cr, groot, ge, m->map);
	connect(m->g, &gr, &cap, m->map);
	free(copy);
out:
	vfree(&gr);
	vfree(&cap);
}

/* The capture trace for one execution root, and its pairing with the
 * root's graph launches. */
static void merge_root(struct merge *m, const struct graft_event *er, const uint32_t *groots,
		       size_t ng)
{
	const char *ername = graft_str(m->g, er->name);
	int64_t bs, best = 0;
	int have = 0, cap;
	char full[96], piece[96];
	const char *key;
	struct capsrc *c;
	size_t nl;
	const struct graft_event *gl = graft_launches(m->g, &nl);

	if (!execution_batch(ername, &bs)) {
		tl_warn("capture: could not determine batch size for execution root '%s'", ername);
		return;
	}
	for (size_t i = 0; i < m->d.nbs; i++)
		if (m->d.bs[i] >= bs && (!have || m->d.bs[i] < best)) {
			best = m->d.bs[i];
			have = 1;
		}
	if (!have) {
		tl_warn("capture: no capture batch size found for batch size %lld", (long long)bs);
		return;
	}
	snprintf(full, sizeof(full), "%lld_FULL", (long long)best);
	snprintf(piece, sizeof(piece), "%lld_PIECEWISE", (long long)best);
	if (details_has(&m->d, full) && details_has(&m->d, piece))
		key = ng != 1 ? piece : full;
	else if (details_has(&m->d, full))
		key = full;
	else if (details_has(&m->d, piece))
		key = piece;
	else {
		tl_warn("capture: no capture trace for batch size %lld", (long long)best);
		return;
	}
	cap = details_find(&m->d, key);
	c = &m->cs->c[cap];
	if (!c->roots_done)
		find_capture_roots(c);
	if (m->verbose)
		tl_warn("capture: execution root '%s': %zu graph roots, capture trace '%s' (%s), %zu capture roots",
			ername, ng, c->name, key, c->nroots);
	if (c->nroots != 1 && c->nroots != ng) {
		tl_warn("capture: number of capture roots (%zu) does not match number of graph roots (%zu) for execution root '%s'; not merged",
			c->nroots, ng, ername);
		return;
	}
	for (size_t i = 0; i < ng; i++) {
		uint32_t groot = graft_find(m->g, gl[groots[i]].uid);
		const struct croot *cr = &c->roots[c->nroots == 1 ? 0 : i];
		if (groot == GN_NONE || !cr->events.n) {
			tl_warn("capture: no kernel events in graph root uid %u; skipping merge",
				gl[groots[i]].uid);
			continue;
		}
		merge_pair(m, c, cr, groot, &gl[groots[i]]);
	}
}

int tree_capture_merge(struct graft *g, struct capture_set *cs, const char *details,
		       int verbose)
{
	struct merge m = { g, cs, { 0 }, NULL, 0, 0, verbose };
	size_t ner, nl, ng;
	uint32_t *er = execution_roots(g, &ner), *groots;
	const struct graft_event *ann = graft_annotations(g, &nl), *gl;
	int rval = 0;

	gl = graft_launches(g, &nl);
	groots = xmalloc(st_mult(nl + 1, sizeof(*groots)));
	if (verbose)
		tl_warn("capture: %zu execution roots, %zu graph launches", ner, nl);
	if (details ? details_read(&m.d, cs, details) < 0 : (details_classify(&m.d, cs), 0)) {
		rval = -1;
		goto out;
	}
	for (size_t r = 0; r < ner; r++) {
		const struct graft_event *e = &ann[er[r]];
		double lo = e->tsv, hi = e->tsv + e->durv;
		ng = 0;
		for (size_t i = 0; i < nl; i++)
			if (lo <= gl[i].tsv && gl[i].tsv + gl[i].durv <= hi)
				groots[ng++] = (uint32_t)i;
		sort_ev = gl;
		if (ng)
			tl_qsort(groots, ng, sizeof(*groots), by_tsv);
		if (!ng) {
			if (verbose)
				tl_warn("capture: no graph roots for execution root '%s'",
					graft_str(g, e->name));
			continue;
		}
		merge_root(&m, e, groots, ng);
	}
	rval = m.failed;
out:
	free(er);
	free(groots);
	free(m.map);
	free(m.d.k);
	free(m.d.bs);
	return rval;
}
