/*
 * groupby: pandas' groupby(sort=False, dropna=False) on string keys —
 * groups numbered in order of first appearance, each with the rows that
 * fell into it, in input order.
 *
 *	struct pd_groupby *g = pd_groupby_new();
 *	for each row r: pd_groupby_add(g, key, keylen, r);
 *	for (gi = 0; gi < pd_groupby_count(g); gi++) {
 *		size_t n; const size_t *rows = pd_groupby_rows(g, gi, &n);
 *		... pd_groupby_key(g, gi) ...
 *	}
 *	pd_groupby_free(g);
 *
 * Build a key of several columns by joining their str() with a byte that
 * cannot occur in them (PD_GROUPBY_SEP).  For pandas' default sort=True,
 * sort the group indices by key afterwards (pd_groupby_sorted).
 */
#ifndef TL_PD_GROUPBY_H
#define TL_PD_GROUPBY_H

#include <stddef.h>

#define PD_GROUPBY_SEP '\x1f'

struct pd_groupby;

struct pd_groupby *pd_groupby_new(void);
void pd_groupby_free(struct pd_groupby *g);
/* Adds row to the group of key; returns the group index. */
size_t pd_groupby_add(struct pd_groupby *g, const char *key, size_t len, size_t row);
size_t pd_groupby_count(const struct pd_groupby *g);
const size_t *pd_groupby_rows(const struct pd_groupby *g, size_t gi, size_t *n);
const char *pd_groupby_key(const struct pd_groupby *g, size_t gi);
/*
 * Group indices ordered by key bytes (memcmp, as Python compares str of
 * ASCII); the caller frees the array.
 */
size_t *pd_groupby_sorted(const struct pd_groupby *g);

#endif
