#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll_value.h"
#include "json_value.h"
#include "py_fmt.h"
#include "strpool.h"
#include "banned.h"

struct cv cv_number(double d)
{
	return d == d ? cv_float(d) : cv_nan();
}

struct cv cv_str(struct strpool *sp, const char *s, size_t n)
{
	struct cv v = cv_none();

	v.kind = CV_STR;
	v.s = strpool_str(sp, strpool_intern(sp, s, n));
	return v;
}

static struct cv from_jval(struct strpool *sp, const struct json_value *j,
			   const char *json, size_t len)
{
	struct cv v = cv_none();
	struct pystr ps = { 0 };
	char *end;

	switch (j->type) {
	case JV_NULL:
		return v;
	case JV_TRUE:
	case JV_FALSE:
		v.kind = CV_BOOL;
		v.i = j->type == JV_TRUE;
		return v;
	case JV_INT:
		errno = 0;
		v.i = strtoll(j->s, &end, 10);
		if (!errno && end == j->s + j->len) {
			v.kind = CV_INT;
			return v;
		}
		return cv_number(j->num);
	case JV_FLOAT:
		return cv_number(j->num);
	case JV_STR:
		return cv_str(sp, j->s, j->len);
	case JV_ARR:
	case JV_OBJ:
		/* TraceLens turns lists into tuples (list_to_tuple); dicts stay */
		py_repr_jval(&ps, j, j->type == JV_ARR ? PY_REPR_TUPLE : 0);
		v.kind = CV_OBJ;
		v.s = strpool_str(sp, strpool_intern(sp, ps.buf, ps.len));
		v.json = strpool_str(sp, strpool_intern(sp, json, len));
		pystr_release(&ps);
		return v;
	}
	return v;
}

int cv_from_json(struct strpool *sp, const char *json, size_t len, struct cv *out)
{
	struct json_value *j;

	*out = cv_none();
	if (!len)
		return 0;
	if (!(j = json_value_parse(json, len)))
		return -1;
	*out = from_jval(sp, j, json, len);
	json_value_free(j);
	return 0;
}

double cv_num(const struct cv *v)
{
	switch (v->kind) {
	case CV_INT:
	case CV_BOOL:
		return (double)v->i;
	case CV_FLOAT:
		return v->d;
	default:
		return NAN;
	}
}

int cv_same(const struct cv *a, const struct cv *b)
{
	if (cv_isnum(a) && cv_isnum(b)) {
		if (a->kind != CV_FLOAT && b->kind != CV_FLOAT)
			return a->i == b->i;
		return cv_num(a) == cv_num(b);
	}
	if (a->kind != b->kind)
		return 0;
	if (a->kind == CV_STR || a->kind == CV_OBJ)
		return a->s == b->s;	/* interned */
	return 1;			/* None, NaN */
}

/* Python's order of two JSON values standing for tuple elements. */
static int type_rank(const struct json_value *j)
{
	switch (j->type) {
	case JV_NULL: return 3;
	case JV_TRUE: case JV_FALSE: case JV_INT: case JV_FLOAT: return 0;
	case JV_ARR: return 1;
	case JV_STR: return 2;
	default: return 4;
	}
}

static double jnum(const struct json_value *j)
{
	return j->type == JV_TRUE ? 1 : j->type == JV_FALSE ? 0 : j->num;
}

static int jcmp(const struct json_value *a, const struct json_value *b)
{
	int ra = type_rank(a), rb = type_rank(b), c;
	size_t i, n;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	switch (ra) {
	case 0:
		return (jnum(a) > jnum(b)) - (jnum(a) < jnum(b));
	case 1:
		n = a->n < b->n ? a->n : b->n;
		for (i = 0; i < n; i++)
			if ((c = jcmp(&a->kids[i], &b->kids[i])))
				return c;
		return (a->n > b->n) - (a->n < b->n);
	case 2:
		n = a->len < b->len ? a->len : b->len;
		if ((c = memcmp(a->s, b->s, n)))
			return c < 0 ? -1 : 1;
		return (a->len > b->len) - (a->len < b->len);
	default:
		return 0;
	}
}

static int obj_cmp(const struct cv *a, const struct cv *b)
{
	struct json_value *x = json_value_parse(a->json, strlen(a->json));
	struct json_value *y = json_value_parse(b->json, strlen(b->json));
	int c = x && y ? jcmp(x, y) : 0;

	json_value_free(x);
	json_value_free(y);
	return c ? c : strcmp(a->s, b->s);
}

static int kind_rank(const struct cv *v)
{
	if (cv_isnum(v))
		return 0;
	return v->kind == CV_OBJ ? 1 : v->kind == CV_STR ? 2 : 3;
}

int cv_cmp(const struct cv *a, const struct cv *b)
{
	int ra = kind_rank(a), rb = kind_rank(b);
	double x, y;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	switch (ra) {
	case 0:
		if (a->kind != CV_FLOAT && b->kind != CV_FLOAT)
			return (a->i > b->i) - (a->i < b->i);
		x = cv_num(a);
		y = cv_num(b);
		return (x > y) - (x < y);
	case 1:
		return a->s == b->s ? 0 : obj_cmp(a, b);
	case 2:
		return a->s == b->s ? 0 : strcmp(a->s, b->s) < 0 ? -1 : 1;
	default:
		return 0;
	}
}

enum cv_dtype cv_infer(const struct cv *v, size_t n)
{
	int obj = 0, bools = 0, ints = 0, floats = 0, nones = 0, nans = 0;

	for (size_t i = 0; i < n; i++)
		switch (v[i].kind) {
		case CV_NONE: nones++; break;
		case CV_NAN: nans++; break;
		case CV_BOOL: bools++; break;
		case CV_INT: ints++; break;
		case CV_FLOAT: floats++; break;
		default: obj++; break;
		}
	if (obj)
		return DT_OBJ;
	if (bools)
		return bools == (int)n ? DT_BOOL : DT_OBJ;
	if (!ints && !floats && !nans)
		return DT_OBJ;		/* only None (or nothing) */
	if (floats || nans || nones)
		return DT_FLOAT;
	return DT_INT;
}

void cv_cast(struct cv *v, size_t n, enum cv_dtype dt)
{
	if (dt != DT_FLOAT)
		return;
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == CV_INT)
			v[i] = cv_float((double)v[i].i);
		else if (v[i].kind == CV_NONE)
			v[i] = cv_nan();
}

static void add_int(struct pystr *ps, int64_t i)
{
	char buf[24];
	size_t n = 0;
	uint64_t u = i < 0 ? -(uint64_t)i : (uint64_t)i;

	do
		buf[sizeof(buf) - ++n] = (char)('0' + u % 10);
	while ((u /= 10));
	if (i < 0)
		buf[sizeof(buf) - ++n] = '-';
	pystr_add(ps, buf + sizeof(buf) - n, n);
}

void cv_print(struct pystr *ps, const struct cv *v, enum cv_dtype dt)
{
	switch (v->kind) {
	case CV_NONE:
	case CV_NAN:
		return;
	case CV_BOOL:
		if (dt == DT_FLOAT)
			py_repr_float(ps, (double)v->i);
		else
			pystr_adds(ps, v->i ? "True" : "False");
		return;
	case CV_INT:
		if (dt == DT_FLOAT)
			py_repr_float(ps, (double)v->i);
		else
			add_int(ps, v->i);
		return;
	case CV_FLOAT:
		py_repr_float(ps, v->d);
		return;
	case CV_STR:
	case CV_OBJ:
		pystr_adds(ps, v->s);
		return;
	}
}

void cv_repr(struct pystr *ps, const struct cv *v)
{
	switch (v->kind) {
	case CV_NONE:
		pystr_adds(ps, "None");
		return;
	case CV_NAN:
		pystr_adds(ps, "nan");
		return;
	case CV_STR:
		py_repr_str(ps, v->s, strlen(v->s));
		return;
	default:
		cv_print(ps, v, DT_OBJ);
	}
}

void cv_key(struct pystr *ps, const struct cv *v)
{
	switch (v->kind) {
	case CV_NONE:
		pystr_adds(ps, "none");
		return;
	case CV_NAN:
		pystr_adds(ps, "nan");
		return;
	case CV_BOOL:
	case CV_INT:
		pystr_adds(ps, "n:");
		add_int(ps, v->i);
		return;
	case CV_FLOAT:
		pystr_adds(ps, "n:");
		/* 4.0 is the key of 4 */
		if (v->d > -9.2e18 && v->d < 9.2e18 && v->d == (double)(int64_t)v->d)
			add_int(ps, (int64_t)v->d);
		else
			py_repr_float(ps, v->d);
		return;
	case CV_STR:
		pystr_adds(ps, "s:");
		pystr_adds(ps, v->s);
		return;
	case CV_OBJ:
		pystr_adds(ps, "o:");
		pystr_adds(ps, v->s);
		return;
	}
}
