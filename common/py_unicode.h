/*
 * py_unicode: the Unicode rules of Python's str methods and re classes
 * that TraceLens's name matching depends on, for UTF-8 text.
 *
 *	size_t n = py_utf8_next(s, &cp);     one code point (bad bytes: U+FFFD, 1)
 *	py_re_digit(cp) py_re_word(cp)       re's \d and \w on a str pattern
 *	py_isdigit(cp) py_isspace(cp)        str.isdigit(), str.isspace()
 *	char *t = py_re_sub_digits(s);        re.sub(r"\d+", "", s)   (xmalloc'd)
 *	char *t = py_ascii_case(s, PY_LOWER); s.lower() / s.upper() as far as
 *	                                      an ASCII pattern can see
 *	int m = py_search_ci(s, "gemm");      re.search(pat, s, re.I) for a
 *	                                      literal lower-case ASCII pat
 *
 * py_ascii_case keeps every character whose lower()/upper() is ASCII
 * (ASCII letters, U+212A KELVIN SIGN → "k", U+0130 → "i" and its combining
 * dot, U+00DF → "SS", the ligatures U+FB00..FB06, ...) and writes 0x01 for
 * each other non-ASCII character, so substring tests against an ASCII
 * pattern give what Python's give on the converted str.
 * py_search_ci follows sre's case-insensitive literal matching: ASCII case,
 * and "i" ~ U+0130/U+0131, "k" ~ U+212A, "s" ~ U+017F.
 * py_str_int/py_str_float parse a str as Python's int(s)/float(s) do
 * (surrounding whitespace, sign, "_" between digits, any Unicode decimal
 * digit; float also "inf", "infinity", "nan"): 0, or -1 where Python
 * raises ValueError; py_str_int gives -2 past int64.
 * The tables come from scripts/py-unicode-tables (Unicode 14.0.0, Python 3.11).
 */
#ifndef TL_PY_UNICODE_H
#define TL_PY_UNICODE_H

#include <stddef.h>
#include <stdint.h>

enum { PY_LOWER, PY_UPPER };

size_t py_utf8_next(const char *s, uint32_t *cp);
int py_re_digit(uint32_t cp);
int py_re_word(uint32_t cp);
int py_isdigit(uint32_t cp);
int py_isspace(uint32_t cp);
char *py_re_sub_digits(const char *s);
char *py_isdigit_strip(const char *s);
char *py_ascii_case(const char *s, int upper);
int py_search_ci(const char *s, const char *pat);
/* bytes of s that pat (non-empty) matches at its start, re.I; 0 if none */
size_t py_match_ci(const char *s, const char *pat);
int py_str_int(const char *s, size_t n, int64_t *out);
int py_str_float(const char *s, size_t n, double *out);
/* len(s): code points */
size_t py_len(const char *s, size_t n);
/* s.strip() as [*b, *e) byte offsets */
void py_strip(const char *s, size_t n, size_t *b, size_t *e);

#endif
