/*
 * tree_graft_io: the edited tree's node stream (tl-nodes 2).  Pass 1 reads
 * the trace's rows into the tree (and the few fields the edits need) while
 * keeping the lines for pass 2; the edits run; pass 2 writes every line
 * with the tree columns and, before #end, the rows of the added nodes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_name.h"
#include "err.h"
#include "np_stat.h"
#include "outbuf.h"
#include "py_fmt.h"
#include "stream.h"
#include "stream_rows.h"
#include "tree.h"
#include "tree_capture.h"
#include "tree_graft.h"
#include "tree_graft_io.h"
#include "tree_io.h"
#include "tree_pseudo.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

static const char graft_cols[] =
	"\tparent\tdepth\ttree\troot\tdrop\tlink\tfwd\tbwd\tgpu_n"
	"\tkernel_direct_us\tgpu_busy_us\tlauncher\tkernel_direct_n"
	"\tgraft\tkids\troot_order\tnn_module_stack";

/* The computed columns of one node. */
struct gcol {
	uint32_t depth, gpu_n, launcher, direct_n, root_order;
	double busy, direct;
	uint8_t is_launcher, kids_out;
};

struct gio {
	const struct graft_opts *o;
	struct graft *g;
	struct tree *t;
	struct capture_set *cs;
	struct pseudo_set *ps;
	struct gcol *col;
	uint8_t *wanted;		/* trace nodes whose rows the pseudo ops copy */
	struct stream_rows *rows;	/* those rows */
	char **colnames;
	int ncols, c_uid, c_src, c_name, c_corr;
	char *src;
	uint32_t elements;
	int have_end;
	/* pass 1 → pass 2 */
	FILE *fp, *again;
	struct outbuf *sp;
	size_t nlines;
	const char *path;
};

/* ---- the columns --------------------------------------------------------- */

static int host_kind(int k)
{
	return k == TK_CPU_OP || k == TK_RUNTIME || k == TK_DRIVER || k == TK_PYTHON;
}

static int is_host(const struct gio *io, uint32_t i)
{
	const struct gnode *n = graft_at(io->g, i);

	if (!(n->flags & GF_TREE) || !host_kind(n->kind))
		return 0;
	return n->origin != GO_TRACE || (tree_at(io->t, n->from)->flags & TN_HOST);
}

static double busy(const struct graft *g, const uint32_t *v, size_t n)
{
	struct timeline_interval *iv = xmalloc(st_mult(n + 1, sizeof(*iv)));
	double b;

	for (size_t i = 0; i < n; i++) {
		iv[i].start = graft_at(g, v[i])->ts;
		iv[i].end = graft_at(g, v[i])->ts + graft_at(g, v[i])->dur;
	}
	b = np_busy_time(iv, n);
	free(iv);
	return b;
}

static void depths(struct gio *io)
{
	size_t nn = graft_count(io->g);
	uint8_t *done = xcalloc(nn + 1, 1);
	uint32_t *stk = xmalloc(st_mult(nn + 1, sizeof(*stk)));

	for (uint32_t i = 0; i < nn; i++) {
		size_t ns = 0;
		uint32_t x = i;
		/* climb to a node whose depth is known (a cycle stops at nn steps) */
		while (x != GN_NONE && !done[x] && ns < nn) {
			stk[ns++] = x;
			x = graft_at(io->g, x)->parent;
		}
		while (ns) {
			uint32_t y = stk[--ns], p = graft_at(io->g, y)->parent;
			io->col[y].depth = p == GN_NONE || !done[p] ? 0 :
					   io->col[p].depth < UINT32_MAX ? io->col[p].depth + 1 : UINT32_MAX;
			done[y] = 1;
		}
	}
	free(done);
	free(stk);
}

/* GPU events under each host node, through the children lists */
static void subtree_gpu(struct gio *io)
{
	const struct graft *g = io->g;
	size_t nn = graft_count(g);
	uint32_t *stamp = xcalloc(nn + 1, sizeof(*stamp)), *stk = NULL, *gpu = NULL;
	size_t as = 0, ag = 0;

	for (uint32_t i = 0; i < nn; i++) {
		size_t ns = 0, ngpu = 0;
		if (!is_host(io, i))
			continue;
		xgrow((void **)&stk, &as, 1, sizeof(*stk));
		stk[ns++] = i;
		stamp[i] = i + 1;
		while (ns) {
			const struct gnode *x = graft_at(g, stk[--ns]);
			for (uint32_t k = 0; k < x->nkids; k++) {
				uint32_t c = x->kids[k];
				if (stamp[c] == i + 1)
					continue;
				stamp[c] = i + 1;
				if (graft_is_gpu(graft_at(g, c))) {
					xgrow((void **)&gpu, &ag, ngpu + 1, sizeof(*gpu));
					gpu[ngpu++] = c;
				} else {
					xgrow((void **)&stk, &as, ns + 1, sizeof(*stk));
					stk[ns++] = c;
				}
			}
		}
		io->col[i].gpu_n = (uint32_t)ngpu;
		io->col[i].busy = busy(g, gpu, ngpu);
	}
	free(stamp);
	free(stk);
	free(gpu);
}

/* §4.4 launchers on the edited tree: the parent links */
static void launchers(struct gio *io)
{
	const struct graft *g = io->g;
	size_t nn = graft_count(g);
	uint32_t *off = xcalloc(nn + 2, sizeof(*off)), *lst, *fill;

	for (uint32_t i = 0; i < nn; i++) {
		const struct gnode *k = graft_at(g, i);
		const char *name = graft_name(g, i);
		uint32_t r = k->parent, leaf = GN_NONE;
		io->col[i].launcher = GN_NONE;
		if (!graft_is_gpu(k) || r == GN_NONE || coll_name_match(name, strlen(name)))
			continue;
		for (uint32_t cur = graft_at(g, r)->parent; cur != GN_NONE;) {
			const struct gnode *c = graft_at(g, cur);
			if (c->kind == TK_CPU_OP) {
				if (strcmp(graft_name(g, cur), "execute")) {
					leaf = cur;
					break;
				}
			} else if (c->kind != TK_PYTHON) {
				break;
			}
			cur = c->parent;
		}
		io->col[i].launcher = leaf != GN_NONE ? leaf : r;
		io->col[io->col[i].launcher].is_launcher = 1;
		off[io->col[i].launcher + 1]++;
	}
	for (uint32_t i = 0; i < nn; i++)
		off[i + 1] += off[i];
	lst = xmalloc(st_mult(off[nn] + 1, sizeof(*lst)));
	fill = xcalloc(nn + 1, sizeof(*fill));
	for (uint32_t i = 0; i < nn; i++)
		if (io->col[i].launcher != GN_NONE) {
			uint32_t L = io->col[i].launcher;
			lst[off[L] + fill[L]++] = i;
		}
	for (uint32_t i = 0; i < nn; i++)
		if (io->col[i].is_launcher) {
			io->col[i].direct_n = off[i + 1] - off[i];
			io->col[i].direct = busy(g, lst + off[i], off[i + 1] - off[i]);
		}
	free(off);
	free(lst);
	free(fill);
}

static const struct graft *sort_g;

/* the children a reader derives from parent links: host ones by (ts, uid),
 * then GPU ones by uid */
static int by_derived(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct gnode *nx = graft_at(sort_g, x), *ny = graft_at(sort_g, y);
	int gx = graft_is_gpu(nx), gy = graft_is_gpu(ny);

	if (nx->parent != ny->parent)
		return nx->parent < ny->parent ? -1 : 1;
	if (gx != gy)
		return gx - gy;
	if (!gx && nx->ts != ny->ts)
		return nx->ts < ny->ts ? -1 : 1;
	return nx->uid < ny->uid ? -1 : nx->uid > ny->uid;
}

/* Which children lists differ from the derived ones: those are written. */
static void explicit_kids(struct gio *io)
{
	const struct graft *g = io->g;
	size_t nn = graft_count(g), nc = 0;
	uint32_t *ch = xmalloc(st_mult(nn + 1, sizeof(*ch))), *off = xcalloc(nn + 2, sizeof(*off));

	for (uint32_t i = 0; i < nn; i++)
		if (graft_at(g, i)->parent != GN_NONE) {
			ch[nc++] = i;
			off[graft_at(g, i)->parent + 1]++;
		}
	for (uint32_t i = 0; i < nn; i++)
		off[i + 1] += off[i];
	sort_g = g;
	tl_qsort(ch, nc, sizeof(*ch), by_derived);
	for (uint32_t i = 0; i < nn; i++) {
		const struct gnode *x = graft_at(g, i);
		uint32_t m = off[i + 1] - off[i];
		io->col[i].kids_out = m != x->nkids ||
			(m && memcmp(ch + off[i], x->kids, m * sizeof(*x->kids)));
	}
	free(ch);
	free(off);
}

static void compute(struct gio *io)
{
	size_t nn = graft_count(io->g), nroots;
	const uint32_t *roots = graft_roots(io->g, &nroots);

	io->col = xcalloc(nn + 1, sizeof(*io->col));
	depths(io);
	subtree_gpu(io);
	launchers(io);
	explicit_kids(io);
	for (size_t k = 0; k < nroots; k++)
		if (!io->col[roots[k]].root_order)
			io->col[roots[k]].root_order = (uint32_t)k + 1;
}

/* ---- writing the columns -------------------------------------------- */

static void put_float(struct outbuf *ob, double v)
{
	char buf[PY_FLOAT_MAX];

	outbuf_putc(ob, '\t');
	outbuf_put(ob, buf, py_float_repr(v, buf));
}

static void put_node(struct outbuf *ob, const struct gio *io, uint32_t i)
{
	outbuf_putc(ob, '\t');
	if (i != GN_NONE)
		outbuf_u64(ob, graft_at(io->g, i)->uid);
}

static void put_tree_uid(struct outbuf *ob, const struct gio *io, uint32_t t)
{
	outbuf_putc(ob, '\t');
	if (t != TREE_NONE)
		outbuf_u64(ob, tree_at(io->t, t)->uid);
}

static void put_graft(struct outbuf *ob, const struct gio *io, const struct gnode *n)
{
	outbuf_putc(ob, '\t');
	switch (n->origin) {
	case GO_COPY:
		outbuf_printf(ob, "capture:%s:", capture_set_name(io->cs, n->cap));
		outbuf_u64(ob, graft_at(capture_set_graft(io->cs, n->cap), n->from)->uid);
		break;
	case GO_CAPROOT:
		outbuf_printf(ob, "capture-root:%s", capture_set_name(io->cs, n->cap));
		break;
	case GO_PSEUDO:
		outbuf_puts(ob, "pseudo");
		break;
	default:
		if (n->flags & GF_RENAMED)
			outbuf_puts(ob, "renamed");
	}
}

/* A capture copy's nn_module_stack: the nn.Module frames above the event
 * in its capture trace's tree, outermost first, or "root" */
static void put_modules(struct outbuf *ob, const struct gio *io, const struct gnode *n)
{
	const struct graft *cg = capture_set_graft(io->cs, n->cap);
	const struct tree *ct = capture_set_tree(io->cs, n->cap);
	uint32_t *up = NULL, i = tree_find(ct, graft_at(cg, n->from)->uid);
	size_t nu = 0, au = 0;

	for (uint32_t p = i != TREE_NONE ? tree_at(ct, i)->parent : TREE_NONE; p != TREE_NONE;
	     p = tree_at(ct, p)->parent)
		if (tree_at(ct, p)->kind == TK_PYTHON &&
		    !strncmp(tree_str(ct, tree_at(ct, p)->name), "nn.Module:", 10)) {
			xgrow((void **)&up, &au, nu + 1, sizeof(*up));
			up[nu++] = p;
		}
	if (!nu)
		outbuf_puts(ob, "root");
	for (size_t k = nu; k-- > 0;) {
		const char *nm = tree_str(ct, tree_at(ct, up[k])->name);
		if (k != nu - 1)
			outbuf_putc(ob, ';');
		outbuf_tsv(ob, nm, strlen(nm));
	}
	free(up);
}

static void put_cols(struct outbuf *ob, const struct gio *io, uint32_t i)
{
	const struct gnode *n;
	const struct gcol *c;
	int host, tree;

	if (i == GN_NONE) {
		outbuf_puts(ob, "\t\t\t0\t0\t0\t\t\t\t\t\t\t\t\t\t\t\t");
		return;
	}
	n = graft_at(io->g, i);
	c = &io->col[i];
	host = is_host(io, i);
	tree = (n->flags & GF_TREE) != 0;
	put_node(ob, io, n->parent);
	outbuf_putc(ob, '\t');
	if (tree)
		outbuf_u64(ob, c->depth);
	outbuf_printf(ob, "\t%d\t%d\t%d\t%s", tree, c->root_order != 0, !!(n->flags & GF_DROP),
		      tree_link_word(n->link));
	if (n->origin == GO_TRACE) {
		const struct tree_node *tn = tree_at(io->t, n->from);
		put_tree_uid(ob, io, tn->flags & TN_FWD ? tn->fwd_bwd : TREE_NONE);
		put_tree_uid(ob, io, tn->flags & TN_BWD ? tn->fwd_bwd : TREE_NONE);
	} else {
		outbuf_puts(ob, "\t\t");
	}
	outbuf_putc(ob, '\t');
	if (host)
		outbuf_u64(ob, c->gpu_n);
	if (c->is_launcher)
		put_float(ob, c->direct);
	else
		outbuf_putc(ob, '\t');
	if (host)
		put_float(ob, c->busy);
	else
		outbuf_putc(ob, '\t');
	put_node(ob, io, c->launcher);
	outbuf_putc(ob, '\t');
	if (c->is_launcher)
		outbuf_u64(ob, c->direct_n);
	put_graft(ob, io, n);
	outbuf_putc(ob, '\t');
	if (c->kids_out)
		for (uint32_t k = 0; k < n->nkids; k++) {
			if (k)
				outbuf_putc(ob, ',');
			outbuf_u64(ob, graft_at(io->g, n->kids[k])->uid);
		}
	outbuf_putc(ob, '\t');
	if (c->root_order)
		outbuf_u64(ob, c->root_order);
	outbuf_putc(ob, '\t');
	if (n->origin == GO_COPY)
		put_modules(ob, io, n);
}

/* ---- the rows of added nodes ---------------------------------------------- */

/* A field of node i (a donor of a pseudo op), unescaped; "" if unknown. */
static const char *field(const struct gio *io, uint32_t i, const char *col)
{
	const struct gnode *n;
	const char *v;

	if (i == GN_NONE)
		return "";
	n = graft_at(io->g, i);
	if (n->origin == GO_COPY)
		return capture_set_field(io->cs, n->cap, n->from, col);
	if (n->origin != GO_TRACE)
		return "";
	v = stream_rows_get(io->rows, 0, n->uid, col);
	return v ? v : "";
}

static int is_number(const char *s)
{
	char *end;

	if (!*s)
		return 0;
	strtod(s, &end);
	return !*end && !strchr(s, ' ');
}

/* "Sequence number" of a pseudo op: the donor's, else a uid. seqjson gets
 * a non-numeric value (for args), seqnum a number (for column seq). */
static void pseudo_seq(const struct gio *io, const struct pseudo_spec *sp, char *seqnum,
		       size_t n, const char **seqjson, char **own)
{
	const char *v = field(io, sp->seqfrom, "seq"), *args;
	const char *k;

	*seqjson = NULL;
	*own = NULL;
	if (*v) {
		snprintf(seqnum, n, "%s", v);
		return;
	}
	/* a non-numeric Sequence number stays in the donor's args */
	args = field(io, sp->seqfrom, "args");
	if ((k = strstr(args, "\"Sequence number\":"))) {
		const char *val = k + 18, *e = val;
		int depth = 0, instr = 0;
		for (; *e; e++) {
			if (instr) {
				if (*e == '\\' && e[1])
					e++;
				else if (*e == '"')
					instr = 0;
				continue;
			}
			if (*e == '"')
				instr = 1;
			else if (*e == '[' || *e == '{')
				depth++;
			else if (*e == ']' || *e == '}') {
				if (!depth)
					break;
				depth--;
			} else if (*e == ',' && !depth)
				break;
		}
		*own = xstrndup(val, (size_t)(e - val));
		*seqjson = *own;
		seqnum[0] = '\0';
		return;
	}
	snprintf(seqnum, n, "%u", sp->sequid);
}

static const char *pseudo_arg(const struct gio *io, const struct pseudo_spec *sp, const char *col)
{
	const char *v = field(io, sp->argfrom, col);

	if ((!*v || !strcmp(v, "null")) && sp->argalt != GN_NONE)
		v = field(io, sp->argalt, col);
	return strcmp(v, "null") ? v : "";
}

static void put_field(struct outbuf *ob, const char *s)
{
	outbuf_tsv(ob, s, strlen(s));
}

static void pseudo_field(struct outbuf *ob, const struct gio *io, uint32_t i, const char *col)
{
	const struct gnode *n = graft_at(io->g, i);
	const struct pseudo_spec *sp = tree_pseudo_spec(io->ps, n->cap);
	char seqnum[64];
	const char *seqjson;
	char *own;

	if (!strcmp(col, "ph"))
		put_field(ob, "X");
	else if (!strcmp(col, "cat"))
		put_field(ob, "cpu_op");
	else if (!strcmp(col, "name"))
		put_field(ob, graft_name(io->g, i));
	else if (!strcmp(col, "pid") || !strcmp(col, "tid"))
		put_field(ob, field(io, sp->idfrom, col));
	else if ((!strcmp(col, "ts") || !strcmp(col, "dur")) && sp->tsfrom != GN_NONE)
		put_field(ob, field(io, sp->tsfrom, col));
	else if (!strcmp(col, "dims") || !strcmp(col, "types") || !strcmp(col, "strides") ||
		 !strcmp(col, "concrete"))
		put_field(ob, pseudo_arg(io, sp, col));
	else if (!strcmp(col, "seq")) {
		pseudo_seq(io, sp, seqnum, sizeof(seqnum), &seqjson, &own);
		put_field(ob, seqnum);
		free(own);
	} else if (!strcmp(col, "ext") && sp->has_ext && sp->ext &&
		   is_number(graft_str(io->g, sp->ext)))
		put_field(ob, graft_str(io->g, sp->ext));
	else if (!strcmp(col, "args")) {
		struct outbuf *o = ob;
		pseudo_seq(io, sp, seqnum, sizeof(seqnum), &seqjson, &own);
		outbuf_putc(o, '{');
		if (seqjson) {
			outbuf_puts(o, "\"Sequence number\":");
			put_field(o, seqjson);
			outbuf_putc(o, ',');
		}
		if (sp->has_ext && !(sp->ext && is_number(graft_str(io->g, sp->ext)))) {
			outbuf_puts(o, "\"External id\":");
			put_field(o, sp->ext ? graft_str(io->g, sp->ext) : "null");
			outbuf_putc(o, ',');
		}
		outbuf_puts(o, "\"Pseudo op\":true");
		if (sp->extra && *sp->extra) {
			outbuf_putc(o, ',');
			put_field(o, sp->extra);
		}
		outbuf_putc(o, '}');
		free(own);
	}
}

static void text_id(struct outbuf *ob, const struct gio *io, uint32_t id)
{
	if (id)
		put_field(ob, graft_str(io->g, id));
}

static void added_row(struct outbuf *ob, const struct gio *io, uint32_t i)
{
	const struct gnode *n = graft_at(io->g, i);

	for (int c = 0; c < io->ncols; c++) {
		const char *col = io->colnames[c];
		if (c)
			outbuf_putc(ob, '\t');
		if (c == io->c_uid) {
			outbuf_u64(ob, n->uid);
		} else if (c == io->c_src) {
			put_field(ob, io->src);
		} else if (n->origin == GO_PSEUDO) {
			pseudo_field(ob, io, i, col);
		} else if (!strcmp(col, "ts")) {
			text_id(ob, io, n->tstext);
		} else if (!strcmp(col, "dur")) {
			text_id(ob, io, n->durtext);
		} else if (c == io->c_name) {
			put_field(ob, graft_name(io->g, i));
		} else if (n->origin == GO_COPY) {
			put_field(ob, capture_set_field(io->cs, n->cap, n->from, col));
		} else if (!strcmp(col, "cat")) {
			put_field(ob, "cuda_runtime");	/* the CaptureRoot placeholder */
		} else if (!strcmp(col, "args")) {
			put_field(ob, "{}");
		}
	}
	put_cols(ob, io, i);
	outbuf_putc(ob, '\n');
}

static void added_rows(struct outbuf *ob, const struct gio *io)
{
	for (uint32_t i = 0; i < graft_count(io->g); i++)
		if (graft_at(io->g, i)->origin != GO_TRACE)
			added_row(ob, io, i);
}

/* ---- pass 2: the trace's own lines ------------------------------------- */

/* Splits a raw line at tabs (fields stay escaped); returns the count. */
static int split(char *line, char **f, size_t *fl, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		char *tab = strchr(p, '\t');
		f[n] = p;
		fl[n] = tab ? (size_t)(tab - p) : strlen(p);
		n++;
		if (!tab)
			break;
		p = tab + 1;
	}
	return n;
}

static size_t unescape(const char *s, size_t n, char *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			char c = s[++i];
			out[k++] = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == '0' ? '\0' : c;
		} else {
			out[k++] = s[i];
		}
	}
	return k;
}

static void keep_row(struct gio *io, char **f, const size_t *fl, int nf, uint32_t uid)
{
	char **u = xcalloc((size_t)io->ncols + 1, sizeof(*u));
	size_t *ul = xcalloc((size_t)io->ncols + 1, sizeof(*ul));

	for (int c = 0; c < io->ncols; c++) {
		u[c] = xmalloc(c < nf ? fl[c] + 1 : 1);
		ul[c] = c < nf ? unescape(f[c], fl[c], u[c]) : 0;
	}
	stream_rows_add_fields(io->rows, 0, uid, (const char *const *)u, ul);
	for (int c = 0; c < io->ncols; c++)
		free(u[c]);
	free(u);
	free(ul);
}

static void row_line(struct outbuf *out, struct gio *io, char *line, size_t len)
{
	char **f = xmalloc(st_mult((size_t)io->ncols + 1, sizeof(*f)));
	size_t *fl = xmalloc(st_mult((size_t)io->ncols + 1, sizeof(*fl)));
	char *copy = xstrndup(line, len);
	int nf = split(copy, f, fl, io->ncols);
	unsigned long uid = nf > io->c_uid ? strtoul(f[io->c_uid], NULL, 10) : 0;
	uint32_t i = uid < UINT32_MAX ? graft_find(io->g, (uint32_t)uid) : GN_NONE;
	const struct gnode *n = i != GN_NONE ? graft_at(io->g, i) : NULL;

	if (i != GN_NONE && io->wanted[i])
		keep_row(io, f, fl, nf, (uint32_t)uid);
	if (n && (n->flags & (GF_RENAMED | GF_CORR))) {
		for (int c = 0; c < nf; c++) {
			if (c)
				outbuf_putc(out, '\t');
			if (c == io->c_name && (n->flags & GF_RENAMED))
				put_field(out, graft_name(io->g, i));
			else if (c == io->c_corr && (n->flags & GF_CORR))
				text_id(out, io, is_number(graft_str(io->g, n->corr)) ? n->corr : 0);
			else
				outbuf_put(out, f[c], fl[c]);
		}
	} else {
		outbuf_put(out, line, len);
	}
	put_cols(out, io, i);
	outbuf_putc(out, '\n');
	free(copy);
	free(f);
	free(fl);
}

static void mark_wanted(struct gio *io)
{
	size_t nn = graft_count(io->g);

	io->wanted = xcalloc(nn + 1, 1);
	for (size_t k = 0; io->ps && k < tree_pseudo_count(io->ps); k++) {
		const struct pseudo_spec *sp = tree_pseudo_spec(io->ps, (uint32_t)k);
		uint32_t d[5] = { sp->idfrom, sp->tsfrom, sp->argfrom, sp->argalt, sp->seqfrom };
		for (int j = 0; j < 5; j++)
			if (d[j] != GN_NONE && graft_at(io->g, d[j])->origin == GO_TRACE)
				io->wanted[d[j]] = 1;
	}
}

static int pass2(struct gio *io, struct outbuf *out)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;
	int ended = 0;

	if (!io->again)
		rewind(io->fp);
	while ((!io->again || io->nlines) &&
	       (len = getline(&line, &alloc, io->again ? io->again : io->fp)) > 0) {
		if (io->again)
			io->nlines--;
		if (line[len - 1] == '\n')
			len--;
		if (line[0] != '#') {
			row_line(out, io, line, (size_t)len);
			continue;
		}
		if (!strncmp(line, "#end\t", 5) && !ended) {
			added_rows(out, io);
			ended = 1;
		}
		outbuf_put(out, line, (size_t)len);
		outbuf_putc(out, '\n');
	}
	free(line);
	if (io->again && (ferror(io->again) || io->nlines))
		tl_die("%s: changed while being read", io->path);
	if (!io->again && ferror(io->fp))
		tl_die_errno("spool file: read error");
	if (!ended)
		added_rows(out, io);
	return 0;
}

/* ---- pass 1 -------------------------------------------------------------- */

static void keep_line(struct gio *io, const struct stream *s, int row)
{
	if (io->again) {
		io->nlines++;
		return;
	}
	if (row) {
		for (int i = 0; i < stream_ncols(s); i++) {
			if (i)
				outbuf_putc(io->sp, '\t');
			outbuf_tsv(io->sp, stream_field(s, i), stream_field_len(s, i));
		}
	} else {
		outbuf_putc(io->sp, '#');
		outbuf_puts(io->sp, stream_line(s));
	}
	outbuf_putc(io->sp, '\n');
}

/*
 * An "#end" line: the source's element count, which the uids of the nodes
 * the edits add count on from.  It must be above every uid read (uids are
 * element indexes): a count that is not would give new nodes the uids of
 * old ones.  -1 (message printed) if it is not; 0 otherwise.
 */
static int end_line(struct gio *io, struct stream *s, int rows, unsigned long last)
{
	uint32_t n;
	int r = stream_end_elements(s, &n);

	if (r == 0)
		return 0;
	if (r < 0) {
		tl_warn("%s:%ld: #end: the element count is not a number up to 2^31",
			stream_name(s), stream_lineno(s));
		return -1;
	}
	if (rows && n <= last) {
		tl_warn("%s:%ld: #end: %u elements, but the source has uid %lu",
			stream_name(s), stream_lineno(s), n, last);
		return -1;
	}
	io->elements = n;
	io->have_end = 1;
	return 0;
}

static int pass1(struct gio *io, struct stream *s, const struct tree_cols *c)
{
	int r, sources = 0;
	unsigned long last = 0;

	while ((r = stream_next(s)) > 0) {
		if (r == STREAM_DIRECTIVE) {
			const char *l = stream_line(s);
			if (!strncmp(l, "source\t", 7) && ++sources > 1) {
				tl_warn("%s:%ld: more than one trace in the stream; graft one trace at a time",
					stream_name(s), stream_lineno(s));
				return -1;
			}
			if (end_line(io, s, io->src != NULL, last) < 0)
				return -1;
			keep_line(io, s, 0);
			continue;
		}
		struct tree_event ev;
		if (!io->src)
			io->src = xstrdup(stream_field(s, c->src));
		else if (strcmp(io->src, stream_field(s, c->src))) {
			tl_warn("%s:%ld: more than one trace in the stream; graft one trace at a time",
				stream_name(s), stream_lineno(s));
			return -1;
		}
		if (tree_event_read(&ev, s, c) < 0)
			return -1;
		if (tree_add(io->t, &ev) < 0) {
			tl_warn("%s:%ld: uid %lu out of order (uids must increase within a source and stay below 2^32)",
				stream_name(s), stream_lineno(s), ev.uid);
			return -1;
		}
		last = ev.uid;
		graft_note_row(io->g, s, c);
		keep_line(io, s, 1);
	}
	if (r < 0)
		return -1;
	if (!io->have_end && io->src)
		io->elements = (uint32_t)last + 1;
	return 0;
}

static int edit(struct gio *io)
{
	int r;

	graft_attach(io->g, io->t, io->elements);
	if (io->o->capture) {
		if (!(io->cs = capture_set_read(io->o->capture, io->o->verbose)))
			return -1;
		r = tree_capture_merge(io->g, io->cs, io->o->details, io->o->verbose);
		if (r < 0)
			return -1;
		if (r > 0) {
			tl_warn("capture: merge failed: the tree is written unmerged, as TraceLens reports it");
			graft_reset(io->g);
		}
	}
	if (io->o->pseudo)
		io->ps = tree_pseudo_apply(io->g, getenv("TL_MODEL"), getenv("TL_TP"), io->o->verbose);
	return 0;
}

static void header(struct outbuf *out, struct gio *io, const struct stream *s)
{
	io->ncols = stream_ncols(s);
	io->colnames = xcalloc((size_t)io->ncols + 1, sizeof(*io->colnames));
	for (int i = 0; i < io->ncols; i++)
		io->colnames[i] = xstrdup(stream_colname(s, i));
	io->c_uid = stream_col(s, "uid");
	io->c_src = stream_col(s, "src");
	io->c_name = stream_col(s, "name");
	io->c_corr = stream_col(s, "corr");
	outbuf_puts(out, "#tl-nodes 2\n");
	outbuf_puts(out, stream_header(s));
	outbuf_puts(out, graft_cols);
	outbuf_putc(out, '\n');
}

int tree_graft_write(struct stream *s, const char *path, const struct graft_opts *o)
{
	struct gio io;
	struct tree_cols c;
	struct outbuf *out = NULL;
	int rval = 1;

	memset(&io, 0, sizeof(io));
	io.o = o;
	io.path = path;
	if (tree_cols_init(&c, s) < 0)
		return 1;
	io.g = graft_new();
	io.t = tree_new(o->flags);
	io.rows = stream_rows_new(s);
	if (!(io.again = tree_io_reread(path))) {
		io.fp = tree_io_spool();
		io.sp = outbuf_open_fd(fileno(io.fp));
	}
	if (pass1(&io, s, &c) < 0) {
		tree_free(io.t);
		goto out;
	}
	if (io.sp)
		outbuf_flush(io.sp);
	tree_build(io.t);
	if (edit(&io) < 0)
		goto out;
	compute(&io);
	mark_wanted(&io);
	out = outbuf_open_fd(1);
	header(out, &io, s);
	rval = pass2(&io, out);
out:
	if (out)
		outbuf_close(out);
	if (io.sp)
		outbuf_close(io.sp);
	if (io.fp)
		fclose(io.fp);
	if (io.again)
		fclose(io.again);
	for (int i = 0; i < io.ncols; i++)
		free(io.colnames[i]);
	free(io.colnames);
	free(io.col);
	free(io.wanted);
	free(io.src);
	stream_rows_free(io.rows);
	tree_pseudo_free(io.ps);
	capture_set_free(io.cs);
	graft_free(io.g);
	return rval;
}
