#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "report_name.h"
#include "xalloc.h"
#include "banned.h"

/* A name shorter than this many bytes past the cut is shown whole. */
#define CUT_SLACK 12

static void grow(struct report_names *rn)
{
	size_t a = rn->alloc;

	xgrow((void **)&rn->s, &a, rn->count + 1, sizeof(*rn->s));
	a = rn->alloc;
	xgrow((void **)&rn->n, &a, rn->count + 1, sizeof(*rn->n));
	a = rn->alloc;
	xgrow((void **)&rn->cut, &a, rn->count + 1, sizeof(*rn->cut));
	xgrow((void **)&rn->own, &rn->alloc, rn->count + 1, sizeof(*rn->own));
}

void report_names_add(struct report_names *rn, const char *s, size_t n)
{
	char *d = NULL;

	grow(rn);
	/* display_demangle wants a C string without NUL inside */
	if (n >= 2 && n <= REPORT_NAME_DEMANGLE_MAX && s[0] == '_' && s[1] == 'Z' &&
	    !memchr(s, 0, n)) {
		char *z = xstrndup(s, n);
		d = display_demangle(z);
		free(z);
	}
	rn->own[rn->count] = d;
	rn->s[rn->count] = d ? d : s;
	rn->n[rn->count] = d ? strlen(d) : n;
	rn->cut[rn->count] = rn->n[rn->count];
	rn->count++;
}

void report_names_release(struct report_names *rn)
{
	for (size_t i = 0; i < rn->count; i++)
		free(rn->own[i]);
	free(rn->own);
	free(rn->s);
	free(rn->n);
	free(rn->cut);
	memset(rn, 0, sizeof(*rn));
}

/* Byte offset after min_chars UTF-8 characters of s (or n). */
static size_t after_chars(const char *s, size_t n, size_t min_chars)
{
	size_t i = 0;

	for (size_t c = 0; c < min_chars && i < n; c++) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}

/* Round a byte offset up to the next character boundary. */
static size_t char_ceil(const char *s, size_t n, size_t i)
{
	while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i < n ? i : n;
}

static size_t common_prefix(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0, m = na < nb ? na : nb;

	while (i < m && a[i] == b[i])
		i++;
	return i;
}

static const struct report_names *sort_rn;	/* qsort has no context argument */

static int cmp_name(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	size_t na = sort_rn->n[a], nb = sort_rn->n[b], m = na < nb ? na : nb;
	int c = memcmp(sort_rn->s[a], sort_rn->s[b], m);

	if (c)
		return c;
	if (na != nb)
		return na < nb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Two different names need their first differing byte shown. */
static void need(struct report_names *rn, size_t *want, size_t a, size_t b)
{
	size_t p;

	if (rn->n[a] == rn->n[b] && !memcmp(rn->s[a], rn->s[b], rn->n[a]))
		return;
	p = common_prefix(rn->s[a], rn->n[a], rn->s[b], rn->n[b]) + 1;
	if (p > want[a])
		want[a] = p;
	if (p > want[b])
		want[b] = p;
}

void report_names_cut(struct report_names *rn, size_t min_chars)
{
	size_t *order = xmalloc((rn->count ? rn->count : 1) * sizeof(*order));
	size_t *want = xcalloc(rn->count ? rn->count : 1, sizeof(*want));

	for (size_t i = 0; i < rn->count; i++)
		order[i] = i;
	sort_rn = rn;
	qsort(order, rn->count, sizeof(*order), cmp_name);
	for (size_t k = 0; k + 1 < rn->count; k++)
		need(rn, want, order[k], order[k + 1]);
	for (size_t i = 0; i < rn->count; i++) {
		size_t n = rn->n[i], c = after_chars(rn->s[i], n, min_chars);
		if (want[i] > c)
			c = char_ceil(rn->s[i], n, want[i]);
		rn->cut[i] = n - c <= CUT_SLACK ? n : c;
	}
	free(order);
	free(want);
}
