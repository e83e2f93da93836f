/*
 * banned: functions that make buffer overflows easy do not compile.
 * Modelled on git's banned.h; include it last in every .c file.
 */
#ifndef TL_BANNED_H
#define TL_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

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

#endif
