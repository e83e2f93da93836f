/*
 * keymap: an open-addressing hash map from a key of three 64-bit words to
 * a 64-bit value, for the one-pass link facts of tl-timeline (flow ids,
 * (pid, tid, correlation) triples).  Entries are 40 bytes; the table
 * doubles at 50% load.
 *
 *	struct keymap m;  keymap_init(&m);
 *	keymap_put(&m, (struct mapkey){ a, b, c }, v);   insert or overwrite
 *	uint64_t *v = keymap_get(&m, key);               NULL if absent
 *	keymap_release(&m);                              frees, m reusable
 */
#ifndef TL_KEYMAP_H
#define TL_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

struct mapkey {
	uint64_t a, b, c;
};

struct keymap {
	struct keyslot *slot;
	size_t cap, n;
};

void keymap_init(struct keymap *m);
void keymap_release(struct keymap *m);
/* Returns the slot's value, inserted as 0 if the key was absent. */
uint64_t *keymap_ref(struct keymap *m, struct mapkey k);
void keymap_put(struct keymap *m, struct mapkey k, uint64_t v);
uint64_t *keymap_get(const struct keymap *m, struct mapkey k);
/* Bytes the table holds, for -v reports. */
size_t keymap_bytes(const struct keymap *m);

#endif
