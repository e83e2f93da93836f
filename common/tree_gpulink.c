#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree_gpulink.h"
#include "keymap.h"
#include "xalloc.h"
#include "banned.h"

/* Flags of a link value in the runtime map. */
enum { RT_LAUNCH = 1, RT_GRAPH = 2 };

/* In the last-event map: a non-GPU event came after the last GPU event. */
#define SHADOWED UINT64_MAX

struct tree_gpulink {
	int key;		/* -1 until decided, then GPULINK_* */
	struct keymap start;	/* flow id -> 1 (an "s" exists) */
	struct keymap finish;	/* flow id -> pid << 32 | tid of the last "f" */
	/*
	 * Per candidate key: link value -> RT_* flags, and (value, pid, tid)
	 * -> uid of the last GPU event, or SHADOWED.  Both keys are kept until the first
	 * launch decides which one TraceLens uses; the other is then freed.
	 */
	struct keymap runtime[2], last[2];
};

struct linkval linkval_parse(const char *s)
{
	struct linkval lv = { 0, LINKVAL_NONE };
	const char *p = s + (*s == '-');
	char *end;
	double d;

	if (!*s || *s == '"')
		return lv;
	if (*p >= '0' && *p <= '9' && !p[strspn(p, "0123456789")]) {
		long long v;
		errno = 0;
		v = strtoll(s, &end, 10);
		if (!errno && !*end) {
			lv.v = (uint64_t)v;
			lv.kind = LINKVAL_INT;
			return lv;
		}
	}
	d = strtod(s, &end);
	if (*end || end == s || isnan(d))
		return lv;
	/* Python: 8218 == 8218.0, and equal numbers are the same dict key */
	if (d == floor(d) && d >= -0x1p63 && d < 0x1p63) {
		lv.v = (uint64_t)(int64_t)d;
		lv.kind = LINKVAL_INT;
	} else {
		tl_memcpy(&lv.v, &d, sizeof(d));
		lv.kind = LINKVAL_FLOAT;
	}
	return lv;
}

struct tree_gpulink *tree_gpulink_new(void)
{
	struct tree_gpulink *g = xcalloc(1, sizeof(*g));

	g->key = -1;
	return g;
}

void tree_gpulink_free(struct tree_gpulink *g)
{
	if (!g)
		return;
	keymap_release(&g->start);
	keymap_release(&g->finish);
	for (int k = 0; k < 2; k++) {
		keymap_release(&g->runtime[k]);
		keymap_release(&g->last[k]);
	}
	free(g);
}

static struct mapkey valkey(const struct linkval *v)
{
	return (struct mapkey){ (uint64_t)v->kind, v->v, 0 };
}

static struct mapkey placekey(const struct linkval *v, uint32_t pid, uint32_t tid)
{
	return (struct mapkey){ (uint64_t)v->kind, v->v, (uint64_t)pid << 32 | tid };
}

static int is_runtime(const char *cat)
{
	return !strcmp(cat, "cuda_runtime") || !strcmp(cat, "cuda_driver");
}

/* "launch" in name.lower(): only ASCII letters can lower to "launch". */
static int has_launch(const char *name)
{
	for (const char *p = name; *p; p++)
		if (!strncasecmp(p, "launch", 6))
			return 1;
	return 0;
}

/* TraceLens: "correlation" in the first launch's args, whatever its value. */
static int has_correlation(const struct tree_gpulink_row *r)
{
	return r->corr.kind != LINKVAL_NONE ||
	       strstr(r->args, "{\"correlation\":") ||
	       strstr(r->args, ",\"correlation\":");
}

static void decide(struct tree_gpulink *g, int key)
{
	g->key = key;
	keymap_release(&g->runtime[!key]);
	keymap_release(&g->last[!key]);
}

static void flow(struct tree_gpulink *g, const struct tree_gpulink_row *r)
{
	if (r->id.kind == LINKVAL_NONE || !r->ph[0] || r->ph[1])
		return;
	if (r->ph[0] == 's')
		keymap_put(&g->start, valkey(&r->id), 1);
	else if (r->ph[0] == 'f')
		keymap_put(&g->finish, valkey(&r->id),
			   (uint64_t)r->pid << 32 | r->tid);
}

static void index_key(struct tree_gpulink *g, int k, const struct tree_gpulink_row *r,
		      const struct linkval *v, int runtime)
{
	if (v->kind == LINKVAL_NONE)
		return;
	if (runtime)
		*keymap_ref(&g->runtime[k], valkey(v)) |=
			!strcmp(r->name, "cudaGraphLaunch") ||
			!strcmp(r->name, "hipGraphLaunch") ? RT_GRAPH : RT_LAUNCH;
	if (r->pid == TREE_GPULINK_NONE || r->tid == TREE_GPULINK_NONE)
		return;
	/*
	 * TraceLens maps (pid, tid, value) to the last event of any category,
	 * but only GPU events are ever asked about: keep their keys alone,
	 * and let a later event of another category mark its key shadowed.
	 */
	if (r->gpu) {
		keymap_put(&g->last[k], placekey(v, r->pid, r->tid), r->uid);
	} else {
		uint64_t *last = keymap_get(&g->last[k], placekey(v, r->pid, r->tid));
		if (last)
			*last = SHADOWED;
	}
}

void tree_gpulink_event(struct tree_gpulink *g, const struct tree_gpulink_row *r)
{
	int runtime;

	if (!strcmp(r->cat, "ac2g")) {
		flow(g, r);
		return;
	}
	runtime = is_runtime(r->cat);
	if (runtime && g->key < 0 && has_launch(r->name))
		decide(g, has_correlation(r) ? TREE_GPULINK_CORRELATION : TREE_GPULINK_EXTERNAL_ID);
	if (g->key != TREE_GPULINK_EXTERNAL_ID)
		index_key(g, TREE_GPULINK_CORRELATION, r, &r->corr, runtime);
	if (g->key != TREE_GPULINK_CORRELATION)
		index_key(g, TREE_GPULINK_EXTERNAL_ID, r, &r->ext, runtime);
}

void tree_gpulink_finish(struct tree_gpulink *g)
{
	/* no launch at all: TraceLens falls back to External id */
	if (g->key < 0)
		decide(g, TREE_GPULINK_EXTERNAL_ID);
}

int tree_gpulink_key(const struct tree_gpulink *g)
{
	return g->key;
}

int tree_gpulink_linked(const struct tree_gpulink *g, uint64_t uid, uint32_t pid,
		   uint32_t tid, const struct linkval *corr,
		   const struct linkval *ext)
{
	const struct linkval *c = g->key == TREE_GPULINK_CORRELATION ? corr : ext;
	const uint64_t *rt, *f, *last;

	if (c->kind == LINKVAL_NONE)
		return 0;
	rt = keymap_get(&g->runtime[g->key], valkey(c));
	if (!rt)
		return 0;
	if (*rt & RT_GRAPH)
		return 1;
	if (!keymap_get(&g->start, valkey(c)))
		return 0;
	f = keymap_get(&g->finish, valkey(c));
	if (!f || *f != ((uint64_t)pid << 32 | tid))
		return 0;
	last = keymap_get(&g->last[g->key], placekey(c, pid, tid));
	return last && *last == uid;
}

size_t tree_gpulink_bytes(const struct tree_gpulink *g)
{
	size_t n = keymap_bytes(&g->start) + keymap_bytes(&g->finish);

	for (int k = 0; k < 2; k++)
		n += keymap_bytes(&g->runtime[k]) + keymap_bytes(&g->last[k]);
	return n;
}
