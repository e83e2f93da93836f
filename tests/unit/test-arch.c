/*
 * Unit tests for common/arch: the share/tl/arch tables, device-name
 * detection and TraceLens's roofline (spec perf_model §4.2).  Run with
 * TL_SHARE pointing at share/tl (tests/run.sh does).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf_arch.h"
#include "tap.h"

static void detect(const char *device, const char *want)
{
	struct perf_arch *a = perf_arch_detect(device);
	char what[160];

	snprintf(what, sizeof(what), "'%s' is %s", device, want ? want : "unknown");
	if (want)
		tap_str(a ? a->name : "(none)", want, what);
	else
		tap_ok(!a, what);
	perf_arch_free(a);
}

static void test_tables(void)
{
	static const char *const names[] = {
		"H100", "H200", "B200", "A100", "MI300X", "MI325X", "MI355X", "MI210", NULL
	};

	for (int i = 0; names[i]; i++) {
		struct perf_arch *a = perf_arch_load(names[i]);
		char what[96];
		snprintf(what, sizeof(what), "%s loads with bandwidth and a bf16 matrix peak", names[i]);
		tap_ok(a && !strcmp(a->name, names[i]) && a->mem_bw_gbps > 0 &&
		       perf_arch_peak(a, "matrix_bf16") > 0, what);
		perf_arch_free(a);
	}
}

static void test_roofline(void)
{
	struct perf_arch *a = perf_arch_load("MI300X");
	struct roofline rl;

	/* §4.2: bert addmm 141x30522x512 on MI300X: compute 6.2305 µs <
	 * memory 40067152 B / 5300 GB/s = 7.5598 µs; 7.5598 / 41.28 = 18.31 % */
	tap_ok(perf_arch_roofline(a, "matrix_bf16", 4411192050.0, 40067152, 1, 41.280029296875, &rl),
	       "addmm has a roofline");
	tap_ok(fabs(rl.time_us - 40067152 / 5300e9 * 1e6) < 1e-12, "roofline time is the memory time");
	tap_ok(!strcmp(rl.bound, "MEMORY_BOUND"), "addmm is memory bound");
	tap_ok(fabs(rl.pct - 18.3136) < 1e-4, "pct of roofline 18.31");
	/* 708e12 FLOP/s · 1 µs vs 5300 GB/s · 1 µs: equal times → compute */
	tap_ok(perf_arch_roofline(a, "matrix_bf16", 708e6, 5300e3, 1, 0, &rl) &&
	       !strcmp(rl.bound, "COMPUTE_BOUND") && isnan(rl.pct),
	       "a tie is COMPUTE_BOUND; no kernel time gives NaN pct");
	tap_ok(!perf_arch_roofline(a, "vector_fp8", 1e9, 1e6, 1, 1, &rl), "missing peak: no roofline");
	tap_ok(!perf_arch_roofline(a, "", 1e9, 1e6, 1, 1, &rl), "empty Compute Spec: no roofline");
	tap_ok(!perf_arch_roofline(a, "matrix_bf16", 0, 1e6, 1, 1, &rl), "zero FLOPs: no roofline");
	tap_ok(!perf_arch_roofline(a, "matrix_bf16", 1e9, 0, 0, 1, &rl), "unknown bytes: no roofline");
	tap_ok(perf_arch_peak(a, "matrix_fp4") != perf_arch_peak(a, "matrix_fp4"), "MI300X has no fp4 peak");
	perf_arch_free(a);
}

static void test_bad(void)
{
	char path[] = "/tmp/tl-arch-XXXXXX";
	int fd = mkstemp(path);
	const char *text = "name\tX\nmem_bw_gbps\tfast\n";
	struct perf_arch *a;

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		abort();
	close(fd);
	fflush(stderr);
	freopen("/dev/null", "w", stderr);
	a = perf_arch_load(path);
	tap_ok(!a, "a non-numeric value is refused");
	tap_ok(!perf_arch_load("NO_SUCH_GPU"), "an unknown name is refused");
	unlink(path);
}

int main(void)
{
	test_tables();
	detect("NVIDIA H100 80GB HBM3", "H100");
	detect("NVIDIA H200", "H200");
	detect("NVIDIA B200", "B200");
	detect("NVIDIA A100-SXM4-80GB", "A100");
	detect("AMD Instinct MI300X VF", "MI300X");
	detect("AMD Instinct MI325X", "MI325X");
	detect("AMD Instinct MI355X", "MI355X");
	detect("AMD Instinct MI210", "MI210");
	detect("Tesla V100-SXM2-16GB", NULL);
	detect("", NULL);
	test_roofline();
	test_bad();
	return tap_done();
}
