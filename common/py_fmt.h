/*
 * py_fmt: numbers and CSV cells exactly as Python and pandas write them, so
 * that tl's CSVs compare byte for byte with TraceLens's.
 *
 * py_float_repr() writes repr(float): the shortest decimal string that
 * reads back as the same double, in fixed notation when the decimal
 * exponent is in [-4, 16) ("0.0001", "100.0", "1234567890123456.0") and in
 * scientific notation otherwise ("1e-05", "1.5e+16").  NaN is "nan",
 * infinities "inf"/"-inf".  buf must hold PY_FLOAT_MAX bytes.
 *
 * csv_cell() writes one CSV field with pandas' minimal quoting: the field
 * is quoted when it holds a comma, a double quote, CR or LF, and inner
 * quotes are doubled.
 */
#ifndef TL_PY_FMT_H
#define TL_PY_FMT_H

#include <stddef.h>

#include "outbuf.h"

#define PY_FLOAT_MAX 32

size_t py_float_repr(double x, char *buf);
void csv_cell(struct outbuf *ob, const char *s, size_t n);
/* csv_cell of repr(x); NaN is written as an empty cell, as pandas does. */
void csv_float(struct outbuf *ob, double x);

#endif
