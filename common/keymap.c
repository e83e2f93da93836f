#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "xalloc.h"
#include "banned.h"

struct keyslot {
	struct mapkey k;
	uint64_t v;
	uint64_t used;		/* a flag word, so that every value is storable */
};

void keymap_init(struct keymap *m)
{
	m->slot = NULL;
	m->cap = m->n = 0;
}

void keymap_release(struct keymap *m)
{
	free(m->slot);
	keymap_init(m);
}

/* splitmix64's finaliser: cheap and mixes every input bit. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static size_t hash(struct mapkey k)
{
	return (size_t)mix(k.a ^ mix(k.b ^ mix(k.c)));
}

static int same(struct mapkey x, struct mapkey y)
{
	return x.a == y.a && x.b == y.b && x.c == y.c;
}

static struct keyslot *find(const struct keymap *m, struct mapkey k)
{
	size_t i = hash(k) & (m->cap - 1);

	while (m->slot[i].used && !same(m->slot[i].k, k))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

static void grow(struct keymap *m)
{
	struct keymap old = *m;

	m->cap = old.cap ? st_mult(old.cap, 2) : 64;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i].used) {
			*find(m, old.slot[i].k) = old.slot[i];
			m->n++;
		}
	free(old.slot);
}

uint64_t *keymap_ref(struct keymap *m, struct mapkey k)
{
	struct keyslot *s;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	s = find(m, k);
	if (!s->used) {
		s->used = 1;
		s->k = k;
		s->v = 0;
		m->n++;
	}
	return &s->v;
}

void keymap_put(struct keymap *m, struct mapkey k, uint64_t v)
{
	*keymap_ref(m, k) = v;
}

uint64_t *keymap_get(const struct keymap *m, struct mapkey k)
{
	struct keyslot *s;

	if (!m->cap)
		return NULL;
	s = find(m, k);
	return s->used ? &s->v : NULL;
}

size_t keymap_bytes(const struct keymap *m)
{
	return m->cap * sizeof(*m->slot);
}
