/*
 * perf_tree: TraceLens's TreePerfAnalyzer over a node stream (spec core
 * §4.4-§4.9): the GPU events under every node, the kernel launchers
 * ("leaf ops") with their direct and subtree kernel time, the rows of the
 * unified perf table, and the GPU total time the percentages divide by.
 *
 *	struct perf_ops *db = perf_ops_load(NULL);
 *	struct perf_tree *tp = perf_tree_new(ns, db, all_gpu);
 *	for (i = 0; i < tp->nlaunch; i++) use tp->launch[i];
 *	perf_tree_unified(tp);                fills tp->uni (optional)
 *	perf_tree_free(tp);
 *
 * Three "leaf op" rules coexist, each where TraceLens uses it:
 *  - launchers (ops_* sheets, §4.4): a kernel belongs to its nearest
 *    cpu_op ancestor above its runtime call, skipping ops named "execute"
 *    and python frames; without one, to the runtime call itself;
 *    communication kernels (nccl/rccl/cross_device_reduce) are left out;
 *  - kernel_summary and short kernels (§4.8): the first cpu_op above the
 *    launching runtime call, "execute" included, every kernel counted;
 *  - unified_perf_summary (§4.6): the highest op with a perf model, else
 *    an op whose GPU child is reachable through runtime calls only
 *    (perf_tree_unified).
 *
 * Parent links and children lists: TraceLens walks parent links for
 * launchers and call stacks, and children lists for everything that looks
 * down (gpu_events of a node, the unified traversal, kernel aggregation);
 * they differ only after its tree edits (tl-nodes 2 kids).  ch_off/ch are
 * the children lists, dparent[i] the node whose list holds i (-1: none).
 * With python frames in the tree (tl-tree --python, TraceLens's
 * add_python_func) the unified traversal starts from the parentless
 * python frames, as TraceLens's does.
 */
#ifndef TL_PERF_TREE_H
#define TL_PERF_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "tree_nodes.h"
#include "perf_ops.h"

struct launcher {
	uint32_t uid;
	uint32_t *kern;		/* direct kernels, sorted by ts (stable) */
	uint32_t nkern;
	uint32_t seq;		/* first-insertion order (TraceLens dict order) */
	double direct_us;	/* busy time of the direct kernels */
	double subtree_us;	/* busy time of all GPU events below */
	const char *category;	/* categorize_torch_op */
};

/*
 * An op's overlapping kernels (TraceLens's _compute_overlap_info,
 * TP:996-1085), filled by perf_tree_overlap(): names is the repr of
 * overlapping_kernel_names or NULL (None), det the per-name averages
 * (overlapping_kernels_details; dur and overlap_pct rounded to 2
 * decimals), pct overlap_pct (NaN: None).
 */
struct overlap_info {
	char *names;
	struct overlap_det {
		const char *name;
		const char *stream;	/* str of args.stream, NULL = None */
		double dur, pct;
	} *det;
	size_t ndet;
	double pct;
};

/* One row of the unified perf table before grouping. */
struct unirow {
	uint32_t uid;		/* the event the row copies */
	uint32_t row_uid;	/* UID printed (synthetic rows get new ones) */
	const char *name;	/* owned by tp (synthetic names) or the tree_nodes */
	const char *category;
	uint32_t *gpu;		/* its GPU events, gpu_events order */
	uint32_t ngpu;
	double kernel_us;	/* Kernel Time (µs) */
	int has_perf_model;
	/* python mode: the call stack the unified walk had on reaching the
	 * event (uids of its frames, outermost first; TraceLens's
	 * _call_stack); has_cs 0 for synthetic rows, which have none */
	uint32_t *cs;
	uint32_t ncs;
	int has_cs;
};

struct py_set;

struct perf_tree {
	const struct tree_nodes *ns;
	const struct perf_ops *db;
	int gpu_only;		/* no cpu_op in the trace */
	int all_gpu;		/* unlinked GPU events count (include_unlinked_kernels) */
	int python;		/* TraceLens's add_python_func: python frames are
				 * in the tree (perf_tree_new sets it then; callers
				 * may set it before perf_tree_unified): the unified
				 * walk starts at python roots, goes through every
				 * node and keeps call stacks */
	double total_us;	/* gpu_timeline total_time in µs (NaN: no GPU events) */
	uint32_t *ge_off, *ge;	/* node i's GPU events: ge[ge_off[i] .. ge_off[i+1]) */
	uint32_t *ch_off, *ch;	/* node i's children, TraceLens's children order */
	int32_t *dparent;	/* the node whose children list holds i, -1 */
	struct launcher *launch;	/* sorted by ts (stable) */
	size_t nlaunch;
	int32_t *launcher_of;	/* node uid → index in launch, -1 */
	struct unirow *uni;
	size_t nuni;
	char **synth_names;
	size_t nsynth;
	uint8_t *rc;		/* is_recompute per node (perf_tree_recompute), or NULL */
	struct overlap_info *launch_ov;	/* per launcher (perf_tree_overlap), or NULL */
	struct overlap_info *uni_ov;	/* per unified row, or NULL */
	struct py_set **ovset;	/* per node: its overlapping_uids, NULL = empty */
	uint8_t *comm;		/* per pooled name: coll_name_match_memo's byte */
	size_t ncomm;
	/* perf_tree_op's answers, by name (the names asked are few) */
	struct perf_tree_opmemo *opmemo;
};

struct perf_tree *perf_tree_new(const struct tree_nodes *ns, const struct perf_ops *db, int all_gpu);
void perf_tree_free(struct perf_tree *tp);
/*
 * perf_ops_lookup of node uid's name, looked up once per pooled name: the
 * sheets ask about every op several times, and a name the op table lacks
 * (most of them) is compared with each of its prefix patterns.
 */
const struct perf_ops_entry *perf_tree_op(const struct perf_tree *tp, uint32_t uid);
void perf_tree_unified(struct perf_tree *tp);
/*
 * TraceLens's detect_recompute: every node below a python frame whose name
 * has "torch/utils/checkpoint.py" and "recompute_fn" gets rc[uid] = 1.
 * Needs python frames in the tree (tl-tree --python).
 */
void perf_tree_recompute(struct perf_tree *tp);
/*
 * TraceLens's overlapping kernels (spec core §3.5): the sweep over the
 * counted GPU events (separately for recompute and the rest when
 * perf_tree_recompute ran first), then every launcher's and (after
 * perf_tree_unified) every unified row's overlap_info.
 */
void perf_tree_overlap(struct perf_tree *tp);
/* perf_tree_free's part for the two above */
void perf_tree_overlap_free(struct perf_tree *tp);
/* The node's overlapping_uids in Python's set order (NULL, 0 when none). */
size_t perf_tree_overlaps(const struct perf_tree *tp, uint32_t uid, int64_t **out);

/*
 * The name TraceLens puts in a call stack for node uid, or NULL when the
 * node is not kept there: names containing "nn.Module", "::" or "/" and
 * every cpu_op, with every "_<digits>" removed (re.sub(r"_\d+", "", name)).
 * Writes into out (reset first).
 */
struct pystr;
const char *perf_tree_cs_name(const struct perf_tree *tp, uint32_t uid, struct pystr *out);

/* The node's GPU events (ancestor lists of TraceLens's gpu_events). */
const uint32_t *perf_tree_gpu_events(const struct perf_tree *tp, uint32_t uid, uint32_t *n);
double perf_tree_busy(const struct perf_tree *tp, const uint32_t *uids, size_t n);
/* first cpu_op above node uid (exclusive), -1 if none; "execute" included */
int32_t perf_tree_cpu_op_above(const struct perf_tree *tp, uint32_t uid);
/* categorize_torch_op of any event, with its kernel_details as TraceLens has them */
const char *perf_tree_category(const struct perf_tree *tp, uint32_t uid);
int perf_tree_has_perf_model(const struct perf_tree *tp, uint32_t uid);

#endif
