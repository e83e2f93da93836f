/*
 * arch: GPU roofline tables (share/tl/arch/NAME.tsv: peak TFLOPS per
 * Compute Spec and memory bandwidth, each number with its source) and
 * TraceLens's roofline (spec perf_model §4.2).
 *
 *	struct perf_arch *a = perf_arch_load("MI300X");       or a path to a .tsv file,
 *	                                                       or TraceLens's arch .json
 *	struct perf_arch *a = perf_arch_detect("NVIDIA H100 80GB HBM3");   NULL: none
 *	struct roofline rl;
 *	if (perf_arch_roofline(a, "matrix_bf16", flops, bytes, has_bytes, kernel_us, &rl))
 *		rl.time_us, rl.bound ("COMPUTE_BOUND"), rl.pct (NaN if kernel_us 0)
 *	perf_arch_free(a);
 *
 * perf_arch_load() prints "tl-x: NAME: what" and returns NULL when the table
 * is missing or malformed.  perf_arch_detect() picks the table whose "match"
 * string occurs in the device name (case-insensitive; the longest match
 * wins), as tl-report does with the trace's deviceProperties name.
 */
#ifndef TL_PERF_ARCH_H
#define TL_PERF_ARCH_H

struct perf_arch_peak {
	char *spec;		/* "matrix_bf16" */
	double tflops;
};

struct perf_arch {
	char *name;		/* "MI300X" */
	char *path;		/* the table it was read from */
	double mem_bw_gbps;	/* NaN if absent */
	struct perf_arch_peak *peak;
	int npeak;
	char **match;
	int nmatch;
};

struct roofline {
	double time_us;		/* max(compute, memory) */
	const char *bound;	/* "COMPUTE_BOUND" (ties too) or "MEMORY_BOUND" */
	double pct;		/* time_us / kernel_us * 100, NaN if kernel_us == 0 */
};

struct perf_arch *perf_arch_load(const char *name_or_path);
struct perf_arch *perf_arch_detect(const char *device_name);
void perf_arch_free(struct perf_arch *a);

/* Peak TFLOPS for a Compute Spec, NaN if the table has none. */
double perf_arch_peak(const struct perf_arch *a, const char *spec);

/*
 * TraceLens's rule: a roofline only when the spec has a peak, the table a
 * bandwidth, the bytes are known and flops > 0.  Returns 1 and fills *out,
 * else 0 (the roofline columns stay empty).
 */
int perf_arch_roofline(const struct perf_arch *a, const char *spec, double flops, double bytes,
		  int has_bytes, double kernel_us, struct roofline *out);

#endif
