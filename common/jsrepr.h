/*
 * jsrepr: Python's repr() of a JSON value as TraceLens holds it, for CSV
 * cells such as "Input Dims": JSON arrays become tuples (TraceDiff's
 * _list_to_tuple), so [[1, 2], []] prints as "((1, 2), ())" and ["a"] as
 * "('a',)"; objects print as dicts, true/false/null as True/False/None,
 * integers as written, other numbers as repr(float), strings with
 * Python's quoting and escapes.
 *
 *	char *s = jsrepr(json, len);      malloc'd; NULL if json is not valid
 *	free(s);
 */
#ifndef TL_JSREPR_H
#define TL_JSREPR_H

#include <stddef.h>

char *jsrepr(const char *json, size_t n);
/* Python repr() of a UTF-8 string, appended to *buf (len/alloc as xgrow). */
void jsrepr_str(char **buf, size_t *len, size_t *alloc, const char *s, size_t n);

#endif
