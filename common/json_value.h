/*
 * json_value: a small JSON value tree, for the compact JSON that tl streams carry
 * in a column (args, Input Dims, ...).  Not for whole traces: it parses one
 * value held in memory.
 *
 *	struct json_value *v = json_value_parse(text, len);     NULL if not valid JSON
 *	const struct json_value *d = json_value_get(v, "Input Dims");
 *	if (d && d->type == JV_ARR) for (i = 0; i < d->n; i++) use d->kids[i];
 *	json_value_free(v);
 *
 * Strings are decoded (escapes, \u surrogate pairs → UTF-8) and
 * NUL-terminated in s/len.  Numbers keep their source text in s/len (so an
 * integer of any size prints back unchanged) and their value in num;
 * JV_INT is a number written without '.', 'e' or 'E' (a Python int after
 * json.loads), JV_FLOAT any other number (a Python float).  Objects keep
 * their keys in order, duplicates included (json_value_get returns the last, as
 * Python's json does).
 */
#ifndef TL_JSON_VALUE_H
#define TL_JSON_VALUE_H

#include <stddef.h>

enum json_value_type { JV_NULL, JV_FALSE, JV_TRUE, JV_INT, JV_FLOAT, JV_STR, JV_ARR, JV_OBJ };

struct json_value {
	enum json_value_type type;
	char *s;		/* JV_STR: decoded text; numbers: source text */
	size_t len;
	double num;		/* numbers */
	struct json_value *kids;	/* JV_ARR elements, JV_OBJ values */
	char **keys;		/* JV_OBJ keys (decoded), parallel to kids */
	size_t *keylens;
	size_t n;		/* number of kids */
};

struct json_value *json_value_parse(const char *text, size_t len);
void json_value_free(struct json_value *v);
/* The member named key of an object, or NULL (also when v is no object). */
const struct json_value *json_value_get(const struct json_value *v, const char *key);

#endif
