#include <stdlib.h>
#include <string.h>

#include "json_pull.h"
#include "json.h"
#include "xalloc.h"
#include "banned.h"

#define READ_SIZE (256u << 10)

void json_pull_init(struct json_pull *p, const char *prefix, size_t n,
		    json_pull_read_fn read, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->cap = n + READ_SIZE;
	p->buf = xmalloc(p->cap);
	if (n)
		tl_memcpy(p->buf, prefix, n);
	p->len = n;
	p->read = read;
	p->ctx = ctx;
}

void json_pull_release(struct json_pull *p)
{
	free(p->buf);
	free(p->key);
	memset(p, 0, sizeof(*p));
}

uint64_t json_pull_offset(const struct json_pull *p)
{
	return p->base + p->pos;
}

static int fail(struct json_pull *p, uint64_t off, const char *msg)
{
	if (!p->err_msg) {
		p->err_msg = msg;
		p->err_off = off;
	}
	return -1;
}

/*
 * Read more, keeping buf[keep..len): 1 read, 0 at the end, -1 error.
 * The kept bytes move to the front of the window.
 */
static int fill(struct json_pull *p, size_t keep)
{
	const char *msg = NULL;
	ssize_t r;

	if (p->err_msg)
		return -1;
	if (p->eof)
		return 0;
	if (keep) {
		tl_memmove(p->buf, p->buf + keep, p->len - keep);
		p->len -= keep;
		p->pos -= keep;
		p->base += keep;
	}
	if (p->cap - p->len < READ_SIZE) {
		p->cap = st_add(st_mult(p->cap, 2), READ_SIZE);
		p->buf = xrealloc(p->buf, p->cap);
	}
	r = p->read(p->ctx, p->buf + p->len, READ_SIZE, &msg);
	if (r < 0)
		return fail(p, p->base + p->len, msg ? msg : "read error");
	if (r == 0) {
		p->eof = 1;
		return 0;
	}
	p->len += (size_t)r;
	return 1;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

int json_pull_peek(struct json_pull *p)
{
	for (;;) {
		while (p->pos < p->len && is_ws(p->buf[p->pos]))
			p->pos++;
		if (p->pos < p->len)
			return (unsigned char)p->buf[p->pos];
		int r = fill(p, p->pos);
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
	}
}

/* Consume the byte c (after white space), or fail saying what was wanted. */
static int expect(struct json_pull *p, char c, const char *msg)
{
	int b = json_pull_peek(p);

	if (b < 0)
		return -1;
	if (b == 0)
		return fail(p, json_pull_offset(p), "truncated JSON: unexpected end of input");
	if (b != (unsigned char)c)
		return fail(p, json_pull_offset(p), msg);
	p->pos++;
	return 0;
}

int json_pull_begin(struct json_pull *p, char open)
{
	char close = open == '{' ? '}' : ']';
	int b;

	if (expect(p, open, open == '{' ? "expected an object" : "expected an array") < 0)
		return -1;
	if ((b = json_pull_peek(p)) < 0)
		return -1;
	if (b == (unsigned char)close) {
		p->pos++;
		return 0;
	}
	return 1;
}

int json_pull_next(struct json_pull *p, char close)
{
	int b = json_pull_peek(p);

	if (b < 0)
		return -1;
	if (b == 0)
		return fail(p, json_pull_offset(p), "truncated JSON: unexpected end of input");
	if (b == ',') {
		p->pos++;
		return 1;
	}
	if (b == (unsigned char)close) {
		p->pos++;
		return 0;
	}
	return fail(p, json_pull_offset(p), close == '}' ? "expected ',' or '}'"
		    : "expected ',' or ']'");
}

/*
 * The extent of the value starting at buf[pos]: sets *end to one past it.
 * Strings and brackets are followed; a primitive ends at a delimiter.
 * The grammar inside is left to json_parse.
 */
static int extent(struct json_pull *p, size_t *end)
{
	size_t start = p->pos, i = p->pos, depth = 0;
	int in_str = 0, esc = 0, prim = 0;
	char c0 = p->buf[start];

	if (c0 != '{' && c0 != '[' && c0 != '"')
		prim = 1;
	for (;;) {
		for (; i < p->len; i++) {
			char c = p->buf[i];
			if (prim) {
				if (c == ',' || c == '}' || c == ']' || is_ws(c)) {
					*end = i;
					return 0;
				}
			} else if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"') {
					in_str = 0;
					if (depth == 0) {
						*end = i + 1;
						return 0;
					}
				}
			} else if (c == '"') {
				in_str = 1;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if (c == '}' || c == ']') {
				if (depth == 0)
					return fail(p, p->base + i, "unbalanced brackets");
				if (--depth == 0) {
					*end = i + 1;
					return 0;
				}
			}
		}
		/* keep the value's bytes while reading on */
		size_t keep = start;
		int r = fill(p, keep);
		if (r < 0)
			return -1;
		i -= keep;
		start -= keep;
		if (r == 0) {
			if (prim) {
				*end = i;
				return 0;
			}
			return fail(p, p->base + p->len,
				    "truncated JSON: unexpected end of input");
		}
	}
}

int json_pull_value(struct json_pull *p, const char **text, size_t *len)
{
	size_t end;
	int b = json_pull_peek(p);

	if (b < 0)
		return -1;
	if (b == 0)
		return fail(p, json_pull_offset(p), "truncated JSON: unexpected end of input");
	if (b == ',' || b == '}' || b == ']' || b == ':')
		return fail(p, json_pull_offset(p), "expected a value");
	if (extent(p, &end) < 0)
		return -1;
	*text = p->buf + p->pos;
	*len = end - p->pos;
	p->pos = end;
	return 0;
}

int json_pull_key(struct json_pull *p)
{
	const char *t;
	size_t n;
	uint64_t off;
	long bad;

	if (json_pull_peek(p) < 0)
		return -1;
	off = json_pull_offset(p);
	if (p->pos < p->len && p->buf[p->pos] != '"')
		return fail(p, off, "expected a string key");
	if (json_pull_value(p, &t, &n) < 0)
		return -1;
	for (size_t i = 1; i + 1 < n; i++)
		if ((unsigned char)t[i] < 0x20)
			return fail(p, off + i, "control character in string");
	if ((bad = json_string_check(t + 1, n - 2)) >= 0)
		return fail(p, off + 1 + (uint64_t)bad, "invalid escape in string");
	xgrow((void **)&p->key, &p->key_alloc, n, 1);
	p->keylen = json_decode_string(t + 1, n - 2, p->key);
	p->key[p->keylen] = '\0';
	return expect(p, ':', "expected ':'");
}

int json_pull_end(struct json_pull *p)
{
	int b = json_pull_peek(p);

	if (b < 0)
		return -1;
	if (b != 0)
		return fail(p, json_pull_offset(p), "trailing data after the document");
	return 0;
}
