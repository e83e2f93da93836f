#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "xalloc.h"
#include "banned.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

static void rehash(struct hmap *h, size_t cap)
{
	uint64_t *ok = h->keys;
	uint32_t *ov = h->vals;
	size_t ocap = h->cap;

	h->keys = xcalloc(cap, sizeof(*h->keys));
	h->vals = xmalloc(st_mult(cap, sizeof(*h->vals)));
	h->cap = cap;
	h->n = 0;
	for (size_t i = 0; i < ocap; i++)
		if (ok[i])
			hmap_put(h, ok[i], ov[i]);
	free(ok);
	free(ov);
}

void hmap_put(struct hmap *h, uint64_t key, uint32_t val)
{
	size_t i;

	if ((h->n + 1) * 2 > h->cap)
		rehash(h, h->cap ? h->cap * 2 : 16);
	for (i = slot_of(key, h->cap); h->keys[i] && h->keys[i] != key; i = (i + 1) & (h->cap - 1))
		;
	if (!h->keys[i]) {
		h->keys[i] = key;
		h->n++;
	}
	h->vals[i] = val;
}

int hmap_get(const struct hmap *h, uint64_t key, uint32_t *val)
{
	if (!h->cap)
		return 0;
	for (size_t i = slot_of(key, h->cap); h->keys[i]; i = (i + 1) & (h->cap - 1))
		if (h->keys[i] == key) {
			if (val)
				*val = h->vals[i];
			return 1;
		}
	return 0;
}

void hmap_clear(struct hmap *h)
{
	if (h->n)
		memset(h->keys, 0, h->cap * sizeof(*h->keys));
	h->n = 0;
}

void hmap_release(struct hmap *h)
{
	free(h->keys);
	free(h->vals);
	h->keys = NULL;
	h->vals = NULL;
	h->cap = h->n = 0;
}
