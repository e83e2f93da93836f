/*
 * replay_select: which cpu_ops of a node stream tl-replay extracts.
 *
 *	struct replay_pick p = {0};
 *	replay_select_uids(&p, ns, "12,40")      each uid, count -1; -1: message
 *	replay_select_name(&p, ns, "aten::mm")   one per unique-args group
 *	replay_select_top(&p, ns, 10)            ops_unique_args's first 10 rows
 *	for (i = 0; i < p.n; i++) use p.uid[i], p.count[i]
 *	replay_pick_release(&p);
 *
 * A unique-args group is TraceLens's: same name and Input Dims, Input type,
 * Input Strides and Concrete Inputs (ops_unique_args adds the category and
 * the process and thread, and keeps only ops that launch GPU work).  Its
 * first op stands for it (ex_UID), with the group's size as count.
 * --name groups in order of first appearance; --top in ops_unique_args's
 * order (total direct kernel time, descending; tl-perf's module).
 */
#ifndef TL_REPLAY_SELECT_H
#define TL_REPLAY_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "tree_nodes.h"

struct replay_pick {
	uint32_t *uid;
	long *count;		/* -1: a single op (--uid) */
	size_t n, alloc;
};

int replay_select_uids(struct replay_pick *p, const struct tree_nodes *ns, const char *list);
int replay_select_name(struct replay_pick *p, const struct tree_nodes *ns, const char *name);
int replay_select_top(struct replay_pick *p, const struct tree_nodes *ns, long top);
void replay_pick_release(struct replay_pick *p);

#endif
