#include <stdlib.h>
#include <string.h>

#include "perf_ops.h"
#include "share.h"
#include "sheet_order.h"
#include "xalloc.h"
#include "banned.h"

/* The sheets TraceLens adds before the perf-model sheets, in its order. */
static const char *const head[] = {
	"gpu_timeline", "ops_summary_by_category", "ops_summary",
	"ops_unique_args", "ops_unique_args_kl_overlap",
	"unified_perf_summary", "diff_stats", "unified_perf_summary_kl_overlap",
};

/* ... and after them. */
static const char *const tail[] = {
	"kernel_summary", "short_kernel_histogram", "short_kernels_summary",
	"coll_analysis",
	/* the multi-rank collective report's (tl-coll), in its order */
	"nccl_summary_implicit_sync", "nccl_summary_long", "nccl_summary_all2allv",
	"nccl_all2allv_heatmap", "nccl_long", "nccl_implicit_sync", "nccl_all2allv",
	"straggler_summary",
};

enum { GROUP_HEAD, GROUP_PERF, GROUP_TAIL, GROUP_OTHER };

struct key {
	int group;
	size_t rank;		/* in head/tail, or the category's index */
	int variant;		/* C, C_kl_overlap, C_fwd, ... C_bwd_kl_overlap */
	char *name;
};

struct cats {
	char **v;
	size_t n, alloc;
};

/* The distinct sheet categories of ops.tsv, in table order. */
static void load_cats(struct cats *c)
{
	char *path = tl_share_path("ops.tsv");
	struct perf_ops *db;

	if (!path)
		return;
	db = perf_ops_load(path);
	for (size_t i = 0; i < perf_ops_count(db); i++) {
		const char *s = perf_ops_at(db, i)->sheet;
		size_t j;
		if (!strcmp(s, "-"))
			continue;
		for (j = 0; j < c->n && strcmp(c->v[j], s); j++)
			;
		if (j < c->n)
			continue;
		xgrow((void **)&c->v, &c->alloc, c->n + 1, sizeof(*c->v));
		c->v[c->n++] = xstrdup(s);
	}
	perf_ops_free(db);
	free(path);
}

static int find(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !memcmp(list[i], s, len))
			return (int)i;
	return -1;
}

/* Strips suffix from the len bytes at s if it is there; 1 if it was. */
static int strip(const char *s, size_t *len, const char *suffix)
{
	size_t n = strlen(suffix);

	if (*len <= n || memcmp(s + *len - n, suffix, n))
		return 0;
	*len -= n;
	return 1;
}

static struct key make_key(char *name, const struct cats *c)
{
	struct key k = { GROUP_OTHER, 0, 0, name };
	size_t len = strlen(name);
	int i, kl, var;

	if ((i = find(head, sizeof(head) / sizeof(*head), name, len)) >= 0)
		return (struct key){ GROUP_HEAD, (size_t)i, 0, name };
	if ((i = find(tail, sizeof(tail) / sizeof(*tail), name, len)) >= 0)
		return (struct key){ GROUP_TAIL, (size_t)i, 0, name };
	kl = strip(name, &len, "_kl_overlap");
	var = strip(name, &len, "_fwd") ? 1 : strip(name, &len, "_bwd") ? 2 : 0;
	i = find((const char *const *)c->v, c->n, name, len);
	if (i >= 0)
		k = (struct key){ GROUP_PERF, (size_t)i, var * 2 + kl, name };
	return k;
}

static int cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->variant != b->variant)
		return a->variant < b->variant ? -1 : 1;
	return strcmp(a->name, b->name);
}

void sheet_order_sort(char **names, size_t n)
{
	struct cats c = { 0 };
	struct key *k;

	if (n < 2)
		return;
	load_cats(&c);
	k = xcalloc(n, sizeof(*k));
	for (size_t i = 0; i < n; i++)
		k[i] = make_key(names[i], &c);
	qsort(k, n, sizeof(*k), cmp_key);
	for (size_t i = 0; i < n; i++)
		names[i] = k[i].name;
	free(k);
	for (size_t i = 0; i < c.n; i++)
		free(c.v[i]);
	free(c.v);
}
