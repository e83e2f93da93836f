#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#include <jsmn.h>

#include "json.h"
#include "outbuf.h"
#include "xalloc.h"
#include "banned.h"

/* json_tok is handed to jsmn as jsmntok_t: keep the layouts equal. */
_Static_assert(sizeof(struct json_tok) == sizeof(jsmntok_t), "json_tok size");
_Static_assert(offsetof(struct json_tok, parent) == offsetof(jsmntok_t, parent),
	       "json_tok layout");
_Static_assert((int)JSON_OBJECT == (int)JSMN_OBJECT && (int)JSON_ARRAY == (int)JSMN_ARRAY &&
	       (int)JSON_STRING == (int)JSMN_STRING && (int)JSON_PRIMITIVE == (int)JSMN_PRIMITIVE,
	       "json_type values");

#define TOK_START 256

void json_init(struct json *j)
{
	memset(j, 0, sizeof(*j));
}

void json_release(struct json *j)
{
	free(j->tok);
	free(j->stack);
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

int json_number_ok(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i >= n)
		return 0;
	if (s[i] == '0')
		i++;
	else if (s[i] >= '1' && s[i] <= '9')
		while (i < n && is_digit(s[i]))
			i++;
	else
		return 0;
	if (i < n && s[i] == '.') {
		if (++i >= n || !is_digit(s[i]))
			return 0;
		while (i < n && is_digit(s[i]))
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || !is_digit(s[i]))
			return 0;
		while (i < n && is_digit(s[i]))
			i++;
	}
	return i == n;
}

int json_literal_ok(const char *s, size_t n)
{
	if (n == 4 && (!memcmp(s, "true", 4) || !memcmp(s, "null", 4)))
		return 1;
	if (n == 5 && !memcmp(s, "false", 5))
		return 1;
	return json_number_ok(s, n);
}

/* Text extent of a token including a string's quotes. */
static size_t tok_begin(const struct json_tok *t)
{
	return (size_t)t->start - (t->type == JSON_STRING);
}

static size_t tok_finish(const struct json_tok *t)
{
	return (size_t)t->end + (t->type == JSON_STRING);
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

static int check_string(struct json *j, const char *s, const struct json_tok *t)
{
	for (int i = t->start; i < t->end; i++)
		if ((unsigned char)s[i] < 0x20)
			return fail(j, (size_t)i, "control character in string");
	return 0;
}

static void push(struct json *j, size_t *depth, int v)
{
	xgrow((void **)&j->stack, &j->stack_alloc, *depth + 1, sizeof(*j->stack));
	j->stack[(*depth)++] = v;
}

/*
 * Close the containers on the stack that end at or before off, checking
 * the space before each closing bracket.  pos is the end of the last item.
 */
static int close_until(struct json *j, const char *s, size_t *depth,
		       size_t *pos, size_t off)
{
	while (*depth) {
		struct json_tok *c = &j->tok[j->stack[*depth - 1]];
		if ((size_t)c->end > off)
			break;
		if (check_gap(j, s, *pos, (size_t)c->end - 1, 0) < 0)
			return -1;
		*pos = (size_t)c->end;
		(*depth)--;
	}
	return 0;
}

/*
 * Walk the tokens in order with a stack of open containers and check the
 * separators between them, that keys are strings and that primitives are
 * literals.  A token's "count" so far among its siblings is rebuilt from
 * the parent's kind: children of an object alternate key, value.
 */
static int check_grammar(struct json *j, const char *s, size_t len, int strings)
{
	size_t depth = 0, pos = 0;
	int *nth;	/* items seen so far in each open container */
	size_t nth_alloc = 0;
	int rc = -1;

	nth = NULL;
	for (unsigned i = 0; i < j->ntok; i++) {
		struct json_tok *t = &j->tok[i];
		size_t b = tok_begin(t);
		char sep = 0;

		if (close_until(j, s, &depth, &pos, b) < 0)
			goto out;
		if (!depth && i) {
			fail(j, b, "unexpected data after value");
			goto out;
		}
		if (depth) {
			int p = j->stack[depth - 1];
			int k = nth[depth - 1]++;
			if (j->tok[p].type == JSON_OBJECT) {
				if (k % 2 == 0 && t->type != JSON_STRING) {
					fail(j, b, "object key is not a string");
					goto out;
				}
				sep = k == 0 ? 0 : k % 2 ? ':' : ',';
			} else {
				sep = k == 0 ? 0 : ',';
			}
		}
		if (check_gap(j, s, pos, b, sep) < 0)
			goto out;
		if (t->type == JSON_PRIMITIVE &&
		    !json_literal_ok(s + t->start, (size_t)(t->end - t->start))) {
			fail(j, b, "invalid number or literal");
			goto out;
		}
		if (t->type == JSON_STRING && strings && check_string(j, s, t) < 0)
			goto out;
		if (t->type == JSON_OBJECT || t->type == JSON_ARRAY) {
			push(j, &depth, (int)i);
			xgrow((void **)&nth, &nth_alloc, depth, sizeof(*nth));
			nth[depth - 1] = 0;
			pos = b + 1;
		} else {
			pos = tok_finish(t);
		}
	}
	if (close_until(j, s, &depth, &pos, len) < 0)
		goto out;
	rc = check_gap(j, s, pos, len, 0);
out:
	free(nth);
	return rc;
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
	j->tok[0] = (struct json_tok){ JSON_PRIMITIVE, (int)b, (int)e, 0, -1 };
	j->ntok = 1;
	return 0;
}

static int parse(struct json *j, const char *s, size_t len, int strings)
{
	jsmn_parser p;
	int r;
	size_t b = 0;

	if (len >= (size_t)1 << 31)
		return fail(j, 0, "value too large (2 GiB or more)");
	/* jsmn's strict mode wants a delimiter after a primitive */
	while (b < len && is_ws(s[b]))
		b++;
	if (b < len && s[b] != '{' && s[b] != '[' && s[b] != '"')
		return parse_primitive_alone(j, s, len);
	if (j->alloc < TOK_START)
		xgrow((void **)&j->tok, &j->alloc, TOK_START, sizeof(*j->tok));
	for (;;) {
		jsmn_init(&p);
		r = jsmn_parse(&p, s, len, (jsmntok_t *)j->tok, (unsigned)j->alloc);
		if (r != JSMN_ERROR_NOMEM)
			break;
		xgrow((void **)&j->tok, &j->alloc, j->alloc * 2, sizeof(*j->tok));
	}
	if (r < 0 && p.pos < len && s[p.pos] == '\0')
		return fail(j, p.pos, "NUL byte");
	if (r == JSMN_ERROR_PART)
		return fail(j, len, "unexpected end of value");
	if (r == JSMN_ERROR_INVAL)
		return fail(j, p.pos, "invalid JSON");
	if (r <= 0)
		return fail(j, p.pos, "empty value");
	j->ntok = (unsigned)r;
	return check_grammar(j, s, len, strings);
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

unsigned json_skip(const struct json *j, unsigned i)
{
	int end = j->tok[i].end;
	unsigned k = i + 1;

	if (j->tok[i].type == JSON_STRING || j->tok[i].type == JSON_PRIMITIVE)
		return k;
	while (k < j->ntok && j->tok[k].start < end)
		k++;
	return k;
}

static void put_raw(struct outbuf *ob, const char *s, size_t n, int tsv)
{
	if (tsv)
		outbuf_tsv(ob, s, n);
	else
		outbuf_put(ob, s, n);
}

/* Copy the punctuation of a validated gap, dropping its white space. */
static void put_gap(struct outbuf *ob, const char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!is_ws(s[i]))
			outbuf_putc(ob, s[i]);
}

/*
 * The text between tokens is only white space and punctuation (the
 * grammar check made sure), so compacting is: copy every token's text and
 * the non-blank bytes between them.  No stack, any depth.
 */
void json_compact(const struct json *j, unsigned i, const char *s,
		  struct outbuf *ob, int tsv)
{
	unsigned last = json_skip(j, i);
	size_t pos = tok_begin(&j->tok[i]);

	for (unsigned k = i; k < last; k++) {
		const struct json_tok *t = &j->tok[k];
		size_t b = tok_begin(t);

		put_gap(ob, s, pos, b);
		switch (t->type) {
		case JSON_STRING:
			outbuf_putc(ob, '"');
			put_raw(ob, s + t->start, (size_t)(t->end - t->start), tsv);
			outbuf_putc(ob, '"');
			pos = tok_finish(t);
			break;
		case JSON_PRIMITIVE:
			outbuf_put(ob, s + t->start, (size_t)(t->end - t->start));
			pos = tok_finish(t);
			break;
		default:
			outbuf_putc(ob, s[b]);
			pos = b + 1;
		}
	}
	put_gap(ob, s, pos, tok_finish(&j->tok[i]));
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c - 'A' + 10;
}

static unsigned hex4(const char *s)
{
	return (unsigned)(hexval(s[0]) << 12 | hexval(s[1]) << 8 |
			  hexval(s[2]) << 4 | hexval(s[3]));
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
		memmove(out + o, s + i, k - i);
		o += k - i;
		i = k;
		if (i >= n)
			break;
		if (s[i + 1] != 'u') {
			out[o++] = unescape(s[i + 1]);
			i += 2;
			continue;
		}
		unsigned c = hex4(s + i + 2);
		i += 6;
		if (c >= 0xd800 && c < 0xdc00 && i + 6 <= n && s[i] == '\\' &&
		    s[i + 1] == 'u') {
			unsigned lo = hex4(s + i + 2);
			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i += 6;
			}
		}
		o += put_utf8(out + o, c);
	}
	return o;
}

int json_tok_eq(const struct json *j, unsigned i, const char *text,
		const char *key, size_t n)
{
	const struct json_tok *t = &j->tok[i];
	return (size_t)(t->end - t->start) == n && !memcmp(text + t->start, key, n);
}

int json_tok_is_number(const struct json *j, unsigned i, const char *text)
{
	const struct json_tok *t = &j->tok[i];
	char c = text[t->start];
	return t->type == JSON_PRIMITIVE && c != 't' && c != 'f' && c != 'n';
}
