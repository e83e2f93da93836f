#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jval.h"
#include "xalloc.h"
#include "banned.h"

/* Nesting deeper than this is refused rather than risking the C stack. */
#define JVAL_MAX_DEPTH 200

struct jparser {
	const char *p, *end;
	int depth;
};

static void skip_ws(struct jparser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' ||
				   *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
		else return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) { o[0] = (char)cp; return 1; }
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Decodes the string at jp->p (on the opening quote) into a new buffer. */
static int parse_string(struct jparser *jp, char **out, size_t *outlen)
{
	const char *p = ++jp->p;
	size_t n = 0;
	/* decoded text is never longer than the source */
	char *o;

	while (p < jp->end && *p != '"')
		p += (*p == '\\' && p + 1 < jp->end) ? 2 : 1;
	if (p >= jp->end)
		return -1;
	o = xmalloc((size_t)(p - jp->p) + 1);
	for (p = jp->p; *p != '"'; ) {
		unsigned cp, lo;
		if (*p != '\\') { o[n++] = *p++; continue; }
		p++;
		switch (*p) {
		case '"': case '\\': case '/': o[n++] = *p; p++; continue;
		case 'b': o[n++] = '\b'; p++; continue;
		case 'f': o[n++] = '\f'; p++; continue;
		case 'n': o[n++] = '\n'; p++; continue;
		case 'r': o[n++] = '\r'; p++; continue;
		case 't': o[n++] = '\t'; p++; continue;
		case 'u': break;
		default: free(o); return -1;
		}
		if (jp->end - p < 5 || hex4(p + 1, &cp)) { free(o); return -1; }
		p += 5;
		if (cp >= 0xd800 && cp < 0xdc00 && jp->end - p >= 6 && p[0] == '\\' &&
		    p[1] == 'u' && !hex4(p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		}
		n += put_utf8(o + n, cp);
	}
	o[n] = '\0';
	jp->p = p + 1;
	*out = o;
	*outlen = n;
	return 0;
}

static int parse_value(struct jparser *jp, struct jval *v);

static int parse_number(struct jparser *jp, struct jval *v)
{
	const char *s = jp->p;
	int is_float = 0;

	if (jp->p < jp->end && *jp->p == '-')
		jp->p++;
	while (jp->p < jp->end && strchr("0123456789.eE+-", *jp->p)) {
		if (*jp->p == '.' || *jp->p == 'e' || *jp->p == 'E')
			is_float = 1;
		jp->p++;
	}
	if (jp->p == s || (jp->p == s + 1 && *s == '-'))
		return -1;
	v->type = is_float ? JV_FLOAT : JV_INT;
	v->len = (size_t)(jp->p - s);
	v->s = xstrndup(s, v->len);
	v->num = strtod(v->s, NULL);
	return 0;
}

static int parse_container(struct jparser *jp, struct jval *v, int obj)
{
	size_t alloc = 0, kalloc = 0, klalloc = 0;
	char close = obj ? '}' : ']';

	if (++jp->depth > JVAL_MAX_DEPTH)
		return -1;
	v->type = obj ? JV_OBJ : JV_ARR;
	jp->p++;
	skip_ws(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		jp->depth--;
		return 0;
	}
	for (;;) {
		skip_ws(jp);
		xgrow((void **)&v->kids, &alloc, v->n + 1, sizeof(*v->kids));
		memset(&v->kids[v->n], 0, sizeof(*v->kids));
		if (obj) {
			xgrow((void **)&v->keys, &kalloc, v->n + 1, sizeof(*v->keys));
			xgrow((void **)&v->keylens, &klalloc, v->n + 1, sizeof(*v->keylens));
			v->keys[v->n] = NULL;
			if (jp->p >= jp->end || *jp->p != '"' ||
			    parse_string(jp, &v->keys[v->n], &v->keylens[v->n]))
				return -1;
			skip_ws(jp);
			if (jp->p >= jp->end || *jp->p != ':')
				{ v->n++; return -1; }
			jp->p++;
			skip_ws(jp);
		}
		if (parse_value(jp, &v->kids[v->n++]))
			return -1;
		skip_ws(jp);
		if (jp->p < jp->end && *jp->p == ',') { jp->p++; continue; }
		if (jp->p < jp->end && *jp->p == close) { jp->p++; break; }
		return -1;
	}
	jp->depth--;
	return 0;
}

static int parse_word(struct jparser *jp, const char *w, enum jval_type t, struct jval *v)
{
	size_t n = strlen(w);
	if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, w, n))
		return -1;
	jp->p += n;
	v->type = t;
	return 0;
}

static int parse_value(struct jparser *jp, struct jval *v)
{
	skip_ws(jp);
	if (jp->p >= jp->end)
		return -1;
	switch (*jp->p) {
	case '{': return parse_container(jp, v, 1);
	case '[': return parse_container(jp, v, 0);
	case '"':
		v->type = JV_STR;
		return parse_string(jp, &v->s, &v->len);
	case 't': return parse_word(jp, "true", JV_TRUE, v);
	case 'f': return parse_word(jp, "false", JV_FALSE, v);
	case 'n': return parse_word(jp, "null", JV_NULL, v);
	default: return parse_number(jp, v);
	}
}

static void release(struct jval *v)
{
	for (size_t i = 0; i < v->n; i++) {
		release(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->keylens);
	free(v->s);
}

void jval_free(struct jval *v)
{
	if (!v)
		return;
	release(v);
	free(v);
}

struct jval *jval_parse(const char *text, size_t len)
{
	struct jparser jp = { text, text + len, 0 };
	struct jval *v = xcalloc(1, sizeof(*v));

	if (parse_value(&jp, v)) {
		jval_free(v);
		return NULL;
	}
	skip_ws(&jp);
	if (jp.p != jp.end) {
		jval_free(v);
		return NULL;
	}
	return v;
}

const struct jval *jval_get(const struct jval *v, const char *key)
{
	size_t kl = strlen(key);

	if (!v || v->type != JV_OBJ)
		return NULL;
	for (size_t i = v->n; i-- > 0; )
		if (v->keylens[i] == kl && !memcmp(v->keys[i], key, kl))
			return &v->kids[i];
	return NULL;
}
