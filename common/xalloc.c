#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "xalloc.h"

static _Noreturn void oom(size_t n)
{
	tl_die("out of memory allocating %zu bytes", n);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(st_mult(nmemb, size));
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(st_add(n, 1));
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

size_t st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		tl_die("size overflow: %zu * %zu", a, b);
	return a * b;
}

size_t st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		tl_die("size overflow: %zu + %zu", a, b);
	return a + b;
}

void xgrow_full(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t n;

	if (need <= *alloc)
		return;
	n = *alloc < 16 ? 16 : *alloc + *alloc / 2;
	if (n < need)
		n = need;
	*p = xrealloc(*p, st_mult(n, size));
	*alloc = n;
}
