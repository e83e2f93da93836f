#include <stdlib.h>
#include <string.h>

#include "jscan.h"
#include "json.h"
#include "xalloc.h"
#include "banned.h"

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
enum { K_CONTAINER, K_STRING, K_PRIMITIVE };

/* Bytes that stop the fast loops: inside a string, and outside. */
static unsigned char str_stop[256], struct_stop[256], prim_stop[256];

static void init_tables(void)
{
	if (str_stop['"'])
		return;
	for (int c = 0; c < 0x20; c++)
		str_stop[c] = 1;
	str_stop['"'] = str_stop['\\'] = 1;
	struct_stop['"'] = struct_stop['{'] = struct_stop['}'] = 1;
	struct_stop['['] = struct_stop[']'] = 1;
	prim_stop[','] = prim_stop[']'] = prim_stop['}'] = 1;
	prim_stop[' '] = prim_stop['\t'] = prim_stop['\n'] = prim_stop['\r'] = 1;
}

void jscan_init(struct jscan *s)
{
	init_tables();
	memset(s, 0, sizeof(*s));
	s->state = S_START;
}

void jscan_release(struct jscan *s)
{
	free(s->stack);
	free(s->key);
	memset(s, 0, sizeof(*s));
}

void jscan_set_buf(struct jscan *s, const char *buf, size_t len, int partial)
{
	s->base += s->mark;
	s->pos -= s->mark;
	s->mark = 0;
	s->buf = buf;
	s->len = len;
	s->partial = partial;
}

size_t jscan_consumed(const struct jscan *s)
{
	return s->mark;
}

uint64_t jscan_offset(const struct jscan *s)
{
	return s->base + s->pos;
}

static int error(struct jscan *s, size_t at, const char *msg)
{
	s->err_msg = msg;
	s->err_off = s->base + at;
	s->state = S_ERROR;
	return JSCAN_ERROR;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Skip white space; 1 if a byte is there to look at, else 0. */
static int skip_ws(struct jscan *s)
{
	while (s->pos < s->len && is_ws(s->buf[s->pos]))
		s->pos++;
	s->mark = s->pos;
	return s->pos < s->len;
}

static int truncated(struct jscan *s)
{
	return error(s, s->len, s->state == S_START ? "empty input"
		     : "truncated JSON: unexpected end of input");
}

static void bad_string(struct jscan *s, size_t at)
{
	if (!s->bad_msg) {
		s->bad_msg = "control character in string";
		s->bad_off = s->base + at;
	}
}

/* Start scanning an element at pos. */
static void elem_begin(struct jscan *s)
{
	char c = s->buf[s->pos];

	s->mark = s->pos;
	s->bad_msg = NULL;
	s->depth = 0;
	s->in_str = 0;
	if (c == '{' || c == '[') {
		s->elem_kind = K_CONTAINER;
	} else if (c == '"') {
		s->elem_kind = K_STRING;
		s->in_str = 1;
		s->pos++;
	} else {
		s->elem_kind = K_PRIMITIVE;
	}
}

/*
 * Inside a string at pos: advance to just after its closing quote (1) or
 * to the end of the buffer (0; an escape cut in two is left for later).
 */
static int scan_string(struct jscan *s)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t p = s->pos, n = s->len;

	for (;;) {
		while (p < n && !str_stop[b[p]])
			p++;
		if (p >= n)
			break;
		if (b[p] == '"') {
			s->pos = p + 1;
			s->in_str = 0;
			return 1;
		}
		if (b[p] == '\\') {
			if (p + 1 >= n)
				break;
			p += 2;
			continue;
		}
		bad_string(s, p);
		p++;
	}
	s->pos = p;
	return 0;
}

/* Scan a container element: 1 complete, 0 need more, -1 error. */
static int scan_container(struct jscan *s)
{
	const unsigned char *b = (const unsigned char *)s->buf;

	for (;;) {
		size_t p = s->pos, n = s->len;
		unsigned char c;

		if (s->in_str && !scan_string(s))
			return 0;
		p = s->pos;
		while (p < n && !struct_stop[b[p]])
			p++;
		s->pos = p;
		if (p >= n)
			return 0;
		c = b[p];
		s->pos = p + 1;
		if (c == '"') {
			s->in_str = 1;
		} else if (c == '{' || c == '[') {
			xgrow((void **)&s->stack, &s->stack_alloc, s->depth + 1, 1);
			s->stack[s->depth++] = (char)c;
		} else {
			if (!s->depth || s->stack[s->depth - 1] != (c == '}' ? '{' : '['))
				return error(s, p, c == '}' ? "unmatched '}'"
					     : "unmatched ']'");
			if (!--s->depth)
				return 1;
		}
	}
}

static int scan_primitive(struct jscan *s)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t p = s->pos;

	while (p < s->len && !prim_stop[b[p]])
		p++;
	s->pos = p;
	return p < s->len || !s->partial;
}

/* Continue the element: 1 complete, 0 need more, -1 error. */
static int scan_elem(struct jscan *s)
{
	int r;

	switch (s->elem_kind) {
	case K_CONTAINER:
		r = scan_container(s);
		break;
	case K_STRING:
		r = scan_string(s);
		break;
	default:
		return scan_primitive(s);
	}
	if (r == 0 && !s->partial)
		return truncated(s);
	return r;
}

static void item_fill(struct jscan *s, struct jscan_item *it)
{
	it->text = s->buf + s->mark;
	it->len = s->pos - s->mark;
	it->off = s->base + s->mark;
	it->key = s->key;
	it->keylen = s->keylen;
	it->bad_msg = s->bad_msg;
	it->bad_off = s->bad_off;
	s->mark = s->pos;
}

/* The key string just scanned: decode it into s->key. */
static int take_key(struct jscan *s)
{
	size_t n = s->pos - s->mark - 2;

	if (s->bad_msg) {
		s->err_off = s->bad_off;
		s->err_msg = s->bad_msg;
		s->state = S_ERROR;
		return JSCAN_ERROR;
	}
	xgrow((void **)&s->key, &s->key_alloc, n + 1, 1);
	s->keylen = json_decode_string(s->buf + s->mark + 1, n, s->key);
	s->key[s->keylen] = '\0';
	s->is_events = s->keylen == 11 && !memcmp(s->key, "traceEvents", 11);
	s->mark = s->pos;
	return 0;
}

/* An element finished: hand it out or take the key. */
static int elem_end(struct jscan *s, int what, struct jscan_item *it)
{
	switch (what) {
	case E_KEY:
		s->state = S_COLON;
		return take_key(s);
	case E_TOP:
		s->state = S_OBJ_NEXT;
		item_fill(s, it);
		return JSCAN_TOP;
	default:
		s->state = S_ARR_NEXT;
		item_fill(s, it);
		return JSCAN_EVENT;
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
static int step(struct jscan *s, char c)
{
	switch (s->state) {
	case S_START:
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

int jscan_next(struct jscan *s, struct jscan_item *it)
{
	for (;;) {
		int r;

		if (s->state == S_ERROR)
			return JSCAN_ERROR;
		if (s->state == S_DONE)
			return JSCAN_DONE;
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
				return JSCAN_MORE;
			if (s->state != S_TRAIL)
				return truncated(s);
			s->state = S_DONE;
			return JSCAN_DONE;
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
