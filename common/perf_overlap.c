/*
 * perf_overlap: TraceLens's recompute marking (TP:312-335) and overlapping
 * kernels (gpu_event_analyser.py:93-197, TP:996-1085) on a perf_tree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "np_stat.h"
#include "perf_tree.h"
#include "py_repr.h"
#include "py_set.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

static const struct node *N(const struct perf_tree *tp, uint32_t uid)
{
	return &tp->ns->node[uid];
}

static const char *name_of(const struct perf_tree *tp, uint32_t uid)
{
	return tree_nodes_str(tp->ns, N(tp, uid)->name);
}

/* ---- recompute --------------------------------------------------------- */

void perf_tree_recompute(struct perf_tree *tp)
{
	size_t n = tp->ns->n, sn = 0, sa = 0;
	uint32_t *stack = NULL;

	if (tp->rc)
		return;
	tp->rc = xcalloc(n + 1, 1);
	for (uint32_t i = 0; i < n; i++) {
		const char *s;
		if (N(tp, i)->cat != NC_PYTHON || !(N(tp, i)->flags & NF_TREE))
			continue;
		s = name_of(tp, i);
		if (!strstr(s, "torch/utils/checkpoint.py") || !strstr(s, "recompute_fn"))
			continue;
		/* the frame and everything below it, through children lists */
		xgrow((void **)&stack, &sa, sn + 1, sizeof(*stack));
		stack[sn++] = i;
		while (sn) {
			uint32_t u = stack[--sn];
			tp->rc[u] = 1;
			for (uint32_t c = tp->ch_off[u]; c < tp->ch_off[u + 1]; c++) {
				xgrow((void **)&stack, &sa, sn + 1, sizeof(*stack));
				stack[sn++] = tp->ch[c];
			}
		}
	}
	free(stack);
	/* the report's total time is the first breakdown's: the GPU events
	 * outside recompute regions (all of them if none is outside) */
	{
		double lo = INFINITY, hi = -INFINITY;
		for (int flag = 0; flag <= 1 && lo > hi; flag++)
			for (uint32_t i = 0; i < n; i++) {
				const struct node *e = N(tp, i);
				if (!node_is_gpu(e) || (!tp->all_gpu && e->parent < 0) || tp->rc[i] != flag)
					continue;
				if (e->ts < lo)
					lo = e->ts;
				if (node_end(e) > hi)
					hi = node_end(e);
			}
		tp->total_us = lo <= hi ? hi - lo : NAN;
	}
}

/* ---- the sweep ---------------------------------------------------------- */

struct point {
	double t;
	int start;		/* 0 end, 1 start: ends first at equal times */
	uint32_t uid;
	size_t seq;		/* list order: Python's sort is stable */
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->start != y->start)
		return x->start - y->start;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static struct py_set *ovset(struct perf_tree *tp, uint32_t uid)
{
	if (!tp->ovset[uid]) {
		tp->ovset[uid] = xmalloc(sizeof(*tp->ovset[uid]));
		py_set_init(tp->ovset[uid]);
	}
	return tp->ovset[uid];
}

static int same_stream(const struct perf_tree *tp, uint32_t a, uint32_t b)
{
	const struct node *x = N(tp, a), *y = N(tp, b);

	return (x->flags & NF_STREAM) && (y->flags & NF_STREAM) && x->stream == y->stream;
}

/*
 * get_gpu_event_lists' sweep over one event list: at each start, every
 * active event on another stream that overlaps it by 1 µs or more (the
 * same-cpu_op exclusion never applies in reports, spec core §3.5).  The
 * active set is a Python set: its order decides the order in which the
 * overlapping_uids sets are filled, which decides their order.
 */
static void sweep(struct perf_tree *tp, const uint32_t *ev, size_t n)
{
	struct point *p = xmalloc(st_mult(2 * n + 1, sizeof(*p)));
	struct py_set active;
	size_t np = 0;

	for (size_t i = 0; i < n; i++) {
		const struct node *e = N(tp, ev[i]);
		if (!(node_end(e) > e->ts))
			continue;
		/* seq read before np moves on: one statement that both reads
		 * and increments np is unsequenced (undefined) in C */
		p[np] = (struct point){ e->ts, 1, ev[i], np };
		np++;
		p[np] = (struct point){ node_end(e), 0, ev[i], np };
		np++;
	}
	tl_qsort(p, np, sizeof(*p), cmp_point);
	/* the sets hold the trace's uids, as Python's do: their order
	 * follows the values (records are found again with tree_nodes_index) */
	py_set_init(&active);
	for (size_t i = 0; i < np; i++) {
		uint32_t u = p[i].uid, uu = tree_nodes_uid(tp->ns, u);
		size_t pos = 0;
		int64_t au;
		if (!p[i].start) {
			py_set_discard(&active, uu);
			continue;
		}
		while (py_set_next(&active, &pos, &au)) {
			uint32_t a = (uint32_t)tree_nodes_index(tp->ns, (uint32_t)au);
			const struct node *x = N(tp, u), *y = N(tp, a);
			double lo = x->ts > y->ts ? x->ts : y->ts;
			double hi = node_end(x) < node_end(y) ? node_end(x) : node_end(y);
			if (same_stream(tp, u, a) || hi - lo < 1.0)
				continue;
			py_set_add(ovset(tp, u), au);
			py_set_add(ovset(tp, a), uu);
		}
		py_set_add(&active, uu);
	}
	py_set_release(&active);
	free(p);
}

size_t perf_tree_overlaps(const struct perf_tree *tp, uint32_t uid, int64_t **out)
{
	const struct py_set *s = tp->ovset ? tp->ovset[uid] : NULL;
	size_t n = 0, pos = 0;
	int64_t v;

	*out = NULL;
	if (!s || !py_set_len(s))
		return 0;
	*out = xmalloc(st_mult(py_set_len(s), sizeof(**out)));
	while (py_set_next(s, &pos, &v))
		(*out)[n++] = tree_nodes_index(tp->ns, (uint32_t)v);
	return n;
}

/* ---- _compute_overlap_info --------------------------------------------- */

static int cmp_uid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static double ov_len(const struct node *k, const struct node *o)
{
	double s = k->ts > o->ts ? k->ts : o->ts;
	double e = node_end(k) < node_end(o) ? node_end(k) : node_end(o);
	return e - s;
}

/* the name list and per-name averages (dict order of first appearance) */
static void overlap_details(const struct perf_tree *tp, const uint32_t *k, size_t nk,
			    double runtime, struct overlap_info *out)
{
	struct pystr names = {0};
	size_t nn = 0;
	/* per distinct name: sums over its entries, in order */
	struct acc { const char *name; const char *stream; double dur, pct; size_t n; } *acc = NULL;
	size_t aa = 0;

	for (size_t i = 0; i < nk; i++) {
		int64_t *ov;
		size_t m = perf_tree_overlaps(tp, k[i], &ov);
		for (size_t j = 0; j < m; j++) {
			const struct node *o = N(tp, (uint32_t)ov[j]);
			const char *nm = name_of(tp, (uint32_t)ov[j]);
			double t = ov_len(N(tp, k[i]), o), pct;
			size_t a;
			if (t < 0)
				t = 0;
			pct = runtime > 0 ? t / runtime : 0.0;
			for (a = 0; a < nn && strcmp(acc[a].name, nm); a++)
				;
			if (a == nn) {
				xgrow((void **)&acc, &aa, nn + 1, sizeof(*acc));
				acc[nn] = (struct acc){ nm, o->flags & NF_STREAM ?
					tree_nodes_str(tp->ns, o->stream) : NULL, 0, 0, 0 };
				pystr_adds(&names, nn ? ", " : "[");
				py_repr_str(&names, nm, strlen(nm));
				nn++;
			}
			/* Python's sum() from int 0, left to right */
			acc[a].dur += o->dur;
			acc[a].pct += py_round(pct, 2);
			acc[a].n++;
		}
		free(ov);
	}
	if (!nn)
		return;
	pystr_addc(&names, ']');
	out->names = names.buf;
	out->det = xcalloc(nn, sizeof(*out->det));
	out->ndet = nn;
	for (size_t a = 0; a < nn; a++) {
		out->det[a].name = acc[a].name;
		out->det[a].stream = acc[a].stream;
		out->det[a].dur = py_round(acc[a].dur / (double)acc[a].n, 2);
		out->det[a].pct = py_round(acc[a].pct / (double)acc[a].n, 2);
	}
	free(acc);
}

/* kernels in the order TraceLens lists them; fills *out */
static void overlap_info(const struct perf_tree *tp, const uint32_t *k, size_t nk,
			 struct overlap_info *out)
{
	double runtime = perf_tree_busy(tp, k, nk), total = 0;

	memset(out, 0, sizeof(*out));
	out->pct = NAN;
	overlap_details(tp, k, nk, runtime, out);
	if (!out->ndet)
		return;
	for (size_t i = 0; i < nk; i++) {
		int64_t *ov;
		size_t m = perf_tree_overlaps(tp, k[i], &ov), ni = 0;
		struct timeline_interval *iv = xmalloc(st_mult(m + 1, sizeof(*iv)));
		for (size_t j = 0; j < m; j++) {
			const struct node *kn = N(tp, k[i]), *o = N(tp, (uint32_t)ov[j]);
			double s = kn->ts > o->ts ? kn->ts : o->ts;
			double e = node_end(kn) < node_end(o) ? node_end(kn) : node_end(o);
			if (e > s)
				iv[ni++] = (struct timeline_interval){ s, e };
		}
		total += np_busy_time(iv, ni);
		free(iv);
		free(ov);
	}
	out->pct = py_round(runtime > 0 ? total / runtime : 0.0, 2);
}

static void info_release(struct overlap_info *o)
{
	free(o->names);
	free(o->det);
	memset(o, 0, sizeof(*o));
}

void perf_tree_overlap(struct perf_tree *tp)
{
	size_t n = tp->ns->n, ne = 0, nr = 0;
	uint32_t *ev = xmalloc(st_mult(n + 1, sizeof(*ev))), *rcev = NULL;

	if (tp->launch_ov)
		return;
	tp->ovset = xcalloc(n + 1, sizeof(*tp->ovset));
	/* get_df_gpu_timeline's events: the GPU events counted in the
	 * timeline, one sweep per recompute subset (TP:2756-2785) */
	if (tp->rc)
		rcev = xmalloc(st_mult(n + 1, sizeof(*rcev)));
	for (uint32_t i = 0; i < n; i++) {
		const struct node *e = N(tp, i);
		if (!node_is_gpu(e) || (!tp->all_gpu && e->parent < 0))
			continue;
		if (tp->rc && tp->rc[i])
			rcev[nr++] = i;
		else
			ev[ne++] = i;
	}
	sweep(tp, ev, ne);
	if (rcev)
		sweep(tp, rcev, nr);
	free(rcev);
	tp->launch_ov = xcalloc(tp->nlaunch + 1, sizeof(*tp->launch_ov));
	for (size_t l = 0; l < tp->nlaunch; l++) {
		/* launcher_to_kernels lists kernels in uid order */
		const struct launcher *L = &tp->launch[l];
		tl_memcpy(ev, L->kern, L->nkern * sizeof(*ev));
		tl_qsort(ev, L->nkern, sizeof(*ev), cmp_uid);
		overlap_info(tp, ev, L->nkern, &tp->launch_ov[l]);
	}
	free(ev);
	if (!tp->uni)
		perf_tree_unified(tp);
	tp->uni_ov = xcalloc(tp->nuni + 1, sizeof(*tp->uni_ov));
	for (size_t i = 0; i < tp->nuni; i++) {
		/* build_df_unified_perf_table: an event whose launcher info says
		 * no overlap gets its own from all its GPU events (TP:2052-2060);
		 * a synthetic row copies its owner's launcher info */
		const struct unirow *r = &tp->uni[i];
		int32_t li = tp->launcher_of[r->uid];
		const struct overlap_info *lo = li >= 0 ? &tp->launch_ov[li] : NULL;
		if (lo && lo->pct == lo->pct) {
			struct overlap_info *o = &tp->uni_ov[i];
			o->names = lo->names ? xstrdup(lo->names) : NULL;
			o->det = xcalloc(lo->ndet + 1, sizeof(*o->det));
			tl_memcpy(o->det, lo->det, lo->ndet * sizeof(*o->det));
			o->ndet = lo->ndet;
			o->pct = lo->pct;
		} else {
			overlap_info(tp, r->gpu, r->ngpu, &tp->uni_ov[i]);
		}
	}
}

void perf_tree_overlap_free(struct perf_tree *tp)
{
	for (size_t i = 0; tp->launch_ov && i < tp->nlaunch; i++)
		info_release(&tp->launch_ov[i]);
	for (size_t i = 0; tp->uni_ov && i < tp->nuni; i++)
		info_release(&tp->uni_ov[i]);
	free(tp->launch_ov);
	free(tp->uni_ov);
	for (size_t i = 0; tp->ovset && i < tp->ns->n; i++)
		if (tp->ovset[i]) {
			py_set_release(tp->ovset[i]);
			free(tp->ovset[i]);
		}
	free(tp->ovset);
	free(tp->rc);
	tp->launch_ov = tp->uni_ov = NULL;
	tp->ovset = NULL;
	tp->rc = NULL;
}
