#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "json_block.h"
#include "banned.h"

#ifdef JSON_BLOCK_HAVE_AVX
#define HAVE_AVX2_PATH 1
#endif

static const char *const path_name[] = { "scalar", "portable", "sse2", "avx2", "avx512" };

static void classify_portable(const unsigned char *b, struct json_block *k);
static size_t compact_runs(char *o, const unsigned char *b, uint64_t keep);

static int path = -1;
static void (*classify)(const unsigned char *, struct json_block *) = classify_portable;
static size_t (*compact)(char *, const unsigned char *, uint64_t) = compact_runs;

/* The portable path: one byte at a time. */
static void classify_portable(const unsigned char *b, struct json_block *k)
{
	memset(k, 0, sizeof(*k));
	for (int i = 0; i < JSON_BLOCK; i++) {
		unsigned char c = b[i];
		uint64_t bit = (uint64_t)1 << i;
		int ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';

		if (c == '"')
			k->quote |= bit;
		if (ws)
			k->ws |= bit;
		if (c == '{' || c == '[' || c == '}' || c == ']')
			k->bracket |= bit;
		if (ws || c == '"' || c == '{' || c == '[' || c == '}' || c == ']' ||
		    c == ',' || c == ':')
			k->syntax |= bit;
		if (c == '\\' || c < 0x20)
			k->special |= bit;
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
		__m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
		__m128i ws = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
		__m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)),
					     _mm_set1_epi8(0x1f));
		__m128i bracket = _mm_or_si128(_mm_cmpeq_epi8(low, _mm_set1_epi8('{')),
					       _mm_cmpeq_epi8(low, _mm_set1_epi8('}')));
		__m128i punct = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
					     _mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
		__m128i special = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), ctl);
		int sh = 16 * c;

		k->quote |= mask16(quote) << sh;
		k->ws |= mask16(ws) << sh;
		k->bracket |= mask16(bracket) << sh;
		k->syntax |= mask16(_mm_or_si128(_mm_or_si128(ws, quote),
						 _mm_or_si128(bracket, punct))) << sh;
		k->special |= mask16(special) << sh;
	}
}
#endif

#ifdef HAVE_AVX2_PATH
unsigned char json_block_shuffle[256][8];

__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static void classify_avx2(const unsigned char *b, struct json_block *k)
{
	json_block_classify_avx2(b, k);
}

__attribute__((target(JSON_BLOCK_AVX2_TARGET)))
static size_t compact_avx2(char *o, const unsigned char *b, uint64_t keep)
{
	return json_block_compact_avx2(o, b, keep);
}

struct json_block_avx2_k json_block_avx2_k;

static void avx2_k_init(void)
{
	struct json_block_avx2_k *K = &json_block_avx2_k;

	memset(K->quote, '"', 32);
	memset(K->bslash, '\\', 32);
	memset(K->c1f, 0x1f, 32);
	memset(K->c20, 0x20, 32);
	memset(K->lbrace, '{', 32);
	memset(K->rbrace, '}', 32);
	memset(K->comma, ',', 32);
	memset(K->colon, ':', 32);
	/* each lane's table: the white space byte with the index as its low
	 * nibble, else 0xff, which no byte below 0x80 is (those from 0x80
	 * look up 0) */
	memset(K->ws_tab, 0xff, 32);
	for (int lane = 0; lane < 32; lane += 16) {
		K->ws_tab[lane + 0] = ' ';
		K->ws_tab[lane + '\t'] = '\t';
		K->ws_tab[lane + '\n'] = '\n';
		K->ws_tab[lane + '\r'] = '\r';
	}
}

static void shuffle_init(void)
{
	for (unsigned v = 0; v < 256; v++) {
		unsigned n = 0;
		for (unsigned j = 0; j < 8; j++)
			if (v >> j & 1)
				json_block_shuffle[v][n++] = (unsigned char)j;
		while (n < 8)
			json_block_shuffle[v][n++] = 0x80;
	}
}

static int have_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
	       __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul");
}

__attribute__((target(JSON_BLOCK_AVX512_TARGET)))
static void classify_avx512(const unsigned char *b, struct json_block *k)
{
	json_block_classify_avx512(b, k);
}

__attribute__((target(JSON_BLOCK_AVX512_TARGET)))
static size_t compact_avx512(char *o, const unsigned char *b, uint64_t keep)
{
	return json_block_compact_avx512(o, b, keep);
}

static int have_avx512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("popcnt") &&
	       __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul");
}
#endif

int json_block_use(int p)
{
	switch (p) {
	case JSON_BLOCK_SCALAR:
	case JSON_BLOCK_PORTABLE:
		classify = classify_portable;
		compact = compact_runs;
		break;
#ifdef __SSE2__
	case JSON_BLOCK_SSE2:
		classify = classify_sse2;
		compact = compact_runs;
		break;
#endif
#ifdef HAVE_AVX2_PATH
	case JSON_BLOCK_AVX2:
		if (!have_avx2())
			return -1;
		shuffle_init();
		avx2_k_init();
		classify = classify_avx2;
		compact = compact_avx2;
		break;
	case JSON_BLOCK_AVX512:
		if (!have_avx512())
			return -1;
		classify = classify_avx512;
		compact = compact_avx512;
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

