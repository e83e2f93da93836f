/*
 * xalloc: allocation that dies loudly.  Every function either returns
 * usable memory or prints "tl-x: out of memory allocating N bytes" and
 * exits 1; callers never check for NULL.
 *
 * Growth of arrays goes through xgrow(), which checks the multiplication
 * for overflow:
 *
 *	xgrow((void **)&v, &alloc, nr + 1, sizeof(*v));
 *	v[nr++] = x;
 */
#ifndef TL_XALLOC_H
#define TL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* a*b, or die if it overflows */
size_t st_mult(size_t a, size_t b);
size_t st_add(size_t a, size_t b);
/* xgrow's work when the array is full: the growth itself. */
void xgrow_full(void **p, size_t *alloc, size_t need, size_t size);

/*
 * Make room for at least `need` elements of `size` bytes in *p.  Inline:
 * arrays grow once in a while but are asked on every append.
 */
static inline void xgrow(void **p, size_t *alloc, size_t need, size_t size)
{
	if (need > *alloc)
		xgrow_full(p, alloc, need, size);
}

#endif
