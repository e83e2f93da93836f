/*
 * json_block: the byte classes of 64 bytes of JSON text as bit masks (bit i
 * for byte i), and the copy of a block's kept bytes, for json_scan's
 * structural scanner (the simdjson way: the masks, a prefix XOR of the
 * quotes for the bytes inside strings, then a walk over the few bits that
 * matter instead of over the bytes).
 *
 * Several paths compute the same masks: a portable byte loop, SSE2 (always
 * there on x86-64), AVX2 and AVX-512 (when the CPU has them, asked at run
 * time; AVX-512 here means BW for the 64-byte compares into masks and VBMI2
 * for the one-instruction compact copy).  The
 * scanner may also use no masks at all and walk the bytes (JSON_BLOCK_SCALAR):
 * the reference the others are tested against, and the default without
 * SSE2, where it beats masks made a byte at a time (the portable path is
 * there so that the mask logic is tested on every machine).  TL_JSON_SCAN=scalar,
 * portable, sse2, avx2 or avx512 forces a path (tests compare their bytes).
 */
#ifndef TL_JSON_BLOCK_H
#define TL_JSON_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#define JSON_BLOCK 64

enum {
	JSON_BLOCK_SCALAR, JSON_BLOCK_PORTABLE, JSON_BLOCK_SSE2, JSON_BLOCK_AVX2,
	JSON_BLOCK_AVX512
};

struct json_block {
	uint64_t quote;		/* '"' */
	uint64_t bslash;	/* '\\' */
	uint64_t ws;		/* ' ', '\t', '\n', '\r' */
	uint64_t ctl;		/* bytes below 0x20 */
	uint64_t open;		/* '{' or '[' */
	uint64_t close;		/* '}' or ']' */
	uint64_t punct;		/* ',' or ':' */
};

/*
 * The path to use: TL_JSON_SCAN's when set (and the CPU has it), else the
 * fastest the CPU has.  Chosen once; json_block_use changes it (tests).
 */
int json_block_path(void);
/* Use PATH from now on: 0, or -1 when this build or CPU lacks it. */
int json_block_use(int path);
const char *json_block_name(int path);

/* The masks of b[0..63] with the current path (not JSON_BLOCK_SCALAR). */
void json_block_classify(const unsigned char *b, struct json_block *k);

/*
 * Copy the bytes of b[0..63] whose bit is set in keep to o, in order;
 * returns how many.  May write up to JSON_BLOCK bytes past the copy's end
 * (o needs that much room), and reads b[0..63] only.
 */
size_t json_block_compact(char *o, const unsigned char *b, uint64_t keep);

/*
 * The bits of mask at the bytes set in keep, packed in the order
 * json_block_compact packs the bytes (BMI2's pext on the AVX2 and AVX-512
 * paths, a loop on the others): a mask in the compact copy's coordinates.
 */
uint64_t json_block_pack(uint64_t mask, uint64_t keep);

/* For each bit, the XOR of it and all bits below it: the bytes from an
 * opening quote up to (not with) its closing one. */
static inline uint64_t json_block_prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

#endif
