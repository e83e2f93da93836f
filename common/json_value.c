#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_value.h"
#include "xalloc.h"
#include "banned.h"

/* Nesting deeper than tl-cat reads is refused rather than risking the C stack. */
#define JVAL_MAX_DEPTH JSON_MAX_DEPTH

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

/*
 * Decodes the string at jp->p (on the opening quote) into a new buffer.
 * The escapes are checked here; json_decode_string() (common/json.h),
 * shared with tl-cat, then decodes them.
 */
static int parse_string(struct jparser *jp, char **out, size_t *outlen)
{
	const char *start = ++jp->p, *p = start;

	while (p < jp->end && *p != '"')
		p += *p == '\\' && p + 1 < jp->end ? 2 : 1;
	if (p >= jp->end || json_string_check(start, (size_t)(p - start)) >= 0)
		return -1;
	/* decoded text is never longer than the source */
	*out = xmalloc((size_t)(p - start) + 1);
	*outlen = json_decode_string(start, (size_t)(p - start), *out);
	(*out)[*outlen] = '\0';
	jp->p = p + 1;
	return 0;
}

static int parse_value(struct jparser *jp, struct json_value *v);

static int parse_number(struct jparser *jp, struct json_value *v)
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

static int parse_container(struct jparser *jp, struct json_value *v, int obj)
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

static int parse_word(struct jparser *jp, const char *w, enum json_value_type t, struct json_value *v)
{
	size_t n = strlen(w);
	if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, w, n))
		return -1;
	jp->p += n;
	v->type = t;
	return 0;
}

static int parse_value(struct jparser *jp, struct json_value *v)
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

static void release(struct json_value *v)
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

void json_value_free(struct json_value *v)
{
	if (!v)
		return;
	release(v);
	free(v);
}

struct json_value *json_value_parse(const char *text, size_t len)
{
	struct jparser jp = { text, text + len, 0 };
	struct json_value *v = xcalloc(1, sizeof(*v));

	if (parse_value(&jp, v)) {
		json_value_free(v);
		return NULL;
	}
	skip_ws(&jp);
	if (jp.p != jp.end) {
		json_value_free(v);
		return NULL;
	}
	return v;
}

const struct json_value *json_value_get(const struct json_value *v, const char *key)
{
	size_t kl = strlen(key);

	if (!v || v->type != JV_OBJ)
		return NULL;
	for (size_t i = v->n; i-- > 0; )
		if (v->keylens[i] == kl && !memcmp(v->keys[i], key, kl))
			return &v->kids[i];
	return NULL;
}
