/*
 * infer_steady: the steady state of a serving trace, as TraceLens's
 * TraceUtils/split_inference/steady_state_window.py finds it from the
 * request counts of its iterations (common/infer_annot.h): the regions
 * where the number of requests stays near its peak, and in the largest one
 * the window of iterations that best represents the prefill/decode mix,
 * the longest decode-only run, or the longest run with prefill.
 *
 *	struct infer_region *r; size_t nr = infer_steady_regions(steps, n, 32, &r);
 *	struct infer_window_opts o = { 32, -1, NAN, NAN };
 *	if (infer_steady_window(steps, n, r, nr, INFER_MIXED, &o, &s, &e)) ... steps[s..e)
 *	infer_phase(steps + s, e - s, &ph);
 *
 * Messages about what was found go to stderr when verbose is set.
 */
#ifndef TL_INFER_STEADY_H
#define TL_INFER_STEADY_H

#include <stddef.h>
#include <stdint.h>

/* One iteration: IterationAnnotation.iter_details() */
struct infer_step {
	int64_t batch_size, num_requests, context_requests, context_sum;
	int64_t generation_requests, generation_sum;
};

struct infer_region {
	size_t start, end;	/* steps [start, end) */
};

/* find_phase_from_window */
struct infer_phase {
	int64_t num_prefill, num_prefilldecode, num_decode, avg_bs, avg_conc;
};

enum infer_mode { INFER_MIXED, INFER_DECODE_ONLY, INFER_MAX_PREFILLDECODE };

struct infer_window_opts {
	long num_steps;
	long conc;		/* --CONC, -1 for none */
	double osl, r;		/* --OSL, --R, NaN for none */
	int verbose;
};

/* identify_steady_state_regions; n must be > 0.  The caller frees *out. */
size_t infer_steady_regions(const struct infer_step *d, size_t n, long num_steps,
			    struct infer_region **out, int verbose);
/* find_steady_state_window: 1 with the window in [*s, *e), 0 when the mode
 * finds no run (an empty window) */
int infer_steady_window(const struct infer_step *d, size_t n, const struct infer_region *r,
			size_t nr, enum infer_mode mode, const struct infer_window_opts *o,
			size_t *s, size_t *e);
void infer_phase(const struct infer_step *d, size_t n, struct infer_phase *p);

#endif
