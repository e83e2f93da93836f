#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "perf_model_memo.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A bound on what is remembered: a trace whose ops rarely repeat would
 * otherwise grow the memo with the trace (tl-perf's memory is kept per
 * event); past it, answers are computed every time, as without a memo.
 */
enum { MEMO_MAX = 1 << 15, NKEY = 8 };

struct memo_ent {
	const void *key[NKEY];
	const char **kern;
	size_t nk;
	int bwd;
	struct pm_result r;
};

static struct hmap memo_index;	/* key hash -> entry + 1 */
static struct memo_ent *ent;
static size_t nent, aent;

static void key_of(const struct perf_ops_entry *e, const struct pm_args *a,
		   const void **key)
{
	key[0] = e;
	key[1] = a->dims;
	key[2] = a->types;
	key[3] = a->strides;
	key[4] = a->concrete;
	key[5] = a->annotation;
	key[6] = a->opname;
	key[7] = a->args;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
	h ^= h >> 31;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	return h ^ (h >> 29);
}

static uint64_t hash_of(const void *const *key, const char *const *kern, size_t nk, int bwd)
{
	uint64_t h = mix((uint64_t)nk, (uint64_t)bwd);

	for (int i = 0; i < NKEY; i++)
		h = mix(h, (uint64_t)(uintptr_t)key[i]);
	for (size_t i = 0; i < nk; i++)
		h = mix(h, (uint64_t)(uintptr_t)kern[i]);
	return h;
}

static int same(const struct memo_ent *m, const void *const *key, const char *const *kern,
		size_t nk, int bwd)
{
	if (m->nk != nk || m->bwd != bwd)
		return 0;
	for (int i = 0; i < NKEY; i++)
		if (m->key[i] != key[i])
			return 0;
	for (size_t i = 0; i < nk; i++)
		if (m->kern[i] != kern[i])
			return 0;
	return 1;
}

/* A result that owns its own copies (params point at interned texts). */
static void result_copy(struct pm_result *d, const struct pm_result *s)
{
	*d = *s;
	d->why = s->why ? xstrdup(s->why) : NULL;
	d->param = NULL;
	d->aparam = s->nparam;
	if (s->nparam) {
		d->param = xmalloc(st_mult(s->nparam, sizeof(*d->param)));
		tl_memcpy(d->param, s->param, s->nparam * sizeof(*d->param));
	}
}

void perf_model_memo_compute(const struct perf_ops_entry *e, const struct pm_args *a,
			     const char *const *kernels, size_t nkernels, int bwd,
			     struct pm_result *r)
{
	const void *key[NKEY];
	uint64_t h;
	uint32_t at;
	int found;
	struct memo_ent *m;

	key_of(e, a, key);
	h = hash_of(key, kernels, nkernels, bwd);
	found = hmap_get(&memo_index, h, &at);
	if (found && same(&ent[at - 1], key, kernels, nkernels, bwd)) {
		result_copy(r, &ent[at - 1].r);
		return;
	}
	perf_model_compute(e, a, kernels, nkernels, bwd, r);
	/* a hash shared by two keys: the second is computed every time */
	if (found || nent >= MEMO_MAX)
		return;
	xgrow((void **)&ent, &aent, nent + 1, sizeof(*ent));
	m = &ent[nent++];
	tl_memcpy(m->key, key, sizeof(key));
	m->nk = nkernels;
	m->bwd = bwd;
	m->kern = NULL;
	if (nkernels) {
		m->kern = xmalloc(st_mult(nkernels, sizeof(*m->kern)));
		tl_memcpy(m->kern, kernels, nkernels * sizeof(*m->kern));
	}
	result_copy(&m->r, r);
	hmap_put(&memo_index, h, (uint32_t)nent);
}

void perf_model_memo_free(void)
{
	for (size_t i = 0; i < nent; i++) {
		free(ent[i].kern);
		pm_result_release(&ent[i].r);
	}
	free(ent);
	ent = NULL;
	nent = aent = 0;
	hmap_release(&memo_index);
}
