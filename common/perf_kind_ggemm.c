/*
 * The grouped_gemm kind: TraceLens's primus_turbo_grouped_gemm and
 * primus_turbo_grouped_gemm_variable_k (PerfModel/perf_model.py;
 * spec tracelens-perfmodel.md §3.2).
 *
 * Traces show these ops in two forms: compact, one tensor per operand
 * ([[M,K],[G,K,N]]), or zipped, one (rows, cols) pair per group
 * ([[(M1,K),(M2,K)],[(K,N),(K,N)]]).  Zipped dims are nested lists, which
 * pm_val keeps only as a repr, so the pairs are read back from that repr
 * the way TraceLens's _collect_2d_shapes walks the lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_dtype.h"
#include "perf_args.h"
#include "xalloc.h"
#include "banned.h"

struct pair {
	int64_t a, b;
};

struct pairs {
	struct pair *v;
	size_t n, alloc;
	int overflow;	/* an int past int64: Python has it, tl does not */
};

static int is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* One repr token that is not a tuple; *isint set for a Python int. */
static const char *scalar(const char *p, int *isint, int64_t *v, struct pairs *out)
{
	const char *s = p;
	char *end;

	*isint = 0;
	if (*p == '\'' || *p == '"') {	/* a string: skip it, escapes too */
		char q = *p++;
		while (*p && *p != q)
			p += p[0] == '\\' && p[1] ? 2 : 1;
		return *p ? p + 1 : p;
	}
	while (*p && *p != ',' && *p != ')')
		p++;
	if (p - s == 4 && !strncmp(s, "True", 4)) {	/* bool is an int */
		*isint = 1;
		*v = 1;
	} else if (p - s == 5 && !strncmp(s, "False", 5)) {
		*isint = 1;
		*v = 0;
	} else if (p > s && strspn(s + (*s == '-'), "0123456789") == (size_t)(p - s - (*s == '-'))) {
		*v = strtoll(s, &end, 10);
		*isint = end == p;
		if (*v == INT64_MAX || *v == INT64_MIN)
			out->overflow = 1;
	}
	return p;
}

/*
 * _collect_2d_shapes over the repr at p: a tuple of exactly two positive
 * ints is a pair, any other tuple is searched.  Returns the end.
 */
static const char *collect(const char *p, int *isint, int64_t *v, struct pairs *out)
{
	int n = 0, ints = 0;
	int64_t e[2] = { 0, 0 };

	if (*p != '(')
		return scalar(p, isint, v, out);
	*isint = 0;
	p++;
	while (*p && *p != ')') {
		int ei;
		int64_t ev = 0;

		p = collect(p, &ei, &ev, out);
		if (ei && ev > 0 && n < 2) {
			e[n] = ev;
			ints++;
		}
		n++;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (n == 2 && ints == 2) {
		xgrow((void **)&out->v, &out->alloc, out->n + 1, sizeof(*out->v));
		out->v[out->n].a = e[0];
		out->v[out->n++].b = e[1];
	}
	return *p ? p + 1 : p;
}

static void collect_dim(struct pm_ctx *c, int i, struct pairs *out)
{
	int isint;
	int64_t v;

	if (i < c->in.ndims)
		collect(c->in.dims[i].repr, &isint, &v, out);
}

/* D[i] is a flat list of at least n dims whose first n are ints > 0 */
static int positive(const struct pm_ctx *c, int i, int n, int exact)
{
	const struct pm_val *d;

	if (i >= c->in.ndims)
		return 0;
	d = &c->in.dims[i];
	if (!d->flat || d->n < n || (exact && d->n != n))
		return 0;
	for (int j = 0; j < n; j++)
		if (d->v[j] <= 0)
			return 0;
	return 1;
}

/* name2bpe of T[0], and of T[1] falling back to T[0] (TraceLens quirk:
 * the output size comes from the weight's dtype) */
static void ggemm_bpe(struct pm_ctx *c, double *bi, double *bo)
{
	const char *t0 = c->in.ntypes > 0 ? c->in.types[0] : NULL;
	const char *t1 = c->in.ntypes > 1 ? c->in.types[1] : NULL;

	*bi = t0 ? perf_dtype_bpe(t0) : -1;
	*bo = t1 && perf_dtype_bpe(t1) > 0 ? perf_dtype_bpe(t1) : *bi;
}

static void bpe_param(struct pm_ctx *c, const char *key, double b)
{
	if (b < 0)
		pm_p_none(c, key);
	else
		pm_p_int(c, key, (int64_t)b);
}

static int checked(struct pm_ctx *c, double v)
{
	if (!(v < 9.2e18))
		return pm_fail(c, PM_FAIL, "shape value out of range");
	return 1;
}

/* fixed K: compact [[M,K],[G,K,N] or [G,N,K]], else zipped with uniform K, N */
static int fixed_k(struct pm_ctx *c, const struct pairs *l, const struct pairs *r,
		   int64_t *M, int64_t *K, int64_t *N, int64_t *G)
{
	double sum = 0;

	if (c->in.ndims >= 2 && positive(c, 0, 2, 0) && positive(c, 1, 3, 1)) {
		const int64_t *b = c->in.dims[1].v;
		*M = c->in.dims[0].v[0];
		*K = c->in.dims[0].v[1];
		*G = b[0];
		*N = b[1] == *K ? b[2] : b[2] == *K ? b[1] : -1;
		if (*N > 0)
			return 1;
	}
	if (!l->n || l->n != r->n)
		return 0;
	*K = l->v[0].b;
	*N = r->v[0].b;
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].b != *K || r->v[i].a != *K || r->v[i].b != *N)
			return 0;
		sum += (double)l->v[i].a;
	}
	if (!checked(c, sum))
		return 0;
	*M = (int64_t)sum;
	*G = (int64_t)l->n;
	return 1;
}

static void grouped_fixed(struct pm_ctx *c, const struct pairs *l, const struct pairs *r)
{
	int64_t M = 0, K = 0, N = 0, G = 0;
	double bi, bo;

	if (!fixed_k(c, l, r, &M, &K, &N, &G))
		return (void)pm_fail(c, PM_FAIL, "grouped_gemm could not parse Input Dims");
	ggemm_bpe(c, &bi, &bo);
	pm_p_int(c, "M", M);
	pm_p_int(c, "K", K);
	pm_p_int(c, "N", N);
	pm_p_int(c, "G", G);
	bpe_param(c, "bpe_in", bi);
	bpe_param(c, "bpe_out", bo);
	pm_set(c, 2.0 * M * K * N,
	       bi < 0 || bo < 0 ? -1 : ((double)M * K + (double)G * K * N) * bi + (double)M * N * bo);
}

/* "[((M1, K1), (K1, N1)), ...]" */
static char *pairs_repr(const struct pairs *l, const struct pairs *r)
{
	size_t n = l->n * 96 + 3;
	char *s = xmalloc(n), *p = s;

	p += snprintf(p, n, "[");
	for (size_t i = 0; i < l->n; i++)
		p += snprintf(p, n - (size_t)(p - s), "%s((%lld, %lld), (%lld, %lld))", i ? ", " : "",
			      (long long)l->v[i].a, (long long)l->v[i].b, (long long)r->v[i].a,
			      (long long)r->v[i].b);
	snprintf(p, n - (size_t)(p - s), "]");
	return s;
}

/* variable K: compact [[M,K],[M,N]] is one group ((M,K),(K,N)); else
 * zipped pairs with a[1] == b[0]; flops and bytes summed per group */
static void grouped_variable_k(struct pm_ctx *c, struct pairs *l, struct pairs *r)
{
	double bi, bo, f = 0, y = 0, M = 0;
	char *rep;

	if (c->in.ndims >= 2 && positive(c, 0, 2, 1) && positive(c, 1, 2, 1)) {
		l->n = r->n = 0;
		xgrow((void **)&l->v, &l->alloc, 1, sizeof(*l->v));
		xgrow((void **)&r->v, &r->alloc, 1, sizeof(*r->v));
		l->v[0] = (struct pair){ c->in.dims[0].v[0], c->in.dims[0].v[1] };
		r->v[0] = (struct pair){ c->in.dims[0].v[1], c->in.dims[1].v[1] };
		l->n = r->n = 1;
	} else if (!l->n || l->n != r->n) {
		l->n = 0;
	} else {
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].b != r->v[i].a)
				l->n = 0;
	}
	if (!l->n)
		return (void)pm_fail(c, PM_FAIL, "grouped_gemm_variable_k could not parse Input Dims");
	ggemm_bpe(c, &bi, &bo);
	for (size_t i = 0; i < l->n; i++) {
		double m = (double)l->v[i].a, k = (double)l->v[i].b, n = (double)r->v[i].b;
		M += m;
		f += 2 * m * k * n;
		y += (m * k + k * n) * bi + m * n * bo;
	}
	if (!checked(c, M))
		return;
	pm_p_int(c, "M", (int64_t)M);
	pm_p_int(c, "K", l->v[0].b);
	pm_p_int(c, "N", r->v[0].b);
	pm_p_int(c, "G", (int64_t)l->n);
	bpe_param(c, "bpe_in", bi);
	bpe_param(c, "bpe_out", bo);
	rep = pairs_repr(l, r);
	pm_p_obj(c, "group_pairs", rep);
	free(rep);
	pm_set(c, f, bi < 0 || bo < 0 ? -1 : y);
}

void pmk_grouped_gemm(struct pm_ctx *c)
{
	char v[16];
	struct pairs l = { 0 }, r = { 0 };

	if (c->bwd)	/* both primus classes raise for backward */
		return (void)pm_fail(c, PM_NOTIMPL, "grouped GEMM backward is not defined");
	if (!pm_opt(c, "var", v, sizeof(v)) || (!is(v, "compact") && !is(v, "variable_k")))
		return (void)pm_fail(c, PM_NOMODEL, "grouped GEMM form not implemented in tl");
	collect_dim(c, 0, &l);
	collect_dim(c, 1, &r);
	if (l.overflow || r.overflow)
		pm_fail(c, PM_FAIL, "shape value out of range");
	else if (is(v, "compact"))
		grouped_fixed(c, &l, &r);
	else
		grouped_variable_k(c, &l, &r);
	free(l.v);
	free(r.v);
	pm_spec(c, "matrix", perf_dtype_precision(c->in.ntypes > 0 ? c->in.types[0] : NULL));
}
