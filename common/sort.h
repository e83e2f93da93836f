/*
 * sort: qsort(3) and qsort_r(3) as they should be, after git's QSORT.
 *
 *	tl_qsort(v, n, sizeof(*v), cmp);	v may be NULL when n is 0
 *
 * The C library's qsort declares its array nonnull, so qsort(NULL, 0, ...)
 * — what an empty, never allocated array gives — is undefined behaviour
 * (UBSan stops there) even though there is nothing to sort.  These do
 * nothing for fewer than two elements.  banned.h makes the bare functions
 * a compile error so that the class cannot come back.
 */
#ifndef TL_SORT_H
#define TL_SORT_H

#include <stdlib.h>

static inline void tl_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static inline void tl_qsort_r(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

#endif
