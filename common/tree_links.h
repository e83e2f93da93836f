/*
 * tree_links: what a tree read from a node stream must be before anything
 * walks it (tl-perf's tree_nodes, tl-diff's tree_read), checked on an
 * array of up links, one per node: the index of the node above it (its
 * parent, or the node whose children list holds it), or TREE_LINKS_NONE.
 *
 *	uint32_t *up = xmalloc(n * sizeof(*up));
 *	for each node: up[i] = TREE_LINKS_NONE;
 *	for each child c of each node p:
 *		if (tree_links_set(up, c, p) < 0)   c was under a node already:
 *			tree_links_warn_shared(path, c, up[c], p);
 *	v = tree_links_loop(up, n);                  a node on a loop, or NONE
 *
 * Walks down the children lists take a node once per path to it, and
 * paths double with every level of sharing: hence one list per node.
 * Walks up or down a loop never end.
 */
#ifndef TL_TREE_LINKS_H
#define TL_TREE_LINKS_H

#include <stdint.h>

#define TREE_LINKS_NONE UINT32_MAX

/* up[c] = p, unless c is under a node already: then -1, up[c] unchanged. */
int tree_links_set(uint32_t *up, uint32_t c, uint32_t p);

/* "WHERE: uid C: in the children lists of uid A and uid B" (or "twice in
 * the children list of uid A"): the message for tree_links_set's -1. */
void tree_links_warn_shared(const char *where, uint32_t c, uint32_t a, uint32_t b);

/* A node that following up[] from it comes back to, or TREE_LINKS_NONE
 * (up[] holds indices below n or TREE_LINKS_NONE). */
uint32_t tree_links_loop(const uint32_t *up, uint32_t n);

#endif
