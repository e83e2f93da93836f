/*
 * perf_ops: the op table share/tl/ops.tsv (tl-ops(5)) — which performance
 * model kind, category, backward category and per-category sheet each op
 * name has.  TraceLens keeps this in Python class attributes; tl keeps it
 * as data so that adding an op that fits an existing model is one line.
 *
 *	struct perf_ops *db = perf_ops_load(NULL);         share/tl/ops.tsv
 *	const struct perf_ops_entry *e = perf_ops_lookup(db, "aten::addmm");
 *	if (e && strcmp(e->kind, "none")) ... e->sheet, e->options ...
 *	const char *cat = perf_ops_categorize(db, name, first_kernel_or_NULL);
 *	perf_ops_free(db);
 *
 * Every field of an entry is a NUL-terminated string owned by the db;
 * a '-' in the table is kept as "-" (no bwd category, no sheet, no
 * options).
 */
#ifndef TL_PERF_OPS_H
#define TL_PERF_OPS_H

#include <stddef.h>

struct perf_ops;

/* profiler args a model reads without a fallback (share/tl/ops-args.tsv) */
enum { PM_REQ_DIMS = 1, PM_REQ_TYPES = 2, PM_REQ_STRIDES = 4, PM_REQ_CONCRETE = 8 };

struct perf_ops_entry {
	const char *name, *kind, *category, *bwd_category, *sheet, *options;
	unsigned req;		/* PM_REQ_* of the row's TraceLens class */
};

/*
 * Loads the table at path, or with path NULL the share/tl/ops.tsv found
 * by tl_share_path() (common/share.h).  Dies with "FILE:LINE: what" if
 * the file is missing or malformed (wrong field count, unknown kind,
 * duplicate name).  The args each row's TraceLens class needs (req) come
 * from ops-args.tsv beside the table (or share/tl's), by class= option.
 */
struct perf_ops *perf_ops_load(const char *path);
/*
 * Adds the rows of another table in the same format (tl-report
 * --extension-file): a name already in the table is replaced where it
 * stands, a new one is appended (Python's dict.update on TraceLens's op
 * map).  Dies on a malformed file like perf_ops_load.
 */
void perf_ops_extend(struct perf_ops *db, const char *path);
void perf_ops_free(struct perf_ops *db);

/* Exact name first, then prefix patterns ("triton_poi_*") in table order;
 * NULL if none matches. */
const struct perf_ops_entry *perf_ops_lookup(const struct perf_ops *db, const char *name);

/*
 * TraceLens categorize_torch_op (spec core §4.3): the category of an
 * exact table name (category-only rows included); else "triton" for
 * names starting with "triton", "record_param_comms" for names starting
 * so; else from the op's first kernel name when it starts with
 * "void at::native": "elementwise", "reduce" or "multi_tensor_apply" if
 * it contains that word (in that order); else "other".  The returned
 * string is static or owned by the db.
 */
const char *perf_ops_categorize(const struct perf_ops *db, const char *op_name,
			    const char *first_kernel_name);

/* All rows in table order, for building per-sheet op lists. */
size_t perf_ops_count(const struct perf_ops *db);
const struct perf_ops_entry *perf_ops_at(const struct perf_ops *db, size_t i);

/*
 * The value of option key in an options string ("a=0 b=1 bias=yes"),
 * as a pointer into it and its length in *len; NULL if absent.
 */
const char *perf_ops_opt(const char *options, const char *key, size_t *len);

#endif
