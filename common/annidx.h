/*
 * annidx: TraceLens's apply_annotation (spec core §2.8) over a node set:
 * the annotation of an event is the name of the first (by ts, then file
 * order) event whose cat contains "user_annotation" (gpu_user_annotation
 * too) with ann.ts <= e.ts and e.ts + e.dur < ann.ts + ann.dur, else "NA".
 * Built once in O(n log n); each lookup is O(log n).
 *
 *	struct annidx *ax = annidx_new(ns);
 *	if (annidx_applies(name)) label = annidx_lookup(ax, &ns->node[uid]);
 *	annidx_free(ax);
 */
#ifndef TL_ANNIDX_H
#define TL_ANNIDX_H

#include "nodeset.h"

struct annidx;

struct annidx *annidx_new(const struct nodeset *ns);
void annidx_free(struct annidx *ax);
/* 1 for the ops the standard report annotates (names starting with
 * "vllm::unified_attention_with_output", GPR:457-459) */
int annidx_applies(const char *name);
/* the enclosing annotation's name, or "NA" */
const char *annidx_lookup(const struct annidx *ax, const struct node *e);

#endif
