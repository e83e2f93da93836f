/*
 * hmap: a small open-addressing hash map from 64-bit keys to 32-bit
 * values (tl-tree's thread/link map, tl-diff's sets and memo tables).
 * Every key can be put, 0 too: an empty slot holds 0, so key 0's value is
 * kept beside the table (a key made of an int64 with its sign bit
 * flipped is 0 for INT64_MIN, which a time of inf turns into).
 *
 *	struct hmap h = HMAP_INIT;
 *	hmap_put(&h, key, val);
 *	if (hmap_get(&h, key, &val)) ...
 *	hmap_clear(&h);  hmap_release(&h);
 */
#ifndef TL_HMAP_H
#define TL_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct hmap {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap, n;		/* n: the keys in the table (key 0 is not) */
	int has_zero;		/* key 0 was put: its value */
	uint32_t zero_val;
};

#define HMAP_INIT { NULL, NULL, 0, 0, 0, 0 }

void hmap_put(struct hmap *h, uint64_t key, uint32_t val);
/* Room for n more keys without growing: for a map filled in one go, the
 * doublings' rehashes (half the work of filling it) and their peak RSS
 * saved. */
void hmap_reserve(struct hmap *h, size_t n);
int hmap_get(const struct hmap *h, uint64_t key, uint32_t *val);
void hmap_clear(struct hmap *h);
void hmap_release(struct hmap *h);

#endif
