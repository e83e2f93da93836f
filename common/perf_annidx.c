/*
 * Annotation lookup: annotations sorted by (ts, uid); the candidates for
 * an event are the prefix with ts <= e.ts, and the first of them ending
 * after the event is found by binary search on the running maximum of
 * their ends (it first exceeds e's end exactly at that annotation).
 */
#include <stdlib.h>
#include <string.h>

#include "perf_annidx.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

struct perf_annidx {
	const struct tree_nodes *ns;
	uint32_t *uid;		/* annotations, by (ts, uid) */
	double *maxend;		/* maxend[i] = max end of uid[0..i] */
	size_t n;
};

struct key {
	double ts;
	uint32_t uid;
};

/* by ts, then file order: Python's stable sort by ts */
static int by_ts(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->uid < b->uid ? -1 : a->uid > b->uid;
}

struct perf_annidx *perf_annidx_new(const struct tree_nodes *ns)
{
	struct perf_annidx *ax = xcalloc(1, sizeof(*ax));
	struct key *k;
	size_t n = 0;

	ax->ns = ns;
	for (size_t i = 0; i < ns->n; i++)
		n += (ns->node[i].flags & NF_ANNOT) != 0;
	ax->uid = xcalloc(n + 1, sizeof(*ax->uid));
	ax->maxend = xcalloc(n + 1, sizeof(*ax->maxend));
	k = xcalloc(n + 1, sizeof(*k));
	for (size_t i = 0; i < ns->n; i++)
		if (ns->node[i].flags & NF_ANNOT)
			k[ax->n++] = (struct key){ ns->node[i].ts, (uint32_t)i };
	tl_qsort(k, ax->n, sizeof(*k), by_ts);
	for (size_t i = 0; i < ax->n; i++)
		ax->uid[i] = k[i].uid;
	free(k);
	for (size_t i = 0; i < ax->n; i++) {
		double e = node_end(&ns->node[ax->uid[i]]);
		ax->maxend[i] = i && ax->maxend[i - 1] > e ? ax->maxend[i - 1] : e;
	}
	return ax;
}

void perf_annidx_free(struct perf_annidx *ax)
{
	if (!ax)
		return;
	free(ax->uid);
	free(ax->maxend);
	free(ax);
}

int perf_annidx_applies(const char *name)
{
	static const char pre[] = "vllm::unified_attention_with_output";

	return name && !strncmp(name, pre, sizeof(pre) - 1);
}

int perf_annidx_applies_inference(const char *name)
{
	static const char *const pre[] = {
		"vllm::unified_attention_with_output", "aiter::mha_varlen_fwd",
		"pseudo_mla_decode_fwd", "pseudo_mla_prefill_fwd", "vllm::gdn_attention_core",
		"aiter::fmha_v3_varlen_fwd", "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
		"sglang_profiler::attention_paged_attention_ragged", "aiter::mha_batch_prefill",
		"aiter::pa_decode_gluon", "aiter::v4_attention_with_output",
		"pseudo_v4_paged_decode_swa", "pseudo_v4_paged_decode_csa",
		"pseudo_v4_paged_decode_hca",
	};

	for (size_t i = 0; name && i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(name, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

const char *perf_annidx_lookup(const struct perf_annidx *ax, const struct node *e)
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
		if (ax->maxend[mid] > node_end(e))
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo >= k)
		return "NA";
	return tree_nodes_str(ax->ns, ax->ns->node[ax->uid[lo]].name);
}
