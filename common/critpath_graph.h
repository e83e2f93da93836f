/*
 * critpath_graph: HTA's critical path graph of one rank
 * (critical_path_analysis.py: CPGraph), built the way HTA builds it so
 * that the longest path, its breakdown and its ties come out the same.
 *
 *	struct critpath g;
 *	if (critpath_build(&g, &set, t, "ProfilerStep", 1, 1) < 0) ...   message printed
 *	if (critpath_solve(&g) < 0) ...                                  critpath_path.c
 *	critpath_release(&g);
 *
 * The window: the instances [first, last] (positions among the rows whose
 * name contains the annotation; "" for the whole trace) give a time range;
 * the graph holds the CPU rows that start inside it with a duration, the
 * GPU rows whose launch call does, and every "Stream Wait Event".  Each
 * event of cat cpu_op, cuda_runtime or cuda_driver, and each GPU row with
 * index_correlation >= 0, has a start and an end node, numbered in
 * (time, index) order.  Edges, in HTA's order of construction:
 *
 *   1. the CUDA runtime lock: cudaHostAlloc, cudaLaunchKernel and
 *      cudaMemcpyAsync calls of all threads chained by their ends;
 *   2. each CPU thread's call stack (HTA's CallStackGraph, backward thread
 *      merged into the forward one), walked depth first: start → child
 *      start → child end → ... → end;
 *   3. kernels per stream in start order (syncs by their end): kernel
 *      spans, launch delays (queue empty at launch, HTA's queue length),
 *      kernel-kernel gaps under 1500 µs, and the sync edges of
 *      cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize
 *      and cudaStreamWaitEvent (through cudaEventRecord).
 *
 * (data loading events, when asked for, too).
 * Edge weights are the time between their nodes, 0 for dependencies and
 * syncs and for the end of a blocking call (cudaDeviceSynchronize, ...).
 */
#ifndef TL_CRITPATH_GRAPH_H
#define TL_CRITPATH_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "hmap.h"

struct idle_set;
struct idle_trace;

/* HTA's CPEdgeType, in the order of their value strings below */
enum critpath_etype {
	CP_OPERATOR_KERNEL,	/* critical_path_operator */
	CP_DEPENDENCY,		/* critical_path_dependency */
	CP_KERNEL_LAUNCH_DELAY,	/* critical_path_kernel_launch_delay */
	CP_KERNEL_KERNEL_DELAY,	/* critical_path_kernel_kernel_delay */
	CP_SYNC_DEPENDENCY	/* critical_path_sync_dependency */
};

const char *critpath_etype_name(enum critpath_etype t);

struct critpath_node {
	int64_t ev;		/* the event's index */
	double ts;
	unsigned char is_start, is_blocking;
	uint32_t gpos;		/* position in the graph's node order, or UINT32_MAX */
	uint32_t succ, pred;	/* first edge out / in (UINT32_MAX: none) */
	uint32_t succ_last, pred_last;
};

struct critpath_edge {
	uint32_t u, v;
	enum critpath_etype type;
	double weight;		/* the edge object's weight (HTA's CPEdge.weight) */
	double gweight;		/* the graph's weight (negatives zeroed when validated) */
	int has_attr;
	int64_t attr;		/* the event the edge is attributed to */
	uint32_t next_succ, next_pred;
};

struct critpath {
	struct idle_set *set;
	const struct idle_trace *t;
	struct critpath_node *node;
	size_t nnode;
	struct critpath_edge *edge;
	size_t nedge, edge_alloc;
	uint32_t *gorder;	/* graph nodes in networkx's order */
	size_t ngorder;
	struct hmap edge_of;	/* (u, v) → edge */
	struct hmap start_of, end_of;	/* event index → node */
	size_t *clip;		/* the window's rows (of t), by index */
	size_t nclip;
	struct hmap clip_row;	/* event index → its position in clip */
	struct hmap full_row;	/* event index → its (first) row of t */
	double start_ts, end_ts;
	char *const *data_load;	/* names holding one of these are data loading */
	size_t ndata_load;
	/* the result (critpath_solve) */
	uint32_t *path;		/* node ids */
	size_t npath;
};

/*
 * Builds the graph of t (read with keep_all) for instances [first, last]
 * of annotation.  Events whose name holds one of data_load[0..ndata_load)
 * (HTA's data_load_events, matched as plain text) join the graph as CPU
 * work bound by data loading.  0, or -1 with a message.
 */
int critpath_build(struct critpath *g, struct idle_set *set, const struct idle_trace *t,
		   const char *annotation, long first, long last, char *const *data_load,
		   size_t ndata_load);
/* Does the name hold one of the data-loading strings? */
int critpath_data_load(const struct critpath *g, const char *name, size_t len);
void critpath_release(struct critpath *g);

/* The row (of t) of an event in the window, or SIZE_MAX. */
size_t critpath_clip_row(const struct critpath *g, int64_t ev);

#endif
