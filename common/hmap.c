#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Keys are mostly ids counted up (correlations, links, uids), hundreds of
 * thousands of them: hashed at random, each get and put is a cache miss.
 * So a key's run of 256 values gets a base at random (murmur's finalizer
 * of the run number) and the key its place in it, twice its offset: keys
 * counted up fill every other slot of a stretch that stays warm, and keys
 * 256 or a power of two apart still spread over the table.
 */
static size_t slot_of(uint64_t key, size_t cap)
{
	uint64_t run = key >> 8;

	run ^= run >> 33;
	run *= 0xff51afd7ed558ccdULL;
	run ^= run >> 33;
	return (size_t)(run + 2 * (key & 255)) & (cap - 1);
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

	if (!key) {
		h->has_zero = 1;
		h->zero_val = val;
		return;
	}
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

void hmap_reserve(struct hmap *h, size_t n)
{
	size_t cap = h->cap ? h->cap : 16;

	while (st_mult(st_add(h->n, n), 2) > cap)
		cap = st_mult(cap, 2);
	if (cap != h->cap)
		rehash(h, cap);
}

int hmap_get(const struct hmap *h, uint64_t key, uint32_t *val)
{
	if (!key) {
		if (h->has_zero && val)
			*val = h->zero_val;
		return h->has_zero;
	}
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
	h->has_zero = 0;
}

void hmap_release(struct hmap *h)
{
	free(h->keys);
	free(h->vals);
	h->keys = NULL;
	h->vals = NULL;
	h->cap = h->n = 0;
	h->has_zero = 0;
}
