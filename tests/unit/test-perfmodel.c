/*
 * Unit tests for common/perfmodel: every model kind on hand-computed
 * cases, with dtypes and shapes the corpus lacks (fp8, fp16, fp64, bool,
 * 3-D and transposed convolution, causal and GQA attention, broadcasting,
 * cumulative reductions, group/RMS norm backward) and the failure modes.
 * argv[1] is the source tree.  Expected numbers are worked out by hand
 * from the formulas in spec tracelens-perfmodel.md §3; each comment shows
 * the arithmetic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_dtype.h"
#include "perf_ops.h"
#include "perf_model.h"
#include "pmtest.h"
#include "tap.h"


static int run(const char *name, const char *dims, const char *types, const char *strides,
	       const char *conc, int bwd, const char *kernel)
{
	struct pm_args a = { .dims = dims, .types = types, .strides = strides,
			      .concrete = conc };
	const char *k[1] = { kernel };

	pm_result_release(&r);
	perf_model_compute(perf_ops_lookup(db, name), &a, k, kernel ? 1 : 0, bwd, &r);
	return r.status;
}

static void ok(const char *what)
{
	char w[200];

	snprintf(w, sizeof(w), "%s: model ok", what);
	tap_ok(r.status == PM_OK, w);
	if (r.status != PM_OK)
		printf("#   status %d: %s\n", r.status, r.why ? r.why : "");
}

static void metrics(const char *what, double flops, double bytes, const char *spec)
{
	char w[200];

	ok(what);
	snprintf(w, sizeof(w), "%s flops", what);
	num(r.flops, flops, w);
	snprintf(w, sizeof(w), "%s bytes", what);
	if (bytes < 0) {
		tap_ok(!r.has_bytes, w);
	} else {
		tap_ok(r.has_bytes, w);
		num(r.bytes, bytes, w);
	}
	snprintf(w, sizeof(w), "%s Compute Spec", what);
	tap_str(r.spec, spec, w);
}

static void test_dtype(void)
{
	num(perf_dtype_bpe("c10::BFloat16"), 2, "bpe bf16");
	num(perf_dtype_bpe("C10::BFLOAT16"), 2, "bpe matches case-insensitively");
	num(perf_dtype_bpe("c10::Float8_e5m2fnuz"), -1, "bpe e5m2fnuz unknown to TraceLens");
	num(perf_dtype_bpe("bool"), -1, "bpe bool unknown to TraceLens");
	num(perf_dtype_bytes("bool"), 1, "bool is 1 byte");
	num(perf_dtype_bytes("fp4"), 0.5, "fp4 is half a byte");
	num(perf_dtype_bpe("long int"), 8, "bpe long int");
	num(perf_dtype_bpe(NULL), -1, "bpe of None");
	tap_str(perf_dtype_precision("float"), "fp32", "precision float");
	tap_ok(perf_dtype_precision("c10::Float8_e5m2") == NULL, "e5m2 has no precision");
	tap_str(perf_dtype_precision("c10::Float4_e2m1fn_x2"), "fp4", "precision fp4x2");
}

static void test_gemm(void)
{
	/* 2·64·32·128 = 524288; (64·128 + 128·32 + 64·32)·4 = 57344 */
	run("aten::mm", "[[64,128],[128,32]]", "[\"float\",\"float\"]", "[[128,1],[32,1]]",
	    "[\"\",\"\"]", 0, NULL);
	metrics("mm fp32", 524288, 57344, "matrix_fp32");
	tap_str(param("stride_A"), "(128, 1)", "mm stride_A");
	tap_str(param("dtype_A_B"), "('float', 'float')", "mm dtype_A_B");
	tap_str(param("B"), "1", "mm B = 1 added last");
	tap_str(r.param[r.nparam - 1].key, "B", "mm B is the last param");
	/* fp8 → fp16 out: 16·32·1 + 32·64·1 + 16·64·2 = 4608 */
	run("aten::_scaled_mm", "[[16,32],[32,64],[],[],[],[]]",
	    "[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\",\"\",\"\"]",
	    "[[32,1],[1,32],[],[],[],[]]", "[\"\",\"\",\"\",\"\",\"\",\"\"]", 0, NULL);
	metrics("scaled_mm fp8", 65536, 4608, "matrix_fp8");
	tap_str(param("bias"), "False", "scaled_mm bias: len(Input Dims) != 3");
	run("aten::_scaled_mm", "[[16,32],[32,64],[64]]",
	    "[\"c10::Float8_e5m2\",\"c10::Float8_e5m2\",\"c10::BFloat16\"]", "", "[\"\",\"\",\"\"]", 0, NULL);
	/* 3 args → bias: +16·64 flops, +64·1 bytes; e5m2 has no precision */
	metrics("scaled_mm e5m2 with bias", 65536 + 1024, 4608 + 64, "");
	tap_str(param("stride_A"), "", "no Input Strides → stride None");
	/* batched fp16: 4·2·8·2·16 = 2048; 4·(8·16 + 16·2 + 8·2)·2 = 1408 */
	run("aten::bmm", "[[4,8,16],[4,16,2]]", "[\"c10::Half\",\"c10::Half\"]",
	    "[[128,16,1],[32,2,1]]", "[\"\",\"\"]", 0, NULL);
	metrics("bmm fp16", 2048, 1408, "matrix_fp16");
	tap_str(r.param[0].key, "B", "bmm B is the first param");
	tap_str(param("B"), "4", "bmm B");
	/* 4·(2·8·2·16 + 8·2) = 2112; 4·(128 + 32 + 16 + 2)·2 = 1424 */
	run("aten::baddbmm", "[[4,8,2],[4,8,16],[4,16,2],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"]",
	    "[[16,2,1],[128,16,1],[32,2,1],[],[]]", "[\"\",\"\",\"\",\"1\",\"1\"]", 0, NULL);
	metrics("baddbmm bf16", 2112, 1424, "matrix_bf16");
	/* double: 2·2·2·2 + 2·2 = 20 flops; (4 + 4 + 4 + 2)·8 = 112 bytes */
	run("aten::addmm", "[[2],[2,2],[2,2],[],[]]",
	    "[\"double\",\"double\",\"double\",\"Scalar\",\"Scalar\"]", "[[1],[2,1],[2,1],[],[]]",
	    "[\"\",\"\",\"\",\"1\",\"1\"]", 0, "Cijk_Ailk_Bjlk_BBS_BH_MT64x16x64");
	metrics("addmm fp64", 20, 112, "matrix_fp64");
	tap_str(param("transpose"), "(False, True)", "Tensile kernel name gives transpose");
	run("aten::mm", "[[4,4],[4,4]]", "[\"c10::BFloat16\",\"c10::BFloat16\"]", "[[4,1],[4,1]]",
	    "[\"\",\"\"]", 0, "nvjet_tst_64x8_64x16_2x1_v_bz_TNT");
	tap_str(param("transpose"), "(True, False)", "nvjet kernel name gives transpose");
	run("aten::mm", "[[4,4],[4,4]]", "[\"c10::BFloat16\",\"c10::BFloat16\"]", "[[4,1],[4,1]]",
	    "[\"\",\"\"]", 0, "void cutlass::Kernel2<cutlass_80_tensorop_gemm_tn>");
	tap_str(param("transpose"), "(absent)", "cutlass kernel names give no transpose");
	run("aten::mm", "[[4,4],[4,4]]", "[\"bool\",\"bool\"]", "[[4,1],[4,1]]", "[\"\",\"\"]", 0, NULL);
	metrics("mm bool", 128, -1, "");
	tap_ok(run("aten::mm", "[[4,4],[4,4]]", "[\"float\",\"float\"]", "", "[]", 1, NULL) == PM_NOTIMPL,
	       "GEMM backward pass raises NotImplementedError");
	tap_ok(run("aten::mm", "[[4,4]]", "[\"float\"]", "", "[]", 0, NULL) == PM_FAIL,
	       "mm with one operand fails");
	/* TransformerEngine te_gemm_ts, no transposes: M = A[1], K = A[0],
	 * N = B[0]; 2·16·8·32 = 8192; 16·32·1 + 32·8·1 + 16·8·2 = 1024 */
	run("tex_ts::te_gemm_ts",
	    "[[32,16],[],[],[],[],[8,32],[],[],[],[],[16,8],[],[],[],[],[],[],[],[]]",
	    "[\"c10::Float8_e4m3fn\",\"\",\"\",\"\",\"\",\"c10::Float8_e4m3fn\",\"\",\"\",\"\",\"\",\"c10::BFloat16\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"c10::BFloat16\"]",
	    "", "[\"\",\"\",\"\",\"\",\"0\",\"\",\"\",\"\",\"\",\"0\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"]", 0, NULL);
	metrics("te_gemm_ts fp8", 8192, 1024, "matrix_fp8");
	tap_str(param("dtype_A_B"), "('c10::Float8_e4m3fn', 'c10::Float8_e4m3fn', 'c10::BFloat16', 'c10::BFloat16')",
		"te_gemm_ts dtype_A_B has A, B, out, bias");
	/* hipBLASLt fp8: A (64,128), B (128,32); out bf16: 8192 + 4096 + 64·32·2 */
	run("primus_turbo::hipblaslt_gemm_fp8", "[[64,128],[],[128,32],[],[],[],[],[]]",
	    "[\"c10::Float8_e4m3fnuz\",\"float\",\"c10::Float8_e4m3fnuz\",\"float\",\"\",\"Scalar\",\"Scalar\",\"Scalar\"]",
	    "", "[\"\",\"\",\"\",\"\",\"\",\"False\",\"False\",\"False\"]", 0, NULL);
	metrics("hipblaslt fp8", 524288, 16384, "matrix_fp8");
	tap_str(param("dtype_scaleA"), "float", "hipblaslt dtype_scaleA");
	/* a4w4: K = 64·2; 16·64 + 32·64 + (16 + 32)·ceil(128/32)·1 + 16·32·2 = 4288 */
	run("aiter::gemm_a4w4", "[[16,64],[32,64],[16,4],[32,4],[]]",
	    "[\"c10::Float4_e2m1fn_x2\",\"c10::Float4_e2m1fn_x2\",\"c10::Float8_e8m0fnu\",\"c10::Float8_e8m0fnu\",\"\"]",
	    "", "[\"\",\"\",\"\",\"\",\"\"]", 0, NULL);
	metrics("a4w4 fp4", 131072, 4288, "matrix_fp4");
	tap_str(param("K"), "128", "a4w4 K unpacked");
	/* a8w8 blockscale: N from the weight [N,K], bf16 out (scales ignored):
	 * 2·16·64·128; 16·128 + 128·64 + 16·64·2 */
	run("aiter::gemm_a8w8_blockscale_ck", "[[16,128],[64,128]]",
	    "[\"c10::Float8_e4m3fnuz\",\"c10::Float8_e4m3fnuz\"]", "", "[\"\",\"\"]", 0, NULL);
	metrics("a8w8 blockscale", 262144, 12288, "matrix_fp8");
	/* TraceLens's literal is "c10::bfloat16", lower case */
	tap_str(param("dtype_A_B"), "('c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', 'c10::bfloat16')",
		"blockscale dtype_A_B with the bf16 output");
	tap_str(param("output_shape"), "(16, 64)", "blockscale output_shape");
	/* vllm_rocm_unquantized_gemm: N from the weight [N,K]; bias D[2] */
	run("vllm::rocm_unquantized_gemm", "[[8,16],[32,16],[32]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"]", "", "[\"\",\"\",\"\"]", 0, NULL);
	/* 2·8·32·16 + 8·32 = 8448; (128 + 512 + 256 + 32)·2 = 1856 */
	metrics("rocm_unquantized_gemm", 8448, 1856, "matrix_bf16");
}

static void test_conv(void)
{
	/* 3-D, grouped: out (2,6,8,8,8); 2·(2·27)·6144 = 663552; (4096 + 324 + 6144)·2 */
	run("aten::convolution", "[[2,4,8,8,8],[6,2,3,3,3],[6],[],[],[],[],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]",
	    "[[2048,512,64,8,1],[54,27,9,3,1],[1],[],[],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"[1]\",\"[1]\",\"[1]\",\"False\",\"[0]\",\"2\"]", 0, NULL);
	metrics("conv3d grouped", 663552, 21128, "matrix_bf16");
	tap_str(param("convNd"), "conv3d", "convNd");
	tap_str(param("stride"), "(1, 1, 1)", "length-1 stride broadcast");
	tap_str(param("bias"), "False", "bias never detected (9 args; TraceLens quirk)");
	tap_str(param("groups"), "2", "groups");
	/* transposed: out (1,3,10,10); 2·27·n(x)=100 → 5400; (100 + 108 + 300)·4 */
	run("aten::convolution", "[[1,4,5,5],[4,3,3,3],[],[],[],[],[],[],[]]",
	    "[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]",
	    "[[100,25,5,1],[27,9,3,1],[],[],[],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"[2, 2]\",\"[1, 1]\",\"[1, 1]\",\"True\",\"[1, 1]\",\"1\"]", 0, NULL);
	metrics("conv_transpose2d fp32", 5400, 2032, "matrix_fp32");
	/* backward: out (2,4,6,6)=288; ig 2·288·27 + wg 2·108·2·36 + bias 288;
	 * bytes 2·(288 + 108 + 384)·4 + (288 + 4) unscaled bias term */
	run("aten::convolution_backward",
	    "[[2,4,6,6],[2,3,8,8],[4,3,3,3],[4],[],[],[],[],[],[],[]]",
	    "[\"float\",\"float\",\"float\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\",\"ScalarList\"]",
	    "[[144,36,6,1],[192,64,8,1],[27,9,3,1],[],[],[],[],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"[4]\",\"[1, 1]\",\"[0, 0]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"1\",\"[True, True, True]\"]",
	    0, NULL);
	metrics("conv2d backward with bias", 31392, 6532, "matrix_fp32");
	run("aten::convolution", "[[1,4,5,5],[4,3,3,3],[],[],[],[],[],[],[]]",
	    "[\"float\",\"c10::Half\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"]", "",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"False\",\"\",\"1\"]", 0, NULL);
	tap_ok(r.status == PM_FAIL, "conv with mixed input/weight dtypes fails");
}

static void test_sdpa(void)
{
	/* causal, N_Q == N_KV: 2 terms of 2·4·2·16·16·32 = 131072, halved */
	run("aten::_scaled_dot_product_flash_attention",
	    "[[2,4,16,32],[2,4,16,32],[2,4,16,32],[],[],[],[]]",
	    "[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]",
	    "[[2048,512,32,1],[2048,512,32,1],[2048,512,32,1],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"0.\",\"True\",\"False\",\"\"]", 0, NULL);
	/* bytes: 4 tensors of 2·16·4·32 elements, bpe fixed 2 (quirk) */
	metrics("sdpa causal fp16", 131072, 32768, "matrix_fp16");
	tap_str(param("causal"), "True", "causal param");
	tap_str(param("dropout"), "0.0", "dropout '0.' is 0.0");
	run("aten::_scaled_dot_product_flash_attention",
	    "[[1,1,8,16],[1,1,12,16],[1,1,12,16],[],[],[],[]]",
	    "[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]", "",
	    "[\"\",\"\",\"\",\"0.\",\"True\",\"False\",\"\"]", 0, NULL);
	tap_ok(r.status == PM_FAIL, "causal attention with N_Q != N_KV fails (row dropped)");
	/* fp32 forward still sized with bpe 2: 4·(1·8·1·16)… N_KV 12 */
	run("aten::_scaled_dot_product_efficient_attention",
	    "[[1,1,8,16],[1,1,12,16],[1,1,12,16],[],[],[],[]]",
	    "[\"float\",\"float\",\"float\",\"\",\"\",\"\",\"\"]", "",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\"]", 0, NULL);
	/* 2·(1·1·2·8·12·16) = 6144; (128 + 192 + 192 + 128)·2 = 1280 */
	metrics("efficient attention fp32, bytes still bpe 2", 6144, 1280, "matrix_fp32");
	tap_str(param("flash_impl"), "False", "efficient attention is not flash");
	/* GQA backward pass of a BNHD forward: 5·8192 + 2·(1·8·16·1) = 41216;
	 * bytes (2·512 + 2·256 + 2·256 + 512)·2 = 5120 */
	run("flash_attn::_flash_attn_forward", "[[1,8,4,16],[1,8,2,16],[1,8,2,16],[],[],[],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]",
	    "[[512,64,16,1],[256,32,16,1],[256,32,16,1],[],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"0.0\",\"0.125\",\"False\",\"-1\",\"-1\"]", 1, NULL);
	metrics("flash_attn GQA backward pass", 41216, 5120, "matrix_bf16");
	tap_str(param("H_KV"), "2", "H_KV from BNHD k");
	tap_str(param("q_stride"), "(512, 64, 16, 1)", "q_stride param");
	/* varlen, 3 sequences in 96 tokens, max 64: F(64,64) + 2·F(16,16) with
	 * F(n,m) = 2 terms of 2·2·n·m·8 = 64·n·m; bytes 4·(96·2·8)·2 */
	run("flash_attn::_flash_attn_varlen_forward",
	    "[[96,2,8],[96,2,8],[96,2,8],[4],[4],[],[],[],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"int\",\"int\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]",
	    "[[16,8,1],[16,8,1],[16,8,1],[1],[1],[],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"\",\"\",\"64\",\"64\",\"0.0\",\"0.125\",\"False\"]", 0, NULL);
	metrics("flash_attn varlen", 294912, 12288, "matrix_bf16");
	tap_str(param("max_seqlen_q"), "64.0", "max_seqlen_q is a float");
	tap_str(param("num_seqs_q"), "3", "num_seqs_q from cu_seqlens");
	/* Evoformer (1,4,16,2,8): B = 4; 2·(4·2·2·16·16·8); 4·(4·16·2·8)·2 */
	run("EvoformerAttention", "[[1,4,16,2,8],[1,4,16,2,8],[1,4,16,2,8],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"\",\"\"]", "", "[]", 0, NULL);
	metrics("Evoformer attention", 65536, 8192, "matrix_bf16");
	tap_str(param("dtype_A_B"), "['c10::BFloat16']", "Evoformer dtype_A_B is a list");
	tap_str(param("dropout"), "(absent)", "Evoformer has no dropout param");
	run("flash_attn::_flash_attn_forward", "[[1,8,4,16],[2,8,2,16],[1,8,2,16]]",
	    "[\"float\",\"float\",\"float\"]", "", "[\"\",\"\",\"\",\"0.0\",\"0.1\",\"False\"]", 0, NULL);
	tap_ok(r.status == PM_FAIL, "batch mismatch between q and k fails");
}

static void test_elementwise(void)
{
	/* silu_and_mul: 5 FLOPs per output element, input read twice */
	run("aiter::silu_and_mul", "[[4,64],[4,128]]", "[\"c10::BFloat16\",\"c10::BFloat16\"]",
	    "[[64,1],[128,1]]", "[\"\",\"\"]", 0, NULL);
	metrics("silu_and_mul", 1280, 1536, "vector_bf16");
	/* mxfp4 quant: 2n flops; n·2 + n/2 + n//32 bytes, n = 4096 */
	run("aiter::dynamic_per_group_scaled_quant_fp4", "[[64,32],[64,64],[64,2]]",
	    "[\"c10::Float4_e2m1fn_x2\",\"c10::BFloat16\",\"c10::Float8_e8m0fnu\"]", "",
	    "[\"\",\"\",\"\"]", 0, NULL);
	metrics("mxfp4 quant", 8192, 10368, "vector_bf16");
	tap_str(param("stride_input"), "", "mxfp4 quant stride_input is None");
	run("aten::neg", "[[3,5]]", "[\"bool\"]", "[[5,1]]", "[\"\"]", 0, NULL);
	metrics("neg bool: bytes None", 15, -1, "");
	tap_str(param("stride_output"), "", "unary without output: stride_output None");
	/* copy_ fp64 → fp16: n·(8 + 2) */
	run("aten::copy_", "[[10],[10],[]]", "[\"c10::Half\",\"double\",\"Scalar\"]",
	    "[[1],[1],[]]", "[\"\",\"\",\"False\"]", 0, NULL);
	metrics("copy_ half<-double", 10, 100, "vector_fp16");
	/* pad: (2,3,4) with [1, 2, 0, 1] → (2,4,7); n(in)·4 + n(out)·4 */
	run("aten::replication_pad2d", "[[2,3,4],[]]", "[\"float\",\"ScalarList\"]",
	    "[[12,4,1],[]]", "[\"\",\"[1, 2, 0, 1]\"]", 0, NULL);
	metrics("replication_pad2d", 56, 320, "vector_fp32");
	tap_str(param("output_shape"), "(2, 4, 7)", "pad output shape");
	/* scalar operand: (8,16)·Scalar → 128 out; 128·2 + 1·4 + 128·2 */
	run("aten::mul", "[[8,16],[]]", "[\"c10::Half\",\"Scalar\"]", "[[16,1],[]]",
	    "[\"\",\"2\"]", 0, NULL);
	metrics("mul by scalar", 128, 516, "vector_fp16");
	tap_str(param("shape_in2"), "()", "scalar shape ()");
	/* broadcast (8,1)·(1,16) with fp32 and fp16: out 128 elems of max bpe 4 */
	run("aten::add", "[[8,1],[1,16],[]]", "[\"float\",\"c10::Half\",\"Scalar\"]",
	    "[[1,1],[16,1],[]]", "[\"\",\"\",\"1\"]", 0, NULL);
	metrics("add broadcast", 128, 8 * 4 + 16 * 2 + 128 * 4, "vector_fp32");
	run("aten::add", "[[3],[4],[]]", "[\"float\",\"float\",\"Scalar\"]", "", "[\"\",\"\",\"1\"]", 0, NULL);
	tap_ok(r.status == PM_FAIL, "non-broadcastable shapes fail");
}

static void test_reduce_norm(void)
{
	run("aten::cumsum", "[[10,20],[],[]]", "[\"float\",\"Scalar\",\"\"]", "", "[\"\",\"1\",\"\"]", 0, NULL);
	metrics("cumsum keeps every element", 200, 1600, "vector_fp32");
	run("aten::sum", "[[5,5],[],[],[]]", "[\"double\",\"ScalarList\",\"Scalar\",\"\"]", "",
	    "[\"\",\"[1]\",\"False\",\"\"]", 0, NULL);
	/* output counted as 1 element (TraceLens quirk): 25·8 + 8 */
	metrics("sum fp64 reduces to one element", 25, 208, "vector_fp64");
	tap_str(param("reduce_type"), "sum", "reduce_type");
	tap_str(param("num_output_elems"), "1", "num_output_elems");
	run("aten::amax", "[[4,4]]", "[\"c10::BFloat16\"]", "", "[\"\"]", 1, NULL);
	metrics("amax backward pass", 16, 34, "vector_bf16");
	tap_str(param("reduce_type"), "max", "amax is a max");
	/* RMSNorm: (1024/64)·130 + 2·1024 = 4128; 1024·4 + 64·2 = 4224 */
	run("aten::_fused_rms_norm", "[[2,8,64],[],[64],[]]",
	    "[\"c10::BFloat16\",\"ScalarList\",\"c10::BFloat16\",\"Scalar\"]",
	    "[[512,64,1],[],[1],[]]", "[\"\",\"[64]\",\"\",\"\"]", 0, NULL);
	metrics("rms_norm bf16", 4128, 4224, "vector_bf16");
	/* GroupNorm bwd: C = 6 / 3 = 2.0 (a float); e = 96; 2·(4e + 5e) = 1728;
	 * 192·4 + 192·4·2 + 2·4 + 2·4 + 2·4·2 = 2336 */
	run("aten::native_group_norm_backward",
	    "[[2,6,4,4],[2,6,4,4],[2,3],[2,3],[6],[],[],[],[],[]]",
	    "[\"float\",\"float\",\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\",\"ScalarList\"]",
	    "[[96,16,4,1],[96,16,4,1],[3,1],[3,1],[1],[],[],[],[],[]]",
	    "[\"\",\"\",\"\",\"\",\"\",\"2\",\"6\",\"16\",\"3\",\"[True, False, False]\"]", 0, NULL);
	metrics("group_norm backward", 1728, 2336, "vector_fp32");
	tap_str(param("num_channels"), "2.0", "GroupNormBwd channels is a float");
	tap_str(param("output_mask"), "[True, False, False]", "output_mask list");
	/* spec §6 row 16: aiter::rmsnorm (491520,128) bf16 and aiter::add_rmsnorm
	 * (15360,4096): 0.25264128 / 240.000244.. MB and 0.31460352 / 480.0078125 MB */
	run("aiter::rmsnorm", "[[491520,128],[491520,128],[128],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]", "", "[\"\",\"\",\"\",\"1e-06\"]", 0, NULL);
	metrics("aiter rmsnorm", 252641280, 251658496, "vector_bf16");
	run("aiter::add_rmsnorm", "[[15360,4096],[15360,4096],[15360,4096],[15360,4096],[4096],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]",
	    "", "[\"\",\"\",\"\",\"\",\"\",\"1e-06\"]", 0, NULL);
	metrics("aiter add_rmsnorm", 314603520, 503324672, "vector_bf16");
	/* fp8 group quant gs 128 on (8,256): RMS 8·514 + 2·2048 = 8208, + 2n;
	 * 2048·2 + 256·2 + 2048 + 8·2·4 */
	run("vllm::rocm_aiter_rmsnorm_fp8_group_quant", "[[8,256],[256],[],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"]", "", "[\"\",\"\",\"1e-06\",\"128\"]", 0, NULL);
	metrics("rmsnorm fp8 group quant", 8208 + 4096, 4096 + 512 + 2048 + 64, "vector_bf16");
	run("aten::instance_norm_backward", "[[1,2,3,3],[1,2,3,3]]", "[\"float\",\"float\"]", "", "[]", 0, NULL);
	tap_ok(r.status == PM_NOTIMPL, "InstanceNorm backward raises NotImplementedError");
	run("aten::native_batch_norm", "[[2,4,3,3],[4],[4],[4],[4],[],[],[]]",
	    "[\"float\",\"float\",\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\",\"Scalar\"]", "",
	    "[\"\",\"\",\"\",\"\",\"\",\"False\",\"0.1\",\"1e-05\"]", 1, NULL);
	tap_ok(r.status == PM_NOTIMPL, "BatchNorm backward pass raises NotImplementedError");
	/* training 'False' is a non-empty string: bool('False') is True */
	run("aten::native_batch_norm", "[[2,4,3,3],[4],[4],[4],[4],[],[],[]]",
	    "[\"float\",\"float\",\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\",\"Scalar\"]", "",
	    "[\"\",\"\",\"\",\"\",\"\",\"False\",\"0.1\",\"1e-05\"]", 0, NULL);
	tap_str(param("is_training"), "True", "bool('False') is True (TraceLens quirk)");
	/* 3·4 + 3·72 + 3·4 + 2·72 = 384; 72·4·2 + 6·4·4 = 672 */
	metrics("batch_norm training", 384, 672, "vector_fp32");
}

static void test_expr(void)
{
	/* FusedRoPEFunc (S,B,H,d) = (4,2,8,16): 3n, 2n·2 with n = 1024 */
	run("FusedRoPEFunc", "[[4,2,8,16],[],[]]", "[\"c10::BFloat16\",\"\",\"\"]", "", "[\"\",\"\",\"\"]", 0, NULL);
	metrics("FusedRoPE", 3072, 4096, "vector_bf16");
	tap_str(param("heads"), "8", "RoPE heads param");
	tap_str(param("num_elements"), "1024", "RoPE num_elements param");
	run("FusedRoPEFunc", "[[4,2,8,16]]", "[\"c10::BFloat16\"]", "", "[\"\"]", 1, NULL);
	tap_ok(r.status == PM_FAIL, "FusedRoPE has no backward formulas (TraceLens AttributeError)");
	/* CrossEntropy logits (8,1000) fp32: 5·8·1000; 8000·4 + 8·8 + 8·4 */
	run("CrossEntropyFunction", "[[8,1000],[8]]", "[\"float\",\"long int\"]", "", "[\"\",\"\"]", 0, NULL);
	metrics("CrossEntropy", 40000, 32096, "vector_fp32");
	tap_str(param("logits_shape"), "(8, 1000)", "logits_shape param");
	/* MoEDispatch: bytes only, same backward, no Compute Spec */
	run("MoEDispatch", "[[64,512]]", "[\"c10::Half\"]", "", "[\"\"]", 1, NULL);
	metrics("MoEDispatch backward pass", 0, 65536, "");
	run("_C_custom_ar::all_reduce", "[[],[16,4096]]", "[\"\",\"c10::BFloat16\"]", "[[],[4096,1]]",
	    "[\"\",\"\"]", 0, NULL);
	metrics("custom all_reduce", 0, 262144, "");
	tap_str(param("stride_input"), "(4096, 1)", "all_reduce stride param");
	run("sglang::store_cache", "[[32,8,128]]", "[\"c10::Float8_e4m3fn\"]", "", "[\"\"]", 0, NULL);
	metrics("store_cache fp8", 0, 131072, "vector_fp8");
	tap_str(param("dtype"), "c10::Float8_e4m3fn", "dtype param is the bare string");
	/* per-token fp8 quant: n(out)·2.59375; 1024·1 + 1024·2 + 16·4 */
	run("aiter::dynamic_per_token_scaled_quant", "[[16,64],[16,64],[16,1],[]]",
	    "[\"c10::Float8_e4m3fnuz\",\"c10::BFloat16\",\"float\",\"\"]", "[[64,1],[64,1],[1,1],[]]",
	    "[\"\",\"\",\"\",\"\"]", 0, NULL);
	metrics("per-token quant", 2656, 3136, "vector_bf16");
	tap_str(param("dtype_in1_in2_out"), "('c10::BFloat16', 'float', 'c10::Float8_e4m3fnuz')",
		"quant dtype tuple from TT()");
	tap_str(param("shape_out"), "(16, 64)", "quant shape_out");
	/* mxfp4 dual quant (32,64): 2048; 2048·2 + 2·1024 + 32·2 + 64·1 */
	run("primus::quantize_mxfp4_dual", "[[32,64]]", "[\"c10::BFloat16\"]", "[[64,1]]", "[\"\"]", 0, NULL);
	metrics("mxfp4 dual quant", 2048, 4096 + 2048 + 64 + 64, "vector_bf16");
	tap_str(param("dtype_in_out"), "('c10::BFloat16', 'c10::Float4_e2m1fn_x2')", "literal dtype in TT()");
	/* mhc_post M=4, n=2, C=8 bf16: 2·4·2·8·3 = 384;
	 * 32·2 + 64·2 + 8·4 + 16·4 + 64·2 = 416 */
	run("aiter::mhc_post", "[[4,2,8],[4,8],[4,2,8],[4,2,1],[4,2,2],[]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"float\",\"float\",\"Scalar\"]",
	    "", "[\"\",\"\",\"\",\"\",\"\",\"\"]", 0, NULL);
	metrics("mhc_post", 384, 416, "vector_bf16");
	tap_str(param("hc3"), "", "mhc_post hc3 is None");
	/* MLA RoPE + fp8 cache write, T=4 QH=2 KH=1 D_lora=8 D_pe=4:
	 * 3·(32 + 16) = 144; q read + write 2·(4·2·12·2) + k 4·12·2 + kv 4·12·1 = 528 */
	run("aiter::fused_qk_rope_cat_and_cache_mla", "[[4,2,8],[4,2,4],[4,1,8],[4,1,4],[16,1,12],[4]]",
	    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::Float8_e4m3fn\",\"long int\"]",
	    "", "[\"\",\"\",\"\",\"\",\"\",\"\"]", 0, NULL);
	metrics("MLA rope + cache", 144, 528, "vector_bf16");
	/* SGLang rotary: q (16, 32·64), k (16, 8·64), head 64 (C[3]), rot_dim 32
	 * from the cos/sin cache: n = 16·(32 + 8)·32 = 20480; 3n; 2n·2 */
	run("sgl_kernel::rotary_embedding", "[[16],[16,2048],[16,512],[],[4096,32],[]]",
	    "[\"long int\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"c10::BFloat16\",\"Scalar\"]",
	    "", "[\"\",\"\",\"\",\"64\",\"\",\"True\"]", 0, NULL);
	metrics("sgl rotary", 61440, 81920, "vector_bf16");
	/* no head size given: head = q[-1] = 2048, no cache dims: rot = head */
	run("sgl_kernel::rotary_embedding", "[[16],[16,2048],[16,2048]]",
	    "[\"long int\",\"c10::Half\",\"c10::Half\"]", "", "[\"\",\"\",\"\"]", 0, NULL);
	metrics("sgl rotary defaults", 3 * 16 * 2 * 2048, 2 * 16 * 2 * 2048 * 2, "vector_fp16");
	/* store_cache of an unknown dtype falls back to 2 bytes */
	run("sglang::store_cache", "[[2,4]]", "[\"bool\"]", "", "[\"\"]", 0, NULL);
	metrics("store_cache bool", 0, 64, "");
	run("sglang::store_cache", "[]", "[]", "", "[]", 0, NULL);
	tap_ok(r.status == PM_FAIL, "expr over missing arguments fails");
}

#define BF "\"c10::BFloat16\""
#define F8 "\"c10::Float8_e4m3fnuz\""

static void test_moe(void)
{
	/* fused 1-stage, int4-packed fp4 weights: war = 8 // 4 = 2, inter =
	 * 8·2 = 16, gated (32 == 2·16); M=2 K=8 N=16 E=4 topk=2;
	 * E_active = 4·(1 − (2/4)²) = 3;
	 * flops 2·2·8·16·2·2 + 2·2·8·16·2 + 2·8·(2·2−1) = 2048+1024+48;
	 * bytes 2·8·2 + 3·16·8·0.5·2 + 3·16·8·0.5 + 2·8·2 = 32+384+192+32 */
	run("pseudo_op::moe_aiter_fused_1stage", "[[2,8],[4,32,4],[4,8,8],[2,2]]",
	    "[" BF ",\"c10::Float4_e2m1fn_x2\",\"c10::Float4_e2m1fn_x2\",\"int\"]", "", "", 0, NULL);
	metrics("moe fused 1-stage", 3120, 640, "matrix_bf16");
	tap_str(param("inter_dim"), "16", "moe fused inter_dim unpacked");
	tap_str(param("gated"), "True", "moe fused gated");
	tap_str(param("weight_dtype"), "c10::Float4_e2m1fn_x2", "moe fused weight_dtype");
	tap_str(param("output_dtype"), "(absent)", "moe fused has no output_dtype");
	tap_str(r.param[0].key, "num_tokens", "moe params start with num_tokens");
	/* blockscale: in D1 [4,8], w1 [2,16,8], w2 [2,8,8], topk C[8] = 2;
	 * fp8 in/weights (1 byte), bf16 out; E_active = 2;
	 * flops 2·4·8·8·2·2 + 2·4·8·8·2 + 4·8·3 = 2048+1024+96;
	 * bytes 4·8·1 + 2·8·8·1·2 + 2·8·8·1 + 4·8·2 = 32+256+128+64 */
	run("aiter::fmoe_fp8_blockscale_g1u1", "[[4,8],[4,8],[2,16,8],[2,8,8]]",
	    "[" BF "," F8 "," F8 "," F8 "]", "",
	    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"2\"]", 0, NULL);
	metrics("moe blockscale", 3168, 480, "matrix_fp8");
	tap_str(param("output_dtype"), "c10::BFloat16", "moe blockscale output_dtype");
	tap_ok(run("aiter::fmoe_g1u1", "[[4,8],[4,8],[2,16,8],[2,8,8]]", "[" BF "," BF "," BF "," BF "]",
		   "", "[\"\",\"\"]", 0, NULL) == PM_FAIL, "moe blockscale without topk fails");
	/* cktile up: M=4 K=8 E=4 topk=2 N=16 gated; E_active = 4·(1 − 1/16) = 3.75;
	 * flops 2·4·8·16·2·2; bytes 4·8·2 + 3.75·2·8·16·2 + 4·16·2·2 = 64+1920+256 */
	run("aiter::moe_cktile2stages_gemm1_ck", "[[4,8],[4,32,8],[4,2,16]]", "[" BF "," BF "," BF "]",
	    "", "", 0, NULL);
	metrics("moe cktile up", 4096, 2240, "matrix_bf16");
	/* ck stage1, same shapes through w2 [4,8,16] and topk ids D6 */
	run("aiter::ck_moe_stage1", "[[4,8],[4,32,8],[4,8,16],[],[],[],[4,2]]", "[" BF "," BF "," BF "]",
	    "", "", 0, NULL);
	metrics("moe ck stage1", 4096, 2240, "matrix_bf16");
	tap_str(param("output_dtype"), "(absent)", "moe ck stage1 has no output_dtype");
	/* down: flops 2·4·16·8·2 = 2048; bytes 4·16·2·2 + 3.75·16·8·2 + 4·8·2 = 256+960+64 */
	run("aiter::moe_cktile2stages_gemm2_ck", "[[4,2,16],[4,8,16],[4,8]]", "[" BF "," BF "," BF "]",
	    "", "", 0, NULL);
	metrics("moe cktile down", 2048, 1280, "matrix_bf16");
	tap_str(param("gated"), "(absent)", "moe cktile down has no gated");
	run("aiter::ck_moe_stage2", "[[4,2,16],[],[4,8,16]]", "[" BF ",\"\"," BF "]", "", "", 0, NULL);
	metrics("moe ck stage2, no w1", 2048, 1280, "matrix_bf16");
	/* packed: inter 8 · (hidden 8 // w1[-1] 4) = 16; fp4 weights from T2:
	 * bytes 4·16·2·2 + 3.75·16·8·0.5 + 4·8·2 = 256+240+64 */
	run("aiter::ck_moe_stage2", "[[4,2,8],[4,32,4],[4,8,8]]", "[" BF ",\"\",\"c10::Float4_e2m1fn_x2\"]",
	    "", "", 0, NULL);
	metrics("moe ck stage2 packed", 2048, 560, "matrix_bf16");
	tap_str(param("inter_dim"), "16", "moe ck stage2 inter_dim unpacked");
	tap_str(param("weight_dtype"), "c10::Float4_e2m1fn_x2", "moe ck stage2 weight dtype from T2");
	/* flydsl stage2, fused layout, E=2 → E_active 2:
	 * bytes 4·16·2·2 + 2·16·8·2 + 4·8·2 = 256+512+64 */
	run("pseudo_op::moe_flydsl_stage2", "[[4,8],[2,32,8],[2,8,16],[4,2]]", "[" BF "," BF "," BF "]",
	    "", "", 0, NULL);
	metrics("moe flydsl stage2", 2048, 832, "matrix_bf16");
	tap_str(param("gated"), "True", "moe flydsl stage2 keeps gated");
	/* flydsl stage1 on the fused case above: up only, roofline on fp4
	 * weights; bytes 2·8·2 + 3·2·8·16·0.5 + 2·16·2·2 = 32+384+128 */
	run("pseudo_op::moe_flydsl_stage1", "[[2,8],[4,32,4],[4,8,8],[2,2]]",
	    "[" BF ",\"c10::Float4_e2m1fn_x2\"]", "", "", 0, NULL);
	metrics("moe flydsl stage1", 2048, 544, "matrix_fp4");
	tap_ok(run("aiter::moe_cktile2stages_gemm1_ck", "[[4,8,1],[4,32,8],[4,2,16]]", "[" BF "," BF "," BF "]",
		   "", "", 0, NULL) == PM_FAIL, "moe cktile up with a 3-D input fails to unpack");
	/* triton invoke: E=4 N=32 K=16, tokens 8 topk 2 → m_work 16;
	 * E_active = 4·(1 − (1/2)^8) = 3.984375; flops 2·16·32·16 = 16384;
	 * fp8 weights: bytes 16·16·2 + 3.984375·32·16·1 + 16·32·2 = 512+2040+1024;
	 * precision from the weights */
	run("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
	    "[[8,16],[4,32,16],[8,2,32],[],[],[],[],[],[8,2]]", "[" BF "," F8 "," BF "]", "", "", 0, NULL);
	metrics("moe triton invoke", 16384, 3576, "matrix_fp8");
	tap_str(param("m_work"), "16", "moe triton invoke m_work");
	tap_str(param("output_dtype"), "c10::BFloat16", "moe triton invoke output dtype falls back to T0");
	tap_ok(run("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel", "[[8,16],[4,32,16]]",
		   "[]", "", "", 0, NULL) == PM_FAIL, "moe triton invoke with < 9 dims fails");
	tap_ok(run("pseudo_op::moe_triton_unfused_up", "[[8,16],[4,32,16]]", "[" BF "]", "", "", 0, NULL) ==
	       PM_FAIL, "moe triton unfused without the injected MoE topk fails (KeyError)");
	tap_ok(run("pseudo_op::moe_aiter_fused_1stage", "[[2,8],[4,32,4],[4,8,8],[2,2]]", "[]", "", "", 1,
		   NULL) == PM_NOTIMPL, "moe backward raises NotImplementedError");
	tap_ok(run("pseudo_op::moe_aiter_fused_1stage", "[[2,8],[4,32,0],[4,8,8],[2,2]]", "[]", "", "", 0,
		   NULL) == PM_FAIL, "moe packed dim 0: hidden // 0 fails");
}

static void test_grouped_gemm(void)
{
	/* compact [[M,K],[G,K,N]]: 2·64·32·16 = 65536;
	 * (64·32 + 4·32·16)·2 + 64·16·2 = 8192 + 2048 */
	run("primus_turbo::grouped_gemm", "[[64,32],[4,32,16]]", "[" BF "," BF "]", "", "", 0, NULL);
	metrics("grouped gemm compact", 65536, 10240, "matrix_bf16");
	tap_str(param("G"), "4", "grouped gemm G");
	run("primus_turbo::grouped_gemm", "[[64,32],[4,16,32]]", "[" BF "," BF "]", "", "", 0, NULL);
	metrics("grouped gemm compact [G,N,K]", 65536, 10240, "matrix_bf16");
	tap_str(param("N"), "16", "grouped gemm N is the dim that is not K");
	/* zipped, 2 groups of 16 and 48 rows, fp32: M = 64, G = 2;
	 * (64·32 + 2·32·16)·4 + 64·16·4 = 12288 + 4096 */
	run("primus_turbo::grouped_gemm_impl", "[[[16,32],[48,32]],[[32,16],[32,16]]]", "[\"float\",\"float\"]",
	    "", "", 0, NULL);
	metrics("grouped gemm zipped", 65536, 16384, "matrix_fp32");
	tap_str(param("M"), "64", "grouped gemm zipped M = sum of rows");
	tap_str(param("G"), "2", "grouped gemm zipped G = groups");
	tap_ok(run("primus_turbo::grouped_gemm", "[[[16,32],[48,8]],[[32,16],[8,16]]]", "[\"float\"]", "", "", 0,
		   NULL) == PM_FAIL, "grouped gemm zipped with varying K fails");
	tap_ok(run("primus_turbo::grouped_gemm", "[[64,32],[4,32,16]]", "[" BF "]", "", "", 1, NULL) == PM_NOTIMPL,
	       "grouped gemm backward raises NotImplementedError");
	/* variable K, compact [[M,K],[M,N]] = one group ((64,32),(32,16)):
	 * 2·64·32·16; (64·32 + 32·16)·2 + 64·16·2 = 5120 + 2048 */
	run("primus_turbo::grouped_gemm_variable_k", "[[64,32],[64,16]]", "[" BF "," BF "]", "", "", 0, NULL);
	metrics("grouped gemm variable K compact", 65536, 7168, "matrix_bf16");
	tap_str(param("group_pairs"), "[((64, 32), (32, 16))]", "variable K compact group_pairs");
	/* zipped ((8,16),(16,8)), ((4,32),(32,8)), fp32:
	 * flops 2·8·16·8 + 2·4·32·8 = 2048 + 2048;
	 * bytes (128 + 128)·4 + 64·4 + (128 + 256)·4 + 32·4 = 1280 + 1664 */
	run("primus_turbo::grouped_gemm_variable_k_impl", "[[[8,16],[4,32]],[[16,8],[32,8]]]",
	    "[\"float\",\"float\"]", "", "", 0, NULL);
	metrics("grouped gemm variable K zipped", 4096, 2944, "matrix_fp32");
	tap_str(param("M"), "12", "variable K M = sum of rows");
	tap_str(param("K"), "16", "variable K K = first group's");
	tap_str(param("group_pairs"), "[((8, 16), (16, 8)), ((4, 32), (32, 8))]", "variable K group_pairs");
	tap_ok(run("primus_turbo::grouped_gemm_variable_k", "[[[8,16]],[[8,8]]]", "[\"float\"]", "", "", 0,
		   NULL) == PM_FAIL, "variable K with a[1] != b[0] fails");
}

static void test_ssd(void)
{
	/* Mamba-2: B=2 T=8, H=2 P=4 G=1 chunk C=16; combined 24 = 2·2·4 + 2
	 * + 2·1·N → N = 3; conv 30 channels × 4 taps.
	 * flops 2·2·30·8·4 + 2·2·1·8·16·3 + 2·2·2·8·16·4 + 4·2·2·8·3·4
	 *     = 3840 + 1536 + 4096 + 1536;
	 * bytes 2·8·24·2 + 30·4·2 + 30·2 + 2·(4 + 4 + 2) + 2·8·2·4·2
	 *     = 768 + 240 + 60 + 20 + 256 */
	const char *conc = "[\"\",\"\",\"\",\"\",\"\",\"\",\"16\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"4\",\"1\"]";
	const char *dims = "[[2,8,24],[30,4],[],[2]]";
	const char *types = "[" BF "," BF ",\"\",\"float\",\"float\"," BF "]";

	run("MambaSplitConv1dScanCombinedFn", dims, types, "", conc, 0, NULL);
	metrics("mamba ssd", 11008, 1344, "matrix_bf16");
	tap_str(param("N"), "3", "mamba ssd state size N");
	tap_str(param("d_inner"), "8", "mamba ssd d_inner = H·P");
	tap_str(r.param[r.nparam - 1].key, "combined_dim", "mamba ssd params end with combined_dim");
	run("MambaSplitConv1dScanCombinedFn", dims, types, "", conc, 1, NULL);
	metrics("mamba ssd backward = forward", 11008, 1344, "matrix_bf16");
	tap_ok(run("MambaSplitConv1dScanCombinedFn", "[[2,8,25],[30,4],[],[2]]", types, "", conc, 0, NULL) ==
	       PM_FAIL, "mamba ssd with a non-integer N fails");
	/* defaults C=128 P=64 G=1 leave 24 − 2·2·64 − 2 < 0: no state size */
	tap_ok(run("MambaSplitConv1dScanCombinedFn", dims, types, "", "[]", 0, NULL) == PM_FAIL,
	       "mamba ssd with default P and a small combined dim fails");
}

static void test_convbias(void)
{
	/* apex ConvBias_: x (1,2,5,5), w (4,2,3,3), stride 1, padding 1 →
	 * out (1,4,5,5); flops 2·18·100 + 100 (bias); bytes (50 + 72 + 4 + 100)·2 */
	run("ConvBias_", "[[1,2,5,5],[4,2,3,3],[4]]", "[" BF "," BF "," BF "]", "",
	    "[\"\",\"\",\"\",\"1\",\"1\"]", 0, NULL);
	metrics("ConvBias_", 3700, 452, "matrix_bf16");
	tap_str(param("bias"), "True", "ConvBias_ always has a bias");
	tap_str(param("padding"), "(1, 1)", "ConvBias_ padding int(C[4]) per dim");
	tap_str(param("groups"), "1", "ConvBias_ groups 1");
	/* stride 2, no padding: out (1,4,2,2); 2·18·16 + 16; (50 + 72 + 4 + 16)·2 */
	run("ConvBiasReLU_", "[[1,2,5,5],[4,2,3,3],[4]]", "[" BF "," BF "," BF "]", "",
	    "[\"\",\"\",\"\",\"2\",\"0\"]", 0, NULL);
	metrics("ConvBiasReLU_ stride 2", 592, 284, "matrix_bf16");
	tap_ok(run("ConvBias_", "[[1,2,5,5],[4,2,3,3],[4]]", "[" BF "," BF "," BF "]", "",
		   "[\"\",\"\",\"\",\"[1, 1]\",\"1\"]", 0, NULL) == PM_FAIL, "ConvBias_ stride must be an int");
	tap_ok(run("ConvBias_Backward", "[[1,4,5,5]]", "[" BF "]", "", "[]", 0, NULL) == PM_NOMODEL,
	       "ConvBias_Backward needs the forward's Sequence number: no model");
}

static void test_gquant(void)
{
	const char *name = "vllm::triton_per_token_group_quant_fp8";

	/* x (4, 300) bf16, groups of 128 → ceil(300/128) = 3 per row;
	 * flops 6·4·300; bytes 1200·2 + 1200·1 (fp8) + 4·3·4 (fp32 scales) */
	run(name, "[[4,300],[]]", "[" BF ",\"Scalar\"]", "", "[\"\",\"128\"]", 0, NULL);
	metrics("per-token group quant", 7200, 3648, "vector_bf16");
	tap_str(param("num_groups"), "3", "group quant num_groups");
	tap_str(param("dtype_in1_in2_out"), "('c10::BFloat16', None, 'c10::float8_e4m3fn')",
		"group quant dtype_in1_in2_out");
	tap_str(param("shape_in2"), "()", "group quant shape_in2");
	/* 1-D x: M = 1; default group 128 → 2 groups; 256·2 + 256 + 2·4 */
	run(name, "[[256]]", "[" BF "]", "", "[]", 0, NULL);
	metrics("per-token group quant 1-D, default group", 1536, 776, "vector_bf16");
	tap_ok(run(name, "[[4,300]]", "[" BF "]", "", "[\"\",\"abc\"]", 0, NULL) == PM_FAIL,
	       "group quant with a bad group size fails");
	tap_ok(run(name, "[[4,300]]", "[" BF "]", "", "[\"\",\"0\"]", 0, NULL) == PM_FAIL,
	       "group quant with group size 0 fails");
}

static void test_failures(void)
{
	const char *d;

	tap_ok(run("aten::linear", "[]", "[]", "[]", "[]", 0, NULL) == PM_NOMODEL, "no row: no model");
	tap_ok(run("aten::cudnn_convolution", "[]", "[]", "[]", "[]", 0, NULL) == PM_NOMODEL,
	       "category-only row: no model");
	tap_ok(run("aten::mm", "[[4,4],[4,4]", "[]", "[]", "[]", 0, NULL) == PM_FAIL,
	       "malformed JSON fails");
	tap_ok(r.nparam == 0, "a failed model has no params");
	run("aten::mm", "[[2,3],[3,4]]", "[\"float\",\"float\"]", "[[3,1],[4,1]]", "[\"\",\"\"]", 0, NULL);
	d = pm_params_dict(&r);
	tap_str(d, "{'M': 2, 'N': 4, 'K': 3, 'bias': False, 'stride_A': (3, 1), 'stride_B': (4, 1), "
		"'dtype_A_B': ('float', 'float'), 'B': 1}", "perf_params dict repr");
	/* interned: the same text is the same pointer */
	tap_ok(pm_params_dict(&r) == d, "perf_params dict interned");
}

int main(int argc, char **argv)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/share/tl/dtypes.tsv", argc > 1 ? argv[1] : ".");
	perf_dtype_init(path);
	snprintf(path, sizeof(path), "%s/share/tl/ops.tsv", argc > 1 ? argv[1] : ".");
	db = perf_ops_load(path);
	test_dtype();
	test_gemm();
	test_conv();
	test_sdpa();
	test_elementwise();
	test_reduce_norm();
	test_expr();
	test_moe();
	test_grouped_gemm();
	test_ssd();
	test_convbias();
	test_gquant();
	test_failures();
	pm_result_release(&r);
	perf_ops_free(db);
	perf_model_free_texts();
	return tap_done();
}
