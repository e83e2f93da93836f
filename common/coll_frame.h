/*
 * coll_frame: a small table of Python values with pandas' typing, built
 * the way NcclAnalyser builds its DataFrames — a row at a time from a dict
 * whose keys become columns in order of first appearance — and written
 * as DataFrame.to_csv(index=False) writes it.
 *
 *	struct coll_frame f;
 *	coll_frame_init(&f, sp);
 *	coll_frame_addrow(&f);                  a row of missing (NaN) cells
 *	coll_frame_set(&f, "comm_latency", cv_int(40));   into the last row
 *	coll_frame_infer(&f);                   DataFrame(rows): dtypes, casts
 *	coll_frame_select(&f, names, n);        df[names]
 *	coll_frame_take(&f, perm, n);           df.iloc[perm]
 *	coll_frame_write_csv(&f, "DIR/x.csv");  -1 (message printed) on error
 *	coll_frame_release(&f);
 *
 * A key a row does not set is NaN in that row, as pandas fills it.  A
 * frame with no columns is written as one empty line, as pandas writes
 * an empty DataFrame.  Memory: one struct cv per cell.
 */
#ifndef TL_COLL_FRAME_H
#define TL_COLL_FRAME_H

#include <stddef.h>

#include "coll_value.h"
#include "hmap.h"

struct strpool;

struct coll_frame_col {
	const char *name;	/* interned */
	enum cv_dtype dt;
	struct cv *v;		/* nrows cells */
	size_t alloc;
};

struct coll_frame {
	struct strpool *sp;
	struct coll_frame_col *col;
	size_t ncols, acols, nrows;
	struct hmap index;	/* name id + 1 → column */
};

void coll_frame_init(struct coll_frame *f, struct strpool *sp);
void coll_frame_release(struct coll_frame *f);
void coll_frame_addrow(struct coll_frame *f);
void coll_frame_set(struct coll_frame *f, const char *name, struct cv v);
/* Index of the column, or -1. */
long coll_frame_find(const struct coll_frame *f, const char *name);
/* Appends (or replaces) a whole column of nrows cells, copied. */
void coll_frame_put_col(struct coll_frame *f, const char *name, const struct cv *v);
void coll_frame_infer(struct coll_frame *f);
/* dst (initialised, empty) = a copy of src's rows and columns */
void coll_frame_copy(struct coll_frame *dst, const struct coll_frame *src);
/* Keeps the named columns that exist, in the given order. */
void coll_frame_select(struct coll_frame *f, const char *const *names, size_t n);
/* Keeps the columns whose name starts with prefix (keep=1) or the others. */
void coll_frame_filter_prefix(struct coll_frame *f, const char *prefix, int keep);
void coll_frame_take(struct coll_frame *f, const size_t *rows, size_t n);
int coll_frame_write_csv(const struct coll_frame *f, const char *path);

static inline struct cv *coll_frame_cell(const struct coll_frame *f, size_t col, size_t row)
{
	return &f->col[col].v[row];
}

#endif
