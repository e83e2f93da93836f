/*
 * num_parse: decimal text to double, the same double strtod(3) makes,
 * faster for the numbers node and event streams are full of.
 *
 *	double v = num_strtod(text, &end);	// end may be NULL
 *
 * A plain decimal ("-12.345", "7", ".5") whose digits fit in 2^53 with at
 * most 22 after the point is one correctly rounded division of two exact
 * doubles (Clinger's fast path), so the same double as strtod's; anything
 * else (exponents, more digits, leading space or '+', "inf", hex) is
 * handed to strtod itself.
 */
#ifndef TL_NUM_PARSE_H
#define TL_NUM_PARSE_H

#include <stdint.h>

double num_strtod(const char *s, char **end);

/*
 * 1 to 19 decimal digits at s: their value in *v and the end of the run;
 * NULL when s does not start with a digit or the run is longer (leave
 * that text to strtoul, which says what is wrong with it).
 */
const char *num_u64(const char *s, uint64_t *v);

/*
 * strtoull(s, NULL, 10)'s and strtoll(s, NULL, 10)'s values, by num_u64
 * where s is 1 to 19 digits and nothing else (a uid, a stream, a
 * correlation id), by the libc call otherwise.
 */
uint64_t num_strtou64(const char *s);
int64_t num_strtoi64(const char *s);

#endif
