#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

#define CHUNK (1u << 20)

struct entry {
	const char *s;
	uint32_t len;
	uint32_t hash;		/* pool_hash's low bits: probes and rehash skip the text */
};

struct strpool {
	/* the arena: a list of chunks, bump-allocated */
	char **chunks;
	size_t nr_chunks, alloc_chunks;
	char *cur;
	size_t left;
	size_t bytes;
	/* ids → strings */
	struct entry *ent;
	size_t nr, alloc;
	/* open addressing: slot holds id+1, 0 = empty */
	uint32_t *slot;
	size_t mask;
};

uint64_t tl_hash(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ULL;
	while (len--) {
		h ^= *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/*
 * The last len (< 8) bytes of a string of whole bytes as one word, read by
 * whole-word loads: a byte-wise copy into a word read back at once stalls
 * on store forwarding, and that stall was a quarter of tl-perf's lookups.
 * A string of 8 bytes or more gives its last 8, shifted; a shorter one two
 * overlapping loads (4 to 7 bytes) or three byte loads (1 to 3).  Only
 * equal strings must hash equal, which any function of the bytes does.
 */
static uint64_t pool_tail(const char *s, size_t len, size_t whole)
{
	uint64_t w;
	uint32_t a, b;

	if (!len)
		return 0;
	if (whole >= 8) {
		tl_memcpy(&w, s + len - 8, 8);
		return w >> (64 - 8 * len);
	}
	if (len >= 4) {
		tl_memcpy(&a, s, 4);
		tl_memcpy(&b, s + len - 4, 4);
		return a | (uint64_t)b << 32;
	}
	return (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[len / 2] << 8 |
	       (uint64_t)(unsigned char)s[len - 1] << 16;
}

/*
 * Ids and correlations interned as text ("123456") are mostly counted
 * up, a million of them in a big trace: hashed at random, each intern
 * would miss the cache in the slot table.  A plain decimal of up to nine
 * digits hashes by runs of 256 values: a run's base at random (a
 * multiple of the run number), the value's place in it four times its
 * offset.  Ids counted up then take every fourth slot of a stretch, whose
 * lines stay warm; ids a power of two apart still land all over the
 * table.  Every other slot was too dense: two runs whose stretches met
 * (External ids and correlations both count up) filled a stretch whole,
 * and a lookup there probed 14 slots on average on owlv2's event stream
 * (its names, ids and correlations); every fourth, 0.74.
 * 1 and the hash for such a text, else 0.
 */
static int decimal_hash(const char *s, size_t len, uint64_t *h)
{
	uint64_t x = 0;

	if (len - 1 >= 9 || s[0] < '1' || s[0] > '9')
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - (unsigned)'0';
		if (d > 9)
			return 0;
		x = x * 10 + d;
	}
	*h = ((x >> 8) * UINT64_C(0x9e3779b97f4a7c15) >> 24) + 4 * (x & 255);
	return 1;
}

/*
 * The pool's own hash, eight bytes a step (FNV-1a's byte steps were most
 * of the cost of interning long args strings).  Only this table's probe
 * order depends on it: ids are handed out in order of first intern.
 */
static uint64_t pool_hash(const char *s, size_t len)
{
	const uint64_t k = UINT64_C(0xbf58476d1ce4e5b9);
	uint64_t h = (uint64_t)len * UINT64_C(0x9e3779b97f4a7c15), w;
	size_t whole = len;

	if (decimal_hash(s, len, &w))
		return w;
	for (; len >= 8; s += 8, len -= 8) {
		tl_memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 31;
	}
	w = pool_tail(s, len, whole);
	h = (h ^ w) * k;
	h ^= h >> 29;
	h *= UINT64_C(0x94d049bb133111eb);
	return h ^ (h >> 32);
}

static char *arena_alloc(struct strpool *sp, size_t n)
{
	char *p;

	if (n > sp->left) {
		size_t sz = n > CHUNK ? n : CHUNK;
		xgrow((void **)&sp->chunks, &sp->alloc_chunks, sp->nr_chunks + 1,
		      sizeof(*sp->chunks));
		sp->cur = sp->chunks[sp->nr_chunks++] = xmalloc(sz);
		sp->left = sz;
		sp->bytes += sz;
	}
	p = sp->cur;
	sp->cur += n;
	sp->left -= n;
	return p;
}

static void rehash(struct strpool *sp)
{
	size_t size = (sp->mask + 1) * 2, i;

	free(sp->slot);
	sp->slot = xcalloc(size, sizeof(*sp->slot));
	sp->mask = size - 1;
	for (i = 0; i < sp->nr; i++) {
		size_t h = sp->ent[i].hash & sp->mask;
		while (sp->slot[h])
			h = (h + 1) & sp->mask;
		sp->slot[h] = (uint32_t)i + 1;
	}
}

struct strpool *strpool_new(void)
{
	struct strpool *sp = xcalloc(1, sizeof(*sp));
	sp->mask = 1023;
	sp->slot = xcalloc(sp->mask + 1, sizeof(*sp->slot));
	strpool_intern(sp, "", 0);
	return sp;
}

void strpool_free(struct strpool *sp)
{
	size_t i;

	if (!sp)
		return;
	for (i = 0; i < sp->nr_chunks; i++)
		free(sp->chunks[i]);
	free(sp->chunks);
	free(sp->ent);
	free(sp->slot);
	free(sp);
}

/* The slot of s: its id + 1, or 0 where s would go.  *hash: its hash. */
static size_t lookup(const struct strpool *sp, const char *s, size_t len, uint32_t *hash)
{
	uint32_t full = (uint32_t)pool_hash(s, len);
	size_t h = full & sp->mask;

	*hash = full;
	for (;;) {
		uint32_t id = sp->slot[h];
		const struct entry *e;
		if (!id)
			return h;
		e = &sp->ent[id - 1];
		if (e->hash == full && e->len == len && !memcmp(e->s, s, len))
			return h;
		h = (h + 1) & sp->mask;
	}
}

uint32_t strpool_find(const struct strpool *sp, const char *s, size_t len)
{
	uint32_t hash, id = sp->slot[lookup(sp, s, len, &hash)];
	return id ? id - 1 : UINT32_MAX;
}

uint32_t strpool_intern(struct strpool *sp, const char *s, size_t len)
{
	uint32_t hash;
	size_t h = lookup(sp, s, len, &hash);
	char *copy;

	if (sp->slot[h])
		return sp->slot[h] - 1;
	copy = arena_alloc(sp, len + 1);
	tl_memcpy(copy, s, len);
	copy[len] = '\0';
	xgrow((void **)&sp->ent, &sp->alloc, sp->nr + 1, sizeof(*sp->ent));
	sp->ent[sp->nr].s = copy;
	sp->ent[sp->nr].len = (uint32_t)len;
	sp->ent[sp->nr].hash = hash;
	sp->slot[h] = (uint32_t)++sp->nr;
	if (sp->nr * 2 > sp->mask)
		rehash(sp);
	return (uint32_t)sp->nr - 1;
}

const char *strpool_str(const struct strpool *sp, uint32_t id)
{
	return sp->ent[id].s;
}

size_t strpool_len(const struct strpool *sp, uint32_t id)
{
	return sp->ent[id].len;
}

uint32_t strpool_count(const struct strpool *sp)
{
	return (uint32_t)sp->nr;
}

size_t strpool_bytes(const struct strpool *sp)
{
	return sp->bytes + sp->alloc * sizeof(*sp->ent) +
	       (sp->mask + 1) * sizeof(*sp->slot);
}
