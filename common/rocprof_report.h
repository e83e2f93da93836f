/*
 * rocprof_report: TraceLens's rocprofv3 report sheets
 * (generate_perf_report_rocprof, spec diff-collectives §4.1) from an
 * event stream: kernels are the rows with cat "kernel", memory operations
 * those with cat "gpu_memcpy" or "gpu_memset", and the run's span comes
 * from "#top rocprofiler-sdk-tool.metadata" (init_time, fini_time), as
 * tl-cat writes them for a rocprofv3 results file.
 *
 *	struct rocprof_report *r = rocprof_report_read(path, &opts);  NULL: reported
 *	rocprof_report_write(r, "kernel_summary", sheet);             0, -1 unknown
 *	rocprof_report_free(r);
 *
 * Sheets (rocprof_report_names): gpu_timeline, kernel_summary,
 * kernel_summary_by_category, kernel_details, short_kernels_summary,
 * short_kernel_histogram.  Durations are TraceLens's: the records'
 * nanoseconds, recovered exactly from the stream's decimal microseconds,
 * and aggregated as nanoseconds in the columns labelled (µs) -- TraceLens
 * never calls its own _convert_timestamps_to_microseconds.  With
 * fix_units the durations are divided by 1000 first (that function
 * applied), so the labels hold; gpu_timeline is right either way.
 */
#ifndef TL_ROCPROF_REPORT_H
#define TL_ROCPROF_REPORT_H

#include "sheet.h"

struct rocprof_opts {
	double short_us;	/* short-kernel threshold, strict < (10) */
	long bins;		/* histogram bins (100) */
	long topk;		/* kernel_details rows, -1 = all */
	int fix_units;
};

struct rocprof_report;

extern const char *const rocprof_report_names[];
struct rocprof_report *rocprof_report_read(const char *path, const struct rocprof_opts *o);
void rocprof_report_free(struct rocprof_report *r);
int rocprof_report_write(struct rocprof_report *r, const char *sheet, struct sheet *sh);
/* TraceLens's _categorize_kernel: GEMM, Elementwise, ..., COMM, Other */
const char *rocprof_kernel_category(const char *name);
/*
 * A decimal microsecond text ("63857982594.84") as integer nanoseconds,
 * exact up to three decimals (more are rounded); -1 if it is no number.
 */
int rocprof_us_to_ns(const char *s, int64_t *ns);

#endif
