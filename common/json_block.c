#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "json_block.h"
#include "banned.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define HAVE_AVX2_PATH 1
#endif

static const char *const path_name[] = { "scalar", "portable", "sse2", "avx2", "avx512" };

static void classify_portable(const unsigned char *b, struct json_block *k);
static size_t compact_runs(char *o, const unsigned char *b, uint64_t keep);

static uint64_t pack_loop(uint64_t mask, uint64_t keep);

static int path = -1;
static void (*classify)(const unsigned char *, struct json_block *) = classify_portable;
static size_t (*compact)(char *, const unsigned char *, uint64_t) = compact_runs;
static uint64_t (*pack_bits)(uint64_t, uint64_t) = pack_loop;

/* The portable path: one byte at a time. */
static void classify_portable(const unsigned char *b, struct json_block *k)
{
	memset(k, 0, sizeof(*k));
	for (int i = 0; i < JSON_BLOCK; i++) {
		unsigned char c = b[i];
		uint64_t bit = (uint64_t)1 << i;

		if (c == '"')
			k->quote |= bit;
		else if (c == '\\')
			k->bslash |= bit;
		else if (c == '{' || c == '[')
			k->open |= bit;
		else if (c == '}' || c == ']')
			k->close |= bit;
		else if (c == ',' || c == ':')
			k->punct |= bit;
		else if (c == ' ')
			k->ws |= bit;
		if (c < 0x20) {
			k->ctl |= bit;
			if (c == '\t' || c == '\n' || c == '\r')
				k->ws |= bit;
		}
	}
}

/*
 * Copy the runs of kept bytes, 16 at a time from a padded copy of the
 * block (a run's last store may go past it, never past the copy).
 */
static size_t compact_runs(char *o, const unsigned char *b, uint64_t keep)
{
	unsigned char t[JSON_BLOCK + 16];
	size_t m = 0;

	tl_memcpy(t, b, JSON_BLOCK);
	memset(t + JSON_BLOCK, 0, 16);
	if (keep == ~(uint64_t)0) {
		tl_memcpy(o, t, JSON_BLOCK);
		return JSON_BLOCK;
	}
	while (keep) {
		unsigned i = (unsigned)__builtin_ctzll(keep);
		uint64_t rest = keep >> i;
		unsigned len = ~rest ? (unsigned)__builtin_ctzll(~rest) : JSON_BLOCK - i;

		for (unsigned j = 0; j < len; j += 16)
			tl_memcpy(o + m + j, t + i + j, 16);
		m += len;
		if (i + len >= JSON_BLOCK)
			break;
		keep &= ~(uint64_t)0 << (i + len);
	}
	return m;
}

/* The bits of mask at keep's bits, packed low: pext a bit at a time. */
static uint64_t pack_loop(uint64_t mask, uint64_t keep)
{
	uint64_t out = 0;
	unsigned n = 0;

	for (; keep; keep &= keep - 1, n++)
		out |= (mask >> __builtin_ctzll(keep) & 1) << n;
	return out;
}

#ifdef __SSE2__
static uint64_t mask16(__m128i m)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(m);
}

static void classify_sse2(const unsigned char *b, struct json_block *k)
{
	memset(k, 0, sizeof(*k));
	for (int c = 0; c < JSON_BLOCK / 16; c++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + 16 * c));
		__m128i low = _mm_or_si128(v, _mm_set1_epi8(0x20));
		__m128i ws = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
		__m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)),
					     _mm_set1_epi8(0x1f));
		__m128i punct = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
					     _mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
		int sh = 16 * c;

		k->quote |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))) << sh;
		k->bslash |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))) << sh;
		k->ws |= mask16(ws) << sh;
		k->ctl |= mask16(ctl) << sh;
		k->open |= mask16(_mm_cmpeq_epi8(low, _mm_set1_epi8('{'))) << sh;
		k->close |= mask16(_mm_cmpeq_epi8(low, _mm_set1_epi8('}'))) << sh;
		k->punct |= mask16(punct) << sh;
	}
}
#endif

#ifdef HAVE_AVX2_PATH
/* For each byte of keep, the shuffle that packs its kept bytes first. */
static unsigned char pack[256][8];

__attribute__((target("avx2")))
static uint64_t mask32(__m256i m)
{
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(m);
}

__attribute__((target("avx2")))
static void classify_avx2(const unsigned char *b, struct json_block *k)
{
	memset(k, 0, sizeof(*k));
	for (int c = 0; c < JSON_BLOCK / 32; c++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(b + 32 * c));
		__m256i low = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
		__m256i ws = _mm256_or_si256(
			_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(' ')),
					_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n'))),
			_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\t')),
					_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r'))));
		__m256i ctl = _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(0x1f)),
						_mm256_set1_epi8(0x1f));
		__m256i punct = _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(',')),
						_mm256_cmpeq_epi8(v, _mm256_set1_epi8(':')));
		int sh = 32 * c;

		k->quote |= mask32(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'))) << sh;
		k->bslash |= mask32(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))) << sh;
		k->ws |= mask32(ws) << sh;
		k->ctl |= mask32(ctl) << sh;
		k->open |= mask32(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('{'))) << sh;
		k->close |= mask32(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('}'))) << sh;
		k->punct |= mask32(punct) << sh;
	}
}

/* Eight bytes at a time: one shuffle packs the kept ones. */
__attribute__((target("avx2,popcnt")))
static size_t compact_avx2(char *o, const unsigned char *b, uint64_t keep)
{
	size_t m = 0;

	for (int l = 0; l < JSON_BLOCK / 8; l++) {
		unsigned mb = (unsigned)(keep >> (8 * l)) & 0xff;
		__m128i x = _mm_loadl_epi64((const __m128i *)(b + 8 * l));
		__m128i s = _mm_loadl_epi64((const __m128i *)pack[mb]);

		_mm_storel_epi64((__m128i *)(o + m), _mm_shuffle_epi8(x, s));
		m += (size_t)__builtin_popcount(mb);
	}
	return m;
}

static void pack_init(void)
{
	for (unsigned v = 0; v < 256; v++) {
		unsigned n = 0;
		for (unsigned j = 0; j < 8; j++)
			if (v >> j & 1)
				pack[v][n++] = (unsigned char)j;
		while (n < 8)
			pack[v][n++] = 0x80;
	}
}

__attribute__((target("bmi2")))
static uint64_t pack_pext(uint64_t mask, uint64_t keep)
{
	return _pext_u64(mask, keep);
}

static int have_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
	       __builtin_cpu_supports("bmi2");
}

/*
 * AVX-512: the whole block in one register, each class a compare straight
 * into a mask register (no movemask, no shifts), and the compact copy one
 * vpcompressb (VBMI2) into a register and one 64-byte store: AVX2 needed
 * eight shuffles and a table for it.  The store goes to a register first,
 * not to memory, because vpcompressb's memory form is slow on some CPUs.
 */
#define AVX512_TARGET "avx512f,avx512bw,avx512vbmi2,popcnt"

__attribute__((target(AVX512_TARGET)))
static uint64_t eq512(__m512i v, char c)
{
	return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c));
}

__attribute__((target(AVX512_TARGET)))
static void classify_avx512(const unsigned char *b, struct json_block *k)
{
	__m512i v = _mm512_loadu_si512((const void *)b);
	__m512i low = _mm512_or_si512(v, _mm512_set1_epi8(0x20));

	k->quote = eq512(v, '"');
	k->bslash = eq512(v, '\\');
	k->ws = eq512(v, ' ') | eq512(v, '\n') | eq512(v, '\t') | eq512(v, '\r');
	k->ctl = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
	k->open = eq512(low, '{');
	k->close = eq512(low, '}');
	k->punct = eq512(v, ',') | eq512(v, ':');
}

__attribute__((target(AVX512_TARGET)))
static size_t compact_avx512(char *o, const unsigned char *b, uint64_t keep)
{
	__m512i v = _mm512_loadu_si512((const void *)b);

	_mm512_storeu_si512((void *)o, _mm512_maskz_compress_epi8(keep, v));
	return (size_t)__builtin_popcountll(keep);
}

static int have_avx512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("popcnt") &&
	       __builtin_cpu_supports("bmi2");
}
#endif

int json_block_use(int p)
{
	switch (p) {
	case JSON_BLOCK_SCALAR:
	case JSON_BLOCK_PORTABLE:
		classify = classify_portable;
		compact = compact_runs;
		pack_bits = pack_loop;
		break;
#ifdef __SSE2__
	case JSON_BLOCK_SSE2:
		classify = classify_sse2;
		compact = compact_runs;
		pack_bits = pack_loop;
		break;
#endif
#ifdef HAVE_AVX2_PATH
	case JSON_BLOCK_AVX2:
		if (!have_avx2())
			return -1;
		pack_init();
		classify = classify_avx2;
		compact = compact_avx2;
		pack_bits = pack_pext;
		break;
	case JSON_BLOCK_AVX512:
		if (!have_avx512())
			return -1;
		classify = classify_avx512;
		compact = compact_avx512;
		pack_bits = pack_pext;
		break;
#endif
	default:
		return -1;
	}
	path = p;
	return 0;
}

const char *json_block_name(int p)
{
	return p >= 0 && p <= JSON_BLOCK_AVX512 ? path_name[p] : "?";
}

int json_block_path(void)
{
	const char *e;

	if (path >= 0)
		return path;
	e = getenv("TL_JSON_SCAN");
	for (int p = 0; e && p <= JSON_BLOCK_AVX512; p++)
		if (!strcmp(e, path_name[p]) && json_block_use(p) == 0)
			return path;
	if (json_block_use(JSON_BLOCK_AVX512) == 0 || json_block_use(JSON_BLOCK_AVX2) == 0 ||
	    json_block_use(JSON_BLOCK_SSE2) == 0)
		return path;
	json_block_use(JSON_BLOCK_SCALAR);	/* faster than masks made a byte at a time */
	return path;
}

void json_block_classify(const unsigned char *b, struct json_block *k)
{
	classify(b, k);
}

size_t json_block_compact(char *o, const unsigned char *b, uint64_t keep)
{
	return compact(o, b, keep);
}

uint64_t json_block_pack(uint64_t mask, uint64_t keep)
{
	return pack_bits(mask, keep);
}
