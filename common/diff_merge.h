/*
 * diff_merge: TraceLens's TraceDiff.merge_trees() - align two call trees
 * (baseline = trace1, variant = trace2) into one merged tree whose nodes
 * are "combined" (a node of each), "trace1" only or "trace2" only.
 *
 *	struct diff_merge *tm = diff_merge_new(t1, t2);    trees built by tree_read
 *	diff_merge_run(tm);                           the whole merge
 *	for (uint32_t k = 0; k < tm->nroots; k++) walk tm->m[tm->roots[k]] ...
 *	diff_merge_write_tree(tm, ob, 0);             merged_tree_output.txt
 *	diff_merge_free(tm);
 *
 * Merged ids are given in pre-order, as TraceDiff numbers them; a node's
 * children are tm->kids[kid .. kid+nkid) in alignment order.  The run
 * changes the trees the way TraceDiff does (a top-level root takes over
 * the children of the wrapper chain below it); call it once.
 *
 * The algorithm, per pair of nodes: the GPU-path children of each side
 * (plus a non-GPU-path child whose name only the other side has on its
 * GPU path), sorted by ts; a one-child side is collapsed through wrapper
 * nodes (phase 1); children are paired by position when the counts agree
 * and none is a kernel-launching runtime call, else by Wagner-Fischer
 * (diff_align.h) plus same-name disambiguation by the names below each node
 * (phase 2); unmatched wrappers are replaced by their children and
 * re-aligned (phase 3); still unmatched nodes are collapsed and aligned
 * again, with python details stripped as a last resort (phase 4).
 */
#ifndef TL_DIFF_MERGE_H
#define TL_DIFF_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "diff_align.h"
#include "hmap.h"
#include "tree_read.h"
#include "opname.h"
#include "outbuf.h"

enum { TM_COMBINED, TM_TRACE1, TM_TRACE2 };

#define DIFF_MERGE_UIDBUF 16

struct diff_merge_node {
	uint32_t uid1, uid2;		/* NT_NONE on the missing side */
	uint32_t kid, nkid;
	uint8_t type;
};

struct diff_merge {
	struct tree_read *t[2];
	struct diff_merge_node *m;
	uint32_t nr;
	size_t alloc;
	uint32_t *kids;
	size_t nkids, kids_alloc;
	uint32_t *roots;
	uint32_t nroots;
	/* internal */
	uint32_t *norm[2];		/* normalised name id per uid, lazily */
	uint32_t *name_norm[2];		/* the same per name id: names repeat */
	size_t name_norm_alloc[2];
	struct hmap memo;
	struct opname on;
	uint32_t glaunch[2];		/* ids of cudaGraphLaunch, hipGraphLaunch */
};

struct diff_merge *diff_merge_new(struct tree_read *t1, struct tree_read *t2);
void diff_merge_run(struct diff_merge *tm);
void diff_merge_free(struct diff_merge *tm);
/* The merged tree as text: one line per node, TraceDiff's format. */
void diff_merge_write_tree(struct diff_merge *tm, struct outbuf *ob, int prune_non_gpu);
/* The same for a terminal (tl-diff -p): names demangled, control
 * characters escaped; merged_tree_output.txt keeps TraceDiff's bytes. */
void diff_merge_print_tree(struct diff_merge *tm, struct outbuf *ob, int prune_non_gpu);

/* A node's name as TraceDiff prints it: the raw name, or the uid in
 * decimal (written into buf) when the name is empty.  side is 0 or 1. */
const char *diff_merge_op_name(const struct diff_merge *tm, int side, uint32_t uid,
			   char buf[DIFF_MERGE_UIDBUF]);

/* Exposed for unit tests: the normalised name id (NT_NONE when the name is
 * empty), Wagner-Fischer + disambiguation over children uids. */
uint32_t diff_merge_norm(struct diff_merge *tm, int side, uint32_t uid);
void diff_merge_aligned_wf(struct diff_merge *tm, struct diff_align *al,
		       const uint32_t *c1, uint32_t n1,
		       const uint32_t *c2, uint32_t n2, int strip_details);
/* (i, j) pairs, added in this order to a CPython set, in its iteration order */
void diff_merge_pyset_order(uint32_t *pairs, size_t n);
void diff_merge_disambiguate(struct diff_merge *tm, struct diff_align *al,
			 const uint32_t *c1, uint32_t n1,
			 const uint32_t *c2, uint32_t n2);

#endif
