/*
 * perf_annidx: TraceLens's apply_annotation (spec core §2.8) over a node set:
 * the annotation of an event is the name of the first (by ts, then file
 * order) event whose cat contains "user_annotation" (gpu_user_annotation
 * too) with ann.ts <= e.ts and e.ts + e.dur < ann.ts + ann.dur, else "NA".
 * Built once in O(n log n); each lookup is O(log n).
 *
 *	struct perf_annidx *ax = perf_annidx_new(ns);
 *	if (perf_annidx_applies(name)) label = perf_annidx_lookup(ax, &ns->node[uid]);
 *	perf_annidx_free(ax);
 */
#ifndef TL_PERF_ANNIDX_H
#define TL_PERF_ANNIDX_H

#include "tree_nodes.h"

struct perf_annidx;

struct perf_annidx *perf_annidx_new(const struct tree_nodes *ns);
void perf_annidx_free(struct perf_annidx *ax);
/* 1 for the ops the standard report annotates (names starting with
 * "vllm::unified_attention_with_output", GPR:457-459) */
int perf_annidx_applies(const char *name);
/* the same for the inference report's longer list (GPRI:588-606):
 * vLLM, aiter, MLA and DeepSeek-V4 pseudo ops, SGLang attention */
int perf_annidx_applies_inference(const char *name);
/* the enclosing annotation's name, or "NA" */
const char *perf_annidx_lookup(const struct perf_annidx *ax, const struct node *e);

#endif
