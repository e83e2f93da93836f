/*
 * idle_launch: kernel launch statistics of one rank: HTA's
 * get_cuda_kernel_launch_stats, the summary HTA only plots, and
 * TraceLens's T = A + Q + K table (api_kernel_summary) for PyTorch traces.
 *
 * A launch pairs a CPU row (no stream) with a GPU row (a stream) of the
 * same correlation, where the correlation is one of a launch call's:
 * HTA's cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync,
 * cudaMemsetAsync and MTIA's runFunction, plus (tl) the other launch
 * calls HTA itself lists for the queue length (cuLaunchKernel[Ex],
 * hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyAsync,
 * hipMemsetAsync, hipMemcpyWithStream), which HTA's launch statistics
 * leave out so that a ROCm trace or a Triton launch has no rows.  Pairs
 * come in pandas' inner-merge order: CPU rows in frame order, each with
 * its GPU rows in frame order.
 *
 *	cpu duration   the launch call's duration (TraceLens's A)
 *	gpu duration   the kernel's duration (K)
 *	launch delay   kernel start - launch call end, 0 if negative (Q)
 */
#ifndef TL_IDLE_LAUNCH_H
#define TL_IDLE_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

struct idle_set;
struct idle_trace;
struct outbuf;

struct idle_launch {
	int64_t corr;
	double cpu_dur, gpu_dur, delay;	/* µs */
	size_t cpu_row, gpu_row;	/* rows of the trace */
};

/* The rank's launches; *n set, array to free. */
struct idle_launch *idle_launches(struct idle_set *set, const struct idle_trace *t, size_t *n);

/* The thresholds of HTA's launch plots (runtime_cutoff, launch_delay_cutoff). */
#define IDLE_RUNTIME_CUTOFF 50
#define IDLE_LAUNCH_DELAY_CUTOFF 100

/* launch_summary.csv: header, and the row of one rank. */
void idle_launch_summary_header(struct outbuf *ob);
void idle_launch_summary_row(struct outbuf *ob, long rank, const struct idle_launch *l,
			     size_t n);

/* api_kernel_summary.csv (TraceLens's layout), for one rank. */
void idle_api_kernel_summary(struct outbuf *ob, struct idle_set *set, const struct idle_trace *t,
			     const struct idle_launch *l, size_t n);

#endif
