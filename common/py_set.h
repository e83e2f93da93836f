/*
 * py_set: CPython 3.11's set of small non-negative ints, slot for slot, so
 * that iterating it gives Python's order (TraceLens iterates sets of event
 * UIDs and prints what comes out: overlapping kernels).
 *
 *	struct py_set s;
 *	py_set_init(&s);
 *	py_set_add(&s, 42);  py_set_discard(&s, 42);
 *	for (size_t i = 0; py_set_next(&s, &i, &v); ) use v;
 *	py_set_release(&s);
 *
 * An int hashes to itself; the table starts at 8 slots, probes 9 slots
 * linearly then perturbs (PERTURB_SHIFT 5), reuses the last dummy seen on
 * the way to a free slot, grows when fill*5 >= mask*3 to the smallest
 * power of two above used*4 (used*2 past 50000), reinserting in slot
 * order; discard leaves a dummy.  tests/unit checks the order against
 * python3 for random add/discard sequences.
 */
#ifndef TL_PY_SET_H
#define TL_PY_SET_H

#include <stddef.h>
#include <stdint.h>

struct py_set {
	int64_t *slot;		/* -1 unused, -2 dummy, else the key */
	size_t mask, fill, used;
	int64_t small[8];
};

void py_set_init(struct py_set *s);
void py_set_add(struct py_set *s, int64_t key);
void py_set_discard(struct py_set *s, int64_t key);
int py_set_has(const struct py_set *s, int64_t key);
/* next key at or after *pos, in slot order; 0 at the end */
int py_set_next(const struct py_set *s, size_t *pos, int64_t *key);
size_t py_set_len(const struct py_set *s);
void py_set_release(struct py_set *s);

#endif
