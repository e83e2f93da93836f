#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>

#include "json_scan.h"
#include "json_block.h"
#include "json.h"
#include "xalloc.h"
#include "banned.h"

/* Inlined into each path's block loop (scan_blocks) even where it is long. */
#define ALWAYS_INLINE inline __attribute__((always_inline))
/*
 * Bytes ahead of the block being scanned to ask the cache for: a mapped
 * file (cat_input_view) comes from memory, and the CPU's own prefetcher
 * stops at each 4 KB page; without it, 15 % of the block loop's samples
 * sat on a block's first load.
 */
#define PREFETCH_AHEAD 1024

/* Where the scanner is in the document's top-level grammar. */
enum {
	S_START,	/* before the first byte: '{' or '[' */
	S_KEY_FIRST,	/* after '{': a key or '}' */
	S_KEY,		/* after ',' in the object: a key */
	S_COLON,	/* after a key */
	S_VALUE,	/* after ':' */
	S_OBJ_NEXT,	/* after a value: ',' or '}' */
	S_ARR_FIRST,	/* after traceEvents' '[': an event or ']' */
	S_ARR_ELEM,	/* after ',' in traceEvents: an event */
	S_ARR_NEXT,	/* after an event: ',' or ']' */
	S_TRAIL,	/* after the document: only white space */
	S_DONE,
	S_ERROR
};

/* What the element being scanned is, and what kind of text it is. */
enum { E_NONE, E_KEY, E_TOP, E_EVENT };
enum { K_CONTAINER, K_PRIMITIVE };

/* Bytes that stop the fast loops: inside a string, and outside. */
static unsigned char str_stop[256], prim_stop[256], prim_byte[256];
/* Outside strings: bytes to copy, blanks to drop, quotes and brackets. */
enum { B_COPY, B_BLANK, B_STRUCT };
static unsigned char byte_class[256];

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int is_prim(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

static void init_tables(void)
{
	if (str_stop['"'])
		return;
	for (int c = 0; c < 0x20; c++)
		str_stop[c] = 1;
	str_stop['"'] = str_stop['\\'] = 1;
	byte_class['"'] = byte_class['{'] = byte_class['}'] = B_STRUCT;
	byte_class['['] = byte_class[']'] = B_STRUCT;
	byte_class[' '] = byte_class['\t'] = byte_class['\n'] = B_BLANK;
	byte_class['\r'] = B_BLANK;
	for (int c = 0; c < 256; c++)
		prim_byte[c] = (unsigned char)is_prim((char)c);
	prim_stop[','] = prim_stop[']'] = prim_stop['}'] = 1;
	prim_stop[' '] = prim_stop['\t'] = prim_stop['\n'] = prim_stop['\r'] = 1;
}

void json_scan_init(struct json_scan *s)
{
	init_tables();
	memset(s, 0, sizeof(*s));
	s->state = S_START;
}

void json_scan_release(struct json_scan *s)
{
	free(s->stack);
	free(s->key);
	free(s->out);
	memset(s, 0, sizeof(*s));
}

void json_scan_set_buf(struct json_scan *s, const char *buf, size_t len, int partial)
{
	s->base += s->mark;
	s->pos -= s->mark;
	s->mark = 0;
	s->buf = buf;
	s->len = len;
	s->partial = partial;
}

size_t json_scan_consumed(const struct json_scan *s)
{
	return s->mark;
}

uint64_t json_scan_offset(const struct json_scan *s)
{
	return s->base + s->pos;
}

static int error(struct json_scan *s, size_t at, const char *msg)
{
	s->err_msg = msg;
	s->err_off = s->base + at;
	s->state = S_ERROR;
	return JSON_SCAN_ERROR;
}

/*
 * Skip white space; 1 if a byte is there to look at, else 0.  16 bytes at
 * a time where there are 16: the indentation between two events of a
 * pretty-printed trace took a loop of 50 instructions.
 */
static int skip_ws(struct json_scan *s)
{
#ifdef __SSE2__
	const unsigned char *b = (const unsigned char *)s->buf;

	while (s->pos + 16 <= s->len) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + s->pos));
		unsigned ws = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')))));
		if (ws != 0xffff) {
			s->pos += (size_t)__builtin_ctz(~ws);
			s->mark = s->pos;
			return 1;
		}
		s->pos += 16;
	}
#endif
	while (s->pos < s->len && is_ws(s->buf[s->pos]))
		s->pos++;
	s->mark = s->pos;
	return s->pos < s->len;
}

static int truncated(struct json_scan *s)
{
	return error(s, s->len, s->state == S_START ? "empty input"
		     : "truncated JSON: unexpected end of input");
}

static void bad_string(struct json_scan *s, size_t at)
{
	if (!s->bad_msg) {
		s->bad_msg = "control character in string";
		s->bad_off = s->base + at;
	}
}

/* Start scanning an element at pos. */
static void elem_begin(struct json_scan *s)
{
	char c = s->buf[s->pos];

	s->mark = s->pos;
	s->bad_msg = NULL;
	s->depth = 0;
	s->in_str = 0;
	s->olen = 0;
	s->space = 0;
	s->escapes = 0;
	if (c == '{' || c == '[' || c == '"')
		s->elem_kind = K_CONTAINER;	/* a string is one too, of depth 0 */
	else
		s->elem_kind = K_PRIMITIVE;
}

/* Room in the compact copy for everything left in the buffer. */
static void reserve(struct json_scan *s)
{
	/* the block copy's stores may run JSON_BLOCK past; then the NUL and
	 * the readers' slack (json.h) */
	size_t need = st_add(st_add(s->olen, s->len - s->pos), JSON_BLOCK + 1 + JSON_TEXT_SLACK);

	if (need > s->out_alloc)
		xgrow((void **)&s->out, &s->out_alloc, need, 1);
}

/*
 * Inside a string at p: copy it to o[m] up to and including its closing
 * quote (1) or to the end of the buffer (0; an escape cut in two is left
 * for later).  Strings are most of a trace's bytes: 16 at a time with SSE2,
 * stopping at a quote, a backslash or a control byte.
 */
static int copy_string(struct json_scan *s, size_t *pp, size_t *mp, size_t n)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t p = *pp, m = *mp;
	char *o = s->out;
	int r = 0;

	for (;;) {
#ifdef __SSE2__
		while (p + 16 <= n) {
			__m128i v = _mm_loadu_si128((const __m128i *)(b + p));
			__m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)),
						     _mm_set1_epi8(0x1f));
			int hit = _mm_movemask_epi8(_mm_or_si128(ctl, _mm_or_si128(
				_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
				_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
			_mm_storeu_si128((__m128i *)(o + m), v);
			if (hit) {
				int z = __builtin_ctz((unsigned)hit);
				p += (size_t)z;
				m += (size_t)z;
				break;
			}
			p += 16;
			m += 16;
		}
#endif
		while (p < n && !str_stop[b[p]])
			o[m++] = (char)b[p++];
		if (p >= n)
			break;
		if (b[p] == '"') {
			o[m++] = '"';
			p++;
			s->in_str = 0;
			r = 1;
			break;
		}
		if (b[p] == '\\') {
			if (p + 1 >= s->len)
				break;
			o[m++] = '\\';
			o[m++] = (char)b[p + 1];
			s->escapes = 1;
			p += 2;
			continue;
		}
		bad_string(s, p);
		o[m++] = (char)b[p++];
	}
	*pp = p;
	*mp = m;
	return r;
}

/* Skip a run of blanks from p (16 at a time with SSE2). */
static size_t skip_blanks(const unsigned char *b, size_t p, size_t n)
{
#ifdef __SSE2__
	while (p + 16 <= n) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + p));
		unsigned sp = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
		if (sp != 0xffff)
			return p + (size_t)__builtin_ctz(~sp);
		p += 16;
	}
#endif
	while (p < n && b[p] == ' ')
		p++;
	return p;
}

/*
 * Outside strings: copy bytes up to the next quote or bracket, dropping
 * white space (one blank kept between two primitives).  Returns the new p.
 */
static size_t copy_plain(struct json_scan *s, size_t p, size_t *mp, size_t n)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t m = *mp;
	char *o = s->out;
	int space = s->space;

	while (p < n) {
		unsigned char c = b[p];
		if (byte_class[c] == B_BLANK) {
			p = skip_blanks(b, p + 1, n);
			space |= m && prim_byte[(unsigned char)o[m - 1]];
			continue;
		}
		if (byte_class[c] == B_STRUCT)
			break;
		if (space && prim_byte[c])
			o[m++] = ' ';
		space = 0;
		o[m++] = (char)c;
		p++;
	}
	s->space = space;
	*mp = m;
	return p;
}

/* An opening bracket at buf[at]. */
static ALWAYS_INLINE void push(struct json_scan *s, char c, size_t at)
{
	xgrow((void **)&s->stack, &s->stack_alloc, s->depth + 1, 1);
	s->stack[s->depth++] = c;
	if (s->depth > JSON_MAX_DEPTH && !s->bad_msg) {
		s->bad_msg = "nested deeper than 1000 levels";
		s->bad_off = s->base + at;
	}
}

/* A closing bracket at buf[at]: 1 the element ended, 0 not, -1 error. */
static int pop(struct json_scan *s, char c, size_t at)
{
	if (!s->depth || s->stack[s->depth - 1] != (c == '}' ? '{' : '[')) {
		s->pos = at + 1;
		return error(s, at, c == '}' ? "unmatched '}'" : "unmatched ']'");
	}
	return --s->depth == 0;
}

/*
 * Scan a container (or string) element from *pp up to lim, copying it
 * without the white space outside strings to out[*mp]: 1 complete, 0 lim
 * reached (or an escape cut by the end of the buffer), -1 error.  One blank
 * is kept where white space separates two primitives ("[1 2]"), so that the
 * copy is bad JSON exactly when the original is.  An escape that begins
 * just before lim is taken whole, so *pp may end one past lim.
 */
static int scan_bytes(struct json_scan *s, size_t *pp, size_t *mp, size_t lim)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t p = *pp, m = *mp;
	char *o = s->out;
	int r = 0;

	for (;;) {
		unsigned char c;

		if (s->in_str && !copy_string(s, &p, &m, lim))
			break;
		if (s->in_str == 0 && s->depth == 0 && m) {
			r = 1;	/* a string element ended */
			break;
		}
		p = copy_plain(s, p, &m, lim);
		if (p >= lim)
			break;
		s->space = 0;
		c = b[p];
		o[m++] = (char)c;
		p++;
		if (c == '"') {
			s->in_str = 1;
		} else if (c == '{' || c == '[') {
			push(s, (char)c, p - 1);
		} else {
			r = pop(s, (char)c, p - 1);
			if (r != 0)
				break;
		}
	}
	*pp = p;
	*mp = m;
	return r;
}

/*
 * 1 where the compact copy so far (m bytes) ends with a primitive byte
 * outside a string, else 0: a blank after it may have to be kept.  By
 * arithmetic, no branch (scan_block asks it of every block); with m 0 it
 * reads out[0], which reserve() made room for.
 */
static ALWAYS_INLINE uint64_t copy_ends_prim(const struct json_scan *s, size_t m)
{
	size_t back = m != 0;

	return back & (uint64_t)!s->in_str & prim_byte[(unsigned char)s->out[m - back]];
}

/*
 * Whether a blank would have to be kept in the block: a run of white space
 * outside strings between two primitive bytes (or other bytes that are not
 * punctuation; a superset, handed to scan_bytes, which decides).  cin (0
 * or 1): the block begins inside such a run, or with one right after a
 * primitive byte.
 */
static int blank_kept(uint64_t ws, uint64_t prim, uint64_t cin)
{
	uint64_t start = (prim & (ws >> 1)) << 1;
	uint64_t end = (ws + start + cin) & ~ws;

	return (end & prim) != 0;
}

/*
 * The block functions of a path, inlined into that path's own block loop
 * (scan_blocks_avx512, _avx2); any other path goes through json_block's
 * pointers.  path is a constant in each loop, so the tests fold away.
 */
static ALWAYS_INLINE void block_classify(int path, const unsigned char *b, struct json_block *k)
{
#ifdef JSON_BLOCK_HAVE_AVX
	if (path == JSON_BLOCK_AVX512) {
		json_block_classify_avx512(b, k);
		return;
	}
	if (path == JSON_BLOCK_AVX2) {
		json_block_classify_avx2(b, k);
		return;
	}
#endif
	json_block_classify(b, k);
}

static ALWAYS_INLINE size_t block_compact(int path, char *o, const unsigned char *b, uint64_t keep)
{
#ifdef JSON_BLOCK_HAVE_AVX
	if (path == JSON_BLOCK_AVX512)
		return json_block_compact_avx512(o, b, keep);
	if (path == JSON_BLOCK_AVX2)
		return json_block_compact_avx2(o, b, keep);
#endif
	return json_block_compact(o, b, keep);
}

static ALWAYS_INLINE uint64_t block_prefix_xor(int path, uint64_t x)
{
#ifdef JSON_BLOCK_HAVE_AVX
	if (path == JSON_BLOCK_AVX512 || path == JSON_BLOCK_AVX2)
		return json_block_prefix_xor_clmul(x);
#endif
	return json_block_prefix_xor(x);
}

/* The kept bytes of a block to out[*mp]. */
static ALWAYS_INLINE void copy_block(struct json_scan *s, int path, const unsigned char *b,
				     uint64_t keep, size_t *mp)
{
	if (keep == ~(uint64_t)0) {	/* no blank to drop: inside a long string */
		tl_memcpy(s->out + *mp, b, JSON_BLOCK);
		*mp += JSON_BLOCK;
		return;
	}
	*mp += block_compact(path, s->out + *mp, b, keep);
}

/*
 * One block of 64 bytes at *pp, by its masks: 1 the element ended, 0 go
 * on, -1 error, 2 the block needs scan_bytes (a backslash, a control byte,
 * a blank that may have to be kept).
 */
static ALWAYS_INLINE int scan_block(struct json_scan *s, int path, size_t *pp, size_t *mp)
{
	const unsigned char *b = (const unsigned char *)s->buf + *pp;
	struct json_block k;
	uint64_t in, ws, brackets, keep = ~(uint64_t)0, cin;
	size_t p = *pp, back = *mp != 0;
	int r = 0;

	__builtin_prefetch(b + PREFETCH_AHEAD);
	block_classify(path, b, &k);
	in = block_prefix_xor(path, k.quote) ^ (s->in_str ? ~(uint64_t)0 : 0);
	ws = k.ws & ~in;
	if (k.special & ~ws)
		return 2;
	/*
	 * The copy so far ends with a primitive byte, and the block begins
	 * with a blank or after one: by arithmetic, where a branch went
	 * either way on a third of the blocks (with no copy yet, back is 0
	 * and the byte read is b[0], which is there; b - back, not
	 * b[-back]: back is unsigned, and minus it an offset that wraps)
	 */
	cin = copy_ends_prim(s, *mp) & ((ws & 1) | (byte_class[*(b - back)] == B_BLANK));
	if (blank_kept(ws, ~k.syntax & ~in, cin))
		return 2;
	brackets = k.bracket & ~in;
	while (brackets) {
		unsigned i = (unsigned)__builtin_ctzll(brackets);

		brackets &= brackets - 1;
		if (b[i] & 2) {	/* '{' and '[' have it, '}' and ']' not */
			push(s, (char)b[i], p + i);
			continue;
		}
		r = pop(s, (char)b[i], p + i);
		if (r < 0)
			return r;
		if (r) {
			keep = i == 63 ? keep : ((uint64_t)1 << (i + 1)) - 1;
			*pp = p + i + 1;
			copy_block(s, path, b, keep & ~ws, mp);
			s->in_str = 0;
			return 1;
		}
	}
	copy_block(s, path, b, ~ws, mp);
	*pp = p + JSON_BLOCK;
	s->in_str = (int)(in >> 63);
	return 0;
}

/*
 * Where scan_block hands over to scan_bytes: the state scan_bytes keeps
 * that blocks do not, a blank seen after a primitive byte.
 */
static void set_space(struct json_scan *s, size_t p, size_t m)
{
	s->space = copy_ends_prim(s, m) && is_ws(s->buf[p - 1]);
}

/*
 * The element's 64-byte blocks from *pp while a whole one is left before
 * n: 0 all done, else scan_block's 1 or -1 (or scan_bytes' for a block
 * that needed it).
 */
static ALWAYS_INLINE int scan_blocks(struct json_scan *s, int path, size_t *pp, size_t *mp,
				     size_t n)
{
	/* in registers: the out-of-line call gets copies */
	size_t p = *pp, m = *mp, bp, bm;
	int r = 0;

	while (p + JSON_BLOCK <= n) {
		r = scan_block(s, path, &p, &m);
		if (r == 2) {
			set_space(s, p, m);
			bp = p;
			bm = m;
			r = scan_bytes(s, &bp, &bm, p + JSON_BLOCK);
			p = bp;
			m = bm;
		}
		if (r != 0)
			break;
	}
	*pp = p;
	*mp = m;
	return r;
}

#ifdef JSON_BLOCK_HAVE_AVX
__attribute__((target(JSON_BLOCK_AVX512_TARGET)))
static int scan_blocks_avx512(struct json_scan *s, size_t *pp, size_t *mp, size_t n)
{
	return scan_blocks(s, JSON_BLOCK_AVX512, pp, mp, n);
}

__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static int scan_blocks_avx2(struct json_scan *s, size_t *pp, size_t *mp, size_t n)
{
	return scan_blocks(s, JSON_BLOCK_AVX2, pp, mp, n);
}
#endif

/* The other paths' blocks, through json_block's pointers. */
static int scan_blocks_other(struct json_scan *s, size_t *pp, size_t *mp, size_t n)
{
	return scan_blocks(s, -1, pp, mp, n);
}

/*
 * Scan a container (or string) element: 1 complete, 0 need more, -1
 * error.  Objects and arrays go by blocks of 64 bytes where the path has
 * masks, byte by byte where a block needs it and at the buffer's end.
 */
static int scan_container(struct json_scan *s)
{
	size_t p = s->pos, n = s->len, m = s->olen;
	int path = json_block_path();
	int blocks = path != JSON_BLOCK_SCALAR && s->elem_kind == K_CONTAINER &&
		     s->buf[s->mark] != '"';
	int r = 0;

	reserve(s);
	if (blocks) {
#ifdef JSON_BLOCK_HAVE_AVX
		if (path == JSON_BLOCK_AVX512)
			r = scan_blocks_avx512(s, &p, &m, n);
		else if (path == JSON_BLOCK_AVX2)
			r = scan_blocks_avx2(s, &p, &m, n);
		else
#endif
			r = scan_blocks_other(s, &p, &m, n);
	}
	if (r == 0) {
		if (blocks)
			set_space(s, p, m);
		r = scan_bytes(s, &p, &m, n);
	}
	if (r >= 0) {
		s->pos = p;
		s->olen = m;
	}
	return r;
}

static int scan_primitive(struct json_scan *s)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t p = s->pos;

	reserve(s);
	while (p < s->len && !prim_stop[b[p]])
		s->out[s->olen++] = (char)b[p++];
	s->pos = p;
	return p < s->len || !s->partial;
}

/* Continue the element: 1 complete, 0 need more, -1 error. */
static int scan_elem(struct json_scan *s)
{
	int r;

	if (s->elem_kind == K_PRIMITIVE)
		r = scan_primitive(s);
	else
		r = scan_container(s);
	if (r == 0 && !s->partial)
		return truncated(s);
	if (r == 1)	/* the NUL, and the slack as zeros: defined bytes */
		memset(s->out + s->olen, 0, 1 + JSON_TEXT_SLACK);
	return r;
}

static void item_fill(struct json_scan *s, struct json_scan_item *it)
{
	it->text = s->buf + s->mark;
	it->len = s->pos - s->mark;
	it->ctext = s->out;
	it->clen = s->olen;
	it->escapes = s->escapes;
	it->off = s->base + s->mark;
	it->key = s->key;
	it->keylen = s->keylen;
	it->bad_msg = s->bad_msg;
	it->bad_off = s->bad_off;
	s->mark = s->pos;
}

/* The key string just scanned: decode it into s->key. */
static int take_key(struct json_scan *s)
{
	size_t n = s->olen - 2;
	long bad;

	if (s->bad_msg) {
		s->err_off = s->bad_off;
		s->err_msg = s->bad_msg;
		s->state = S_ERROR;
		return JSON_SCAN_ERROR;
	}
	bad = json_string_check(s->out + 1, n);
	if (bad >= 0) {
		/* the compact copy of a key is its text: same offsets */
		s->err_off = s->base + s->mark + 1 + (size_t)bad;
		s->err_msg = s->out[bad + 2] == 'u' ? "invalid \\u escape"
			: "invalid escape";
		s->state = S_ERROR;
		return JSON_SCAN_ERROR;
	}
	xgrow((void **)&s->key, &s->key_alloc, n + 1, 1);
	s->keylen = json_decode_string(s->out + 1, n, s->key);
	s->key[s->keylen] = '\0';
	s->is_events = s->keylen == 11 && !memcmp(s->key, "traceEvents", 11);
	s->mark = s->pos;
	return 0;
}

/* An element finished: hand it out or take the key. */
static int elem_end(struct json_scan *s, int what, struct json_scan_item *it)
{
	switch (what) {
	case E_KEY:
		s->state = S_COLON;
		return take_key(s);
	case E_TOP:
		s->state = S_OBJ_NEXT;
		item_fill(s, it);
		return JSON_SCAN_TOP;
	default:
		s->state = S_ARR_NEXT;
		item_fill(s, it);
		return JSON_SCAN_EVENT;
	}
}

/* Which element a state is scanning when it is inside one. */
static int elem_of(int state)
{
	switch (state) {
	case S_KEY_FIRST: case S_KEY: return E_KEY;
	case S_VALUE: return E_TOP;
	case S_ARR_FIRST: case S_ARR_ELEM: return E_EVENT;
	default: return E_NONE;
	}
}

/* One step of the top-level grammar at the byte c = buf[pos]. */
static int step(struct json_scan *s, char c)
{
	switch (s->state) {
	case S_START:
		if (c == '\xef')	/* as Python, refuse it, but say what it is */
			return error(s, s->pos, "not a JSON object or array (a UTF-8 byte order mark?)");
		if (c != '{' && c != '[')
			return error(s, s->pos, "not a JSON object or array");
		s->state = c == '{' ? S_KEY_FIRST : S_ARR_FIRST;
		s->seen_events = c == '[';
		s->object = c == '{';
		s->pos++;
		return 0;
	case S_KEY_FIRST:
	case S_KEY:
		if (c == '}' && s->state == S_KEY_FIRST)
			return error(s, s->pos, "no traceEvents array in the top-level object");
		if (c != '"')
			return error(s, s->pos, "expected a key string");
		return 1;
	case S_COLON:
		if (c != ':')
			return error(s, s->pos, "expected ':' after key");
		s->state = S_VALUE;
		s->pos++;
		return 0;
	case S_VALUE:
		if (!s->is_events)
			return 1;
		if (s->seen_events)
			return error(s, s->pos, "traceEvents appears twice");
		if (c != '[')
			return error(s, s->pos, "traceEvents is not an array");
		s->seen_events = 1;
		s->state = S_ARR_FIRST;
		s->pos++;
		return 0;
	case S_OBJ_NEXT:
		s->pos++;
		if (c == ',') {
			s->state = S_KEY;
			return 0;
		}
		if (c != '}')
			return error(s, s->pos - 1, "expected ',' or '}' in the top-level object");
		if (!s->seen_events)
			return error(s, s->pos - 1, "no traceEvents array in the top-level object");
		s->state = S_TRAIL;
		return 0;
	case S_ARR_FIRST:
		if (c == ']')
			break;
		return 1;
	case S_ARR_ELEM:
		if (c == ']')
			return error(s, s->pos, "expected an event after ','");
		return 1;
	case S_ARR_NEXT:
		if (c == ',') {
			s->state = S_ARR_ELEM;
			s->pos++;
			return 0;
		}
		if (c != ']')
			return error(s, s->pos, "expected ',' or ']' after an event");
		break;
	default:	/* S_TRAIL */
		return error(s, s->pos, "trailing data after the JSON document");
	}
	/* the end of traceEvents */
	s->pos++;
	s->state = s->object ? S_OBJ_NEXT : S_TRAIL;
	return 0;
}

int json_scan_next(struct json_scan *s, struct json_scan_item *it)
{
	for (;;) {
		int r;

		if (s->state == S_ERROR)
			return JSON_SCAN_ERROR;
		if (s->state == S_DONE)
			return JSON_SCAN_DONE;
		if (s->in_elem) {
			r = scan_elem(s);
			if (r <= 0)
				return r;
			s->in_elem = 0;
			r = elem_end(s, elem_of(s->state), it);
			if (r)
				return r;
			continue;
		}
		if (!skip_ws(s)) {
			if (s->partial)
				return JSON_SCAN_MORE;
			if (s->state != S_TRAIL)
				return truncated(s);
			s->state = S_DONE;
			return JSON_SCAN_DONE;
		}
		r = step(s, s->buf[s->pos]);
		if (r < 0)
			return r;
		if (r == 1) {
			elem_begin(s);
			s->in_elem = 1;
		}
	}
}
