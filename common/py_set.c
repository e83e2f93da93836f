#include <stdlib.h>
#include <string.h>

#include "py_set.h"
#include "xalloc.h"
#include "banned.h"

enum { UNUSED = -1, DUMMY = -2, LINEAR_PROBES = 9, PERTURB_SHIFT = 5, MINSIZE = 8 };

void py_set_init(struct py_set *s)
{
	memset(s, 0, sizeof(*s));
	s->slot = s->small;
	s->mask = MINSIZE - 1;
	for (int i = 0; i < MINSIZE; i++)
		s->small[i] = UNUSED;
}

void py_set_release(struct py_set *s)
{
	if (s->slot != s->small)
		free(s->slot);
	py_set_init(s);
}

/* set_insert_clean: the key is absent and the table has no dummies */
static void insert_clean(int64_t *t, size_t mask, int64_t key)
{
	size_t perturb = (size_t)key, i = (size_t)key & mask;

	for (;;) {
		if (t[i] == UNUSED) {
			t[i] = key;
			return;
		}
		if (i + LINEAR_PROBES <= mask)
			for (size_t j = 1; j <= LINEAR_PROBES; j++)
				if (t[i + j] == UNUSED) {
					t[i + j] = key;
					return;
				}
		perturb >>= PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
}

static void resize(struct py_set *s, size_t minused)
{
	size_t newsize = MINSIZE, oldn = s->mask + 1;
	int64_t *old = s->slot, *copy = NULL, *t;

	while (newsize <= minused)
		newsize <<= 1;
	if (newsize == MINSIZE) {
		if (old == s->small && s->fill == s->used)
			return;	/* no dummies: nothing to do */
		if (old == s->small) {
			copy = xmalloc(sizeof(s->small));
			memcpy(copy, s->small, sizeof(s->small));
			old = copy;
		}
		t = s->small;
	} else {
		t = xmalloc(st_mult(newsize, sizeof(*t)));
	}
	for (size_t i = 0; i < newsize; i++)
		t[i] = UNUSED;
	s->slot = t;
	s->mask = newsize - 1;
	s->fill = s->used;
	for (size_t i = 0; i < oldn; i++)
		if (old[i] >= 0)
			insert_clean(t, s->mask, old[i]);
	if (old != s->small && old != t)
		free(old);
}

void py_set_add(struct py_set *s, int64_t key)
{
	size_t mask = s->mask, i = (size_t)key & mask, perturb = (size_t)key;
	int64_t *free_slot = NULL, *e;

	for (;;) {
		size_t probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
		e = &s->slot[i];
		for (;;) {
			if (*e == UNUSED)
				goto found_unused_or_dummy;
			if (*e == key)
				return;
			if (*e == DUMMY)	/* the last dummy on the way */
				free_slot = e;
			if (!probes--)
				break;
			e++;
		}
		perturb >>= PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
found_unused_or_dummy:
	if (free_slot) {
		s->used++;
		*free_slot = key;
		return;
	}
	s->fill++;
	s->used++;
	*e = key;
	if (s->fill * 5 < mask * 3)
		return;
	resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
}

static int64_t *lookup(const struct py_set *s, int64_t key)
{
	size_t mask = s->mask, i = (size_t)key & mask, perturb = (size_t)key;

	for (;;) {
		size_t probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
		int64_t *e = &s->slot[i];
		for (;;) {
			if (*e == UNUSED)
				return NULL;
			if (*e == key)
				return e;
			if (!probes--)
				break;
			e++;
		}
		perturb >>= PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
}

void py_set_discard(struct py_set *s, int64_t key)
{
	int64_t *e = lookup(s, key);

	if (e) {
		*e = DUMMY;
		s->used--;
	}
}

int py_set_has(const struct py_set *s, int64_t key)
{
	return lookup(s, key) != NULL;
}

int py_set_next(const struct py_set *s, size_t *pos, int64_t *key)
{
	for (size_t i = *pos; i <= s->mask; i++)
		if (s->slot[i] >= 0) {
			*key = s->slot[i];
			*pos = i + 1;
			return 1;
		}
	*pos = s->mask + 1;
	return 0;
}

size_t py_set_len(const struct py_set *s)
{
	return s->used;
}
