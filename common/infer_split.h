/*
 * infer_split: what TraceLens's TraceLens_split_inference_trace needs of a
 * trace, held compactly (about 60 bytes an event), and its extraction of
 * iteration windows (TraceUtils/split_inference/trace_extraction.py,
 * execution_roots.py, Trace2Tree/inference_iteration_roots.py).
 *
 *	struct infer_trace *it = infer_trace_new(s);      the stream's columns
 *	for each row: infer_trace_add(it, s);             uids in order
 *	size_t n; const struct infer_root *r = infer_trace_roots(it, &n);
 *	if (!n) infer_trace_generic_roots(it, tree);      the call-tree fallback
 *	struct infer_extract x;
 *	infer_trace_extract(it, roots, nroots, &x);       x.uid: the events, in order
 *	infer_extract_release(&x);
 *	infer_trace_free(it);
 *
 * Numbers keep Python's int/float distinction where TraceLens prints them
 * (struct infer_num).  Correlation and flow ids, and batch sizes, must be
 * non-negative integers to be matched (CPython's set order is reproduced
 * for those only, common/py_set.h); other ids are left unmatched.
 */
#ifndef TL_INFER_SPLIT_H
#define TL_INFER_SPLIT_H

#include <stddef.h>
#include <stdint.h>

struct stream;
struct tree;

/* A Python number: its value and whether it is a float. */
struct infer_num {
	double v;
	int is_float;
};

/* An iteration root: an annotation event, or the generic fallback's
 * synthetic root (dict(first child) with the block's duration). */
struct infer_root {
	uint32_t uid;			/* the event (or the block's first child) */
	double ts, dur;			/* root.get("ts", 0), root.get("dur", 0) */
	uint32_t thread;		/* (tid, pid) as an id */
	const char *name;
};

struct infer_extract {
	uint32_t *uid;			/* traceEvents of the output, in order */
	size_t n, alloc;
	int64_t *batch;			/* list(set(batch_list)) */
	size_t nbatch;
	size_t num_gpu_events;
	struct infer_num gpu_dur, gpu_busy;
};

struct infer_trace;

struct infer_trace *infer_trace_new(const struct stream *s);
void infer_trace_free(struct infer_trace *it);
/* One row, uids increasing; -1 (nothing printed) on a bad uid. */
int infer_trace_add(struct infer_trace *it, const struct stream *s);
size_t infer_trace_count(const struct infer_trace *it);

/* find_iteration_roots' annotation tiers: user_annotation events matching
 * the detailed patterns, else the native ones, by ts (stable). */
const struct infer_root *infer_trace_roots(struct infer_trace *it, size_t *n);
/* find_iteration_roots_generic on the trace's tree (built with python
 * frames, tree_build()'t): the repeating children under the first node
 * that has them; returns the number of roots found (0: none). */
size_t infer_trace_generic_roots(struct infer_trace *it, const struct tree *t);
/* the roots the last of the two calls above found */
const struct infer_root *infer_trace_roots_found(const struct infer_trace *it);

void infer_trace_extract(const struct infer_trace *it, const struct infer_root *r, size_t n,
			 struct infer_extract *x);
void infer_extract_release(struct infer_extract *x);

#endif
