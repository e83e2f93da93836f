#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "coll_name.h"
#include "banned.h"

/*
 * Python's re.IGNORECASE on str: a code point matches a pattern letter
 * when their lower cases are equal, and sre also treats 'ı' (U+0131) as
 * 'i' and 'ſ' (U+017F) as 's'; 'İ' (U+0130) lowers to 'i'.  No other
 * code point lowers to a letter of the three patterns.
 */
static unsigned lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + 32u : c;
}

static unsigned fold_at(const unsigned char *s, size_t n, size_t *len)
{
	*len = 1;
	if (n >= 2 && s[0] == 0xc4 && (s[1] == 0xb0 || s[1] == 0xb1)) {
		*len = 2;
		return 'i';
	}
	if (n >= 2 && s[0] == 0xc5 && s[1] == 0xbf) {
		*len = 2;
		return 's';
	}
	return lower(s[0]);
}

static int match_at(const unsigned char *s, size_t n, const char *pat)
{
	size_t k;

	for (; *pat; pat++) {
		if (!n || fold_at(s, n, &k) != (unsigned char)*pat)
			return 0;
		s += k;
		n -= k;
	}
	return 1;
}

/* only ASCII can start a match: the patterns' first letters have no other fold */
int coll_name_search(const char *name, size_t len, const char *pat)
{
	const unsigned char *s = (const unsigned char *)name;
	unsigned first = (unsigned char)pat[0];

	for (size_t i = 0; i < len; i++)
		if (lower(s[i]) == first && match_at(s + i, len - i, pat))
			return 1;
	return 0;
}

/*
 * Whether a match of one of the three patterns holds the 'c' (or 'C') at
 * s[j]: "rccl" and "nccl" are plain ASCII, so their first 'c' follows an
 * 'r' or 'n'; "cross_device_reduce" starts there.
 */
static int match_c(const unsigned char *s, size_t len, size_t j)
{
	unsigned b = j ? lower(s[j - 1]) : 0;

	if ((b == 'r' || b == 'n') && len - j >= 3 && lower(s[j + 1]) == 'c' &&
	    lower(s[j + 2]) == 'l')
		return 1;
	return match_at(s + j, len - j, "cross_device_reduce");
}

/*
 * One pass for the three patterns (kernel names are long, and every
 * kernel of a trace is asked about): every match holds a 'c' or 'C', and
 * only those are looked at — with SSE2 (always there on x86-64) found
 * 16 bytes at a time (b | 0x20 is 'c' for those two bytes only).
 */
int coll_name_match(const char *name, size_t len)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t i = 0;

#if defined(__SSE2__)
	const __m128i x20 = _mm_set1_epi8(0x20), c = _mm_set1_epi8('c');

	for (; len - i >= 16; i += 16) {
		__m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)(s + i)), x20);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c));

		for (; m; m &= m - 1)
			if (match_c(s, len, i + (size_t)__builtin_ctz(m)))
				return 1;
	}
#endif
	for (; i < len; i++)
		if (lower(s[i]) == 'c' && match_c(s, len, i))
			return 1;
	return 0;
}

int coll_name_match_memo(unsigned char *memo, const char *name, size_t len)
{
	if (!*memo)
		*memo = coll_name_match(name, len) ? 2 : 1;
	return *memo == 2;
}
