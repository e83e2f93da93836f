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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "err.h"
#include "num_parse.h"
#include "tree_io.h"
#include "outbuf.h"
#include "py_fmt.h"
#include "stream.h"
#include "tree.h"
#include "xalloc.h"
#include "banned.h"

static const char tree_cols[] =
	"\tparent\tdepth\ttree\troot\tdrop\tlink\tfwd\tbwd\tgpu_n"
	"\tkernel_direct_us\tgpu_busy_us\tlauncher\tkernel_direct_n";

/* One source's worth of rows: its tree and the spool holding its rows. */
struct seg {
	struct tree *t;
	char *src;
	FILE *fp;		/* the spool, read back with getline */
	struct outbuf *sp;	/* and written through this */
	FILE *again;		/* or the input file itself, read a second time */
	size_t nlines;		/* lines of the segment, when reading it again */
	const char *path;
	char *trace;		/* its trace's name for messages (stream_trace) */
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
	outbuf_putc(ob, '\t');
	if (i != TREE_NONE)
		outbuf_u64(ob, tree_at(t, i)->uid);
}

static void put_float(struct outbuf *ob, double v)
{
	char buf[PY_FLOAT_MAX];

	outbuf_putc(ob, '\t');
	if (v == 0 && !signbit(v))	/* most host nodes: skip the digit search */
		outbuf_puts(ob, "0.0");
	else
		outbuf_put(ob, buf, py_float_repr(v, buf));
}

/* The appended columns of one row; i is its node or TREE_NONE. */
static void put_tree_cols(struct outbuf *ob, struct tree *t, uint32_t i)
{
	const struct tree_node *n;
	int host;
	uint32_t cnt = 0;
	double direct = 0;

	if (i == TREE_NONE) {
		outbuf_puts(ob, "\t\t\t0\t0\t0\t\t\t\t\t\t\t\t");
		return;
	}
	n = tree_at(t, i);
	host = (n->flags & TN_HOST) && (n->flags & TN_TREE);
	put_uid(ob, t, n->parent);
	outbuf_putc(ob, '\t');
	if (n->flags & TN_TREE)
		outbuf_u64(ob, n->depth);
	/* three 0/1 flags and the link word, without printf's format parsing */
	outbuf_putc(ob, '\t');
	outbuf_putc(ob, n->flags & TN_TREE ? '1' : '0');
	outbuf_putc(ob, '\t');
	outbuf_putc(ob, n->flags & TN_ROOT ? '1' : '0');
	outbuf_putc(ob, '\t');
	outbuf_putc(ob, n->flags & TN_DROP ? '1' : '0');
	outbuf_putc(ob, '\t');
	outbuf_puts(ob, tree_link_word(n->link));
	put_uid(ob, t, n->flags & TN_FWD ? n->fwd_bwd : TREE_NONE);
	put_uid(ob, t, n->flags & TN_BWD ? n->fwd_bwd : TREE_NONE);
	outbuf_putc(ob, '\t');
	if (host)
		outbuf_u64(ob, n->gpu_n);
	if (n->flags & TN_LAUNCHER) {
		direct = tree_kernel_direct(t, i, &cnt);
		put_float(ob, direct);
	} else {
		outbuf_putc(ob, '\t');
	}
	if (host)
		put_float(ob, tree_gpu_busy(t, i));
	else
		outbuf_putc(ob, '\t');
	put_uid(ob, t, n->launcher);
	outbuf_putc(ob, '\t');
	if (n->flags & TN_LAUNCHER)
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

/* Builds the segment's tree, writes its spooled lines with the tree columns. */
static void flush_seg(struct seg *g, struct outbuf *out, int ucol, int verbose,
		      const char *name)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;
	uint32_t cur = 0;

	if (g->sp)
		outbuf_flush(g->sp);
	if (g->t) {
		tree_build(g->t);
		warn_untimed(g, name);
		if (verbose)
			report_counts(g, name);
	}
	if (!g->again)
		rewind(g->fp);
	while ((!g->again || g->nlines) &&
	       (len = getline(&line, &alloc, g->again ? g->again : g->fp)) > 0) {
		if (g->again)
			g->nlines--;
		if (line[len - 1] == '\n')
			len--;
		outbuf_put(out, line, (size_t)len);
		if (line[0] != '#') {
			unsigned long uid = row_uid(line, ucol);
			size_t nr = tree_count(g->t);
			while (cur < nr && tree_at(g->t, cur)->uid < uid)
				cur++;
			put_tree_cols(out, g->t,
				      cur < nr && tree_at(g->t, cur)->uid == uid ? cur : TREE_NONE);
		}
		outbuf_putc(out, '\n');
	}
	free(line);
	if (g->again && (ferror(g->again) || g->nlines))
		tl_die("%s: changed while being read", g->path);
	if (!g->again && ferror(g->fp))
		tl_die_errno("spool file: read error");
	if (!g->again && ftruncate(fileno(g->fp), 0) < 0)
		tl_die_errno("spool file");
	if (!g->again)
		rewind(g->fp);
	tree_free(g->t);
	g->t = NULL;
}

static void spool_row(struct outbuf *sp, const struct stream *s)
{
	int n = stream_ncols(s);

	for (int i = 0; i < n; i++) {
		if (i)
			outbuf_putc(sp, '\t');
		outbuf_tsv(sp, stream_field(s, i), stream_field_len(s, i));
	}
	outbuf_putc(sp, '\n');
}

/* Adds the current row to the segment; -1 (message printed) if bad. */
static int add_row(struct seg *g, struct stream *s, const struct tree_cols *c,
		   unsigned flags)
{
	struct tree_event ev;

	if (tree_event_read(&ev, s, c) < 0)
		return -1;
	if (!g->t)
		g->t = tree_new(flags);
	if (tree_add(g->t, &ev) < 0) {
		tl_warn("%s:%ld: uid %lu out of order (uids must increase within a source and stay below 2^32)",
			stream_name(s), stream_lineno(s), ev.uid);
		return -1;
	}
	return 0;
}

static int same_src(const struct seg *g, const char *src)
{
	return g->src && !strcmp(g->src, src);
}

/* Keeps the current line for the second pass. */
static void keep_line(struct seg *g, const struct stream *s, int row)
{
	if (g->again) {
		g->nlines++;
	} else if (row) {
		spool_row(g->sp, s);
	} else {
		outbuf_putc(g->sp, '#');
		outbuf_puts(g->sp, stream_line(s));
		outbuf_putc(g->sp, '\n');
	}
}

int tree_io_write_nodes(struct stream *s, const char *path, unsigned flags, int verbose)
{
	struct tree_cols c;
	struct seg g = { NULL, NULL, NULL, NULL, NULL, 0, path, NULL };
	struct outbuf *out;
	int r, rval = 0;

	if (tree_cols_init(&c, s) < 0)
		return 1;
	g.again = tree_io_reread(path);
	if (!g.again) {
		g.fp = tree_io_spool();
		g.sp = outbuf_open_fd(fileno(g.fp));
	}
	out = outbuf_open_fd(1);
	outbuf_puts(out, "#tl-nodes 1\n");
	outbuf_puts(out, stream_header(s));
	outbuf_puts(out, tree_cols);
	outbuf_putc(out, '\n');
	while ((r = stream_next(s)) > 0) {
		if (r == STREAM_DIRECTIVE) {
			keep_line(&g, s, 0);
			continue;
		}
		if (g.t && !same_src(&g, stream_field(s, c.src)))
			flush_seg(&g, out, c.uid, verbose, g.trace);
		if (!same_src(&g, stream_field(s, c.src))) {
			free(g.src);
			g.src = xstrdup(stream_field(s, c.src));
			free(g.trace);
			g.trace = xstrdup(stream_trace(s));
		}
		if (add_row(&g, s, &c, flags) < 0) {
			r = STREAM_ERROR;
			break;
		}
		keep_line(&g, s, 1);
	}
	if (r < 0)
		rval = 1;
	else
		flush_seg(&g, out, c.uid, verbose, g.trace ? g.trace : stream_trace(s));
	tree_free(g.t);
	free(g.src);
	free(g.trace);
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
	struct seg g = { NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL };
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
