#include <stdlib.h>

#include "err.h"
#include "tree_links.h"
#include "xalloc.h"

int tree_links_set(uint32_t *up, uint32_t c, uint32_t p)
{
	if (up[c] != TREE_LINKS_NONE)
		return -1;
	up[c] = p;
	return 0;
}

void tree_links_warn_shared(const char *where, uint32_t c, uint32_t a, uint32_t b)
{
	if (a == b)
		tl_warn("%s: uid %u: twice in the children list of uid %u", where, c, a);
	else
		tl_warn("%s: uid %u: in the children lists of uid %u and uid %u", where, c, a, b);
}

uint32_t tree_links_loop(const uint32_t *up, uint32_t n)
{
	const uint32_t none = TREE_LINKS_NONE;
	uint8_t *state = xcalloc((size_t)n + 1, 1);	/* 1 on this walk, 2 known to end */
	uint32_t found = none;

	for (uint32_t i = 0; i < n && found == none; i++) {
		uint32_t v = i;
		while (v != none && !state[v]) {
			state[v] = 1;
			v = up[v];
		}
		if (v != none && state[v] == 1)
			found = v;
		for (v = i; v != none && state[v] == 1; v = up[v])
			state[v] = 2;
	}
	free(state);
	return found;
}
