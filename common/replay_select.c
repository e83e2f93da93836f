/*
 * replay_select: tl-replay's --uid, --name and --top (see replay_select.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "perf_ops.h"
#include "perf_report.h"
#include "perf_tree.h"
#include "replay_select.h"
#include "sort.h"
#include "xalloc.h"
#include "banned.h"

static void add(struct replay_pick *p, uint32_t uid, long count)
{
	size_t a = p->alloc;

	xgrow((void **)&p->uid, &a, p->n + 1, sizeof(*p->uid));
	xgrow((void **)&p->count, &p->alloc, p->n + 1, sizeof(*p->count));
	p->uid[p->n] = uid;
	p->count[p->n++] = count;
}

int replay_select_uids(struct replay_pick *p, const struct tree_nodes *ns, const char *list)
{
	const char *s = list;

	for (;;) {
		char *end;
		unsigned long long u;
		errno = 0;
		u = strtoull(s, &end, 10);
		if (end == s || *s == '-' || errno || (*end && *end != ',')) {
			tl_warn("--uid: '%s': not a comma-separated list of uids", list);
			return -1;
		}
		if (u >= ns->n) {
			tl_warn("%s: uid %llu: no such event (the stream has %zu)", ns->source, u, ns->n);
			return -1;
		}
		if (ns->node[u].cat != NC_CPU_OP) {
			tl_warn("%s: uid %llu: not a cpu_op (%s)", ns->source, u,
				tree_nodes_str(ns, ns->node[u].name));
			return -1;
		}
		add(p, (uint32_t)u, -1);
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static const struct tree_nodes *sort_ns;

/* by the four args columns (interned: equal text, equal id), then uid */
static int cmp_args(const void *a, const void *b)
{
	const struct node *x = &sort_ns->node[*(const uint32_t *)a];
	const struct node *y = &sort_ns->node[*(const uint32_t *)b];
	uint32_t kx[5] = { x->dims, x->types, x->strides, x->concrete, *(const uint32_t *)a };
	uint32_t ky[5] = { y->dims, y->types, y->strides, y->concrete, *(const uint32_t *)b };

	for (int i = 0; i < 5; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

static int same_args(const struct node *x, const struct node *y)
{
	return x->dims == y->dims && x->types == y->types && x->strides == y->strides &&
	       x->concrete == y->concrete;
}

struct group { uint32_t first; long count; };

static int cmp_group(const void *a, const void *b)
{
	uint32_t x = ((const struct group *)a)->first, y = ((const struct group *)b)->first;
	return (x > y) - (x < y);
}

int replay_select_name(struct replay_pick *p, const struct tree_nodes *ns, const char *name)
{
	uint32_t *u = xmalloc(st_mult(ns->n + 1, sizeof(*u)));
	struct group *g;
	size_t n = 0, ng = 0;

	for (size_t i = 0; i < ns->n; i++)
		if (ns->node[i].cat == NC_CPU_OP && !strcmp(tree_nodes_str(ns, ns->node[i].name), name))
			u[n++] = (uint32_t)i;
	if (!n) {
		tl_warn("%s: no cpu_op named '%s'", ns->source, name);
		free(u);
		return -1;
	}
	sort_ns = ns;
	tl_qsort(u, n, sizeof(*u), cmp_args);
	sort_ns = NULL;
	g = xmalloc(st_mult(n, sizeof(*g)));
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || !same_args(&ns->node[u[i]], &ns->node[u[i - 1]]))
			g[ng++] = (struct group){ u[i], 0 };
		g[ng - 1].count++;
	}
	tl_qsort(g, ng, sizeof(*g), cmp_group);
	for (size_t i = 0; i < ng; i++)
		add(p, g[i].first, g[i].count);
	free(g);
	free(u);
	return 0;
}

int replay_select_top(struct replay_pick *p, const struct tree_nodes *ns, long top)
{
	struct perf_ops *db = perf_ops_load(NULL);
	struct perf_tree *tp = perf_tree_new(ns, db, 0);
	struct perf_report *pr = perf_report_new(tp);
	uint32_t *ex;
	size_t *cnt, ng = perf_report_unique_groups(pr, &ex, &cnt);

	for (size_t i = 0; i < ng && (long)i < top; i++)
		add(p, ex[i], (long)cnt[i]);
	free(ex);
	free(cnt);
	perf_report_free(pr);
	perf_tree_free(tp);
	perf_ops_free(db);
	if (!ng) {
		tl_warn("%s: no op launches GPU work: --top has nothing to rank (use --name or --uid)",
			ns->source);
		return -1;
	}
	return 0;
}

void replay_pick_release(struct replay_pick *p)
{
	free(p->uid);
	free(p->count);
	memset(p, 0, sizeof(*p));
}
