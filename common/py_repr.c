#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
#include "py_repr.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A new text starts at 256 bytes: a cell's repr grows by a few bytes at a
 * time, and from xgrow's 16 it took seven reallocs to reach a perf
 * model's parameter dict.
 */
enum { PYSTR_FIRST = 256 };

void pystr_add(struct pystr *ps, const char *s, size_t n)
{
	size_t need = st_add(ps->len, n + 1);

	if (need > ps->alloc)
		xgrow((void **)&ps->buf, &ps->alloc, need < PYSTR_FIRST ? PYSTR_FIRST : need, 1);
	tl_memcpy(ps->buf + ps->len, s, n);
	ps->len += n;
	ps->buf[ps->len] = '\0';
}

void pystr_adds(struct pystr *ps, const char *s)
{
	pystr_add(ps, s, strlen(s));
}

void pystr_addc(struct pystr *ps, char c)
{
	pystr_add(ps, &c, 1);
}

void pystr_reset(struct pystr *ps)
{
	ps->len = 0;
	if (ps->buf)
		ps->buf[0] = '\0';
}

void pystr_release(struct pystr *ps)
{
	free(ps->buf);
	ps->buf = NULL;
	ps->len = ps->alloc = 0;
}

void py_repr_float(struct pystr *ps, double x)
{
	char buf[PY_FLOAT_MAX];
	pystr_add(ps, buf, py_float_repr(x, buf));
}

void py_repr_np64(struct pystr *ps, double x)
{
	pystr_adds(ps, "np.float64(");
	py_repr_float(ps, x);
	pystr_addc(ps, ')');
}

/* Length of the UTF-8 sequence at s (1 for a stray byte) and its code point. */
static size_t utf8_next(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
	if (len > n || s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	*cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++)
		*cp = (*cp << 6) | (s[i] & 0x3f);
	return len;
}

/*
 * Python escapes what str.isprintable() rejects.  Of non-ASCII code points
 * only the Latin-1 controls, NBSP and the soft hyphen are handled; others
 * are assumed printable (true of every name seen in traces).
 */
static int unprintable(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp == 0xad;
}

void py_repr_str(struct pystr *ps, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char q = '\'', esc[12];

	if (memchr(s, '\'', n) && !memchr(s, '"', n))
		q = '"';
	pystr_addc(ps, q);
	for (size_t i = 0; i < n; ) {
		unsigned cp;
		size_t k, j = i;

		/* a run Python writes as it is (printable ASCII but the
		 * backslash and the quote), added at once: most text is */
		while (j < n && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '\\' && u[j] != (unsigned char)q)
			j++;
		if (j > i) {
			pystr_add(ps, s + i, j - i);
			i = j;
			continue;
		}
		k = utf8_next(u + i, n - i, &cp);
		if (cp == '\\' || cp == (unsigned)q) {
			pystr_addc(ps, '\\');
			pystr_addc(ps, (char)cp);
		} else if (cp == '\n') {
			pystr_adds(ps, "\\n");
		} else if (cp == '\r') {
			pystr_adds(ps, "\\r");
		} else if (cp == '\t') {
			pystr_adds(ps, "\\t");
		} else if (unprintable(cp)) {
			snprintf(esc, sizeof(esc), "\\x%02x", cp);
			pystr_adds(ps, esc);
		} else {
			pystr_add(ps, s + i, k);
		}
		i += k;
	}
	pystr_addc(ps, q);
}

void py_repr_jval(struct pystr *ps, const struct json_value *v, int flags)
{
	int tuple = flags & PY_REPR_TUPLE;

	switch (v->type) {
	case JV_NULL: pystr_adds(ps, "None"); return;
	case JV_TRUE: pystr_adds(ps, "True"); return;
	case JV_FALSE: pystr_adds(ps, "False"); return;
	case JV_INT: pystr_add(ps, v->s, v->len); return;
	case JV_FLOAT: py_repr_float(ps, v->num); return;
	case JV_STR: py_repr_str(ps, v->s, v->len); return;
	case JV_ARR:
		pystr_addc(ps, tuple ? '(' : '[');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				pystr_adds(ps, ", ");
			py_repr_jval(ps, &v->kids[i], flags);
		}
		if (tuple && v->n == 1)
			pystr_addc(ps, ',');
		pystr_addc(ps, tuple ? ')' : ']');
		return;
	case JV_OBJ:
		pystr_addc(ps, '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				pystr_adds(ps, ", ");
			py_repr_str(ps, v->keys[i], v->keylens[i]);
			pystr_adds(ps, ": ");
			py_repr_jval(ps, &v->kids[i], flags);
		}
		pystr_addc(ps, '}');
		return;
	}
}

int py_repr_json(struct pystr *ps, const char *json, size_t len, int flags)
{
	struct json_value *v = json_value_parse(json, len);

	if (!v)
		return -1;
	py_repr_jval(ps, v, flags);
	json_value_free(v);
	return 0;
}

int py_repr_cell(struct pystr *ps, const char *json, size_t len, int flags)
{
	struct json_value *v;

	if (len == 0)
		return 0;
	if (!(v = json_value_parse(json, len)))
		return -1;
	if (v->type == JV_STR)
		pystr_add(ps, v->s, v->len);
	else
		py_repr_jval(ps, v, flags);
	json_value_free(v);
	return 0;
}
