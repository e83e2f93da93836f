/*
 * Annotation lookup: annotations sorted by (ts, uid); the candidates for
 * an event are the prefix with ts <= e.ts, and the first of them ending
 * after the event is found by binary search on the running maximum of
 * their ends (it first exceeds e's end exactly at that annotation).
 */
#include <stdlib.h>
#include <string.h>

#include "annidx.h"
#include "xalloc.h"
#include "banned.h"

struct annidx {
	const struct nodeset *ns;
	uint32_t *uid;		/* annotations, by (ts, uid) */
	double *maxend;		/* maxend[i] = max end of uid[0..i] */
	size_t n;
};

static const struct nodeset *sort_ns;	/* qsort has no context argument */

static int by_ts(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	double ta = sort_ns->node[a].ts, tb = sort_ns->node[b].ts;

	if (ta != tb)
		return ta < tb ? -1 : 1;
	return a < b ? -1 : a > b;
}

struct annidx *annidx_new(const struct nodeset *ns)
{
	struct annidx *ax = xcalloc(1, sizeof(*ax));
	size_t n = 0;

	ax->ns = ns;
	for (size_t i = 0; i < ns->n; i++)
		n += (ns->node[i].flags & NF_ANNOT) != 0;
	ax->uid = xcalloc(n + 1, sizeof(*ax->uid));
	ax->maxend = xcalloc(n + 1, sizeof(*ax->maxend));
	for (size_t i = 0; i < ns->n; i++)
		if (ns->node[i].flags & NF_ANNOT)
			ax->uid[ax->n++] = (uint32_t)i;
	sort_ns = ns;
	qsort(ax->uid, ax->n, sizeof(*ax->uid), by_ts);
	sort_ns = NULL;
	for (size_t i = 0; i < ax->n; i++) {
		double e = ns->node[ax->uid[i]].t_end;
		ax->maxend[i] = i && ax->maxend[i - 1] > e ? ax->maxend[i - 1] : e;
	}
	return ax;
}

void annidx_free(struct annidx *ax)
{
	if (!ax)
		return;
	free(ax->uid);
	free(ax->maxend);
	free(ax);
}

int annidx_applies(const char *name)
{
	static const char pre[] = "vllm::unified_attention_with_output";

	return name && !strncmp(name, pre, sizeof(pre) - 1);
}

const char *annidx_lookup(const struct annidx *ax, const struct node *e)
{
	size_t lo = 0, hi = ax->n, k;

	/* k = number of annotations with ts <= e.ts */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ax->ns->node[ax->uid[mid]].ts <= e->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = lo;
	/* first i < k with maxend[i] > e's end */
	lo = 0, hi = k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ax->maxend[mid] > e->t_end)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo >= k)
		return "NA";
	return nodeset_str(ax->ns, ax->ns->node[ax->uid[lo]].name);
}
