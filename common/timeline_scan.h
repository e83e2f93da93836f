/*
 * timeline_scan: tl-timeline's work.  Reads one tl-events or tl-nodes stream,
 * keeps only what the GPU timeline needs (one small record per GPU event,
 * plus the link facts of tree_gpulink.h for an event stream), and writes the
 * breakdown of timeline.h per source, and per GPU or stream if asked.
 *
 *	struct timeline_scan_opts o = { .micro_us = -1 };
 *	rval = timeline_scan_run(path, &o, ob);        0 ok, 1 bad input
 *
 * Linked GPU events: with a node stream, those whose "tree" column is 1;
 * with an event stream, those tree_gpulink finds.  Both agree on every trace
 * (tl-tree computes "tree" by the same rules).  Output formats are
 * described in tl-timeline(1).
 */
#ifndef TL_TIMELINE_SCAN_H
#define TL_TIMELINE_SCAN_H

#include "outbuf.h"

struct timeline_scan_opts {
	double micro_us;	/* < 0: no micro/macro idle split */
	int per_gpu, per_stream, all_gpu, csv, verbose;
	const char *strip;	/* also write timeline_strip.h's sheet here */
	int strip_bins;
};

int timeline_scan_run(const char *path, const struct timeline_scan_opts *o, struct outbuf *ob);

#endif
