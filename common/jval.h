/*
 * jval: a small JSON value tree, for the compact JSON that tl streams carry
 * in a column (args, Input Dims, ...).  Not for whole traces: it parses one
 * value held in memory.
 *
 *	struct jval *v = jval_parse(text, len);     NULL if not valid JSON
 *	const struct jval *d = jval_get(v, "Input Dims");
 *	if (d && d->type == JV_ARR) for (i = 0; i < d->n; i++) use d->kids[i];
 *	jval_free(v);
 *
 * Strings are decoded (escapes, \u surrogate pairs → UTF-8) and
 * NUL-terminated in s/len.  Numbers keep their source text in s/len (so an
 * integer of any size prints back unchanged) and their value in num;
 * JV_INT is a number written without '.', 'e' or 'E' (a Python int after
 * json.loads), JV_FLOAT any other number (a Python float).  Objects keep
 * their keys in order, duplicates included (jval_get returns the last, as
 * Python's json does).
 */
#ifndef TL_JVAL_H
#define TL_JVAL_H

#include <stddef.h>

enum jval_type { JV_NULL, JV_FALSE, JV_TRUE, JV_INT, JV_FLOAT, JV_STR, JV_ARR, JV_OBJ };

struct jval {
	enum jval_type type;
	char *s;		/* JV_STR: decoded text; numbers: source text */
	size_t len;
	double num;		/* numbers */
	struct jval *kids;	/* JV_ARR elements, JV_OBJ values */
	char **keys;		/* JV_OBJ keys (decoded), parallel to kids */
	size_t *keylens;
	size_t n;		/* number of kids */
};

struct jval *jval_parse(const char *text, size_t len);
void jval_free(struct jval *v);
/* The member named key of an object, or NULL (also when v is no object). */
const struct jval *jval_get(const struct jval *v, const char *key);

#endif
