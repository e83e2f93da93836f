/*
 * align: Wagner-Fischer alignment of two sequences of names, with the
 * greedy backtrack TraceLens's TraceDiff uses (trace_diff.py,
 * wagner_fischer): walking back from the end, equal names are matched
 * whenever they meet, otherwise a delete is taken when the cost table
 * allows it, else an insert.  Substitutions are never emitted: a pair of
 * different names becomes a delete and an insert.  This is not an optimal
 * alignment library; its exact choices decide the merged tree.
 *
 *	struct align al;
 *	align_init(&al);
 *	align_wf(&al, names1, m, names2, n);      names are interned ids
 *	for (size_t k = 0; k < al.nr; k++)
 *		use al.ops[k].op, .i (index in 1 or -1), .j (index in 2 or -1)
 *	align_release(&al);
 *
 * The ops come out in sequence order (the reverse of the backtrack).
 * Time and memory are O(m * n).
 */
#ifndef TL_ALIGN_H
#define TL_ALIGN_H

#include <stddef.h>
#include <stdint.h>

enum { ALIGN_MATCH, ALIGN_DELETE, ALIGN_INSERT };

struct align_op {
	int op;
	int32_t i, j;		/* -1 where the op has no such side */
};

struct align {
	struct align_op *ops;
	size_t nr, alloc;
	uint32_t *dp;
	size_t dp_alloc;
};

void align_init(struct align *al);
void align_release(struct align *al);
/* Replaces al->ops with the alignment of n1[0..m) and n2[0..n). */
void align_wf(struct align *al, const uint32_t *n1, size_t m,
	      const uint32_t *n2, size_t n);
/* Appends one op to al->ops. */
void align_push(struct align *al, int op, int32_t i, int32_t j);

#endif
