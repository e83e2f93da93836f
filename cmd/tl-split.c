/*
 * tl-split: cut a serving trace into iteration windows — each iteration,
 * a range, the representative steady-state windows, or the steady-state
 * steps by phase — as TraceLens's TraceLens_split_inference_trace does,
 * writing gzipped traces and execution_details.json/.csv.  See tl-split(1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cat.h"
#include "cat_json.h"
#include "err.h"
#include "infer_annot.h"
#include "infer_split.h"
#include "infer_steady.h"
#include "infer_write.h"
#include "opt.h"
#include "outbuf.h"
#include "stream.h"
#include "stream_rows.h"
#include "tree.h"
#include "tree_io.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-split [-hv] [-i all|N|START:END] [--store-single-iteration]\n"
	"                [--find-steady-state | --divide-phases] [--num-steps N]\n"
	"                [--conc N] [--osl N] [--r R] -o DIR [TRACE]\n"
	"\n"
	"  -h, --help                 print this help and exit\n"
	"  -i, --iterations RANGE     all (default), an iteration N or START:END\n"
	"  -o, --output-dir DIR       write the traces and execution details under DIR\n"
	"  -v, --verbose              say on standard error what was found\n"
	"      --store-single-iteration  each iteration of the range as a trace of its own\n"
	"      --find-steady-state    write the three steady-state windows\n"
	"      --divide-phases        the steady-state steps by phase\n"
	"      --num-steps N          the window size (32)\n"
	"      --conc N, --CONC N     the expected peak number of requests\n"
	"      --osl N, --OSL N       the longest output sequence length, in tokens\n"
	"      --r R, --R R           output lengths spread over R in [0, 1]";

struct opts {
	const char *dir, *range;
	int single, steady, phases, verbose;
	long num_steps, conc;
	double osl, r;
};

/* One file to write: its events and its line in execution_details. */
struct out {
	char *path;
	struct infer_extract x;
	struct infer_entry e;
};

struct split {
	const struct opts *o;
	const char *input;	/* the event stream, a regular file */
	char *base;		/* the trace's base name */
	struct infer_trace *it;
	struct infer_top *top;
	size_t ntop, atop;
	struct out *out;
	size_t nout, aout;
	int32_t *sidx;		/* args.stream_index by uid, or NULL */
	size_t nsidx;
};

/* ---- reading -------------------------------------------------------------- */

/* "#top\tSRC\tKEY\tJSON": key and value, TSV-unescaped */
static char *unescape(const char *s, size_t n)
{
	char *o = xmalloc(n + 1);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == '0' ? '\0' : c;
		}
		o[k++] = c;
	}
	o[k] = '\0';
	return o;
}

static void keep_top(struct split *sp, const char *l, int after)
{
	const char *a = strchr(l, '\t'), *b = a ? strchr(a + 1, '\t') : NULL,
		   *c = b ? strchr(b + 1, '\t') : NULL;
	struct infer_top *t;

	if (!c)
		return;
	xgrow((void **)&sp->top, &sp->atop, sp->ntop + 1, sizeof(*sp->top));
	t = &sp->top[sp->ntop++];
	t->key = unescape(b + 1, (size_t)(c - b - 1));
	t->json = unescape(c + 1, strlen(c + 1));
	t->after = after;
}

/* os.path.basename with ".pt.trace", ".json.gz", ".json" removed */
static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	static const char *const cut[] = { ".pt.trace", ".json.gz", ".json" };
	char *s = xstrdup(b ? b + 1 : path);

	for (int k = 0; k < 3; k++) {
		char *p;
		size_t l = strlen(cut[k]);
		while ((p = strstr(s, cut[k])))
			tl_memmove(p, p + l, strlen(p + l) + 1);
	}
	return s;
}

static int pass1(struct split *sp)
{
	struct stream *s = stream_open(sp->input, "events");
	int r, rows = 0, sources = 0;

	if (!s)
		return -1;
	sp->it = infer_trace_new(s);
	while ((r = stream_next(s)) > 0) {
		if (r == STREAM_DIRECTIVE) {
			const char *l = stream_line(s);
			if (!strncmp(l, "source\t", 7)) {
				const char *nm = strchr(l + 7, '\t');
				if (++sources > 1) {
					tl_warn("%s: more than one trace; split one trace at a time", sp->input);
					r = STREAM_ERROR;
					break;
				}
				if (nm && !sp->base)
					sp->base = base_name(nm + 1);
			} else if (!strncmp(l, "top\t", 4)) {
				keep_top(sp, l, rows > 0);
			}
			continue;
		}
		rows++;
		if (infer_trace_add(sp->it, s) < 0) {
			tl_warn("%s:%ld: bad or out-of-order uid", stream_name(s), stream_lineno(s));
			r = STREAM_ERROR;
			break;
		}
	}
	stream_close(s);
	return r < 0 ? -1 : 0;
}

/* The call tree with python frames, for the generic fallback's roots. */
static struct tree *read_tree(const char *path)
{
	struct stream *s = stream_open(path, "events");
	char *src = NULL;
	struct tree *t;

	if (!s)
		return NULL;
	t = tree_io_read_source(s, NULL, TREE_PYTHON, 0, &src);
	free(src);
	stream_close(s);
	return t;
}

/*
 * TraceLens's call-tree fallback builds its tree on shallow copies of the
 * events, and the tree numbers the events of each args.stream by ts into
 * args["stream_index"] of the originals: the traces it then writes carry
 * it.  The numbering, by (stream, ts, position); -1 when TraceLens's tree
 * would fail to build (a stream event without ts, a stream value that is
 * not hashable), which leaves it without roots.
 */
struct skey {
	int kind;		/* 0: number, 1: string */
	double num, ts;
	char *text;
	uint32_t uid;
};

/* 0 when a and b are of one stream */
static int by_skey_group(const struct skey *x, const struct skey *y)
{
	if (x->kind != y->kind)
		return 1;
	return x->kind == 0 ? x->num != y->num : strcmp(x->text, y->text) != 0;
}

static int by_skey(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;
	int c;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->kind == 0 && x->num != y->num)
		return x->num < y->num ? -1 : 1;
	if (x->kind == 1 && (c = strcmp(x->text, y->text)))
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static int stream_indexes(struct split *sp)
{
	struct stream *s = stream_open(sp->input, "events");
	struct skey *k = NULL;
	size_t n = 0, ak = 0;
	uint32_t maxuid = 0;
	int r, c_uid, c_stream, c_ts, rval = 0;

	if (!s)
		return -1;
	c_uid = stream_col(s, "uid");
	c_stream = stream_col(s, "stream");
	c_ts = stream_col(s, "ts");
	while ((r = stream_next(s)) > 0) {
		const char *v, *ts;
		char *e;
		struct skey *x;
		if (r == STREAM_DIRECTIVE)
			continue;
		v = stream_field(s, c_stream);
		if (!*v || !strcmp(v, "null"))
			continue;
		ts = stream_field(s, c_ts);
		if (!*ts || *v == '{' || *v == '[') {
			rval = -1;
			break;
		}
		xgrow((void **)&k, &ak, n + 1, sizeof(*k));
		x = &k[n++];
		memset(x, 0, sizeof(*x));
		x->uid = (uint32_t)strtoul(stream_field(s, c_uid), NULL, 10);
		x->ts = strtod(ts, NULL);
		if (!strcmp(v, "true") || !strcmp(v, "false")) {
			x->num = *v == 't';
		} else {
			x->num = strtod(v, &e);
			if (*v == '"' || *e) {
				x->kind = 1;
				x->text = xstrdup(v);
			}
		}
		if (x->uid > maxuid)
			maxuid = x->uid;
	}
	if (r < 0)
		rval = -1;
	stream_close(s);
	if (!rval && n) {
		tl_qsort(k, n, sizeof(*k), by_skey);
		sp->nsidx = (size_t)maxuid + 1;
		sp->sidx = xmalloc(st_mult(sp->nsidx, sizeof(*sp->sidx)));
		memset(sp->sidx, 0xff, sp->nsidx * sizeof(*sp->sidx));
		for (size_t i = 0, run = 0; i < n; i++) {
			run = i && !by_skey_group(&k[i - 1], &k[i]) ? run + 1 : 0;
			sp->sidx[k[i].uid] = (int32_t)run;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(k[i].text);
	free(k);
	return rval;
}

/* ---- TraceLens's extract_and_save ------------------------------------------- */

static void steps_of(const struct infer_root *r, size_t n, struct infer_step *st)
{
	for (size_t i = 0; i < n; i++) {
		struct infer_iter a;
		infer_iter_parse(&a, r[i].name);
		infer_iter_details(&a, &st[i].batch_size, &st[i].num_requests,
				   &st[i].context_requests, &st[i].context_sum,
				   &st[i].generation_requests, &st[i].generation_sum);
	}
}

/* a known annotation's name made into a file-name part */
static char *name_part(const char *name)
{
	char *o = xmalloc(strlen(name) + 1), *p = o;

	for (const char *s = name; *s; s++) {
		if (*s == '/' || *s == '(' || *s == ' ')
			*p++ = '_';
		else if (*s != ')' && *s != ':')
			*p++ = *s;
	}
	*p = '\0';
	return o;
}

/*
 * One output: the roots r[0..n), written under dir as
 * LABEL_NAME_BASE.json.gz (label) or BASE_annotation_iteration_IDX[_NAME].json.gz.
 */
static void extract(struct split *sp, const struct infer_root *r, size_t n, const char *dir,
		    size_t idx, const char *label)
{
	struct out *o;
	struct infer_step *st = xcalloc(n + 1, sizeof(*st));
	int structured = label || n > 1;
	char *name = NULL, *file;
	size_t len;

	xgrow((void **)&sp->out, &sp->aout, sp->nout + 1, sizeof(*sp->out));
	o = &sp->out[sp->nout++];
	memset(o, 0, sizeof(*o));
	steps_of(r, n, st);
	infer_trace_extract(sp->it, r, n, &o->x);
	if (structured && o->x.nbatch == n)
		for (size_t i = 0; i < n; i++)
			st[i].batch_size = o->x.batch[i];
	infer_phase(st, n, &o->e.phase);
	if (structured) {
		len = 160;
		name = xmalloc(len);
		snprintf(name, len, "prefill_%lld_prefilldecode_%lld_decode_%lld_bs%lld_conc%lld",
			 (long long)o->e.phase.num_prefill, (long long)o->e.phase.num_prefilldecode,
			 (long long)o->e.phase.num_decode, (long long)o->e.phase.avg_bs,
			 (long long)o->e.phase.avg_conc);
	} else {
		name = infer_iter_tier(r[0].name) ? name_part(r[0].name) : xstrdup("");
	}
	len = strlen(sp->base) + strlen(name) + (label ? strlen(label) : 0) + 80;
	file = xmalloc(len);
	if (label)
		snprintf(file, len, "%s_%s_%s.json.gz", label, name, sp->base);
	else
		snprintf(file, len, "%s_annotation_iteration_%zu%s%s.json.gz", sp->base, idx,
			 *name ? "_" : "", name);
	o->path = infer_path_join(dir, file);
	o->e.idx = idx;
	o->e.path = o->path;
	o->e.event_count = o->x.n;
	o->e.num_gpu_events = o->x.num_gpu_events;
	o->e.gpu_duration = o->x.gpu_dur;
	o->e.gpu_busy_duration = o->x.gpu_busy;
	o->e.steps = st;
	o->e.nsteps = n;
	free(name);
	free(file);
}

/* divide_phases_and_save: contiguous runs of one phase, across regions */
static int divide_phases(struct split *sp, const struct infer_root *r, const struct infer_step *st,
			 const struct infer_region *reg, size_t nreg)
{
	static const char *const phase[2] = { "prefilldecodemix", "decode_only" };
	size_t chunk[2] = { 0, 0 }, i = 0, nrun = 0;
	size_t *idx = NULL, nidx = 0, aidx = 0;
	int *ph = NULL;
	size_t aph = 0;

	for (size_t k = 0; k < nreg; k++)
		for (size_t j = reg[k].start; j < reg[k].end; j++) {
			int p = st[j].context_requests > 0 ? 0 : st[j].generation_requests > 0 ? 1 : -1;
			if (p < 0)
				continue;
			xgrow((void **)&idx, &aidx, nidx + 1, sizeof(*idx));
			xgrow((void **)&ph, &aph, nidx + 1, sizeof(*ph));
			idx[nidx] = j;
			ph[nidx++] = p;
		}
	while (i < nidx) {
		size_t j = i, n;
		struct infer_root *run;
		struct infer_step *rs;
		struct infer_phase pd;
		char label[256], *dir = infer_path_join(sp->o->dir, phase[ph[i]]);
		while (j < nidx && ph[j] == ph[i])
			j++;
		n = j - i;
		run = xmalloc(st_mult(n, sizeof(*run)));
		rs = xmalloc(st_mult(n, sizeof(*rs)));
		for (size_t k = 0; k < n; k++) {
			run[k] = r[idx[i + k]];
			rs[k] = st[idx[i + k]];
		}
		infer_phase(rs, n, &pd);
		snprintf(label, sizeof(label), "%s_chunk%zu_steps%zu_bs%lld_conc%lld", phase[ph[i]],
			 chunk[ph[i]]++, n, (long long)pd.avg_bs, (long long)pd.avg_conc);
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			tl_die_errno("%s", dir);
		extract(sp, run, n, dir, 0, label);
		free(run);
		free(rs);
		free(dir);
		nrun++;
		i = j;
	}
	free(idx);
	free(ph);
	return 0;
}

/* --find-steady-state: the mixed, decode-only and prefill-decode windows */
static void steady_windows(struct split *sp, const struct infer_root *r, const struct infer_step *st,
			   size_t n, const struct infer_region *reg, size_t nreg)
{
	static const struct { enum infer_mode m; const char *label; } w[] = {
		{ INFER_MIXED, "mixed_steady_state" },
		{ INFER_DECODE_ONLY, "decode_only_steady_state" },
		{ INFER_MAX_PREFILLDECODE, "prefilldecode_steady_state" },
	};
	struct infer_window_opts wo = { sp->o->num_steps, -1, NAN, NAN, sp->o->verbose };
	size_t s, e;

	for (int k = 0; k < 3; k++) {
		/* CONC, OSL and R shape the mixed window only */
		if (!k) {
			wo.conc = sp->o->conc;
			wo.osl = sp->o->osl;
			wo.r = sp->o->r;
		} else {
			wo.conc = -1;
			wo.osl = wo.r = NAN;
		}
		if (!infer_steady_window(st, n, reg, nreg, w[k].m, &wo, &s, &e) || e <= s) {
			if (sp->o->verbose)
				tl_warn("%s: no window", w[k].label);
			continue;
		}
		extract(sp, r + s, e - s, sp->o->dir, 0, w[k].label);
	}
}

/* parse_range: "all", "N", "START:END" */
static void parse_range(const char *s, size_t n, size_t *start, size_t *end)
{
	char *e;
	long a, b;

	if (!strcmp(s, "all")) {
		*start = 0;
		*end = n;
		return;
	}
	a = strtol(s, &e, 10);
	b = a + 1;
	if (*e == ':')
		b = strtol(e + 1, &e, 10);
	if (e == s || *e || a < 0 || b < 0) {
		tl_warn("bad iteration range '%s' (all, N or START:END)", s);
		exit(TL_EXIT_USAGE);
	}
	*start = (size_t)a;
	*end = (size_t)b < n ? (size_t)b : n;
}

static void plan(struct split *sp)
{
	size_t nr, start, end;
	const struct infer_root *r = infer_trace_roots(sp->it, &nr);
	struct infer_step *st;
	struct infer_region *reg = NULL;
	size_t nreg = 0;

	if (!nr) {
		struct tree *t = read_tree(sp->input);
		if (sp->o->verbose)
			tl_warn("no iteration annotations; looking for a repeating call pattern");
		if (t && stream_indexes(sp) == 0) {
			nr = infer_trace_generic_roots(sp->it, t);
			r = infer_trace_roots_found(sp->it);
		}
		if (t)
			tree_free(t);
	}
	if (!nr) {
		tl_warn("%s: no iterations found (no iteration annotations, no repeating calls)",
			sp->base);
		return;
	}
	parse_range(sp->o->range, nr, &start, &end);
	if (sp->o->single)
		for (size_t i = start; i < end; i++)
			extract(sp, &r[i], 1, sp->o->dir, i, NULL);
	if (strcmp(sp->o->range, "all")) {
		if (start > end)
			start = end;
		r += start;
		nr = end - start;
		reg = xmalloc(sizeof(*reg));
		reg->start = 0;
		reg->end = nr;
		nreg = 1;
	}
	if (!nr || (!sp->o->steady && !sp->o->phases)) {
		free(reg);
		return;
	}
	st = xcalloc(nr + 1, sizeof(*st));
	steps_of(r, nr, st);
	if (!nreg)
		nreg = infer_steady_regions(st, nr, sp->o->num_steps, &reg, sp->o->verbose);
	if (sp->o->phases)
		divide_phases(sp, r, st, reg, nreg);
	else
		steady_windows(sp, r, st, nr, reg, nreg);
	free(st);
	free(reg);
}

/* ---- writing ---------------------------------------------------------------- */

/* The rows of every output, read again from the stream. */
static int pass2(struct split *sp, struct stream_rows **rows, struct cat_json_cols *cols,
		 int *ncols)
{
	struct stream *s = stream_open(sp->input, "events");
	uint32_t max = 0;
	uint8_t *want;
	const char **names;
	int r, c_uid;

	if (!s)
		return -1;
	for (size_t k = 0; k < sp->nout; k++)
		for (size_t i = 0; i < sp->out[k].x.n; i++)
			if (sp->out[k].x.uid[i] > max)
				max = sp->out[k].x.uid[i];
	want = xcalloc((size_t)max + 1, 1);
	for (size_t k = 0; k < sp->nout; k++)
		for (size_t i = 0; i < sp->out[k].x.n; i++)
			want[sp->out[k].x.uid[i]] = 1;
	*ncols = stream_ncols(s);
	names = xcalloc((size_t)*ncols + 1, sizeof(*names));
	for (int i = 0; i < *ncols; i++)
		names[i] = stream_colname(s, i);
	cat_json_cols_init(cols, names, *ncols);
	free(names);
	c_uid = stream_col(s, "uid");
	*rows = stream_rows_new(s);
	while ((r = stream_next(s)) > 0) {
		char *e;
		unsigned long u;
		if (r == STREAM_DIRECTIVE)
			continue;
		u = strtoul(stream_field(s, c_uid), &e, 10);
		if (u <= max && want[u])
			stream_rows_add(*rows, s, 0);
	}
	free(want);
	stream_close(s);
	return r < 0 ? -1 : 0;
}

static int write_all(struct split *sp)
{
	struct stream_rows *rows = NULL;
	struct cat_json_cols cols;
	struct infer_entry *e;
	int ncols = 0, rval = 0;

	if (!sp->nout)
		return 0;
	if (pass2(sp, &rows, &cols, &ncols) < 0) {
		stream_rows_free(rows);
		return -1;
	}
	{
		struct infer_doc d = { rows, &cols, ncols, sp->top, sp->ntop, sp->sidx, sp->nsidx };
		for (size_t k = 0; k < sp->nout; k++) {
			if (infer_write_trace(&d, sp->out[k].path, sp->out[k].x.uid,
					      sp->out[k].x.n) < 0)
				rval = -1;
			else
				printf("%s\n", sp->out[k].path);
		}
	}
	stream_rows_free(rows);
	e = xmalloc(st_mult(sp->nout, sizeof(*e)));
	for (size_t k = 0; k < sp->nout; k++)
		e[k] = sp->out[k].e;
	if (infer_write_details(sp->o->dir, e, sp->nout) < 0)
		rval = -1;
	free(e);
	return rval;
}

/* ---- input ------------------------------------------------------------------ */

static char *tmp_path;

static void remove_tmp(void)
{
	if (tmp_path) {
		unlink(tmp_path);
		free(tmp_path);
		tmp_path = NULL;
	}
}

static int make_tmp(void)
{
	const char *dir = getenv("TMPDIR");
	size_t n;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	n = strlen(dir) + sizeof("/tl-split.XXXXXX");
	tmp_path = xmalloc(n);
	snprintf(tmp_path, n, "%s/tl-split.XXXXXX", dir);
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		tl_warn_errno("%s: cannot make a temporary file", tmp_path);
		free(tmp_path);
		tmp_path = NULL;
		return -1;
	}
	atexit(remove_tmp);
	return fd;
}

static int is_stream(const char *path)
{
	char b[4];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, 4, f) : 0;

	if (f)
		fclose(f);
	return n == 4 && !memcmp(b, "#tl-", 4);
}

/*
 * The event stream as a regular file read twice: the stream argument
 * itself, a trace argument through tl-cat's reader, or stdin (a stream)
 * copied.  NULL after a message.
 */
static const char *input_file(const char *path)
{
	struct stat st;
	int fd;

	if (path && strcmp(path, "-")) {
		if (stat(path, &st) < 0) {
			tl_warn_errno("%s", path);
			return NULL;
		}
		if (S_ISREG(st.st_mode) && is_stream(path))
			return path;
		if ((fd = make_tmp()) < 0)
			return NULL;
		{
			struct cat_opts co = { .ndjson = 0 };
			struct outbuf *ob = outbuf_open_fd(fd);
			struct cat *c = cat_new(ob, &co);
			int bad = cat_file(c, path);
			cat_free(c);
			outbuf_close(ob);
			close(fd);
			return bad ? NULL : tmp_path;
		}
	}
	if ((fd = make_tmp()) < 0)
		return NULL;
	{
		struct outbuf *ob = outbuf_open_fd(fd);
		char buf[1 << 16];
		ssize_t n;
		while ((n = read(0, buf, sizeof(buf))) > 0)
			outbuf_put(ob, buf, (size_t)n);
		if (n < 0)
			tl_die_errno("stdin");
		outbuf_close(ob);
		close(fd);
	}
	return tmp_path;
}

/* ---- main ------------------------------------------------------------------- */

enum { O_SINGLE = 256, O_STEADY, O_PHASES, O_STEPS, O_CONC, O_OSL, O_R };

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "CONC", required_argument, NULL, O_CONC },
		{ "OSL", required_argument, NULL, O_OSL },
		{ "R", required_argument, NULL, O_R },
		{ "conc", required_argument, NULL, O_CONC },
		{ "divide-phases", no_argument, NULL, O_PHASES },
		{ "find-steady-state", no_argument, NULL, O_STEADY },
		{ "help", no_argument, NULL, 'h' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "num-steps", required_argument, NULL, O_STEPS },
		{ "osl", required_argument, NULL, O_OSL },
		{ "output-dir", required_argument, NULL, 'o' },
		{ "r", required_argument, NULL, O_R },
		{ "store-single-iteration", no_argument, NULL, O_SINGLE },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = tl_getopt(argc, argv, "hi:o:v", longopts, usage)) != -1) {
		switch (c) {
		case 'i': o->range = optarg; break;
		case 'o': o->dir = optarg; break;
		case 'v': o->verbose = 1; break;
		case O_SINGLE: o->single = 1; break;
		case O_STEADY: o->steady = 1; break;
		case O_PHASES: o->phases = 1; break;
		case O_STEPS: o->num_steps = tl_opt_long("--num-steps", optarg); break;
		case O_CONC: o->conc = tl_opt_long("--conc", optarg); break;
		case O_OSL: o->osl = tl_opt_double("--osl", optarg); break;
		case O_R: o->r = tl_opt_double("--r", optarg); break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	if (!o->dir || !*o->dir || argc - optind > 1 || o->num_steps < 1)
		tl_usage(usage, TL_EXIT_USAGE);
	/* TraceLens divides by CONC * OSL when all three are given */
	if (o->conc >= 0 && !isnan(o->osl) && !isnan(o->r) && (o->conc == 0 || o->osl == 0)) {
		tl_warn("--conc and --osl must be positive with --r");
		exit(TL_EXIT_USAGE);
	}
}

static void split_free(struct split *sp)
{
	for (size_t k = 0; k < sp->nout; k++) {
		free(sp->out[k].path);
		free(sp->out[k].e.steps);
		infer_extract_release(&sp->out[k].x);
	}
	free(sp->out);
	for (size_t k = 0; k < sp->ntop; k++) {
		free(sp->top[k].key);
		free(sp->top[k].json);
	}
	free(sp->top);
	free(sp->base);
	free(sp->sidx);
	if (sp->it)
		infer_trace_free(sp->it);
}

/* os.makedirs(dir, exist_ok=True) */
static int make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	int rval = 0;

	for (char *q = p + 1; *q; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			rval = -1;
		*q = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		rval = -1;
	if (rval < 0)
		tl_warn_errno("%s", dir);
	free(p);
	return rval;
}

int main(int argc, char **argv)
{
	struct opts o = { NULL, "all", 0, 0, 0, 0, 32, -1, NAN, NAN };
	struct split sp;
	int rval = TL_EXIT_OK;

	tl_init(argv[0]);
	parse_opts(argc, argv, &o);
	memset(&sp, 0, sizeof(sp));
	sp.o = &o;
	sp.input = input_file(optind < argc ? argv[optind] : NULL);
	if (!sp.input)
		return TL_EXIT_BAD;
	if (pass1(&sp) < 0) {
		split_free(&sp);
		return TL_EXIT_BAD;
	}
	if (!sp.base)
		sp.base = xstrdup("trace");
	if (make_dirs(o.dir) < 0) {
		split_free(&sp);
		return TL_EXIT_BAD;
	}
	plan(&sp);
	if (write_all(&sp) < 0)
		rval = TL_EXIT_BAD;
	if (o.verbose)
		tl_warn("%zu traces written to %s", sp.nout, o.dir);
	split_free(&sp);
	return rval;
}
