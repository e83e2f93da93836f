/*
 * Unit tests for common/idle_kind (HTA's name rules) and common/pd_agg
 * (pandas' groupby kernels, numpy's quantile).  The expected values were
 * printed by HTA's own functions (hta.utils.utils.get_kernel_type,
 * shorten_name) and by pandas 1.5 / numpy 1.24 on this project's Debian 12:
 * see the comments.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idle_kind.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "py_fmt.h"
#include "tap.h"

static void ktype(const char *name, const char *want)
{
	char what[160];
	snprintf(what, sizeof(what), "kernel type of '%.100s'", name);
	for (char *p = what; *p; p++)
		if (*p == '\n')
			*p = '|';	/* one TAP line */
	tap_str(idle_ktype_name(idle_kernel_type(name, strlen(name))), want, what);
}

static void shorten(const char *name, const char *want)
{
	char *out = malloc(strlen(name) + 1), what[160];
	size_t n = idle_shorten_name(name, strlen(name), out);
	out[n] = 0;
	snprintf(what, sizeof(what), "shorten_name('%.100s')", name);
	tap_str(out, want, what);
	free(out);
}

static void num(double got, const char *want, const char *what)
{
	char buf[PY_FLOAT_MAX];
	py_float_repr(got, buf);
	tap_str(buf, want, what);
}

int main(void)
{
	/* get_kernel_type(name) */
	ktype("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
	      "COMMUNICATION");
	ktype("ncclDevKernel_Generic", "COMMUNICATION");
	ktype("void foo::ncclKernel_x<1>()", "COMMUNICATION");
	ktype("hipMemcpyAsync", "COMMUNICATION");	/* ^hip wins over memory */
	ktype("hccl_x", "COMMUNICATION");
	ktype("Memcpy HtoD (Pageable -> Device)", "MEMORY");
	ktype("Memset (Device)", "MEMORY");
	ktype("dma_copy", "MEMORY");
	ktype("void gemm<1>(int)", "COMPUTATION");
	ktype("ampere_sgemm_128x64_nn", "COMPUTATION");
	ktype("Event Sync", "OTHER");
	ktype("Context Sync", "OTHER");
	ktype("Stream Wait Event", "OTHER");
	ktype("cudaLaunchKernel", "OTHER");
	ktype("cudaFooLaunchKernelBar", "OTHER");
	ktype("fooMemcpybar", "OTHER");
	ktype("runFunction", "OTHER");
	ktype("collective_subgraph_execution_1", "OTHER");
	/* ".*X" does not cross a newline */
	ktype("cuda\nLaunchKernel", "COMPUTATION");
	ktype("foo\nncclKernel", "COMPUTATION");
	ktype("x\nSync", "COMPUTATION");

	/* shorten_name(name) */
	shorten("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
		"at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
		"at::detail::Array<char*, 1>)", "at::native::vectorized_elementwise_kernel");
	shorten("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
		"ncclKernel_AllReduce_RING_LL_Sum_float");
	shorten("Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pageable -> Device)");
	shorten("aten::mm", "aten::mm");
	shorten("a->b(x)", "ab");
	shorten("f<a>(b) g", "g");
	shorten("x>y)z", "x>y)z");
	shorten("-->a(b)", "-a");
	shorten("void (anonymous namespace)::k<1>()", "::k");

	/* groupby().sum()/mean()/std() of [0.1]*10 + [1e16, 1.0, -1e16, 3.3] */
	{
		double x[14];
		for (int i = 0; i < 10; i++)
			x[i] = 0.1;
		x[10] = 1e16;
		x[11] = 1.0;
		x[12] = -1e16;
		x[13] = 3.3;
		num(pd_group_sum(x, 14), "3.3", "Kahan sum as pandas' group_add");
		num(pd_group_mean(x, 14), "0.2357142857142857", "group_mean");
		num(pd_group_std(x, 14, 1), "3922322702763681.0", "group_var (Welford) then sqrt");
	}
	{
		double y[8] = { 3, 1, 4, 1, 5, 9, 2, 6 }, s[8] = { 1, 1, 2, 3, 4, 5, 6, 9 };
		num(pd_group_sum(y, 8), "31.0", "sum of 8");
		num(pd_group_mean(y, 8), "3.875", "mean of 8");
		num(pd_group_std(y, 8, 1), "2.748376143938713", "std of 8");
		/* Series.quantile(q) on the sorted values */
		num(np_quantile(s, 8, 0.25), "1.75", "quantile 0.25");
		num(np_quantile(s, 8, 0.5), "3.5", "quantile 0.5");
		num(np_quantile(s, 8, 0.75), "5.25", "quantile 0.75");
		num(np_quantile(s, 8, 0.8), "5.6000000000000005", "quantile 0.8 (b - d(1-g))");
		num(np_quantile(s, 8, 0.9), "6.8999999999999995", "quantile 0.9");
		num(np_quantile(s, 8, 0.99), "8.79", "quantile 0.99");
		num(np_quantile(s, 8, 1.0), "9.0", "quantile 1");
		num(np_quantile(s, 8, 0.0), "1.0", "quantile 0");
	}
	{
		double s[3] = { 0.1, 0.2, 0.7 };
		num(np_quantile(s, 3, 0.25), "0.15000000000000002", "quantile 0.25 of 3 (a + d g)");
		num(np_quantile(s, 3, 0.8), "0.5", "quantile 0.8 of 3");
		tap_ok(isnan(np_quantile(s, 0, 0.5)), "quantile of nothing is NaN");
		tap_ok(isnan(pd_group_std(s, 1, 1)), "std of one value is NaN");
		tap_ok(pd_group_sum(s, 0) == 0, "sum of nothing is 0");
	}
	/* astype(np.int64) on x86-64, as Debian 12's numpy 1.24 gives them */
	tap_ok(np_int64(1.9) == 1 && np_int64(-1.9) == -1, "np_int64 truncates toward zero");
	tap_ok(np_int64(9.2e18) == INT64_C(9200000000000000000), "np_int64 near the top");
	tap_ok(np_int64(-0x1p63) == INT64_MIN, "np_int64 of -2^63 is exact");
	tap_ok(np_int64(0x1p63) == INT64_MIN && np_int64(1e300) == INT64_MIN &&
	       np_int64(-1e300) == INT64_MIN, "np_int64 out of range: INT64_MIN");
	tap_ok(np_int64(INFINITY) == INT64_MIN && np_int64(-INFINITY) == INT64_MIN &&
	       np_int64(NAN) == INT64_MIN, "np_int64 of inf and NaN: INT64_MIN");
	/* np.int64 arithmetic wraps round (numpy 1.24: int64 max + 1 is min) */
	tap_ok(np_add_int64(INT64_MAX, 1) == INT64_MIN && np_add_int64(2, 3) == 5,
	       "np_add_int64 wraps round past the top");
	tap_ok(np_sub_int64(INT64_MIN, 1) == INT64_MAX && np_sub_int64(2, 3) == -1,
	       "np_sub_int64 wraps round past the bottom");
	return tap_done();
}
