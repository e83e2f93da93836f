/*
 * The perf-model kinds: one function per kind, reading its argument
 * positions from the ops.tsv options (tl-ops(5)) and reproducing the
 * TraceLens classes named in the rows' class= option
 * (TraceLens/PerfModel/perf_model.py; spec tracelens-perfmodel.md §3).
 * Every formula is TraceLens's, quirks included; the comments say where
 * TraceLens is surprising.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perf_dtype.h"
#include "perf_args.h"
#include "xalloc.h"
#include "banned.h"

#define NONE (-1.0)	/* a bytes-per-element of None */

static int is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* name2bpe with None for missing names */
static double bpe(const char *dtype)
{
	return dtype ? perf_dtype_bpe(dtype) : NONE;
}

/* A shape value computed in double, back to an integer; absurd shapes
 * (overflow, inf from a zero stride) fail instead of being undefined. */
static int64_t i64(struct pm_ctx *c, double v)
{
	if (!(v > -9.2e18 && v < 9.2e18))
		return pm_fail(c, PM_FAIL, "shape value out of range");
	return (int64_t)v;
}

/* Python's int(s) for the strings Concrete Inputs hold; fails otherwise. */
static long long py_int(struct pm_ctx *c, const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	while (*end == ' ')
		end++;
	if (end == s || *end)
		pm_fail(c, PM_FAIL, "invalid literal for int()");
	return v;
}

static double py_float(struct pm_ctx *c, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end)
		pm_fail(c, PM_FAIL, "could not convert string to float");
	return v;
}

/* eval() of "True"/"False" (what TraceLens does with bool strings). */
static int py_eval_bool(struct pm_ctx *c, const char *s)
{
	if (is(s, "True") || is(s, "1"))
		return 1;
	if (is(s, "False") || is(s, "0"))
		return 0;
	return pm_fail(c, PM_FAIL, "cannot eval bool");
}

/*
 * A "[a, b, ...]" list of ints or bools from a Concrete Input
 * (ast.literal_eval); returns the count, fails on anything else.
 */
static int py_list(struct pm_ctx *c, const char *s, int64_t *v, int max)
{
	int n = 0;

	while (*s == ' ')
		s++;
	if (*s != '[' && *s != '(')
		return pm_fail(c, PM_FAIL, "not a list literal");
	s++;
	for (;;) {
		char *end;
		while (*s == ' ' || *s == ',')
			s++;
		if (*s == ']' || *s == ')')
			return n;
		if (n == max)
			return pm_fail(c, PM_FAIL, "list literal too long");
		if (!strncmp(s, "True", 4)) {
			v[n++] = 1;
			s += 4;
		} else if (!strncmp(s, "False", 5)) {
			v[n++] = 0;
			s += 5;
		} else {
			v[n++] = strtoll(s, &end, 10);
			if (end == s)
				return pm_fail(c, PM_FAIL, "bad list literal");
			s = end;
		}
	}
}

static double prod_list(struct pm_ctx *c, const char *s)
{
	int64_t v[16];
	int n = py_list(c, s, v, 16);
	double p = 1;

	for (int i = 0; i < n; i++)
		p *= (double)v[i];
	return p;
}

/* Strict shape: D[i] must be a list of ints. */
static const struct pm_val *shape(struct pm_ctx *c, int i)
{
	const struct pm_val *v = pm_D(c, i);

	if (!v->flat)
		pm_fail(c, PM_FAIL, "Input Dims entry is not a shape");
	return v;
}

static void p_dims(struct pm_ctx *c, const char *key, const struct pm_val *v)
{
	pm_p_obj(c, key, v->repr);
}

static void p_types(struct pm_ctx *c, const char *key, const char *const *t, int n)
{
	char *r = pm_repr_strs(t, n);
	pm_p_obj(c, key, r);
	free(r);
}

static void p_ints(struct pm_ctx *c, const char *key, const int64_t *v, int n)
{
	char *r = pm_repr_ints(v, n);
	pm_p_obj(c, key, r);
	free(r);
}

/* Input type[a:b] as Python slicing does (short lists give short tuples). */
static int type_slice(struct pm_ctx *c, const char *spec, const char **out, int max)
{
	static char lit[4][64];
	int n = 0;

	for (const char *p = spec; p && *p && n < max; ) {
		char *end;
		if (*p == '=') {	/* a literal dtype */
			size_t len = strcspn(p + 1, ",");
			snprintf(lit[n], sizeof(lit[n]), "%.*s", (int)len, p + 1);
			out[n] = lit[n];
			n++;
			p += len + 1;
		} else {
			long i = strtol(p, &end, 10), j;
			if (end == p)
				break;
			p = end;
			if (!strncmp(p, "known?", 6)) {
				/* Nknown?M: T[N] if present with a known size, else T[M] */
				j = strtol(p + 6, &end, 10);
				p = end;
				out[n++] = i < c->in.ntypes && bpe(c->in.types[i]) > 0 ? c->in.types[i] :
					   j < c->in.ntypes ? c->in.types[j] : NULL;
			} else if (*p == '?') {
				/* N?LIT: T[N] if the op has that many types, else LIT */
				size_t len = strcspn(p + 1, ",");
				snprintf(lit[n], sizeof(lit[n]), "%.*s", (int)len, p + 1);
				out[n] = i < c->in.ntypes ? c->in.types[i] : lit[n];
				n++;
				p += len + 1;
			} else if (i < c->in.ntypes) {
				out[n++] = c->in.types[i];
			}
		}
		if (*p == ',')
			p++;
	}
	return n;
}

/* ---- GEMM ------------------------------------------------------------ */

/* "(trans_a, trans_b)" from the first kernel name the parser knows
 * (TraceLens 171dd74 kernel_name_parser: Tensile and nvjet only). */
static char *gemm_transpose(struct pm_ctx *c)
{
	for (size_t k = 0; k < c->nkernels; k++) {
		const char *n = c->kernels[k];
		const char *t[2] = { NULL, NULL };
		int tensile = 0;

		for (const char *p = n; *p && !tensile; p++) {
			tensile = p[0] == 'C' && strlen(p) >= 14;
			for (int i = 1; tensile && i < 14; i++) {
				char ch = p[i];
				int want_lower = !(i == 4 || i == 5 || i == 9 || i == 10);
				if (want_lower)
					tensile = ch >= 'a' && ch <= 'z';
			}
			tensile = tensile && p[4] == '_' && p[5] == 'A' && p[9] == '_' && p[10] == 'B';
		}
		if (tensile) {
			t[0] = strstr(n, "_Ailk_") ? "False" : strstr(n, "_Alik_") ? "True" : "None";
			t[1] = strstr(n, "_Bljk_") ? "False" : strstr(n, "_Bjlk_") ? "True" : "None";
		} else if (!strncmp(n, "nvjet", 5)) {
			const char *last = strrchr(n, '_');
			last = last ? last + 1 : n;
			if (strlen(last) < 2) {
				pm_fail(c, PM_FAIL, "nvjet kernel name without transpose flags");
				return NULL;
			}
			t[0] = last[0] == 'T' ? "True" : "False";
			t[1] = last[1] == 'T' ? "True" : "False";
		} else {
			continue;
		}
		char buf[32];
		snprintf(buf, sizeof(buf), "(%s, %s)", t[0], t[1]);
		return xstrdup(buf);
	}
	return NULL;
}

/* "2dK": the K-th argument of rank 2 (vllm gemm_with_dynamic_quant). */
static int gemm_arg(struct pm_ctx *c, const char *key, int def)
{
	char buf[16];
	const char *v = pm_opt(c, key, buf, sizeof(buf));

	if (v && !strncmp(v, "2d", 2)) {
		int want = atoi(v + 2), seen = 0;
		for (int i = 0; i < c->in.ndims; i++)
			if (c->in.dims[i].flat && c->in.dims[i].n == 2 && seen++ == want)
				return i;
		return want;
	}
	return v ? atoi(v) : def;
}

struct gemm {
	int64_t B, M, N, K;
	int bias;
	const char *dt[4];
	int ndt;
	double ba, bb, bbias, bout;
};

static void gemm_shapes(struct pm_ctx *c, struct gemm *g)
{
	char la[8], lb[8];
	const struct pm_val *A = shape(c, gemm_arg(c, "a", 0));
	const struct pm_val *Bv = shape(c, gemm_arg(c, "b", 1));
	int ib = gemm_arg(c, "b", 1);

	(void)Bv;
	g->B = 1;
	if (!pm_opt(c, "la", la, sizeof(la)))
		snprintf(la, sizeof(la), "MK");
	if (!pm_opt(c, "lb", lb, sizeof(lb)))
		snprintf(lb, sizeof(lb), "KN");
	if (is(la, "BMK")) {
		g->B = pm_Dj(c, gemm_arg(c, "a", 0), 0);
		g->M = pm_Dj(c, gemm_arg(c, "a", 0), 1);
		g->K = pm_Dj(c, gemm_arg(c, "a", 0), 2);
		if (A->n != 3)
			pm_fail(c, PM_FAIL, "batched GEMM operand is not 3-D");
	} else {
		g->M = pm_Dj(c, gemm_arg(c, "a", 0), 0);
		g->K = pm_Dj(c, gemm_arg(c, "a", 0), 1);
	}
	g->N = is(lb, "NK") ? pm_Dj(c, ib, 0) : is(lb, "BKN") ? pm_Dj(c, ib, 2)
	     : is(lb, "BNK") ? pm_Dj(c, ib, 1) : pm_Dj(c, ib, 1);
	g->K = i64(c, (double)g->K * (double)pm_opt_int(c, "kmul", 1));
}

static int gemm_bias(struct pm_ctx *c)
{
	char v[16];

	if (!pm_opt(c, "bias", v, sizeof(v)) || is(v, "no"))
		return 0;
	if (is(v, "yes"))
		return 1;
	if (is(v, "ndims3"))	/* TraceLens quirk: real events have more args */
		return c->in.ndims == 3;
	if (is(v, "dim2"))
		return c->in.ndims > 2 && c->in.dims[2].n > 0;
	return 0;
}

/* The bytes-per-element rule of the row (option bpe=). */
static void gemm_bpe(struct pm_ctx *c, struct gemm *g)
{
	char rule[16], out[48];
	double a = bpe(g->ndt > 0 ? g->dt[0] : NULL);
	double b = bpe(g->ndt > 1 ? g->dt[1] : NULL);

	if (!pm_opt(c, "bpe", rule, sizeof(rule)))
		snprintf(rule, sizeof(rule), "a");
	g->ba = g->bb = g->bbias = g->bout = a;
	if (is(rule, "scaled")) {
		/* aten_scaled_mm: fp8 in → fp16 out; asserts both sizes known */
		if (a < 0 || b < 0)
			pm_fail(c, PM_FAIL, "data types of A and B are not supported");
		g->bout = a == 1 ? 2 : (a == 2 || a == 4) ? a : NONE;
	} else if (is(rule, "out2")) {
		g->bb = b;
		g->bout = 2;
	} else if (is(rule, "fp4")) {
		g->ba = g->bb = 0.5;
		g->bout = g->bbias = 2;
	} else if (is(rule, "a16wfp4")) {
		g->bb = 0.5;
		g->bout = g->bbias = 2;
	} else if (is(rule, "unquant")) {
		g->bb = b;
		g->bout = g->bbias = bpe(g->bias ? pm_T(c, 2) : pm_T(c, 1));
	} else if (is(rule, "each")) {
		const char *o = NULL;
		g->bb = b;
		if (pm_opt(c, "out", out, sizeof(out))) {
			if (!strncmp(out, "t3:", 3))
				o = c->in.ntypes > 3 ? c->in.types[3] : out + 3;
			else if (!strncmp(out, "t2known:", 8))
				o = c->in.ntypes > 2 && bpe(c->in.types[2]) > 0 ? c->in.types[2] : pm_T(c, 0);
			else
				o = pm_T(c, atoi(out + 1));
		}
		g->bout = g->bbias = bpe(o);
	}
}

static void gemm_params(struct pm_ctx *c, const struct gemm *g, const char *preset)
{
	int ia = gemm_arg(c, "a", 0), ib = gemm_arg(c, "b", 1);
	int bmm = is(preset, "bmm") || is(preset, "ext") || is(preset, "blockscale");

	if (bmm)
		pm_p_int(c, "B", g->B);
	pm_p_int(c, "M", g->M);
	pm_p_int(c, "N", g->N);
	pm_p_int(c, "K", g->K);
	pm_p_bool(c, "bias", g->bias);
	if (is(preset, "mm") || is(preset, "bmm") || is(preset, "scaled2")) {
		char v[16];
		if (pm_opt(c, "var", v, sizeof(v)) && is(v, "te_gemm_ts"))
			ib = 5;
		else if (is(preset, "scaled2"))
			ib = is(v, "a4w4") ? 1 : 2;
		pm_p_obj(c, "stride_A", pm_S(c, ia));
		pm_p_obj(c, "stride_B", pm_S(c, ib));
	}
	p_types(c, "dtype_A_B", g->dt, g->ndt);
	if (is(preset, "scaled2")) {
		char v[16];
		int a4 = pm_opt(c, "var", v, sizeof(v)) && is(v, "a4w4");
		pm_p_str(c, "dtype_scaleA", c->in.ntypes > (a4 ? 2 : 1) ? c->in.types[a4 ? 2 : 1] : NULL);
		pm_p_str(c, "dtype_scaleB", c->in.ntypes > 3 ? c->in.types[3] : NULL);
	}
	if (is(preset, "blockscale")) {
		int64_t os[2] = { g->M, g->N };
		p_ints(c, "output_shape", os, 2);
		pm_p_str(c, "output_dtype", "c10::bfloat16");
	}
	if (!bmm)
		pm_p_int(c, "B", 1);
}

/* TraceLens parse_bool: '', '0', 'false' and absent are False */
static int py_parse_bool(const char *s)
{
	if (!s || !*s || is(s, "0") || !strcasecmp(s, "false"))
		return 0;
	return 1;
}

/* tex_ts::te_gemm_ts: A=D0, B=D5, out=D10, transposes in C4/C9, bias C14 */
static void gemm_te(struct pm_ctx *c, struct gemm *g)
{
	int ta = is(pm_C(c, 4), "1"), tb = is(pm_C(c, 9), "1");

	g->B = 1;
	g->M = pm_Dj(c, 0, ta ? 0 : 1);
	g->K = pm_Dj(c, 0, ta ? 1 : 0);
	g->N = pm_Dj(c, 5, tb ? 1 : 0);
	g->bias = *pm_C(c, 14) != '\0';
	g->dt[0] = pm_T(c, 0);
	g->dt[1] = pm_T(c, 5);
	g->dt[2] = pm_T(c, 10);
	g->dt[3] = pm_T(c, 18);
	g->ndt = 4;
	g->ba = bpe(g->dt[0]);
	g->bb = bpe(g->dt[1]);
	g->bout = bpe(g->dt[2]);
	g->bbias = bpe(g->dt[3]);
}

/* hipBLASLt fp8/fp4 (primus_turbo) and aiter a4w4: A, B and their scales */
static void gemm_scaled(struct pm_ctx *c, struct gemm *g, const char *v)
{
	int a4 = is(v, "a4w4");
	int ia = 0, ib = a4 ? 1 : 2;
	int ta = 0, tb = 1;

	if (!a4) {
		int tc;
		ta = c->in.nconc > 5 && py_parse_bool(c->in.conc[5]);
		tb = c->in.nconc > 6 && py_parse_bool(c->in.conc[6]);
		tc = c->in.nconc > 7 && py_parse_bool(c->in.conc[7]);
		if (tc) {	/* C^T = B^T A^T */
			int t = ia;
			ia = ib;
			ib = t;
			t = ta;
			ta = !tb;
			tb = !t;
		}
	}
	g->B = 1;
	g->M = pm_Dj(c, ia, ta ? 1 : 0);
	g->K = i64(c, (double)pm_Dj(c, ia, ta ? 0 : 1) * (double)pm_opt_int(c, "kmul", 1));
	g->N = pm_Dj(c, ib, tb ? 0 : 1);
	g->dt[0] = pm_T(c, 0);
	g->dt[1] = pm_T(c, a4 ? 1 : 2);
	g->ndt = 2;
	g->ba = bpe(g->dt[0]);
	g->bb = bpe(g->dt[1]);
	g->bout = g->bbias = g->ba == 1 ? 2 : g->ba;
}

/* sglang batched a8w8: B, N from the weight; M from the activation */
static void gemm_batched_a8w8(struct pm_ctx *c, struct gemm *g)
{
	g->B = pm_Dj(c, 1, 0);
	g->N = pm_Dj(c, 1, 1);
	g->K = pm_Dj(c, 0, 2);
	g->M = pm_Dj(c, 0, 0) == g->B ? pm_Dj(c, 0, 1) : pm_Dj(c, 0, 0);
	g->dt[0] = pm_T(c, 0);
	g->dt[1] = pm_T(c, 1);
	g->ndt = 2;
	g->ba = bpe(g->dt[0]);
	g->bb = bpe(g->dt[1]);
	g->bout = g->bbias = 2;
}

/* the rows with var=: one of the class-specific layouts above */
static int gemm_variant(struct pm_ctx *c, const char *v, struct gemm *g, const char **preset)
{
	if (is(v, "te_gemm_ts")) {
		gemm_te(c, g);
		*preset = "mm";
	} else if (is(v, "hipblaslt") || is(v, "a4w4")) {
		gemm_scaled(c, g, v);
		*preset = "scaled2";
	} else if (is(v, "batched_a8w8")) {
		gemm_batched_a8w8(c, g);
		*preset = "ext";
	} else {
		return pm_fail(c, PM_NOMODEL, "GEMM variant not implemented in tl");
	}
	return 1;
}

/* MX fp4 GEMM bytes: packed operands, one scale per 32 of K, bf16 out */
static double gemm_mx_bytes(struct pm_ctx *c, const struct gemm *g)
{
	double sa, sb, kb = ceil((double)g->K / 32);
	const char *v = NULL;
	char buf[16];

	v = pm_opt(c, "var", buf, sizeof(buf));
	/* scale dtypes: hipBLASLt T1/T3, a4w4 T2/T3 */
	sa = bpe(c->in.ntypes > (is(v, "a4w4") ? 2 : 1) ? c->in.types[is(v, "a4w4") ? 2 : 1] : NULL);
	sb = bpe(c->in.ntypes > 3 ? c->in.types[3] : NULL);
	if (sa < 0)
		sa = 1;
	if (sb < 0)
		sb = 1;
	if (g->ba < 0 || g->bb < 0)
		return NONE;
	return (double)g->M * floor((double)g->K / 2) * g->ba + (double)g->N * floor((double)g->K / 2) * g->bb +
	       (double)g->M * kb * sa + (double)g->N * kb * sb + (double)g->M * g->N * 2;
}

void pmk_gemm(struct pm_ctx *c)
{
	struct gemm g = { 0 };
	char preset[16], prec[16], buf[32];
	const char *vp = NULL;
	double flops, bytes;
	char *tr;

	if (c->bwd) {	/* GEMM has no bwd_category; its classes raise */
		pm_fail(c, PM_NOTIMPL, "backward pass for GEMM is not defined");
		return;
	}
	if (pm_opt(c, "var", buf, sizeof(buf))) {
		if (!gemm_variant(c, buf, &g, &vp))
			return;
		snprintf(preset, sizeof(preset), "%s", vp);
	} else {
		gemm_shapes(c, &g);
		g.bias = gemm_bias(c);
		g.ndt = type_slice(c, pm_opt(c, "dt", buf, sizeof(buf)) ? buf : "0,1", g.dt, 4);
		gemm_bpe(c, &g);
		if (!pm_opt(c, "params", preset, sizeof(preset)))
			snprintf(preset, sizeof(preset), "mm");
	}
	gemm_params(c, &g, preset);
	tr = gemm_transpose(c);
	if (tr) {
		pm_p_obj(c, "transpose", tr);
		free(tr);
	}
	flops = (double)g.B * (2.0 * g.M * g.N * g.K + (g.bias ? (double)g.M * g.N : 0));
	if (pm_opt_int(c, "mx", 0))
		bytes = gemm_mx_bytes(c, &g);
	else if (g.ba < 0 || g.bb < 0 || g.bbias < 0 || g.bout < 0)
		bytes = NONE;
	else
		bytes = (double)g.B * ((double)g.M * g.K * g.ba + (double)g.K * g.N * g.bb +
				       (double)g.M * g.N * g.bout + (g.bias ? g.N : 0) * g.bbias);
	pm_set(c, flops, bytes);
	if (pm_opt(c, "prec", prec, sizeof(prec)))
		pm_spec(c, "matrix", prec[0] == 't' ? perf_dtype_precision(pm_T(c, atoi(prec + 1))) : prec);
	else
		pm_spec(c, "matrix", g.ndt ? perf_dtype_precision(g.dt[0]) : NULL);
}

/* ---- grouped GEMM: common/perf_kind_ggemm.c ---------------------------- */

/* ---- convolution ----------------------------------------------------- */

struct conv {
	int64_t x[8], w[8], out[8];
	int nd;			/* spatial dims */
	int transposed;
	double bias;		/* 0/1, or the list [] (falsy) */
	int bias_is_list;
};

static double nprod(const int64_t *v, int n)
{
	double p = 1;

	for (int i = 0; i < n; i++)
		p *= (double)v[i];
	return p;
}

/* CONV.flops_func(x, w, out, bias, transposed) for shapes of rank r */
static double conv_flops(const int64_t *x, const int64_t *w, const int64_t *out, int r,
			 int bias, int transposed)
{
	double per = 2 * nprod(w + 1, r - 1);

	return (transposed ? nprod(x, r) : nprod(out, r)) * per + (bias ? nprod(out, r) : 0);
}

static void swap01(int64_t *d, const int64_t *s, int r)
{
	memcpy(d, s, sizeof(*d) * (size_t)r);
	d[0] = s[1];
	d[1] = s[0];
}

/* "[16, 16]" → (16, 16); "" → (def,)*nd; length 1 broadcast to nd */
static void conv_tuple(struct pm_ctx *c, const char *opt, int nd, int64_t def, int64_t *v)
{
	long i = pm_opt_int(c, opt, -1);
	const char *s = i >= 0 ? pm_C(c, (int)i) : "";
	int n;

	if (!*s) {
		for (int k = 0; k < nd; k++)
			v[k] = def;
		return;
	}
	n = py_list(c, s, v, 8);
	if (n == 1)
		for (int k = 1; k < nd; k++)
			v[k] = v[0];
	else if (n != nd)
		pm_fail(c, PM_FAIL, "conv parameter has the wrong length");
}

void pmk_conv(struct pm_ctx *c)
{
	char v[24], bias[16], buf[16];
	struct conv k = { 0 };
	int64_t stride[8], pad[8], dil[8], opad[8];
	int xi = (int)pm_opt_int(c, "x", 0), wi = (int)pm_opt_int(c, "w", 1), r;
	const struct pm_val *x, *w;
	const char *dt[2];
	int bwdmode = pm_opt(c, "mode", buf, sizeof(buf)) && is(buf, "bwd");
	double flops, bytes, b;

	int cb = pm_opt(c, "var", v, sizeof(v)) != NULL;	/* apex ConvBias(ReLU)_ */

	/* their backward classes look up the forward's params by Sequence
	 * number, which the event stream does not carry */
	if (cb && !is(v, "convbias"))
		return (void)pm_fail(c, PM_NOMODEL, "ConvBias backward not implemented in tl");
	x = shape(c, xi);
	w = shape(c, wi);
	if (pm_failed(c))
		return;
	r = x->n;
	if (r < 3 || r > 5 || w->n != r) {
		pm_fail(c, PM_FAIL, "unknown convolution dimension");
		return;
	}
	k.nd = r - 2;
	memcpy(k.x, x->v, sizeof(*k.x) * (size_t)r);
	memcpy(k.w, w->v, sizeof(*k.w) * (size_t)r);
	pm_opt(c, "bias", bias, sizeof(bias));
	if (is(bias, "ndims3")) {
		/* TraceLens quirk: aten::convolution has 9 args, so never 3 */
		k.bias = c->in.ndims == 3;
	} else {
		/* len(D) > 3 and D[3] and len(D[3]) > 0: [] when D[3] empty */
		k.bias = c->in.ndims > 3 && c->in.dims[3].n > 0;
		k.bias_is_list = c->in.ndims > 3 && c->in.dims[3].n == 0;
	}
	if (cb) {	/* bias always; stride, padding (int(C[i]),)*nd; no groups */
		k.bias = 1;
		for (int i = 0; i < k.nd; i++) {
			stride[i] = py_int(c, pm_C(c, (int)pm_opt_int(c, "stride", 3)));
			pad[i] = py_int(c, pm_C(c, (int)pm_opt_int(c, "pad", 4)));
		}
	} else {
		conv_tuple(c, "stride", k.nd, 1, stride);
		conv_tuple(c, "pad", k.nd, 0, pad);
	}
	conv_tuple(c, "dil", k.nd, 1, dil);
	k.transposed = cb ? 0 : py_eval_bool(c, pm_C(c, (int)pm_opt_int(c, "trans", 6)));
	conv_tuple(c, "outpad", k.nd, 0, opad);
	long groups = cb ? 1 : py_int(c, pm_C(c, (int)pm_opt_int(c, "groups", 8)));
	if (type_slice(c, pm_opt(c, "dt", buf, sizeof(buf)) ? buf : "0,1", dt, 2) != 2 ||
	    !dt[0] || !dt[1] || strcmp(dt[0], dt[1])) {
		pm_fail(c, PM_FAIL, "data types of input and weight are different");
		return;
	}
	if (pm_failed(c))
		return;

	k.out[0] = k.x[0];
	k.out[1] = k.transposed ? k.w[1] : k.w[0];
	for (int i = 0; i < k.nd; i++) {
		int64_t in = k.x[2 + i], ks = k.w[2 + i];
		double din = (double)in, dp = (double)pad[i], dd = (double)dil[i], dk = (double)ks;
		if (!k.transposed)
			k.out[2 + i] = i64(c, trunc((din + 2 * dp - dd * (dk - 1) - 1) / (double)stride[i] + 1));
		else
			k.out[2 + i] = i64(c, (din - 1) * (double)stride[i] - 2 * dp + dd * (dk - 1) +
					      (double)opad[i] + 1);
	}

	snprintf(v, sizeof(v), "conv%dd", k.nd);
	pm_p_str(c, "convNd", v);
	p_dims(c, "input_shape", x);
	p_dims(c, "filter_shape", w);
	p_types(c, "dtype_input_weight", dt, 2);
	pm_p_obj(c, "input_stride", pm_S(c, xi));
	pm_p_obj(c, "weight_stride", pm_S(c, wi));
	if (k.bias_is_list)
		pm_p_obj(c, "bias", "[]");
	else
		pm_p_bool(c, "bias", k.bias != 0);
	p_ints(c, "stride", stride, k.nd);
	p_ints(c, "padding", pad, k.nd);
	p_ints(c, "dilation", dil, k.nd);
	pm_p_bool(c, "transposed_conv", k.transposed);
	p_ints(c, "output_padding", opad, k.nd);
	pm_p_int(c, "groups", groups);

	b = bpe(dt[0]);
	if (bwdmode || c->bwd) {
		int64_t tx[8], tw[8], to[8];
		double ig = conv_flops(k.out, k.w, k.x, r, 0, !k.transposed);
		double wg;
		swap01(tx, k.x, r);
		swap01(tw, k.w, r);
		swap01(to, k.out, r);
		wg = k.transposed ? conv_flops(to, tx, tw, r, 0, 0) : conv_flops(tx, to, tw, r, 0, 0);
		flops = ig + wg + (k.bias ? nprod(k.out, r) : 0);
		/* TraceLens quirk: the bias term counts elements, not bytes */
		bytes = b < 0 ? NONE : 2 * (nprod(k.out, r) + nprod(k.w, r) + nprod(k.x, r)) * b +
			(k.bias ? nprod(k.out, r) + (double)k.out[1] : 0);
	} else {
		flops = conv_flops(k.x, k.w, k.out, r, k.bias != 0, k.transposed);
		bytes = b < 0 ? NONE : (nprod(k.x, r) + nprod(k.w, r) + (k.bias ? (double)k.out[1] : 0) +
					nprod(k.out, r)) * b;
	}
	pm_set(c, flops, bytes);
	pm_spec(c, "matrix", perf_dtype_precision(dt[0]));
}

/* ---- SDPA ------------------------------------------------------------ */

struct sdpa {
	int64_t B, NQ, HQ, NKV, HKV, dqk, dv;
	int causal, flash;
};

static void sdpa_cfg(struct pm_ctx *c, struct sdpa *s, const char *layout)
{
	int q = (int)pm_opt_int(c, "q", 0), k = (int)pm_opt_int(c, "k", 1), v = (int)pm_opt_int(c, "v", 2);
	/* positions of (B, H, N, d); HND: varlen (T, H, d) with B = 1 */
	int ib = 0, ih = 1, in = 2, id = 3, rank = 4;
	int64_t Bk, Bv, Hv, Nv;

	if (is(layout, "BNHD")) {
		ih = 2;
		in = 1;
	} else if (is(layout, "HND")) {
		ib = -1;
		ih = 1;
		in = 0;
		id = 2;
		rank = 3;
	}
	s->B = ib < 0 ? 1 : pm_Dj(c, q, ib);
	s->HQ = pm_Dj(c, q, ih);
	s->NQ = pm_Dj(c, q, in);
	s->dqk = pm_Dj(c, q, id);
	Bk = ib < 0 ? 1 : pm_Dj(c, k, ib);
	s->HKV = pm_Dj(c, k, ih);
	s->NKV = pm_Dj(c, k, in);
	Bv = ib < 0 ? 1 : pm_Dj(c, v, ib);
	Hv = pm_Dj(c, v, ih);
	Nv = pm_Dj(c, v, in);
	s->dv = pm_Dj(c, v, id);
	if (pm_D(c, q)->n != rank || pm_D(c, k)->n != rank || pm_D(c, v)->n != rank)
		pm_fail(c, PM_FAIL, "SDPA operands have the wrong rank");
	if (Bk != s->B || Bv != s->B || Hv != s->HKV || Nv != s->NKV || pm_Dj(c, k, id) != s->dqk)
		pm_fail(c, PM_FAIL, "inconsistent SDPA shapes");
}

/* Evoformer Q (B, N_seq, N_res, H, d): N_seq folds into the batch */
static void sdpa_evoformer(struct pm_ctx *c, struct sdpa *s)
{
	if (pm_D(c, 0)->n != 5)
		pm_fail(c, PM_FAIL, "Evoformer Q is not 5-D");
	s->B = i64(c, (double)pm_Dj(c, 0, 0) * (double)pm_Dj(c, 0, 1));
	s->NQ = s->NKV = pm_Dj(c, 0, 2);
	s->HQ = s->HKV = pm_Dj(c, 0, 3);
	s->dqk = s->dv = pm_Dj(c, 0, 4);
}

/* dropout=I (float()), I? (optional_float: '' → 0.0), '-' (0.0), absent */
static int sdpa_dropout(struct pm_ctx *c, double *d)
{
	char o[16];

	*d = 0;
	if (!pm_opt(c, "dropout", o, sizeof(o)))
		return 0;
	if (!is(o, "-")) {
		const char *s = c->in.nconc > atoi(o) ? pm_C(c, atoi(o)) : NULL;
		if (strchr(o, '?'))
			*d = !s || !*s || is(s, "None") ? 0 : py_float(c, s);
		else
			*d = py_float(c, s ? s : "");
	}
	return 1;
}

/* causal=I (eval), I? ('' → False, else lower()=='true'), I?T (missing → True) */
static int sdpa_causal(struct pm_ctx *c)
{
	char o[16];
	const char *s;

	if (!pm_opt(c, "causal", o, sizeof(o)))
		return 0;
	s = c->in.nconc > atoi(o) ? c->in.conc[atoi(o)] : NULL;
	if (strstr(o, "?T") && (!s || !*s))
		return 1;
	if (strchr(o, '?') && !strstr(o, "?T")) {
		char low[8];
		size_t n;
		if (!s || !*s || is(s, "None") || strlen(s) >= sizeof(low))
			return 0;
		for (n = 0; s[n]; n++)
			low[n] = (char)(s[n] >= 'A' && s[n] <= 'Z' ? s[n] + 32 : s[n]);
		low[n] = '\0';
		return is(low, "true");
	}
	return py_eval_bool(c, s ? s : "");
}

static double sdpa_flops_n(struct pm_ctx *c, const struct sdpa *s, double NQ, double NKV)
{
	double f = (double)s->B * s->HQ * 2 * NQ * NKV * s->dqk +
		   (double)s->B * s->HQ * 2 * NQ * NKV * s->dv;

	if (s->causal) {
		if (NQ != NKV)
			return pm_fail(c, PM_FAIL, "causal attention with N_Q != N_KV");
		f /= 2;
	}
	return f;
}

static double sdpa_flops_fwd(struct pm_ctx *c, const struct sdpa *s)
{
	return sdpa_flops_n(c, s, (double)s->NQ, (double)s->NKV);
}

static double sdpa_bwd_n(struct pm_ctx *c, const struct sdpa *s, double NQ, double NKV)
{
	double B = (double)s->B, HQ = (double)s->HQ;
	double gqa = (double)(s->HKV ? s->HQ / s->HKV : 0) - 1;
	double f = (s->flash ? B * HQ * 2 * NQ * NKV * s->dqk : 0) +
		   B * HQ * 2 * NKV * NQ * s->dv + B * NKV * s->dv * gqa +
		   B * HQ * 2 * NQ * NKV * s->dv +
		   B * HQ * 2 * NQ * NKV * s->dqk +
		   B * HQ * 2 * NKV * NQ * s->dqk + B * NKV * s->dqk * gqa;

	if (s->causal) {
		if (NQ != NKV)
			return pm_fail(c, PM_FAIL, "causal attention with N_Q != N_KV");
		f /= 2;
	}
	return f;
}

static double sdpa_flops_bwd(struct pm_ctx *c, const struct sdpa *s)
{
	return sdpa_bwd_n(c, s, (double)s->NQ, (double)s->NKV);
}

/*
 * flash_attn varlen: the longest sequence plus (n - 1) equal others, the
 * lower bound TraceLens takes since only the count and the max are known.
 */
static double sdpa_varlen_flops(struct pm_ctx *c, const struct sdpa *s, int bwd,
				double nsq, double nskv, double maxq, double maxkv)
{
	double (*f)(struct pm_ctx *, const struct sdpa *, double, double) =
		bwd ? sdpa_bwd_n : sdpa_flops_n;
	double acc = f(c, s, maxq, maxkv);

	if (nsq > 1) {
		if (nskv - 1 == 0)
			return pm_fail(c, PM_FAIL, "float floor division by zero");
		acc += (nsq - 1) * f(c, s, floor((s->NQ - maxq) / (nsq - 1)),
				      floor((s->NKV - maxkv) / (nskv - 1)));
	}
	return acc;
}

void pmk_sdpa(struct pm_ctx *c)
{
	struct sdpa s = { 0 };
	char layout[8], buf[16];
	double dropout, flops, bytes, b = 2;
	int has_dropout, bwdmode = pm_opt(c, "mode", buf, sizeof(buf)) && is(buf, "bwd");
	const char *dt[2];
	int ndt = 0, varlen = 0, evo = 0;
	double nsq = 0, nskv = 0, maxq = 0, maxkv = 0;

	if (pm_opt(c, "var", buf, sizeof(buf))) {
		varlen = is(buf, "varlen");
		evo = is(buf, "evoformer");
		if (!varlen && !evo)
			return (void)pm_fail(c, PM_NOMODEL, "SDPA variant not implemented in tl");
	}
	if (!pm_opt(c, "layout", layout, sizeof(layout)))
		snprintf(layout, sizeof(layout), "BHND");
	if (evo)
		sdpa_evoformer(c, &s);
	else
		sdpa_cfg(c, &s, layout);
	if (varlen) {
		nsq = (double)pm_Dj(c, (int)pm_opt_int(c, "nsq", 3), 0) - 1;
		nskv = (double)pm_Dj(c, (int)pm_opt_int(c, "nskv", 4), 0) - 1;
		maxq = py_float(c, pm_C(c, (int)pm_opt_int(c, "maxq", 5)));
		maxkv = py_float(c, pm_C(c, (int)pm_opt_int(c, "maxkv", 6)));
	}
	has_dropout = sdpa_dropout(c, &dropout);
	s.causal = sdpa_causal(c);
	s.flash = (int)pm_opt_int(c, "flash", 0);
	if (pm_opt(c, "dt", buf, sizeof(buf)))
		ndt = type_slice(c, buf, dt, 2);

	pm_p_int(c, "B", s.B);
	pm_p_int(c, "N_Q", s.NQ);
	pm_p_int(c, "H_Q", s.HQ);
	pm_p_int(c, "N_KV", s.NKV);
	pm_p_int(c, "H_KV", s.HKV);
	pm_p_int(c, "d_h_qk", s.dqk);
	pm_p_int(c, "d_h_v", s.dv);
	if (pm_opt_int(c, "strides", 0)) {
		pm_p_obj(c, "q_stride", pm_S(c, (int)pm_opt_int(c, "q", 0)));
		pm_p_obj(c, "k_stride", pm_S(c, (int)pm_opt_int(c, "k", 1)));
		pm_p_obj(c, "v_stride", pm_S(c, (int)pm_opt_int(c, "v", 2)));
	}
	if (has_dropout)
		pm_p_float(c, "dropout", dropout);
	pm_p_bool(c, "causal", s.causal);
	pm_p_bool(c, "flash_impl", s.flash);
	if (ndt && evo) {
		/* a list here, [dtype], not a tuple */
		char *r = pm_repr_str(dt[0] ? dt[0] : "None"), buf2[96];
		snprintf(buf2, sizeof(buf2), "[%s]", dt[0] ? r : "None");
		pm_p_obj(c, "dtype_A_B", buf2);
		free(r);
	} else if (ndt) {
		p_types(c, "dtype_A_B", dt, ndt);
	}
	if (varlen) {
		pm_p_int(c, "num_seqs_q", i64(c, nsq));
		pm_p_int(c, "num_seqs_kv", i64(c, nskv));
		pm_p_float(c, "max_seqlen_q", maxq);
		pm_p_float(c, "max_seqlen_kv", maxkv);
	}

	if (bwdmode || c->bwd) {
		/* explicit backward ops size by their dtype (bpe=dtype) or 2;
		 * the bwd pass of a forward op calls bytes_bwd() → 2 */
		if (bwdmode && !c->bwd && pm_opt(c, "bpe", buf, sizeof(buf)) && is(buf, "dtype"))
			b = bpe(pm_T(c, 0));
		/* the bwd pass of a varlen forward uses the base formula */
		flops = varlen && !c->bwd ? sdpa_varlen_flops(c, &s, 1, nsq, nskv, maxq, maxkv)
					  : sdpa_flops_bwd(c, &s);
		bytes = b < 0 ? NONE : (2.0 * s.B * s.NQ * s.HQ * s.dqk + 2.0 * s.B * s.NKV * s.HKV * s.dqk +
					2.0 * s.B * s.NKV * s.HKV * s.dv + (double)s.B * s.NQ * s.HQ * s.dv) * b;
		if (b < 0)
			pm_fail(c, PM_FAIL, "unknown dtype size");
	} else {
		/* TraceLens quirk: bytes() is called without bpe → 2 for all */
		flops = varlen ? sdpa_varlen_flops(c, &s, 0, nsq, nskv, maxq, maxkv)
			       : sdpa_flops_fwd(c, &s);
		bytes = ((double)s.B * s.NQ * s.HQ * s.dqk + (double)s.B * s.NKV * s.HKV * s.dqk +
			 (double)s.B * s.NKV * s.HKV * s.dv + (double)s.B * s.NQ * s.HQ * s.dv) * 2;
	}
	pm_set(c, flops, bytes);
	pm_spec(c, "matrix", ndt ? perf_dtype_precision(dt[0]) : NULL);
}

/* ---- unary elementwise ----------------------------------------------- */

static void unary_resize(struct pm_ctx *c, const char *how, const struct pm_val *in,
			 int64_t *out, int64_t *pads, int *npad)
{
	int ci = atoi(strchr(how, ':') ? strchr(how, ':') + 1 : "1");
	int64_t v[16];
	int n = py_list(c, pm_C(c, ci), v, 16);

	memcpy(out, in->v, sizeof(*out) * (size_t)in->n);
	*npad = 0;
	if (!strncmp(how, "pad", 3)) {
		/* pairs innermost-first: pair i widens dim -1-i */
		for (int i = 0; i + 1 < n && i / 2 < in->n; i += 2)
			out[in->n - 1 - i / 2] = i64(c, (double)out[in->n - 1 - i / 2] +
						    (double)v[i] + (double)v[i + 1]);
		memcpy(pads, v, sizeof(*v) * (size_t)n);
		*npad = n;
	} else {
		/* upsample: output = input[:2] + output_size */
		if (n + 2 != in->n)
			pm_fail(c, PM_FAIL, "upsample output size does not match the input");
		for (int i = 0; i < n && i + 2 < in->n; i++)
			out[2 + i] = v[i];
	}
}

void pmk_unary(struct pm_ctx *c)
{
	char buf[64], shp[32];
	int in = (int)pm_opt_int(c, "in", 0), out = (int)pm_opt_int(c, "out", -1);
	int resized = pm_opt(c, "shape", shp, sizeof(shp)) && !strncmp(shp, "pad", 3);
	int upsampled = !resized && pm_opt(c, "shape", shp, sizeof(shp)) && !strncmp(shp, "upsample", 8);
	int si = resized || upsampled ? in : (int)pm_opt_int(c, "shape", in);
	const struct pm_val *op = shape(c, si);
	const char *dt[2] = { pm_T(c, in), NULL };
	const char *sout = "None";
	double n, fpe = (double)pm_opt_int(c, "fpe", 1), reads = (double)pm_opt_int(c, "reads", 1);
	double bi, bo, flops, bytes;

	if (pm_failed(c))
		return;
	if (out >= 0 && c->in.ndims > out && c->in.dims[out].n > 0) {
		dt[1] = pm_T(c, out);
		sout = pm_S(c, out);
	}
	if (pm_opt(c, "outdt", buf, sizeof(buf)))
		dt[1] = buf;
	if (pm_opt(c, "quant", shp, sizeof(shp)))
		dt[1] = dt[0];
	if (resized || upsampled) {
		int64_t o[16], pads[16];
		int np;
		if (op->n > 16)
			return (void)pm_fail(c, PM_FAIL, "rank too large");
		unary_resize(c, shp, op, o, pads, &np);
		dt[1] = dt[0];
		p_dims(c, "input_shape", op);
		p_ints(c, "output_shape", o, op->n);
		if (resized)
			p_ints(c, "padding", pads, np);
		p_ints(c, "op_shape", o, op->n);
		n = nprod(o, op->n);
		bi = bpe(dt[0]);
		bytes = bi < 0 ? NONE : pm_nel(op) * bi + n * bi;
		flops = n;
	} else {
		p_dims(c, "op_shape", op);
		n = pm_nel(op);
		bi = bpe(dt[0]);
		bo = dt[1] ? bpe(dt[1]) : bi;
		flops = fpe * n;
		bytes = bi < 0 || bo < 0 ? NONE : reads * n * bi + n * bo;
		if (pm_opt(c, "quant", shp, sizeof(shp))) {
			/* MXFP4: packed fp4 output plus one e8m0 scale per 32 */
			flops = 2 * n;
			bytes = bi < 0 ? NONE : n * bi + 0.5 * n + floor(n / 32);
		}
	}
	p_types(c, "dtype_in_out", dt, 2);
	/* the MXFP4 quant classes set both strides to None */
	pm_p_obj(c, "stride_input", pm_opt(c, "quant", shp, sizeof(shp)) ? "None" : pm_S(c, in));
	pm_p_obj(c, "stride_output", sout);
	pm_set(c, flops, bytes);
	pm_spec(c, "vector", perf_dtype_precision(dt[0]));
}

/* ---- binary elementwise ---------------------------------------------- */

void pmk_binary(struct pm_ctx *c)
{
	int i1 = (int)pm_opt_int(c, "in1", 0), i2 = (int)pm_opt_int(c, "in2", 1);
	int io = (int)pm_opt_int(c, "out", -1);
	const struct pm_val *a = shape(c, i1), *b = shape(c, i2);
	const char *dt[3] = { pm_T(c, i1), pm_T(c, i2), NULL };
	const char *sout = "None";
	int64_t bc[16];
	int nd;
	double b1, b2, bo, nout;

	if (pm_failed(c))
		return;
	if (io >= 0 && c->in.ndims > io && c->in.dims[io].n > 0) {
		dt[2] = pm_T(c, io);
		sout = pm_S(c, io);
	}
	/* numpy broadcasting, right-aligned */
	nd = a->n > b->n ? a->n : b->n;
	if (nd > 16)
		return (void)pm_fail(c, PM_FAIL, "rank too large");
	for (int k = 0; k < nd; k++) {
		int64_t d1 = k < nd - a->n ? 1 : a->v[k - (nd - a->n)];
		int64_t d2 = k < nd - b->n ? 1 : b->v[k - (nd - b->n)];
		if (d1 != d2 && d1 != 1 && d2 != 1)
			return (void)pm_fail(c, PM_FAIL, "shapes not broadcastable");
		bc[k] = d1 > d2 ? d1 : d2;
	}
	nout = nprod(bc, nd);
	p_dims(c, "shape_in1", a);
	p_dims(c, "shape_in2", b);
	p_types(c, "dtype_in1_in2_out", dt, 3);
	pm_p_obj(c, "stride_input1", pm_S(c, i1));
	pm_p_obj(c, "stride_input2", pm_S(c, i2));
	pm_p_obj(c, "stride_output", sout);
	b1 = bpe(dt[0]);
	b2 = bpe(dt[1]);
	if (dt[2])
		bo = bpe(dt[2]);
	else if (b1 > 0 && b2 > 0)
		/* both tensors: the wider type; a scalar operand: in1's */
		bo = a->n && b->n ? (b1 > b2 ? b1 : b2) : b1;
	else
		bo = NONE;
	pm_set(c, nout, b1 < 0 || b2 < 0 || bo < 0 ? NONE :
	       pm_nel(a) * b1 + pm_nel(b) * b2 + nout * bo);
	pm_spec(c, "vector", perf_dtype_precision(dt[0]));
}

/* ---- reduce ---------------------------------------------------------- */

void pmk_reduce(struct pm_ctx *c)
{
	int in = (int)pm_opt_int(c, "in", 0);
	const struct pm_val *x;
	const char *dt[2] = { NULL, NULL }, *rt;
	double nin, nout, bi;

	if (c->in.ndims <= in) {
		/* TraceLens: no input dims → zero elements, no reduce_type */
		pm_p_int(c, "num_input_elems", 0);
		pm_p_int(c, "num_output_elems", 0);
		p_types(c, "dtype_in_out", dt, 2);
		pm_set(c, 0, NONE);
		return;
	}
	x = shape(c, in);
	dt[0] = c->in.ntypes > 0 && c->in.types[0] && *c->in.types[0] ? c->in.types[0] : NULL;
	nin = pm_nel(x);
	/*
	 * TraceLens quirk: dim/keepdim are looked for as Python ints/bools
	 * among Concrete Inputs, which are always strings in real traces, so
	 * every reduction is taken as a full one (output 1 element).
	 */
	nout = strstr(c->name, "cumsum") || strstr(c->name, "cumprod") ? nin : 1;
	rt = strstr(c->name, "mean") ? "mean" : strstr(c->name, "max") ? "max"
	   : strstr(c->name, "min") ? "min" : strstr(c->name, "norm") ? "norm" : "sum";
	pm_p_int(c, "num_input_elems", i64(c, nin));
	pm_p_int(c, "num_output_elems", i64(c, nout));
	p_types(c, "dtype_in_out", dt, 2);
	pm_p_str(c, "reduce_type", rt);
	bi = bpe(dt[0]);
	pm_set(c, nin, bi < 0 ? NONE : nin * bi + nout * bi);
	pm_spec(c, "vector", perf_dtype_precision(dt[0]));
}

/* ---- normalization --------------------------------------------------- */

struct norm {
	int op;			/* D index of the normalised tensor */
	const char *dtype;
	double n, C;
	int C_float;		/* GroupNormBwd's C is a Python float */
	int bias, affine, training;
	int64_t mask[4];
	int nmask;		/* 0: forward (no output_mask param) */
};

static void norm_fwd_metrics(const struct norm *k, double *f, double *y)
{
	double b = bpe(k->dtype);
	int W = 2 + k->affine + (k->affine && k->bias) + 2 * k->training;

	*f = 3 * k->C + (k->training ? 3 * k->n : 0) + 3 * k->C + 2 * k->n;
	*y = b < 0 ? NONE : k->n * b + k->n * b + W * k->C * b;
}

static void norm_bwd_metrics(const struct norm *k, double *f, double *y)
{
	double b = bpe(k->dtype), e = k->n / k->C;
	int m0 = k->nmask > 0 ? (int)k->mask[0] : 0;

	/* TraceLens quirk: mask[0] set and not training adds no term */
	*f = k->C * ((k->training ? 0 : 3) + 4 * e + (m0 && k->training ? 5 * e : 0) +
		     (!m0 ? 2 * e : 0));
	*y = b < 0 ? NONE : k->n * b + k->n * b * (m0 && k->training ? 2 : 1) +
	     (k->training ? k->C * b : 0) + (k->affine ? k->C * b : 0) +
	     (k->affine && k->training ? k->C * b * (k->bias ? 2 : 1) : 0);
}

static void rms_metrics(const struct norm *k, int bwd, double *f, double *y)
{
	double b = bpe(k->dtype), n = k->n;

	if (!bwd) {
		*f = (n / k->C) * (2 * k->C + 2) + n * (k->affine ? 2 : 1);
		*y = b < 0 ? NONE : n * (b + b) + (k->affine ? k->C * b : 0);
		return;
	}
	*f = (k->affine ? n : 0) + n + (k->mask[0] ? 6 * n : 0) +
	     (k->nmask > 1 && k->mask[1] && k->affine ? n + (n / k->C > 1 ? n : 0) : 0);
	*y = b < 0 ? NONE : n * b + 2 * n * b + (k->affine ? 2 * k->C * b : 0);
}

static void norm_mask(struct pm_ctx *c, struct norm *k, int ci)
{
	k->nmask = py_list(c, pm_C(c, ci), k->mask, 4);
}

/*
 * Argument layout of each TraceLens class.  "is not None" tests on
 * Input Dims are always true for real traces (absent tensors are []),
 * and bool("False") is True: both reproduced.
 */
static int norm_layout(struct pm_ctx *c, const char *fam, int bwd, struct norm *k)
{
	int cud = strstr(c->name, "cudnn_batch_norm_backward") ||
		  strstr(c->name, "miopen_batch_norm_backward");

	k->affine = 1;
	k->bias = 1;
	k->training = 1;
	k->op = bwd ? 1 : 0;
	if (is(fam, "batch")) {
		if (bwd && cud) {
			k->op = 0;
			k->training = 0;
		} else {
			k->training = *pm_C(c, bwd ? 7 : 5) != '\0';
		}
		if (bwd) {
			k->nmask = 1;
			k->mask[0] = 1;
		}
		k->C = (double)pm_Dj(c, k->op, 1);
	} else if (is(fam, "layer")) {
		k->C = prod_list(c, pm_C(c, bwd ? 2 : 1));
		if (bwd) {
			norm_mask(c, k, 7);
			k->affine = k->nmask > 1 && k->mask[1];
			k->bias = k->nmask > 2 && k->mask[2];
		}
	} else if (is(fam, "group")) {
		k->C = (double)pm_Dj(c, k->op, 1);
		if (bwd) {
			norm_mask(c, k, 9);
			k->C /= (double)py_int(c, pm_C(c, 8));
			k->C_float = 1;
		}
	} else if (is(fam, "instance")) {
		if (bwd)
			return pm_fail(c, PM_NOTIMPL, "InstanceNorm backward is not implemented");
		k->C = (double)pm_Dj(c, 0, 1);
		k->training = *pm_C(c, 5) != '\0';
	} else if (is(fam, "rms_ext")) {
		/* aiter/vLLM/SGLang RMSNorm kernels: affine, C = weight length */
		k->op = (int)pm_opt_int(c, "in", 0);
		k->bias = 0;
		k->training = 0;
		k->C = (double)pm_Dj(c, (int)pm_opt_int(c, "c", 1), 0);
	} else if (is(fam, "rms")) {
		k->bias = 0;
		k->training = 0;
		k->C = prod_list(c, pm_C(c, bwd ? 2 : 1));
		if (bwd)
			norm_mask(c, k, 5);
	} else {
		return pm_fail(c, PM_NOMODEL, "normalization family not implemented in tl");
	}
	return 1;
}

/*
 * The RMSNorm extension terms (EXT/rmsnorm_perf_model_extensions.py):
 * residual add (add=1), FP8 per-token (quant=dyn) or per-group
 * (quant=group gs=I) quantisation, MXFP4 quantisation, output padding.
 */
static void rms_ext_metrics(struct pm_ctx *c, const struct norm *k, double *f, double *y)
{
	char q[16];
	double b = bpe(k->dtype), n = k->n, N = k->C, M = n / N;
	int add = (int)pm_opt_int(c, "add", 0);
	long pad = pm_opt_int(c, "pad", 0);

	rms_metrics(k, 0, f, y);
	if (b < 0)
		return;
	if (add) {
		*f += n;
		*y = 2 * n * b + N * b + 2 * n * b;
	}
	if (pm_opt(c, "quant", q, sizeof(q))) {
		*f += 2 * n;
		if (is(q, "dyn")) {
			*y = n * b + N * b + n + M * 4;
		} else if (is(q, "group")) {
			double gs = (double)py_int(c, pm_C(c, (int)pm_opt_int(c, "gs", 0)));
			if (gs == 0)
				gs = N;
			*y = (add ? 2 * n * b + N * b + n + n * b : n * b + N * b + n) + M * ceil(N / gs) * 4;
		} else if (is(q, "mxfp4")) {
			*y = n * b + N * b + 0.5 * n + floor(n / 32);
		}
	}
	if (pad > 0) {
		double np = ceil(N / (double)py_int(c, pm_C(c, (int)pad))) *
			    (double)py_int(c, pm_C(c, (int)pad));
		*y = 2 * n * b + N * b + M * np * b + M * N * b;
	}
}

void pmk_norm(struct pm_ctx *c)
{
	char fam[16], buf[16];
	int bwd = pm_opt(c, "mode", buf, sizeof(buf)) && is(buf, "bwd");
	struct norm k = { 0 };
	const struct pm_val *op;
	const char *dt[2];
	double f, y;

	if (!pm_opt(c, "family", fam, sizeof(fam)) || !norm_layout(c, fam, bwd, &k))
		return (void)pm_fail(c, PM_NOMODEL, "normalization family not implemented in tl");
	/* BatchNorm forward classes raise for the bwd pass; the others
	 * compute their backward formulas (TraceLens Normalization base) */
	if (c->bwd && !bwd && is(fam, "batch"))
		return (void)pm_fail(c, PM_NOTIMPL, "BatchNorm backward is not defined");
	op = shape(c, k.op);
	k.dtype = pm_T(c, k.op);
	if (pm_failed(c))
		return;
	k.n = pm_nel(op);
	dt[0] = k.dtype;
	dt[1] = NULL;
	p_dims(c, "op_shape", op);
	p_types(c, "dtype_in_out", dt, 2);
	pm_p_obj(c, "stride_input", pm_S(c, k.op));
	pm_p_none(c, "stride_output");
	if (k.C_float)
		pm_p_float(c, "num_channels", k.C);
	else
		pm_p_int(c, "num_channels", i64(c, k.C));
	pm_p_bool(c, "has_bias", k.bias);
	pm_p_bool(c, "is_affine", k.affine);
	pm_p_bool(c, "is_training", k.training);
	if (bwd) {
		/* a Python list of bools: "[True, False]" */
		char out[64];
		size_t len = 0;
		out[len++] = '[';
		for (int i = 0; i < k.nmask; i++)
			len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s",
						i ? ", " : "", k.mask[i] ? "True" : "False");
		snprintf(out + len, sizeof(out) - len, "]");
		pm_p_obj(c, "output_mask", out);
	}
	if (k.C == 0)
		return (void)pm_fail(c, PM_FAIL, "zero channels");
	if (is(fam, "rms_ext")) {
		if (c->bwd)
			return (void)pm_fail(c, PM_FAIL, "model has no backward formulas");
		rms_ext_metrics(c, &k, &f, &y);
	} else if (is(fam, "rms"))
		rms_metrics(&k, bwd || c->bwd, &f, &y);
	else if (bwd || c->bwd)
		norm_bwd_metrics(&k, &f, &y);
	else
		norm_fwd_metrics(&k, &f, &y);
	pm_set(c, f, y);
	pm_spec(c, "vector", perf_dtype_precision(k.dtype));
}

/* ---- operand sum (MoE routing helpers) ------------------------------- */

void pmk_operand_sum(struct pm_ctx *c)
{
	double fmax = 0, bytes = 0;
	char *ops = xstrdup("["), *tmp;

	for (int i = 0; i < c->in.ndims; i++) {
		const struct pm_val *v = &c->in.dims[i];
		const char *t = i < c->in.ntypes ? c->in.types[i] : NULL;
		double n, b;
		if (!v->flat || v->n == 0)
			continue;
		n = pm_nel(v);
		if (n > fmax)
			fmax = n;
		b = bpe(t);
		if (b > 0)
			bytes += n * b;
		tmp = ops;
		{
			size_t len = strlen(tmp) + strlen(v->repr) + (t ? strlen(t) : 4) + 16;
			ops = xmalloc(len);
			snprintf(ops, len, "%s%s(%s, '%s')", tmp, tmp[1] ? ", " : "", v->repr, t ? t : "None");
		}
		free(tmp);
	}
	tmp = ops;
	ops = xmalloc(strlen(tmp) + 2);
	snprintf(ops, strlen(tmp) + 2, "%s]", tmp);
	free(tmp);
	pm_p_obj(c, "operands", ops);
	free(ops);
	pm_set(c, fmax, bytes > 0 ? bytes : NONE);
	pm_spec(c, "vector", NULL);
}

/* ---- expr: the long tail as formulas in the table ------------------- */

/*
 * A tiny recursive-descent evaluator over the op's arguments (tl-ops(5)):
 *   D<i>[j]  dim j of Input Dims[i] (j < 0 from the end)
 *   N(i) numel (prod(()) = 1), R(i) rank, B(i[,default]) bytes per element
 *   of Input type[i] (NaN for None without default), C(i) Concrete Inputs[i]
 *   as a number, bool(x), if(c,a,b), max(a,b), min(a,b), ceil_div(a,b),
 *   floor_div(a,b), Copt(i,default) (Concrete Input i as an int when present
 *   and non-empty), Dopt(i,j,default) (dim j of Input Dims i when present);
 *   + - * / // ( ) and comparisons > < >= <= == .
 * In params, T(i) (the dtype string), S(i) (tuple(Input Dims[i])) and
 * ST(i) (tuple(Input Strides[i])) give strings.
 */
struct ex {
	struct pm_ctx *c;
	const char *p;
};

static double ex_sum(struct ex *x);

static void ex_ws(struct ex *x)
{
	while (*x->p == ' ')
		x->p++;
}

static int ex_eat(struct ex *x, const char *tok)
{
	size_t n = strlen(tok);

	ex_ws(x);
	if (strncmp(x->p, tok, n))
		return 0;
	x->p += n;
	return 1;
}

static double ex_fail(struct ex *x, const char *why)
{
	pm_fail(x->c, PM_FAIL, why);
	x->p += strlen(x->p);
	return 0;
}

static long ex_int(struct ex *x)
{
	char *end;
	long v = strtol(x->p, &end, 10);

	if (end == x->p)
		return (long)ex_fail(x, "expr: number expected");
	x->p = end;
	return v;
}

/* name(args) for the functions of one or more arguments */
static double ex_call(struct ex *x, const char *fn)
{
	double a[3] = { 0, 0, 0 };
	int n = 0;

	if (!ex_eat(x, "("))
		return ex_fail(x, "expr: ( expected");
	if (!strcmp(fn, "Copt") || !strcmp(fn, "Dopt")) {
		/* Concrete Input i / dim j of Input Dims i when present, else default */
		int i = (int)ex_int(x), j = 0, have;
		double def;
		if (!strcmp(fn, "Dopt") && ex_eat(x, ","))
			j = (int)ex_int(x);
		if (!ex_eat(x, ","))
			return ex_fail(x, "expr: , expected");
		def = ex_sum(x);
		if (!ex_eat(x, ")"))
			return ex_fail(x, "expr: ) expected");
		if (!strcmp(fn, "Copt")) {
			const char *s = i < x->c->in.nconc && x->c->in.conc[i] ? x->c->in.conc[i] : "";
			while (*s == ' ')
				s++;
			return *s ? (double)py_int(x->c, s) : def;
		}
		have = i < x->c->in.ndims && x->c->in.dims[i].flat && x->c->in.dims[i].n > j;
		return have ? (double)x->c->in.dims[i].v[j] : def;
	}
	if (!strcmp(fn, "N") || !strcmp(fn, "R") || !strcmp(fn, "C") || !strcmp(fn, "B")) {
		int i = (int)ex_int(x);
		double def = NAN;
		if (ex_eat(x, ","))
			def = ex_sum(x);
		if (!ex_eat(x, ")"))
			return ex_fail(x, "expr: ) expected");
		if (!strcmp(fn, "N"))
			return pm_N(x->c, i);
		if (!strcmp(fn, "R"))
			return (double)pm_D(x->c, i)->n;
		if (!strcmp(fn, "C")) {
			const char *s = pm_C(x->c, i);
			return *s == '[' ? prod_list(x->c, s) : py_float(x->c, s);
		}
		double b = i < x->c->in.ntypes ? bpe(x->c->in.types[i]) : NONE;
		return b > 0 ? b : def;
	}
	do
		a[n++] = ex_sum(x);
	while (n < 3 && ex_eat(x, ","));
	if (!ex_eat(x, ")"))
		return ex_fail(x, "expr: ) expected");
	if (!strcmp(fn, "bool"))
		return a[0] != 0;
	if (!strcmp(fn, "if") && n == 3)
		return a[0] != 0 ? a[1] : a[2];
	if (!strcmp(fn, "max") && n == 2)
		return a[0] > a[1] ? a[0] : a[1];
	if (!strcmp(fn, "min") && n == 2)
		return a[0] < a[1] ? a[0] : a[1];
	if (!strcmp(fn, "ceil_div") && n == 2 && a[1])
		return ceil(a[0] / a[1]);
	if (!strcmp(fn, "floor_div") && n == 2 && a[1])
		return floor(a[0] / a[1]);
	return ex_fail(x, "expr: unknown function or bad arguments");
}

static double ex_atom(struct ex *x)
{
	char fn[16];
	size_t n = 0;

	ex_ws(x);
	if (ex_eat(x, "("))  {
		double v = ex_sum(x);
		if (!ex_eat(x, ")"))
			return ex_fail(x, "expr: ) expected");
		return v;
	}
	if (ex_eat(x, "-"))
		return -ex_atom(x);
	if ((*x->p >= '0' && *x->p <= '9') || *x->p == '.') {
		char *end;
		double v = strtod(x->p, &end);
		x->p = end;
		return v;
	}
	if (*x->p == 'D' && x->p[1] >= '0' && x->p[1] <= '9') {
		int i, j;
		x->p++;
		i = (int)ex_int(x);
		if (!ex_eat(x, "["))
			return ex_fail(x, "expr: [ expected");
		j = (int)ex_int(x);
		if (!ex_eat(x, "]"))
			return ex_fail(x, "expr: ] expected");
		return (double)pm_Dj(x->c, i, j);
	}
	while (n + 1 < sizeof(fn) && ((*x->p >= 'a' && *x->p <= 'z') || (*x->p >= 'A' && *x->p <= 'Z') ||
				      *x->p == '_'))
		fn[n++] = *x->p++;
	fn[n] = '\0';
	if (!n)
		return ex_fail(x, "expr: syntax error");
	return ex_call(x, fn);
}

static double ex_prod(struct ex *x)
{
	double v = ex_atom(x);

	for (;;) {
		if (ex_eat(x, "//"))
			v = floor(v / ex_atom(x));
		else if (ex_eat(x, "*"))
			v *= ex_atom(x);
		else if (ex_eat(x, "/"))
			v /= ex_atom(x);
		else
			return v;
	}
}

static double ex_sum(struct ex *x)
{
	double v = ex_prod(x);

	for (;;) {
		if (ex_eat(x, "+"))
			v += ex_prod(x);
		else if (ex_eat(x, "-"))
			v -= ex_prod(x);
		else if (ex_eat(x, ">="))
			v = v >= ex_prod(x);
		else if (ex_eat(x, "<="))
			v = v <= ex_prod(x);
		else if (ex_eat(x, "=="))
			v = v == ex_prod(x);
		else if (ex_eat(x, ">"))
			v = v > ex_prod(x);
		else if (ex_eat(x, "<"))
			v = v < ex_prod(x);
		else
			return v;
	}
}

static double ex_eval(struct pm_ctx *c, const char *s)
{
	struct ex x = { c, s };
	double v = ex_sum(&x);

	ex_ws(&x);
	if (*x.p)
		return ex_fail(&x, "expr: trailing text");
	return v;
}

/* one "name:EXPR" param; T(i), S(i), ST(i) and bool(...) give non-numbers */
static void ex_param(struct pm_ctx *c, const char *key, const char *e)
{
	int i;

	if (is(e, "None")) {
		pm_p_none(c, key);
	} else if (!strncmp(e, "TT(", 3)) {
		/* a tuple of dtypes: positions, -1 for None, =NAME for a literal */
		const char *t[8];
		char lit[8][64];
		int n = 0;
		for (const char *p = e + 3; *p && *p != ')' && n < 8; ) {
			size_t len = strcspn(p, ",)");
			if (*p == '=') {
				snprintf(lit[n], sizeof(lit[n]), "%.*s", (int)len - 1, p + 1);
				t[n] = lit[n];
			} else {
				i = atoi(p);
				t[n] = i < 0 ? NULL : pm_T(c, i);
			}
			n++;
			p += len;
			if (*p == ',')
				p++;
		}
		p_types(c, key, t, n);
	} else if (sscanf(e, "T(%d)", &i) == 1 && !strchr(e, '+')) {
		pm_p_str(c, key, pm_T(c, i));
	} else if (sscanf(e, "ST(%d)", &i) == 1) {
		pm_p_obj(c, key, pm_S(c, i));
	} else if (sscanf(e, "S(%d)", &i) == 1 && !strchr(e, '+')) {
		pm_p_obj(c, key, pm_D(c, i)->repr);
	} else if (!strncmp(e, "bool(", 5)) {
		pm_p_bool(c, key, ex_eval(c, e) != 0);
	} else {
		double v = ex_eval(c, e);
		if (v == floor(v) && fabs(v) < 9e15)
			pm_p_int(c, key, (int64_t)v);
		else
			pm_p_float(c, key, v);
	}
}

static void ex_params(struct pm_ctx *c, const char *list)
{
	while (list && *list && *list != ' ') {
		const char *colon = strchr(list, ':'), *end = strpbrk(list, ", ");
		char key[48], val[160];
		int depth = 0;
		const char *p;

		if (!colon)
			return (void)pm_fail(c, PM_FAIL, "expr: params want name:EXPR");
		/* the value ends at a ',' outside parentheses */
		for (p = colon + 1; *p && *p != ' ' && !(*p == ',' && depth == 0); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		end = p;
		snprintf(key, sizeof(key), "%.*s", (int)(colon - list), list);
		snprintf(val, sizeof(val), "%.*s", (int)(end - colon - 1), colon + 1);
		ex_param(c, key, val);
		list = *end == ',' ? end + 1 : end;
	}
}

void pmk_expr(struct pm_ctx *c)
{
	char fl[256], by[256], maf[16], prec[16], bw[8];
	size_t len;
	const char *params = perf_ops_opt(c->opts, "params", &len);
	double f, y;

	if (!pm_opt(c, "flops", fl, sizeof(fl)) || !pm_opt(c, "bytes", by, sizeof(by)))
		return (void)pm_fail(c, PM_NOTIMPL, "expr model without flops= and bytes=");
	if (c->bwd && !(pm_opt(c, "bwd", bw, sizeof(bw)) && is(bw, "same")))
		return (void)pm_fail(c, PM_FAIL, "model has no backward formulas");
	if (params)
		ex_params(c, params);
	f = ex_eval(c, fl);
	y = ex_eval(c, by);
	pm_set(c, f, y == y ? y : NONE);
	if (pm_opt(c, "maf", maf, sizeof(maf))) {
		const char *pr = NULL;
		if (pm_opt(c, "prec", prec, sizeof(prec)))
			pr = prec[0] >= '0' && prec[0] <= '9' ? perf_dtype_precision(pm_T(c, atoi(prec))) : prec;
		pm_spec(c, maf, pr);
	}
}
