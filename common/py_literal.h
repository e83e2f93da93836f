/*
 * py_literal: ast.literal_eval of the text TraceLens reads as a list of
 * rank numbers or split sizes ("[0, 1, 2, 3]", "(4, 4)", "0, 1"), then
 * int() of each element, as reporting_utils._parse_pg_ranks and
 * NcclAnalyser's _parse_split_sizes do.
 *
 *	int64_t *v; size_t n;
 *	switch (py_literal_ints(s, len, &v, &n)) {
 *	case PY_LITERAL_LIST: use v[0..n); free(v); break;
 *	case PY_LITERAL_OTHER: a valid literal that is no list or tuple
 *	case PY_LITERAL_ERROR: SyntaxError or ValueError in Python
 *	}
 *
 * Elements may be ints (decimal, with '_' between digits and a sign),
 * floats (truncated, as int() does), True/False, or strings holding an
 * int; anything else is an error.  py_findall_digits is
 * re.findall(r"\d+", s) with each match as an int (ASCII digits).
 */
#ifndef TL_PY_LITERAL_H
#define TL_PY_LITERAL_H

#include <stddef.h>
#include <stdint.h>

enum { PY_LITERAL_ERROR = -1, PY_LITERAL_LIST = 0, PY_LITERAL_OTHER = 1 };

int py_literal_ints(const char *s, size_t len, int64_t **out, size_t *n);
void py_findall_digits(const char *s, size_t len, int64_t **out, size_t *n);

#endif
