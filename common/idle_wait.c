#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "idle_trace.h"
#include "idle_wait.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "xalloc.h"
#include "banned.h"

const char *idle_wait_name(int category)
{
	static const char *const names[] = { "host_wait", "kernel_wait", "other" };
	return names[category];
}

static int kernel_cat(const char *cat)
{
	static const char *const cats[] = {
		"kernel", "Kernel", "gpu_memset", "Memset", "gpu_memcpy", "Memcpy",
		"mtia_ccp_events",
	};
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (!strcmp(cat, cats[i]))
			return 1;
	return 0;
}

/* One stream's rows, sorted, classified and summed into out. */
static size_t one_stream(const struct idle_trace *t, const size_t *rows, const double *rts,
			 size_t n, int64_t stream, double threshold, struct idle_wait_row *out)
{
	double *ts = xmalloc(st_mult(n + 1, sizeof(double)));
	double *gap[3], total = 0;
	size_t *ord = xmalloc(st_mult(n + 1, sizeof(size_t))), ng[3] = { 0, 0, 0 }, nout = 0;
	int present[3] = { 0, 0, 0 };

	for (int c = 0; c < 3; c++)
		gap[c] = xmalloc(st_mult(n + 1, sizeof(double)));
	for (size_t i = 0; i < n; i++)
		ts[i] = t->ev[rows[i]].ts;
	np_argsort_quick(ts, ord, n);
	for (size_t k = 0; k < n; k++) {
		const struct idle_ev *e = &t->ev[rows[ord[k]]];
		double runtime_ts = rts[ord[k]], prev_end = NAN, idle = NAN;
		int c = IDLE_OTHER_WAIT;
		if (k > 0) {
			const struct idle_ev *p = &t->ev[rows[ord[k - 1]]];
			prev_end = p->ts + p->dur;
			idle = e->ts - prev_end;
		}
		if (runtime_ts > prev_end)	/* false when either is NaN */
			c = IDLE_HOST_WAIT;
		else if (idle < threshold)
			c = IDLE_KERNEL_WAIT;
		present[c] = 1;
		if (idle == idle)
			gap[c][ng[c]++] = idle;
	}
	for (int c = 0; c < 3; c++)
		if (present[c]) {
			out[nout].stream = stream;
			out[nout].category = c;
			out[nout].time = pd_group_sum(gap[c], ng[c]);
			out[nout].count = ng[c];
			total += out[nout++].time;
		}
	for (size_t i = 0; i < nout; i++)
		out[i].ratio = out[i].time / total;
	for (int c = 0; c < 3; c++)
		free(gap[c]);
	free(ts);
	free(ord);
	return nout;
}

struct idle_wait_row *idle_wait_breakdown(struct idle_set *set, const struct idle_trace *t,
					  double threshold, size_t *nrows)
{
	struct hmap by_index = HMAP_INIT, by_stream = HMAP_INIT;
	size_t *rows = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	size_t *srows = xmalloc(st_mult(t->n + 1, sizeof(size_t)));
	double *rts = xmalloc(st_mult(t->n + 1, sizeof(double)));
	double *srts = xmalloc(st_mult(t->n + 1, sizeof(double)));
	int64_t *streams = xmalloc(st_mult(t->n + 1, sizeof(int64_t)));
	size_t n = 0, nstreams = 0, nout = 0;
	struct idle_wait_row *out;
	uint32_t r;

	/* trace_df[["ts", "index"]] by index: the first row of each uid */
	/* (the rows a kernel's index_correlation can name: CPU rows with a
	 * correlation, and uid 0) */
	for (size_t i = t->n; i-- > 0; )
		if ((t->ev[i].stream == -1 && t->ev[i].corr != -1) || t->ev[i].index == 0)
			hmap_put(&by_index, (uint64_t)t->ev[i].index + 1, (uint32_t)i);
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (e->stream == -1 || !kernel_cat(idle_str(set, e->cat)))
			continue;
		rts[n] = e->icorr >= 0 && hmap_get(&by_index, (uint64_t)e->icorr + 1, &r) ?
			t->ev[r].ts : NAN;
		rows[n++] = i;
		if (!hmap_get(&by_stream, (uint64_t)e->stream ^ 0x8000000000000000ULL, &r)) {
			hmap_put(&by_stream, (uint64_t)e->stream ^ 0x8000000000000000ULL,
				 (uint32_t)nstreams);
			streams[nstreams++] = e->stream;
		}
	}
	/* the rows of each stream together, in order: a counting sort */
	{
		size_t *start = xcalloc(nstreams + 1, sizeof(size_t));
		uint32_t *sidx = xmalloc(st_mult(n + 1, sizeof(uint32_t)));
		for (size_t i = 0; i < n; i++) {
			hmap_get(&by_stream, (uint64_t)t->ev[rows[i]].stream ^ 0x8000000000000000ULL,
				 &sidx[i]);
			start[sidx[i] + 1]++;
		}
		for (size_t s = 0; s < nstreams; s++)
			start[s + 1] += start[s];
		for (size_t i = 0; i < n; i++) {
			size_t at = start[sidx[i]]++;
			srows[at] = rows[i];
			srts[at] = rts[i];
		}
		out = xmalloc(st_mult(3 * nstreams + 1, sizeof(*out)));
		for (size_t s = 0, from = 0; s < nstreams; s++) {
			size_t m = start[s] - from;
			nout += one_stream(t, srows + from, srts + from, m, streams[s], threshold,
					   out + nout);
			from = start[s];
		}
		free(start);
		free(sidx);
	}
	hmap_release(&by_index);
	hmap_release(&by_stream);
	free(rows);
	free(srows);
	free(rts);
	free(srts);
	free(streams);
	*nrows = nout;
	return out;
}
