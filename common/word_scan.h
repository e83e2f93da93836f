#ifndef TL_WORD_SCAN_H
#define TL_WORD_SCAN_H
/*
 * Eight bytes at a time (SWAR), for the writers' "does this field need
 * quoting or escaping" scans: x - 0x01.. & ~x & 0x80.. is nonzero exactly
 * when some byte of x is below 1.  Yes/no answers, not which byte.
 */
#include <stdint.h>

/* Nonzero when a byte of w is below n (n <= 128). */
static inline uint64_t word_any_below(uint64_t w, unsigned n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);

	return (w - ones * n) & ~w & (ones * 0x80);
}

/* Nonzero when a byte of w equals c. */
static inline uint64_t word_any_equal(uint64_t w, unsigned char c)
{
	return word_any_below(w ^ (UINT64_C(0x0101010101010101) * c), 1);
}

#endif
