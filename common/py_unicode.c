#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "py_unicode.h"
#include "py_unicode_tab.h"
#include "xalloc.h"
#include "banned.h"

#define NTAB(t) (sizeof(t) / sizeof((t)[0]))

static int in_ranges(const uint32_t (*t)[2], size_t n, uint32_t cp)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < t[mid][0])
			hi = mid;
		else if (cp > t[mid][1])
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

int py_re_digit(uint32_t cp) { return in_ranges(py_re_digit_tab, NTAB(py_re_digit_tab), cp); }
int py_re_word(uint32_t cp) { return in_ranges(py_re_word_tab, NTAB(py_re_word_tab), cp); }
int py_isdigit(uint32_t cp) { return in_ranges(py_isdigit_tab, NTAB(py_isdigit_tab), cp); }
int py_isspace(uint32_t cp) { return in_ranges(py_isspace_tab, NTAB(py_isspace_tab), cp); }

size_t py_utf8_next(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff))) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = c;
	return n;
}

static char *drop_chars(const char *s, int (*drop)(uint32_t))
{
	char *o = xmalloc(strlen(s) + 1), *w = o;
	uint32_t cp;

	while (*s) {
		size_t k = py_utf8_next(s, &cp);
		if (!drop(cp)) {
			tl_memcpy(w, s, k);
			w += k;
		}
		s += k;
	}
	*w = 0;
	return o;
}

char *py_re_sub_digits(const char *s) { return drop_chars(s, py_re_digit); }
char *py_isdigit_strip(const char *s) { return drop_chars(s, py_isdigit); }

/* non-ASCII characters whose upper() holds ASCII, and what it is */
static const struct { uint32_t cp; const char *up; } upper_special[] = {
	{ 0xdf, "SS" }, { 0x131, "I" }, { 0x149, "\x01N" }, { 0x17f, "S" },
	{ 0x1f0, "J\x01" }, { 0x1e96, "H\x01" }, { 0x1e97, "T\x01" },
	{ 0x1e98, "W\x01" }, { 0x1e99, "Y\x01" }, { 0x1e9a, "A\x01" },
	{ 0xfb00, "FF" }, { 0xfb01, "FI" }, { 0xfb02, "FL" }, { 0xfb03, "FFI" },
	{ 0xfb04, "FFL" }, { 0xfb05, "ST" }, { 0xfb06, "ST" },
};

char *py_ascii_case(const char *s, int upper)
{
	char *o = xmalloc(3 * strlen(s) + 1), *w = o;
	uint32_t cp;

	while (*s) {
		size_t k = py_utf8_next(s, &cp);
		const char *rep = "\x01";
		char one[2] = { 0, 0 };

		s += k;
		if (cp < 0x80) {
			one[0] = (char)cp;
			if (upper && cp >= 'a' && cp <= 'z')
				one[0] = (char)(cp - 32);
			else if (!upper && cp >= 'A' && cp <= 'Z')
				one[0] = (char)(cp + 32);
			rep = one;
		} else if (!upper && cp == 0x212a) {
			rep = "k";
		} else if (!upper && cp == 0x130) {
			rep = "i\x01";
		} else if (upper) {
			for (size_t i = 0; i < sizeof(upper_special) / sizeof(upper_special[0]); i++)
				if (upper_special[i].cp == cp)
					rep = upper_special[i].up;
		}
		if (!*rep)		/* NUL cannot be in s; keep the loop simple */
			continue;
		while (*rep)
			*w++ = *rep++;
	}
	*w = 0;
	return o;
}

/* Bytes of s matching pattern character c (lower-case ASCII) under re.I. */
static size_t fold_len(const unsigned char *s, char c)
{
	if (*s < 0x80)
		return (*s | 0x20) == (unsigned char)c || *s == (unsigned char)c;
	if (c == 's' && s[0] == 0xc5 && s[1] == 0xbf)
		return 2;
	if (c == 'i' && s[0] == 0xc4 && (s[1] == 0xb0 || s[1] == 0xb1))
		return 2;
	if (c == 'k' && s[0] == 0xe2 && s[1] == 0x84 && s[2] == 0xaa)
		return 3;
	return 0;
}

size_t py_match_ci(const char *s, const char *pat)
{
	const unsigned char *q = (const unsigned char *)s;
	size_t k;

	while (*pat && (k = fold_len(q, *pat)) > 0) {
		q += k;
		pat++;
	}
	return *pat ? 0 : (size_t)(q - (const unsigned char *)s);
}

int py_search_ci(const char *s, const char *pat)
{
	if (!*pat)
		return 1;
	for (; *s; s++)
		if (py_match_ci(s, pat))
			return 1;
	return 0;
}

void py_strip(const char *s, size_t n, size_t *b, size_t *e)
{
	size_t i = 0, j = n, last = 0;
	uint32_t cp;

	while (i < n) {
		size_t k = py_utf8_next(s + i, &cp);
		if (!py_isspace(cp))
			break;
		i += k;
	}
	/* the end: walk forward, remembering the end of the last non-space */
	last = i;
	for (size_t p = i; p < n; ) {
		size_t k = py_utf8_next(s + p, &cp);
		p += k;
		if (!py_isspace(cp))
			last = p;
	}
	j = last;
	*b = i;
	*e = j;
}

size_t py_len(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xc0) != 0x80;
	return k;
}

/* the value of a Unicode decimal digit, -1 if cp is none */
static int digit_value(uint32_t cp)
{
	size_t lo = 0, hi = NTAB(py_re_digit_tab);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < py_re_digit_tab[mid][0])
			hi = mid;
		else if (cp > py_re_digit_tab[mid][1])
			lo = mid + 1;
		else
			return (int)((cp - py_re_digit_tab[mid][0]) % 10);
	}
	return -1;
}

/*
 * The stripped text of s as ASCII: digits mapped to '0'..'9', other
 * ASCII kept, anything else 0x01 (never valid in a number).
 */
static char *number_text(const char *s, size_t n)
{
	size_t b, e;
	char *o, *w;
	uint32_t cp;

	py_strip(s, n, &b, &e);
	o = w = xmalloc(e - b + 1);
	for (size_t i = b; i < e; ) {
		size_t k = py_utf8_next(s + i, &cp);
		int d;
		i += k;
		if (cp < 0x80)
			*w++ = (char)cp;
		else if ((d = digit_value(cp)) >= 0)
			*w++ = (char)('0' + d);
		else
			*w++ = 1;
	}
	*w = 0;
	return o;
}

/* digits with single "_" between them: copies the digits to *w, 0 if bad */
static int digit_run(const char **pp, char **w)
{
	const char *p = *pp;

	if (*p < '0' || *p > '9')
		return 0;
	for (;;) {
		*(*w)++ = *p++;
		if (*p == '_' && p[1] >= '0' && p[1] <= '9')
			p++;
		else if (*p < '0' || *p > '9')
			break;
	}
	*pp = p;
	return 1;
}

int py_str_int(const char *s, size_t n, int64_t *out)
{
	char *t = number_text(s, n), *d = xmalloc(strlen(t) + 2), *w = d;
	const char *p = t;
	int rc = -1;

	if (*p == '+' || *p == '-')
		*w++ = *p++;
	if (digit_run(&p, &w) && !*p) {
		char *end;
		long long v;
		*w = 0;
		errno = 0;
		v = strtoll(d, &end, 10);
		rc = errno == ERANGE ? -2 : 0;
		*out = v;
	}
	free(t);
	free(d);
	return rc;
}

static int word_ci(const char *p, const char *word)
{
	for (; *word; p++, word++)
		if ((*p | 0x20) != *word)
			return 0;
	return !*p;
}

int py_str_float(const char *s, size_t n, double *out)
{
	char *t = number_text(s, n), *d = xmalloc(strlen(t) + 2), *w = d;
	const char *p = t;
	int rc = -1, neg = 0;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (word_ci(p, "inf") || word_ci(p, "infinity")) {
		*out = neg ? -INFINITY : INFINITY;
		rc = 0;
	} else if (word_ci(p, "nan")) {
		*out = neg ? -NAN : NAN;
		rc = 0;
	} else {
		int mant = 0;
		if (neg)
			*w++ = '-';
		mant = digit_run(&p, &w);
		if (*p == '.') {
			*w++ = *p++;
			mant |= digit_run(&p, &w);
		}
		if (mant && (*p == 'e' || *p == 'E')) {
			*w++ = *p++;
			if (*p == '+' || *p == '-')
				*w++ = *p++;
			if (!digit_run(&p, &w))
				mant = 0;
		}
		if (mant && !*p) {
			*w = 0;
			*out = strtod(d, NULL);
			rc = 0;
		}
	}
	free(t);
	free(d);
	return rc;
}
