#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "py_literal.h"
#include "xalloc.h"
#include "banned.h"

struct lit {
	const char *p, *end;
	int64_t *v;
	size_t n, alloc;
};

static void skip_ws(struct lit *l)
{
	while (l->p < l->end && (*l->p == ' ' || *l->p == '\t' || *l->p == '\n' ||
				 *l->p == '\r' || *l->p == '\f' || *l->p == '\v'))
		l->p++;
}

static void push(struct lit *l, int64_t x)
{
	xgrow((void **)&l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = x;
}

/*
 * int(text) for the digits of a Python int literal or str: a sign, digits
 * with single '_' between them.  -1 if it is not one (or overflows).
 */
static int parse_int(const char *s, size_t n, int64_t *out)
{
	char buf[32];
	size_t k = 0, i = 0;
	char *end;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		buf[k++] = s[i++];
	if (i >= n || s[i] < '0' || s[i] > '9')
		return -1;
	for (; i < n; i++) {
		if (s[i] == '_' && i + 1 < n && s[i - 1] >= '0' && s[i - 1] <= '9' &&
		    s[i + 1] >= '0' && s[i + 1] <= '9')
			continue;
		if (s[i] < '0' || s[i] > '9' || k + 1 >= sizeof(buf))
			return -1;
		buf[k++] = s[i];
	}
	buf[k] = '\0';
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return errno ? -1 : 0;
}

/* One element; 0 and its int() value, or -1. */
static int element(struct lit *l, int64_t *x)
{
	const char *s = l->p;
	char q;

	if (s >= l->end)
		return -1;
	if (*s == '\'' || *s == '"') {
		const char *e;
		q = *s;
		for (e = s + 1; e < l->end && *e != q && *e != '\\' && *e != '\n'; e++)
			;
		if (e >= l->end || *e != q)
			return -1;
		l->p = e + 1;
		/* int(str) strips white space */
		while (s + 1 < e && (s[1] == ' ' || s[1] == '\t'))
			s++;
		while (e - 1 > s + 1 && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		return parse_int(s + 1, (size_t)(e - s - 1), x);
	}
	if (l->end - s >= 4 && !memcmp(s, "True", 4)) {
		l->p += 4;
		*x = 1;
		return 0;
	}
	if (l->end - s >= 5 && !memcmp(s, "False", 5)) {
		l->p += 5;
		*x = 0;
		return 0;
	}
	const char *e = s;
	int is_float = 0;
	while (e < l->end && (strchr("0123456789_+-", *e) || *e == '.' || *e == 'e' || *e == 'E')) {
		if (*e == '.' || ((*e == 'e' || *e == 'E') && e > s))
			is_float = 1;
		if ((*e == '+' || *e == '-') && e > s && e[-1] != 'e' && e[-1] != 'E')
			break;
		e++;
	}
	if (e == s)
		return -1;
	l->p = e;
	if (!is_float)
		return parse_int(s, (size_t)(e - s), x);
	char buf[64], *end;
	size_t k = 0;
	for (const char *c = s; c < e; c++)
		if (*c != '_' && k + 1 < sizeof(buf))
			buf[k++] = *c;
	buf[k] = '\0';
	double d = strtod(buf, &end);
	if (*end || !isfinite(d) || d >= 9.2e18 || d <= -9.2e18)
		return -1;
	*x = (int64_t)d;
	return 0;
}

/* elements up to the closing bracket (0 for a bare tuple: end of text) */
static int elements(struct lit *l, char close)
{
	int64_t x;

	for (;;) {
		skip_ws(l);
		if (close ? (l->p < l->end && *l->p == close) : l->p >= l->end)
			break;
		if (element(l, &x) < 0)
			return -1;
		push(l, x);
		skip_ws(l);
		if (l->p < l->end && *l->p == ',') {
			l->p++;
			continue;
		}
		break;
	}
	if (close) {
		if (l->p >= l->end || *l->p != close)
			return -1;
		l->p++;
	}
	return 0;
}

int py_literal_ints(const char *s, size_t len, int64_t **out, size_t *n)
{
	struct lit l = { s, s + len, NULL, 0, 0 };
	int rc = PY_LITERAL_LIST;
	int64_t x;

	skip_ws(&l);
	if (l.p < l.end && (*l.p == '[' || *l.p == '(')) {
		char close = *l.p == '[' ? ']' : ')';
		l.p++;
		if (elements(&l, close) < 0)
			rc = PY_LITERAL_ERROR;
	} else {
		/* a scalar, or a tuple without parentheses */
		const char *start = l.p;
		if (element(&l, &x) < 0) {
			rc = PY_LITERAL_ERROR;
		} else {
			skip_ws(&l);
			if (l.p < l.end && *l.p == ',') {
				l.p = start;
				if (elements(&l, 0) < 0)
					rc = PY_LITERAL_ERROR;
			} else {
				rc = PY_LITERAL_OTHER;
			}
		}
	}
	skip_ws(&l);
	if (rc != PY_LITERAL_ERROR && l.p != l.end)
		rc = PY_LITERAL_ERROR;
	if (rc != PY_LITERAL_LIST) {
		free(l.v);
		l.v = NULL;
		l.n = 0;
	}
	*out = l.v;
	*n = l.n;
	return rc;
}

void py_findall_digits(const char *s, size_t len, int64_t **out, size_t *n)
{
	struct lit l = { s, s + len, NULL, 0, 0 };
	size_t i = 0;

	while (i < len) {
		if (s[i] < '0' || s[i] > '9') {
			i++;
			continue;
		}
		size_t j = i;
		int64_t x = 0;
		while (j < len && s[j] >= '0' && s[j] <= '9') {
			/* Python ints do not overflow; saturate, no rank is that big */
			x = x > (INT64_MAX - 9) / 10 ? INT64_MAX : x * 10 + (s[j] - '0');
			j++;
		}
		push(&l, x);
		i = j;
	}
	*out = l.v;
	*n = l.n;
}
