#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "idle_queue.h"
#include "idle_trace.h"
#include "np_stat.h"
#include "outbuf.h"
#include "pd_agg.h"
#include "py_fmt.h"
#include "xalloc.h"
#include "banned.h"

static const char *const runtime_launch[] = {
	"cudaMemsetAsync", "cudaMemcpyAsync", "cudaLaunchKernel", "cudaLaunchKernelExC",
	"cuLaunchKernel", "runFunction - job_prep_and_submit_for_execution",
	"hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
	"hipMemcpyWithStream", "cuLaunchKernelEx",
};

static uint64_t key(int64_t v)
{
	return (uint64_t)v ^ 0x8000000000000000ULL;
}

struct point {
	double ts;
	int64_t index, stream, delta;
	int has_stream;
};

static int is_launch(const uint32_t *ids, size_t nids, uint32_t name)
{
	for (size_t k = 0; k < nids; k++)
		if (ids[k] == name)
			return 1;
	return 0;
}

/* The +1 points (runtime_calls_filt) then the -1 points (gpu_kernels_filt). */
static size_t points(struct idle_set *set, const struct idle_trace *t, struct point **out,
		     size_t *nplus)
{
	uint32_t ids[sizeof(runtime_launch) / sizeof(runtime_launch[0])], v;
	size_t nids = 0, n = 0, alloc = 0, nminus = 0;
	size_t *next = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	size_t *last = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	struct hmap first_gpu = HMAP_INIT, launch_corr = HMAP_INIT;
	struct point *p = NULL;

	for (size_t i = 0; i < sizeof(runtime_launch) / sizeof(runtime_launch[0]); i++) {
		uint32_t id = idle_symbol(set, runtime_launch[i]);
		if (id != UINT32_MAX)
			ids[nids++] = id;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		next[i] = SIZE_MAX;
		if (e->stream == -1 || !key(e->corr))
			continue;
		if (hmap_get(&first_gpu, key(e->corr), &v))
			next[last[v]] = i;
		else
			hmap_put(&first_gpu, key(e->corr), (uint32_t)i);
		hmap_get(&first_gpu, key(e->corr), &v);
		last[v] = i;
	}
	/* runtime_calls.join(gpu_kernels.set_index("correlation")): left join */
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (!(e->icorr > 0) || !is_launch(ids, nids, e->name))
			continue;
		hmap_put(&launch_corr, key(e->corr), 1);
		if (!hmap_get(&first_gpu, key(e->corr), &v)) {
			xgrow((void **)&p, &alloc, n + 1, sizeof(*p));
			p[n++] = (struct point){ e->ts, e->index, 0, 1, 0 };
			continue;
		}
		for (size_t g = v; g != SIZE_MAX; g = next[g]) {
			xgrow((void **)&p, &alloc, n + 1, sizeof(*p));
			p[n++] = (struct point){ e->ts, e->index, t->ev[g].stream, 1, 1 };
		}
	}
	*nplus = n;
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (e->stream == -1 || !hmap_get(&launch_corr, key(e->corr), &v))
			continue;
		xgrow((void **)&p, &alloc, n + 1, sizeof(*p));
		p[n++] = (struct point){ e->ts, e->index, e->stream, -1, 1 };
		nminus++;
	}
	hmap_release(&first_gpu);
	hmap_release(&launch_corr);
	free(next);
	free(last);
	*out = p;
	return n;
}

static int by_stream(const void *a, const void *b)
{
	const struct idle_qpoint *x = a, *y = b;
	return (x->stream > y->stream) - (x->stream < y->stream);
}

struct idle_qpoint *idle_queue_series(struct idle_set *set, const struct idle_trace *t,
				      size_t *nout)
{
	struct point *p;
	size_t nplus, n = points(set, t, &p, &nplus), m = 0;
	double *ts;
	size_t *ord;
	struct idle_qpoint *q;
	struct hmap run = HMAP_INIT;	/* stream → index into sums */
	int64_t *sums;
	size_t nsums = 0;
	uint32_t v;

	*nout = 0;
	if (nplus != n - nplus) {
		tl_warn("%s: rank %ld: %zu launch points but %zu kernel points: no queue length "
			"(HTA's assertion fails)", t->source, t->rank, nplus, n - nplus);
		free(p);
		return NULL;
	}
	ts = xmalloc(st_mult(n + 1, sizeof(double)));
	ord = xmalloc(st_mult(n + 1, sizeof(size_t)));
	q = xmalloc(st_mult(n + 1, sizeof(*q)));
	sums = xmalloc(st_mult(n + 1, sizeof(int64_t)));
	for (size_t i = 0; i < n; i++)
		ts[i] = p[i].ts;
	np_argsort_quick(ts, ord, n);
	for (size_t k = 0; k < n; k++) {
		const struct point *x = &p[ord[k]];
		if (!x->has_stream)
			continue;	/* groupby("stream") drops NaN keys */
		if (!hmap_get(&run, key(x->stream), &v)) {
			v = (uint32_t)nsums;
			sums[nsums++] = 0;
			hmap_put(&run, key(x->stream), v);
		}
		sums[v] += x->delta;
		q[m++] = (struct idle_qpoint){ x->index, x->stream, sums[v], x->ts };
	}
	/* groupby("stream"): streams ascending, time order kept inside each */
	{
		struct idle_qpoint *tmp = xmalloc(st_mult(m + 1, sizeof(*tmp)));
		struct idle_qpoint *keys = xmalloc(st_mult(nsums + 1, sizeof(*keys)));
		size_t *start = xcalloc(nsums + 1, sizeof(size_t));
		uint32_t *rank_of = xmalloc(st_mult(nsums + 1, sizeof(uint32_t)));
		for (size_t i = 0; i < m; i++) {
			hmap_get(&run, key(q[i].stream), &v);
			keys[v].stream = q[i].stream;
			keys[v].index = (int64_t)v;
		}
		qsort(keys, nsums, sizeof(*keys), by_stream);
		for (size_t r = 0; r < nsums; r++)
			rank_of[keys[r].index] = (uint32_t)r;
		for (size_t i = 0; i < m; i++) {
			hmap_get(&run, key(q[i].stream), &v);
			start[rank_of[v] + 1]++;
		}
		for (size_t r = 0; r < nsums; r++)
			start[r + 1] += start[r];
		for (size_t i = 0; i < m; i++) {
			hmap_get(&run, key(q[i].stream), &v);
			tmp[start[rank_of[v]]++] = q[i];
		}
		memcpy(q, tmp, m * sizeof(*q));
		free(tmp);
		free(keys);
		free(start);
		free(rank_of);
	}
	hmap_release(&run);
	free(p);
	free(ts);
	free(ord);
	free(sums);
	*nout = m;
	return q;
}

/* describe(): count, mean, std, min, 25%, 50%, 75%, max */
static void describe(struct outbuf *ob, long rank, int64_t stream, const struct idle_qpoint *q,
		     size_t n)
{
	double *x = xmalloc(st_mult(n + 1, sizeof(double)));

	for (size_t i = 0; i < n; i++)
		x[i] = (double)q[i].qlen;
	outbuf_printf(ob, "%ld,%lld,", rank, (long long)stream);
	csv_float(ob, (double)n);
	outbuf_putc(ob, ',');
	csv_float(ob, np_mean(x, n));	/* nanmean: pairwise sum / count */
	outbuf_putc(ob, ',');
	csv_float(ob, pd_std(x, n));
	qsort(x, n, sizeof(double), np_cmp_double);
	outbuf_putc(ob, ',');
	csv_float(ob, x[0]);
	for (int k = 1; k <= 3; k++) {
		outbuf_putc(ob, ',');
		csv_float(ob, np_quantile(x, n, 0.25 * k));
	}
	outbuf_putc(ob, ',');
	csv_float(ob, x[n - 1]);
	outbuf_putc(ob, '\n');
	free(x);
}

void idle_queue_summary_rows(struct outbuf *ob, long rank, const struct idle_qpoint *q, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && q[j].stream == q[i].stream; j++)
			;
		describe(ob, rank, q[i].stream, q + i, j - i);
	}
}
