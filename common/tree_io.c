/*
 * tree_io: event streams into trees (common/tree.h), and the node stream
 * (tl-stream(5), tl-nodes 1): every input row with the tree columns appended.
 *
 * The node stream repeats every input row, but the tree is only known at
 * the end of a source, and the input may be a pipe.  So rows are spooled
 * to an unlinked temporary file while the tree is built from compact
 * records; then the spool is read back in order and the tree columns are
 * appended.  Memory holds only the records, never the rows' text.  When
 * the input is a regular file, it is simply read a second time instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "err.h"
#include "num_parse.h"
#include "tree_io.h"
#include "outbuf.h"
#include "par_lines.h"
#include "py_fmt.h"
#include "stream.h"
#include "tree.h"
#include "tree_nodes.h"
#include "xalloc.h"
#include "banned.h"

/* The appended columns, in the order written. */
enum {
	TC_PARENT, TC_DEPTH, TC_TREE, TC_ROOT, TC_DROP, TC_LINK, TC_FWD, TC_BWD, TC_GPU_N,
	TC_KDIRECT, TC_BUSY, TC_LAUNCHER, TC_KDIRECT_N, TC_N
};

static const char *const tree_names[TC_N] = {
	"parent", "depth", "tree", "root", "drop", "link", "fwd", "bwd", "gpu_n",
	"kernel_direct_us", "gpu_busy_us", "launcher", "kernel_direct_n",
};

/*
 * What is written (tl-tree --columns, --tree-rows).  The spool holds only
 * the columns written (uid always among them), so its lines go out whole;
 * an input read a second time has every column and is cut field by field.
 */
struct sel {
	int all;			/* every column */
	int tree_rows;			/* only the rows with tree 1 */
	int ncols;			/* input columns */
	unsigned char *in;		/* per input column: written */
	unsigned char tree[TC_N];	/* per tree column: written */
	int ucol;			/* the uid's field in the lines read back */
	int split;			/* those lines carry fields not written */
	/* --lean: rows no sheet reads go out as "#dropped" lines of their
	 * first nine columns (uid to dur); the columns that decide it */
	int lean;
	int c_ph, c_cat, c_corr, c_stream, c_device;
	/* --lean, spooling: rows read uncut, the thin ones told from their
	 * first fields (spool_thin_uncut); the columns to peek at, or 0 */
	int peek_cols;
};

/*
 * Lines read back (the spool, or the input again) a block at a time and
 * cut where they lie: getline's copy of each into its own buffer was 6 %
 * of tl-tree on a pipe.  The input read again goes on past a segment's
 * lines, so one of these lives for the whole write, not a segment.
 */
struct reread {
	char *buf;		/* cap bytes and a NUL */
	size_t cap, beg, end;
	int eof;
};

enum { REREAD_SIZE = 4 << 20 };

/*
 * The next line, NUL-terminated in place of its newline: its length; -1 at
 * the end (ferror(fp) tells an error).
 */
static ssize_t reread_line(struct reread *r, FILE *fp, char **line)
{
	char *nl;
	size_t n;

	for (;;) {
		nl = r->end > r->beg ? memchr(r->buf + r->beg, '\n', r->end - r->beg) : NULL;
		if (nl || r->eof)
			break;
		if (r->beg) {
			tl_memmove(r->buf, r->buf + r->beg, r->end - r->beg);
			r->end -= r->beg;
			r->beg = 0;
		}
		if (r->end == r->cap) {
			r->cap = r->cap ? 2 * r->cap : REREAD_SIZE;
			r->buf = xrealloc(r->buf, r->cap + 1);
		}
		/* fread of a MiB or more goes to the file, not through stdio's buffer */
		n = fread(r->buf + r->end, 1, r->cap - r->end, fp);
		r->end += n;
		r->buf[r->end] = '\0';
		if (n == 0)
			r->eof = 1;
	}
	if (r->beg == r->end)
		return -1;
	*line = r->buf + r->beg;
	n = nl ? (size_t)(nl - *line) : r->end - r->beg;
	(*line)[n] = '\0';
	r->beg += n + (nl != NULL);
	return (ssize_t)n;
}

/* One source's worth of rows: its tree and the spool holding its rows. */
struct seg {
	struct tree *t;
	char *src;
	size_t srclen;		/* strlen(src) */
	FILE *fp;		/* the spool, read back by par_lines */
	struct outbuf *sp;	/* and written through this */
	FILE *again;		/* or the input file itself, read a second time */
	size_t nlines;		/* lines of the segment, when reading it again */
	const char *path;
	char *trace;		/* its trace's name for messages (stream_trace) */
	struct reread in;	/* the lines read back from again */
};

FILE *tree_io_spool(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	size_t n;
	int fd;
	FILE *fp;

	if (!dir || !*dir)
		dir = "/tmp";
	n = strlen(dir) + sizeof("/tl-tree.XXXXXX");
	path = xmalloc(n);
	snprintf(path, n, "%s/tl-tree.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		tl_die_errno("%s: cannot make a spool file", path);
	unlink(path);
	free(path);
	fp = fdopen(fd, "r");
	if (!fp)
		tl_die_errno("spool file");
	/*
	 * stdio's 4 KiB reads cost a system call each: read the spool in
	 * 1 MiB.  glibc ignores the size unless given the buffer, and there is
	 * one spool per run, so a static one does.
	 */
	static char buf[1 << 20];
	setvbuf(fp, buf, _IOFBF, sizeof(buf));
	return fp;
}

/* A regular input file is read twice, past its two header lines (NULL if
 * it is not a regular file). */
FILE *tree_io_reread(const char *path)
{
	struct stat st;
	FILE *fp;
	char *line = NULL;
	size_t alloc = 0;

	if (!path || !strcmp(path, "-") || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	fp = fopen(path, "r");
	if (fp) {
		static char buf[1 << 20];	/* one input per run; see spool_open() */
		setvbuf(fp, buf, _IOFBF, sizeof(buf));
	}
	if (fp && (getline(&line, &alloc, fp) < 0 || getline(&line, &alloc, fp) < 0)) {
		fclose(fp);
		fp = NULL;
	}
	free(line);
	return fp;
}

static void put_uid(struct outbuf *ob, const struct tree *t, uint32_t i)
{
	if (i != TREE_NONE)
		outbuf_u64(ob, tree_at(t, i)->uid);
}

static void put_float(struct outbuf *ob, double v)
{
	char buf[PY_FLOAT_MAX];

	if (v == 0 && !signbit(v))	/* most host nodes: skip the digit search */
		outbuf_puts(ob, "0.0");
	else
		outbuf_put(ob, buf, py_float_repr(v, buf));
}

/* Starts tree column k when it is written: 1 then, else 0. */
static int col(struct outbuf *ob, const unsigned char *want, int k)
{
	if (!want[k])
		return 0;
	outbuf_putc(ob, '\t');
	return 1;
}

static void put_flag(struct outbuf *ob, const unsigned char *want, int k, int on)
{
	if (col(ob, want, k))
		outbuf_putc(ob, on ? '1' : '0');
}

/* The appended columns of a row that is no node (half the rows: all of
 * them in one write when all are written). */
static void put_no_node(struct outbuf *ob, const unsigned char *want, int all)
{
	if (all) {
		outbuf_puts(ob, "\t\t\t0\t0\t0\t\t\t\t\t\t\t\t");
		return;
	}
	for (int k = 0; k < TC_N; k++)
		if (col(ob, want, k) && (k == TC_TREE || k == TC_ROOT || k == TC_DROP))
			outbuf_putc(ob, '0');
}

/* The appended columns of one row (those in want); i is its node or TREE_NONE. */
static void put_tree_cols(struct outbuf *ob, const struct tree *t, struct tree_walk *w,
			  uint32_t i, const unsigned char *want, int all)
{
	const struct tree_node *n;
	int host;
	uint32_t cnt = 0;
	double direct = 0;

	if (i == TREE_NONE) {
		put_no_node(ob, want, all);
		return;
	}
	n = tree_at(t, i);
	host = (n->flags & TN_HOST) && (n->flags & TN_TREE);
	if (col(ob, want, TC_PARENT))
		put_uid(ob, t, n->parent);
	if (col(ob, want, TC_DEPTH) && (n->flags & TN_TREE))
		outbuf_u64(ob, n->depth);
	/* three 0/1 flags and the link word, without printf's format parsing */
	put_flag(ob, want, TC_TREE, n->flags & TN_TREE);
	put_flag(ob, want, TC_ROOT, n->flags & TN_ROOT);
	put_flag(ob, want, TC_DROP, n->flags & TN_DROP);
	if (col(ob, want, TC_LINK))
		outbuf_puts(ob, tree_link_word(n->link));
	if (col(ob, want, TC_FWD))
		put_uid(ob, t, n->flags & TN_FWD ? n->fwd_bwd : TREE_NONE);
	if (col(ob, want, TC_BWD))
		put_uid(ob, t, n->flags & TN_BWD ? n->fwd_bwd : TREE_NONE);
	if (col(ob, want, TC_GPU_N) && host)
		outbuf_u64(ob, n->gpu_n);
	if ((n->flags & TN_LAUNCHER) && (want[TC_KDIRECT] || want[TC_KDIRECT_N]))
		direct = tree_kernel_direct(t, w, i, &cnt);
	if (col(ob, want, TC_KDIRECT) && (n->flags & TN_LAUNCHER))
		put_float(ob, direct);
	if (col(ob, want, TC_BUSY) && host)
		put_float(ob, tree_gpu_busy(t, w, i));
	if (col(ob, want, TC_LAUNCHER))
		put_uid(ob, t, n->launcher);
	if (col(ob, want, TC_KDIRECT_N) && (n->flags & TN_LAUNCHER))
		outbuf_u64(ob, cnt);
}

/* The uid is field ucol of a raw (escaped) row; uids have no escapes. */
static unsigned long row_uid(const char *line, int ucol)
{
	for (int i = 0; i < ucol && line; i++) {
		line = strchr(line, '\t');
		if (line)
			line++;
	}
	uint64_t v;

	if (line && num_u64(line, &v))
		return (unsigned long)v;	/* the usual plain digits */
	return line ? strtoul(line, NULL, 10) : 0;
}

static void report_counts(const struct seg *g, const char *name)
{
	struct tree_stats st = tree_stats(g->t);

	fprintf(stderr, "tl-tree: %s: src %s: %zu events, %zu host nodes, %zu cpu_op roots, "
		"%zu dropped by the bleed rule, %zu/%zu GPU events linked, "
		"%zu/%zu runtime events linked, linking key '%s'\n",
		name, g->src, st.events, st.host, st.roots, st.dropped,
		st.gpu_linked, st.gpu, st.runtime_linked, st.runtime, st.key);
}

static void warn_untimed(const struct seg *g, const char *name)
{
	struct tree_stats st = tree_stats(g->t);

	if (st.untimed)
		tl_warn("%s: src %s: %zu host events without numeric ts and dur left out of the tree",
			name, g->src, st.untimed);
}

/* The fields of a row read again whole that are written. */
static void put_fields(struct outbuf *ob, const char *line, size_t len, const struct sel *x)
{
	const char *p = line, *end = line + len;
	int first = 1;

	for (int k = 0; k < x->ncols; k++) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		const char *e = tab ? tab : end;
		if (x->in[k]) {
			if (!first)
				outbuf_putc(ob, '\t');
			outbuf_put(ob, p, (size_t)(e - p));
			first = 0;
		}
		if (!tab)
			break;
		p = tab + 1;
	}
}

/* The first fields of a raw (escaped) row, found in one pass. */
enum { RAW_MAX = 16 };
struct raw_row {
	const char *f[RAW_MAX];
	size_t len[RAW_MAX];
};

/*
 * One pass over the row's bytes, 16 at a time with SSE2 (a memchr call a
 * field cost a tenth of tl-tree --lean's time), until RAW_MAX fields.
 */
static void raw_split(struct raw_row *r, const char *line, size_t n)
{
	const char *p = line, *end = line + n;
	size_t at = 0;
	int k = 0;

	r->f[0] = line;
#ifdef __SSE2__
	for (; at + 16 <= n && k < RAW_MAX - 1; at += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(line + at));
		unsigned tabs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
		for (; tabs && k < RAW_MAX - 1; tabs &= tabs - 1) {
			const char *tab = line + at + (size_t)__builtin_ctz(tabs);
			r->len[k] = (size_t)(tab - r->f[k]);
			r->f[++k] = tab + 1;
		}
	}
	p = r->f[k];
	if (p < line + at && k < RAW_MAX - 1)
		p = line + at;	/* the bytes from at on are not scanned yet */
#endif
	while (k < RAW_MAX - 1) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		if (!tab)
			break;
		r->len[k] = (size_t)(tab - r->f[k]);
		r->f[++k] = tab + 1;
		p = tab + 1;
	}
	/* the last field found runs to the next tab or the end */
	p = memchr(r->f[k], '\t', (size_t)(end - r->f[k]));
	r->len[k] = (size_t)((p ? p : end) - r->f[k]);
	for (k++; k < RAW_MAX; k++) {
		r->f[k] = end;
		r->len[k] = 0;
	}
}

/*
 * Whether a field was escaped in the stream: a backslash in its text as
 * written, or a byte an escape stands for in its text as read (a field
 * is seen either way: read back from the spool, or read from a pipe).
 */
static int has_escape(const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (s[k] == '\\' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r' || s[k] == '\0')
			return 1;
	return 0;
}

/*
 * --lean: whether the row is one no sheet reads (tl-perf's records drop
 * it, by the same tree_nodes_cat and tree_nodes_annotation), which tl-idle
 * and the others read only by its first columns: out of the tree and
 * without a parent; a python frame, or an event of no category the sheets
 * know (flows, instants) but a user annotation; no correlation, stream or
 * device, and a category (tl-idle looks for an empty one in extra, the
 * only reader of extra).  The readers compare ph and cat unescaped (some
 * as C strings): a row with an escape in either stays whole.
 */
static int row_is_thin(const struct tree *t, uint32_t i, const struct raw_row *rr,
		       const struct sel *x)
{
	const char *ph = rr->f[x->c_ph], *cat = rr->f[x->c_cat];
	size_t phlen = rr->len[x->c_ph], catlen = rr->len[x->c_cat];
	enum node_cat c;

	if (i != TREE_NONE && (tree_at(t, i)->parent != TREE_NONE ||
			       (tree_at(t, i)->flags & TN_TREE)))
		return 0;
	if (rr->len[x->c_corr] || rr->len[x->c_stream] || rr->len[x->c_device] || !catlen)
		return 0;
	if (has_escape(ph, phlen) || has_escape(cat, catlen))
		return 0;
	c = tree_nodes_cat(ph, phlen, cat, catlen);
	return tree_nodes_thin_kind(c, cat, catlen);
}

/* The "#dropped" line of a row's first nine fields, text[0..n) as read. */
static inline void put_dropped(struct outbuf *out, const char *text, size_t n)
{
	outbuf_puts(out, "#dropped\t");
	outbuf_put(out, text, n);
	outbuf_putc(out, '\n');
}

/* "#dropped" and the row's first nine fields, as they were escaped. */
static void put_thin(struct outbuf *out, const struct raw_row *r)
{
	put_dropped(out, r->f[0], (size_t)(r->f[8] + r->len[8] - r->f[0]));
}

/* The rows' making in one thread: the tree (only read) and its own walk. */
struct rows {
	const struct tree *t;
	struct tree_walk *w;
	const struct sel *x;
};

/* One row read back: its fields and tree columns, unless --tree-rows leaves it out. */
static void put_row(const struct rows *rw, struct outbuf *out, const char *line, size_t len,
		    uint32_t *cur)
{
	const struct tree *t = rw->t;
	const struct sel *x = rw->x;
	unsigned long uid = row_uid(line, x->ucol);
	size_t nr = tree_count(t);
	uint32_t i;

	while (*cur < nr && tree_at(t, *cur)->uid < uid)
		(*cur)++;
	i = *cur < nr && tree_at(t, *cur)->uid == uid ? *cur : TREE_NONE;
	if (x->tree_rows && (i == TREE_NONE || !(tree_at(t, i)->flags & TN_TREE)))
		return;
	if (x->lean && (i == TREE_NONE || (tree_at(t, i)->parent == TREE_NONE &&
					    !(tree_at(t, i)->flags & TN_TREE)))) {
		struct raw_row r;
		raw_split(&r, line, len);
		if (row_is_thin(t, i, &r, x)) {
			put_thin(out, &r);
			return;
		}
	}
	if (x->split)
		put_fields(out, line, len, x);
	else
		outbuf_put(out, line, len);
	put_tree_cols(out, t, rw->w, i, x->tree, x->all);
	outbuf_putc(out, '\n');
}

/* A line read back: a row with its tree columns, a directive as it is. */
static void put_line(const struct rows *rw, struct outbuf *out, const char *line, size_t len,
		     uint32_t *cur)
{
	if (line[0] != '#') {
		put_row(rw, out, line, len, cur);
		return;
	}
	/* a lean event stream's row out of the tree (add_dropped) */
	if (rw->x->tree_rows && len > 9 && !memcmp(line, "#dropped\t", 9))
		return;
	outbuf_put(out, line, len);
	outbuf_putc(out, '\n');
}

/* The first node whose uid is not below uid (nodes are in uid order). */
static uint32_t first_node_from(const struct tree *t, unsigned long uid)
{
	uint32_t lo = 0, hi = (uint32_t)tree_count(t);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (tree_at(t, mid)->uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * par_lines_fn: a part of the spool's lines as node rows; its cursor in
 * the tree starts where its first row is.
 */
static void put_lines(void *arg, char *lines, size_t len, struct outbuf *out)
{
	const struct rows *rw = arg;
	char *p = lines, *end = lines + len;
	uint32_t cur = TREE_NONE;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		p[n] = '\0';	/* lines[len] is ours (par_lines.h) */
		if (cur == TREE_NONE && p[0] != '#')
			cur = first_node_from(rw->t, row_uid(p, rw->x->ucol));
		put_line(rw, out, p, n, &cur);
		p += n + 1;
	}
}

/*
 * The spool's pages already written out are given back while the node
 * stream is written: the pages the output takes are then ones freed
 * moments before, where fresh ones cost this machine's guest a fault to
 * its host each (about 3 s of system time a GB).  Every 16 MiB; a file
 * system without holes just keeps them until the truncate.
 */
enum { SPOOL_PUNCH = 16 << 20 };

struct spool_punch {
	int fd;
	off_t done;	/* given back up to here */
};

/* par_lines' done: the spool before upto is written out; give back all
 * but the last 16 MiB of it, every 16 MiB. */
static void spool_give_back(void *arg, off_t upto)
{
	struct spool_punch *sp = arg;

	if (upto - sp->done < 2 * SPOOL_PUNCH)
		return;
	upto -= SPOOL_PUNCH;
	upto -= upto % SPOOL_PUNCH;
	if (fallocate(sp->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, sp->done,
		      upto - sp->done) == 0)
		sp->done = upto;
}

/*
 * The spooled lines with their tree columns, made in two threads
 * (par_lines): the tree is built, so each row's columns are read from it,
 * and on the x20 trace this stretch, half a second in one thread, was
 * where tl-tree ran alone with a core idle beside it.
 */
static void put_spool(struct seg *g, struct outbuf *out, struct rows rw[2])
{
	struct spool_punch sp = { fileno(g->fp), 0 };
	struct par_lines_job job = { put_lines, { &rw[0], &rw[1] }, spool_give_back, &sp };

	if (par_lines_write(fileno(g->fp), 0, out, &job) < 0)
		tl_die_errno("spool file: read error");
	/* the spool is written at the descriptor's offset: back to 0 */
	if (ftruncate(fileno(g->fp), 0) < 0 || lseek(fileno(g->fp), 0, SEEK_SET) < 0)
		tl_die_errno("spool file");
}

/* The segment's lines from the input read again, with their tree columns. */
static void put_again(struct seg *g, struct outbuf *out, const struct rows *rw)
{
	char *line;
	ssize_t len;
	uint32_t cur = 0;

	while (g->nlines && (len = reread_line(&g->in, g->again, &line)) >= 0) {
		g->nlines--;
		put_line(rw, out, line, (size_t)len, &cur);
	}
	if (ferror(g->again) || g->nlines)
		tl_die("%s: changed while being read", g->path);
}

/* Builds the segment's tree, writes its spooled lines with the tree columns. */
static void flush_seg(struct seg *g, struct outbuf *out, const struct sel *x, int verbose,
		      const char *name)
{
	struct rows rw[2];

	if (g->sp)
		outbuf_flush(g->sp);
	if (g->t) {
		tree_build(g->t);
		warn_untimed(g, name);
		if (verbose)
			report_counts(g, name);
	}
	for (int k = 0; k < 2; k++) {
		rw[k].t = g->t;
		rw[k].w = tree_walk_new();
		rw[k].x = x;
	}
	if (g->again)
		put_again(g, out, &rw[0]);
	else
		put_spool(g, out, rw);
	tree_walk_free(rw[0].w);
	tree_walk_free(rw[1].w);
	tree_free(g->t);
	g->t = NULL;
}

/* The written columns of the current row, into the spool. */
static void spool_row(struct outbuf *sp, struct stream *s, const struct sel *x)
{
	const char *text;
	size_t len;
	int first = 1;

	/* all columns of a row without escapes: its text as read, not each
	 * field escaped again (a tenth of tl-tree on a piped stream) */
	if (x->all && (text = stream_row_text(s, &len))) {
		outbuf_put(sp, text, len);
		outbuf_putc(sp, '\n');
		return;
	}
	for (int i = 0; i < x->ncols && x->all; i++) {
		if (i)
			outbuf_putc(sp, '\t');
		outbuf_tsv(sp, stream_field(s, i), stream_field_len(s, i));
	}
	for (int i = 0; i < x->ncols && !x->all; i++) {
		if (!x->in[i])
			continue;
		if (!first)
			outbuf_putc(sp, '\t');
		outbuf_tsv(sp, stream_field(s, i), stream_field_len(s, i));
		first = 0;
	}
	outbuf_putc(sp, '\n');
}

/* Adds the current row to the segment: 1 if the tree keeps a node for it,
 * 0 if not, -1 (message printed) if bad. */
static int add_row(struct seg *g, struct stream *s, const struct tree_cols *c,
		   unsigned flags)
{
	struct tree_event ev;
	size_t before;

	if (tree_event_read(&ev, s, c) < 0)
		return -1;
	if (!g->t)
		g->t = tree_new(flags);
	before = tree_count(g->t);
	if (tree_add(g->t, &ev) < 0) {
		tl_warn("%s:%ld: uid %lu out of order (uids must increase within a source and stay below 2^32)",
			stream_name(s), stream_lineno(s), ev.uid);
		return -1;
	}
	return tree_count(g->t) > before;
}

/* Keeps the current line for the second pass. */
static void keep_line(struct seg *g, struct stream *s, int row, const struct sel *x)
{
	if (g->again) {
		g->nlines++;
	} else if (row) {
		spool_row(g->sp, s, x);
	} else {
		outbuf_putc(g->sp, '#');
		outbuf_puts(g->sp, stream_line(s));
		outbuf_putc(g->sp, '\n');
	}
}

/*
 * --lean, spooling: a row the tree keeps no node for is thin or not by its
 * own fields, so it goes into the spool as the "#dropped" line put_thin
 * would make of it, written back as it is (a third of the x20 trace's
 * spool).  Its fields as spool_row would have written them: the row's text
 * where it has no escapes, else each field escaped.  1 if spooled so.
 */
static int spool_thin(struct seg *g, struct stream *s, const struct sel *x)
{
	struct raw_row r;
	size_t len;

	for (int k = 0; k < RAW_MAX; k++) {
		r.f[k] = stream_field(s, k < x->ncols ? k : -1);
		r.len[k] = stream_field_len(s, k < x->ncols ? k : -1);
	}
	if (!row_is_thin(NULL, TREE_NONE, &r, x))
		return 0;
	/*
	 * A row read as written: with its tabs put back, the first nine
	 * fields (lean_columns made sure --lean has them first) are the span
	 * put_thin writes, where the fields already point; no second pass.
	 */
	if (stream_row_text(s, &len)) {
		put_thin(g->sp, &r);
		return 1;
	}
	outbuf_puts(g->sp, "#dropped\t");
	for (int k = 0; k < 9; k++) {
		if (k)
			outbuf_putc(g->sp, '\t');
		outbuf_tsv(g->sp, r.f[k], r.len[k]);
	}
	outbuf_putc(g->sp, '\n');
	return 1;
}

/* a field's text is want (wlen bytes) */
static int field_is(const char *p, size_t n, const char *want, size_t wlen)
{
	return n == wlen && !memcmp(p, want, n);
}

/*
 * --lean, spooling, the row not cut yet: a row the tree keeps no node or
 * flow for and spool_thin would spool as it is, told from its first
 * fields as written (python frames and instant events, most of a trace's
 * rows: cutting each into its 21 fields and reading them back was half
 * of tl-tree's reading).  Counted as tree_add counts it, spooled as
 * put_thin would.  1 if so; 0 where the row must be cut and read the long
 * way (which says what is wrong with it, if anything is).
 */
static int spool_thin_uncut(struct seg *g, struct stream *s, const struct tree_cols *c,
			    const struct sel *x, unsigned flags)
{
	const int empty[] = { c->corr, c->ext, c->seq, x->c_stream, x->c_device };
	const char *f[RAW_MAX], *e;
	size_t len[RAW_MAX], n;
	uint64_t uid;

	/* no backslash in the row: each field's text is its value */
	if (!g->t || !stream_peek_first(s, x->peek_cols, f, len))
		return 0;
	/* the segment's source; a thin category the tree keeps nothing of */
	if (!field_is(f[c->src], len[c->src], g->src, g->srclen) ||
	    !tree_nodes_thin(f[c->ph], len[c->ph], f[c->cat], len[c->cat], flags & TREE_PYTHON))
		return 0;
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++)
		if (len[empty[i]])
			return 0;
	/* the uid as tree_event_read takes it: digits only */
	if (!(e = num_u64(f[c->uid], &uid)) || e != f[c->uid] + len[c->uid] || uid > ULONG_MAX)
		return 0;
	/* the first nine fields as put_thin writes them: as read, where they
	 * hold no CR or NUL (outbuf_tsv would escape it) */
	n = (size_t)(f[8] + len[8] - f[0]);
	if (!stream_span_plain(s, f[0], n))
		return 0;
	if (tree_skip(g->t, (unsigned long)uid) < 0)
		return 0;
	put_dropped(g->sp, f[0], n);
	return 1;
}

/* The segment of source src (n bytes, no NUL in them): the open one, or
 * a new one, the open one written out first. */
static void seg_for(struct seg *g, struct outbuf *out, const struct sel *x, int verbose,
		    const char *src, size_t n, struct stream *s)
{
	if (g->src && field_is(src, n, g->src, g->srclen))
		return;
	if (g->t)
		flush_seg(g, out, x, verbose, g->trace);
	free(g->src);
	g->src = xstrndup(src, n);
	g->srclen = n;
	free(g->trace);
	g->trace = xstrdup(stream_trace(s));
}

static int bad_dropped(struct stream *s, const char *what)
{
	tl_warn("%s:%ld: a \"#dropped\" row (tl-cat --lean) %s", stream_name(s),
		stream_lineno(s), what);
	return -1;
}

/*
 * A "#dropped" row of a lean event stream (tl-cat --lean): a row the tree
 * keeps nothing of, given by its first nine fields, which spool_thin_uncut
 * would have spooled as it is from the whole row (--lean) or --tree-rows
 * leaves out; counted, and spooled so (or kept to be read again).  0, or
 * -1 (message printed) where the tree would keep something of the row,
 * the node stream would need its other fields, or the line is not one
 * tl-cat writes.
 */
static int add_dropped(struct seg *g, struct outbuf *out, struct stream *s,
		       const struct sel *x, int verbose, unsigned flags)
{
	const char *f[9], *e;
	size_t len[9], n;
	uint64_t uid;

	if (!(x->lean || x->tree_rows) || (flags & TREE_PYTHON))
		return bad_dropped(s, "is read by tl-tree --lean or --tree-rows only, "
				   "without --python: give it the whole event stream");
	/* the ninth field ends the row (at its NUL), or a tenth follows */
	if (!stream_peek_first(s, 9, f, len) || f[8][len[8]] == '\t')
		return bad_dropped(s, "with an escape, or not of nine fields");
	n = (size_t)(f[8] + len[8] - f[0]);
	if (!stream_span_plain(s, f[0], n))
		return bad_dropped(s, "with a CR or NUL byte");
	if (!tree_nodes_thin(f[2], len[2], f[3], len[3], 0))
		return bad_dropped(s, "of a category the tree reads");
	if (!(e = num_u64(f[0], &uid)) || e != f[0] + len[0] || uid > ULONG_MAX)
		return bad_dropped(s, "without a uid");
	seg_for(g, out, x, verbose, f[1], len[1], s);
	if (!g->t)
		g->t = tree_new(flags);
	if (tree_skip(g->t, (unsigned long)uid) < 0) {
		tl_warn("%s:%ld: uid %lu out of order (uids must increase within a source and stay below 2^32)",
			stream_name(s), stream_lineno(s), (unsigned long)uid);
		return -1;
	}
	if (g->again) {
		g->nlines++;	/* read again: put_line writes it as it is, or not */
		return 0;
	}
	if (!x->tree_rows)	/* out of the tree: --tree-rows writes none */
		put_dropped(g->sp, f[0], n);
	return 0;
}

/* Marks column name of the --columns list; -1 (message printed) if unknown. */
static int sel_name(struct sel *x, const struct stream *s, const char *name, size_t n)
{
	for (int i = 0; i < x->ncols; i++) {
		const char *cn = stream_colname(s, i);
		if (strlen(cn) == n && !memcmp(cn, name, n)) {
			x->in[i] = 1;
			return 0;
		}
	}
	for (int k = 0; k < TC_N; k++)
		if (strlen(tree_names[k]) == n && !memcmp(tree_names[k], name, n)) {
			x->tree[k] = 1;
			return 0;
		}
	tl_warn("%s: --columns: no column '%.*s' in the input or the tree's columns",
		stream_name(s), (int)n, name);
	return -1;
}

/*
 * --lean needs the event stream's own column order, uid to dur first (a
 * "#dropped" line gives those), and the columns that decide; without them
 * every row goes out whole.
 */
static int lean_columns(struct sel *x, const struct stream *s)
{
	static const char *const first[] = {
		"uid", "src", "ph", "cat", "name", "pid", "tid", "ts", "dur",
	};

	if (x->ncols < 9)
		return 0;
	for (int i = 0; i < 9; i++)
		if (strcmp(stream_colname(s, i), first[i]))
			return 0;
	x->c_ph = 2;
	x->c_cat = 3;
	x->c_corr = stream_col(s, "corr");
	x->c_stream = stream_col(s, "stream");
	x->c_device = stream_col(s, "device");
	return x->c_corr >= 0 && x->c_stream >= 0 && x->c_device >= 0 &&
	       x->c_corr < RAW_MAX && x->c_stream < RAW_MAX && x->c_device < RAW_MAX;
}

/* What to write; -1 (message printed) on an unknown column. */
static int sel_init(struct sel *x, const struct stream *s, const struct tree_cols *c,
		    const struct tree_io_subset *sub, int again)
{
	const char *p = sub ? sub->columns : NULL;

	x->ncols = stream_ncols(s);
	x->in = xcalloc((size_t)x->ncols + 1, 1);
	x->tree_rows = sub && sub->tree_rows;
	x->all = !p;
	memset(x->tree, x->all, sizeof(x->tree));
	memset(x->in, x->all, (size_t)x->ncols);
	for (; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t n = strcspn(p, ",");
		if (sel_name(x, s, p, n) < 0)
			return -1;
	}
	x->in[c->uid] = 1;	/* rows are matched to nodes by uid */
	x->lean = sub && sub->lean && x->all && lean_columns(x, s);
	x->peek_cols = 0;
	if (x->lean && !again) {
		const int cols[] = { c->uid, c->src, c->ph, c->cat, c->corr, c->ext, c->seq,
				     x->c_stream, x->c_device };
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			if (cols[i] + 1 > x->peek_cols)
				x->peek_cols = cols[i] + 1;
		/* the first nine (lean_columns) and those, all noted */
		if (x->peek_cols < 9)
			x->peek_cols = 9;
		if (x->peek_cols > STREAM_PEEK_MAX)
			x->peek_cols = 0;
	}
	x->split = !x->all && again;
	x->ucol = c->uid;
	if (!again)		/* the spool holds the written columns only */
		for (int i = x->ucol = 0; i < c->uid; i++)
			x->ucol += x->in[i];
	return 0;
}

static void put_header(struct outbuf *out, const struct stream *s, const struct sel *x)
{
	int first = 1;

	outbuf_puts(out, "#tl-nodes 1\n");
	if (x->all)
		outbuf_puts(out, stream_header(s));
	for (int i = 0; i < x->ncols && !x->all; i++) {
		if (!x->in[i])
			continue;
		if (!first)
			outbuf_putc(out, '\t');
		outbuf_puts(out, stream_colname(s, i));
		first = 0;
	}
	for (int k = 0; k < TC_N; k++) {
		if (!x->tree[k])
			continue;
		outbuf_putc(out, '\t');
		outbuf_puts(out, tree_names[k]);
	}
	outbuf_putc(out, '\n');
}

int tree_io_write_nodes(struct stream *s, const char *path, unsigned flags, int verbose)
{
	return tree_io_write_subset(s, path, flags, verbose, NULL);
}

int tree_io_write_subset(struct stream *s, const char *path, unsigned flags, int verbose,
			 const struct tree_io_subset *sub)
{
	struct tree_cols c;
	struct seg g = { NULL, NULL, 0, NULL, NULL, NULL, 0, path, NULL, { NULL, 0, 0, 0, 0 } };
	struct sel x;
	struct outbuf *out;
	const char *src;
	int r, k, rval = 0;

	if (tree_cols_init(&c, s) < 0)
		return 1;
	g.again = tree_io_reread(path);
	if (sel_init(&x, s, &c, sub, g.again != NULL) < 0) {
		free(x.in);
		if (g.again)
			fclose(g.again);
		return 1;
	}
	if (!g.again) {
		g.fp = tree_io_spool();
		g.sp = outbuf_open_fd(fileno(g.fp));
	}
	out = outbuf_open_fd(1);
	put_header(out, s, &x);
	if (x.peek_cols)
		stream_defer_cut(s, x.peek_cols);
	/* a lean event stream's rows (tl-cat --lean): add_dropped says which
	 * uses are wrong, in tl-tree's words */
	stream_allow_dropped(s);
	while ((r = stream_next(s)) > 0) {
		if (r == STREAM_DIRECTIVE) {
			keep_line(&g, s, 0, &x);
			continue;
		}
		if (r == STREAM_DROPPED) {
			if (add_dropped(&g, out, s, &x, verbose, flags) < 0) {
				r = STREAM_ERROR;
				break;
			}
			/*
			 * A lean event stream (tl-cat --lean) brings its thin
			 * rows as "#dropped" ones: spool_thin_uncut finds none
			 * among the others, and counting their tabs before
			 * cutting them was a tenth of tl-tree's reading.  Those
			 * rows are cut as they are read from here on (a thin one
			 * still goes to the spool the same, by spool_thin).
			 */
			if (x.peek_cols) {
				stream_defer_cut(s, 0);
				x.peek_cols = 0;
			}
			continue;
		}
		if (x.peek_cols && spool_thin_uncut(&g, s, &c, &x, flags))
			continue;
		if (stream_cut(s) < 0) {
			r = STREAM_ERROR;
			break;
		}
		/* a value cut at its first NUL, as strcmp compared it */
		src = stream_field(s, c.src);
		if (!g.src || strcmp(src, g.src))
			seg_for(&g, out, &x, verbose, src, strlen(src), s);
		if ((k = add_row(&g, s, &c, flags)) < 0) {
			r = STREAM_ERROR;
			break;
		}
		/* a row without a node has tree 0: --tree-rows need not spool it */
		if (!k && x.lean && !g.again && spool_thin(&g, s, &x))
			continue;
		if (k || !x.tree_rows || g.again)
			keep_line(&g, s, 1, &x);
	}
	if (r < 0)
		rval = 1;
	else
		flush_seg(&g, out, &x, verbose, g.trace ? g.trace : stream_trace(s));
	tree_free(g.t);
	free(g.src);
	free(g.trace);
	free(g.in.buf);
	free(x.in);
	if (g.sp)
		outbuf_close(g.sp);
	if (g.fp)
		fclose(g.fp);
	if (g.again)
		fclose(g.again);
	outbuf_close(out);
	return rval;
}

struct tree *tree_io_read_source(struct stream *s, const char *want, unsigned flags, int verbose,
				char **src)
{
	struct tree_cols c;
	struct seg g = { NULL, NULL, 0, NULL, NULL, NULL, 0, NULL, NULL, { NULL, 0, 0, 0, 0 } };
	int r;

	if (tree_cols_init(&c, s) < 0)
		return NULL;
	while ((r = stream_next(s)) > 0) {
		const char *sv;
		if (r != STREAM_ROW)
			continue;
		sv = stream_field(s, c.src);
		if (want ? strcmp(sv, want) != 0 : (g.src && strcmp(sv, g.src)))
			continue;
		if (!g.src) {
			g.src = xstrdup(sv);
			g.trace = xstrdup(stream_trace(s));
		}
		if (add_row(&g, s, &c, flags) < 0) {
			r = STREAM_ERROR;
			break;
		}
	}
	if (r < 0 || !g.t) {
		if (r >= 0)
			tl_warn("%s: no rows%s%s", stream_name(s), want ? " of src " : "",
				want ? want : "");
		tree_free(g.t);
		free(g.src);
		free(g.trace);
		return NULL;
	}
	tree_build(g.t);
	warn_untimed(&g, g.trace);
	if (verbose)
		report_counts(&g, g.trace);
	free(g.trace);
	*src = g.src;
	return g.t;
}
