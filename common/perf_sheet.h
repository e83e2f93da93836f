/*
 * perf_sheet: TraceLens's per-category perf-model sheets (GEMM,
 * SDPA_fwd, SDPA_bwd, CONV_fwd, UnaryElementwise, ..., spec core §4.7 and
 * perf_model §4) and the perf-model columns of unified_perf_summary, from a
 * perf_tree, the op table and common/perfmodel; with an arch, the roofline
 * columns too.
 *
 *	struct perf_sheet *ps = perf_sheet_new(pr, arch_or_NULL);
 *	pr->perf_cols = perf_sheet_unified_cols; pr->perf_ctx = ps;
 *	for (i = 0; (name = perf_sheet_name(ps, i)); i++)
 *		perf_sheet_write(ps, name, sheet);
 *	perf_sheet_free(ps);
 *
 * perf_sheet_name() lists, in op-table order, the sheets TraceLens writes
 * for this trace (the non-empty ones).  Rows are every event whose name
 * is in the sheet's op list (not only leaf ops); *_bwd sheets take the
 * forward events' linked backward kernels.  Events whose model fails are
 * left out, with a count on stderr, as TraceLens does.
 */
#ifndef TL_PERF_SHEET_H
#define TL_PERF_SHEET_H

#include "perf_arch.h"
#include "perf_report.h"

struct perf_sheet;

struct perf_sheet *perf_sheet_new(struct perf_report *pr, const struct perf_arch *arch);
void perf_sheet_free(struct perf_sheet *ps);
const char *perf_sheet_name(struct perf_sheet *ps, size_t i);
/* 1 if name is a per-category sheet some ops.tsv row leads to, without
 * building anything (for checking -s options before reading input) */
int perf_sheet_exists(const struct perf_ops *db, const char *name);
/* Calls fn for every per-category sheet name of the table, in order. */
void perf_sheet_each_name(const struct perf_ops *db, void (*fn)(const char *name));
/* 0, or -1 for an unknown name */
int perf_sheet_write(struct perf_sheet *ps, const char *name, struct sheet *sh);

/* perf_report's unified_perf_summary hook (ctx is the perf_sheet) */
void perf_sheet_unified_cols(const struct perf_tree *tp, const struct unirow *row,
			    struct perfcols *out, void *ctx);

#endif
