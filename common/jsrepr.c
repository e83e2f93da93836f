#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsrepr.h"
#include "pyfmt.h"
#include "xalloc.h"
#include "banned.h"

struct rb {
	char *s;
	size_t n, alloc;
	const char *p, *end;
	int depth;
};

static void put(char **buf, size_t *len, size_t *alloc, const char *s, size_t n)
{
	xgrow((void **)buf, alloc, *len + n + 1, 1);
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static void rput(struct rb *r, const char *s, size_t n)
{
	put(&r->s, &r->n, &r->alloc, s, n);
}

static void skip_ws(struct rb *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int hex4(const char *p, const char *end, uint32_t *v)
{
	*v = 0;
	if (end - p < 4)
		return -1;
	for (int k = 0; k < 4; k++) {
		int h = hexval(p[k]);
		if (h < 0)
			return -1;
		*v = *v << 4 | (uint32_t)h;
	}
	return 0;
}

static void put_utf8(char **b, size_t *n, size_t *a, uint32_t c)
{
	char u[4];
	size_t k;

	if (c < 0x80)
		u[0] = (char)c, k = 1;
	else if (c < 0x800)
		u[0] = (char)(0xc0 | c >> 6), u[1] = (char)(0x80 | (c & 0x3f)), k = 2;
	else if (c < 0x10000)
		u[0] = (char)(0xe0 | c >> 12), u[1] = (char)(0x80 | ((c >> 6) & 0x3f)),
		u[2] = (char)(0x80 | (c & 0x3f)), k = 3;
	else
		u[0] = (char)(0xf0 | c >> 18), u[1] = (char)(0x80 | ((c >> 12) & 0x3f)),
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), k = 4;
	put(b, n, a, u, k);
}

/* Decodes the JSON string at r->p (at the opening quote) into out. */
static int decode_string(struct rb *r, char **out, size_t *on, size_t *oa)
{
	const char *p = r->p + 1;

	while (p < r->end && *p != '"') {
		uint32_t c, lo;
		if (*p != '\\') {
			put(out, on, oa, p, 1);
			p++;
			continue;
		}
		if (++p >= r->end)
			return -1;
		switch (*p) {
		case 'n': put(out, on, oa, "\n", 1); break;
		case 't': put(out, on, oa, "\t", 1); break;
		case 'r': put(out, on, oa, "\r", 1); break;
		case 'b': put(out, on, oa, "\b", 1); break;
		case 'f': put(out, on, oa, "\f", 1); break;
		case '/': case '\\': case '"': put(out, on, oa, p, 1); break;
		case 'u':
			if (hex4(p + 1, r->end, &c) < 0)
				return -1;
			p += 4;
			if (c >= 0xd800 && c < 0xdc00 && r->end - p > 6 && p[1] == '\\' &&
			    p[2] == 'u' && !hex4(p + 3, r->end, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			}
			put_utf8(out, on, oa, c);
			break;
		default:
			return -1;
		}
		p++;
	}
	if (p >= r->end)
		return -1;
	r->p = p + 1;
	return 0;
}

/* Non-printable for Python: C0/C1 controls, DEL, NBSP and soft hyphen. */
static int py_unprintable(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0xad;
}

void jsrepr_str(char **buf, size_t *len, size_t *alloc, const char *s, size_t n)
{
	int dq = memchr(s, '\'', n) && !memchr(s, '"', n);
	char q = dq ? '"' : '\'';
	static const char hex[] = "0123456789abcdef";

	put(buf, len, alloc, &q, 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp = c;
		char e[4] = { '\\', 'x', 0, 0 };
		if (c == 0xc2 && i + 1 < n)
			cp = (unsigned char)s[i + 1] & 0x3f, cp |= 0x80;
		if (c == '\\' || c == (unsigned char)q) {
			put(buf, len, alloc, "\\", 1);
			put(buf, len, alloc, s + i, 1);
		} else if (c == '\n') {
			put(buf, len, alloc, "\\n", 2);
		} else if (c == '\r') {
			put(buf, len, alloc, "\\r", 2);
		} else if (c == '\t') {
			put(buf, len, alloc, "\\t", 2);
		} else if (py_unprintable(cp) && (c < 0x80 || c == 0xc2)) {
			e[2] = hex[cp >> 4], e[3] = hex[cp & 15];
			put(buf, len, alloc, e, 4);
			i += c == 0xc2;
		} else {
			put(buf, len, alloc, s + i, 1);
		}
	}
	put(buf, len, alloc, &q, 1);
}

static int value(struct rb *r);

static int number(struct rb *r)
{
	const char *p = r->p;
	char fb[PY_FLOAT_MAX], *end;
	int is_float = 0;

	while (p < r->end && strchr("+-0123456789.eE", *p)) {
		is_float |= *p == '.' || *p == 'e' || *p == 'E';
		p++;
	}
	if (p == r->p)
		return -1;
	if (!is_float) {
		const char *q = r->p;
		if (*q == '-' && p - q == 2 && q[1] == '0')
			q++;	/* int("-0") is 0 */
		rput(r, q, (size_t)(p - q));
	} else {
		char *tmp = xstrndup(r->p, (size_t)(p - r->p));
		double d = strtod(tmp, &end);
		int bad = *end != '\0';
		free(tmp);
		if (bad)
			return -1;
		rput(r, fb, py_float_repr(d, fb));
	}
	r->p = p;
	return 0;
}

static int string(struct rb *r)
{
	char *s = NULL;
	size_t n = 0, a = 0;
	int rc = decode_string(r, &s, &n, &a);

	if (!rc)
		jsrepr_str(&r->s, &r->n, &r->alloc, s ? s : "", n);
	free(s);
	return rc;
}

static int array(struct rb *r)
{
	int count = 0;

	r->p++;
	rput(r, "(", 1);
	skip_ws(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		rput(r, ")", 1);
		return 0;
	}
	for (;;) {
		if (count++)
			rput(r, ", ", 2);
		if (value(r) < 0)
			return -1;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == ']')
			break;
		return -1;
	}
	r->p++;
	rput(r, count == 1 ? ",)" : ")", count == 1 ? 2 : 1);
	return 0;
}

static int object(struct rb *r)
{
	int count = 0;

	r->p++;
	rput(r, "{", 1);
	skip_ws(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		rput(r, "}", 1);
		return 0;
	}
	for (;;) {
		if (count++)
			rput(r, ", ", 2);
		skip_ws(r);
		if (r->p >= r->end || *r->p != '"' || string(r) < 0)
			return -1;
		skip_ws(r);
		if (r->p >= r->end || *r->p != ':')
			return -1;
		r->p++;
		rput(r, ": ", 2);
		if (value(r) < 0)
			return -1;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == '}')
			break;
		return -1;
	}
	r->p++;
	rput(r, "}", 1);
	return 0;
}

static int word(struct rb *r, const char *json, const char *py)
{
	size_t n = strlen(json);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, json, n))
		return -1;
	r->p += n;
	rput(r, py, strlen(py));
	return 0;
}

static int value(struct rb *r)
{
	int rc;

	skip_ws(r);
	if (r->p >= r->end || ++r->depth > 200)
		return -1;
	switch (*r->p) {
	case '[': rc = array(r); break;
	case '{': rc = object(r); break;
	case '"': rc = string(r); break;
	case 't': rc = word(r, "true", "True"); break;
	case 'f': rc = word(r, "false", "False"); break;
	case 'n': rc = word(r, "null", "None"); break;
	default: rc = number(r); break;
	}
	r->depth--;
	return rc;
}

char *jsrepr(const char *json, size_t n)
{
	struct rb r = { NULL, 0, 0, json, json + n, 0 };

	rput(&r, "", 0);
	if (value(&r) < 0) {
		free(r.s);
		return NULL;
	}
	skip_ws(&r);
	if (r.p != r.end) {
		free(r.s);
		return NULL;
	}
	return r.s;
}
