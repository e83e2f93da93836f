/*
 * frame: the few pandas DataFrame behaviours that decide what a compared
 * report looks like: how read_csv types a column, outer merges, stable
 * descending sorts, and how to_csv writes each type back.
 *
 * HowTo:
 *
 *	struct csv c;  csv_read(&c, path);       keep c while f is used:
 *	struct pd_frame f; pd_frame_from_csv(&f, &c);  text cells point into c
 *	pd_frame_merge_outer(&m, &a, &b, keys, nkeys);
 *	pd_frame_write_csv(&m, ob);
 *	pd_frame_release(&f); csv_release(&c);
 *
 * Typing is read_csv's: a cell that is a pandas NA token ("", "NaN",
 * "None", "NULL", "N/A", ...) is missing; a column whose other cells are
 * all integers is COL_INT, or COL_FLOAT when it also has missing cells;
 * all numbers (or all missing) is COL_FLOAT, every cell read with
 * pandas' own float parser (pd_frame_parse_float); all True/False is COL_BOOL
 * (COL_OBJ with missing cells); anything else is COL_OBJ, whose cells keep
 * their text exactly.  A FLOAT cell is never NaN: NaN is CELL_NA.
 *
 * Writing is to_csv's: COL_INT prints integers, COL_FLOAT prints every
 * value as Python's repr(float) (so an integer becomes "7.0"), COL_BOOL
 * "True"/"False", missing cells are empty, text is quoted minimally.
 */
#ifndef TL_PD_FRAME_H
#define TL_PD_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "csv.h"
#include "outbuf.h"

enum cell_kind { CELL_NA, CELL_INT, CELL_FLOAT, CELL_BOOL, CELL_STR };
enum col_type { COL_INT, COL_FLOAT, COL_BOOL, COL_OBJ };

struct cell {
	unsigned char kind;	/* enum cell_kind */
	union {
		int64_t i;
		double d;
		int b;
	} v;
	const char *s;		/* CELL_STR text (not NUL-terminated) */
	size_t n;
};

struct pd_frame_col {
	char *name;		/* owned */
	enum col_type type;
	struct cell *v;		/* nrows cells, owned */
};

struct pd_frame {
	size_t ncols, nrows, acols;
	struct pd_frame_col *col;
};

void pd_frame_from_csv(struct pd_frame *f, const struct csv *c);
void pd_frame_release(struct pd_frame *f);
long pd_frame_find(const struct pd_frame *f, const char *name);
/* Removes the column called name; nothing happens if there is none. */
void pd_frame_drop(struct pd_frame *f, const char *name);
/* Appends a column; takes ownership of name and v (nrows cells). */
void pd_frame_add(struct pd_frame *f, char *name, enum col_type type,
	       struct cell *v);
/* Keeps the columns order[0..n) in that order and frees the others. */
void pd_frame_select(struct pd_frame *f, const size_t *order, size_t n);
/*
 * out = the rows rows[0..n) of in (a row may repeat; rows[i] < 0 is a row
 * of missing cells, which turns COL_INT into COL_FLOAT and COL_BOOL into
 * COL_OBJ, as pandas' reindexing does).
 */
void pd_frame_take(struct pd_frame *out, const struct pd_frame *in, const long *rows,
		size_t n);
/*
 * pd.merge(l, r, on=keys, how="outer") with keys first: rows come in
 * ascending key order (missing keys last, per key), equal keys give the
 * product of both sides' rows, left-major, each side in its own order.
 * Columns: keys, l's other columns, r's other columns.  Every key must
 * exist in both frames.
 */
void pd_frame_merge_outer(struct pd_frame *out, const struct pd_frame *l,
		       const struct pd_frame *r, char *const *keys, size_t nkeys);
/*
 * The row order of sort_values(col, ascending=False, na_position="last")
 * with a stable sort: ties and missing cells keep their order.  perm must
 * hold f->nrows entries.
 */
void pd_frame_order_desc(const struct pd_frame *f, size_t col, long *perm);
/* Orders cells as merge keys: numbers by value, text bytewise, NA last. */
int cell_cmp(const struct cell *a, const struct cell *b);
void pd_frame_write_csv(const struct pd_frame *f, struct outbuf *ob);
/*
 * pandas.read_csv's float parser (precise_xstrtod plus its "inf" words):
 * 1 and the value if all n bytes are one number, else 0.  Not always
 * correctly rounded, on purpose: pandas is not either.
 */
int pd_frame_parse_float(const char *s, size_t n, double *out);

/* Stable merge sort of idx[0..n) by cmp(a, b, ctx). */
void stable_sort(long *idx, size_t n,
		 int (*cmp)(long a, long b, const void *ctx), const void *ctx);

#endif
