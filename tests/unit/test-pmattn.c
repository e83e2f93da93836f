/*
 * Unit tests for the infer_attn and triton perf-model kinds
 * (common/perf_kind_attn.c) on hand-computed cases.  The two vLLM / SGLang
 * cases are spec perf_model §6 rows 13 and 14 (verified there against
 * TraceLens's CSVs); the others are worked out from the §9 formulas, the
 * arithmetic in the comments.  argv[1] is the source tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_dtype.h"
#include "perf_ops.h"
#include "perf_model.h"
#include "pmtest.h"
#include "tap.h"


static int run(const char *name, const char *ann, const char *dims, const char *types,
	       const char *conc, int bwd)
{
	struct pm_args a = { .dims = dims, .types = types, .concrete = conc,
			     .annotation = ann, .opname = name };

	pm_result_release(&r);
	perf_model_compute(perf_ops_lookup(db, name), &a, NULL, 0, bwd, &r);
	return r.status;
}

static void metrics(const char *what, double flops, double bytes, const char *spec)
{
	char w[200];

	snprintf(w, sizeof(w), "%s: model ok", what);
	tap_ok(r.status == PM_OK, w);
	if (r.status != PM_OK)
		printf("#   status %d: %s\n", r.status, r.why ? r.why : "");
	snprintf(w, sizeof(w), "%s flops", what);
	num(r.flops, flops, w);
	snprintf(w, sizeof(w), "%s bytes", what);
	num(r.has_bytes ? r.bytes : -1, bytes, w);
	snprintf(w, sizeof(w), "%s Compute Spec", what);
	tap_str(r.spec, spec, w);
}

#define BF "\"c10::BFloat16\""

static void test_vllm(void)
{
	const char *dec = "execute_33_context_0(sq0sk0sqsq0sqsk0)"
			  "_generation_32(sq32sk55086sqsq32sqsk55086)";

	/* §6 row 14: flops 4·H_Q·d·g_sqsk = 4·64·64·55086 = 902529024;
	 * bytes (32·(2·64·64 + 2·8·64) + (55086−32)·2·8·64)·2
	 *     = (294912 + 56375296)·2 = 113340416 */
	run("vllm::unified_attention_with_output", dec,
	    "[[32,64,64],[2000,16,8,64],[2000,16,8,64],[32,64,64]]", "[" BF "," BF "," BF "," BF "]",
	    "[]", 0);
	metrics("vllm decode", 902529024, 113340416, "matrix_bf16");
	tap_str(param("N_KV"), "16", "N_KV from K[-3]");
	tap_str(param("H_V"), "8", "H_V = H_KV");
	tap_str(param("dtype_KV"), "c10::BFloat16", "dtype_KV = T[1]");
	tap_str(param("causal"), "False", "causal False");
	tap_str(param("dropout"), "0.0", "dropout 0.0");
	tap_str(param("g_sqsk"), "55086", "g_sqsk");
	tap_str(param("sliding_window"), "(absent)", "no sliding_window param");
	tap_ok(r.nparam == 22, "22 params");

	tap_ok(run("vllm::unified_attention_with_output", "NA", "[[32,64,64],[1,16,8,64]]",
		   "[" BF "," BF "]", "[]", 0) == PM_FAIL,
	       "no enclosing annotation (NA): no perf, row kept with kernel time");
	tap_ok(run("aiter::mha_varlen_fwd", NULL, "[[32,64,64],[1,16,8,64]]",
		   "[" BF "," BF "]", "[]", 0) == PM_FAIL, "not annotated at all: no perf");
	tap_ok(run("vllm::unified_attention_with_output",
		   "execute_1_context_0(sq0sk0sqsq0sqsk0)_generation_0(sq0sk0sqsq0sqsk0)",
		   "[[32,64,64],[1,16,8,64]]", "[" BF "," BF "]", "[]", 0) == PM_NOTIMPL,
	       "c_sq = g_sq = 0: NotImplementedError");
	tap_ok(run("vllm::unified_attention_with_output", dec, "[[32,64],[1,16,8,64]]",
		   "[" BF "," BF "]", "[]", 0) == PM_FAIL, "Q not 3-D: no perf");
	tap_ok(run("vllm::unified_attention_with_output", dec, "[[32,64,64],[1,16,8,64]]",
		   "[" BF "," BF "]", "[]", 1) == PM_NOTIMPL, "backward: NotImplementedError");
}

static void test_sglang(void)
{
	/* §6 row 13: prefill of 15 × 1024 tokens; flops H·d·(4·c_sqsk − 2·c_sqsq)
	 * = 32·128·2·15728640 = 128849018880; bytes c_sq·(2·32·128 + 2·8·128)·2
	 * = 15360·20480 = 314572800 */
	run("aiter::mha_batch_prefill",
	    "step[EXTEND bs=15 c_sq=15360 c_sk=15360 c_sqsq=15728640 c_sqsk=15728640]",
	    "[[15360,32,128],[1000,1,8,128],[1000,1,8,128]]", "[" BF "," BF "," BF "]", "[]", 0);
	metrics("sglang prefill", 128849018880.0, 314572800, "matrix_bf16");
	tap_str(param("c_sqsq"), "15728640", "c_sqsq");

	/* d_h_v from V = D[2][-1] = 64 (Q/K 128): flops 32·(2·S·128 + 2·S·64
	 * − S·128 − S·64) = 32·192·S, S = 15728640 → 96636764160; bytes
	 * 15360·(32·128 + 32·64 + 8·128 + 8·64)·2 = 15360·7680·2 = 235929600 */
	run("aiter::mha_batch_prefill",
	    "step[EXTEND bs=15 c_sq=15360 c_sk=15360 c_sqsq=15728640 c_sqsk=15728640]",
	    "[[15360,32,128],[1000,1,8,128],[1000,1,8,64]]", "[" BF "," BF "," BF "]", "[]", 0);
	metrics("batch_prefill d_h_v from V", 96636764160.0, 235929600, "matrix_bf16");

	/* paged_attention_ragged: Q = D[2] (4,16,128), H_KV = D[3][-2] = 2,
	 * d_v = D[4][-1] = 128; decode g_sq 4, g_sk = g_sqsk 4096: flops
	 * 16·(2·4096·128·2) = 33554432; bytes (4·(2·16·128 + 2·2·128) +
	 * 4092·2·2·128)·2 = (18432 + 2095104)·2 = 4227072; no dtype_KV */
	run("sglang_profiler::attention_paged_attention_ragged",
	    "step[DECODE bs=4 g_sq=4 g_sk=4096 g_sqsq=4 g_sqsk=4096]",
	    "[[1],[1],[4,16,128],[512,16,2,128],[512,16,2,128]]",
	    "[\"int\",\"int\"," BF "," BF "," BF "]", "[]", 0);
	metrics("paged_attention_ragged", 33554432, 4227072, "matrix_bf16");
	tap_str(param("dtype_KV"), "(absent)", "ragged: no dtype_KV");
	tap_str(param("N_KV"), "4096", "ragged: N_KV = c_sk + g_sk");
}

static void test_decode_variants(void)
{
	char conc[200] = "[";
	const char *atom = "decode[bs=4 tok=4 sqsq=4 sqsk=8000 sk=8000]";

	for (int i = 0; i < 19; i++)
		strcat(conc, "\"\",");
	strcat(conc, "\"128\"]");
	/* pa_decode_gluon: H_Q 8, d 64, H_KV = D[2][1] = 1, fp8 KV, window 128;
	 * g_sq 4, g_sk = g_sqsk = 4000 capped to 4·128 = 512: flops
	 * 8·(2·512·64·2) = 1048576; bytes 4·(8·64·2 + 64·2)·2 + (512−4)·128·1
	 * = 9216 + 65024 = 74240 */
	run("aiter::pa_decode_gluon", "decode[bs=4 tok=4 sqsq=4 sqsk=4000 sk=4000]",
	    "[[4,8,64],[4,8,64],[100,1,16,64],[100,1,16,64]]",
	    "[" BF "," BF ",\"c10::Float8_e4m3fnuz\",\"c10::Float8_e4m3fnuz\"]", conc, 0);
	metrics("pa_decode_gluon sliding window", 1048576, 74240, "matrix_bf16");
	tap_str(param("sliding_window"), "128", "gluon sliding_window = int(C[19])");
	tap_str(param("dtype_KV"), "c10::Float8_e4m3fnuz", "gluon dtype_KV = T[2]");

	/* DeepSeek-V4 swa (Flash config: 64 heads, d 512, window 128, H_KV 1):
	 * g capped to 4·128 = 512: flops 64·2·512·1024 = 67108864; bytes
	 * 4·(64·1024 + 1024)·2 + 508·1024·2 = 532480 + 1040384 = 1572864 */
	run("pseudo_v4_paged_decode_swa", atom, "[[4,64,512]]", "[" BF "]", "[]", 0);
	metrics("v4 swa", 67108864, 1572864, "matrix_bf16");
	/* csa: W = 128 + min(ceil(2000/4), 512) = 628, cap 2512: flops
	 * 64·2·2512·1024 = 329252864 */
	run("pseudo_v4_paged_decode_csa", atom, "[[4,64,512]]", "[" BF "]", "[]", 0);
	tap_str(param("sliding_window"), "628", "v4 csa window");
	num(r.flops, 329252864, "v4 csa flops");
	/* hca: W = 128 + ceil(2000/128) = 144 */
	run("pseudo_v4_paged_decode_hca", atom, "[[4,64,512]]", "[" BF "]", "[]", 0);
	tap_str(param("sliding_window"), "144", "v4 hca window");

	/* tilelang sparse MLA: d_h_v is always 512 (TraceLens reads a key
	 * events never have); Q (2,16,576), prefill c 2/2/2/2 (two 1-token
	 * requests): flops 16·(2·2·576 + 2·2·512 − 2·576 − 2·512) = 34816 */
	run("sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
	    "prefill[bs=2 tok=2 sqsq=2 sqsk=2 sk=2]", "[[2,16,576],[100,64,1,576]]",
	    "[" BF "," BF "]", "[]", 0);
	tap_str(param("d_h_v"), "512", "tilelang d_h_v = 512");
	num(r.flops, 34816, "tilelang flops");
}

static void test_triton(void)
{
	/* pointwise add+mul over 8192 elements: flops (1+1)·8192 = 16384; bytes
	 * two bf16 inputs 2·8192·2 + the output ptr_bytes[0]·xnumel = 2·8192
	 * → 49152 */
	run("triton_poi_fused_add_mul_0", NULL, "[[64,128],[64,128],[]]",
	    "[" BF "," BF ",\"Scalar\"]", "[\"\",\"\",\"8192\"]", 0);
	metrics("triton pointwise", 16384, 49152, "vector_bfloat16");
	tap_str(param("fused_ops"), "aten.add, aten.mul", "triton fused_ops");
	tap_str(param("rnumel"), "1", "pointwise rnumel 1");
	/* reduction, the last two scalars: x 64, r 4096; flops (0+1+2)·64·4096
	 * = 786432; bytes 64·4096·2 + 64·0 = 524288: "Float" is not a
	 * _C10_DTYPE_BYTES key ("c10::Float" is), so 0 bytes (no output term) */
	run("triton_red_fused__to_copy_mean_pow_1", NULL, "[[64,4096],[64,1],[],[]]",
	    "[" BF ",\"Float\",\"Scalar\",\"Scalar\"]",
	    "[\"\",\"\",\"64\",\"4096\"]", 0);
	metrics("triton reduction", 786432, 524288, "vector_bfloat16");
	tap_str(param("fused_ops"), "aten._to_copy, aten.mean, aten.pow", "reduction fused_ops");
	tap_str(param("xnumel"), "64", "reduction xnumel");
	/* an op without a FLOPs entry (aten.cat, in KNOWN_OPS) counts 0 FLOPs;
	 * bytes 8·2 + the output 2·8 = 32 (TraceLens's model gives the same) */
	run("triton_poi_fused_cat_0", NULL, "[[8]]", "[" BF "]", "[\"8\"]", 0);
	metrics("triton cat", 0, 32, "vector_bfloat16");
	tap_str(param("fused_ops"), "aten.cat", "an op outside the FLOPs table: 0 FLOPs");
	/* a name no KNOWN_OPS segmentation covers: no fused ops, still modelled */
	run("triton_poi_fused_notanop_qqq_0", NULL, "[[8]]", "[" BF "]", "[\"8\"]", 0);
	tap_str(param("fused_ops"), "", "no segmentation: empty fused_ops");
	tap_ok(run("triton_poi_fused_add_0", NULL, "[[8]]", "[" BF "]", "[]", 0) == PM_NOMODEL,
	       "no Concrete Inputs: can_model false");
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc < 2) {
		fprintf(stderr, "usage: test-pmattn SRCDIR\n");
		return 2;
	}
	/* the triton kind reads share/tl/aten-ops.tsv through tl_share_path */
	snprintf(path, sizeof(path), "%s/share/tl", argv[1]);
	setenv("TL_SHARE", path, 1);
	snprintf(path, sizeof(path), "%s/share/tl/dtypes.tsv", argv[1]);
	perf_dtype_init(path);
	snprintf(path, sizeof(path), "%s/share/tl/ops.tsv", argv[1]);
	db = perf_ops_load(path);
	test_vllm();
	test_sglang();
	test_decode_variants();
	test_triton();
	pm_result_release(&r);
	perf_ops_free(db);
	return tap_done();
}
