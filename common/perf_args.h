/*
 * perf_args: the parsed profiler arguments of one op and the little toolkit
 * every perf-model kind (common/perf_kind.c) is written with.  Internal to
 * perf_model; other code uses common/perf_model.h.
 *
 * Errors are sticky: an accessor asked for an argument the op does not
 * have (Python would raise IndexError/ValueError) records the failure in
 * the context and returns a harmless value, so a kind reads its inputs
 * straight through and perf_model checks pm_failed() once at the end.
 */
#ifndef TL_PERF_ARGS_H
#define TL_PERF_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "perf_model.h"

/* One element of "Input Dims" or "Input Strides". */
struct pm_val {
	int flat;		/* a (possibly empty) list of integers */
	int n;			/* its length */
	int64_t *v;
	char *repr;		/* Python repr with lists as tuples: "(1, 2)" */
};

struct json_value;

struct pm_in {
	struct json_value *args;	/* pm_args.args parsed, or NULL */
	struct pm_val *dims, *strides;
	int ndims, nstrides;
	int has_strides;	/* "Input Strides" present at all */
	char **types, **conc;	/* NULL entries: JSON null / not a string */
	int ntypes, nconc;
};

struct pm_ctx {
	struct pm_in in;
	const char *opts;	/* the ops.tsv options field */
	const char *name;	/* op name */
	const char *annotation;	/* pm_args.annotation */
	const char *const *kernels;
	size_t nkernels;
	int bwd;
	struct pm_result *r;
	enum pm_status err;	/* sticky PM_FAIL/PM_NOTIMPL, else PM_OK */
};

/* Parses the four JSON texts into c->in; 0 on success, -1 if malformed. */
int pm_parse(struct pm_ctx *c, const struct pm_args *a);
void pm_in_release(struct pm_in *in);

/* Records a failure (first one wins); returns 0 for use in expressions. */
int pm_fail(struct pm_ctx *c, enum pm_status st, const char *why);
int pm_failed(const struct pm_ctx *c);

/* Argument accessors; out of range → failure, empty / 0 / NULL returned. */
const struct pm_val *pm_D(struct pm_ctx *c, int i);
int64_t pm_Dj(struct pm_ctx *c, int i, int j);	/* j < 0 counts from the end */
double pm_N(struct pm_ctx *c, int i);			/* product, prod(()) = 1 */
const char *pm_T(struct pm_ctx *c, int i);
const char *pm_C(struct pm_ctx *c, int i);
/* repr of tuple(S[i]); "None" if the op has no "Input Strides" at all. */
const char *pm_S(struct pm_ctx *c, int i);
double pm_nel(const struct pm_val *v);
/* args[key] (the other args), or NULL when absent (KeyError). */
const struct json_value *pm_arg(struct pm_ctx *c, const char *key);

/* Options: integer (def if absent), string copy into buf (NULL if absent). */
long pm_opt_int(struct pm_ctx *c, const char *key, long def);
const char *pm_opt(struct pm_ctx *c, const char *key, char *buf, size_t size);

/* Params, in TraceLens's insertion order. */
void pm_p_int(struct pm_ctx *c, const char *key, int64_t v);
void pm_p_float(struct pm_ctx *c, const char *key, double v);
void pm_p_bool(struct pm_ctx *c, const char *key, int v);
void pm_p_str(struct pm_ctx *c, const char *key, const char *s);	/* NULL → None */
void pm_p_none(struct pm_ctx *c, const char *key);
void pm_p_obj(struct pm_ctx *c, const char *key, const char *repr);	/* takes a copy */
/* repr of a tuple of strings, NULL → None: "('c10::BFloat16', None)" */
char *pm_repr_strs(const char *const *s, int n);
/* repr of a tuple of ints: "(16, 16)", "(1,)" */
char *pm_repr_ints(const int64_t *v, int n);
/* Python repr of one string: 'abc' */
char *pm_repr_str(const char *s);

/* Results. */
void pm_set(struct pm_ctx *c, double flops, double bytes);	/* bytes < 0: None */
void pm_spec(struct pm_ctx *c, const char *maf, const char *precision);

/* The kinds (perf_kind.c); each fills c->r through the helpers above. */
void pmk_gemm(struct pm_ctx *c);
void pmk_grouped_gemm(struct pm_ctx *c);	/* perf_kind_ggemm.c */
void pmk_conv(struct pm_ctx *c);
void pmk_sdpa(struct pm_ctx *c);
void pmk_unary(struct pm_ctx *c);
void pmk_binary(struct pm_ctx *c);
void pmk_reduce(struct pm_ctx *c);
void pmk_norm(struct pm_ctx *c);
void pmk_operand_sum(struct pm_ctx *c);
void pmk_expr(struct pm_ctx *c);
void pmk_infer_attn(struct pm_ctx *c);	/* perf_kind_attn.c */
void pmk_triton(struct pm_ctx *c);	/* perf_kind_attn.c */
void pmk_moe(struct pm_ctx *c);		/* perf_kind_moe.c */
void pmk_ssd(struct pm_ctx *c);		/* perf_kind_ssd.c */
void pmk_gquant(struct pm_ctx *c);	/* perf_kind_quant.c */

#endif
