#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "outbuf.h"
#include "xalloc.h"
#include "banned.h"

#define TOK_START 256

void json_init(struct json *j)
{
	const char *e = getenv("TL_JSON");

	memset(j, 0, sizeof(*j));
	j->fast = !(e && !strcmp(e, "jsmn"));
}

void json_release(struct json *j)
{
	free(j->buf);
	free(j->tok);
	free(j->open);
	json_init(j);
}

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int fail(struct json *j, size_t off, const char *msg)
{
	j->err_off = off;
	j->err_msg = msg;
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

#ifdef __SSE2__
/* Bit i set where byte i of v is a digit: one that '0' takes below 10, unsigned. */
static unsigned digit_bits(__m128i v)
{
	__m128i z = _mm_sub_epi8(v, _mm_set1_epi8('0'));

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(z, _mm_set1_epi8(9)), z));
}
#endif

/*
 * The end of the run of digits from s[i].  Timestamps carry 13 digits
 * before the point: 16 bytes at a time with SSE2, not a branch per digit.
 */
static size_t digits_end(const char *s, size_t n, size_t i)
{
#ifdef __SSE2__
	while (i + 16 <= n) {
		unsigned digit = digit_bits(_mm_loadu_si128((const __m128i *)(s + i)));
		if (digit != 0xffff)
			return i + (size_t)__builtin_ctz(~digit);
		i += 16;
	}
#endif
	while (i < n && is_digit(s[i]))
		i++;
	return i;
}

/*
 * The end of the longest JSON number at the start of s[0..n), or 0 when
 * none starts there: json_number_ok's grammar, and the fast tokeniser's
 * way of finding a number's end in the same pass.
 */
static size_t number_end(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i >= n)
		return 0;
	if (s[i] == '0')
		i++;
	else if (s[i] >= '1' && s[i] <= '9')
		i = digits_end(s, n, i + 1);
	else
		return 0;
	if (i < n && s[i] == '.') {
		if (++i >= n || !is_digit(s[i]))
			return 0;
		i = digits_end(s, n, i + 1);
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || !is_digit(s[i]))
			return 0;
		i = digits_end(s, n, i + 1);
	}
	return i;
}

int json_number_ok(const char *s, size_t n)
{
	size_t e = number_end(s, n);

	return e != 0 && e == n;
}

int json_literal_ok(const char *s, size_t n)
{
	if (n == 4 && (!memcmp(s, "true", 4) || !memcmp(s, "null", 4)))
		return 1;
	if (n == 5 && !memcmp(s, "false", 5))
		return 1;
	return json_number_ok(s, n);
}

/*
 * The bytes between two tokens must be white space around at most one
 * punctuation character sep (0: none).
 */
static int check_gap(struct json *j, const char *s, size_t from, size_t to, char sep)
{
	size_t i = from;

	while (i < to && is_ws(s[i]))
		i++;
	if (sep) {
		if (i >= to || s[i] != sep)
			return fail(j, i, sep == ':' ? "expected ':' after key"
				    : "expected ',' between values");
		i++;
		while (i < to && is_ws(s[i]))
			i++;
	}
	if (i < to)
		return fail(j, i, "unexpected character");
	return 0;
}

static int check_string(struct json *j, const char *s, const struct json_tok *t,
			int controls)
{
	long bad;

	if (controls)
		for (int i = t->start; i < t->end; i++)
			if ((unsigned char)s[i] < 0x20)
				return fail(j, (size_t)i, "control character in string");
	if (!j->escapes)
		return 0;
	bad = json_string_check(s + t->start, (size_t)(t->end - t->start));
	if (bad >= 0)
		return fail(j, (size_t)t->start + (size_t)bad,
			    s[t->start + bad + 1] == 'u' ? "invalid \\u escape"
			    : "invalid escape");
	return 0;
}

/* Check the gap before a token: the common compact cases inline. */
static int gap_ok(struct json *j, const char *s, size_t from, size_t to, char sep)
{
	if (to == from + (sep != 0) && (!sep || s[from] == sep))
		return 0;
	return check_gap(j, s, from, to, sep);
}

/*
 * Close the containers that end at or before off, checking the space
 * before each closing bracket.  pos is the end of the last item.
 */
static int close_until(struct json *j, const char *s, size_t *depth,
		       size_t *pos, size_t off)
{
	while (*depth) {
		struct json_open *o = &j->open[*depth - 1];
		size_t end = (size_t)j->tok[o->tok].end;
		if (end > off)
			break;
		if (o->n % 2 && j->tok[o->tok].type == JSON_OBJECT)
			return fail(j, end - 1, "expected ':' after key");
		if (gap_ok(j, s, *pos, end - 1, 0) < 0)
			return -1;
		*pos = end;
		(*depth)--;
	}
	return 0;
}

/* The separator token t needs before it, or -1 if t cannot be there. */
static int separator(struct json *j, size_t depth, const struct json_tok *t)
{
	struct json_open *o = &j->open[depth - 1];
	int k = o->n++;

	if (j->tok[o->tok].type != JSON_OBJECT)
		return k ? ',' : 0;
	if (k % 2 == 0 && t->type != JSON_STRING)
		return -1;
	return k == 0 ? 0 : k % 2 ? ':' : ',';
}

/*
 * Walk the tokens in order with a stack of open containers and check the
 * separators between them, that keys are strings and that primitives are
 * literals: the grammar jsmn does not enforce.
 */
static int check_grammar(struct json *j, const char *s, size_t len, int strings)
{
	size_t depth = 0, pos = 0;
	size_t top_end = (size_t)-1;	/* end of the innermost open container */

	for (unsigned i = 0; i < j->ntok; i++) {
		struct json_tok *t = &j->tok[i];
		size_t b = json_tok_begin(t);
		int sep = 0;

		if (top_end <= b) {
			if (close_until(j, s, &depth, &pos, b) < 0)
				return -1;
			top_end = depth ? (size_t)j->tok[j->open[depth - 1].tok].end
				: (size_t)-1;
		}
		if (!depth && i)
			return fail(j, b, "unexpected data after value");
		if (depth && (sep = separator(j, depth, t)) < 0)
			return fail(j, b, "object key is not a string");
		if (gap_ok(j, s, pos, b, (char)sep) < 0)
			return -1;
		if (t->type == JSON_PRIMITIVE &&
		    !json_literal_ok(s + t->start, (size_t)(t->end - t->start)))
			return fail(j, b, "invalid number or literal");
		if (t->type == JSON_STRING && check_string(j, s, t, strings) < 0)
			return -1;
		if (t->type == JSON_OBJECT || t->type == JSON_ARRAY) {
			xgrow((void **)&j->open, &j->open_alloc, depth + 1,
			      sizeof(*j->open));
			j->open[depth].tok = (int)i;
			j->open[depth++].n = 0;
			top_end = (size_t)t->end;
			pos = b + 1;
		} else {
			pos = json_tok_finish(t);
		}
	}
	if (close_until(j, s, &depth, &pos, len) < 0)
		return -1;
	return check_gap(j, s, pos, len, 0);
}

static int parse_primitive_alone(struct json *j, const char *s, size_t len)
{
	size_t b = 0, e = len;

	while (b < e && is_ws(s[b]))
		b++;
	while (e > b && is_ws(s[e - 1]))
		e--;
	if (b == e)
		return fail(j, b, "empty value");
	if (!json_literal_ok(s + b, e - b))
		return fail(j, b, "invalid number or literal");
	xgrow((void **)&j->tok, &j->alloc, 1, sizeof(*j->tok));
	j->tok[0] = (struct json_tok){ JSON_PRIMITIVE, (int)b, (int)e, 0, -1, 0 };
	j->ntok = 1;
	return 0;
}

/*
 * The tokeniser.  jsmn's (strict mode, parent links) token for token and
 * error for error, but the container a closing bracket ends is the top of a
 * stack of open containers (j->open), where jsmn walks parent links up from
 * the last token: [[[[...]]]] cost it O(depth^2) (100k levels took 8 s, 1M
 * did not finish), here every byte costs O(1).  The token array grows in
 * place instead of jsmn's start-again-with-twice-the-room.
 *
 * Returns the number of tokens, or TOK_INVAL / TOK_PART with *at set as
 * jsmn sets its position: the bad byte, or the opening quote of a bad
 * string or the first byte of a bad primitive.
 */
enum { TOK_INVAL = -2, TOK_PART = -3 };

struct tokenizer {
	struct json *j;
	const char *s;
	size_t len, pos;
	int next;	/* tokens made */
	int super;	/* token new ones belong to (jsmn's toksuper), -1: none */
	size_t depth;	/* open containers on j->open */
};

static struct json_tok *new_tok(struct tokenizer *k, int type, int start, int end)
{
	struct json_tok *t;

	xgrow((void **)&k->j->tok, &k->j->alloc, (size_t)k->next + 1, sizeof(*k->j->tok));
	t = &k->j->tok[k->next++];
	*t = (struct json_tok){ type, start, end, 0, -1, 0 };
	return t;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

/* A string from its opening quote at k->pos; k->pos ends on the closing one. */
static int tok_string(struct tokenizer *k)
{
	const char *s = k->s;
	size_t start = k->pos, i = start + 1;

	for (; i < k->len && s[i] != '\0'; i++) {
		if (s[i] == '"') {
			new_tok(k, JSON_STRING, (int)start + 1, (int)i)->parent = k->super;
			k->pos = i;
			return 0;
		}
		if (s[i] != '\\' || i + 1 >= k->len)
			continue;
		i++;
		if (strchr("\"/\\bfrnt", s[i]) && s[i])
			continue;
		if (s[i] != 'u') {
			k->pos = start;
			return TOK_INVAL;
		}
		/* as jsmn: up to four hex digits, fewer where the text ends */
		i++;
		for (int d = 0; d < 4 && i < k->len && s[i] != '\0'; d++, i++)
			if (!is_hex(s[i])) {
				k->pos = start;
				return TOK_INVAL;
			}
		i--;
	}
	k->pos = start;
	return TOK_PART;
}

/* A number or literal from k->pos; k->pos ends on its last byte. */
static int tok_primitive(struct tokenizer *k)
{
	size_t start = k->pos, i = start;

	for (; i < k->len && k->s[i] != '\0'; i++) {
		unsigned char c = (unsigned char)k->s[i];
		if (c == '\t' || c == '\r' || c == '\n' || c == ' ' || c == ',' ||
		    c == ']' || c == '}')
			break;
		if (c < 32 || c >= 127) {
			k->pos = start;
			return TOK_INVAL;
		}
	}
	if (i >= k->len || k->s[i] == '\0') {	/* strict: a delimiter must follow */
		k->pos = start;
		return TOK_PART;
	}
	new_tok(k, JSON_PRIMITIVE, (int)start, (int)i)->parent = k->super;
	k->pos = i - 1;
	return 0;
}

static int tok_open(struct tokenizer *k, int type)
{
	struct json_tok *t = new_tok(k, type, (int)k->pos, -1);

	if (k->super != -1) {
		struct json_tok *up = &k->j->tok[k->super];
		if (up->type == JSON_OBJECT)	/* a container cannot be a key */
			return TOK_INVAL;
		up->size++;
		t->parent = k->super;
	}
	k->super = k->next - 1;
	xgrow((void **)&k->j->open, &k->j->open_alloc, k->depth + 1, sizeof(*k->j->open));
	k->j->open[k->depth++].tok = k->super;
	return 0;
}

static int tok_close(struct tokenizer *k, int type)
{
	struct json_tok *t;

	if (!k->depth)
		return TOK_INVAL;
	t = &k->j->tok[k->j->open[k->depth - 1].tok];
	if (t->type != type)
		return TOK_INVAL;
	k->depth--;
	t->end = (int)k->pos + 1;
	t->next = k->next;
	k->super = t->parent;
	return 0;
}

/* A value may not stand where a key is expected (strict mode). */
static int tok_value(struct tokenizer *k)
{
	int r;

	if (k->super != -1) {
		const struct json_tok *up = &k->j->tok[k->super];
		if (up->type == JSON_OBJECT || (up->type == JSON_STRING && up->size != 0))
			return TOK_INVAL;
	}
	if ((r = tok_primitive(k)) == 0 && k->super != -1)
		k->j->tok[k->super].size++;
	return r;
}

static int tokenize(struct json *j, const char *s, size_t len, size_t *at)
{
	struct tokenizer k = { j, s, len, 0, 0, -1, 0 };
	int r = 0;

	for (; k.pos < len && s[k.pos] != '\0' && r == 0; k.pos++) {
		switch (s[k.pos]) {
		case '{': r = tok_open(&k, JSON_OBJECT); break;
		case '[': r = tok_open(&k, JSON_ARRAY); break;
		case '}': r = tok_close(&k, JSON_OBJECT); break;
		case ']': r = tok_close(&k, JSON_ARRAY); break;
		case '"':
			if ((r = tok_string(&k)) == 0 && k.super != -1)
				j->tok[k.super].size++;
			break;
		case '\t': case '\r': case '\n': case ' ':
			break;
		case ':':
			k.super = k.next - 1;
			break;
		case ',':
			if (k.super != -1 && j->tok[k.super].type != JSON_ARRAY &&
			    j->tok[k.super].type != JSON_OBJECT)
				k.super = j->tok[k.super].parent;
			break;
		case '-': case '0': case '1': case '2': case '3': case '4': case '5':
		case '6': case '7': case '8': case '9': case 't': case 'f': case 'n':
			r = tok_value(&k);
			break;
		default:
			r = TOK_INVAL;
		}
	}
	if (r) {
		*at = k.pos - 1;	/* the loop stepped past the failing byte */
		return r;
	}
	*at = k.pos;
	return k.depth ? TOK_PART : k.next;
}

/*
 * jsmn refused the string whose opening quote is at s[q]: say why (a bad
 * escape, or a raw control byte) rather than just "invalid JSON".
 */
static int string_error(struct json *j, const char *s, size_t len, size_t q)
{
	size_t e = q + 1;
	long bad;

	while (e < len && s[e] != '"')
		e += s[e] == '\\' ? 2 : 1;
	if (e > len)
		e = len;
	bad = json_string_check(s + q + 1, e - q - 1);
	if (bad >= 0)
		return fail(j, q + 1 + (size_t)bad,
			    q + 2 + (size_t)bad < len && s[q + 2 + bad] == 'u' ?
			    "invalid \\u escape" : "invalid escape");
	for (size_t i = q + 1; i < e; i++)
		if ((unsigned char)s[i] < 0x20)
			return fail(j, i, "control character in string");
	return fail(j, q, "invalid JSON");
}

static int parse_tokens(struct json *j, const char *s, size_t len, int strings)
{
	int r;
	size_t b = 0, pos;

	if (len >= (size_t)1 << 31)
		return fail(j, 0, "value too large (2 GiB or more)");
	/* jsmn's strict mode wants a delimiter after a primitive */
	while (b < len && is_ws(s[b]))
		b++;
	if (b < len && s[b] != '{' && s[b] != '[' && s[b] != '"')
		return parse_primitive_alone(j, s, len);
	if (j->alloc < TOK_START)
		xgrow((void **)&j->tok, &j->alloc, TOK_START, sizeof(*j->tok));
	r = tokenize(j, s, len, &pos);
	if (r < 0 && pos < len && s[pos] == '\0')
		return fail(j, pos, "NUL byte");
	if (r == TOK_PART)
		return fail(j, len, "unexpected end of value");
	if (r == TOK_INVAL && s[pos] == '"')
		return string_error(j, s, len, pos);
	if (r == TOK_INVAL)
		return fail(j, pos, "invalid JSON");
	if (r <= 0)
		return fail(j, b, "empty value");
	j->ntok = (unsigned)r;
	return check_grammar(j, s, len, strings);
}

static int is_prim(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

/*
 * The one-pass tokeniser for compact text (no white space outside
 * strings: every event json_scan hands over, and json_parse's squeezed
 * copy).  It builds the tokens jsmn builds (types, extents, sizes, parent
 * links, in document order) and checks what check_grammar checks, in one
 * walk, with no second pass over the tokens.  It accepts only values that
 * jsmn and check_grammar both accept; on anything else (white space, a
 * control byte, a backslash where escapes is 0, nesting deeper than
 * FAST_DEPTH, a bad number...) it returns -1 without a message and the
 * caller takes the jsmn path, which finds the error and words it as it
 * always has.
 */
#define FAST_DEPTH 32

static inline __attribute__((always_inline)) unsigned
fast_tok(struct json *j, unsigned *n, int type, size_t start, int parent)
{
	struct json_tok *t;

	if (*n == j->alloc)
		xgrow_full((void **)&j->tok, &j->alloc, j->alloc * 2, sizeof(*j->tok));
	t = &j->tok[*n];
	t->type = type;
	t->start = (int)start;
	t->end = -1;
	t->size = 0;
	t->parent = parent;
	t->next = 0;
	return (*n)++;
}

/*
 * The string whose text starts at s[p] (after the opening quote): the
 * offset of its closing quote, or -1.  16 bytes at a time with SSE2,
 * stopping at a quote, a backslash or a control byte.
 */
static long fast_string(const struct json *j, const char *s, size_t len, size_t p)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t b = p;
	int backslash = 0;

	for (;;) {
#ifdef __SSE2__
		while (p + 16 <= len) {
			__m128i v = _mm_loadu_si128((const __m128i *)(u + p));
			__m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)),
						     _mm_set1_epi8(0x1f));
			int hit = _mm_movemask_epi8(_mm_or_si128(ctl, _mm_or_si128(
				_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
				_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
			if (hit) {
				p += (size_t)__builtin_ctz((unsigned)hit);
				break;
			}
			p += 16;
		}
#endif
		while (p < len && u[p] >= 0x20 && u[p] != '"' && u[p] != '\\')
			p++;
		if (p >= len || u[p] < 0x20)
			return -1;
		if (u[p] == '"')
			break;
		backslash = 1;
		p += 2;		/* the escaped byte; json_string_check judges it */
	}
	if (backslash && (!j->escapes || json_string_check(s + b, p - b) >= 0))
		return -1;
	return (long)p;
}

#ifdef __SSE2__
/* Bit i set where s[i] (of 32) is a digit, and where it is a point. */
static void decimal_masks(const char *s, uint32_t *digit, uint32_t *point)
{
	uint32_t d[2], t[2];

	for (int h = 0; h < 2; h++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + 16 * h));
		d[h] = digit_bits(v);
		t[h] = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
	}
	*digit = d[0] | d[1] << 16;
	*point = t[0] | t[1] << 16;
}

/*
 * The length of the number at s when it is a plain decimal of fewer than
 * 32 bytes, -?(0|[1-9][0-9]*)(.[0-9]+)? not followed by an exponent, by
 * masks of its bytes (the text's slack makes 32 readable); 0 for anything
 * else, which number_end then reads.  Timestamps are most of a trace's
 * numbers: 13 digits, a point, 3 more.
 */
static size_t fast_decimal(const char *s)
{
	uint32_t digit, point, body;
	unsigned minus = s[0] == '-', end;	/* the first digit is at minus */

	decimal_masks(s, &digit, &point);
	body = digit | point | minus;
	if (~body == 0)
		return 0;
	end = (unsigned)__builtin_ctz(~body);
	if ((s[end] | 0x20) == 'e' || !(digit >> minus & 1))
		return 0;	/* an exponent, or no digit first */
	if (s[minus] == '0' && minus + 1 < end && s[minus + 1] != '.')
		return 0;	/* a leading zero */
	point &= (1u << end) - 1;	/* end < 32 */
	/* one point at most, with digits on both sides */
	if (point && ((point & (point - 1)) || (unsigned)__builtin_ctz(point) + 1 >= end))
		return 0;
	return end;
}
#endif

/*
 * The end of the number at s[p] that json_compact_int_end did not take
 * (a decimal by its masks, anything else by number_end), or 0.
 */
static inline size_t long_number(const char *s, size_t len, size_t p)
{
	size_t e = 0;

#ifdef __SSE2__
	e = fast_decimal(s + p);
#endif
	if (e == 0)
		e = number_end(s + p, len - p);
	return e ? p + e : 0;
}

/*
 * The end of the number or literal at s[p], or 0 when there is none.  What
 * follows it must be , ] or } (checked by the caller): so a run of number
 * and letter bytes is taken exactly when json_literal_ok takes all of it.
 * (0 is never an end here: the root, at 0, is an object or an array.)
 */
static inline __attribute__((always_inline)) size_t
fast_prim(const char *s, size_t len, size_t p)
{
	size_t e;

	if (s[p] == '-' || (s[p] >= '0' && s[p] <= '9')) {	/* most are numbers */
		/* most are short integers (ids, pids, counts) */
		if ((e = json_compact_int_end(s, p + (s[p] == '-'))) != 0)
			return e;
		return long_number(s, len, p);
	}
	if (len - p >= 4 && (!memcmp(s + p, "true", 4) || !memcmp(s + p, "null", 4)))
		return p + 4;
	if (len - p >= 5 && !memcmp(s + p, "false", 5))
		return p + 5;
	e = number_end(s + p, len - p);
	return e ? p + e : 0;
}

/* The end r of a primitive where a value may end: before , ] or }; else 0. */
static inline size_t value_ends(const char *s, size_t len, size_t r)
{
	return r == 0 || r >= len || (s[r] != ',' && s[r] != ']' && s[r] != '}') ? 0 : r;
}

/* fast_prim's end where the value must end. */
static inline size_t prim_end(const char *s, size_t len, size_t p)
{
	return value_ends(s, len, fast_prim(s, len, p));
}

static int fast_tokens(struct json *j, const char *s, size_t len)
{
	unsigned stack[FAST_DEPTH];
	unsigned depth = 0, n = 0, top = 0, t;	/* fast_tok may move j->tok */
	int parent = -1;	/* the token the next value belongs to */
	size_t p = 0;
	long e;

	if (!j->fast || len == 0 || len >= (size_t)1 << 31 ||
	    (s[0] != '{' && s[0] != '['))
		return -1;
	if (j->alloc < TOK_START)
		xgrow((void **)&j->tok, &j->alloc, TOK_START, sizeof(*j->tok));
value:		/* a value starts at s[p] */
	if (s[p] == '{' || s[p] == '[') {
		if (depth == FAST_DEPTH)
			return -1;
		top = fast_tok(j, &n, s[p] == '{' ? JSON_OBJECT : JSON_ARRAY, p, parent);
		if (parent >= 0)
			j->tok[parent].size++;
		stack[depth++] = top;
		if (++p >= len)
			return -1;
		if (s[p] == '}' || s[p] == ']')
			goto close;
		if (j->tok[top].type == JSON_OBJECT)
			goto key;
		parent = (int)top;
		goto value;
	}
	if (s[p] == '"') {
		if ((e = fast_string(j, s, len, p + 1)) < 0)
			return -1;
		t = fast_tok(j, &n, JSON_STRING, p + 1, parent);
		j->tok[t].end = (int)e;
		p = (size_t)e + 1;
	} else {
		size_t q = prim_end(s, len, p);
		if (q == 0)
			return -1;
		t = fast_tok(j, &n, JSON_PRIMITIVE, p, parent);
		j->tok[t].end = (int)q;
		p = q;
	}
	j->tok[parent].size++;	/* a string or primitive is never the root */
after:		/* a value ended before s[p], inside stack[depth - 1] */
	if (p >= len)
		return -1;
	top = stack[depth - 1];
	if (s[p] == ',') {
		if (++p >= len)
			return -1;
		if (j->tok[top].type == JSON_OBJECT)
			goto key;
		parent = (int)top;
		goto value;
	}
	if (s[p] != '}' && s[p] != ']')
		return -1;
close:		/* s[p] closes stack[depth - 1] */
	top = stack[depth - 1];
	if ((s[p] == '}') != (j->tok[top].type == JSON_OBJECT))
		return -1;
	j->tok[top].end = (int)++p;
	j->tok[top].next = (int)n;
	if (--depth)
		goto after;
	if (p != len)
		return -1;
	j->ntok = n;
	return 0;
key:		/* a key of object stack[depth - 1] starts at s[p] */
	top = stack[depth - 1];
	if (s[p] != '"' || (e = fast_string(j, s, len, p + 1)) < 0)
		return -1;
	parent = (int)fast_tok(j, &n, JSON_STRING, p + 1, (int)top);
	j->tok[parent].end = (int)e;
	j->tok[top].size++;
	p = (size_t)e + 1;
	if (p + 1 >= len || s[p] != ':')
		return -1;
	p++;
	goto value;
}

static inline int is_obj(const uint64_t *obj, unsigned i)
{
	return (int)(obj[i / 64] >> i % 64 & 1);
}

/*
 * fast_tokens' walk of one value without its tokens, and without its
 * depth limit (FAST_DEPTH is for its token stack; jsmn takes what is
 * deeper, to the same spans): the open containers' kinds as bits (bit i
 * set: the i-th open one is an object), to JSON_MAX_DEPTH, which json_scan
 * already refused beyond.
 */
size_t json_compact_container_end(const char *s, size_t len, size_t p, unsigned depth)
{
	uint64_t obj[JSON_MAX_DEPTH / 64 + 1];
	unsigned d = 0;
	size_t r;
	long e;

value:
	if (s[p] == '{' || s[p] == '[') {
		if (depth + d >= JSON_MAX_DEPTH)
			return 0;
		obj[d / 64] = (obj[d / 64] & ~((uint64_t)1 << d % 64)) |
			      (uint64_t)(s[p] == '{') << d % 64;
		d++;
		if (++p >= len)
			return 0;
		if (s[p] == '}' || s[p] == ']')
			goto close;
		if (is_obj(obj, d - 1))
			goto key;
		goto value;
	}
	if (s[p] == '"') {
		if ((e = json_compact_quote_next(s, len, p + 1)) < 0)
			return 0;
		p = (size_t)e + 1;
	} else {
		/* most are short integers (dims, strides): their test inline */
		if ((r = json_compact_scalar_end(s, len, p)) == 0)
			return 0;
		p = r;
	}
after:
	if (d == 0)
		return p;
	if (p >= len)
		return 0;
	if (s[p] == ',') {
		if (++p >= len)
			return 0;
		if (is_obj(obj, d - 1))
			goto key;
		goto value;
	}
	if (s[p] != '}' && s[p] != ']')
		return 0;
close:
	if ((s[p] == '}') != is_obj(obj, d - 1))
		return 0;
	p++;
	d--;
	goto after;
key:
	if (s[p] != '"' || (e = json_compact_quote_next(s, len, p + 1)) < 0)
		return 0;
	p = (size_t)e + 1;
	if (p + 1 >= len || s[p] != ':')
		return 0;
	p++;
	goto value;
}

size_t json_compact_prim_end(const char *s, size_t len, size_t p)
{
	return prim_end(s, len, p);
}

size_t json_compact_number_end(const char *s, size_t len, size_t p)
{
	return value_ends(s, len, long_number(s, len, p));
}

/*
 * Copy the string whose opening quote is at s[*i] to o[*n], advancing
 * both past its closing quote (or to the end of s).  Strings are most of
 * a trace's bytes, so 16 bytes at a time with SSE2 where there is room.
 */
static void copy_string(const char *s, size_t len, size_t *i, char *o, size_t *n)
{
	size_t k = *i + 1, m = *n;

	o[m++] = '"';
	for (;;) {
#ifdef __SSE2__
		while (k + 16 <= len) {
			__m128i v = _mm_loadu_si128((const __m128i *)(s + k));
			int hit = _mm_movemask_epi8(_mm_or_si128(
				_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
				_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
			_mm_storeu_si128((__m128i *)(o + m), v);
			if (hit) {
				int z = __builtin_ctz((unsigned)hit);
				k += (size_t)z;
				m += (size_t)z;
				break;
			}
			k += 16;
			m += 16;
		}
#endif
		while (k < len && s[k] != '"' && s[k] != '\\')
			o[m++] = s[k++];
		if (k >= len)
			break;
		o[m++] = s[k++];
		if (s[k - 1] == '"')
			break;
		if (k < len)	/* the escaped byte */
			o[m++] = s[k++];
	}
	*i = k;
	*n = m;
}

/*
 * Copy s to j->text without the white space outside strings.  One blank
 * is kept where it separates two primitives ("[1 2]"), so that squeezing
 * never turns bad JSON into good.
 */
static void squeeze(struct json *j, const char *s, size_t len)
{
	char *o;
	size_t i = 0, n = 0;

	/* room for SSE2's whole 16-byte stores, the NUL and readers' slack */
	xgrow((void **)&j->buf, &j->buf_alloc, st_add(len, 1 + JSON_TEXT_SLACK), 1);
	o = j->buf;
	while (i < len) {
		char c = s[i];
		if (c == '"') {
			copy_string(s, len, &i, o, &n);
		} else if (is_ws(c)) {
			while (++i < len && is_ws(s[i]))
				;
			if (n && i < len && is_prim(o[n - 1]) && is_prim(s[i]))
				o[n++] = ' ';
		} else {
			o[n++] = c;
			i++;
		}
	}
	memset(o + n, 0, 1 + JSON_TEXT_SLACK);	/* the NUL and the slack */
	j->text = o;
	j->len = n;
}

static int parse(struct json *j, const char *s, size_t len, int strings)
{
	squeeze(j, s, len);
	j->escapes = 1;
	if (fast_tokens(j, j->text, j->len) == 0 ||
	    parse_tokens(j, j->text, j->len, strings) == 0)
		return 0;
	/* find where the caller's text goes wrong: parse it as it is */
	if (parse_tokens(j, s, len, strings) == 0)
		fail(j, 0, "invalid JSON");
	j->ntok = 0;
	return -1;
}

int json_parse_compact(struct json *j, const char *s, size_t len, int escapes)
{
	j->escapes = escapes;
	j->text = s;
	j->len = len;
	if (fast_tokens(j, s, len) == 0 || parse_tokens(j, s, len, 0) == 0)
		return 0;
	j->ntok = 0;
	return -1;
}

int json_parse(struct json *j, const char *s, size_t len)
{
	return parse(j, s, len, 1);
}

/* For text whose strings a scanner already checked for control bytes. */
int json_parse_checked(struct json *j, const char *s, size_t len)
{
	return parse(j, s, len, 0);
}

unsigned json_skip_open(const struct json *j, unsigned i)
{
	int end = j->tok[i].end;
	unsigned k = i + 1;

	while (k < j->ntok && j->tok[k].start < end)
		k++;
	return k;
}

/*
 * Compact JSON holds no raw tab, newline, carriage return or NUL (strings
 * were checked), so TSV escaping is doubling the backslashes: find them
 * with memchr and copy the runs between.
 */
void json_put_text(struct outbuf *ob, const char *s, size_t n, int tsv)
{
	const char *e = s + n, *b;

	while (tsv && (b = memchr(s, '\\', (size_t)(e - s)))) {
		outbuf_put_slow(ob, s, (size_t)(b - s) + 1);
		outbuf_putc(ob, '\\');
		s = b + 1;
	}
	outbuf_put_slow(ob, s, (size_t)(e - s));
}

/* The text is compact already: a value's compact JSON is its text. */
void json_compact(const struct json *j, unsigned i, struct outbuf *ob, int tsv)
{
	const struct json_tok *t = &j->tok[i];
	size_t b = json_tok_begin(t);

	json_put_text(ob, j->text + b, json_tok_finish(t) - b, tsv && j->escapes);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The code unit of the \uXXXX escape at s[0] ('\\'), or -1 if s[0..n)
 * holds no complete one. */
static long hex4(const char *s, size_t n)
{
	long c = 0;

	if (n < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (int k = 2; k < 6; k++) {
		int h = hexval(s[k]);
		if (h < 0)
			return -1;
		c = c * 16 + h;
	}
	return c;
}

static int is_high(long c)
{
	return c >= 0xd800 && c < 0xdc00;
}

static int is_low(long c)
{
	return c >= 0xdc00 && c < 0xe000;
}

/*
 * Check the escapes of a string's inner text s[0..n): a backslash is
 * followed by one of " \\ / b f n r t, or by u and four hex digits; a
 * high surrogate is followed by a low one and a low one never stands
 * alone.  Python's json would take a lone surrogate, but no UTF-8 writer
 * (tl's or pandas') can then write it: refuse it here, where we can say
 * where.  Returns -1 if valid, else the offset of the bad escape.
 */
long json_string_check(const char *s, size_t n)
{
	const char *b;
	size_t i = 0;

	while (i < n && (b = memchr(s + i, '\\', n - i))) {
		i = (size_t)(b - s);
		if (i + 1 >= n)
			return (long)i;
		if (s[i + 1] != 'u') {
			if (!strchr("\"\\/bfnrt", s[i + 1]) || !s[i + 1])
				return (long)i;
			i += 2;
			continue;
		}
		long c = hex4(s + i, n - i);
		if (c < 0 || is_low(c))
			return (long)i;
		if (is_high(c) && !is_low(hex4(s + i + 6, n - i - 6)))
			return (long)i;
		i += is_high(c) ? 12 : 6;
	}
	return -1;
}

static size_t put_utf8(char *o, unsigned c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

static char unescape(char c)
{
	switch (c) {
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return c;	/* " \\ / */
	}
}

size_t json_decode_string(const char *s, size_t n, char *out)
{
	size_t i = 0, o = 0;

	while (i < n) {
		const char *bs = memchr(s + i, '\\', n - i);
		size_t k = bs ? (size_t)(bs - s) : n;
		tl_memmove(out + o, s + i, k - i);
		o += k - i;
		i = k;
		if (i >= n)
			break;
		if (i + 1 >= n) {	/* a lone trailing backslash: keep it */
			out[o++] = '\\';
			break;
		}
		long c = s[i + 1] == 'u' ? hex4(s + i, n - i) : -1;
		if (c < 0) {
			/* a two-byte escape, or a bad \u kept as its bytes */
			out[o++] = s[i + 1] == 'u' ? '\\' : unescape(s[i + 1]);
			i += s[i + 1] == 'u' ? 1 : 2;
			continue;
		}
		if (c == 0) {
			/*
			 * U+0000 would end the name in every C string after
			 * tl-cat (it cut "aten::a\u0000b" to "aten::a"): it
			 * keeps its JSON spelling, which is as long.
			 */
			tl_memcpy(out + o, s + i, 6);
			o += 6;
			i += 6;
			continue;
		}
		i += 6;
		long lo = is_high(c) ? hex4(s + i, n - i) : -1;
		if (is_low(lo)) {
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			i += 6;
		}
		o += put_utf8(out + o, (unsigned)c);
	}
	return o;
}

int json_tok_is_number(const struct json *j, unsigned i)
{
	const struct json_tok *t = &j->tok[i];
	char c = j->text[t->start];
	return t->type == JSON_PRIMITIVE && c != 't' && c != 'f' && c != 'n';
}
