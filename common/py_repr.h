/*
 * py_repr: Python's repr()/str() of JSON values as TraceLens (pandas) prints
 * them in report cells, into a growable string.
 *
 *	struct pystr ps = {0};
 *	if (py_repr_json(&ps, "[[512],[141,512]]", len, PY_REPR_TUPLE) == 0)
 *		use ps.buf / ps.len               "((512,), (141, 512))"
 *	pystr_reset(&ps);                         reuse; pystr_release(&ps) frees
 *
 * Rules (json.loads then repr): null → None, true/false → True/False,
 * integers as written, floats as repr(float) ("0.0", "1e-05"), strings in
 * single quotes unless they hold a ' and no " (then double quotes), with
 * \\, \n, \r, \t, the quote and other unprintable characters escaped as
 * Python does; lists "[1, 2]", or with PY_REPR_TUPLE tuples "(1, 2)", "(1,)",
 * "()" at every depth (TraceLens's list_to_tuple); dicts "{'a': 1}".
 * The same flags apply to nested values.  Strings of the cells themselves
 * (not inside a container) are written bare by py_repr_cell, as str() would.
 */
#ifndef TL_PY_REPR_H
#define TL_PY_REPR_H

#include <stddef.h>

#include "json_value.h"

struct pystr {
	char *buf;	/* NUL-terminated once anything was added */
	size_t len, alloc;
};

enum { PY_REPR_TUPLE = 1 };

void pystr_add(struct pystr *ps, const char *s, size_t n);
void pystr_adds(struct pystr *ps, const char *s);
void pystr_addc(struct pystr *ps, char c);
void pystr_reset(struct pystr *ps);
void pystr_release(struct pystr *ps);

/* repr of JSON text; -1 (nothing added) if it is not valid JSON */
int py_repr_json(struct pystr *ps, const char *json, size_t len, int flags);
void py_repr_jval(struct pystr *ps, const struct json_value *v, int flags);
/* repr of a Python str holding the UTF-8 bytes s[0..n) */
void py_repr_str(struct pystr *ps, const char *s, size_t n);
/* repr of a float; py_repr_np64 writes numpy 2's "np.float64(5.81)" */
void py_repr_float(struct pystr *ps, double x);
void py_repr_np64(struct pystr *ps, double x);
/*
 * What pandas writes for a cell holding the JSON value: a string bare
 * (str()), anything else as py_repr_jval.  Empty JSON text → nothing.
 */
int py_repr_cell(struct pystr *ps, const char *json, size_t len, int flags);

#endif
