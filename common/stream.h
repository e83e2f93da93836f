/*
 * stream: reader for tl's line streams (tl-stream(5)).
 *
 * A stream starts with "#tl-KIND VERSION", then one header line of column
 * names, then rows; lines starting with '#' after the header are
 * directives (#source, #top, #end, ...) and are handed back as such.
 * Fields are TSV-unescaped when a row is read.  Columns are looked up by
 * name, so readers keep working when a later version appends columns.
 *
 *	struct stream *s = stream_open(path, "events,nodes");
 *	if (!s) { rval = 1; continue; }          message already printed
 *	int c_ts = stream_col(s, "ts");
 *	while ((r = stream_next(s)) > 0) {
 *		if (r == STREAM_DIRECTIVE) { use stream_line(s); continue; }
 *		const char *ts = stream_field(s, c_ts);
 *	}
 *	if (r < 0) rval = 1;                      message already printed
 *	stream_close(s);
 *
 * A path of NULL or "-" reads stdin.  Messages name the input as
 * "FILE:LINE" ("-" for stdin).
 */
#ifndef TL_STREAM_H
#define TL_STREAM_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

enum {
	STREAM_ERROR = -1, STREAM_EOF = 0, STREAM_ROW = 1, STREAM_DIRECTIVE = 2,
	STREAM_DROPPED = 3	/* a "#dropped" row: see stream_allow_dropped */
};

struct stream;

/* kinds: comma-separated list of acceptable kinds, e.g. "events,nodes" */
struct stream *stream_open(const char *path, const char *kinds);
/*
 * The same on an open FILE (fmemopen(3) for a buffer), named name in
 * messages; stream_close closes it unless it is stdin.
 */
struct stream *stream_open_fp(FILE *fp, const char *name, const char *kinds);
void stream_close(struct stream *s);
int stream_next(struct stream *s);
/*
 * Hand out the "#dropped" rows of a lean node stream (tl-tree --lean: the
 * rows no report sheet reads, given by their first columns, uid to dur) as
 * STREAM_DROPPED.  Without this call such a row is an error: the program
 * needs every column.  Such a row comes uncut: see stream_cut.
 */
void stream_allow_dropped(struct stream *s);
/*
 * Hand out every row uncut (STREAM_ROW), for a reader that skips most rows
 * by a field or two (stream_peek_is) among the first peek_cols (the others
 * are found by a walk from the row's start): its tabs are counted (a wrong
 * count is still an error of stream_next), not its fields cut.  With
 * peek_cols 0, rows are cut as they are read again, from the next one on.
 */
void stream_defer_cut(struct stream *s, int peek_cols);
/* The most fields a row is peeked at in (its tabs noted): 15. */
enum { STREAM_PEEK_MAX = 15 };
/*
 * Cut the current row into fields, if it came uncut: stream_field and
 * stream_row_text must wait for this.  The columns a "#dropped" row does
 * not give are empty.  0, or -1 after a message.
 */
int stream_cut(struct stream *s);
/*
 * Whether field i of the current row is want (1) or not (0), without
 * cutting the row into fields: for a reader that can tell from one or two
 * fields that the row changes nothing.  A field the row does not give is
 * empty.  -1 where want holds a byte TSV escapes and the field as
 * written may hold an escape (the row must be cut to tell).
 */
int stream_peek_is(const struct stream *s, int i, const char *want);
/*
 * Field i of the current row, cut or not: *len bytes as written (not
 * NUL-terminated), which for an uncut row may hold TSV escapes (*escaped
 * 1; equal to a text without backslash, tab, newline or CR exactly where
 * its value is).  A field the row does not give is empty.
 */
const char *stream_peek(const struct stream *s, int i, size_t *len, int *escaped);
/*
 * The first n fields of the current row, not cut yet, as written (f[i],
 * len[i]: the same as their values, for the row holds no backslash; the
 * row's last field ends at its NUL, the others at a tab): 1, or 0 where
 * the row does not give them so (cut already, a backslash in it, fewer
 * fields, or more than stream_defer_cut's peek_cols, STREAM_PEEK_MAX for
 * a "#dropped" row, noted).
 */
int stream_peek_first(const struct stream *s, int n, const char **f, size_t *len);
/*
 * Whether p[0..n), a span of the current row's text (stream_peek_first's
 * fields), holds no CR and no NUL: a text written back as it is then has
 * the bytes outbuf_tsv would write of it.  One pass for both bytes.
 */
int stream_span_plain(const struct stream *s, const char *p, size_t n);

const char *stream_kind(const struct stream *s);
int stream_ncols(const struct stream *s);
const char *stream_colname(const struct stream *s, int i);
/* Index of the named column, or -1 if the stream has none. */
int stream_col(const struct stream *s, const char *name);
/* Field i of the current row, unescaped and NUL-terminated; "" if i < 0. */
const char *stream_field(const struct stream *s, int i);
size_t stream_field_len(const struct stream *s, int i);
/*
 * The current row as it was read (*len bytes, not NUL-terminated), for
 * writing it on unchanged: the bytes outbuf_tsv would write of its fields
 * joined by tabs.  NULL when that is not so, the row holding a backslash
 * (its fields were unescaped in place), a CR or a NUL.  Its fields are not
 * usable afterwards.
 */
const char *stream_row_text(struct stream *s, size_t *len);
/* The current directive line without its leading '#'. */
const char *stream_line(const struct stream *s);
const char *stream_name(const struct stream *s);
long stream_lineno(const struct stream *s);
/* The raw header line (column names joined by tabs), for pass-through. */
const char *stream_header(const struct stream *s);
/*
 * Names for messages about what a row says (a GPU event without dur), as
 * opposed to how the stream is written (a missing column: stream_name and
 * stream_lineno).  stream_trace() is the trace the current row came from,
 * the name of the last #source directive ("trace.json"), or the stream's
 * own name when it had none; stream_where() is "trace.json: event 7" (the
 * row's uid), or "FILE:LINE" without a #source.  So a program reading
 * tl-report's temporary files names the user's trace and event.  The text
 * stays valid until the next stream_where.
 */
const char *stream_trace(const struct stream *s);
const char *stream_where(struct stream *s);
/*
 * If the current directive is "#top SRC KEY JSON", unescape KEY and JSON
 * in place and point *key and *json (*len bytes) at them: 1.  0 for any
 * other line.  stream_line() is not usable afterwards for that line.
 */
int stream_top(struct stream *s, const char **key, const char **json, size_t *len);
/*
 * If the current directive is "#end SRC ELEMENTS SKIPPED": 1 and
 * *elements, the source's count of trace elements (its uids are element
 * indexes, below it), or -1 where ELEMENTS is not a decimal count up to
 * 2^31 (uids counted on from it stay within 32 bits).  0 for any other
 * line.
 */
int stream_end_elements(const struct stream *s, uint32_t *elements);

#endif
