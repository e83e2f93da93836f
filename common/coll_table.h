/*
 * coll_table: NcclAnalyser's long table (build_df_long, spec §3.1-3.2):
 * every collective kernel of every rank as a row of Python values, ranks
 * in ascending order and each rank's kernels in file order, with the
 * message sizes, the simplified-mode decision, index_in_group and
 * collective_id.  The reduce's sheets (coll_sheets.c) are built from it.
 *
 *	struct coll_table t;
 *	if (coll_table_build(&t, ranks, nranks, sp) < 0) ...   message printed
 *	t.row[i].c[COLL_C_TS], t.dt[COLL_C_TS], t.cid[k] ...
 *	coll_table_release(&t);
 *
 * A rank is its stream's #rank, else its position in the list; two
 * streams of one rank are an error.  Columns hold pandas' types: a column
 * of ints with a missing cell is float64 and so on (coll_value.h).
 * Memory: one row per collective.
 */
#ifndef TL_COLL_TABLE_H
#define TL_COLL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "coll_stream.h"
#include "coll_value.h"

struct strpool;

/* The columns of nccl_long, in its order. */
enum coll_col {
	COLL_C_CID, COLL_C_INDEX, COLL_C_RANK, COLL_C_PG_NAME, COLL_C_PG_RANKS,
	COLL_C_COLL_NAME, COLL_C_GROUP_SIZE, COLL_C_DTYPE, COLL_C_IN_NELEMS,
	COLL_C_IN_MB, COLL_C_OUT_NELEMS, COLL_C_OUT_MB, COLL_C_IN_SPLIT,
	COLL_C_OUT_SPLIT, COLL_C_STREAM, COLL_C_TS, COLL_C_DUR, COLL_NCOLS
};
extern const char *const coll_col_name[COLL_NCOLS];

struct coll_row {
	struct cv c[COLL_NCOLS];
	uint32_t file;		/* index of the rank stream it came from */
	uint32_t cid;		/* index into coll_table.cids */
	uint64_t uid;
	const char *kernel;	/* kernel name */
};

/* One collective instance: its rows on the ranks, in rank order. */
struct coll_cid {
	const char *id;
	size_t *rows, n;
};

struct coll_table {
	struct coll_row *row;
	size_t n;
	enum cv_dtype dt[COLL_NCOLS];
	int simplified;
	struct coll_cid *cids;	/* in order of first appearance */
	size_t ncids;
	const struct coll_rank *ranks;	/* the streams, in rank order */
	size_t nranks;
	long *rank_of;		/* rank of each stream */
	size_t bad_nelems;	/* rows whose nelems could not be used */
	struct strpool *sp;
};

/*
 * Sorts ranks[] into rank order (which the caller keeps while t is used)
 * and builds the table.  0, or -1 (message printed).
 */
int coll_table_build(struct coll_table *t, struct coll_rank *ranks, size_t nranks,
		     struct strpool *sp);
void coll_table_release(struct coll_table *t);
/* The stream a row came from, for messages. */
const char *coll_table_file(const struct coll_table *t, const struct coll_row *r);

#endif
