/*
 * coll_extract: the map step of the collective report.  Reads one trace's
 * event stream (tl-cat) or node stream (tl-tree) and keeps what
 * NcclAnalyser reads of it (spec tracelens-diff-collectives.md §3.1): the
 * collective kernels — cat "kernel", a name matching nccl, rccl or
 * cross_device_reduce in any case, and args.correlation or
 * args["External id"] not null — in file order, with their ts, dur and
 * the args build_df_long reads; and the trace's rank
 * (distributedInfo.rank, else the rank given), GPU count
 * (len(deviceProperties)), distributedInfo.world_size and number of host
 * ops (cpu_op, python_func: none means a GPU-only trace).
 *
 *	struct coll_rank r;
 *	if (coll_extract(&r, path, rank_opt) == 0)     path NULL: stdin
 *		coll_stream_write(&r, ob);
 *	coll_rank_release(&r);
 *
 * Returns 0, or -1 with a message printed ("tl-coll: FILE:LINE: what").
 * A collective kernel whose ts or dur is not a number (TraceLens stops
 * there) is left out and counted on stderr.  Memory: the collectives only.
 */
#ifndef TL_COLL_EXTRACT_H
#define TL_COLL_EXTRACT_H

#include "coll_stream.h"

int coll_extract(struct coll_rank *r, const char *path, long rank_opt);

#endif
