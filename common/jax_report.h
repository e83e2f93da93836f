/*
 * jax_report: TraceLens's JAX performance report (generate_perf_report_jax,
 * JaxTreePerfAnalyzer; spec diff-collectives §4.3) from the event stream
 * tl-cat writes for an .xplane.pb: the same events TraceLens reads from
 * xprof's trace viewer, and the #top hlo_module.* texts standing in for
 * xprof's graph viewer.
 *
 *	struct jax_report *r = jax_report_read(path, &opts);   NULL: reported
 *	for (i = 0; jax_report_sheet(r, i); i++)              the sheets it has
 *		jax_report_write(r, jax_report_sheet(r, i), sheet);
 *	jax_report_free(r);
 *
 * What TraceLens does, step by step (and so this module):
 *	UIDs number the events that are not metadata (ph "M"), in order;
 *	an event's category comes from its thread's name: "Framework Name
 *	Scope" or containing "py_xla" → cpu_op, "XLA Ops" → python function,
 *	"Stream..." → kernel, or memcpy/memset by a name starting copy/memcpy
 *	or memset; GPU events are those of processes named "/device:GPU...";
 *	a host event of pid 701 with args.correlation_id is the parent of every
 *	other event with that id (the last such host event wins), and gives a
 *	GPU event with args.hlo_op its HLO op (jax_hlo.h) from the module
 *	args.hlo_module names; kernels are categorised by name, then by hlo_op
 *	(GEMM, FA BWD, FA FWD, FA V3, Conv, TE, Communication rccl/nccl, else
 *	Uncategorized Events/XLA).
 * Sheets: gpu_timeline (one breakdown per GPU, in the order Python's set
 * of their pids iterates), gpu_events_averages, kernel_launchers,
 * kernel_launchers_summary, kernel_launchers_summary_by_category,
 * kernel_launchers_unique_args, df_xla_perf, xla_summary and op_<category>
 * for categories with a perf model (conv: TraceLens's jax_conv).
 */
#ifndef TL_JAX_REPORT_H
#define TL_JAX_REPORT_H

#include "sheet.h"

struct jax_opts {
	const char **keyword_filters;	/* kernel_metadata_keyword_filters, or NULL */
	size_t nfilters;
};

struct jax_report;

struct jax_report *jax_report_read(const char *path, const struct jax_opts *o);
void jax_report_free(struct jax_report *r);
/* The i-th sheet TraceLens writes for this trace, in its order; NULL past the end. */
const char *jax_report_sheet(struct jax_report *r, size_t i);
/* 0, or -1 for a sheet this report does not have */
int jax_report_write(struct jax_report *r, const char *sheet, struct sheet *sh);

#endif
