/*
 * pftrace_report: TraceLens's three reports on a Perfetto-style
 * traceEvents JSON (rocprofv3 --output-format pftrace after `traceconv
 * json`; spec diff-collectives §4.2), from the event stream tl-cat writes
 * for it:
 *
 *   HIP activity      category_summary, xla_top, kernel_summary, hip_summary
 *                     and the Markdown report
 *                     (pftrace_hip_activity_analysis.py)
 *   HIP API ↔ kernel  api_kernel_summary: T = A + Q + K per launch
 *                     (pftrace_hip_api_analysis.py)
 *   memory copies     memory_copy_by_copy_bytes
 *                     (generate_perf_report_pftrace_memory_copy.py)
 *
 *	struct pftrace_opts o;  pftrace_opts_default(&o);
 *	struct pftrace_report *r = pftrace_report_read(path, &o);  NULL: reported
 *	for (i = 0; (name = pftrace_report_sheet(r, i)); i++)
 *		pftrace_report_write(r, name, sheet);          0, -1 unknown sheet
 *	pftrace_report_markdown(r, ob);
 *	rc = pftrace_report_failed(r);  a report TraceLens would stop on
 *	pftrace_report_free(r);
 *
 * The events are read as TraceLens reads the JSON dicts: every value goes
 * through Python's int() where TraceLens calls it (floats truncated,
 * numeric strings accepted), the event's ts/dur are microseconds unless
 * args carries begin_ns/delta_ns, names are matched with re's Unicode
 * rules.  Where TraceLens's int() would raise, that report stops with a
 * message naming the event and writes no sheet; the others still run.
 */
#ifndef TL_PFTRACE_REPORT_H
#define TL_PFTRACE_REPORT_H

#include <stdint.h>

#include "outbuf.h"
#include "sheet.h"

enum { PF_GROUP_NAME, PF_GROUP_STREAM, PF_GROUP_OP, PF_GROUP_STREAM_OP };

struct pftrace_opts {
	/* HIP activity (generate_perf_report_pftrace_hip_activity) */
	int merge_kernels;
	int64_t min_tid, max_tid, min_event_ns;
	int kernel_summary, include_rccl, baseline_compute, group_by_name;
	int hip_summary, hip_group;
	long top_xla, kernel_top, hip_top;
	/* HIP API (generate_perf_report_pftrace_hip_api) */
	const char *exclude_re;		/* NULL or "": exclude nothing */
	int allow_multi, include_nonlaunch;
};

struct pftrace_report;

void pftrace_opts_default(struct pftrace_opts *o);
/* 0, or -1 with a message if re is a regex tl cannot run */
int pftrace_check_regex(const char *re);
struct pftrace_report *pftrace_report_read(const char *path, const struct pftrace_opts *o);
const char *pftrace_report_sheet(struct pftrace_report *r, size_t i);
int pftrace_report_write(struct pftrace_report *r, const char *sheet, struct sheet *sh);
/* The HIP activity Markdown report; -1 if that report failed. */
int pftrace_report_markdown(struct pftrace_report *r, struct outbuf *ob);
int pftrace_report_failed(const struct pftrace_report *r);
void pftrace_report_free(struct pftrace_report *r);

#endif
