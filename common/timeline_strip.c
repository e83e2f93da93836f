#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
#include "timeline.h"
#include "timeline_interval.h"
#include "timeline_strip.h"
#include "xalloc.h"
#include "banned.h"

enum { S_COMP, S_COMM, S_MEMCPY, S_N };

struct timeline_strip {
	struct outbuf *ob;
	double t0, width;	/* span start, bin width */
	int bins;
	struct ival *v[S_N];	/* the group's events per class */
	size_t n[S_N], alloc[S_N];
	struct ival *tmp[2];
	size_t tmp_alloc[2];
	double *us;		/* bins × S_N, row-major */
	int lo, hi;		/* bins touched: [lo, hi] */
};

struct timeline_strip *timeline_strip_new(struct outbuf *ob, double t0, double t1, int bins)
{
	struct timeline_strip *ts = xcalloc(1, sizeof(*ts));

	if (bins < 1)
		bins = 1;
	ts->ob = ob;
	ts->t0 = t0;
	ts->bins = bins;
	ts->width = t1 > t0 ? (t1 - t0) / bins : 0;
	ts->us = xcalloc((size_t)bins, S_N * sizeof(*ts->us));
	ts->lo = bins, ts->hi = -1;
	return ts;
}

void timeline_strip_free(struct timeline_strip *ts)
{
	if (!ts)
		return;
	for (int k = 0; k < S_N; k++)
		free(ts->v[k]);
	free(ts->tmp[0]);
	free(ts->tmp[1]);
	free(ts->us);
	free(ts);
}

void timeline_strip_header(struct outbuf *ob)
{
	outbuf_puts(ob, "gpu,stream,bin,start_us,end_us,computation_us,"
		    "exposed_comm_us,exposed_memcpy_us\n");
}

void timeline_strip_add(struct timeline_strip *ts, double start, double end, int cls)
{
	int k = cls == GPU_COMMUNICATION ? S_COMM : cls == GPU_MEMCPY ? S_MEMCPY : S_COMP;

	xgrow((void **)&ts->v[k], &ts->alloc[k], ts->n[k] + 1, sizeof(*ts->v[k]));
	ts->v[k][ts->n[k]++] = (struct ival){ start, end };
}

static struct ival *scratch(struct timeline_strip *ts, int i, size_t n)
{
	xgrow((void **)&ts->tmp[i], &ts->tmp_alloc[i], n ? n : 1, sizeof(*ts->tmp[i]));
	return ts->tmp[i];
}

/* The bin holding time t (the last bin holds the span's end too). */
static int bin_of(const struct timeline_strip *ts, double t)
{
	double b;

	if (!(ts->width > 0))
		return 0;
	b = floor((t - ts->t0) / ts->width);
	if (b < 0)
		return 0;
	return b >= ts->bins ? ts->bins - 1 : (int)b;
}

/* Spread each interval of v over the bins it covers, into class k. */
static void spread(struct timeline_strip *ts, const struct ival *v, size_t n, int k)
{
	for (size_t i = 0; i < n; i++) {
		int b0 = bin_of(ts, v[i].start), b1 = bin_of(ts, v[i].end);
		if (b0 < ts->lo)
			ts->lo = b0;
		if (b1 > ts->hi)
			ts->hi = b1;
		/* the interval's own ends in its first and last bin, bin edges between */
		for (int b = b0; b <= b1; b++) {
			double s = b == b0 ? v[i].start : ts->t0 + b * ts->width;
			double e = b == b1 ? v[i].end : ts->t0 + (b + 1) * ts->width;
			if (e > s)
				ts->us[(size_t)b * S_N + k] += e - s;
		}
	}
}

static void put_place(struct outbuf *ob, const char *text)
{
	csv_cell(ob, text, strlen(text));
	outbuf_putc(ob, ',');
}

static void write_rows(struct timeline_strip *ts, const char *gpu, const char *stream)
{
	for (int b = ts->lo; b <= ts->hi; b++) {
		double *u = &ts->us[(size_t)b * S_N];
		if (u[S_COMP] > 0 || u[S_COMM] > 0 || u[S_MEMCPY] > 0) {
			put_place(ts->ob, gpu);
			put_place(ts->ob, stream);
			outbuf_printf(ts->ob, "%d,", b);
			csv_float(ts->ob, b * ts->width);
			outbuf_putc(ts->ob, ',');
			csv_float(ts->ob, (b + 1) * ts->width);
			for (int k = 0; k < S_N; k++) {
				outbuf_putc(ts->ob, ',');
				csv_float(ts->ob, u[k]);
			}
			outbuf_putc(ts->ob, '\n');
		}
		u[S_COMP] = u[S_COMM] = u[S_MEMCPY] = 0;
	}
	ts->lo = ts->bins, ts->hi = -1;
}

void timeline_strip_write(struct timeline_strip *ts, const char *gpu, const char *stream)
{
	size_t nc = ival_merge(ts->v[S_COMP], ts->n[S_COMP]);
	size_t nm = ival_merge(ts->v[S_COMM], ts->n[S_COMM]);
	size_t ny = ival_merge(ts->v[S_MEMCPY], ts->n[S_MEMCPY]);
	struct ival *xc = scratch(ts, 0, nc + nm), *mc, *xm;
	size_t nxc = ival_subtract(ts->v[S_COMP], nc, ts->v[S_COMM], nm, xc), nmc, nxm;

	spread(ts, ts->v[S_COMP], nc, S_COMP);
	spread(ts, xc, nxc, S_COMM);
	/* exposed memcpy: memcpy minus computation, then minus communication */
	mc = scratch(ts, 0, nc + ny);
	nmc = ival_subtract(ts->v[S_COMP], nc, ts->v[S_MEMCPY], ny, mc);
	xm = scratch(ts, 1, nm + nmc);
	nxm = ival_subtract(ts->v[S_COMM], nm, mc, nmc, xm);
	spread(ts, xm, nxm, S_MEMCPY);
	write_rows(ts, gpu, stream);
	for (int k = 0; k < S_N; k++)
		ts->n[k] = 0;
}
