/*
 * coll_group: pandas' df.groupby(keys).agg({...}) over a coll_frame, for
 * the collective report's summary sheets.
 *
 *	struct coll_group g;
 *	coll_group_by(&g, &f, keys, nkeys, 1);     dropna=True, sort=True
 *	coll_group_keys(&g, &f, &out);              the key columns (reset_index)
 *	coll_group_agg(&g, &f, "dur", "sum", &out, "dur_sum");
 *	coll_group_release(&g);
 *
 * Groups come out in pandas' sorted key order (numbers, then tuples, then
 * strings, per key column, lexicographically over the keys); each holds
 * its rows in frame order.  With dropna, rows with a missing key (None or
 * NaN) are in no group.  The aggregation names are pandas': sum, mean,
 * median, std, var, min, max, count, size, first, last, and "sum/1000"
 * (TraceLens's lambda x: x.sum() / 1000, a Series sum).
 */
#ifndef TL_COLL_GROUP_H
#define TL_COLL_GROUP_H

#include <stddef.h>

#include "coll_frame.h"

struct coll_group {
	size_t n;		/* groups */
	size_t *start;		/* group g's rows: row[start[g] .. start[g+1]) */
	size_t *row;
};

void coll_group_by(struct coll_group *g, const struct coll_frame *f,
		   const char *const *keys, size_t nkeys, int dropna);
void coll_group_release(struct coll_group *g);
/* Appends the key columns (first row of each group) to out, which has g->n rows. */
void coll_group_keys(const struct coll_group *g, const struct coll_frame *f,
		     const char *const *keys, size_t nkeys, struct coll_frame *out);
/*
 * Appends column name = agg(f[col]) per group to out.  0, or -1 for an
 * aggregation it does not know.
 */
int coll_group_agg(const struct coll_group *g, const struct coll_frame *f,
		   const char *col, const char *agg, struct coll_frame *out,
		   const char *name);
/* Is agg a name coll_group_agg knows? */
int coll_group_agg_known(const char *agg);

#endif
