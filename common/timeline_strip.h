/*
 * timeline_strip: the GPU timeline drawn against wall time, downsampled to
 * a fixed number of bins (pixels), so that a trace of any size gives a
 * small sheet (timeline_strip.csv, written by tl-timeline --strip; read by
 * tl-html for its timeline strip).  One row per bin in which a group of
 * GPU events (one stream, or all streams of a GPU) was busy:
 *
 *	gpu,stream,bin,start_us,end_us,computation_us,exposed_comm_us,exposed_memcpy_us
 *
 * start_us/end_us are the bin's edges from the span's start (the first
 * counted GPU event of the trace); the three times are the parts of the
 * bin covered by computation, by communication not overlapped by
 * computation, and by memcpy overlapped by neither (the rules of the GPU
 * timeline breakdown, timeline.h, applied inside the group), so they
 * never add up to more than the bin.  Bins with nothing are not written.
 *
 *	timeline_strip_header(ob);
 *	struct timeline_strip *ts = timeline_strip_new(ob, t0, t1, bins);
 *	for each group:
 *		timeline_strip_add(ts, start, end, cls);   each event, any order
 *		timeline_strip_write(ts, gpu, stream);   its rows; the group is emptied
 *	timeline_strip_free(ts);
 *
 * Cost: O(n log n) in the group's events plus the bins its busy
 * intervals touch; memory: the events of one group and 3 × bins doubles.
 */
#ifndef TL_TIMELINE_STRIP_H
#define TL_TIMELINE_STRIP_H

#include <stddef.h>

#include "outbuf.h"

#define TIMELINE_STRIP_BINS 1000
#define TIMELINE_STRIP_MAXBINS 100000

struct timeline_strip;

struct timeline_strip *timeline_strip_new(struct outbuf *ob, double t0, double t1, int bins);
void timeline_strip_header(struct outbuf *ob);
/* cls: GPU_COMPUTATION, GPU_COMMUNICATION or GPU_MEMCPY (timeline.h) */
void timeline_strip_add(struct timeline_strip *ts, double start, double end, int cls);
void timeline_strip_write(struct timeline_strip *ts, const char *gpu, const char *stream);
void timeline_strip_free(struct timeline_strip *ts);

#endif
