/*
 * perf_model_memo: perf_model_compute's answers, remembered by what they
 * were computed from.  A training trace repeats the same ops with the same
 * shapes every iteration, and tl-perf asks for each op's model up to three
 * times (its sheet, unified_perf_summary, the has-a-model test), so most
 * calls repeat one already made.
 *
 * The key is the model row and the pointers of the argument texts and
 * kernel names, so the caller promises that each pointer names one text
 * until perf_model_memo_free: tl-perf's come from the node tree's string
 * pool (interned: equal pointers are equal texts; equal texts behind
 * different pointers only miss the memo).  perf_tree_free calls
 * perf_model_memo_free, since the tree's texts go with it.  Callers with
 * texts in reused buffers (the unit tests, pm-eval) call
 * perf_model_compute itself.
 *
 *	perf_model_memo_compute(e, &a, kernels, nkernels, bwd, &r);   as
 *	perf_model_compute; r is the caller's, as there
 */
#ifndef TL_PERF_MODEL_MEMO_H
#define TL_PERF_MODEL_MEMO_H

#include <stddef.h>

#include "perf_model.h"

void perf_model_memo_compute(const struct perf_ops_entry *e, const struct pm_args *a,
			     const char *const *kernels, size_t nkernels, int bwd,
			     struct pm_result *r);
void perf_model_memo_free(void);

#endif
