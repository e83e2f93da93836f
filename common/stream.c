#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "err.h"
#include "stream.h"
#include "xalloc.h"
#include "banned.h"


/* The kinds and versions this build understands. */
static const struct {
	const char *kind;
	int version;
} known[] = {
	{ "events", 1 },
	{ "nodes", 1 },
	{ "nodes", 2 },
	{ "coll", 1 },
};

struct stream {
	FILE *fp;
	char *name;
	long lineno;
	char *line;		/* the current line, inside buf, NUL-terminated */
	char *buf;		/* what was read and not yet handed out: */
	size_t beg, end, cap;	/* buf[beg..end) of cap bytes (+ SLACK) */
	int eof;
	char kind[32];
	char *header;
	char **cols;
	int ncols;
	char **field;
	size_t *flen;
	char *trace;		/* the last #source directive's name, or NULL */
	char *where;		/* stream_where's text */
	int uid_col;		/* -2: not looked up yet */
	int verbatim;		/* the current row's text is what outbuf_tsv
				 * would write of its fields (no backslash, CR
				 * or NUL in it) */
	int allow_dropped;	/* "#dropped" rows are handed out (STREAM_DROPPED) */
	int defer_cut;		/* rows too are handed out uncut (stream_defer_cut):
				 * the tabs to note of one */
	/*
	 * An uncut row (a "#dropped" one, or any with defer_cut): its fields'
	 * text (past "#dropped\t") and length until stream_cut, and whether
	 * it may give fewer fields than the header names ("#dropped")
	 */
	char *uncut;
	size_t uncut_len;
	int is_uncut;		/* the current row is not cut yet */
	int uncut_short;
	/*
	 * Its tabs, found in one pass when it is read (readers that skip most
	 * such rows look at a field or two: no walk from the row's start a
	 * field): the offsets from uncut of the first ndtab, whether it had
	 * more (dmany) and a backslash (dbsl: in the bytes up to the last tab
	 * noted, at least)
	 */
	uint32_t dtab[STREAM_PEEK_MAX];
	int ndtab, dmany, dbsl;
	int peek_tabs;		/* how many to note (of STREAM_PEEK_MAX) */
	/*
	 * Fields empty_from.. are empty (they point at nul): a "#dropped"
	 * row after another fills only the columns the last one gave
	 */
	int empty_from;
	char nul;
};

static int known_kind(const char *kind, int version)
{
	size_t i;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].kind, kind) && known[i].version == version)
			return 1;
	return 0;
}

static int kind_wanted(const char *kinds, const char *kind)
{
	size_t n = strlen(kind);
	const char *p = kinds;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && !strncmp(p, kind, n))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/*
 * Lines are cut straight out of a big read buffer (no copy per line, as
 * getline makes).  SLACK bytes past cap stay readable, so the tab scan
 * below may load 16 bytes at a time past a line's end; a line longer than
 * the buffer doubles it.
 */
enum { READ_SIZE = 1 << 20, SLACK = 64 };

/* Reads more into buf[end..cap): 0 at end of input, -1 on error. */
static ssize_t fill(struct stream *s)
{
	ssize_t n;

	if (s->beg > 0) {
		tl_memmove(s->buf, s->buf + s->beg, s->end - s->beg);
		s->end -= s->beg;
		s->beg = 0;
	}
	if (s->end == s->cap) {
		s->cap *= 2;
		s->buf = xrealloc(s->buf, s->cap + SLACK);
	}
	/*
	 * read(2) hands back what a pipe holds now (fread would wait to fill
	 * the request); a memory stream (fmemopen) has no descriptor.
	 */
	if (fileno(s->fp) < 0) {
		n = (ssize_t)fread(s->buf + s->end, 1, s->cap - s->end, s->fp);
		return n == 0 && ferror(s->fp) ? -1 : n;
	}
	do
		n = read(fileno(s->fp), s->buf + s->end, s->cap - s->end);
	while (n < 0 && errno == EINTR);
	return n;
}

static ssize_t read_line(struct stream *s)
{
	char *nl;
	size_t n;

	for (;;) {
		nl = memchr(s->buf + s->beg, '\n', s->end - s->beg);
		if (nl || s->eof)
			break;
		ssize_t r = fill(s);
		if (r < 0) {
			s->eof = -1;
			return -1;
		}
		s->end += (size_t)r;
		if (r == 0)
			s->eof = 1;
	}
	if (!nl && s->beg == s->end)
		return -1;	/* end of input */
	s->line = s->buf + s->beg;
	n = nl ? (size_t)(nl - s->line) : s->end - s->beg;
	s->line[n] = '\0';	/* the '\n', or the slack after a last line without one */
	s->beg += n + (nl != NULL);
	s->lineno++;
	return (ssize_t)n;
}

/* Fields after field last are empty. */
static int empty_rest(struct stream *s, int last)
{
	for (int k = last + 1; k < s->empty_from; k++) {
		s->field[k] = &s->nul;
		s->flen[k] = 0;
	}
	s->empty_from = last + 1;
	return 0;
}

/*
 * Splits s->line at tabs into s->field, unescaping in place.  With short,
 * fewer fields than columns are taken, the others left empty.
 */
static int split(struct stream *s, int short_ok)
{
	char *p = s->line, *w = s->line;
	int i = 0;

	s->empty_from = s->ncols;
	s->field[0] = w;
	for (;; p++) {
		char c = *p;
		if (c == '\t' || c == '\0') {
			*w = '\0';
			s->flen[i] = (size_t)(w - s->field[i]);
			if (c == '\0')
				break;
			if (++i >= s->ncols)
				return -1;
			s->field[i] = ++w;
			continue;
		}
		if (c == '\\') {
			switch (p[1]) {
			case '\\': c = '\\'; p++; break;
			case 't': c = '\t'; p++; break;
			case 'n': c = '\n'; p++; break;
			case 'r': c = '\r'; p++; break;
			case '0': c = '\0'; p++; break;
			default: break;
			}
		}
		*w++ = c;
	}
	return i + 1 == s->ncols ? 0 : short_ok ? empty_rest(s, i) : -1;
}

/*
 * Most rows hold no backslash at all, so nothing needs unescaping: cut the
 * line at its tabs.  On x86-64 a pass over 32 bytes at a time (two 16-byte
 * SSE2 loads, always there) or 64 (two 32-byte AVX2 loads, where the CPU
 * has AVX2: a node row is 270 bytes and 34 fields) finds every tab, and
 * any backslash, CR or NUL in one test, told apart only where one is
 * there; elsewhere memchr (TL_STREAM_SCAN=memchr takes that path on x86-64
 * too, and =sse2 the SSE2 one, for tests).  Returns -2, the line as it
 * was, when it holds a backslash (split() does it then), -1 for the wrong
 * number of fields.  The loads read up to 63 bytes past the line: the
 * buffer's SLACK.
 */
#if defined(__SSE2__)
/*
 * The tabs of one block (bit k: blk[k]) cut: a NUL stored at each, the
 * field it ends measured, the next one's start noted; -1 past ncols
 * fields.  The count in a size_t and the bit's place zero-extended: with
 * an int, each tab cost two sign extensions more.
 */
static inline __attribute__((always_inline)) int
cut_tabs(char *blk, uint64_t tabs, char **field, size_t *flen, size_t *i, size_t ncols)
{
	size_t k = *i;
	char *start = field[k];

	for (; tabs; tabs &= tabs - 1) {
		char *t = blk + (unsigned)__builtin_ctzll(tabs);
		*t = '\0';
		flen[k] = (size_t)(t - start);
		if (++k >= ncols)
			return -1;
		field[k] = start = t + 1;
	}
	*i = k;
	return 0;
}

/*
 * One block's masks (bit k: the block's byte k): its tabs, its
 * backslashes, and the bytes that keep a row from being handed on as it
 * was read (backslash, CR, NUL).
 */
struct block_masks {
	uint64_t tabs, bsl, odd;
};

/*
 * The split of either path, step bytes a block, masks() making a block's
 * masks: inlined into each with its own, so that one loop serves both.
 * The arrays and the column count in locals: the NUL stored at each tab is
 * a char store, which could alias s's members, so the compiler would load
 * them again for every tab (a fifth of the loop).
 */
static inline __attribute__((always_inline)) int
split_blocks(struct stream *s, size_t n, int short_ok, size_t step,
	     void (*masks)(const char *, struct block_masks *))
{
	char *line = s->line, **field = s->field;
	size_t *flen = s->flen;
	const size_t ncols = (size_t)s->ncols;
	struct block_masks m;
	unsigned odd_seen = 0;
	size_t i = 0;

	s->empty_from = (int)ncols;
	field[0] = line;
	for (size_t at = 0; at < n; at += step) {
		uint64_t live = n - at >= step ? UINT64_MAX : (UINT64_C(1) << (n - at)) - 1;

		masks(line + at, &m);
		if (m.odd & live) {
			if (m.bsl & live) {
				/* put back the tabs cut so far: split() starts over */
				for (size_t k = 1; k <= i; k++)
					field[k][-1] = '\t';
				return -2;
			}
			odd_seen = 1;
		}
		if (cut_tabs(line + at, m.tabs & live, field, flen, &i, ncols) < 0)
			return -1;
	}
	s->verbatim = !odd_seen;
	flen[i] = (size_t)(line + n - field[i]);	/* the last field ends the line */
	return i + 1 == ncols ? 0 : short_ok ? empty_rest(s, (int)i) : -1;
}

static uint32_t mask32(__m128i a, __m128i b)
{
	return (uint32_t)_mm_movemask_epi8(a) | (uint32_t)_mm_movemask_epi8(b) << 16;
}

/* 32 bytes at p in two 16-byte loads */
static inline __attribute__((always_inline)) void
block_sse2(const char *p, struct block_masks *m)
{
	const __m128i tab = _mm_set1_epi8('\t'), bsl = _mm_set1_epi8('\\');
	const __m128i cr = _mm_set1_epi8('\r'), nul = _mm_setzero_si128();
	__m128i a = _mm_loadu_si128((const __m128i *)p);
	__m128i b = _mm_loadu_si128((const __m128i *)(p + 16));
	__m128i ba = _mm_cmpeq_epi8(a, bsl), bb = _mm_cmpeq_epi8(b, bsl);

	m->tabs = mask32(_mm_cmpeq_epi8(a, tab), _mm_cmpeq_epi8(b, tab));
	m->bsl = mask32(ba, bb);
	m->odd = mask32(_mm_or_si128(_mm_or_si128(ba, _mm_cmpeq_epi8(a, cr)),
				     _mm_cmpeq_epi8(a, nul)),
			_mm_or_si128(_mm_or_si128(bb, _mm_cmpeq_epi8(b, cr)),
				     _mm_cmpeq_epi8(b, nul)));
}

static int split_plain_sse2(struct stream *s, size_t n, int short_ok)
{
	return split_blocks(s, n, short_ok, 32, block_sse2);
}
#endif

#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__)
#define STREAM_AVX2 1
#define STREAM_AVX2_TARGET "avx2,bmi,popcnt"

__attribute__((target(STREAM_AVX2_TARGET)))
static uint64_t mask64(__m256i a, __m256i b)
{
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(a) |
	       (uint64_t)(uint32_t)_mm256_movemask_epi8(b) << 32;
}

/* 64 bytes at p in two 32-byte loads */
static inline __attribute__((always_inline, target(STREAM_AVX2_TARGET))) void
block_avx2(const char *p, struct block_masks *m)
{
	const __m256i tab = _mm256_set1_epi8('\t'), bsl = _mm256_set1_epi8('\\');
	const __m256i cr = _mm256_set1_epi8('\r'), nul = _mm256_setzero_si256();
	__m256i a = _mm256_loadu_si256((const __m256i *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
	__m256i ba = _mm256_cmpeq_epi8(a, bsl), bb = _mm256_cmpeq_epi8(b, bsl);

	m->tabs = mask64(_mm256_cmpeq_epi8(a, tab), _mm256_cmpeq_epi8(b, tab));
	m->bsl = mask64(ba, bb);
	m->odd = mask64(_mm256_or_si256(_mm256_or_si256(ba, _mm256_cmpeq_epi8(a, cr)),
					_mm256_cmpeq_epi8(a, nul)),
			_mm256_or_si256(_mm256_or_si256(bb, _mm256_cmpeq_epi8(b, cr)),
					_mm256_cmpeq_epi8(b, nul)));
}

__attribute__((target(STREAM_AVX2_TARGET)))
static int split_plain_avx2(struct stream *s, size_t n, int short_ok)
{
	return split_blocks(s, n, short_ok, 64, block_avx2);
}
#endif

static int split_plain_memchr(struct stream *s, size_t n, int short_ok)
{
	char *p = s->line, *end = s->line + n;
	int i = 0;

	s->empty_from = s->ncols;
	if (memchr(p, '\\', n))
		return -2;
	s->verbatim = !memchr(p, '\r', n) && !memchr(p, '\0', n);
	for (;;) {
		char *tab = memchr(p, '\t', (size_t)(end - p));
		s->field[i] = p;
		if (!tab) {
			s->flen[i] = (size_t)(end - p);
			break;
		}
		*tab = '\0';
		s->flen[i] = (size_t)(tab - p);
		if (++i >= s->ncols)
			return -1;
		p = tab + 1;
	}
	return i + 1 == s->ncols ? 0 : short_ok ? empty_rest(s, i) : -1;
}

static int (*split_plain)(struct stream *, size_t, int) = split_plain_memchr;

/*
 * AVX2 where the CPU has it, else SSE2 where the build has it, unless
 * TL_STREAM_SCAN asks for a path: "sse2", or "memchr", the path of
 * machines without SSE2 (aarch64, say); tests run all three.
 */
static void choose_split(void)
{
#if defined(__SSE2__)
	const char *e = getenv("TL_STREAM_SCAN");

	if (e && !strcmp(e, "memchr"))
		return;
	split_plain = split_plain_sse2;
#if defined(STREAM_AVX2)
	if (e && !strcmp(e, "sse2"))
		return;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("popcnt"))
		split_plain = split_plain_avx2;
#endif
#endif
}

static int parse_header(struct stream *s, const char *kinds)
{
	int version;
	char *p;

	if (read_line(s) < 0 || sscanf(s->line, "#tl-%31s %d", s->kind, &version) != 2) {
		tl_warn("%s:1: not a tl stream (expected a first line like '#tl-events 1')",
			s->name);
		return -1;
	}
	if (!known_kind(s->kind, version)) {
		tl_warn("%s:1: unsupported stream 'tl-%s %d' (this tl reads tl-events 1, tl-nodes 1 and 2 and tl-coll 1)",
			s->name, s->kind, version);
		return -1;
	}
	if (!kind_wanted(kinds, s->kind)) {
		tl_warn("%s:1: a tl-%s stream, but this program reads %s", s->name,
			s->kind, kinds);
		return -1;
	}
	if (read_line(s) < 0 || s->line[0] == '#' || !s->line[0]) {
		tl_warn("%s:2: missing header line of column names", s->name);
		return -1;
	}
	s->header = xstrdup(s->line);
	s->ncols = 1;
	for (p = s->header; *p; p++)
		s->ncols += *p == '\t';
	s->cols = xcalloc((size_t)s->ncols, sizeof(*s->cols));
	s->field = xcalloc((size_t)s->ncols, sizeof(*s->field));
	s->flen = xcalloc((size_t)s->ncols, sizeof(*s->flen));
	s->empty_from = s->ncols;	/* no field is set yet */
	s->cols[0] = xstrdup(s->header);
	for (int i = 1; i < s->ncols; i++) {
		char *tab = strchr(s->cols[i - 1], '\t');
		*tab = '\0';
		s->cols[i] = tab + 1;
	}
	return 0;
}

/*
 * tl programs talk over pipes of hundreds of MB: a 64 KiB pipe makes both
 * ends pay a system call per few KiB.  Ask for 1 MiB (the default limit
 * for unprivileged processes); failure is harmless.
 */
static void widen_pipe(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

struct stream *stream_open(const char *path, const char *kinds)
{
	FILE *fp = stdin;

	if (path && strcmp(path, "-")) {
		fp = fopen(path, "r");
		if (!fp) {
			tl_warn_errno("%s", path);
			return NULL;
		}
	}
	return stream_open_fp(fp, fp == stdin ? "-" : path, kinds);
}

struct stream *stream_open_fp(FILE *fp, const char *name, const char *kinds)
{
	struct stream *s = xcalloc(1, sizeof(*s));

	s->fp = fp;
	s->name = xstrdup(name);
	s->uid_col = -2;
	choose_split();
	widen_pipe(fileno(s->fp));
	s->cap = READ_SIZE;
	s->buf = xmalloc(s->cap + SLACK);
	if (parse_header(s, kinds) < 0) {
		stream_close(s);
		return NULL;
	}
	return s;
}

void stream_close(struct stream *s)
{
	if (!s)
		return;
	if (s->fp && s->fp != stdin)
		fclose(s->fp);
	free(s->name);
	free(s->buf);
	free(s->header);
	if (s->cols)
		free(s->cols[0]);
	free(s->cols);
	free(s->field);
	free(s->flen);
	free(s->trace);
	free(s->where);
	free(s);
}

/* "#source SRC NAME": remember NAME (still TSV-escaped: it is for messages). */
static void note_source(struct stream *s)
{
	const char *p = s->line + sizeof("#source");

	if (!(p = strchr(p, '\t')))
		return;
	free(s->trace);
	s->trace = xstrdup(p + 1);
}

static size_t bits16(unsigned m)
{
	size_t c = 0;

	for (; m; m &= m - 1)	/* x86-64's baseline has no popcnt */
		c++;
	return c;
}

#if defined(__SSE2__)
/*
 * The tabs (counted) and backslashes (any, into *bs) of the whole 16-byte
 * chunks of p from *at on, which ends past the last: one compare and one
 * subtract a chunk, the counts summed every 255 chunks (a byte's limit).
 */
static size_t count_tabs_sse2(const char *p, size_t *at, size_t n, unsigned *bs)
{
	const __m128i tab = _mm_set1_epi8('\t'), bsl = _mm_set1_epi8('\\');
	const __m128i zero = _mm_setzero_si128();
	__m128i anybs = zero;
	size_t i = *at, total = 0;

	while (n - i >= 16) {
		__m128i acc = zero, sad;
		size_t chunks = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
		for (size_t k = 0; k < chunks; k++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(p + i));
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, tab));
			anybs = _mm_or_si128(anybs, _mm_cmpeq_epi8(v, bsl));
		}
		sad = _mm_sad_epu8(acc, zero);
		total += (size_t)_mm_cvtsi128_si32(sad) + (size_t)_mm_extract_epi16(sad, 4);
	}
	*bs |= (unsigned)_mm_movemask_epi8(anybs);
	*at = i;
	return total;
}
#endif

#if defined(STREAM_AVX2)
/*
 * row_tabs 64 bytes a step (see there), in two copies where all is a
 * constant: a "#dropped" row is 100 bytes
 * and a third of a lean node stream's lines; an uncut row of tl-tree's
 * pipe, 190.  Past the tabs noted, whole steps' tabs are only counted.
 */
static inline __attribute__((always_inline, target(STREAM_AVX2_TARGET))) size_t
tabs_avx2(struct stream *s, const char *p, size_t n, int all)
{
	const size_t limit = (size_t)s->peek_tabs;	/* size_t: no sign extension a tab */
	uint32_t *dtab = s->dtab;
	struct block_masks m;
	uint64_t bs_seen = 0;
	size_t total = 0, nt = 0;

	for (size_t at = 0; at < n; at += 64) {
		uint64_t live = n - at >= 64 ? UINT64_MAX : (UINT64_C(1) << (n - at)) - 1;
		uint64_t tabs;

		block_avx2(p + at, &m);	/* its odd mask unused: not made */
		tabs = m.tabs & live;
		bs_seen |= m.bsl & live;
		if (all) {
			total += (size_t)__builtin_popcountll(tabs);
			for (; tabs && nt < limit; tabs &= tabs - 1)
				dtab[nt++] = (uint32_t)(at + (unsigned)__builtin_ctzll(tabs));
			continue;
		}
		for (; tabs; tabs &= tabs - 1) {
			dtab[nt++] = (uint32_t)(at + (unsigned)__builtin_ctzll(tabs));
			if (nt == limit)
				goto noted;
		}
	}
noted:
	s->ndtab = (int)nt;
	s->dmany = all ? total > nt : nt == limit;
	s->dbsl = bs_seen != 0;
	return total;
}

/* an uncut row's: all its tabs counted */
__attribute__((target(STREAM_AVX2_TARGET)))
static size_t row_tabs_all_avx2(struct stream *s, const char *p, size_t n)
{
	return tabs_avx2(s, p, n, 1);
}

/* a "#dropped" row's: only the first noted */
__attribute__((target(STREAM_AVX2_TARGET)))
static void row_tabs_first_avx2(struct stream *s, const char *p, size_t n)
{
	tabs_avx2(s, p, n, 0);
}
#endif

/*
 * The tabs of the uncut row p of n bytes, and whether it holds a
 * backslash: 64 bytes at a time with AVX2 (tabs_avx2), else 16 with
 * SSE2 (the slack past the line is readable), else byte by byte.  The
 * offsets of the first s->peek_tabs are noted.  With all (a row left uncut by stream_defer_cut), every tab
 * is counted (the return value) and the backslash looked for in the whole
 * row; without (a "#dropped" row), the scan stops at the last tab noted,
 * and whether more follow is then not known (dmany).  Inlined into its two
 * callers, where all is a constant.
 */
static inline __attribute__((always_inline)) size_t
row_tabs(struct stream *s, const char *p, size_t n, int all)
{
	const int limit = s->peek_tabs;
	size_t at = 0, total = 0;
	int nt = 0;

	s->ndtab = s->dmany = s->dbsl = 0;
	if (n > UINT32_MAX) {	/* no offsets: split() and walks tell */
		s->dmany = s->dbsl = 1;
		for (; all && at < n; at++)
			total += p[at] == '\t';
		return total;
	}
#if defined(STREAM_AVX2)
	if (split_plain == split_plain_avx2) {
		if (all)
			return row_tabs_all_avx2(s, p, n);
		row_tabs_first_avx2(s, p, n);
		return 0;	/* not counted without all */
	}
#endif
#if defined(__SSE2__)
	if (split_plain != split_plain_memchr) {
		const __m128i tab = _mm_set1_epi8('\t'), bsl = _mm_set1_epi8('\\');
		unsigned bs_seen = 0, tabs = 0, live;
		__m128i v;

		for (; at < n; at += 16) {
			v = _mm_loadu_si128((const __m128i *)(p + at));
			live = n - at >= 16 ? 0xffffu : (1u << (n - at)) - 1;
			tabs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tab)) & live;
			bs_seen |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bsl)) & live;
			for (; tabs; tabs &= tabs - 1) {
				s->dtab[nt++] = (uint32_t)(at + (size_t)__builtin_ctz(tabs));
				if (nt == limit) {
					tabs &= tabs - 1;	/* those after it, in this chunk */
					at += 16;
					goto noted;
				}
			}
		}
noted:
		if (all) {
			total = (size_t)nt + bits16(tabs);	/* and those after, in the chunk */
			/* past the noted tabs: only counted */
			if (at < n)
				total += count_tabs_sse2(p, &at, n, &bs_seen);
			if (at < n) {
				live = (1u << (n - at)) - 1;
				v = _mm_loadu_si128((const __m128i *)(p + at));
				total += bits16((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tab)) & live);
				bs_seen |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bsl)) & live;
			}
		}
		s->ndtab = nt;
		s->dmany = all ? total > (size_t)nt : nt == limit;
		s->dbsl = bs_seen != 0;
		return total;
	}
#endif
	for (; at < n && (all || nt < limit); at++) {
		if (p[at] == '\\')
			s->dbsl = 1;
		if (p[at] != '\t')
			continue;
		total++;
		if (nt < limit)
			s->dtab[nt++] = (uint32_t)at;
	}
	s->ndtab = nt;
	s->dmany = all ? total > (size_t)nt : nt == limit;
	return total;
}

/*
 * "#dropped\tUID\tSRC...": a row of a lean node stream (tl-tree --lean)
 * given by its first columns only, the others empty, for the readers that
 * asked for them; any other reader stops there rather than lose the row.
 */
static int dropped_row(struct stream *s, size_t n)
{
	if (!s->allow_dropped) {
		tl_warn("%s:%ld: a \"#dropped\" row of a lean stream (tl-tree --lean, "
			"tl-cat --lean), which this program does not read: give it the "
			"whole stream", s->name, s->lineno);
		return STREAM_ERROR;
	}
	s->uncut = s->line + 9;
	s->uncut_len = n - 9;
	s->is_uncut = 1;
	s->uncut_short = 1;
	/* a reader that peeks (stream_defer_cut) says how far; one that
	 * cuts has all nine fields' tabs noted for the cut */
	s->peek_tabs = s->defer_cut ? s->defer_cut : STREAM_PEEK_MAX;
	row_tabs(s, s->uncut, s->uncut_len, 0);
	return STREAM_DROPPED;
}

static int wrong_count(struct stream *s)
{
	tl_warn("%s:%ld: wrong number of fields (the header has %d)", s->name,
		s->lineno, s->ncols);
	return STREAM_ERROR;
}

/* A row left uncut (stream_defer_cut), its count of fields checked. */
static int uncut_row(struct stream *s, size_t n)
{
	s->uncut = s->line;
	s->uncut_len = n;
	s->is_uncut = 1;
	s->uncut_short = 0;
	s->peek_tabs = s->defer_cut;
	if (row_tabs(s, s->line, n, 1) + 1 != (size_t)s->ncols) {
		s->is_uncut = 0;
		return wrong_count(s);
	}
	return STREAM_ROW;
}

/* A "#dropped" row's fields at the tabs found already. */
static int cut_dropped(struct stream *s)
{
	int rc = -2;

	if (!s->dbsl && !s->dmany && s->ndtab < s->ncols) {
		/* no escapes: cut at the tabs found already (in locals: the
		 * NULs stored are char stores, which may alias s's members) */
		char *line = s->line, *start = line, **field = s->field;
		size_t *flen = s->flen;
		const int nt = s->ndtab;

		field[0] = line;
		for (int k = 0; k < nt; k++) {
			char *t = line + s->dtab[k];
			*t = '\0';
			flen[k] = (size_t)(t - start);
			start = t + 1;
			field[k + 1] = start;
		}
		flen[nt] = (size_t)(line + s->uncut_len - start);
		rc = empty_rest(s, nt);
	} else if (!s->dbsl) {
		rc = split_plain(s, s->uncut_len, 1);
	}
	if (rc == -2)
		rc = split(s, 1);
	s->verbatim = 0;
	return rc;
}

int stream_cut(struct stream *s)
{
	int rc;

	if (!s->is_uncut)
		return 0;	/* cut already */
	s->line = s->uncut;
	if (s->uncut_short) {
		rc = cut_dropped(s);
	} else {
		rc = split_plain(s, s->uncut_len, 0);
		if (rc == -2) {
			s->verbatim = 0;
			rc = split(s, 0);
		}
	}
	s->is_uncut = 0;
	return rc < 0 ? wrong_count(s) : 0;
}

const char *stream_peek(const struct stream *s, int i, size_t *len, int *escaped)
{
	const char *p, *end, *tab;
	size_t beg;

	*escaped = 0;
	if (!s->is_uncut) {	/* cut already */
		*len = stream_field_len(s, i);
		return stream_field(s, i);
	}
	if (i < 0 || (i > s->ndtab && !s->dmany)) {	/* a field the row does not give */
		*len = 0;
		return "";
	}
	if (i < s->ndtab || (i == s->ndtab && !s->dmany)) {
		beg = i ? s->dtab[i - 1] + 1 : 0;
		*len = (i < s->ndtab ? s->dtab[i] : s->uncut_len) - beg;
		/* a backslash elsewhere in the row leaves this field as it is */
		*escaped = s->dbsl && memchr(s->uncut + beg, '\\', *len);
		return s->uncut + beg;
	}
	/* past the tabs noted: a walk from the start */
	p = s->uncut;
	end = s->uncut + s->uncut_len;
	for (; i > 0 && p; i--) {
		tab = memchr(p, '\t', (size_t)(end - p));
		p = tab ? tab + 1 : NULL;
	}
	*escaped = 1;
	if (!p) {
		*len = 0;
		return "";
	}
	tab = memchr(p, '\t', (size_t)(end - p));
	*len = (size_t)((tab ? tab : end) - p);
	return p;
}

int stream_peek_first(const struct stream *s, int n, const char **f, size_t *len)
{
	const char *p = s->uncut;

	int k = n < s->ndtab ? n : s->ndtab;

	/* field i ends at tab i, the last one of a row without more at its end */
	if (!s->is_uncut || s->dbsl || n > s->ndtab + !s->dmany)
		return 0;
	for (int i = 0; i < k; i++) {
		const char *tab = s->uncut + s->dtab[i];
		f[i] = p;
		len[i] = (size_t)(tab - p);
		p = tab + 1;
	}
	if (k < n) {
		f[k] = p;
		len[k] = (size_t)(s->uncut + s->uncut_len - p);
	}
	return 1;
}

int stream_span_plain(const struct stream *s, const char *p, size_t n)
{
	(void)s;	/* its buffer's SLACK makes the 16-byte loads past n safe */
#ifdef __SSE2__
	const __m128i cr = _mm_set1_epi8('\r'), nul = _mm_setzero_si128();

	for (size_t i = 0; i < n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(p + i));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(x, cr), _mm_cmpeq_epi8(x, nul)));

		if (n - i < 16)
			m &= (1u << (n - i)) - 1;
		if (m)
			return 0;
	}
	return 1;
#else
	return !memchr(p, '\r', n) && !memchr(p, '\0', n);
#endif
}

int stream_peek_is(const struct stream *s, int i, const char *want)
{
	size_t n = strlen(want), len;
	int escaped;
	const char *p = stream_peek(s, i, &len, &escaped);

	/* a value with a byte TSV escapes is written escaped: compare it
	 * unescaped; as written equal to a text without such bytes, a value
	 * is that text, and written otherwise it holds such a byte or differs */
	if (escaped && strpbrk(want, "\\\t\n\r"))
		return -1;
	return len == n && !memcmp(p, want, n);
}

void stream_allow_dropped(struct stream *s)
{
	s->allow_dropped = 1;
}

void stream_defer_cut(struct stream *s, int peek_cols)
{
	/* field i ends at tab i: peeks below peek_cols need peek_cols tabs */
	s->defer_cut = peek_cols < 1 ? 0 : peek_cols < STREAM_PEEK_MAX ? peek_cols : STREAM_PEEK_MAX;
}

int stream_next(struct stream *s)
{
	ssize_t n = read_line(s);
	int rc;

	s->is_uncut = 0;	/* the last row's, cut or passed over */
	if (n < 0) {
		if (s->eof < 0) {
			tl_warn_errno("%s: read error", s->name);
			return STREAM_ERROR;
		}
		return STREAM_EOF;
	}
	if (s->line[0] == '#') {
		/* a lean node stream is a third "#dropped" rows: compares inline */
		if (n >= 9 && !memcmp(s->line, "#dropped\t", 9))
			return dropped_row(s, (size_t)n);
		if (n >= 8 && !memcmp(s->line, "#source\t", 8))
			note_source(s);
		return STREAM_DIRECTIVE;
	}
	if (s->defer_cut)
		return uncut_row(s, (size_t)n);
	rc = split_plain(s, (size_t)n, 0);
	if (rc == -2) {
		s->verbatim = 0;
		rc = split(s, 0);
	}
	return rc < 0 ? wrong_count(s) : STREAM_ROW;
}

const char *stream_row_text(struct stream *s, size_t *len)
{
	int last = s->ncols - 1;

	if (!s->verbatim)
		return NULL;
	for (int i = 1; i <= last; i++)
		s->field[i][-1] = '\t';
	*len = (size_t)(s->field[last] + s->flen[last] - s->field[0]);
	return s->field[0];
}

const char *stream_kind(const struct stream *s) { return s->kind; }
int stream_ncols(const struct stream *s) { return s->ncols; }
const char *stream_colname(const struct stream *s, int i) { return s->cols[i]; }
const char *stream_line(const struct stream *s) { return s->line + 1; }
const char *stream_name(const struct stream *s) { return s->name; }
long stream_lineno(const struct stream *s) { return s->lineno; }
const char *stream_header(const struct stream *s) { return s->header; }
const char *stream_trace(const struct stream *s) { return s->trace ? s->trace : s->name; }

const char *stream_where(struct stream *s)
{
	const char *uid;
	size_t n;

	if (s->uid_col == -2)
		s->uid_col = stream_col(s, "uid");
	uid = stream_field(s, s->uid_col);
	n = strlen(stream_trace(s)) + strlen(uid) + 48;
	free(s->where);
	s->where = xmalloc(n);
	if (s->trace && *uid)
		snprintf(s->where, n, "%s: event %s", s->trace, uid);
	else
		snprintf(s->where, n, "%s:%ld", s->name, s->lineno);
	return s->where;
}

int stream_col(const struct stream *s, const char *name)
{
	for (int i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i], name))
			return i;
	return -1;
}

const char *stream_field(const struct stream *s, int i)
{
	return i < 0 ? "" : s->field[i];
}

size_t stream_field_len(const struct stream *s, int i)
{
	return i < 0 ? 0 : s->flen[i];
}

/* TSV-unescape the NUL-terminated p in place; returns its new length. */
static size_t unescape_field(char *p)
{
	char *start = p, *w = p;

	for (; *p; p++) {
		char c = *p;
		if (c == '\\') {
			switch (p[1]) {
			case '\\': c = '\\'; p++; break;
			case 't': c = '\t'; p++; break;
			case 'n': c = '\n'; p++; break;
			case 'r': c = '\r'; p++; break;
			case '0': c = '\0'; p++; break;
			default: break;
			}
		}
		*w++ = c;
	}
	*w = '\0';
	return (size_t)(w - start);
}

int stream_end_elements(const struct stream *s, uint32_t *elements)
{
	const char *p;
	uint64_t v = 0;

	if (strncmp(s->line, "#end\t", 5) || !(p = strchr(s->line + 5, '\t')))
		return 0;
	if (*++p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (uint64_t)(*p - '0')) > (uint64_t)1 << 31)
			return -1;
	if (*p && *p != '\t')
		return -1;
	*elements = (uint32_t)v;
	return 1;
}

int stream_top(struct stream *s, const char **key, const char **json, size_t *len)
{
	char *src, *k, *v;

	if (strncmp(s->line, "#top\t", 5))
		return 0;
	src = s->line + 5;
	if (!(k = strchr(src, '\t')) || !(v = strchr(k + 1, '\t')))
		return 0;
	*k++ = '\0';
	*v++ = '\0';
	unescape_field(k);
	*len = unescape_field(v);
	*key = k;
	*json = v;
	return 1;
}
