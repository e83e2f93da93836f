/*
 * The ssd kind: TraceLens's MambaSSD model of the fused Mamba-2 block
 * MambaSplitConv1dScanCombinedFn (spec tracelens-perfmodel.md §3.9):
 * depthwise causal conv over the conv channels, then the chunked SSD scan.
 * The backward pass uses the forward formulas.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perf_dtype.h"
#include "perf_args.h"
#include "banned.h"

/* int(Concrete Inputs[i]), def when absent or empty */
static int64_t conc_int_def(struct pm_ctx *c, int i, int64_t def)
{
	const char *s = i < c->in.nconc ? c->in.conc[i] : NULL;
	char *end;
	long long v;

	if (!s || !*s)
		return def;
	v = strtoll(s, &end, 10);
	while (*end == ' ')
		end++;
	if (end == s || *end || v == LLONG_MAX || v == LLONG_MIN)
		pm_fail(c, PM_FAIL, "invalid literal for int()");
	return v;
}

/* bpe of Input type i, def when absent or unknown */
static double bpe_def(struct pm_ctx *c, int i, double def)
{
	double b = i < c->in.ntypes && c->in.types[i] ? perf_dtype_bpe(c->in.types[i]) : -1;

	return b > 0 ? b : def;
}

void pmk_ssd(struct pm_ctx *c)
{
	int64_t B = pm_Dj(c, 0, 0), T = pm_Dj(c, 0, 1), comb = pm_Dj(c, 0, 2);
	int64_t ch = pm_Dj(c, 1, 0), dc = pm_Dj(c, 1, 1), H = pm_Dj(c, 3, 0);
	int64_t C = conc_int_def(c, 6, 128), P = conc_int_def(c, 15, 64), G = conc_int_def(c, 16, 1);
	double num, b, f, y, N;

	if (pm_failed(c))
		return;
	/* combined = 2·H·P (x, z) + H (dt) + 2·G·N (B, C) */
	num = (double)comb - 2.0 * H * P - (double)H;
	if (!(fabs((double)H * P) < 9.2e18))
		return (void)pm_fail(c, PM_FAIL, "shape value out of range");
	if (G <= 0 || num <= 0 || fmod(num, 2.0 * G) != 0)
		return (void)pm_fail(c, PM_FAIL, "cannot derive the SSD state size N");
	N = num / (2.0 * G);
	b = bpe_def(c, 0, 2);
	pm_p_int(c, "B", B);
	pm_p_int(c, "T", T);
	pm_p_int(c, "H", H);
	pm_p_int(c, "P", P);
	pm_p_int(c, "G", G);
	pm_p_int(c, "N", (int64_t)N);
	pm_p_int(c, "C", C);
	pm_p_int(c, "d_inner", H * P);
	pm_p_int(c, "d_conv", dc);
	pm_p_int(c, "conv_channels", ch);
	pm_p_int(c, "combined_dim", comb);
	f = 2.0 * B * ch * T * dc + 2.0 * B * G * T * C * N + 2.0 * B * H * T * C * P + 4.0 * B * H * T * N * P;
	y = (double)B * T * comb * b + (double)ch * dc * b + (double)ch * b +
	    (double)H * (bpe_def(c, 3, 4) + bpe_def(c, 4, 4) + bpe_def(c, 5, b)) + (double)B * T * H * P * b;
	pm_set(c, f, y);
	pm_spec(c, "matrix", perf_dtype_precision(c->in.ntypes > 0 ? c->in.types[0] : NULL));
}
