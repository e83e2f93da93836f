#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "idle_launch.h"
#include "idle_trace.h"
#include "np_stat.h"
#include "outbuf.h"
#include "pd_agg.h"
#include "py_fmt.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

static const char *const launch_names[] = {
	/* HTA's cuda_kernel_launch_stats */
	"cudaLaunchKernel", "cudaLaunchKernelExC",
	"runFunction - job_prep_and_submit_for_execution",
	"cudaMemsetAsync", "cudaMemcpyAsync",
	/* the rest of HTA's get_runtime_launch_events_mask */
	"cuLaunchKernel", "cuLaunchKernelEx", "hipLaunchKernel", "hipExtModuleLaunchKernel",
	"hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
};

static uint64_t key(int64_t corr)
{
	return (uint64_t)corr ^ 0x8000000000000000ULL;
}

struct idle_launch *idle_launches(struct idle_set *set, const struct idle_trace *t, size_t *nout)
{
	struct hmap corrs = HMAP_INIT, first_gpu = HMAP_INIT;
	uint32_t ids[sizeof(launch_names) / sizeof(launch_names[0])], v;
	size_t nids = 0, n = 0, alloc = 0;
	size_t *next = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	size_t *last = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	struct idle_launch *out = NULL;

	for (size_t i = 0; i < sizeof(launch_names) / sizeof(launch_names[0]); i++) {
		uint32_t id = idle_symbol(set, launch_names[i]);
		if (id != UINT32_MAX)
			ids[nids++] = id;
	}
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < nids; k++)
			if (t->ev[i].name == ids[k] && key(t->ev[i].corr))
				hmap_put(&corrs, key(t->ev[i].corr), 1);
	/* the GPU rows of each correlation, chained in frame order */
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		next[i] = SIZE_MAX;
		if (e->stream == -1 || !key(e->corr) || !hmap_get(&corrs, key(e->corr), &v))
			continue;
		if (hmap_get(&first_gpu, key(e->corr), &v))
			next[last[v]] = i;
		else
			hmap_put(&first_gpu, key(e->corr), (uint32_t)i);
		hmap_get(&first_gpu, key(e->corr), &v);
		last[v] = i;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *c = &t->ev[i];
		if (c->stream != -1 || !key(c->corr) || !hmap_get(&first_gpu, key(c->corr), &v))
			continue;
		for (size_t g = v; g != SIZE_MAX; g = next[g]) {
			const struct idle_ev *k = &t->ev[g];
			struct idle_launch *l;
			xgrow((void **)&out, &alloc, n + 1, sizeof(*out));
			l = &out[n++];
			l->corr = c->corr;
			l->cpu_dur = c->dur;
			l->gpu_dur = k->dur;
			l->delay = k->ts - c->ts - c->dur;
			if (l->delay < 0)
				l->delay = 0;	/* clip(lower=0) */
			l->cpu_row = i;
			l->gpu_row = g;
		}
	}
	hmap_release(&corrs);
	hmap_release(&first_gpu);
	free(next);
	free(last);
	*nout = n;
	return out;
}

/* ------------------------------------------------------------------ */
/* launch_summary.csv */

void idle_launch_summary_header(struct outbuf *ob)
{
	outbuf_puts(ob, "rank,launches,short_kernels,short_kernels_pct,runtime_outliers,"
		    "launch_delay_outliers,cpu_duration_sum,gpu_duration_sum,launch_delay_sum,"
		    "launch_delay_p50,launch_delay_p90,launch_delay_p99,launch_delay_max\n");
}

static void put_float(struct outbuf *ob, double x)
{
	outbuf_putc(ob, ',');
	csv_float(ob, x);
}

void idle_launch_summary_row(struct outbuf *ob, long rank, const struct idle_launch *l, size_t n)
{
	double *d = xmalloc(st_mult(n + 1, sizeof(double)));
	double *c = xmalloc(st_mult(n + 1, sizeof(double)));
	double *g = xmalloc(st_mult(n + 1, sizeof(double)));
	size_t shorts = 0, rt_out = 0, delay_out = 0;

	for (size_t i = 0; i < n; i++) {
		/* HTA's "short GPU kernels" plot: gpu < cpu, cpu within the cutoff */
		shorts += l[i].cpu_dur <= IDLE_RUNTIME_CUTOFF && l[i].gpu_dur < l[i].cpu_dur;
		rt_out += l[i].cpu_dur > IDLE_RUNTIME_CUTOFF;
		delay_out += l[i].delay > IDLE_LAUNCH_DELAY_CUTOFF;
		d[i] = l[i].delay;
		c[i] = l[i].cpu_dur;
		g[i] = l[i].gpu_dur;
	}
	outbuf_printf(ob, "%ld,%zu,%zu", rank, n, shorts);
	put_float(ob, n ? np_round(100.0 * (double)shorts / (double)n, 2) : NAN);
	outbuf_printf(ob, ",%zu,%zu", rt_out, delay_out);
	put_float(ob, np_sum(c, n));
	put_float(ob, np_sum(g, n));
	put_float(ob, np_sum(d, n));
	tl_qsort(d, n, sizeof(double), np_cmp_double);
	put_float(ob, np_quantile(d, n, 0.5));
	put_float(ob, np_quantile(d, n, 0.9));
	put_float(ob, np_quantile(d, n, 0.99));
	put_float(ob, n ? d[n - 1] : NAN);
	outbuf_putc(ob, '\n');
	free(d);
	free(c);
	free(g);
}

/* ------------------------------------------------------------------ */
/* api_kernel_summary.csv: TraceLens's pftrace_hip_api_analysis layout */

/* TraceLens's launch APIs: a HIP launch name or /(?:Launch).*Kernel/i */
static int tracelens_launch_api(const char *s)
{
	static const char *const hip[] = {
		"hipModuleLaunchKernel", "hipLaunchKernelGGL", "hipLaunchKernel",
		"hipExtLaunchKernelGGL", "hipModuleLaunchCooperativeKernel",
		"hipExtModuleLaunchKernel", "hipMemset", "hipMemcpyHtoDAsync",
		"hipMemcpyDtoHAsync", "hipMemsetD32Async",
	};
	const char *p;

	for (size_t i = 0; i < sizeof(hip) / sizeof(hip[0]); i++)
		if (!strcmp(s, hip[i]))
			return 1;
	for (p = s; *p; p++)
		if (!strncasecmp(p, "launch", 6))
			break;
	if (!*p)
		return 0;
	for (p += 6; *p; p++)
		if (!strncasecmp(p, "kernel", 6))
			return 1;
	return 0;
}

struct tq {
	int64_t pid, tid, dev;
	uint32_t api, kern;
	int64_t a, q, k;
};

static struct idle_set *tq_set;

static int cmp_str(uint32_t a, uint32_t b)
{
	size_t la = idle_len(tq_set, a), lb = idle_len(tq_set, b);
	int c = memcmp(idle_str(tq_set, a), idle_str(tq_set, b), la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

static int by_key(const void *x, const void *y)
{
	const struct tq *a = x, *b = y;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->api != b->api)
		return cmp_str(a->api, b->api);
	if (a->kern != b->kern)
		return cmp_str(a->kern, b->kern);
	return 0;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* int / int as Python's true division (correctly rounded while exact) */
static double div_exact(__int128 num, int64_t den)
{
	if (num < ((__int128)1 << 53) && num > -((__int128)1 << 53))
		return (double)num / (double)den;
	return (double)((long double)num / (long double)den);
}

/*
 * pstdev of v[0..n) with mean m, in long double: where the exact sums
 * below would not fit in 128 bits (values near 2^63, which no real trace
 * has, but a bad one may).
 */
static double pstdev_wide(const int64_t *v, size_t n, long double m)
{
	long double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += ((long double)v[i] - m) * ((long double)v[i] - m);
	return (double)sqrtl(ss / (long double)n);
}

/* _stats_vals: avg, median, min, max, pstdev of one column */
static void stats(struct outbuf *ob, int64_t *v, size_t n)
{
	__int128 sum = 0, sq = 0, nsq, sum2;
	double med, sd;
	int exact = 1;

	tl_qsort(v, n, sizeof(*v), cmp_i64);
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		/* a square of an int64 fits (at most 2^126); their sum may not */
		if (__builtin_add_overflow(sq, (__int128)v[i] * v[i], &sq))
			exact = 0;
	}
	if (n % 2)
		med = (double)v[n / 2];
	else
		med = (double)((__int128)v[n / 2 - 1] + v[n / 2]) / 2.0;
	/* statistics.pstdev: exact (n·Σx² - (Σx)²) / n², then a square root */
	if (n < 2)
		sd = 0.0;
	else if (exact && !__builtin_mul_overflow((__int128)n, sq, &nsq) &&
		 !__builtin_mul_overflow(sum, sum, &sum2))
		sd = (double)(sqrtl((long double)(nsq - sum2)) / (long double)n);
	else
		sd = pstdev_wide(v, n, (long double)sum / (long double)n);
	put_float(ob, div_exact(sum, (int64_t)n));
	put_float(ob, med);
	outbuf_printf(ob, ",%lld,%lld", (long long)v[0], (long long)v[n - 1]);
	put_float(ob, sd);
}

static int64_t ns(double us)
{
	return (int64_t)llround(us * 1000.0);
}

static int64_t int_text(const char *s)
{
	return strtoll(s, NULL, 10);
}

void idle_api_kernel_summary(struct outbuf *ob, struct idle_set *set, const struct idle_trace *t,
			     const struct idle_launch *l, size_t n)
{
	struct hmap last_api = HMAP_INIT;
	struct tq *rows = xmalloc(st_mult(n + 1, sizeof(*rows)));
	int64_t *col = xmalloc(st_mult(n + 1, sizeof(int64_t)));
	size_t nr = 0;
	uint32_t v;

	outbuf_puts(ob, "PID,TID,DevId,Count,QCount");
	for (const char *p = "TAQK"; *p; p++)
		outbuf_printf(ob, ",%cAvg_ns,%cMed_ns,%cMin_ns,%cMax_ns,%cStdDev_ns", *p, *p, *p,
			      *p, *p);
	outbuf_puts(ob, ",API Name,Kernel Name\n");
	/* api_by_corr keeps the last launch call of a correlation */
	for (size_t i = 0; i < n; i++)
		hmap_put(&last_api, key(l[i].corr), (uint32_t)l[i].cpu_row);
	for (size_t i = 0; i < n; i++) {
		const struct idle_ev *c = &t->ev[l[i].cpu_row], *k = NULL;
		struct tq *r;
		if (!hmap_get(&last_api, key(l[i].corr), &v) || v != l[i].cpu_row ||
		    !tracelens_launch_api(idle_str(set, c->name)))
			continue;
		/* the first kernel by start among those with a duration */
		for (size_t j = i; j < n && l[j].cpu_row == l[i].cpu_row; j++) {
			const struct idle_ev *g = &t->ev[l[j].gpu_row];
			if (ns(g->dur) > 0 && (!k || g->ts < k->ts))
				k = g;
		}
		while (i + 1 < n && l[i + 1].cpu_row == l[i].cpu_row)
			i++;
		if (!k)
			continue;
		r = &rows[nr++];
		r->pid = int_text(idle_str(set, c->pid));
		r->tid = int_text(idle_str(set, c->tid));
		r->dev = k->device < 0 ? 0 : k->device;
		r->api = c->name;
		r->kern = k->name;
		r->a = ns(c->dur);
		r->k = ns(k->dur);
		r->q = np_sub_int64(ns(k->ts), np_add_int64(ns(c->ts), ns(c->dur)));
		if (r->q < 0)
			r->q = 0;
	}
	tq_set = set;
	tl_qsort(rows, nr, sizeof(*rows), by_key);
	for (size_t i = 0, j; i < nr; i = j) {
		for (j = i; j < nr && !by_key(&rows[i], &rows[j]); j++)
			;
		outbuf_printf(ob, "%lld,%lld,%lld,%zu,%zu", (long long)rows[i].pid,
			      (long long)rows[i].tid, (long long)rows[i].dev, j - i, j - i);
		for (int c = 0; c < 4; c++) {
			for (size_t m = i; m < j; m++)
				col[m - i] = c == 0 ? np_add_int64(np_add_int64(rows[m].a, rows[m].q),
								   rows[m].k) :
					     c == 1 ? rows[m].a : c == 2 ? rows[m].q : rows[m].k;
			stats(ob, col, j - i);
		}
		outbuf_putc(ob, ',');
		csv_cell(ob, idle_str(set, rows[i].api), idle_len(set, rows[i].api));
		outbuf_putc(ob, ',');
		csv_cell(ob, idle_str(set, rows[i].kern), idle_len(set, rows[i].kern));
		outbuf_putc(ob, '\n');
	}
	hmap_release(&last_api);
	free(rows);
	free(col);
}
