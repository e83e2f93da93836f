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
 * for the one-instruction compact copy; both also take BMI2, whose shifts
 * the compiler uses, and PCLMUL's carry-less multiply for the prefix XOR).  The
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
	uint64_t ws;		/* ' ', '\t', '\n', '\r' */
	uint64_t bracket;	/* '{', '[', '}' or ']' (an opening one has bit 1 set) */
	uint64_t syntax;	/* not a primitive's byte: ws, quotes, brackets, ',' ':' */
	/*
	 * '\\' or a byte below 0x20: the block goes by the bytes unless each
	 * is white space outside strings (a backslash, a control byte in a
	 * string or a bad one anywhere needs the byte walk)
	 */
	uint64_t special;
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
 * The AVX2 and AVX-512 paths' own functions, inline, for a loop compiled
 * for that path (json_scan's block loop: through the pointers above, a
 * call a block for each of the three cost about 5 % of tl-cat).  Call
 * them only where json_block_path() says the CPU has the path.
 */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#define JSON_BLOCK_HAVE_AVX 1
#define JSON_BLOCK_AVX2_TARGET "avx2,bmi2,popcnt,pclmul"
#define JSON_BLOCK_AVX512_TARGET "avx512f,avx512bw,avx512vbmi2,bmi2,popcnt,pclmul"

/* For each byte of keep, the shuffle that packs its kept bytes first. */
extern unsigned char json_block_shuffle[256][8];

__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline uint64_t json_block_mask32(__m256i m)
{
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(m);
}

/*
 * The constants of json_block_classify_avx2, in memory (filled when the
 * path is chosen): the compares take them as operands, where constants
 * made in registers were made again for every block (the scanner's loop
 * calls out, and calls clobber the vector registers).
 */
struct json_block_avx2_k {
	unsigned char quote[32], bslash[32], c1f[32], c20[32], lbrace[32], rbrace[32];
	unsigned char comma[32], colon[32], ws_tab[32];
} __attribute__((aligned(32)));
extern struct json_block_avx2_k json_block_avx2_k;

__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline __m256i json_block_k32(const unsigned char *k)
{
	return _mm256_load_si256((const __m256i *)(const void *)k);
}

/* The classes of 32 bytes, as byte masks. */
struct json_block_half {
	__m256i quote, ws, bracket, syntax, special;
};

/*
 * White space by one lookup: the table holds, at each low nibble, the
 * white space byte with that nibble (' ' 0x20, '\t' 0x09, '\n' 0x0a,
 * '\r' 0x0d) and elsewhere 0xff; a byte is white space when the lookup
 * gives it back (a byte with its top bit set looks up 0).
 */
__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline void json_block_half_avx2(const unsigned char *b, struct json_block_half *h)
{
	const struct json_block_avx2_k *K = &json_block_avx2_k;
	__m256i v = _mm256_loadu_si256((const __m256i *)b);
	__m256i c1f = json_block_k32(K->c1f);
	__m256i low = _mm256_or_si256(v, json_block_k32(K->c20));
	__m256i punct = _mm256_or_si256(_mm256_cmpeq_epi8(v, json_block_k32(K->comma)),
					_mm256_cmpeq_epi8(v, json_block_k32(K->colon)));

	h->quote = _mm256_cmpeq_epi8(v, json_block_k32(K->quote));
	h->ws = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(json_block_k32(K->ws_tab), v), v);
	h->special = _mm256_or_si256(_mm256_cmpeq_epi8(v, json_block_k32(K->bslash)),
				     _mm256_cmpeq_epi8(_mm256_max_epu8(v, c1f), c1f));
	h->bracket = _mm256_or_si256(_mm256_cmpeq_epi8(low, json_block_k32(K->lbrace)),
				     _mm256_cmpeq_epi8(low, json_block_k32(K->rbrace)));
	h->syntax = _mm256_or_si256(_mm256_or_si256(h->ws, h->quote),
				    _mm256_or_si256(h->bracket, punct));
}

/* The masks of two halves' byte masks. */
__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline uint64_t json_block_mask64(__m256i lo, __m256i hi)
{
	return json_block_mask32(lo) | json_block_mask32(hi) << 32;
}

__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline void json_block_classify_avx2(const unsigned char *b, struct json_block *k)
{
	struct json_block_half l, h;

	json_block_half_avx2(b, &l);
	json_block_half_avx2(b + 32, &h);
	k->quote = json_block_mask64(l.quote, h.quote);
	k->ws = json_block_mask64(l.ws, h.ws);
	k->bracket = json_block_mask64(l.bracket, h.bracket);
	k->syntax = json_block_mask64(l.syntax, h.syntax);
	k->special = json_block_mask64(l.special, h.special);
}

/* Eight bytes at a time: one shuffle packs the kept ones. */
__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline size_t json_block_compact_avx2(char *o, const unsigned char *b, uint64_t keep)
{
	size_t m = 0;

#pragma GCC unroll 8
	for (int l = 0; l < JSON_BLOCK / 8; l++) {
		unsigned mb = (unsigned)(keep >> (8 * l)) & 0xff;
		__m128i x = _mm_loadl_epi64((const __m128i *)(b + 8 * l));
		__m128i s = _mm_loadl_epi64((const __m128i *)json_block_shuffle[mb]);

		_mm_storel_epi64((__m128i *)(o + m), _mm_shuffle_epi8(x, s));
		m += (size_t)__builtin_popcount(mb);
	}
	return m;
}

/* json_block_prefix_xor in one carry-less multiply by all ones. */
__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static inline uint64_t json_block_prefix_xor_clmul(uint64_t x)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(
		_mm_set_epi64x(0, (long long)x), _mm_set1_epi8((char)0xff), 0));
}

/*
 * AVX-512: the whole block in one register, each class a compare straight
 * into a mask register (no movemask, no shifts), and the compact copy one
 * vpcompressb (VBMI2) into a register and one 64-byte store: AVX2 needed
 * eight shuffles and a table for it.  The store goes to a register first,
 * not to memory, because vpcompressb's memory form is slow on some CPUs.
 */
__attribute__((target(JSON_BLOCK_AVX512_TARGET)))
static inline uint64_t json_block_eq512(__m512i v, char c)
{
	return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c));
}

__attribute__((target(JSON_BLOCK_AVX512_TARGET)))
static inline void json_block_classify_avx512(const unsigned char *b, struct json_block *k)
{
	__m512i v = _mm512_loadu_si512((const void *)b);
	__m512i low = _mm512_or_si512(v, _mm512_set1_epi8(0x20));

	k->quote = json_block_eq512(v, '"');
	k->ws = json_block_eq512(v, ' ') | json_block_eq512(v, '\n') |
		json_block_eq512(v, '\t') | json_block_eq512(v, '\r');
	k->bracket = json_block_eq512(low, '{') | json_block_eq512(low, '}');
	k->syntax = k->ws | k->quote | k->bracket | json_block_eq512(v, ',') |
		    json_block_eq512(v, ':');
	k->special = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20)) |
		     json_block_eq512(v, '\\');
}

__attribute__((target(JSON_BLOCK_AVX512_TARGET)))
static inline size_t json_block_compact_avx512(char *o, const unsigned char *b, uint64_t keep)
{
	__m512i v = _mm512_loadu_si512((const void *)b);

	_mm512_storeu_si512((void *)o, _mm512_maskz_compress_epi8(keep, v));
	return (size_t)__builtin_popcountll(keep);
}
#endif

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
