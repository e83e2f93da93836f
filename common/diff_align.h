/*
 * align: Wagner-Fischer alignment of two sequences of names, with the
 * greedy backtrack TraceLens's TraceDiff uses (trace_diff.py,
 * wagner_fischer): walking back from the end, equal names are matched
 * whenever they meet, otherwise a delete is taken when the cost table
 * allows it, else an insert.  Substitutions are never emitted: a pair of
 * different names becomes a delete and an insert.  This is not an optimal
 * alignment library; its exact choices decide the merged tree.
 *
 *	struct diff_align al;
 *	diff_align_init(&al);
 *	diff_align_wf(&al, names1, m, names2, n);      names are interned ids
 *	for (size_t k = 0; k < al.nr; k++)
 *		use al.ops[k].op, .i (index in 1 or -1), .j (index in 2 or -1)
 *	diff_align_release(&al);
 *
 * The ops come out in sequence order (the reverse of the backtrack).
 * Time and memory are O(m * n).
 */
#ifndef TL_DIFF_ALIGN_H
#define TL_DIFF_ALIGN_H

#include <stddef.h>
#include <stdint.h>

enum { DIFF_ALIGN_MATCH, DIFF_ALIGN_DELETE, DIFF_ALIGN_INSERT };

struct diff_align_op {
	int op;
	int32_t i, j;		/* -1 where the op has no such side */
};

struct diff_align {
	struct diff_align_op *ops;
	size_t nr, alloc;
	uint32_t *dp;
	size_t dp_alloc;
};

void diff_align_init(struct diff_align *al);
void diff_align_release(struct diff_align *al);
/* Replaces al->ops with the alignment of n1[0..m) and n2[0..n). */
void diff_align_wf(struct diff_align *al, const uint32_t *n1, size_t m,
	      const uint32_t *n2, size_t n);
/* Appends one op to al->ops. */
void diff_align_push(struct diff_align *al, int op, int32_t i, int32_t j);

#endif
