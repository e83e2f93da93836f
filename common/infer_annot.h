/*
 * infer_annot: the iteration and graph-capture annotations of inference
 * servers (vLLM, SGLang, ATOM, xDiT), parsed as TraceLens's
 * TraceUtils/annotation_utils.py parses them: which pattern a
 * user_annotation name matches, and the request and token counts it
 * carries.
 *
 *	struct infer_iter a;
 *	infer_iter_parse(&a, "execute_8192_context_9(sq8155sk...)_generation_37(...)");
 *	if (a.kind) ... a.batch_size, a.context_requests, ...
 *
 *	int tier = infer_iter_tier(name);   1 detailed pattern, 2 native, 0 none
 *	if (infer_capture_parse(name, &bs, mode, sizeof(mode))) ...
 *
 * Patterns match at the start of the name (Python's re.match).  Integers
 * are kept in int64_t (Python's are unbounded; larger values saturate).
 */
#ifndef TL_INFER_ANNOT_H
#define TL_INFER_ANNOT_H

#include <stddef.h>
#include <stdint.h>

struct infer_iter {
	const char *kind;	/* "vllm_detailed", ... or NULL when nothing matched */
	int64_t context_requests, generation_requests, context_sum, generation_sum;
	int64_t batch_size;
	int64_t c_sq, c_sk, c_sqsq, c_sqsk, g_sq, g_sk, g_sqsq, g_sqsk;
	int has_sqsk;
};

void infer_iter_parse(struct infer_iter *a, const char *name);
/* The priority tier of an iteration-root name: 1 for the detailed patterns
 * (ITERATION_PATTERNS), 2 for the native ones (ITERATION_BACKUP_PATTERNS),
 * 0 for neither. */
int infer_iter_tier(const char *name);
/* iter_details(): unmatched names count as one decode step. */
void infer_iter_details(const struct infer_iter *a, int64_t *batch_size, int64_t *num_requests,
			int64_t *context_requests, int64_t *context_sum,
			int64_t *generation_requests, int64_t *generation_sum);
/* capture_{batch_size}_{mode}: 1 and the fields, or 0. */
int infer_capture_parse(const char *name, int64_t *batch_size, char *mode, size_t modesize);
/* Python's int(s) for a string of ASCII digits (optional sign, surrounding
 * white space); 0 with *ok = 0 otherwise. */
int64_t infer_int(const char *s, size_t n, int *ok);

#endif
