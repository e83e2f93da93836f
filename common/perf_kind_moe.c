/*
 * The moe kind: TraceLens's MoE extension models
 * (EXT/moe_perf_model_extensions.py; spec tracelens-perfmodel.md §3.11).
 * Kept apart from perf_kind.c so the MoE family can grow on its own.
 *
 * Every class reads tokens (M), hidden (K), intermediate (N), experts (E),
 * topk and gated from its own argument layout, then one of three formula
 * sets applies: fused (both GEMMs), up (gate+up GEMM) or down.  Weight
 * traffic counts only the experts a uniform routing is expected to touch,
 * E_active = E·(1 − ((E−topk)/E)^M).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_value.h"
#include "perf_dtype.h"
#include "perf_args.h"
#include "banned.h"

struct moe {
	int64_t M, K, N, E, topk;
	int gated;
	int has_gated;		/* "gated" is a param of this class */
	int has_out;		/* "output_dtype" is a param of this class */
	const char *ti, *tw, *to;
	double bi, bw, bo;
};

static int is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The MoE models' own case-sensitive DTYPE_TO_BYTES; def when absent. */
static double moe_bpe(const char *t, double def)
{
	static const struct {
		const char *name;
		double b;
	} tab[] = {
		{ "Float8_e4m3fn", 1 }, { "Float8_e4m3fnuz", 1 }, { "Float8_e5m2", 1 },
		{ "Float8_e5m2fnuz", 1 }, { "FP8", 1 }, { "c10::Float8_e4m3fn", 1 },
		{ "c10::Float8_e4m3fnuz", 1 }, { "FP4", 0.5 }, { "c10::Float4_e2m1fn_x2", 0.5 },
		{ "BFloat16", 2 }, { "Float16", 2 }, { "Half", 2 }, { "c10::BFloat16", 2 },
		{ "c10::Half", 2 }, { "Float32", 4 }, { "Float", 4 }, { "c10::Float", 4 },
	};

	for (size_t i = 0; t && i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(tab[i].name, t))
			return tab[i].b;
	return def;
}

/* A shape product back to an integer; absurd values fail instead of
 * overflowing (Python ints do not overflow, but no trace has them). */
static int64_t mul(struct pm_ctx *c, int64_t a, int64_t b)
{
	double v = (double)a * (double)b;

	if (!(v > -9.2e18 && v < 9.2e18))
		return pm_fail(c, PM_FAIL, "shape value out of range");
	return a * b;
}

/* Python's a // b (floor division); b == 0 raises ZeroDivisionError. */
static int64_t floordiv(struct pm_ctx *c, int64_t a, int64_t b)
{
	int64_t q;

	if (b == 0)
		return pm_fail(c, PM_FAIL, "integer division by zero");
	if (b == -1)
		return mul(c, a, -1);
	q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/* "gated": the first weight holds gate and up, 2·inter rows */
static int is_gated(struct pm_ctx *c, int w, int64_t inter)
{
	return (double)pm_Dj(c, w, 1) == 2.0 * (double)inter;
}

/* an optional Input type: NULL when absent */
static const char *type_at(struct pm_ctx *c, int i)
{
	return i < c->in.ntypes ? c->in.types[i] : NULL;
}

/* Python's "a, b, c = shape" unpacking: D[i] must have exactly n dims. */
static int rank(struct pm_ctx *c, int i, int n)
{
	const struct pm_val *v = pm_D(c, i);

	if (pm_failed(c))
		return 0;
	if (!v->flat || v->n != n)
		return pm_fail(c, PM_FAIL, "wrong number of values to unpack");
	return 1;
}

/* Required Input types (IndexError when absent); bpe defaults per class. */
static void dtypes(struct pm_ctx *c, struct moe *m, int in, int w, int out, double bodef)
{
	m->ti = pm_T(c, in);
	m->tw = pm_T(c, w);
	m->to = out >= 0 ? pm_T(c, out) : NULL;
	m->bi = moe_bpe(m->ti, 2);
	m->bw = moe_bpe(m->tw, 1);
	m->bo = out >= 0 ? moe_bpe(m->to, bodef) : m->bi;
}

/* Python's int() of a Concrete Input; fails on anything else. */
static int64_t conc_int(struct pm_ctx *c, int i)
{
	const char *s = pm_C(c, i);
	long long v = 0;
	int n = 0;

	if (!s || sscanf(s, " %lld %n", &v, &n) != 1 || s[n])
		pm_fail(c, PM_FAIL, "invalid literal for int()");
	return v;
}

/*
 * Hidden and inter from the second weight w2 [E, hidden, inter/pack];
 * packed int4/fp4 weights shrink w1's last dim, and hidden // w1[-1]
 * undoes the packing of inter.
 */
static void from_w2(struct pm_ctx *c, struct moe *m, int w1, int w2)
{
	if (!rank(c, w1, 3) || !rank(c, w2, 3))
		return;
	m->E = pm_Dj(c, w1, 0);
	m->K = pm_Dj(c, w2, 1);
	m->N = mul(c, pm_Dj(c, w2, 2), floordiv(c, m->K, pm_Dj(c, w1, -1)));
	m->gated = is_gated(c, w1, m->N);
	m->has_gated = 1;
}

/*
 * aiter fused 1-stage (and the flydsl stages, same layout):
 * D0 [tokens, hidden], D1 w1 [E, inter·(g+1), hidden/pack],
 * D2 w2 [E, hidden, inter/pack], D3 topk weights [tokens, topk].
 */
static void layout_fused1(struct pm_ctx *c, struct moe *m)
{
	from_w2(c, m, 1, 2);
	m->M = pm_Dj(c, 0, 0);
	m->topk = pm_Dj(c, 3, 1);
	dtypes(c, m, 0, 1, -1, 0);
}

/* fmoe_fp8_blockscale_g1u1 / fmoe_g1u1: D0 out, D1 input, D2 w1, D3 w2,
 * topk in Concrete Inputs[8]; dtypes out T0, in T1, w T2. */
static void layout_blockscale(struct pm_ctx *c, struct moe *m)
{
	from_w2(c, m, 2, 3);
	m->M = pm_Dj(c, 0, 0);
	if (pm_failed(c))
		return;
	if (c->in.nconc <= 8 || !c->in.conc[8] || !*c->in.conc[8])
		return (void)pm_fail(c, PM_FAIL, "cannot extract topk: Concrete Inputs[8] missing or empty");
	m->topk = conc_int(c, 8);
	m->has_out = 1;
	dtypes(c, m, 1, 2, 0, 2);
	m->bi = moe_bpe(m->ti, 1);	/* this class defaults its input to fp8 */
}

/* cktile 2-stage gemm1: D0 [tokens, hidden], D1 w [E, inter·(g+1), ...],
 * D2 [tokens, topk, inter]; dtypes T0..T2. */
static void layout_cktile_up(struct pm_ctx *c, struct moe *m)
{
	if (!rank(c, 0, 2) || !rank(c, 1, 3) || !rank(c, 2, 3))
		return;
	m->M = pm_Dj(c, 0, 0);
	m->K = pm_Dj(c, 0, 1);
	m->E = pm_Dj(c, 1, 0);
	m->topk = pm_Dj(c, 2, 1);
	m->N = pm_Dj(c, 2, 2);
	m->gated = is_gated(c, 1, m->N);
	m->has_gated = 1;
	m->has_out = 1;
	dtypes(c, m, 0, 1, 2, 2);
}

/* cktile gemm2: D0 [tokens, topk, inter], D1 w [E, hidden, ...] */
static void layout_cktile_down(struct pm_ctx *c, struct moe *m)
{
	if (!rank(c, 0, 3) || !rank(c, 1, 3))
		return;
	m->M = pm_Dj(c, 0, 0);
	m->topk = pm_Dj(c, 0, 1);
	m->N = pm_Dj(c, 0, 2);
	m->E = pm_Dj(c, 1, 0);
	m->K = pm_Dj(c, 1, 1);
	m->has_out = 1;
	dtypes(c, m, 0, 1, 2, 2);
}

/* ck_moe_stage1: D0 [tokens, ...], D1 w1, D2 w2, D6 [tokens, topk, inter] */
static void layout_ck1(struct pm_ctx *c, struct moe *m)
{
	from_w2(c, m, 1, 2);
	m->E = pm_Dj(c, 2, 0);
	m->M = pm_Dj(c, 0, 0);
	m->topk = pm_Dj(c, 6, 1);
	dtypes(c, m, 0, 1, -1, 0);
}

/* ck_moe_stage2: D0 [tokens, topk, inter/pack], D1 w1 (may be empty),
 * D2 w2 [E, hidden, ...]; weight dtype T2 */
static void layout_ck2(struct pm_ctx *c, struct moe *m)
{
	const struct pm_val *w1;

	if (!rank(c, 0, 3) || !rank(c, 2, 3))
		return;
	w1 = pm_D(c, 1);
	m->M = pm_Dj(c, 0, 0);
	m->topk = pm_Dj(c, 0, 1);
	m->E = pm_Dj(c, 2, 0);
	m->K = pm_Dj(c, 2, 1);
	m->N = pm_Dj(c, 0, 2);
	if (!pm_failed(c) && w1->n > 0)
		m->N = mul(c, m->N, floordiv(c, m->K, pm_Dj(c, 1, -1)));
	dtypes(c, m, 0, 2, -1, 0);
}

/* (E−topk)/E raises ZeroDivisionError for E = 0 except where a class
 * guards it (zero_ok: Triton invoke) */
static double e_active(struct pm_ctx *c, const struct moe *m, int zero_ok)
{
	double E = (double)m->E;

	if (m->E == 0 || (zero_ok && E < 0))
		return zero_ok ? 0 : pm_fail(c, PM_FAIL, "division by zero");
	return E * (1 - pow((E - (double)m->topk) / E, (double)m->M));
}

static void moe_params(struct pm_ctx *c, const struct moe *m)
{
	pm_p_int(c, "num_tokens", m->M);
	pm_p_int(c, "hidden_dim", m->K);
	pm_p_int(c, "inter_dim", m->N);
	pm_p_int(c, "num_experts", m->E);
	pm_p_int(c, "topk", m->topk);
	if (m->has_gated)
		pm_p_bool(c, "gated", m->gated);
	pm_p_str(c, "input_dtype", m->ti);
	pm_p_str(c, "weight_dtype", m->tw);
	if (m->has_out)
		pm_p_str(c, "output_dtype", m->to);
}

/* stage: 'f' fused, 'u' up, 'd' down */
static void moe_metrics(struct pm_ctx *c, const struct moe *m, int stage)
{
	double M = (double)m->M, K = (double)m->K, N = (double)m->N, k = (double)m->topk;
	double g = m->gated ? 2 : 1, ea = e_active(c, m, 0), f, y;

	if (stage == 'f') {
		f = 2 * M * K * N * k * g + 2 * M * K * N * k + M * K * (2 * k - 1);
		y = M * K * m->bi + ea * N * K * m->bw * g + ea * N * K * m->bw + M * K * m->bo;
	} else if (stage == 'u') {
		f = 2 * M * K * N * k * g;
		y = M * K * m->bi + ea * g * K * N * m->bw + M * N * k * m->bo;
	} else {
		f = 2 * M * N * K * k;
		y = M * N * k * m->bi + ea * N * K * m->bw + M * K * m->bo;
	}
	pm_set(c, f, y);
}

/* sglang invoke_fused_moe_kernel: D1 w [E, N, K], D8 [tokens, topk];
 * one grouped GEMM over tokens·topk rows. */
static void moe_triton_invoke(struct pm_ctx *c)
{
	struct moe m = { 0 };
	double Mw, ea;

	if (c->in.ndims < 9)
		return (void)pm_fail(c, PM_FAIL, "invoke_fused_moe_kernel needs 9 input dims");
	if (!rank(c, 1, 3) || !rank(c, 8, 2))
		return;
	m.E = pm_Dj(c, 1, 0);
	m.N = pm_Dj(c, 1, 1);
	m.K = pm_Dj(c, 1, 2);
	m.M = pm_Dj(c, 8, 0);
	m.topk = pm_Dj(c, 8, 1);
	m.ti = type_at(c, 0);
	m.tw = type_at(c, 1);
	m.to = type_at(c, 3) && *type_at(c, 3) ? type_at(c, 3) : m.ti;
	m.bi = moe_bpe(m.ti, 2);
	m.bw = moe_bpe(m.tw, 1);
	m.bo = moe_bpe(m.to, 2);
	if (pm_failed(c))
		return;
	Mw = (double)m.M * (double)m.topk;
	ea = e_active(c, &m, 1);
	pm_p_int(c, "m_work", mul(c, m.M, m.topk));
	pm_p_int(c, "num_tokens", m.M);
	pm_p_int(c, "topk", m.topk);
	pm_p_int(c, "N", m.N);
	pm_p_int(c, "K", m.K);
	pm_p_int(c, "num_experts", m.E);
	pm_p_str(c, "input_dtype", m.ti);
	pm_p_str(c, "weight_dtype", m.tw);
	pm_p_str(c, "output_dtype", m.to);
	pm_set(c, 2 * Mw * (double)m.N * (double)m.K,
	       Mw * (double)m.K * m.bi + ea * (double)m.N * (double)m.K * m.bw + Mw * (double)m.N * m.bo);
	/* activations are quantised to the weights' dtype before the MFMA */
	pm_spec(c, "matrix", perf_dtype_precision(m.tw));
}

static const struct {
	const char *cls;
	void (*layout)(struct pm_ctx *, struct moe *);
	int stage;
} classes[] = {
	{ "moe_aiter_fused_1stage", layout_fused1, 'f' },
	{ "moe_aiter_fused_blockscale", layout_blockscale, 'f' },
	{ "moe_aiter_unfused_up", layout_cktile_up, 'u' },
	{ "moe_aiter_unfused_down", layout_cktile_down, 'd' },
	{ "moe_aiter_ck_stage1", layout_ck1, 'u' },
	{ "moe_aiter_ck_stage2", layout_ck2, 'd' },
	{ "moe_flydsl_stage1", layout_fused1, 'u' },
	{ "moe_flydsl_stage2", layout_fused1, 'd' },
};

/* An injected argument as an int (a bool counts, as in Python); fails
 * with KeyError when absent. */
static int64_t arg_int(struct pm_ctx *c, const char *key)
{
	const struct json_value *v = pm_arg(c, key);

	if (!v)
		return pm_fail(c, PM_FAIL, "pseudo-op argument missing (KeyError)");
	if (v->type == JV_TRUE || v->type == JV_FALSE)
		return v->type == JV_TRUE;
	if (v->type != JV_INT)
		return pm_fail(c, PM_FAIL, "pseudo-op argument is not an integer");
	return (int64_t)v->num;
}

/* Python truthiness of an injected flag; def when absent (args.get) */
static int arg_flag(struct pm_ctx *c, const char *key, int def, int required)
{
	const struct json_value *v = pm_arg(c, key);

	if (!v) {
		if (required)
			pm_fail(c, PM_FAIL, "pseudo-op argument missing (KeyError)");
		return def;
	}
	switch (v->type) {
	case JV_NULL: case JV_FALSE: return 0;
	case JV_TRUE: return 1;
	case JV_INT: case JV_FLOAT: return v->num != 0;
	case JV_STR: return v->len > 0;
	default: return v->n > 0;
	}
}

/*
 * moe_triton_unfused_up/down (GPT-OSS): tokens and hidden from D0, experts
 * from D1[1], inter = hidden, topk and gated from the pseudo op's
 * "MoE topk" and "MoE GEMM gated", the weight dtype from the first
 * kernel's name (mxfp4/fp4 → FP4, fp8/e4m3 → FP8).
 */
static void moe_triton_unfused(struct pm_ctx *c, int stage)
{
	struct moe m = { 0 };
	const char *k0;

	if (c->in.ndims < 2)
		return (void)pm_fail(c, PM_FAIL, "expected at least 2 Input Dims for unfused MoE");
	m.M = pm_Dj(c, 0, 0);
	m.K = pm_Dj(c, 0, 1);
	m.E = pm_Dj(c, 1, 1);
	m.topk = arg_int(c, "MoE topk");
	m.gated = arg_flag(c, "MoE GEMM gated", 0, 1);
	m.has_gated = 1;
	m.N = m.K;
	if (!c->nkernels)
		return (void)pm_fail(c, PM_FAIL, "kernel details not found in event");
	k0 = c->kernels[0];
	m.tw = strcasestr(k0, "mxfp4") || strcasestr(k0, "fp4") ? "FP4" :
	       strcasestr(k0, "fp8") || strcasestr(k0, "e4m3") ? "FP8" : NULL;
	if (c->in.ntypes < 2)
		return (void)pm_fail(c, PM_FAIL, "expected at least 2 Input types");
	m.ti = c->in.types[0];
	if (pm_failed(c))
		return;
	moe_params(c, &m);
	m.bi = moe_bpe(m.ti, -1);
	m.bw = moe_bpe(m.tw, -1);
	if (m.bi < 0 || m.bw < 0)
		return (void)pm_fail(c, PM_FAIL, "unknown input or weight dtype");
	m.bo = m.bi;
	moe_metrics(c, &m, stage);
	pm_spec(c, "matrix", perf_dtype_precision(m.tw));
}

/*
 * moe_gptq_awq_up/down (vllm::outplace_fused_experts): INT4 weights packed
 * two per byte; up: E and gate+up rows from D1, inter = rows // 2 when
 * gated; down: E and packed inter from D2.
 */
static void moe_gptq_awq(struct pm_ctx *c, int stage)
{
	struct moe m = { 0 };

	m.M = pm_Dj(c, 0, 0);
	m.K = pm_Dj(c, 0, 1);
	if (stage == 'u') {
		int64_t rows;
		m.E = pm_Dj(c, 1, 0);
		rows = pm_Dj(c, 1, 1);
		m.topk = arg_int(c, "MoE topk");
		m.gated = arg_flag(c, "MoE GEMM gated", 1, 0);
		m.has_gated = 1;
		m.N = m.gated ? floordiv(c, rows, 2) : rows;
	} else {
		m.E = pm_Dj(c, 2, 0);
		m.N = mul(c, pm_Dj(c, 2, 2), 2);
		m.topk = arg_int(c, "MoE topk");
	}
	m.ti = c->in.ntypes ? c->in.types[0] : "BFloat16";
	if (pm_failed(c))
		return;
	pm_p_int(c, "num_tokens", m.M);
	pm_p_int(c, "hidden_dim", m.K);
	pm_p_int(c, "inter_dim", m.N);
	pm_p_int(c, "num_experts", m.E);
	pm_p_int(c, "topk", m.topk);
	if (m.has_gated)
		pm_p_bool(c, "gated", m.gated);
	pm_p_str(c, "input_dtype", m.ti);
	m.bi = moe_bpe(m.ti, 2);
	m.bw = 0.5;
	m.bo = m.bi;
	moe_metrics(c, &m, stage);
	pm_spec(c, "matrix", perf_dtype_precision(m.ti));
}

void pmk_moe(struct pm_ctx *c)
{
	char cls[64];
	struct moe m = { 0 };
	const char *prec;

	if (c->bwd)	/* the MoE classes raise NotImplementedError */
		return (void)pm_fail(c, PM_NOTIMPL, "MoE backward is not defined");
	if (!pm_opt(c, "class", cls, sizeof(cls)))
		return (void)pm_fail(c, PM_NOMODEL, "MoE model without class=");
	if (is(cls, "moe_triton_invoke_grouped_gemm"))
		return moe_triton_invoke(c);
	if (is(cls, "moe_triton_unfused_up") || is(cls, "moe_triton_unfused_down"))
		return moe_triton_unfused(c, is(cls, "moe_triton_unfused_up") ? 'u' : 'd');
	if (is(cls, "moe_gptq_awq_up") || is(cls, "moe_gptq_awq_down"))
		return moe_gptq_awq(c, is(cls, "moe_gptq_awq_up") ? 'u' : 'd');
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (strcmp(classes[i].cls, cls))
			continue;
		classes[i].layout(c, &m);
		if (pm_failed(c))
			return;
		moe_params(c, &m);
		moe_metrics(c, &m, classes[i].stage);
		/* flydsl runs fp4 MFMA: it rooflines against the weight dtype */
		prec = perf_dtype_precision(!strncmp(cls, "moe_flydsl", 10) ? m.tw : m.ti);
		/* blockscale: TraceLens names fp8 for its fp8/bf16 shorthands */
		if (is(cls, "moe_aiter_fused_blockscale") && (is(m.ti, "fp8") || is(m.ti, "bf16")))
			prec = "fp8";
		pm_spec(c, "matrix", prec);
		return;
	}
	pm_fail(c, PM_NOMODEL, "MoE class not implemented in tl");
}
