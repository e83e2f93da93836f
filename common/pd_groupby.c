#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pd_groupby.h"
#include "strpool.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

struct group {
	size_t *rows, n, alloc;
	uint32_t key;
};

struct pd_groupby {
	struct strpool *sp;
	size_t *gi_of_id, id_alloc;	/* strpool id → group index + 1 */
	struct group *g;
	size_t n, alloc;
};

struct pd_groupby *pd_groupby_new(void)
{
	struct pd_groupby *g = xcalloc(1, sizeof(*g));
	g->sp = strpool_new();
	return g;
}

void pd_groupby_free(struct pd_groupby *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->g[i].rows);
	free(g->g);
	free(g->gi_of_id);
	strpool_free(g->sp);
	free(g);
}

size_t pd_groupby_add(struct pd_groupby *g, const char *key, size_t len, size_t row)
{
	uint32_t id = strpool_intern(g->sp, key, len);
	size_t old = g->id_alloc, gi;
	struct group *gr;

	if (id >= g->id_alloc) {
		xgrow((void **)&g->gi_of_id, &g->id_alloc, (size_t)id + 1, sizeof(size_t));
		memset(g->gi_of_id + old, 0, (g->id_alloc - old) * sizeof(size_t));
	}
	if (!g->gi_of_id[id]) {
		xgrow((void **)&g->g, &g->alloc, g->n + 1, sizeof(*g->g));
		memset(&g->g[g->n], 0, sizeof(*g->g));
		g->g[g->n].key = id;
		g->gi_of_id[id] = ++g->n;
	}
	gi = g->gi_of_id[id] - 1;
	gr = &g->g[gi];
	xgrow((void **)&gr->rows, &gr->alloc, gr->n + 1, sizeof(*gr->rows));
	gr->rows[gr->n++] = row;
	return gi;
}

size_t pd_groupby_count(const struct pd_groupby *g)
{
	return g->n;
}

const size_t *pd_groupby_rows(const struct pd_groupby *g, size_t gi, size_t *n)
{
	*n = g->g[gi].n;
	return g->g[gi].rows;
}

const char *pd_groupby_key(const struct pd_groupby *g, size_t gi)
{
	return strpool_str(g->sp, g->g[gi].key);
}

static const struct pd_groupby *sort_g;

static int cmp_key(const void *a, const void *b)
{
	const struct group *x = &sort_g->g[*(const size_t *)a], *y = &sort_g->g[*(const size_t *)b];
	size_t lx = strpool_len(sort_g->sp, x->key), ly = strpool_len(sort_g->sp, y->key);
	int c = memcmp(strpool_str(sort_g->sp, x->key), strpool_str(sort_g->sp, y->key),
		       lx < ly ? lx : ly);
	return c ? c : (lx > ly) - (lx < ly);
}

size_t *pd_groupby_sorted(const struct pd_groupby *g)
{
	size_t *idx = xmalloc(st_mult(g->n ? g->n : 1, sizeof(*idx)));

	for (size_t i = 0; i < g->n; i++)
		idx[i] = i;
	sort_g = g;
	tl_qsort(idx, g->n, sizeof(*idx), cmp_key);
	sort_g = NULL;
	return idx;
}
