/*
 * The inference perf-model kinds (tl-ops(5)): infer_attn, TraceLens's
 * InferenceAttention family (TraceLens/PerfModel/extensions/
 * attention_perf_model_extensions.py, spec perf_model §9), and triton,
 * TritonCompiledPerfModel (spec §3.10).  Kept apart from perf_kind.c so the
 * training kinds and these evolve independently.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_annot.h"
#include "perf_dtype.h"
#include "perf_args.h"
#include "banned.h"

/* ---- infer_attn -------------------------------------------------------- */

struct iattn {
	int64_t N_Q, H_Q, N_KV, H_KV, d_qk, d_v;
	struct perf_annot_stats s;
	const char *dtype_Q, *dtype_KV;
	int has_kv;		/* dtype_KV is a param (not for paged_attention_ragged) */
	int has_window;
	int64_t window;
	int bf16;		/* DeepSeek-V4: precision bf16 whatever dtype_Q */
};

static int cls(struct pm_ctx *c, const char *want)
{
	char buf[64];
	const char *v = pm_opt(c, "class", buf, sizeof(buf));

	return v && !strcmp(v, want);
}

/* Python's truthiness of a dtype string */
static int truthy(const char *s)
{
	return s && *s;
}

/* "N, H, d = shape": a flat list of exactly three */
static int triple(struct pm_ctx *c, int i, int64_t *a, int64_t *b, int64_t *d)
{
	const struct pm_val *v = pm_D(c, i);

	if (!v->flat || v->n != 3)
		return pm_fail(c, PM_FAIL, "attention shape is not (N, H, d)");
	*a = v->v[0], *b = v->v[1], *d = v->v[2];
	return 1;
}

/* InferenceAttention.get_param_details: Q = D[0], K = D[1][-3:] */
static void ia_base(struct pm_ctx *c, struct iattn *a)
{
	const struct pm_val *k;

	if (!triple(c, 0, &a->N_Q, &a->H_Q, &a->d_qk))
		return;
	k = pm_D(c, 1);
	if (!k->flat || k->n < 3) {
		pm_fail(c, PM_FAIL, "attention K shape has fewer than 3 dims");
		return;
	}
	a->N_KV = k->v[k->n - 3], a->H_KV = k->v[k->n - 2], a->d_v = k->v[k->n - 1];
	a->dtype_Q = pm_T(c, 0);
	a->dtype_KV = c->in.ntypes > 1 ? pm_T(c, 1) : a->dtype_Q;
	a->has_kv = 1;
}

/* d_h_v from the v tensor, D[2][-1], where there is one */
static void ia_dv2(struct pm_ctx *c, struct iattn *a)
{
	if (c->in.ndims > 2 && c->in.dims[2].flat && c->in.dims[2].n >= 1)
		a->d_v = c->in.dims[2].v[c->in.dims[2].n - 1];
}

/* aiter_paged_attention_ragged: Q = D[2], paged K/V D[3], D[4] */
static void ia_ragged(struct pm_ctx *c, struct iattn *a)
{
	if (!triple(c, 2, &a->N_Q, &a->H_Q, &a->d_qk))
		return;
	a->H_KV = pm_Dj(c, 3, -2);
	a->d_v = pm_Dj(c, 4, -1);
	a->N_KV = (int64_t)(a->s.c_sk + a->s.g_sk);
	a->dtype_Q = pm_T(c, 2);
}

static void zero_ctx(struct iattn *a)
{
	a->s.c_sq = a->s.c_sk = a->s.c_sqsq = a->s.c_sqsk = 0;
}

/* pa_decode_gluon: decode only, H_KV = D[2][1], fp8 KV dtype T[2],
 * sliding window int(C[19]) (0 when absent or not an int) */
static void ia_gluon(struct pm_ctx *c, struct iattn *a)
{
	const char *w;
	char *end;

	a->N_Q = pm_Dj(c, 0, 0), a->H_Q = pm_Dj(c, 0, 1), a->d_qk = pm_Dj(c, 0, 2);
	a->H_KV = pm_Dj(c, 2, 1);
	a->d_v = a->d_qk;
	zero_ctx(a);
	a->N_KV = (int64_t)a->s.g_sk;
	a->dtype_Q = pm_T(c, 0);
	a->dtype_KV = c->in.ntypes > 2 ? pm_T(c, 2) : a->dtype_Q;
	a->has_kv = 1;
	a->has_window = 1;
	a->window = 0;
	w = c->in.nconc > 19 ? c->in.conc[19] : NULL;
	if (w && *w) {
		long long v = strtoll(w, &end, 10);
		while (*end == ' ')
			end++;
		if (!*end)
			a->window = v;
	}
}

/* DeepSeek-V4 paged decode (swa/csa/hca): the v4_* args TraceLens's pseudo
 * ops inject are not in tl's streams, so the DeepSeek-V4-Flash config it
 * falls back to applies: index_topk 512, window 128, 64 heads, d 512. */
static void ia_v4(struct pm_ctx *c, struct iattn *a, const char *mode)
{
	const int64_t topk = 512, window = 128;
	double g_sq = a->s.g_sq, g_sk = a->s.g_sk;

	zero_ctx(a);
	a->H_Q = 64, a->d_qk = a->d_v = 512, a->H_KV = 1;
	a->N_Q = (int64_t)g_sq;
	if (c->in.ndims > 0 && c->in.dims[0].flat && c->in.dims[0].n >= 1 && c->in.dims[0].v[0])
		a->N_Q = c->in.dims[0].v[0];
	a->N_KV = (int64_t)g_sk;
	a->dtype_Q = a->dtype_KV = "c10::bfloat16";
	a->has_kv = 1;
	a->has_window = 1;
	a->bf16 = 1;
	if (!strcmp(mode, "csa")) {
		double n = g_sq > 0 ? ceil(g_sk / g_sq / 4) : (double)topk;
		a->window = window + (int64_t)(n < topk ? n : topk);
	} else if (!strcmp(mode, "hca")) {
		a->window = g_sq > 0 ? window + (int64_t)ceil(g_sk / g_sq / 128) : 0;
	} else {
		a->window = window;
	}
}

static void ia_params(struct pm_ctx *c, const struct iattn *a)
{
	const double *s = &a->s.c_sq;
	static const char *const key[8] = { "c_sq", "c_sk", "c_sqsq", "c_sqsk",
					     "g_sq", "g_sk", "g_sqsq", "g_sqsk" };

	pm_p_int(c, "B", 1);
	pm_p_int(c, "N_Q", a->N_Q);
	pm_p_int(c, "H_Q", a->H_Q);
	pm_p_int(c, "H_V", a->H_KV);
	pm_p_int(c, "H_K", a->H_KV);
	pm_p_int(c, "N_KV", a->N_KV);
	pm_p_int(c, "H_KV", a->H_KV);
	pm_p_int(c, "d_h_qk", a->d_qk);
	pm_p_int(c, "d_h_v", a->d_v);
	pm_p_float(c, "dropout", 0.0);
	pm_p_bool(c, "causal", 0);
	pm_p_bool(c, "flash_impl", 1);
	for (int i = 0; i < 8; i++)
		pm_p_int(c, key[i], (int64_t)s[i]);
	pm_p_str(c, "dtype_Q", a->dtype_Q);
	if (a->has_kv)
		pm_p_str(c, "dtype_KV", a->dtype_KV);
	if (a->has_window)
		pm_p_int(c, "sliding_window", a->window);
}

/* _cap_gen_kv: min(value, g_sq·W) for a positive window */
static double cap(const struct iattn *a, double v)
{
	if (a->has_window && a->window > 0 && a->s.g_sq) {
		double m = a->s.g_sq * (double)a->window;
		return v < m ? v : m;
	}
	return v;
}

static void ia_metrics(struct pm_ctx *c, const struct iattn *a)
{
	const struct perf_annot_stats *s = &a->s;
	double H_Q = (double)a->H_Q, H_KV = (double)a->H_KV;
	double dq = (double)a->d_qk, dv = (double)a->d_v;
	double g_sqsk = cap(a, s->g_sqsk), g_sk = cap(a, s->g_sk);
	double flops, q, kv, b, bkv;

	flops = H_Q * (2 * s->c_sqsk * dq) + H_Q * (2 * s->c_sqsk * dv) -
		H_Q * (s->c_sqsq * dq) - H_Q * (s->c_sqsq * dv) +
		H_Q * (2 * g_sqsk * dq) + H_Q * (2 * g_sqsk * dv);
	/* name2bpe(dtype_Q) or 2; name2bpe(dtype_KV) or bpe_Q */
	b = truthy(a->dtype_Q) ? perf_dtype_bpe(a->dtype_Q) : -1;
	if (b <= 0)
		b = 2;
	bkv = a->has_kv && truthy(a->dtype_KV) ? perf_dtype_bpe(a->dtype_KV) : -1;
	if (bkv <= 0)
		bkv = b;
	q = (s->c_sq + s->g_sq) * (H_Q * dq + H_Q * dv + H_KV * dq + H_KV * dv);
	kv = ((s->c_sk - s->c_sq) + (g_sk - s->g_sq)) * (H_KV * dq + H_KV * dv);
	pm_set(c, flops, q * b + kv * bkv);
	pm_spec(c, "matrix", a->bf16 ? perf_dtype_precision("c10::bfloat16")
				     : truthy(a->dtype_Q) ? perf_dtype_precision(a->dtype_Q) : NULL);
}

void pmk_infer_attn(struct pm_ctx *c)
{
	struct iattn a;
	char mode[8];

	memset(&a, 0, sizeof(a));
	if (c->bwd) {
		pm_fail(c, PM_NOTIMPL, "Backward pass for attention is not defined.");
		return;
	}
	/* no sq/sk in the annotation: TraceLens's no_perf params, flops None */
	if (!perf_annot_chunk_stats(c->annotation ? c->annotation : "None", &a.s)) {
		pm_fail(c, PM_FAIL, "attention without sq/sk annotation is not supported");
		return;
	}
	if (cls(c, "aiter_paged_attention_ragged")) {
		ia_ragged(c, &a);
	} else if (cls(c, "pa_decode_gluon")) {
		ia_gluon(c, &a);
	} else if (pm_opt(c, "v4", mode, sizeof(mode))) {
		ia_v4(c, &a, mode);
	} else {
		ia_base(c, &a);
		if (cls(c, "aiter_fmha_v3_varlen_fwd") || cls(c, "aiter_mha_batch_prefill") ||
		    cls(c, "pseudo_mla_prefill_fwd"))
			ia_dv2(c, &a);
		/* reads event["Concrete Inputs"], always absent: d_h_v = 512 */
		if (cls(c, "mla_tilelang_sparse_fwd"))
			a.d_v = 512;
	}
	if (pm_failed(c))
		return;
	if (a.s.c_sq == 0 && a.s.g_sq == 0) {
		pm_fail(c, PM_NOTIMPL,
			"Attention perf model for decode phase requires custom annotations");
		return;
	}
	ia_params(c, &a);
	ia_metrics(c, &a);
}

/* ---- triton ------------------------------------------------------------ */

/* _C10_DTYPE_BYTES, with the torch name TraceLens reports as precision */
static const struct { const char *c10, *torch; int bytes; } c10_types[] = {
	{ "BFloat16", "bfloat16", 2 }, { "Half", "float16", 2 }, { "Float", "float32", 4 },
	{ "Double", "float64", 8 }, { "Byte", "uint8", 1 }, { "Char", "int8", 1 },
	{ "Int", "int32", 4 }, { "Long", "int64", 8 },
};

/* _FLOPS_PER_ELEM (spec §3.10); the only fused-op names tl knows */
static const struct { const char *op; int flops; } triton_ops[] = {
	{ "add", 1 }, { "sub", 1 }, { "mul", 1 }, { "div", 1 }, { "relu", 1 },
	{ "mean", 1 }, { "sum", 1 }, { "abs", 1 }, { "neg", 1 }, { "ne", 1 },
	{ "eq", 1 }, { "lt", 1 }, { "gt", 1 }, { "pow", 2 }, { "sqrt", 2 },
	{ "rsqrt", 2 }, { "var", 2 }, { "reciprocal", 2 }, { "exp", 4 },
	{ "log", 4 }, { "sigmoid", 4 }, { "tanh", 4 }, { "silu", 4 }, { "gelu", 8 },
	{ "_to_copy", 0 }, { "copy", 0 }, { "clone", 0 }, { "embedding", 0 },
};

static int c10_index(const char *t)
{
	if (t && !strncmp(t, "c10::", 5))
		t += 5;
	for (size_t i = 0; t && i < sizeof(c10_types) / sizeof(c10_types[0]); i++)
		if (!strcmp(t, c10_types[i].c10))
			return (int)i;
	return -1;
}

/* the longest known op at s (length ≤ n), its index or -1 */
static int op_at(const char *s, size_t n, size_t *len)
{
	int best = -1;

	*len = 0;
	for (size_t i = 0; i < sizeof(triton_ops) / sizeof(triton_ops[0]); i++) {
		size_t l = strlen(triton_ops[i].op);
		if (l <= n && l > *len && !strncmp(s, triton_ops[i].op, l) &&
		    (l == n || s[l] == '_')) {
			best = (int)i;
			*len = l;
		}
	}
	return best;
}

/* "triton_(poi|red|per)_fused_<ops>_<n>": the ops, longest names first,
 * into buf ("add, mul") with their FLOPs per element; -1 for an op tl's
 * table lacks (TraceLens segments against its 960-name KNOWN_OPS). */
static int fused_ops(const char *name, char *buf, size_t size, double *fpe)
{
	const char *s = name + strlen("triton_xxx_"), *end = name + strlen(name);
	size_t len, used = 0;

	if (strncmp(s, "fused_", 6))
		return -1;
	s += 6;
	while (end > s && end[-1] >= '0' && end[-1] <= '9')
		end--;
	if (end > s && end[-1] == '_')
		end--;
	*fpe = 0;
	buf[0] = '\0';
	while (s < end) {
		int i = op_at(s, (size_t)(end - s), &len);
		if (i < 0 || used + len + 3 > size)
			return -1;
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
					 triton_ops[i].op);
		*fpe += triton_ops[i].flops;
		s += len;
		if (s < end)
			s++;	/* the '_' between ops */
	}
	return buf[0] ? 0 : -1;
}

void pmk_triton(struct pm_ctx *c)
{
	int red = !strncmp(c->name, "triton_red_", 11) || !strncmp(c->name, "triton_per_", 11);
	int64_t sc[2] = { 0, 0 };
	int nsc = 0, first = -1;
	double xnumel, rnumel, bytes = 0, fpe;
	char ops[512];

	/* can_model(): Concrete Inputs, Input Dims and Input type non-empty */
	if (!c->in.nconc || !c->in.ndims || !c->in.ntypes) {
		pm_fail(c, PM_NOMODEL, "triton kernel without Concrete Inputs, Input Dims or Input type");
		return;
	}
	for (int i = 0; i < c->in.nconc; i++) {
		const char *v = c->in.conc[i];
		char *e;
		long long x;
		if (!v || !*v)
			continue;
		x = strtoll(v, &e, 10);
		if (*e || e == v)
			continue;
		sc[0] = sc[1], sc[1] = x;
		nsc++;
	}
	if (!nsc || fused_ops(c->name, ops, sizeof(ops), &fpe) < 0) {
		pm_fail(c, PM_NOMODEL, nsc ? "fused op not in tl's triton op list"
					   : "triton kernel without integer Concrete Inputs");
		return;
	}
	xnumel = (double)(red && nsc >= 2 ? sc[0] : sc[1]);
	rnumel = red && nsc >= 2 ? (double)sc[1] : 1;
	for (int i = 0; i < c->in.ndims && i < c->in.ntypes; i++) {
		const char *t = c->in.types[i];
		int k = c10_index(t);
		if (!t || !strcmp(t, "Scalar") || !c->in.dims[i].n)
			continue;
		if (first < 0)
			first = i;
		bytes += pm_nel(&c->in.dims[i]) * (k < 0 ? 0 : c10_types[k].bytes);
	}
	/* pointwise: the output, ptr_bytes[0]·xnumel */
	if (!red && first >= 0) {
		int k = c10_index(c->in.types[first]);
		bytes += (k < 0 ? 0 : c10_types[k].bytes) * xnumel;
	}
	pm_p_str(c, "fused_ops", ops);
	pm_p_int(c, "xnumel", (int64_t)xnumel);
	pm_p_int(c, "rnumel", (int64_t)rnumel);
	pm_set(c, fpe * xnumel * rnumel, bytes);
	first = first >= 0 ? c10_index(c->in.types[first]) : -1;
	pm_spec(c, "vector", first >= 0 ? c10_types[first].torch : NULL);
}
