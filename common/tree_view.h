/*
 * tree_view: TraceLens's text views of a built tree, line for line —
 * traverse_subtree_and_print (box-drawing lines, "UID: u, Category: c,
 * Name: n[, Duration: d]"), traverse_parents_and_print ("Node:", "1-up:",
 * ...), plus a field listing of one node.
 *
 *	struct tree_view_opts o = { .depth = -1, .prune = 0 };
 *	tree_view_subtree(ob, t, i, &o);
 *	tree_view_parents(ob, t, i);
 *	tree_view_node(ob, t, i);
 *
 * Names longer than 64 characters (code points, as Python counts) are cut
 * to 64 and get "..".  GPU events get ", Duration: " and the dur as Python
 * prints the parsed JSON number (repr of the float, or the integer).
 */
#ifndef TL_TREE_VIEW_H
#define TL_TREE_VIEW_H

#include <stdint.h>

#include "outbuf.h"
#include "tree.h"

struct tree_view_opts {
	long depth;	/* levels below the start node to print; < 0 = all */
	int prune;	/* leave out children without GPU work (non_gpu_path) */
};

void tree_view_subtree(struct outbuf *ob, struct tree *t, uint32_t i,
		      const struct tree_view_opts *o);
void tree_view_parents(struct outbuf *ob, struct tree *t, uint32_t i);
void tree_view_node(struct outbuf *ob, struct tree *t, uint32_t i);

#endif
