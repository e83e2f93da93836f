/*
 * Unit tests for common/opdb: the op table share/tl/ops.tsv, lookups and
 * TraceLens's categorize_torch_op.  argv[1] is the source tree.
 * Expectations come from the TraceLens tables in the spec (perf_model
 * §1.2/§1.3, core §4.3), counted there independently of ops.tsv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_ops.h"
#include "tap.h"

static const struct perf_ops *db;

static void cat(const char *op, const char *kernel, const char *want)
{
	char what[256];

	snprintf(what, sizeof(what), "category of %s is %s", op, want);
	tap_str(perf_ops_categorize(db, op, kernel), want, what);
}

static void kind(const char *op, const char *want_kind, const char *want_sheet)
{
	const struct perf_ops_entry *e = perf_ops_lookup(db, op);
	char what[256];

	snprintf(what, sizeof(what), "%s is kind %s, sheet %s", op, want_kind, want_sheet);
	tap_ok(e && !strcmp(e->kind, want_kind) && !strcmp(e->sheet, want_sheet), what);
}

static void test_counts(void)
{
	size_t n = perf_ops_count(db), modeled = 0, none = 0, gemm_sheet = 0;

	for (size_t i = 0; i < n; i++) {
		const struct perf_ops_entry *e = perf_ops_at(db, i);
		if (!strcmp(e->kind, "none"))
			none++;
		else if (strcmp(e->kind, "triton"))
			modeled++;
		if (!strcmp(e->sheet, "GEMM"))
			gemm_sheet++;
	}
	/* 245 modeled names; 48 category-only, one of which is also modeled */
	tap_ok(modeled == 245, "245 modeled op names");
	tap_ok(none == 47, "47 category-only rows (48 names, 1 shared)");
	tap_ok(gemm_sheet == 43, "43 names in the GEMM sheet");
	tap_ok(perf_ops_at(db, n) == NULL, "perf_ops_at past the end is NULL");
}

static void test_lookup(void)
{
	const struct perf_ops_entry *e = perf_ops_lookup(db, "aten::addmm");
	size_t len;
	const char *v;

	tap_ok(e && !strcmp(e->category, "GEMM") && !strcmp(e->bwd_category, "-"),
	       "aten::addmm: GEMM, no bwd category");
	kind("aten::convolution", "conv", "CONV");
	kind("aten::_scaled_dot_product_flash_attention", "sdpa", "SDPA");
	kind("aten::layer_norm", "norm", "Normalization");
	kind("aten::mean", "reduce", "Reduce");
	kind("aten::copy_", "unary", "UnaryElementwise");
	kind("aten::add", "binary", "BinaryElementwise");
	kind("triton_poi_fused_add_0", "triton", "-");
	kind("triton_red_fused_sum_1", "triton", "-");
	kind("aten::cudnn_convolution", "none", "-");
	tap_ok(perf_ops_lookup(db, "aten::linear") == NULL, "aten::linear has no row");
	tap_ok(perf_ops_lookup(db, "triton_xyz") == NULL, "triton_xyz matches no prefix");
	e = perf_ops_lookup(db, "aten::convolution");
	v = e ? perf_ops_opt(e->options, "groups", &len) : NULL;
	tap_ok(v && len == 1 && *v == '8', "option groups=8 of aten::convolution");
	tap_ok(e && !perf_ops_opt(e->options, "group", &len), "option key is matched whole");
	tap_ok(!strcmp(perf_ops_lookup(db, "aten::convolution_backward")->bwd_category, "CONV_bwd"),
	       "convolution_backward bwd category");
}

static void test_categorize(void)
{
	/* core §4.3 examples (bert H100) */
	cat("aten::addmm", NULL, "GEMM");
	cat("aten::native_layer_norm", NULL, "NORM_fwd");
	cat("aten::add", NULL, "elementwise");
	cat("aten::gelu", "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>", "elementwise");
	cat("aten::all", "void at::native::reduce_kernel<512, 1>", "reduce");
	cat("aten::_foreach_add_", "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<>", "multi_tensor_apply");
	cat("aten::gelu", "ampere_sgemm", "other");
	cat("aten::index_select", NULL, "other");
	cat("aten::_flash_attention_forward", "flash_fwd_kernel", "other");
	/* category-only rows, and their override of a modeled name */
	cat("aten::miopen_convolution", NULL, "CONV_fwd");
	cat("aten::_scaled_dot_product_flash_attention_backward", NULL, "SDPA_bwd");
	cat("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", NULL, "MoE_aux");
	cat("triton_poi_fused_add_0", NULL, "triton");
	cat("tritonfoo", NULL, "triton");
	cat("record_param_comms", "ncclKernel", "record_param_comms");
	cat("aten::mean", "void at::native::elementwise_kernel", "reduce");
	cat("aten::_scaled_mm", NULL, "GEMM");
	cat("aten::convolution_backward", NULL, "CONV_bwd");
	cat("flash_attn::_flash_attn_backward", NULL, "SDPA_bwd");
	cat("aten::silu", NULL, "elementwise");
	cat("aten::native_group_norm_backward", NULL, "NORM_bwd");
}

/* perf_ops_load dies on bad tables: run it in a child and look at the status */
static void load_table(const char *text, int want, const char *what)
{
	char path[] = "/tmp/tl-opdb-XXXXXX";
	int fd = mkstemp(path), st = 0;
	pid_t pid;

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		abort();
	close(fd);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		perf_ops_free(perf_ops_load(path));
		_exit(0);
	}
	waitpid(pid, &st, 0);
	unlink(path);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == want, what);
}

static void test_bad(void)
{
	load_table("aten::mm\tgemm\tGEMM\t-\tGEMM\n", 1, "5 fields is an error");
	load_table("aten::mm\tgemm\tGEMM\t-\tGEMM\t-\textra\n", 1, "7 fields is an error");
	load_table("aten::mm\tgemmm\tGEMM\t-\tGEMM\t-\n", 1, "unknown kind is an error");
	load_table("aten::mm\tgemm\t\t-\tGEMM\t-\n", 1, "empty field is an error");
	load_table("a\tnone\tx\t-\t-\t-\na\tnone\ty\t-\t-\t-\n", 1, "duplicate name is an error");
	load_table("# c\n\nx\tnone\tc\t-\t-\t-", 0, "comments, blank lines, no final newline load");
}

int main(int argc, char **argv)
{
	char path[4096];
	struct perf_ops *d;

	snprintf(path, sizeof(path), "%s/share/tl/ops.tsv", argc > 1 ? argv[1] : ".");
	d = perf_ops_load(path);
	db = d;
	test_counts();
	test_lookup();
	test_categorize();
	test_bad();
	perf_ops_free(d);
	return tap_done();
}
