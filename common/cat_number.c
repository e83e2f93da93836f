#include <inttypes.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_number.h"
#include "err.h"
#include "json.h"
#include "banned.h"

/*
 * A JSON number of at most 300 characters without an exponent is finite
 * and, when it has a nonzero digit, at least 1e-300 away from zero: its
 * classes follow from its text without strtod (a tenth of tl-cat's time).
 */
static int plain(const char *s, size_t n, int *neg, int *point)
{
	int nonzero = 0, exp = 0, dot = 0;
	size_t i = 0;

	if (n > 300)
		return 0;
	/* one pass without a branch per byte: a ts has 17 of them */
#ifdef __SSE2__
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		__m128i d = _mm_sub_epi8(v, _mm_set1_epi8('1'));	/* 1-9: 0-8 */

		exp |= _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)),
							_mm_set1_epi8('e')));
		dot |= _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
		nonzero |= _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(8)), d));
	}
#endif
	for (; i < n; i++) {
		exp |= (s[i] | 0x20) == 'e';
		dot |= s[i] == '.';
		nonzero |= (unsigned char)(s[i] - '1') <= 8;
	}
	/* only a minus sign asks whether the value is -0 */
	*neg = n && s[0] == '-' && nonzero;
	*point = dot;
	return !exp;
}

/* The classes of the number text s[0..n) as the value of key: a mask. */
static unsigned classify(const char *s, size_t n, int is_dur)
{
	char buf[400], *end;
	double v;
	size_t k;
	unsigned m = 0;
	int neg, point;

	if (n && plain(s, n, &neg, &point)) {
		if (is_dur && neg)
			m |= 1u << CN_NEGATIVE;
		if (point)
			return m;
		k = s[0] == '-';
		if (n - k > 16 || (n - k == 16 && memcmp(s + k, "9007199254740992", 16) > 0))
			m |= 1u << CN_BIG;
		return m;
	}
	if (n >= sizeof(buf))	/* a number this long overflows, or rounds */
		n = sizeof(buf) - 1;
	tl_memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtod(buf, &end);
	if (isinf(v))
		return 1u << CN_INF;
	if (is_dur && v < 0)
		m |= 1u << CN_NEGATIVE;
	if (strpbrk(buf, ".eE"))
		return m;
	/* an integer: exact in a double up to 2^53 = 9007199254740992 */
	k = buf[0] == '-';
	if (n - k > 16 || (n - k == 16 && strcmp(buf + k, "9007199254740992") > 0))
		m |= 1u << CN_BIG;
	return m;
}

static void note(struct cat_number *cn, int cls, uint64_t uid, const char *key,
		 const char *s, size_t n)
{
	if (!cn->count[cls]++) {
		cn->first_uid[cls] = uid;
		snprintf(cn->first[cls], sizeof(cn->first[cls]), "%s %.*s%s", key,
			 (int)(n > 32 ? 32 : n), s, n > 32 ? "..." : "");
	}
}

void cat_number_check(struct cat_number *cn, const struct json *j, uint64_t uid)
{
	unsigned end = json_skip(j, 0);

	for (unsigned k = 1; k < end; k = json_skip(j, k + 1)) {
		const struct json_tok *v = &j->tok[k + 1];
		int is_dur = json_tok_eq(j, k, "dur", 3);

		if (!is_dur && !json_tok_eq(j, k, "ts", 2))
			continue;
		if (!json_tok_is_number(j, k + 1))
			continue;
		cat_number_value(cn, uid, is_dur, j->text + v->start, (size_t)(v->end - v->start));
	}
}

/*
 * Whether the JSON number s[0..n), with JSON_TEXT_SLACK readable bytes
 * after it, is in no class, told by two 16-byte compares: no sign, no exponent,
 * and a point or at most 15 digits (which 2^53 exceeds).  Every event has
 * a ts and most a dur, and classify cost 135 instructions a number; 0
 * where classify must look.
 */
static int quiet(const char *s, size_t n)
{
#ifdef __SSE2__
	if (n == 0 || n > 32 || s[0] == '-')
		return 0;
	__m128i a = _mm_loadu_si128((const __m128i *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
	__m128i e = _mm_set1_epi8('e'), x = _mm_set1_epi8(0x20), dot = _mm_set1_epi8('.');
	uint32_t live = n == 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1;
	uint32_t exp = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(a, x), e)) |
		       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(b, x), e)) << 16;
	uint32_t point = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, dot)) |
			 (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, dot)) << 16;

	return !(exp & live) && ((point & live) || n <= 15);
#else
	(void)s;
	(void)n;
	return 0;
#endif
}

void cat_number_value(struct cat_number *cn, uint64_t uid, int is_dur, const char *s, size_t n)
{
	unsigned m;

	if (quiet(s, n))
		return;
	m = classify(s, n, is_dur);

	for (int cls = 0; cls < CN_CLASSES; cls++)
		if (m & 1u << cls)
			note(cn, cls, uid, is_dur ? "dur" : "ts", s, n);
}

void cat_number_report(struct cat_number *cn, const char *name)
{
	static const char *const what[CN_CLASSES] = {
		("a ts or dur too large for a double (it reads as inf): left out of "
		 "the tree and the timeline"),
		"a negative dur: left out of the tree and the timeline",
		"an integer ts or dur beyond 2^53, rounded to the nearest double",
	};

	for (int c = 0; c < CN_CLASSES; c++)
		if (cn->count[c])
			tl_warn("%s: %" PRIu64 " event%s with %s (first: event %" PRIu64 ", %s)",
				name, cn->count[c], cn->count[c] == 1 ? "" : "s", what[c],
				cn->first_uid[c], cn->first[c]);
	memset(cn, 0, sizeof(*cn));
}
