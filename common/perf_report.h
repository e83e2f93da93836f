/*
 * perf_report: the host-op sheets of TraceLens's perf report (spec core
 * §4.5-§4.9), written from a perf_tree with the exact columns, cell text and
 * row order TraceLens's CSVs have.
 *
 *	struct perf_report *pr = perf_report_new(tp);
 *	pr->short_us = 10; pr->bins = 100; pr->topk = -1;
 *	perf_report_write(pr, "ops_summary", sheet);     0, or -1: unknown sheet
 *	perf_report_free(pr);
 *
 * Sheet names (perf_report_names): ops_summary, ops_summary_by_category,
 * ops_unique_args, ops_unique_args_kl_overlap, unified_perf_summary,
 * unified_perf_summary_kl_overlap, kernel_summary, short_kernel_histogram,
 * short_kernels_summary.  perf_report_wanted() says whether TraceLens
 * writes a sheet for this trace (§4.2: GPU-only traces get only the kernel
 * and short-kernel sheets; kernel_summary only when there are kernels; the
 * _kl_overlap sheets only after perf_tree_overlap()).  Options
 * (num_kernels, call_stack, first_occurrence, and the tree's python, rc
 * and overlap data) add TraceLens's columns.
 *
 * Perf-model hook: unified_perf_summary's GFLOPS, Data Moved (MB),
 * FLOPS/Byte, Compute Spec, TB/s_*, TFLOPS/s_* and perf_params columns come
 * from pr->perf_cols (NULL: every row "no model", empty cells).  It is
 * called once per unified row before grouping and fills a struct
 * perfcols; the row's Kernel Time (µs) stays the busy time of its GPU
 * events unless the hook sets kernel_us.
 */
#ifndef TL_PERF_REPORT_H
#define TL_PERF_REPORT_H

#include "sheet.h"
#include "perf_tree.h"

struct perfcols {
	int has;		/* 0: no model, all cells empty */
	int drop;		/* 1: leave the row out (TraceLens's model raised
				 * NotImplementedError, TP:2170-2172) */
	double gflops, data_mb, flops_per_byte, tbps, tflops;	/* NaN = empty */
	const char *compute_spec;	/* interned (pm_text), NULL = empty */
	const char *perf_params;	/* repr of the params dict, interned; NULL = empty */
	double kernel_us;	/* NaN: keep the busy time */
	/* roofline (tl-perf --arch): has_rl 0 leaves the cells empty; any
	 * row with one adds the Roofline columns to the sheet */
	int has_rl;
	double rl_time_us, rl_pct;
	const char *rl_bound;	/* static string */
};

struct perf_report {
	struct perf_tree *tp;
	double short_us;	/* short-kernel threshold, strict < (default 10) */
	int bins;		/* histogram bins (100) */
	long topk;		/* head() of short_kernels_summary, -1 = all */
	/* TraceLens's report options */
	int num_kernels;	/* --group_by_num_kernels: ops_unique_args and the
				 * per-category sheets group by kernel count too */
	int call_stack;		/* --include_call_stack: entry_point and
				 * call_stack_full in unified_perf_summary (with
				 * tp->python) */
	int first_occurrence;	/* --include_first_occurrence_time */
	double micro_us;	/* gpu_timeline's micro idle threshold, -1: none */
	struct perf_compare *compare;	/* --comparison_json_path: TraceDiff's
				 * diff_stats, for unified_perf_summary's speedup,
				 * delta and LCA columns (common/perf_compare.h) */
	void (*perf_cols)(const struct perf_tree *tp, const struct unirow *row,
			  struct perfcols *out, void *ctx);
	void *perf_ctx;
	char **repr;		/* strpool id → tuple repr of the JSON, lazily */
	size_t nrepr;
	/* TraceLens's inference report (generate_perf_report_pytorch_inference):
	 * ops_summary and ops_summary_by_category in their *_module form */
	int inference;
	/* --group_by_parent_module: parent_module and call_stack columns */
	int parent_module;
	char **cstack, **pmodule;	/* per launcher, lazily (perf_callstack) */
};

extern const char *const perf_report_names[];
struct perf_report *perf_report_new(struct perf_tree *tp);
void perf_report_free(struct perf_report *pr);
int perf_report_known(const char *sheet);
int perf_report_wanted(const struct perf_report *pr, const char *sheet);
int perf_report_write(struct perf_report *pr, const char *sheet, struct sheet *sh);

/*
 * ops_unique_args's groups in its row order (total direct kernel time,
 * descending): each group's ex_UID and operation_count (tl-replay --top).
 * Returns the number of groups; the arrays are malloc'd.
 */
size_t perf_report_unique_groups(struct perf_report *pr, uint32_t **exuid, size_t **count);

/*
 * TraceLens's _summarize_kernel_stats over nrows kernel lists (GPU event
 * uids), for other sheets that print kernel details (common/perfsheet):
 * appends the summary cell to full and trunc_kernel_details to trunc.
 */
struct pystr;
void perf_report_kernel_cells(const struct perf_report *pr, uint32_t *const *lists,
			     const uint32_t *lens, size_t nrows,
			     struct pystr *full, struct pystr *trunc);

/*
 * The overlap cells of n grouped rows (kl_overlap sheets):
 * overlapping_kernels_details summary and trunc cell, then overlap_pct
 * mean, median, std, min, max (round2: rounded to 2 decimals, a missing std
 * 0.0 where there is a mean, as the per-category and unified sheets do).
 */
void perf_report_overlap_cells(struct sheet *sh, const struct overlap_info *const *ov, size_t n,
			       int round2);
/* the overlap_info of an op without overlaps (all None) */
const struct overlap_info *perf_report_no_overlap(void);

#endif
