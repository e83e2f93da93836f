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
#include "py_repr.h"
#include "share.h"
#include "xalloc.h"
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

/* _C10_DTYPE_BYTES: exact "c10::" names */
static const struct { const char *c10; int bytes; } c10_types[] = {
	{ "c10::BFloat16", 2 }, { "c10::Half", 2 }, { "c10::Float", 4 }, { "c10::Double", 8 },
	{ "c10::Byte", 1 }, { "c10::Char", 1 }, { "c10::Int", 4 }, { "c10::Long", 8 },
};

/* _FLOPS_PER_ELEM (spec §3.10); other fused ops count 0 */
static const struct { const char *op; int flops; } triton_flops[] = {
	{ "add", 1 }, { "sub", 1 }, { "mul", 1 }, { "div", 1 }, { "relu", 1 },
	{ "mean", 1 }, { "sum", 1 }, { "abs", 1 }, { "neg", 1 }, { "ne", 1 },
	{ "eq", 1 }, { "lt", 1 }, { "gt", 1 }, { "pow", 2 }, { "sqrt", 2 },
	{ "rsqrt", 2 }, { "var", 2 }, { "reciprocal", 2 }, { "exp", 4 },
	{ "log", 4 }, { "sigmoid", 4 }, { "tanh", 4 }, { "silu", 4 }, { "gelu", 8 },
	{ "_to_copy", 0 }, { "copy_", 0 }, { "clone", 0 }, { "embedding", 0 },
};

static int c10_bytes(const char *t)
{
	for (size_t i = 0; t && i < sizeof(c10_types) / sizeof(c10_types[0]); i++)
		if (!strcmp(t, c10_types[i].c10))
			return c10_types[i].bytes;
	return 0;
}

static int op_flops(const char *op, size_t len)
{
	for (size_t i = 0; i < sizeof(triton_flops) / sizeof(triton_flops[0]); i++)
		if (strlen(triton_flops[i].op) == len && !strncmp(triton_flops[i].op, op, len))
			return triton_flops[i].flops;
	return -1;
}

/*
 * KNOWN_OPS: TraceLens's ~960 ATen op names (share/tl/aten-ops.tsv), read
 * once, sorted for bsearch.  NULL/0 when the file is missing: TraceLens
 * then keeps only the single-token names of its FLOPs table.
 */
static struct { char *text; const char **op; size_t n; int loaded; } known;

static void known_free(void)
{
	free(known.text);
	free(known.op);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void known_load(void)
{
	char *path = tl_share_path("aten-ops.tsv"), *p, *nl;
	FILE *f;
	size_t len = 0, alloc = 0, got, oa = 0;

	known.loaded = 1;
	if (!path || !(f = fopen(path, "r"))) {
		free(path);
		return;
	}
	do {
		xgrow((void **)&known.text, &alloc, len + 16384, 1);
		got = fread(known.text + len, 1, alloc - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	free(path);
	known.text[len] = '\0';
	for (p = known.text; *p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		if (*p == '#' || !*p)
			continue;
		xgrow((void **)&known.op, &oa, known.n + 1, sizeof(*known.op));
		known.op[known.n++] = p;
	}
	qsort(known.op, known.n, sizeof(*known.op), cmp_str);
	atexit(known_free);
}

static int is_known(const char *s, size_t len)
{
	char buf[256];
	const char *key = buf;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return bsearch(&key, known.op, known.n, sizeof(*known.op), cmp_str) != NULL;
}

/*
 * _parse_kernel_name: "triton_(poi|red|per)_fused_<ops>_<n>" split on '_'
 * into tokens, then segmented by dynamic programming against KNOWN_OPS,
 * backtracking from the end with the longest op at each step; no valid
 * segmentation gives no ops.  Writes "aten.x, aten.y" into out and the
 * FLOPs per element (ops outside the FLOPs table count 0).
 */
static void fused_ops(const char *name, struct pystr *out, double *fpe)
{
	const char *s = name + strlen("triton_xxx_"), *end = name + strlen(name), *q;
	const char **tok = NULL;
	size_t *tl = NULL, nt = 0, ta = 0, la = 0;
	int32_t *best = NULL;	/* best[i]: start token of the longest op ending at i */
	size_t *seg = NULL, ns = 0;

	*fpe = 0;
	if (strncmp(s, "fused_", 6))
		return;
	s += 6;
	/* (.+)_(\d+)$: the last '_' followed by digits only */
	for (q = end; q > s && q[-1] >= '0' && q[-1] <= '9'; q--)
		;
	if (q == end || q - 1 <= s || q[-1] != '_')
		return;
	end = q - 1;
	if (!known.loaded)
		known_load();
	for (q = s; ; q++)
		if (q == end || *q == '_') {
			xgrow((void **)&tok, &ta, nt + 1, sizeof(*tok));
			xgrow((void **)&tl, &la, nt + 1, sizeof(*tl));
			tok[nt] = s;
			tl[nt++] = (size_t)(q - s);
			if (q == end)
				break;
			s = q + 1;
		}
	if (!known.n) {
		/* no registry: the tokens that are FLOPs-table ops */
		for (size_t i = 0; i < nt; i++) {
			int f = op_flops(tok[i], tl[i]);
			if (f < 0)
				continue;
			pystr_adds(out, out->len ? ", aten." : "aten.");
			pystr_add(out, tok[i], tl[i]);
			*fpe += f;
		}
		goto done;
	}
	best = xmalloc(st_mult(nt + 1, sizeof(*best)));
	best[0] = 0;
	for (size_t i = 1; i <= nt; i++) {
		size_t blen = 0;
		best[i] = -1;
		for (size_t j = 0; j < i; j++) {
			size_t len;
			if (j > 0 && best[j] < 0)
				continue;
			len = (size_t)(tok[i - 1] + tl[i - 1] - tok[j]);
			if (is_known(tok[j], len) && (best[i] < 0 || len > blen)) {
				best[i] = (int32_t)j;
				blen = len;
			}
		}
	}
	if (nt == 0 || best[nt] < 0)
		goto done;
	seg = xmalloc(st_mult(nt + 1, sizeof(*seg)));
	for (size_t pos = nt; pos > 0; pos = (size_t)best[pos])
		seg[ns++] = pos;
	for (size_t k = ns; k-- > 0; ) {
		size_t end_tok = seg[k], start = (size_t)best[end_tok];
		size_t len = (size_t)(tok[end_tok - 1] + tl[end_tok - 1] - tok[start]);
		int f = op_flops(tok[start], len);
		pystr_adds(out, out->len ? ", aten." : "aten.");
		pystr_add(out, tok[start], len);
		if (f > 0)
			*fpe += f;
	}
done:
	free(tok);
	free(tl);
	free(best);
	free(seg);
}

/* the integer Concrete Inputs, as int(v) parses them */
static int triton_scalars(const struct pm_ctx *c, int64_t sc[2])
{
	int nsc = 0;

	for (int i = 0; i < c->in.nconc; i++) {
		const char *v = c->in.conc[i], *p;
		char *e;
		long long x;
		if (!v || !*v)
			continue;
		/* int(): optional blanks and sign, digits (and '_' between) */
		for (p = v; *p == ' ' || *p == '\t'; p++)
			;
		x = strtoll(p, &e, 10);
		while (*e == ' ' || *e == '\t')
			e++;
		if (*e || e == p)
			continue;
		sc[0] = sc[1], sc[1] = x;
		nsc++;
	}
	return nsc;
}

void pmk_triton(struct pm_ctx *c)
{
	int red = !strncmp(c->name, "triton_red_", 11) || !strncmp(c->name, "triton_per_", 11);
	int64_t sc[2] = { 0, 0 };
	int nsc, first = -1;
	double xnumel, rnumel, bytes = 0, fpe;
	struct pystr ops = {0};
	char prec[64];

	/* _meta_from_trace_args: Concrete Inputs, Input Dims and Input type
	 * non-empty and at least one integer scalar, else no model */
	if (!c->in.nconc || !c->in.ndims || !c->in.ntypes) {
		pm_fail(c, PM_NOMODEL, "triton kernel without Concrete Inputs, Input Dims or Input type");
		return;
	}
	if (!(nsc = triton_scalars(c, sc))) {
		pm_fail(c, PM_NOMODEL, "triton kernel without integer Concrete Inputs");
		return;
	}
	fused_ops(c->name, &ops, &fpe);
	xnumel = (double)(red && nsc >= 2 ? sc[0] : sc[1]);
	rnumel = red && nsc >= 2 ? (double)sc[1] : 1;
	for (int i = 0; i < c->in.ndims && i < c->in.ntypes; i++) {
		const char *t = c->in.types[i];
		int b = c10_bytes(t);
		if ((t && !strcmp(t, "Scalar")) || !c->in.dims[i].n)
			continue;
		if (first < 0)
			first = i;
		bytes += pm_nel(&c->in.dims[i]) * b;
	}
	/* pointwise: the output, ptr_bytes[0]·xnumel */
	if (!red && first >= 0)
		bytes += c10_bytes(c->in.types[first]) * xnumel;
	pm_p_str(c, "fused_ops", ops.buf ? ops.buf : "");
	pm_p_int(c, "xnumel", (int64_t)xnumel);
	pm_p_int(c, "rnumel", (int64_t)rnumel);
	pm_set(c, fpe * xnumel * rnumel, bytes);
	/* precision: the first pointer with a known size, "c10::BFloat16" →
	 * "bfloat16" (not fp* names: no roofline peak matches it) */
	prec[0] = '\0';
	for (int i = 0; i < c->in.ndims && i < c->in.ntypes && !prec[0]; i++) {
		const char *t = c->in.types[i], *cc;
		if (!t || !strcmp(t, "Scalar") || !c->in.dims[i].n || !c10_bytes(t))
			continue;
		cc = strrchr(t, ':');
		snprintf(prec, sizeof(prec), "%s", cc ? cc + 1 : t);
		for (char *p = prec; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
	}
	pm_spec(c, "vector", prec[0] ? prec : NULL);
	pystr_release(&ops);
}
