#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tree_gpulink.h"
#include "keymap.h"
#include "timeline_scan.h"
#include "py_fmt.h"
#include "num_parse.h"
#include "stream.h"
#include "strpool.h"
#include "timeline.h"
#include "timeline_strip.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* One GPU event: all tl-timeline keeps of it (about 80 bytes). */
struct gev {
	double ts, te;
	uint64_t uid;
	struct linkval corr, ext;
	uint32_t pid, tid, stream, grp;
	signed char cls;
	unsigned char linked;
};

struct group {
	uint32_t gpu, stream;
	size_t idx, count, pos;
};

struct result {
	size_t src;
	const char *gpu, *stream;
	struct breakdown b;
};

enum { C_UID, C_SRC, C_PH, C_CAT, C_NAME, C_PID, C_TID, C_TS, C_DUR, C_ID,
       C_CORR, C_EXT, C_STREAM, C_ARGS, C_TREE, C_N };

static const char *const colname[C_N] = {
	"uid", "src", "ph", "cat", "name", "pid", "tid", "ts", "dur", "id",
	"corr", "ext", "stream", "args", "tree"
};

struct scan {
	const struct timeline_scan_opts *o;
	struct stream *st;
	int nodes, col[C_N];
	struct strpool *sp;
	/* the source being read */
	int have_cur, cur_directive, cur_ended;
	char *cur_src;
	size_t cur_src_len;
	int peek_n;		/* fields uncut_changes_nothing peeks at, or 0 */
	long cur_rows, cur_bad;
	struct gev *ev;
	size_t nev, ev_alloc;
	struct tree_gpulink *gl;
	/* finished sources and their breakdowns */
	char **names;
	size_t nnames, names_alloc;
	struct result *res;
	size_t nres, res_alloc;
	struct timeline tl;
	int rval;
	struct outbuf *strip;	/* --strip: the sheet being written */
	int strip_sources;
};

static const char *field(struct scan *s, int c)
{
	return stream_field(s->st, s->col[c]);
}

static const char *cur_name(struct scan *s)
{
	return s->names[s->nnames - 1];
}

/* pid and tid are compact JSON; JSON null is Python's None: absent. */
static uint32_t intern_place(struct scan *s, const char *text)
{
	if (!*text || !strcmp(text, "null"))
		return TREE_GPULINK_NONE;
	return strpool_intern(s->sp, text, strlen(text));
}

static void start_source(struct scan *s, const char *src, const char *name)
{
	char buf[64];

	/* without #source: the stream's name, and the src number after the first */
	if (!name && !s->nnames)
		name = stream_name(s->st);
	if (!name) {
		snprintf(buf, sizeof(buf), " (source %.32s)", src);
		name = buf;
	}
	xgrow((void **)&s->names, &s->names_alloc, s->nnames + 1, sizeof(*s->names));
	if (name == buf) {
		size_t n = strlen(stream_name(s->st)) + strlen(buf) + 1;
		s->names[s->nnames] = xmalloc(n);
		snprintf(s->names[s->nnames], n, "%s%s", stream_name(s->st), buf);
	} else {
		s->names[s->nnames] = xstrdup(name);
	}
	s->nnames++;
	s->cur_src = xstrdup(src);
	s->cur_src_len = strlen(src);
	s->have_cur = 1;
	s->cur_directive = s->cur_ended = 0;
	s->cur_rows = s->cur_bad = 0;
	s->nev = 0;
	/* --all-gpu counts every GPU event: no link facts needed */
	s->gl = s->nodes || s->o->all_gpu ? NULL : tree_gpulink_new();
}

static void link_row(struct scan *s, const char *cat, int cls)
{
	struct tree_gpulink_row r;
	const char *corr = field(s, C_CORR), *ext = field(s, C_EXT);

	/* only flows, runtime calls and rows carrying a link value matter */
	if (strcmp(cat, "ac2g") && strcmp(cat, "cuda_runtime") &&
	    strcmp(cat, "cuda_driver") && !*corr && !*ext)
		return;
	r.uid = s->col[C_UID] >= 0 ? num_strtou64(field(s, C_UID))
				   : (uint64_t)s->cur_rows - 1;
	r.ph = field(s, C_PH);
	r.cat = cat;
	r.gpu = cls != GPU_NONE;
	r.name = field(s, C_NAME);
	r.pid = intern_place(s, field(s, C_PID));
	r.tid = intern_place(s, field(s, C_TID));
	r.id = linkval_parse(field(s, C_ID));
	r.corr = linkval_parse(corr);
	r.ext = linkval_parse(ext);
	r.args = field(s, C_ARGS);
	tree_gpulink_event(s->gl, &r);
}

/* Python's float() of the text; 0 if it is not a number. */
static int parse_time(const char *text, double *v)
{
	char *end;

	if (!*text)
		return 0;
	*v = num_strtod(text, &end);	/* strtod's double and end, faster */
	if (*end)
		return 0;
	return isfinite(*v) ? 1 : -1;	/* 1e400 reads as inf: no time */
}

static void bad_gpu_row(struct scan *s, const char *what)
{
	if (s->cur_bad++ < 5)
		tl_warn("%s: GPU event with %s", stream_where(s->st), what);
	s->rval = TL_EXIT_BAD;
}

static void add_gpu(struct scan *s, int cls)
{
	struct gev *e;
	double ts, dur;
	const char *stream = field(s, C_STREAM);
	int t = parse_time(field(s, C_TS), &ts), d = parse_time(field(s, C_DUR), &dur);

	if (t <= 0 || d <= 0) {
		bad_gpu_row(s, t < 0 || d < 0 ? "a ts or dur too large for a double (inf): not counted"
				     : "no numeric ts or dur: not counted");
		return;
	}
	if (dur < 0) {
		bad_gpu_row(s, "a negative dur: not counted");
		return;
	}
	xgrow((void **)&s->ev, &s->ev_alloc, s->nev + 1, sizeof(*s->ev));
	e = &s->ev[s->nev++];
	e->ts = ts;
	e->te = ts + dur;	/* once, in double, as TraceLens's t_end */
	e->uid = s->col[C_UID] >= 0 ? num_strtou64(field(s, C_UID))
				    : (uint64_t)s->cur_rows - 1;
	e->cls = (signed char)cls;
	e->pid = intern_place(s, field(s, C_PID));
	e->tid = intern_place(s, field(s, C_TID));
	e->stream = *stream ? strpool_intern(s->sp, stream, strlen(stream)) : e->tid;
	e->corr = linkval_parse(field(s, C_CORR));
	e->ext = linkval_parse(field(s, C_EXT));
	e->linked = s->nodes && !strcmp(field(s, C_TREE), "1");
}

/* Numbers in numeric order first, then other text in byte order. */
static int cmp_text(const char *a, const char *b)
{
	char *ea, *eb;
	double x = strtod(a, &ea), y = strtod(b, &eb);
	int na = *a && !*ea, nb = *b && !*eb;

	if (na && nb && x != y)
		return x < y ? -1 : 1;
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
}

static struct strpool *sort_pool;	/* qsort has no context argument */

static const char *place_text(struct strpool *sp, uint32_t id)
{
	return id == TREE_GPULINK_NONE ? "" : strpool_str(sp, id);
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;
	int c = cmp_text(place_text(sort_pool, a->gpu), place_text(sort_pool, b->gpu));

	return c ? c : cmp_text(place_text(sort_pool, a->stream),
				place_text(sort_pool, b->stream));
}

static int counted(const struct scan *s, const struct gev *e)
{
	return s->o->all_gpu || e->linked;
}

/*
 * Assigns each counted event its group (one group unless --per-gpu or
 * --per-stream) and returns the groups in output order, with count and
 * pos set so that order[pos .. pos+count) lists the group's events.
 */
static struct group *make_groups(struct scan *s, int per_gpu, int per_stream,
				 size_t *ngroups, size_t **order)
{
	struct keymap m;
	struct group *g = NULL;
	size_t ng = 0, galloc = 0, *rank, pos = 0;

	keymap_init(&m);
	for (size_t i = 0; i < s->nev; i++) {
		struct gev *e = &s->ev[i];
		uint32_t gpu = per_gpu || per_stream ? e->pid : 0;
		uint32_t st = per_stream ? e->stream : 0;
		uint64_t *slot;

		if (!counted(s, e))
			continue;
		slot = keymap_ref(&m, (struct mapkey){ gpu, st, 0 });
		if (!*slot) {
			xgrow((void **)&g, &galloc, ng + 1, sizeof(*g));
			g[ng] = (struct group){ gpu, st, ng, 0, 0 };
			*slot = ++ng;
		}
		e->grp = (uint32_t)(*slot - 1);
		g[e->grp].count++;
	}
	keymap_release(&m);
	sort_pool = s->sp;
	tl_qsort(g, ng, sizeof(*g), cmp_group);
	rank = xcalloc(ng ? ng : 1, sizeof(*rank));
	for (size_t k = 0; k < ng; k++) {
		rank[g[k].idx] = k;
		g[k].pos = pos;
		pos += g[k].count;
	}
	*order = xmalloc((pos ? pos : 1) * sizeof(**order));
	for (size_t k = 0; k < ng; k++)
		g[k].count = 0;
	for (size_t i = 0; i < s->nev; i++)
		if (counted(s, &s->ev[i])) {
			struct group *gr = &g[rank[s->ev[i].grp]];
			(*order)[gr->pos + gr->count++] = i;
		}
	free(rank);
	*ngroups = ng;
	return g;
}

static void add_result(struct scan *s, const struct group *g, const struct breakdown *b)
{
	struct result *r;

	xgrow((void **)&s->res, &s->res_alloc, s->nres + 1, sizeof(*s->res));
	r = &s->res[s->nres++];
	r->src = s->nnames - 1;
	r->gpu = place_text(s->sp, g->gpu);
	r->stream = place_text(s->sp, g->stream);
	r->b = *b;
	if (!b->identity_ok)
		tl_warn("%s: computation + exposed comm + exposed memcpy + idle differs "
			"from total_time by 1e-6 us or more (TraceLens would stop here)",
			cur_name(s));
}

static void breakdowns(struct scan *s)
{
	size_t ng, *order;
	struct group *g = make_groups(s, s->o->per_gpu, s->o->per_stream, &ng, &order);
	struct breakdown b;

	for (size_t k = 0; k < ng; k++) {
		timeline_reset(&s->tl);
		for (size_t j = 0; j < g[k].count; j++) {
			const struct gev *e = &s->ev[order[g[k].pos + j]];
			timeline_add(&s->tl, e->ts, e->te, e->cls);
		}
		if (timeline_compute(&s->tl, s->o->micro_us, &b) == 0)
			add_result(s, &g[k], &b);
	}
	free(order);
	free(g);
}

/* A pid or stream as a person reads it (JSON string quotes dropped), allocated. */
static char *place_plain(const char *text)
{
	size_t n = strlen(text);

	if (n >= 2 && text[0] == '"' && text[n - 1] == '"' && !strchr(text, '\\'))
		return xstrndup(text + 1, n - 2);
	return xstrdup(text);
}

/* The events of group g into the strip, then its rows. */
static void strip_group(struct scan *s, struct timeline_strip *ts, const struct group *g,
			const size_t *order, const char *stream)
{
	char *gpu = place_plain(place_text(s->sp, g->gpu));
	char *st = stream ? xstrdup(stream) : place_plain(place_text(s->sp, g->stream));

	for (size_t j = 0; j < g->count; j++) {
		const struct gev *e = &s->ev[order[g->pos + j]];
		timeline_strip_add(ts, e->ts, e->te, e->cls);
	}
	timeline_strip_write(ts, gpu, st);
	free(gpu);
	free(st);
}

/*
 * --strip: per GPU, the row of all its streams ("all"), then one row per
 * stream, over the span of the source's counted GPU events.
 */
static void strips(struct scan *s)
{
	size_t ng, ns, *ogpu, *ostr, j = 0;
	struct group *gg, *gs;
	struct timeline_strip *ts;
	double t0 = INFINITY, t1 = -INFINITY;

	if (s->strip_sources++) {
		tl_warn("%s: --strip takes one trace; the stream holds more", cur_name(s));
		s->rval = TL_EXIT_BAD;
		return;
	}
	for (size_t i = 0; i < s->nev; i++)
		if (counted(s, &s->ev[i])) {
			t0 = fmin(t0, s->ev[i].ts);
			t1 = fmax(t1, s->ev[i].te);
		}
	gg = make_groups(s, 1, 0, &ng, &ogpu);
	gs = make_groups(s, 1, 1, &ns, &ostr);
	ts = timeline_strip_new(s->strip, t0, t1, s->o->strip_bins);
	for (size_t k = 0; k < ng; k++) {
		strip_group(s, ts, &gg[k], ogpu, "all");
		for (; j < ns && gs[j].gpu == gg[k].gpu; j++)
			strip_group(s, ts, &gs[j], ostr, NULL);
	}
	timeline_strip_free(ts);
	free(gg), free(gs), free(ogpu), free(ostr);
}

static size_t mark_linked(struct scan *s)
{
	size_t n = 0;

	if (s->gl) {
		tree_gpulink_finish(s->gl);
		for (size_t i = 0; i < s->nev; i++) {
			struct gev *e = &s->ev[i];
			e->linked = (unsigned char)tree_gpulink_linked(s->gl, e->uid, e->pid,
								  e->tid, &e->corr, &e->ext);
		}
	}
	for (size_t i = 0; i < s->nev; i++)
		n += s->ev[i].linked;
	return n;
}

static void verbose(struct scan *s, size_t nlinked)
{
	tl_warn("%s: %ld rows, %zu GPU events, %zu linked%s%s; %zu KiB of GPU records, "
		"%zu KiB of link maps", cur_name(s), s->cur_rows, s->nev, nlinked,
		s->gl ? ", linking key " : "",
		!s->gl ? "" : tree_gpulink_key(s->gl) == TREE_GPULINK_CORRELATION ?
		"correlation" : "External id",
		s->ev_alloc * sizeof(*s->ev) / 1024,
		s->gl ? tree_gpulink_bytes(s->gl) / 1024 : 0);
}

static void finish_source(struct scan *s)
{
	size_t nlinked = mark_linked(s);
	size_t ncount = s->o->all_gpu ? s->nev : nlinked;

	if (s->cur_directive && !s->cur_ended) {
		tl_warn("%s: the stream ends before the source's #end line: input cut short",
			cur_name(s));
		s->rval = TL_EXIT_BAD;
	}
	if (s->cur_bad > 5)
		tl_warn("%s: %ld GPU events without numeric ts or dur not counted",
			cur_name(s), s->cur_bad);
	if (s->o->verbose)
		verbose(s, nlinked);
	if (!ncount && s->nev) {
		tl_warn("%s: no GPU events found in the trace (%zu GPU events are not "
			"linked to a launch; --all-gpu counts them)", cur_name(s), s->nev);
		s->rval = TL_EXIT_BAD;
	} else if (!ncount) {
		tl_warn("%s: no GPU events found in the trace", cur_name(s));
		s->rval = TL_EXIT_BAD;
	} else {
		if (ncount < s->nev)
			tl_warn("%s: %zu of %zu GPU events are not linked to a launch and "
				"not counted (--all-gpu counts them)", cur_name(s),
				s->nev - ncount, s->nev);
		breakdowns(s);
		if (s->strip)
			strips(s);
	}
	tree_gpulink_free(s->gl);
	s->gl = NULL;
	free(s->cur_src);
	s->cur_src = NULL;
	s->have_cur = 0;
}

/* "#source\tSRC\tNAME" starts a source; "#end\tSRC\t..." closes it. */
static void directive(struct scan *s, const char *line)
{
	const char *tab = strchr(line, '\t'), *tab2;
	size_t n;
	char *src;

	if (!tab)
		return;
	tab2 = strchr(tab + 1, '\t');
	n = tab2 ? (size_t)(tab2 - tab - 1) : strlen(tab + 1);
	src = xstrndup(tab + 1, n);
	if (!strncmp(line, "source\t", 7)) {
		if (s->have_cur)
			finish_source(s);
		start_source(s, src, tab2 ? tab2 + 1 : NULL);
		s->cur_directive = 1;
	} else if (!strncmp(line, "end\t", 4) && s->have_cur && !strcmp(src, s->cur_src)) {
		s->cur_ended = 1;
	}
	free(src);
}

static void row(struct scan *s)
{
	const char *src = field(s, C_SRC), *cat = field(s, C_CAT);
	int cls;

	if (!s->have_cur || strcmp(src, s->cur_src)) {
		if (s->have_cur)
			finish_source(s);
		start_source(s, src, NULL);
	}
	s->cur_rows++;
	cls = gpu_classify(cat, field(s, C_NAME));
	if (s->gl)
		link_row(s, cat, cls);
	if (cls != GPU_NONE)
		add_gpu(s, cls);
}

static int find_columns(struct scan *s)
{
	static const int need[] = { C_CAT, C_NAME, C_TS, C_DUR };

	s->nodes = !strcmp(stream_kind(s->st), "nodes");
	for (int c = 0; c < C_N; c++)
		s->col[c] = stream_col(s->st, colname[c]);
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (s->col[need[i]] < 0) {
			tl_warn("%s:2: no column '%s'", stream_name(s->st), colname[need[i]]);
			return -1;
		}
	if (s->nodes && s->col[C_TREE] < 0) {
		tl_warn("%s:2: node stream without a 'tree' column", stream_name(s->st));
		return -1;
	}
	return 0;
}

/*
 * A row not cut yet (a "#dropped" one of tl-tree --lean, or any where no
 * linking is done: stream_defer_cut) of the current source that is no GPU
 * event: row() would only count it.  Told from its raw src and cat.
 */
static int uncut_changes_nothing(struct scan *s)
{
	const char *f[STREAM_PEEK_MAX];
	size_t len[STREAM_PEEK_MAX];
	const char *cat;
	size_t n;

	/* its first fields at once, as written: a row with a backslash is
	 * cut (row() reads its fields as C strings: "kernel\\0x" is a kernel
	 * there) */
	if (s->gl || !s->have_cur || !s->peek_n ||
	    !stream_peek_first(s->st, s->peek_n, f, len))
		return 0;
	if (len[s->col[C_SRC]] != s->cur_src_len ||
	    memcmp(f[s->col[C_SRC]], s->cur_src, s->cur_src_len))
		return 0;
	cat = f[s->col[C_CAT]];
	n = len[s->col[C_CAT]];
	return !(n == 6 && !memcmp(cat, "kernel", 6)) &&
	       !(n == 10 && (!memcmp(cat, "gpu_memcpy", 10) || !memcmp(cat, "gpu_memset", 10)));
}

static void read_stream(struct scan *s)
{
	int r;

	while ((r = stream_next(s->st)) > 0) {
		if (r == STREAM_DIRECTIVE) {
			directive(s, stream_line(s->st));
			continue;
		}
		/* a "#dropped" row is no GPU event, but may start a source */
		if (uncut_changes_nothing(s)) {
			s->cur_rows++;
			continue;
		}
		if (stream_cut(s->st) < 0) {
			r = STREAM_ERROR;
			break;
		}
		row(s);
	}
	if (r < 0)
		s->rval = TL_EXIT_BAD;
	if (!s->nnames)
		start_source(s, "0", stream_name(s->st));
	if (s->have_cur)
		finish_source(s);
}

/* A pid or stream as a person reads it: JSON string quotes dropped. */
static void put_place(struct outbuf *ob, const char *text, int csv)
{
	size_t n = strlen(text);

	if (n >= 2 && text[0] == '"' && text[n - 1] == '"' && !strchr(text, '\\')) {
		text++;
		n -= 2;
	}
	if (csv)
		csv_cell(ob, text, n);
	else
		outbuf_put(ob, text, n);
}

struct layout {
	int src, gpu, stream;
};

static struct layout layout(const struct scan *s)
{
	struct layout l;

	l.src = s->nnames > 1;
	l.gpu = s->o->per_gpu || s->o->per_stream;
	l.stream = s->o->per_stream;
	return l;
}

static void print_csv(const struct scan *s, struct outbuf *ob)
{
	struct layout l = layout(s);

	outbuf_printf(ob, "%s%s%stype,time ms,percent\n", l.src ? "source," : "",
		      l.gpu ? "gpu," : "", l.stream ? "stream," : "");
	for (size_t k = 0; k < s->nres; k++) {
		const struct result *r = &s->res[k];
		for (int i = 0; i < r->b.n; i++) {
			if (l.src) {
				const char *name = s->names[r->src];
				csv_cell(ob, name, strlen(name));
				outbuf_putc(ob, ',');
			}
			if (l.gpu) {
				put_place(ob, r->gpu, 1);
				outbuf_putc(ob, ',');
			}
			if (l.stream) {
				put_place(ob, r->stream, 1);
				outbuf_putc(ob, ',');
			}
			outbuf_printf(ob, "%s,", r->b.type[i]);
			csv_float(ob, r->b.us[i] / 1e3);
			outbuf_putc(ob, ',');
			csv_float(ob, r->b.us[i] / r->b.total * 100);
			outbuf_putc(ob, '\n');
		}
	}
}

enum { T_SRC, T_GPU, T_STREAM, T_TYPE, T_MS, T_PCT, T_N };

static const char *const table_head[T_N] = {
	"source", "gpu", "stream", "type", "time_ms", "percent"
};

static const char *unquote(const char *text, char *buf, size_t size)
{
	size_t n = strlen(text);

	if (n >= 2 && text[0] == '"' && text[n - 1] == '"' && !strchr(text, '\\')) {
		snprintf(buf, size, "%.*s", (int)(n - 2), text + 1);
		return buf;
	}
	return text;
}

static void fixed(char *buf, size_t size, int prec, double v)
{
	if (isnan(v))
		snprintf(buf, size, "nan");
	else
		snprintf(buf, size, "%.*f", prec, v);
}

/* The text of the table cell in column c of row i of result r. */
static const char *cell(const struct scan *s, const struct result *r, int i,
			int c, char *buf, size_t size)
{
	switch (c) {
	case T_SRC: return s->names[r->src];
	case T_GPU: return unquote(r->gpu, buf, size);
	case T_STREAM: return unquote(r->stream, buf, size);
	case T_TYPE: return r->b.type[i];
	case T_MS: fixed(buf, size, 3, r->b.us[i] / 1e3); return buf;
	default: fixed(buf, size, 2, r->b.us[i] / r->b.total * 100); return buf;
	}
}

static void table_line(struct outbuf *ob, const int *show, const size_t *w,
		       const char *const *text)
{
	int first = 1;

	for (int c = 0; c < T_N; c++) {
		size_t n = strlen(text[c]), pad = w[c] > n ? w[c] - n : 0;
		if (!show[c])
			continue;
		if (!first)
			outbuf_put(ob, "  ", 2);
		first = 0;
		if (c >= T_MS)
			while (pad--)
				outbuf_putc(ob, ' ');
		outbuf_put(ob, text[c], n);
		if (c < T_MS)
			while (pad--)
				outbuf_putc(ob, ' ');
	}
	outbuf_putc(ob, '\n');
}

static void print_table(const struct scan *s, struct outbuf *ob)
{
	struct layout l = layout(s);
	int show[T_N] = { l.src, l.gpu, l.stream, 1, 1, 1 };
	size_t w[T_N];
	char buf[T_N][256];
	const char *text[T_N];

	for (int c = 0; c < T_N; c++)
		w[c] = strlen(table_head[c]);
	for (size_t k = 0; k < s->nres; k++)
		for (int i = 0; i < s->res[k].b.n; i++)
			for (int c = 0; c < T_N; c++) {
				size_t n = strlen(cell(s, &s->res[k], i, c, buf[c], sizeof(buf[c])));
				if (n > w[c])
					w[c] = n;
			}
	table_line(ob, show, w, table_head);
	for (size_t k = 0; k < s->nres; k++)
		for (int i = 0; i < s->res[k].b.n; i++) {
			for (int c = 0; c < T_N; c++)
				text[c] = cell(s, &s->res[k], i, c, buf[c], sizeof(buf[c]));
			table_line(ob, show, w, text);
		}
}

int timeline_scan_run(const char *path, const struct timeline_scan_opts *o, struct outbuf *ob)
{
	struct scan s;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.st = stream_open(path, "events,nodes");
	if (!s.st)
		return TL_EXIT_BAD;
	/* "#dropped" rows: flows, instants, python frames (no GPU work) */
	stream_allow_dropped(s.st);
	if (find_columns(&s) < 0) {
		stream_close(s.st);
		return TL_EXIT_BAD;
	}
	/* no linking (s.gl stays NULL): most rows are skipped by src and cat */
	s.peek_n = (s.col[C_SRC] > s.col[C_CAT] ? s.col[C_SRC] : s.col[C_CAT]) + 1;
	if (s.col[C_SRC] < 0 || s.peek_n > STREAM_PEEK_MAX)
		s.peek_n = 0;
	if (s.peek_n && (s.nodes || o->all_gpu))
		stream_defer_cut(s.st, s.peek_n);
	s.sp = strpool_new();
	timeline_init(&s.tl);
	if (o->strip) {
		s.strip = outbuf_open_path(o->strip);
		timeline_strip_header(s.strip);
	}
	read_stream(&s);
	outbuf_close(s.strip);
	if (s.nres) {
		if (o->csv)
			print_csv(&s, ob);
		else
			print_table(&s, ob);
	}
	timeline_release(&s.tl);
	for (size_t i = 0; i < s.nnames; i++)
		free(s.names[i]);
	free(s.names);
	free(s.res);
	free(s.ev);
	strpool_free(s.sp);
	stream_close(s.st);
	return s.rval;
}
