/*
 * timeline: TraceLens's GPUEventAnalyser (tracelens-core §3): classify GPU
 * events, and from their intervals compute the GPU timeline breakdown.
 *
 *	int cls = gpu_classify(cat, name);          GPU_NONE: not a GPU event
 *	struct timeline t;  timeline_init(&t);
 *	timeline_add(&t, ts, ts + dur, cls);        for each counted event
 *	timeline_compute(&t, micro_us, &b);         0, or -1 if no events
 *	for (i = 0; i < b.n; i++) use b.type[i], b.us[i]
 *	timeline_reset(&t);                         next group, memory kept
 *	timeline_release(&t);
 *
 * Buckets: cat gpu_memcpy, and kernels named like ROCm's legacy copy
 * kernels (MEMORY_COPY_*, __amd_rocclr_copyBuffer*) are memcpy; kernels
 * named __amd_rocclr_fillBuffer* are computation; names containing nccl,
 * rccl or cross_device_reduce (any case) are communication; everything
 * else, every gpu_memset included, is computation.
 *
 * The rows come in TraceLens's dict order: computation_time,
 * exposed_comm_time, exposed_memcpy_time, busy_time, idle_time (or
 * micro_idle_time and macro_idle_time when micro_us >= 0), total_time,
 * total_comm_time, total_memcpy_time.  Values are µs; b.total is
 * total_time.  b.identity_ok is 0 when computation + exposed comm +
 * exposed memcpy + idle differs from total by 1e-6 µs or more (TraceLens
 * asserts it).
 */
#ifndef TL_TIMELINE_H
#define TL_TIMELINE_H

#include <stddef.h>

#include "timeline_interval.h"

enum { GPU_NONE = -1, GPU_COMPUTATION, GPU_COMMUNICATION, GPU_MEMCPY, GPU_NCLASS };

int gpu_classify(const char *cat, const char *name);

#define TIMELINE_MAXROWS 9

struct breakdown {
	int n;
	const char *type[TIMELINE_MAXROWS];
	double us[TIMELINE_MAXROWS];
	double total;
	int identity_ok;
};

struct timeline {
	struct ival *v[GPU_NCLASS + 1];	/* per class; [GPU_NCLASS] = all */
	size_t n[GPU_NCLASS + 1], alloc[GPU_NCLASS + 1];
	struct ival *tmp[2];
	size_t tmp_alloc[2];
};

void timeline_init(struct timeline *t);
void timeline_add(struct timeline *t, double ts, double t_end, int cls);
size_t timeline_count(const struct timeline *t);
/* micro_us < 0: one idle_time row; else micro/macro split at micro_us */
int timeline_compute(struct timeline *t, double micro_us, struct breakdown *b);
void timeline_reset(struct timeline *t);
void timeline_release(struct timeline *t);

#endif
