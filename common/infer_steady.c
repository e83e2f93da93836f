/*
 * infer_steady: steady_state_window.py of TraceLens 171dd74, step by step
 * (its quirks kept: a region ends at the index where the count fell, not
 * after it; the "reference" ratio is the average over all regions).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"
#include "infer_steady.h"
#include "xalloc.h"
#include "banned.h"

static int has_context(const struct infer_step *t) { return t->context_requests > 0; }
static int has_generation(const struct infer_step *t) { return t->generation_requests > 0; }
static int is_mixed(const struct infer_step *t) { return has_context(t) && has_generation(t); }
static int is_decode_only(const struct infer_step *t) { return has_generation(t) && !has_context(t); }
static int is_prefill_only(const struct infer_step *t) { return has_context(t) && !has_generation(t); }

static void add_region(struct infer_region **r, size_t *n, size_t *alloc, size_t s, size_t e)
{
	xgrow((void **)r, alloc, *n + 1, sizeof(**r));
	(*r)[*n].start = s;
	(*r)[(*n)++].end = e;
}

size_t infer_steady_regions(const struct infer_step *d, size_t n, long num_steps,
			    struct infer_region **out, int verbose)
{
	double thresh = (long)n >= num_steps ? 0.1 : 0.2, tol;
	int64_t gmax = d[0].num_requests;
	int started = 0, ended = 0;
	long prev = 0;
	size_t start = 0, i, nr = 0, alloc = 0;

	*out = NULL;
	for (i = 1; i < n; i++)
		if (d[i].num_requests > gmax)
			gmax = d[i].num_requests;
	tol = thresh * (double)gmax > 1 ? thresh * (double)gmax : 1;
	for (i = 0; i < n; i++) {
		if (fabs((double)(d[i].num_requests - gmax)) <= tol) {
			if (!started)
				prev++;
		} else if (started) {
			prev--;
		}
		if (prev > 5 && !started) {
			started = 1;
			start = i - (size_t)prev + 1;
		}
		if (prev <= 0 && started && !ended) {
			add_region(out, &nr, &alloc, start, i);
			started = ended = 0;
			prev = 0;
		}
	}
	if (started && !ended)
		add_region(out, &nr, &alloc, start, n - 1);
	if (!nr) {
		/* no steady state: leave out the first and last iterations */
		long big = num_steps - (long)n > 8 ? num_steps - (long)n : 8;
		long delta = (long)n < big ? (long)n : big;	/* min(n, max(8, num_steps - n)) */
		long s = delta / 2 > 0 ? delta / 2 : 0;
		long e = (long)n - delta / 2;
		if (e < s + 1)
			e = s + 1;
		add_region(out, &nr, &alloc, (size_t)s, (size_t)e);
		if (verbose)
			tl_warn("no steady state region found; discarding initial/final iterations and selecting the middle");
	}
	if (verbose)
		for (i = 0; i < nr; i++)
			tl_warn("steady state region [%zu, %zu)", (*out)[i].start, (*out)[i].end);
	return nr;
}

/* compute_reference_pd_ratio: the largest region and the average ratio */
static double reference(const struct infer_step *d, const struct infer_region *r, size_t nr,
			size_t *ls, size_t *le)
{
	size_t total = 0, pd = 0, best = 0, bsize = 0;

	for (size_t k = 0; k < nr; k++) {
		size_t size = r[k].end > r[k].start ? r[k].end - r[k].start : 0;
		total += size;
		for (size_t i = r[k].start; i < r[k].end; i++)
			pd += has_context(&d[i]);
		if (k == 0 || size > bsize) {
			best = k;
			bsize = size;
		}
	}
	*ls = r[best].start;
	*le = r[best].end;
	return total ? (double)pd / (double)total : 0.0;
}

struct cand {
	size_t start, end, pd;
	double ratio, avg;
};

static void candidate(const struct infer_step *d, size_t s, size_t e, size_t div, struct cand *c)
{
	int64_t req = 0;

	c->start = s;
	c->end = e;
	c->pd = 0;
	for (size_t i = s; i < e; i++) {
		c->pd += has_context(&d[i]);
		req += d[i].num_requests;
	}
	c->ratio = div ? (double)c->pd / (double)div : 0.0;
	c->avg = e > s ? (double)req / (double)(e - s) : 0;
}

/* longest run of steps passing keep() in [s, e), first of the longest */
static int longest_run(const struct infer_step *d, size_t s, size_t e,
		       int (*keep)(const struct infer_step *), size_t *rs, size_t *re)
{
	size_t run = 0, bs = 0, be = 0;
	int in = 0, any = 0;

	for (size_t i = s; i <= e; i++) {
		int k = i < e && keep(&d[i]);
		if (k && !in) {
			run = i;
			in = 1;
		} else if (!k && in) {
			if (!any || i - run > be - bs) {
				bs = run;
				be = i;
			}
			any = 1;
			in = 0;
		}
	}
	*rs = bs;
	*re = be;
	return any;
}

int infer_steady_window(const struct infer_step *d, size_t n, const struct infer_region *r,
			size_t nr, enum infer_mode mode, const struct infer_window_opts *o,
			size_t *ws, size_t *we)
{
	size_t ls, le, nc = 0, rs, re, steps = o->num_steps > 0 ? (size_t)o->num_steps : 1;
	double ref = reference(d, r, nr, &ls, &le);
	int64_t gmax = d[0].num_requests;
	struct cand *c, *best = NULL;
	int pd_any = 0;

	for (size_t i = 1; i < n; i++)
		if (d[i].num_requests > gmax)
			gmax = d[i].num_requests;
	if (o->conc >= 0 && gmax != o->conc)
		tl_warn("expected peak concurrency CONC=%ld but the trace peak is %lld", o->conc,
			(long long)gmax);
	if (o->conc >= 0 && !isnan(o->osl) && !isnan(o->r)) {
		double R = o->r < 0 ? 0 : o->r > 1 ? 1 : o->r, ideal;
		if (o->r < 0 || o->r > 1)
			tl_warn("R=%g is outside [0, 1]; clamping", o->r);
		ideal = ((double)o->conc * 2.0) / (o->osl * (1.0 + R));
		if ((double)steps < ceil(1.0 / ideal)) {
			/* beyond any trace's length the window is the whole region */
			double want = ceil(1.0 / ideal);
			tl_warn("--num-steps=%zu is too small for a prefill-decode ratio of %.4f; raising it to %.0f",
				steps, ideal, want);
			steps = want > 1e15 ? (size_t)1e15 : (size_t)want;
		}
		ref = ideal;
	}
	if (mode == INFER_DECODE_ONLY || mode == INFER_MAX_PREFILLDECODE) {
		if (!longest_run(d, ls, le > n ? n : le,
				 mode == INFER_DECODE_ONLY ? is_decode_only : has_context, &rs, &re))
			return 0;
		*ws = rs;
		*we = re < rs + steps ? re : rs + steps;
		return 1;
	}
	{
		size_t divider = steps / 2 < 10 ? (steps / 2 ? steps / 2 : 1) : 10;
		size_t step = steps / divider ? steps / divider : 1;
		c = xmalloc(st_mult(n + 2, sizeof(*c)));
		if (le >= ls && le - ls >= steps) {
			for (size_t s1 = ls; s1 + steps <= le; s1 += step)
				candidate(d, s1, s1 + steps, steps, &c[nc++]);
		} else {
			candidate(d, ls, le > ls ? le : ls, le > ls ? le - ls : 0, &c[nc++]);
		}
	}
	/* mixed: windows with some prefill first, if any */
	for (size_t i = 0; i < nc; i++)
		pd_any |= c[i].pd > 0;
	for (size_t i = 0; i < nc; i++) {
		double key, bkey;
		if (pd_any && !c[i].pd)
			continue;
		if (!best) {
			best = &c[i];
			continue;
		}
		key = fabs(c[i].ratio - ref);
		bkey = fabs(best->ratio - ref);
		if (key < bkey || (key == bkey && -c[i].avg < -best->avg))
			best = &c[i];
	}
	*ws = best->start;
	*we = best->end;
	if (o->verbose)
		tl_warn("[mixed] window [%zu, %zu): prefill-decode ratio %.3f (target %.3f)",
			*ws, *we, best->ratio, ref);
	free(c);
	return 1;
}

void infer_phase(const struct infer_step *d, size_t n, struct infer_phase *p)
{
	double bs = 0, conc = 0;

	p->num_prefill = p->num_prefilldecode = p->num_decode = 0;
	for (size_t i = 0; i < n; i++) {
		p->num_prefill += is_prefill_only(&d[i]);
		p->num_prefilldecode += is_mixed(&d[i]);
		p->num_decode += is_decode_only(&d[i]);
		bs += (double)d[i].batch_size;
		conc += (double)d[i].num_requests;
	}
	/* int(average): truncated toward zero */
	p->avg_bs = n ? (int64_t)(bs / (double)n) : 0;
	p->avg_conc = n ? (int64_t)(conc / (double)n) : 0;
}
