/*
 * perf_model: TraceLens's performance models — parameters, FLOPs and bytes
 * of one op from its profiler arguments.  Which model an op gets, and with
 * which argument positions, is data (share/tl/ops.tsv, common/perf_ops.h); the
 * model kinds (gemm, conv, sdpa, unary, binary, reduce, norm, expr, ...)
 * are implemented here once each.
 *
 *	struct pm_args a = { dims, types, strides, concrete };   tl-events columns
 *	struct pm_result r;
 *	perf_model_compute(perf_ops_lookup(db, name), &a, kernels, nkernels, bwd, &r);
 *	if (r.status == PM_OK) {
 *		r.flops, r.bytes (r.has_bytes), r.spec ("matrix_bf16" or ""),
 *		r.param[i].key / pm_param_str(&r.param[i]) ...
 *	}
 *	pm_result_release(&r);
 *
 * The args are the compact JSON texts of "Input Dims", "Input type",
 * "Input Strides" and "Concrete Inputs" (tl-stream(5) columns dims, types,
 * strides, concrete); NULL or "" for absent.  kernels are the names of the
 * op's GPU events in ts order (GEMM reads transpose flags from them).
 */
#ifndef TL_PERF_MODEL_H
#define TL_PERF_MODEL_H

#include <stddef.h>

#include "perf_ops.h"

struct pm_args {
	const char *dims, *types, *strides, *concrete;
	/* the event's TraceLens "annotation" (the enclosing user_annotation's
	 * name, or "NA"); NULL: the event has none (infer_attn reads it) */
	const char *annotation;
	/* the op's own name, where the row matched a prefix (triton_poi_*);
	 * NULL: the ops.tsv name */
	const char *opname;
	/* the rest of the op's args (compact JSON object, tl-stream(5) column
	 * args), where a model reads one: pseudo ops' "MoE topk"; NULL: none */
	const char *args;
};

enum pm_status {
	PM_OK = 0,
	PM_NOMODEL,	/* no row, kind none, or a kind/variant tl does not
			 * implement yet (why says "not implemented in tl") */
	PM_NOTIMPL,	/* TraceLens raises NotImplementedError: row dropped
			 * from sheets and from unified_perf_summary */
	PM_FAIL		/* any other TraceLens exception (bad shapes, causal
			 * with N_Q != N_KV, ...): row dropped from sheets, kept
			 * in unified_perf_summary with kernel time only */
};

/* How a param value prints; pandas turns int columns with gaps into
 * floats, so sheet writers need to know which values are ints. */
enum pm_vkind { PV_NONE, PV_INT, PV_FLOAT, PV_BOOL, PV_STR, PV_OBJ };

/* The texts are interned (one copy of each for the whole program: rows
 * repeat the same keys and shapes), so a result holds only pointers. */
struct pm_param {
	const char *key;
	enum pm_vkind kind;
	const char *repr;	/* Python repr(); "None" for PV_NONE */
	const char *str;	/* str() as pandas writes the cell: strings
				 * bare, None as "", else == repr */
};

struct pm_result {
	enum pm_status status;
	char *why;		/* for PM_FAIL/PM_NOTIMPL/PM_NOMODEL, or NULL */
	double flops;
	double bytes;
	int has_bytes;		/* 0: TraceLens bytes None (unknown dtype) */
	char spec[32];		/* Compute Spec "matrix_bf16", or "" */
	struct pm_param *param;
	size_t nparam, aparam;
};

/*
 * Fills *r (which need not be initialised).  e may be NULL (no model).
 * bwd selects TraceLens's flops_bwd()/bytes_bwd() (the *_bwd sheets and
 * sole-backward rows of unified_perf_summary).
 */
void perf_model_compute(const struct perf_ops_entry *e, const struct pm_args *a,
		       const char *const *kernels, size_t nkernels, int bwd,
		       struct pm_result *r);
void pm_result_release(struct pm_result *r);
/* s interned with the param texts (stable until perf_model_free_texts) */
const char *pm_text(const char *s);
/* Frees the interned param texts; no result may be used afterwards. */
void perf_model_free_texts(void);

/* The perf_params cell of unified_perf_summary, "{'M': 141, 'bias': True}";
 * "None" when the result has no params.  Remembered by its params' key and
 * repr pointers, which must be pm_text's (perf_model_compute's are). */
const char *pm_params_dict(const struct pm_result *r);	/* interned */

#endif
