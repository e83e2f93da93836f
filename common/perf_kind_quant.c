/*
 * The gquant kind: TraceLens's vllm_triton_per_token_group_quant_fp8
 * (EXT/perf_model_extensions.py; spec tracelens-perfmodel.md §3.6):
 * x (M, N) read in its dtype, written as fp8, plus one fp32 scale per
 * group of group_size elements of a row.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perf_dtype.h"
#include "perf_args.h"
#include "xalloc.h"
#include "banned.h"

/* group_size: Concrete Inputs[1] through optional_int, default 128 */
static int64_t group_size(struct pm_ctx *c)
{
	const char *s = c->in.nconc > 1 ? c->in.conc[1] : NULL;
	char *end;
	long long v;

	while (s && *s == ' ')
		s++;
	if (!s || !*s || !strcasecmp(s, "none"))
		return 128;
	v = strtoll(s, &end, 10);
	while (*end == ' ')
		end++;
	if (end == s || *end || v == LLONG_MAX || v == LLONG_MIN)
		return pm_fail(c, PM_FAIL, "invalid literal for int()");
	return v;
}

/* Python's (N + g - 1) // g */
static int64_t ceil_groups(struct pm_ctx *c, int64_t N, int64_t g)
{
	double q;

	if (g == 0)
		return pm_fail(c, PM_FAIL, "integer division by zero");
	q = ((double)N + (double)g - 1) / (double)g;
	if (!(q > -9.2e18 && q < 9.2e18))
		return pm_fail(c, PM_FAIL, "shape value out of range");
	return (int64_t)floor(q);
}

void pmk_gquant(struct pm_ctx *c)
{
	const struct pm_val *x = c->in.ndims > 0 ? pm_D(c, 0) : NULL;
	const char *dt = c->in.ntypes > 0 ? c->in.types[0] : "";
	const char *trio[3];
	int64_t M = 1, N = 1, gs, ng;
	double b;
	char *rep;

	if (c->bwd)	/* no backward formulas */
		return (void)pm_fail(c, PM_FAIL, "no backward model");
	if (x && !x->flat)
		return (void)pm_fail(c, PM_FAIL, "Input Dims[0] is not a shape");
	if (x && x->n >= 2) {
		M = x->v[0];
		N = x->v[1];
	} else if (x && x->n == 1) {
		N = x->v[0];
	}
	gs = group_size(c);
	ng = ceil_groups(c, N, gs);
	if (pm_failed(c))
		return;
	if (ng < 1)
		ng = 1;
	pm_p_int(c, "M", M);
	pm_p_int(c, "N", N);
	pm_p_int(c, "group_size", gs);
	pm_p_int(c, "num_groups", ng);
	pm_p_obj(c, "shape_x", x ? x->repr : "()");
	pm_p_str(c, "dtype_x", dt);
	pm_p_obj(c, "shape_in1", x ? x->repr : "()");
	pm_p_obj(c, "shape_in2", "()");
	pm_p_obj(c, "shape_out", x ? x->repr : "()");
	trio[0] = dt;
	trio[1] = NULL;
	trio[2] = "c10::float8_e4m3fn";
	rep = pm_repr_strs(trio, 3);
	pm_p_obj(c, "dtype_in1_in2_out", rep);
	free(rep);
	pm_p_none(c, "stride_input1");
	pm_p_none(c, "stride_input2");
	pm_p_none(c, "stride_output");
	b = dt ? perf_dtype_bpe(dt) : -1;
	pm_set(c, 6.0 * M * N, b < 0 ? -1 : (double)M * N * b + (double)M * N + (double)M * ng * 4);
	pm_spec(c, "vector", perf_dtype_precision(dt));
}
