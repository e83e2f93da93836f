/*
 * Unit tests for common/interval, common/timeline and linkval_parse.
 * Expectations are TraceLens's own test cases (tests/test_subtract_intervals.py,
 * tests/test_treeperf.py, quoted in tracelens-core §3.2-3.3) and values
 * worked out by hand.
 */
#include <math.h>
#include <stdlib.h>

#include "tree_gpulink.h"
#include "timeline_interval.h"
#include "timeline.h"
#include "tap.h"

static int same_ivals(const struct ival *got, size_t n, const struct ival *want, size_t m)
{
	if (n != m)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (got[i].start != want[i].start || got[i].end != want[i].end)
			return 0;
	return 1;
}

static void sub(const struct ival *a, size_t na, const struct ival *b, size_t nb,
		const struct ival *want, size_t nw, const char *what)
{
	struct ival out[16];
	size_t n = ival_subtract(a, na, b, nb, out);

	tap_ok(n <= na + nb && same_ivals(out, n, want, nw), what);
}

static void test_subtract(void)
{
	/* TraceLens tests/test_subtract_intervals.py */
	sub((struct ival[]){ { 15, 16 }, { 16, 18 } }, 2, (struct ival[]){ { 10, 20 } }, 1,
	    (struct ival[]){ { 10, 15 }, { 18, 20 } }, 2, "[(10,20)] - [(15,16),(16,18)]");
	sub((struct ival[]){ { 15, 35 } }, 1, (struct ival[]){ { 10, 20 }, { 30, 40 } }, 2,
	    (struct ival[]){ { 10, 15 }, { 35, 40 } }, 2, "[(10,20),(30,40)] - [(15,35)]");
	sub((struct ival[]){ { 0, 30 } }, 1, (struct ival[]){ { 10, 20 } }, 1,
	    NULL, 0, "[(10,20)] - [(0,30)] is empty");
	/* by hand: nothing to subtract, touching A, A inside B several times */
	sub(NULL, 0, (struct ival[]){ { 1, 2 } }, 1, (struct ival[]){ { 1, 2 } }, 1,
	    "B - [] is B");
	sub((struct ival[]){ { 0, 10 }, { 20, 30 } }, 2, (struct ival[]){ { 10, 20 } }, 1,
	    (struct ival[]){ { 10, 20 } }, 1, "touching intervals remove nothing");
	sub((struct ival[]){ { 1, 2 }, { 3, 4 }, { 5, 6 } }, 3, (struct ival[]){ { 0, 7 } }, 1,
	    (struct ival[]){ { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } }, 4,
	    "three holes make four pieces (bound na + nb)");
	sub((struct ival[]){ { 5, 25 } }, 1,
	    (struct ival[]){ { 0, 10 }, { 12, 14 }, { 20, 30 } }, 3,
	    (struct ival[]){ { 0, 5 }, { 25, 30 } }, 2, "one A across several B");
}

static void test_merge(void)
{
	struct ival v[] = { { 30, 40 }, { 0, 10 }, { 10, 15 }, { 5, 7 }, { 41, 41 }, { 38, 41 } };
	struct ival want[] = { { 0, 15 }, { 30, 41 } };
	size_t n = ival_merge(v, 6);

	tap_ok(same_ivals(v, n, want, 2), "merge sorts, unions, touching merges");
	tap_ok(ival_merge(v, 0) == 0, "merge of nothing is nothing");
	tap_ok(ival_sum(want, 2) == 26.0, "sum of [(0,15),(30,41)] is 26");
}

/* Sums are of end - start, never dur: with ts near 1.4e12 the two differ. */
static void test_sum_uses_end_minus_start(void)
{
	double ts = 1419247333894.317, dur = 39.42;
	struct ival v = { ts, ts + dur };

	tap_ok(ival_sum(&v, 1) == (ts + dur) - ts && ival_sum(&v, 1) != dur,
	       "interval length is t_end - ts, quantised at 2^-12 us");
}

static struct breakdown run(struct timeline *t, double micro)
{
	struct breakdown b;

	tap_ok(timeline_compute(t, micro, &b) == 0, "compute succeeds");
	return b;
}

static double value(const struct breakdown *b, const char *type)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->type[i], type))
			return b->us[i];
	return NAN;
}

static void test_metrics(void)
{
	struct timeline t;
	struct breakdown b;

	timeline_init(&t);
	tap_ok(timeline_compute(&t, -1, &b) == -1, "no events: compute says so");
	/* TraceLens test_treeperf: kernel [0,100) + memcpy [200,250) */
	timeline_add(&t, 0, 100, GPU_COMPUTATION);
	timeline_add(&t, 200, 250, GPU_MEMCPY);
	b = run(&t, -1);
	tap_ok(b.n == 8 && !strcmp(b.type[4], "idle_time") &&
	       !strcmp(b.type[0], "computation_time") && !strcmp(b.type[7], "total_memcpy_time"),
	       "eight rows in TraceLens's order");
	tap_ok(value(&b, "computation_time") == 100 && value(&b, "total_memcpy_time") == 50 &&
	       value(&b, "total_time") == 250 && value(&b, "idle_time") == 100 &&
	       value(&b, "exposed_memcpy_time") == 50 && value(&b, "busy_time") == 150,
	       "kernel [0,100) + memcpy [200,250): comp 100, memcpy 50, total 250, idle 100");

	/* TraceLens test_treeperf micro idle: kernels [0,50), [100,150), T = 30 */
	timeline_reset(&t);
	timeline_add(&t, 0, 50, GPU_COMPUTATION);
	timeline_add(&t, 100, 150, GPU_COMPUTATION);
	b = run(&t, 30);
	tap_ok(b.n == 9 && value(&b, "micro_idle_time") == 0 &&
	       value(&b, "macro_idle_time") == 50 && isnan(value(&b, "idle_time")),
	       "micro idle T=30: micro 0, macro 50, no idle_time row");
	b = run(&t, 50);
	tap_ok(value(&b, "micro_idle_time") == 0 && value(&b, "macro_idle_time") == 50,
	       "a gap of exactly T is macro (>= T)");
	b = run(&t, 50.5);
	tap_ok(value(&b, "micro_idle_time") == 50 && value(&b, "macro_idle_time") == 0,
	       "a gap shorter than T is micro");

	/* by hand: comm [0,100) under comp [50,150); memcpy [90,200) */
	timeline_reset(&t);
	timeline_add(&t, 50, 150, GPU_COMPUTATION);
	timeline_add(&t, 0, 100, GPU_COMMUNICATION);
	timeline_add(&t, 90, 200, GPU_MEMCPY);
	b = run(&t, -1);
	tap_ok(value(&b, "exposed_comm_time") == 50 && value(&b, "total_comm_time") == 100 &&
	       value(&b, "exposed_memcpy_time") == 50 && value(&b, "total_memcpy_time") == 110 &&
	       value(&b, "busy_time") == 200 && value(&b, "idle_time") == 0 && b.identity_ok,
	       "exposed comm = comm - comp, exposed memcpy = memcpy - comp - comm");
	timeline_release(&t);
}

static void test_classify(void)
{
	tap_ok(gpu_classify("cpu_op", "aten::mm") == GPU_NONE, "cpu_op is not a GPU event");
	tap_ok(gpu_classify("gpu_user_annotation", "x") == GPU_NONE, "gpu_user_annotation is not");
	tap_ok(gpu_classify("gpu_memcpy", "Memcpy DtoH") == GPU_MEMCPY, "gpu_memcpy is memcpy");
	tap_ok(gpu_classify("gpu_memset", "Memset (Device)") == GPU_COMPUTATION,
	       "gpu_memset is computation");
	tap_ok(gpu_classify("gpu_memset", "ncclMemset") == GPU_COMMUNICATION,
	       "a memset named nccl is communication");
	tap_ok(gpu_classify("kernel", "ncclDevKernel_Generic(x)") == GPU_COMMUNICATION,
	       "nccl kernel is communication");
	tap_ok(gpu_classify("kernel", "void RCCL_kernel") == GPU_COMMUNICATION,
	       "rccl in any case is communication");
	tap_ok(gpu_classify("kernel", "vllm::Cross_Device_Reduce_1stage") == GPU_COMMUNICATION,
	       "cross_device_reduce anywhere is communication");
	tap_ok(gpu_classify("kernel", "cro\xc5\xbf\xc5\xbf_dev\xc4\xb1" "ce_reduce") == GPU_COMMUNICATION,
	       "Python's re.I folds long s and dotless i");
	tap_ok(gpu_classify("kernel", "cross_device_reduc") == GPU_COMPUTATION,
	       "a partial name is computation");
	tap_ok(gpu_classify("kernel", "MEMORY_COPY_DEVICE_TO_HOST") == GPU_MEMCPY,
	       "legacy MEMORY_COPY_* kernel is memcpy");
	tap_ok(gpu_classify("kernel", "__amd_rocclr_copyBufferRectAligned.kd") == GPU_MEMCPY,
	       "__amd_rocclr_copyBufferRectAligned.kd is memcpy");
	tap_ok(gpu_classify("kernel", "__amd_rocclr_copyBuffer\n") == GPU_MEMCPY,
	       "'$' matches before a final newline");
	tap_ok(gpu_classify("kernel", "__amd_rocclr_copyBufferX") == GPU_COMPUTATION,
	       "the copy pattern is anchored at the end");
	tap_ok(gpu_classify("kernel", "x__amd_rocclr_copyBuffer") == GPU_COMPUTATION,
	       "and at the start");
	tap_ok(gpu_classify("kernel", "memory_copy_host_to_device") == GPU_COMPUTATION,
	       "the copy pattern is case-sensitive");
	tap_ok(gpu_classify("kernel", "__amd_rocclr_fillBufferAligned.kd") == GPU_COMPUTATION,
	       "legacy fillBuffer is computation");
	tap_ok(gpu_classify("gpu_memcpy", "__amd_rocclr_fillBuffer") == GPU_MEMCPY,
	       "cat gpu_memcpy wins over the name");
	tap_ok(gpu_classify("kernel", "") == GPU_COMPUTATION, "an empty name is computation");
}

static void test_linkval(void)
{
	struct linkval a = linkval_parse("8218"), b = linkval_parse("8218.0"),
		       c = linkval_parse("8.218e3"), d = linkval_parse("8218.5"),
		       e = linkval_parse("\"8218\""), f = linkval_parse("");

	tap_ok(a.kind == LINKVAL_INT && b.kind == a.kind && c.kind == a.kind &&
	       a.v == b.v && b.v == c.v, "8218, 8218.0 and 8.218e3 are one id");
	tap_ok(d.kind == LINKVAL_FLOAT, "8218.5 is a float id");
	tap_str(e.kind == LINKVAL_NONE ? "none" : "id", "none", "a quoted string is no id");
	tap_ok(e.kind == LINKVAL_NONE && f.kind == LINKVAL_NONE,
	       "a string or nothing is no id");
	tap_ok(linkval_parse("-0").v == linkval_parse("0.0").v, "-0 and 0.0 are one id");
}

int main(void)
{
	test_subtract();
	test_merge();
	test_sum_uses_end_minus_start();
	test_metrics();
	test_classify();
	test_linkval();
	return tap_done();
}
