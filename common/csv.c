#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "csv.h"
#include "err.h"
#include "xalloc.h"
#include "banned.h"

/* The record being parsed and everything parsed so far. */
struct parser {
	char *buf;
	size_t len, pos, line;
	const char *path;
	struct csv_field *f;	/* all fields of all records */
	size_t nf, af;
	size_t *rec;		/* index in f of each record's first field */
	size_t *recline;	/* line where each record starts */
	size_t nrec, arec, arecline;
};

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * The plain ASCII bytes (no NUL, none above 0x7f) from buf[i] on, 16 at a
 * time: where they end (i, or 16 bytes on, or more), their newlines added
 * to *line.  Nearly all of a CSV file: byte by byte, check_text took
 * tl-html 0.4 s of the 0.9 it spent reading tl-diff's 156 MB
 * diff_stats.csv on the bench trace.
 */
static size_t skip_ascii(const char *buf, size_t i, size_t len, size_t *line)
{
#ifdef __SSE2__
	const __m128i zero = _mm_setzero_si128(), nl = _mm_set1_epi8('\n');

	for (; len - i >= 16; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(buf + i));
		if (_mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, zero))))
			break;
		/* a line is hundreds of bytes: a loop over the set bits */
		for (unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)); m;
		     m &= m - 1)
			++*line;
	}
#else
	(void)buf;
	(void)len;
	(void)line;
#endif
	return i;
}

/*
 * pandas decodes the file as UTF-8 before it parses anything; a file it
 * could not decode must not be compared as if it had been read.
 */
static int check_text(const char *path, const char *buf, size_t len, size_t *linep)
{
	size_t i = 0, line = *linep, n;

	while ((i = skip_ascii(buf, i, len, &line)) < len) {
		if (buf[i] == '\0') {
			tl_warn("%s:%zu: NUL byte", path, line);
			return -1;
		}
		n = utf8_len((const unsigned char *)buf + i, len - i);
		if (!n) {
			tl_warn("%s:%zu: invalid UTF-8", path, line);
			return -1;
		}
		if (buf[i] == '\n')
			line++;
		i += n;
	}
	*linep = line;
	return 0;
}

static int at_eol(const struct parser *p)
{
	return p->pos < p->len &&
	       (p->buf[p->pos] == '\n' || p->buf[p->pos] == '\r');
}

/* Steps over one line end (LF, CRLF or CR). */
static void skip_eol(struct parser *p)
{
	if (p->buf[p->pos] == '\r' && p->pos + 1 < p->len &&
	    p->buf[p->pos + 1] == '\n')
		p->pos++;
	p->pos++;
	p->line++;
}

static void add_field(struct parser *p, char *s, size_t n)
{
	xgrow((void **)&p->f, &p->af, p->nf + 1, sizeof(*p->f));
	p->f[p->nf].s = s;
	p->f[p->nf].n = n;
	p->nf++;
}

/*
 * The first byte of buf[i..len) that is stop, '\n' or '\r', or len; 16
 * bytes at a time where it can (tl-html reads tl-diff's diff_stats.csv,
 * 156 MB on the bench trace: a byte at a time, parsing it was a third of
 * tl-html's time).  stop: ',' ends a plain field, '"' a quoted run.
 */
static size_t next_stop(const char *buf, size_t i, size_t len, char stop)
{
#ifdef __SSE2__
	const __m128i c = _mm_set1_epi8(stop), lf = _mm_set1_epi8('\n');
	const __m128i cr = _mm_set1_epi8('\r');

	for (; len - i >= 16; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(buf + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
			_mm_cmpeq_epi8(v, c), _mm_cmpeq_epi8(v, lf)), _mm_cmpeq_epi8(v, cr)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	while (i < len && buf[i] != stop && buf[i] != '\n' && buf[i] != '\r')
		i++;
	return i;
}

/*
 * A quoted field is unescaped in place: the text moves left over its
 * opening quote, so it never overwrites bytes not yet read.  The bytes up
 * to the next quote or line end (counted below) move as one run.
 */
static int quoted_field(struct parser *p)
{
	char *dst = p->buf + p->pos;
	size_t n = 0, start_line = p->line, run;

	p->pos++;
	for (;;) {
		run = next_stop(p->buf, p->pos, p->len, '"') - p->pos;
		tl_memmove(dst + n, p->buf + p->pos, run);
		n += run;
		p->pos += run;
		if (p->pos == p->len) {
			tl_warn("%s:%zu: unterminated quoted field",
				p->path, start_line);
			return -1;
		}
		char ch = p->buf[p->pos];
		if (ch == '"') {
			if (p->pos + 1 < p->len && p->buf[p->pos + 1] == '"') {
				dst[n++] = '"';
				p->pos += 2;
				continue;
			}
			p->pos++;
			break;
		}
		if (ch == '\n' || (ch == '\r' && !(p->pos + 1 < p->len &&
						   p->buf[p->pos + 1] == '\n')))
			p->line++;
		dst[n++] = ch;
		p->pos++;
	}
	if (p->pos < p->len && p->buf[p->pos] != ',' && !at_eol(p)) {
		tl_warn("%s:%zu: text after closing quote", p->path, p->line);
		return -1;
	}
	add_field(p, dst, n);
	return 0;
}

static void plain_field(struct parser *p)
{
	size_t start = p->pos;

	p->pos = next_stop(p->buf, p->pos, p->len, ',');
	add_field(p, p->buf + start, p->pos - start);
}

/* One record; the parser stands at its first byte, not at a line end. */
static int parse_record(struct parser *p)
{
	xgrow((void **)&p->rec, &p->arec, p->nrec + 1, sizeof(*p->rec));
	xgrow((void **)&p->recline, &p->arecline, p->nrec + 1,
	      sizeof(*p->recline));
	p->rec[p->nrec] = p->nf;
	p->recline[p->nrec] = p->line;
	p->nrec++;
	for (;;) {
		if (p->pos < p->len && p->buf[p->pos] == '"') {
			if (quoted_field(p) < 0)
				return -1;
		} else {
			plain_field(p);
		}
		if (p->pos < p->len && p->buf[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len)
			skip_eol(p);
		return 0;
	}
}

/*
 * pandas' tokenizer skips a line of nothing but spaces and tabs as blank
 * (its WHITESPACE_LINE state); true when the parser stood at one and has
 * stepped over it.
 */
static int skip_blank_line(struct parser *p)
{
	size_t i = p->pos;

	while (i < p->len && (p->buf[i] == ' ' || p->buf[i] == '\t'))
		i++;
	if (i < p->len && p->buf[i] != '\n' && p->buf[i] != '\r')
		return 0;
	p->pos = i;
	if (i < p->len)
		skip_eol(p);
	return 1;
}

static int parse_all(struct parser *p)
{
	while (p->pos < p->len) {
		if (skip_blank_line(p))
			continue;
		if (parse_record(p) < 0)
			return -1;
	}
	return 0;
}

static size_t rec_nfields(const struct parser *p, size_t r)
{
	return (r + 1 < p->nrec ? p->rec[r + 1] : p->nf) - p->rec[r];
}

static long find_name(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (long)i;
	return -1;
}

/*
 * pandas' dedup_names(): each name keeps a count of how often it was
 * seen; a repeat becomes NAME.COUNT, tried again until it is new.
 */
static void dedup_names(char **names, size_t n)
{
	size_t *counts = xcalloc(n ? n * 2 : 1, sizeof(*counts));
	char **seen = xcalloc(n ? n * 2 : 1, sizeof(*seen));
	size_t nseen = 0;

	for (size_t i = 0; i < n; i++) {
		char *col = names[i];
		long k = find_name(seen, nseen, col);
		size_t cur = k < 0 ? 0 : counts[k];
		while (cur > 0) {
			counts[k] = cur + 1;
			size_t len = strlen(col) + 24;
			char *next = xmalloc(len);
			snprintf(next, len, "%s.%zu", col, cur);
			free(col);
			col = next;
			k = find_name(seen, nseen, col);
			cur = k < 0 ? 0 : counts[k];
		}
		names[i] = col;
		if (k < 0) {
			seen[nseen] = col;
			k = (long)nseen++;
		}
		counts[k] = cur + 1;
	}
	free(counts);
	free(seen);
}

static void set_header(struct csv *c, const struct parser *p)
{
	c->ncols = rec_nfields(p, 0);
	c->names = xcalloc(c->ncols ? c->ncols : 1, sizeof(*c->names));
	for (size_t i = 0; i < c->ncols; i++) {
		const struct csv_field *h = &p->f[i];
		if (h->n == 0) {
			c->names[i] = xmalloc(32);
			snprintf(c->names[i], 32, "Unnamed: %zu", i);
		} else {
			c->names[i] = xstrndup(h->s, h->n);
		}
	}
	dedup_names(c->names, c->ncols);
}

static int set_rows(struct csv *c, struct parser *p)
{
	for (size_t r = 1; r < p->nrec; r++) {
		size_t k = rec_nfields(p, r);
		if (k != c->ncols) {
			tl_warn("%s:%zu: expected %zu fields, saw %zu", c->path,
				p->recline[r], c->ncols, k);
			return -1;
		}
	}
	c->nrows = p->nrec ? p->nrec - 1 : 0;
	c->line = xcalloc(c->nrows ? c->nrows : 1, sizeof(*c->line));
	for (size_t r = 0; r < c->nrows; r++)
		c->line[r] = p->recline[r + 1];
	/* the header's fields go first; drop them from the cell array */
	size_t ncells = st_mult(c->nrows, c->ncols);
	c->f = xcalloc(ncells ? ncells : 1, sizeof(*c->f));
	if (ncells)
		tl_memcpy(c->f, p->f + c->ncols, ncells * sizeof(*c->f));
	return 0;
}

int csv_parse(struct csv *c, const char *path, char *buf, size_t len)
{
	struct parser p = { .buf = buf, .len = len, .line = 1, .path = path };
	size_t text_line = 1;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	c->buf = buf;
	c->path = xstrdup(path);
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		p.pos = 3;
	if (check_text(path, buf, len, &text_line) < 0 || parse_all(&p) < 0)
		goto out;
	if (p.nrec == 0) {
		/* no header at all: the empty table TraceLens reads */
		c->names = xcalloc(1, sizeof(*c->names));
		c->f = xcalloc(1, sizeof(*c->f));
		c->line = xcalloc(1, sizeof(*c->line));
		rc = 0;
		goto out;
	}
	set_header(c, &p);
	rc = set_rows(c, &p);
out:
	free(p.f);
	free(p.rec);
	free(p.recline);
	if (rc < 0)
		csv_release(c);
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0, alloc = 0;
	char *buf = NULL;

	if (fd < 0) {
		tl_warn_errno("%s", path);
		return NULL;
	}
	for (;;) {
		xgrow((void **)&buf, &alloc, n + 65536, 1);
		ssize_t got = read(fd, buf + n, alloc - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			tl_warn_errno("%s", path);
			free(buf);
			close(fd);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	*len = n;
	return buf;
}

int csv_read(struct csv *c, const char *path)
{
	size_t len = 0;
	char *buf = slurp(path, &len);

	if (!buf) {
		memset(c, 0, sizeof(*c));
		return -1;
	}
	return csv_parse(c, path, buf, len);
}

void csv_release(struct csv *c)
{
	for (size_t i = 0; i < c->ncols && c->names; i++)
		free(c->names[i]);
	free(c->names);
	free(c->f);
	free(c->line);
	free(c->buf);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

long csv_col(const struct csv *c, const char *name)
{
	return find_name(c->names, c->ncols, name);
}

/* ---- a row at a time ------------------------------------------------- */

struct csv_rows {
	struct csv head;	/* names, ncols and path; no cells */
	int fd;
	char *buf;		/* buf[beg..end) read and not yet parsed */
	size_t beg, end, cap;
	int eof;
	size_t line;		/* the parser's line of buf[beg] */
	size_t text_line;	/* check_text's (it counts only LF) */
	size_t row_line;	/* where the current row starts */
	struct parser p;	/* the current record's fields */
};

/* Reads more after what is left: 0, or -1 (message printed). */
static int fill(struct csv_rows *r)
{
	ssize_t got;

	if (r->beg > 0) {
		tl_memmove(r->buf, r->buf + r->beg, r->end - r->beg);
		r->end -= r->beg;
		r->beg = 0;
	}
	if (r->end == r->cap) {	/* one record fills the window */
		r->cap *= 2;
		r->buf = xrealloc(r->buf, r->cap);
	}
	do
		got = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		tl_warn_errno("%s", r->head.path);
		return -1;
	}
	if (got == 0)
		r->eof = 1;
	r->end += (size_t)got;
	return 0;
}

/*
 * Where the record at buf[beg] ends (past its line end), walking its
 * fields as parse_record does, without changing them: 1, or 0 when the
 * window ends first (a quote or a CR as its last byte cannot be judged yet).
 * At the end of input the record runs to the end.
 */
static int record_end(const struct csv_rows *r, size_t *endp)
{
	const char *b = r->buf;
	size_t i = r->beg, n = r->end;

	for (;;) {	/* at a field's first byte */
		if (i < n && b[i] == '"') {
			for (i++;; i += 2) {
				const char *q = memchr(b + i, '"', n - i);
				if (!q)
					goto more;
				i = (size_t)(q - b);
				if (i + 1 >= n)
					goto more;
				if (b[i + 1] != '"')
					break;
			}
			i++;
		}
		while (i < n && b[i] != ',' && b[i] != '\n' && b[i] != '\r')
			i++;
		if (i >= n)
			goto more;
		if (b[i] == ',') {
			i++;
			continue;
		}
		if (b[i] == '\r' && i + 1 >= n)
			goto more;
		if (b[i] == '\r' && b[i + 1] == '\n')
			i++;
		*endp = i + 1;
		return 1;
	}
more:
	*endp = n;
	return r->eof;
}

/* The next record, blank lines skipped, in r->p: 1, 0 at the end, -1 error. */
static int read_record(struct csv_rows *r)
{
	struct parser *p = &r->p;
	size_t e;

	for (;;) {
		if (r->beg == r->end && r->eof)
			return 0;
		if (r->beg == r->end || !record_end(r, &e)) {
			if (fill(r) < 0)
				return -1;
			continue;
		}
		if (check_text(r->head.path, r->buf + r->beg, e - r->beg, &r->text_line) < 0)
			return -1;
		p->buf = r->buf + r->beg;
		p->len = e - r->beg;
		p->pos = 0;
		p->line = r->line;
		p->nf = p->nrec = 0;
		r->beg = e;
		if (skip_blank_line(p)) {
			r->line = p->line;
			continue;
		}
		r->row_line = p->line;
		if (parse_record(p) < 0)
			return -1;
		r->line = p->line;
		return 1;
	}
}

struct csv_rows *csv_rows_open_chunk(const char *path, size_t chunk)
{
	struct csv_rows *r = xcalloc(1, sizeof(*r));
	int k;

	r->fd = open(path, O_RDONLY);
	r->head.path = xstrdup(path);
	r->cap = chunk < 4 ? 4 : chunk;
	r->buf = xmalloc(r->cap);
	r->line = r->text_line = 1;
	r->p.path = r->head.path;
	if (r->fd < 0) {
		tl_warn_errno("%s", path);
		csv_rows_close(r);
		return NULL;
	}
	while (r->end < 3 && !r->eof)
		if (fill(r) < 0) {
			csv_rows_close(r);
			return NULL;
		}
	if (r->end >= 3 && !memcmp(r->buf, "\xef\xbb\xbf", 3))
		r->beg = 3;
	if ((k = read_record(r)) < 0) {
		csv_rows_close(r);
		return NULL;
	}
	if (k == 0) {	/* no header at all: the empty table */
		r->head.names = xcalloc(1, sizeof(*r->head.names));
		return r;
	}
	set_header(&r->head, &r->p);
	return r;
}

struct csv_rows *csv_rows_open(const char *path)
{
	return csv_rows_open_chunk(path, (size_t)1 << 20);
}

int csv_rows_next(struct csv_rows *r)
{
	int k = r->head.ncols ? read_record(r) : 0;

	if (k > 0 && r->p.nf != r->head.ncols) {
		tl_warn("%s:%zu: expected %zu fields, saw %zu", r->head.path, r->row_line,
			r->head.ncols, r->p.nf);
		return -1;
	}
	return k;
}

const struct csv *csv_rows_head(const struct csv_rows *r)
{
	return &r->head;
}

const struct csv_field *csv_rows_field(const struct csv_rows *r, size_t col)
{
	return &r->p.f[col];
}

size_t csv_rows_line(const struct csv_rows *r)
{
	return r->row_line;
}

void csv_rows_close(struct csv_rows *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	csv_release(&r->head);
	free(r->buf);
	free(r->p.f);
	free(r->p.rec);
	free(r->p.recline);
	free(r);
}
