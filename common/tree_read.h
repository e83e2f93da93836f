/*
 * tree_read: a call tree read back from a tl-nodes stream (tl-stream(5)), kept
 * in compact fixed-size records indexed by uid, for programs that need the
 * whole tree at once (tl-diff).
 *
 *	struct strpool *sp = strpool_new();      shared by trees that are compared
 *	struct tree_read *t = tree_read_read(path, sp);  NULL: message printed
 *	for (uint32_t k = 0; k < t->nroots; k++) use t->roots[k] ...
 *	tree_read_free(t);
 *
 * Trees can also be built by hand (tests):
 *	t = tree_read_new(sp);
 *	tree_read_add(t, uid, "cpu_op", "aten::mm", "10.5", "3", parent, is_root);
 *	tree_read_finish(t);
 *
 * After tree_read_finish():
 *  - children of a node are in TraceLens's order: host children by (ts,
 *    uid) (the order of the host-stack sweep), then GPU children by uid
 *    (the order the runtime call linked them);
 *  - NT_GPU_PATH is set on GPU events and on every node that has a linked
 *    GPU event below it (TraceLens: no "non_gpu_path" flag);
 *  - roots are the cpu_op roots (column "root") sorted by (ts, uid),
 *    TraceLens's cpu_root_nodes.
 * kids/nkid may be changed by a caller (TraceDiff moves a root's
 * grandchildren up); okid/onkid and oparent keep the tree as read.
 * A tl-nodes 2 stream's kids column gives a node's children where they
 * differ from the above, its root_order the order of the roots, and its
 * gpu_n the GPU-path flags of host nodes (TraceLens's edits keep a
 * launch call's parent link while moving it under a pseudo op).
 * tree_read_set_kids() and tree_read_set_root_order() do the same by hand.
 */
#ifndef TL_TREE_READ_H
#define TL_TREE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "hmap.h"
#include "strpool.h"

enum tree_read_cat {
	NT_OTHER, NT_CPU_OP, NT_RUNTIME, NT_DRIVER, NT_KERNEL, NT_MEMCPY,
	NT_MEMSET, NT_PYTHON
};

enum {
	NT_HAS_TS = 1, NT_HAS_DUR = 2, NT_DUR_INT = 4, NT_GPU_PATH = 8,
	NT_ROOT = 16, NT_PRESENT = 32,
	NT_GPU_N = 64		/* tl-nodes 2: gpu_n > 0 (TraceLens's gpu_events) */
};

#define NT_NONE UINT32_MAX

struct tree_read_node {
	double ts, dur;
	uint32_t parent, oparent;	/* NT_NONE for none */
	uint32_t name;			/* strpool id of the raw name */
	uint32_t kid, nkid;		/* children: t->kids[kid .. kid+nkid) */
	uint32_t okid, onkid;		/* children as read */
	uint32_t dims, types, strides, concrete;  /* compact JSON ids, 0 = absent */
	uint8_t cat, flags;
};

struct tree_read {
	struct tree_read_node *n;
	uint32_t nr;			/* uids 0 .. nr-1 */
	size_t alloc;
	uint32_t *kids;
	size_t nkids, kids_alloc;
	uint32_t *roots;
	uint32_t nroots;
	struct strpool *sp;
	const char *path;
	/* tl-nodes 2 (tl-tree --capture, --pseudo-ops): children lists given
	 * in the stream (xkid: uid, offset, count into xk) and the roots'
	 * order; NULL/0 otherwise */
	uint32_t *xk, (*xkid)[3], *rorder;
	size_t nxk, axk, nxkid, axkid, arorder;
	int edited;		/* a tl-nodes 2 stream: GPU paths from gpu_n */
	struct hmap modmap;	/* tl-nodes 2: uid + 1 -> index in mods, or NT_NONE */
	char **mods;
	size_t nmods, amods;
};

struct tree_read *tree_read_new(struct strpool *sp);
/* One event; parent NT_NONE for none; ts/dur "" for absent. */
void tree_read_add(struct tree_read *t, uint32_t uid, const char *cat, const char *name,
	       const char *ts, const char *dur, uint32_t parent, int is_root);
void tree_read_set_args(struct tree_read *t, uint32_t uid, const char *dims,
		    const char *types, const char *strides, const char *concrete);
/* The children of uid, in order (a tl-nodes 2 kids list). */
void tree_read_set_kids(struct tree_read *t, uint32_t uid, const uint32_t *kids, size_t n);
/* The position (from 1) of root uid among the roots. */
void tree_read_set_root_order(struct tree_read *t, uint32_t uid, uint32_t order);
/* TraceLens's nn_module_stack of uid where a tl-nodes 2 stream fixes it:
 * 1 with *stack its ';'-joined frames ("root": none) for a capture copy,
 * 2 for a node that has none (pseudo ops, capture roots); 0 otherwise
 * (the nn.Module frames above the node). */
int tree_read_modules(const struct tree_read *t, uint32_t uid, const char **stack);
/* Builds children, GPU-path flags and roots; returns -1 (message printed) on a bad tree. */
int tree_read_finish(struct tree_read *t);
/* Reads a tl-nodes stream (NULL or "-": stdin). */
struct tree_read *tree_read_read(const char *path, struct strpool *sp);
void tree_read_free(struct tree_read *t);
/* Moves t's strings into pool sp (so two trees read apart, e.g. in two
 * threads, can be compared by id); t's old pool is the caller's to free. */
void tree_read_repool(struct tree_read *t, struct strpool *sp);

static inline int tree_read_is_gpu(const struct tree_read_node *n)
{
	return n->cat == NT_KERNEL || n->cat == NT_MEMCPY || n->cat == NT_MEMSET;
}

/* Appends to *out the uids of the GPU events below uid, in TraceLens's
 * gpu_events order (launching runtime call's uid, then GPU uid), using
 * the children as read.  Returns the new count. */
size_t tree_read_gpu_events(const struct tree_read *t, uint32_t uid, uint32_t **out,
			size_t nr, size_t *alloc);

#endif
