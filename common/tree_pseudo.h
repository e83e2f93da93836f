/*
 * tree_pseudo: TraceLens's pseudo-op extensions (Trace2Tree/extensions/,
 * --enable_pseudo_ops) on a graft (common/tree_graft.h).  Each puts a new
 * cpu_op, named after the work it isolates (pseudo_op::moe_triton_unfused_up,
 * pseudo_mla_decode_fwd, ...), above some kernels or calls, so that the
 * perf models can measure that part of a fused serving op alone.  Which
 * extensions run, and every quirk of how they edit the tree, follow
 * TraceLens 171dd74; tl-tree(1) lists them.
 *
 *	struct pseudo_set *ps = tree_pseudo_apply(g, getenv("TL_MODEL"), getenv("TL_TP"), verbose);
 *	for each added node i with graft_at(g, i)->origin == GO_PSEUDO:
 *		const struct pseudo_spec *sp = tree_pseudo_spec(ps, graft_at(g, i)->cap);
 *	tree_pseudo_free(ps);
 *
 * A pseudo op's fields are copies of other nodes' fields (its pid and tid,
 * its shapes), which the writer of the node stream reads from their rows:
 * a spec names the nodes.
 */
#ifndef TL_TREE_PSEUDO_H
#define TL_TREE_PSEUDO_H

#include <stddef.h>
#include <stdint.h>

struct graft;

struct pseudo_spec {
	uint32_t node;		/* the pseudo op */
	uint32_t idfrom;	/* pid and tid from this node */
	uint32_t tsfrom;	/* ts and dur from this node; GN_NONE: none */
	/* Input Dims, Input type, Input Strides, Concrete Inputs: from argfrom,
	 * or from argalt where argfrom's is None; GN_NONE: None */
	uint32_t argfrom, argalt;
	uint32_t seqfrom;	/* Sequence number from this node's args ... */
	uint32_t sequid;	/* ... or, if it has none, this uid */
	int has_ext;		/* External id: ext (graft_str id, 0: None) */
	uint32_t ext;
	char *extra;		/* the args after "Pseudo op": compact JSON members */
};

struct pseudo_set;

struct pseudo_set *tree_pseudo_apply(struct graft *g, const char *model, const char *tp,
				     int verbose);
const struct pseudo_spec *tree_pseudo_spec(const struct pseudo_set *ps, uint32_t k);
size_t tree_pseudo_count(const struct pseudo_set *ps);
void tree_pseudo_free(struct pseudo_set *ps);

#endif
