/*
 * sheet_order: the order TraceLens writes a report's sheets in (spec core
 * §4.2: its dict_name2df insertion order, which is also the XLSX tab
 * order), for tools that only see a folder of SHEET.csv files.
 *
 *	char *names[] = { "kernel_summary", "GEMM", "gpu_timeline", ... };
 *	sheet_order_sort(names, n);        TraceLens order, in place
 *
 * The order is: gpu_timeline, ops_summary_by_category, ops_summary,
 * ops_unique_args, ops_unique_args_kl_overlap, unified_perf_summary,
 * diff_stats, unified_perf_summary_kl_overlap; then the per-category
 * perf-model sheets in the order their category first appears in
 * share/tl/ops.tsv's sheet column (TraceLens iterates dict_cat2names,
 * built from op_to_perf_model_class_map in insertion order), for each
 * category C: C, C_fwd, C_bwd, each followed by its _kl_overlap variant;
 * then kernel_summary, short_kernel_histogram, short_kernels_summary,
 * coll_analysis; then the multi-rank collective report's sheets
 * (nccl_summary_implicit_sync, nccl_summary_long, nccl_summary_all2allv,
 * nccl_all2allv_heatmap, nccl_long, nccl_implicit_sync, nccl_all2allv,
 * straggler_summary); then every other name in byte order (extension sheets,
 * which TraceLens appends last).  Without ops.tsv (tl_share_path finds
 * none) the perf-model sheets count as other names; a malformed ops.tsv
 * dies as perf_ops_load does.  Equal names keep no particular order.
 */
#ifndef TL_SHEET_ORDER_H
#define TL_SHEET_ORDER_H

#include <stddef.h>

void sheet_order_sort(char **names, size_t n);

#endif
