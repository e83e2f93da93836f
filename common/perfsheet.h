/*
 * perfsheet: TraceLens's per-category perf-model sheets (GEMM,
 * SDPA_fwd, SDPA_bwd, CONV_fwd, UnaryElementwise, ..., spec core §4.7 and
 * perfmodel §4) and the perf-model columns of unified_perf_summary, from a
 * treeperf, the op table and common/perfmodel; with an arch, the roofline
 * columns too.
 *
 *	struct perfsheet *ps = perfsheet_new(pr, arch_or_NULL);
 *	pr->perf_cols = perfsheet_unified_cols; pr->perf_ctx = ps;
 *	for (i = 0; (name = perfsheet_name(ps, i)); i++)
 *		perfsheet_write(ps, name, sheet);
 *	perfsheet_free(ps);
 *
 * perfsheet_name() lists, in op-table order, the sheets TraceLens writes
 * for this trace (the non-empty ones).  Rows are every event whose name
 * is in the sheet's op list (not only leaf ops); *_bwd sheets take the
 * forward events' linked backward kernels.  Events whose model fails are
 * left out, with a count on stderr, as TraceLens does.
 */
#ifndef TL_PERFSHEET_H
#define TL_PERFSHEET_H

#include "arch.h"
#include "perfreport.h"

struct perfsheet;

struct perfsheet *perfsheet_new(struct perfreport *pr, const struct arch *arch);
void perfsheet_free(struct perfsheet *ps);
const char *perfsheet_name(struct perfsheet *ps, size_t i);
/* 1 if name is a per-category sheet some ops.tsv row leads to, without
 * building anything (for checking -s options before reading input) */
int perfsheet_exists(const struct opdb *db, const char *name);
/* Calls fn for every per-category sheet name of the table, in order. */
void perfsheet_each_name(const struct opdb *db, void (*fn)(const char *name));
/* 0, or -1 for an unknown name */
int perfsheet_write(struct perfsheet *ps, const char *name, struct sheet *sh);

/* perfreport's unified_perf_summary hook (ctx is the perfsheet) */
void perfsheet_unified_cols(const struct treeperf *tp, const struct unirow *row,
			    struct perfcols *out, void *ctx);

#endif
