/*
 * banned: functions that make buffer overflows easy do not compile.
 * Modelled on git's banned.h; include it last in every .c file.
 */
#ifndef TL_BANNED_H
#define TL_BANNED_H

#include <string.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

/*
 * memcpy(d, NULL, 0) and memmove(d, NULL, 0) are undefined like
 * qsort(NULL, 0): what an empty, never allocated array gives, and UBSan
 * stops there.  These copy nothing for n == 0; the bare ones are banned
 * below.  (Headers included before this one may use the bare ones where n
 * cannot be 0 or the pointer cannot be NULL, as outbuf.h does.)
 */
static inline void *tl_memcpy(void *d, const void *s, size_t n)
{
	return n ? memcpy(d, s, n) : d;
}

static inline void *tl_memmove(void *d, const void *s, size_t n)
{
	return n ? memmove(d, s, n) : d;
}

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(x) BANNED(gets)
/* qsort(NULL, 0, ...) is undefined: tl_qsort (sort.h) sorts nothing safely */
#undef qsort
#define qsort(...) BANNED(qsort)
#undef qsort_r
#define qsort_r(...) BANNED(qsort_r)
#undef memcpy
#define memcpy(...) BANNED(memcpy)
#undef memmove
#define memmove(...) BANNED(memmove)

#endif
