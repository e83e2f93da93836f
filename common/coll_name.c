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
 * One pass for the three patterns (kernel names are long, and every
 * kernel of a trace is asked about): only an 'r', 'n' or 'c' can start a
 * match, and "rccl" and "nccl" are plain ASCII after that.
 */
int coll_name_match(const char *name, size_t len)
{
	const unsigned char *s = (const unsigned char *)name;

	for (size_t i = 0; i < len; i++) {
		unsigned c = lower(s[i]);
		if ((c == 'r' || c == 'n') && len - i >= 4 && lower(s[i + 1]) == 'c' &&
		    lower(s[i + 2]) == 'c' && lower(s[i + 3]) == 'l')
			return 1;
		if (c == 'c' && match_at(s + i, len - i, "cross_device_reduce"))
			return 1;
	}
	return 0;
}

int coll_name_match_memo(unsigned char *memo, const char *name, size_t len)
{
	if (!*memo)
		*memo = coll_name_match(name, len) ? 2 : 1;
	return *memo == 2;
}
