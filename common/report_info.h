/*
 * report_info: report_info.csv, the facts about a trace that a report's
 * reader needs first and the sheets do not hold: the trace, its GPU(s),
 * the roofline table used and its peaks, the event count and the span.
 * tl-perf --info writes it from the node stream; tl-html reads it.
 *
 *	report_info_write(ob, ns, arch, how, short_us);
 *
 * The sheet has the columns key,value, one fact a row, in this order
 * (tl-report(1) documents them):
 *
 *	trace            the trace's name (the stream's #source)
 *	device           deviceProperties[0].name, empty if the trace has none
 *	gpus             GPUs (pids) with GPU events
 *	events           traceEvents elements (rows of the event stream)
 *	gpu_events       kernels, memcpy and memset events
 *	kernels          kernel events
 *	trace_span_us    first start to last end of the timed events (host
 *	                 ops, runtime calls, Python frames, GPU events,
 *	                 annotations; µs)
 *	arch             the roofline table's name, empty if none was used
 *	arch_file        its file's name (without folders)
 *	arch_how         "auto" (matched the device name), "given" (--arch),
 *	                 or why none was used: "no match", "none"
 *	short_kernel_us  the short-kernel threshold of the short-kernel sheets
 *	mem_bw_gbps      the table's memory bandwidth (GB/s)
 *	peak_tflops:SPEC one row per Compute Spec the table has (TFLOPS/s)
 */
#ifndef TL_REPORT_INFO_H
#define TL_REPORT_INFO_H

#include "outbuf.h"
#include "perf_arch.h"
#include "tree_nodes.h"

void report_info_write(struct outbuf *ob, const struct tree_nodes *ns,
		       const struct perf_arch *arch, const char *how, double short_us);

#endif
