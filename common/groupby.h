/*
 * groupby: pandas' groupby(sort=False, dropna=False) on string keys —
 * groups numbered in order of first appearance, each with the rows that
 * fell into it, in input order.
 *
 *	struct groupby *g = groupby_new();
 *	for each row r: groupby_add(g, key, keylen, r);
 *	for (gi = 0; gi < groupby_count(g); gi++) {
 *		size_t n; const size_t *rows = groupby_rows(g, gi, &n);
 *		... groupby_key(g, gi) ...
 *	}
 *	groupby_free(g);
 *
 * Build a key of several columns by joining their str() with a byte that
 * cannot occur in them (GROUPBY_SEP).  For pandas' default sort=True,
 * sort the group indices by key afterwards (groupby_sorted).
 */
#ifndef TL_GROUPBY_H
#define TL_GROUPBY_H

#include <stddef.h>

#define GROUPBY_SEP '\x1f'

struct groupby;

struct groupby *groupby_new(void);
void groupby_free(struct groupby *g);
/* Adds row to the group of key; returns the group index. */
size_t groupby_add(struct groupby *g, const char *key, size_t len, size_t row);
size_t groupby_count(const struct groupby *g);
const size_t *groupby_rows(const struct groupby *g, size_t gi, size_t *n);
const char *groupby_key(const struct groupby *g, size_t gi);
/*
 * Group indices ordered by key bytes (memcmp, as Python compares str of
 * ASCII); the caller frees the array.
 */
size_t *groupby_sorted(const struct groupby *g);

#endif
