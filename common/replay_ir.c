/*
 * replay_ir: TraceLens's schema match and replay IR (see replay_ir.h).
 * Each rule cites event_replay.py; where TraceLens raises, the build fails
 * with the reason, as the whole search does there.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "py_fmt.h"
#include "py_unicode.h"
#include "replay_ir.h"
#include "xalloc.h"
#include "banned.h"

/* utils.py list_profile_tensor_types */
static const char *const tensor_types[] = {
	"double", "float", "c10::Half", "c10::BFloat16", "long", "int", "bool", NULL
};

enum { NOMATCH = 0, MATCH = 1, RAISE = -1 };

static int fail(struct replay_ir *ir, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ir->why, sizeof(ir->why), fmt, ap);
	va_end(ap);
	return RAISE;
}

static int starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int ends_q(const char *s)
{
	size_t n = strlen(s);
	return n && s[n - 1] == '?';
}

static int is_tensor_type(const char *t)	/* ["Tensor", "Tensor?", "Tensor(a!)"] */
{
	return !strcmp(t, "Tensor") || !strcmp(t, "Tensor?") || !strcmp(t, "Tensor(a!)");
}

static int py_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* x.lstrip("-").isdigit() */
static int digits_after_minus(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == '-')
		i++;
	if (i == n)
		return 0;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* float(s): Python's grammar (no '_'), value in *x */
static int py_float(const char *s, size_t n, double *x)
{
	char buf[128], *end;
	size_t i = 0, j;

	while (n && py_space((unsigned char)s[n - 1]))
		n--;
	while (i < n && py_space((unsigned char)s[i]))
		i++;
	if (n - i == 0 || n - i >= sizeof(buf))
		return -1;
	tl_memcpy(buf, s + i, n - i);
	buf[n - i] = '\0';
	j = buf[0] == '+' || buf[0] == '-';
	if (!strcasecmp(buf + j, "inf") || !strcasecmp(buf + j, "infinity") ||
	    !strcasecmp(buf + j, "nan")) {
		*x = strtod(buf, NULL);
		return 0;
	}
	for (size_t k = j; buf[k]; k++)	/* no hex, no "e" alone: strtod checks the rest */
		if (!strchr("0123456789.eE+-", buf[k]))
			return -1;
	*x = strtod(buf, &end);
	return *end == '\0' && end != buf + j ? 0 : -1;
}

/* items of s.strip()[1:-1].split(","), each stripped */
struct items {
	const char *s[64];
	size_t n[64], count;
	int overflow;
};

static void split_list(const char *s, size_t n, struct items *it)
{
	size_t a = 0;

	it->count = 0;
	it->overflow = 0;
	while (n && py_space((unsigned char)s[n - 1]))
		n--;
	while (a < n && py_space((unsigned char)s[a]))
		a++;
	if (n - a < 2) {
		a = n = 0;
	} else {
		a++;
		n--;
	}
	for (;;) {
		const char *c = memchr(s + a, ',', n - a);
		size_t e = c ? (size_t)(c - s) : n, b = a;
		while (b < e && py_space((unsigned char)s[b]))
			b++;
		size_t f = e;
		while (f > b && py_space((unsigned char)s[f - 1]))
			f--;
		if (it->count == 64) {
			it->overflow = 1;
			return;
		}
		it->s[it->count] = s + b;
		it->n[it->count++] = f - b;
		if (!c)
			return;
		a = e + 1;
	}
}

static const struct json_value *at(const struct json_value *arr, size_t i)
{
	return arr && arr->type == JV_ARR && i < arr->n ? &arr->kids[i] : NULL;
}

/* Concrete Inputs[idx] as a string, or RAISE */
static int concrete_str(struct replay_ir *ir, size_t idx, const char **s, size_t *n)
{
	const struct json_value *v = at(ir->concrete, idx);

	if (!v)
		return fail(ir, "no Concrete Inputs[%zu] recorded", idx);
	if (v->type != JV_STR)
		return fail(ir, "Concrete Inputs[%zu] is not a string", idx);
	*s = v->s;
	*n = v->len;
	return MATCH;
}

/* _is_schema_match for one argument (event_replay.py:131-209) */
static int match_arg(struct replay_ir *ir, size_t idx, const char *stype)
{
	const struct json_value *pt = at(ir->types, idx);
	const char *ptype = pt && pt->type == JV_STR ? pt->s : NULL;
	char type[128];
	const char *cs;
	size_t cn;
	double x;
	struct items it;

	snprintf(type, sizeof(type), "%s", stype);
	if (ends_q(type)) {
		type[strlen(type) - 1] = '\0';
		if (ptype && !*ptype)
			return MATCH;
		if (ptype && !strcmp(ptype, "ScalarList")) {
			if (concrete_str(ir, idx, &cs, &cn) < 0)
				return RAISE;
			if (cn == 2 && !memcmp(cs, "[]", 2))
				return MATCH;
		}
	}
	if (is_tensor_type(type)) {
		for (int i = 0; tensor_types[i]; i++)
			if (ptype && !strcmp(ptype, tensor_types[i]))
				return MATCH;
		return NOMATCH;
	}
	if (!strcmp(type, "bool")) {
		if (concrete_str(ir, idx, &cs, &cn) < 0)
			return RAISE;
		return !strcasecmp(cs, "true") || !strcasecmp(cs, "false");
	}
	if (!strcmp(type, "int") || !strcmp(type, "SymInt")) {
		if (concrete_str(ir, idx, &cs, &cn) < 0)
			return RAISE;
		return ptype && !strcmp(ptype, "Scalar") && digits_after_minus(cs, cn);
	}
	if (!strcmp(type, "float") || !strcmp(type, "Scalar")) {
		if (concrete_str(ir, idx, &cs, &cn) < 0)
			return RAISE;
		return ptype && !strcmp(ptype, "Scalar") && py_float(cs, cn, &x) == 0;
	}
	if (starts(type, "int[") || starts(type, "SymInt[") || starts(type, "bool[")) {
		int isbool = starts(type, "bool[");
		if (concrete_str(ir, idx, &cs, &cn) < 0)
			return RAISE;
		if (!ptype || strcmp(ptype, "ScalarList"))
			return NOMATCH;
		split_list(cs, cn, &it);
		if (it.overflow)
			return fail(ir, "argument %zu: list longer than 64 items", idx);
		for (size_t i = 0; i < it.count; i++)
			if (isbool ? !((it.n[i] == 4 && !strncasecmp(it.s[i], "true", 4)) ||
				       (it.n[i] == 5 && !strncasecmp(it.s[i], "false", 5)))
				   : !digits_after_minus(it.s[i], it.n[i]))
				return NOMATCH;
		return MATCH;
	}
	if (starts(type, "Tensor["))
		return fail(ir, "Tensor list type not supported: %s (tensor shapes are not recorded)",
			    type);
	return NOMATCH;	/* TraceLens: "Unknown schema type" warning */
}

/* _is_schema_match (event_replay.py:112-218) */
static int match(struct replay_ir *ir, const struct replay_sig *sig)
{
	if (!ir->types || ir->types->type != JV_ARR)
		return fail(ir, "no Input type recorded");
	if (ir->types->n != sig->n)
		return NOMATCH;
	for (size_t i = 0; i < sig->n; i++) {
		int r = match_arg(ir, i, sig->arg[i].type);
		if (r != MATCH)
			return r;
	}
	return MATCH;
}

/* ---- json.dump(indent=4) ----------------------------------------------- */

static void nl(struct pystr *o, int level)
{
	pystr_addc(o, '\n');
	for (int i = 0; i < level; i++)
		pystr_add(o, "    ", 4);
}

void replay_json_str(struct pystr *o, const char *s, size_t n)
{
	const char *e = s + n;
	char buf[16];

	pystr_addc(o, '"');
	while (s < e) {
		uint32_t cp;
		unsigned char c = (unsigned char)*s;
		if (c < 0x80) {
			s++;
			switch (c) {
			case '"': pystr_add(o, "\\\"", 2); break;
			case '\\': pystr_add(o, "\\\\", 2); break;
			case '\n': pystr_add(o, "\\n", 2); break;
			case '\r': pystr_add(o, "\\r", 2); break;
			case '\t': pystr_add(o, "\\t", 2); break;
			case '\b': pystr_add(o, "\\b", 2); break;
			case '\f': pystr_add(o, "\\f", 2); break;
			default:
				if (c < 0x20 || c == 0x7f) {	/* outside ' '..'~' */
					snprintf(buf, sizeof(buf), "\\u%04x", c);
					pystr_adds(o, buf);
				} else {
					pystr_addc(o, (char)c);
				}
			}
			continue;
		}
		s += py_utf8_next(s, &cp);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			snprintf(buf, sizeof(buf), "\\u%04x\\u%04x", 0xd800 + (cp >> 10),
				 0xdc00 + (cp & 0x3ff));
		} else {
			snprintf(buf, sizeof(buf), "\\u%04x", cp);
		}
		pystr_adds(o, buf);
	}
	pystr_addc(o, '"');
}

static void json_float(struct pystr *o, double x)
{
	char buf[40];

	if (isnan(x))
		pystr_adds(o, "NaN");
	else if (isinf(x))
		pystr_adds(o, x < 0 ? "-Infinity" : "Infinity");
	else {
		py_float_repr(x, buf);
		pystr_adds(o, buf);
	}
}

/* an integer's digits as int() and json.dumps give them back */
static void json_int(struct pystr *o, const char *s, size_t n)
{
	int neg = n && *s == '-';

	if (neg || (n && *s == '+')) {
		s++;
		n--;
	}
	while (n > 1 && *s == '0') {
		s++;
		n--;
	}
	if (neg && !(n == 1 && *s == '0'))
		pystr_addc(o, '-');
	pystr_add(o, s, n);
}

/* json.dumps(v, indent=4) at level; level < 0: json.dumps(v) */
void replay_json_dump(struct pystr *o, const struct json_value *v, int level)
{
	switch (v->type) {
	case JV_NULL: pystr_adds(o, "null"); break;
	case JV_TRUE: pystr_adds(o, "true"); break;
	case JV_FALSE: pystr_adds(o, "false"); break;
	case JV_INT: json_int(o, v->s, v->len); break;
	case JV_FLOAT: json_float(o, v->num); break;
	case JV_STR: replay_json_str(o, v->s, v->len); break;
	case JV_ARR:
	case JV_OBJ:
		if (v->n == 0) {
			pystr_adds(o, v->type == JV_ARR ? "[]" : "{}");
			break;
		}
		pystr_addc(o, v->type == JV_ARR ? '[' : '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				pystr_add(o, ", ", level < 0 ? 2 : 1);
			if (level >= 0)
				nl(o, level + 1);
			if (v->type == JV_OBJ) {
				replay_json_str(o, v->keys[i], v->keylens[i]);
				pystr_add(o, ": ", 2);
			}
			replay_json_dump(o, &v->kids[i], level < 0 ? level : level + 1);
		}
		if (level >= 0)
			nl(o, level);
		pystr_addc(o, v->type == JV_ARR ? ']' : '}');
		break;
	}
}

static void key(struct pystr *o, int level, const char *k, int first)
{
	if (!first)
		pystr_addc(o, ',');
	nl(o, level);
	replay_json_str(o, k, strlen(k));
	pystr_add(o, ": ", 2);
}

/* ---- _get_event_replay_IR (event_replay.py:220-324) ------------------- */

/* the TensorCfg dict at level (its keys one deeper) */
static int tensor_value(struct replay_ir *ir, struct pystr *o, size_t idx, int level,
			const char *op, const char *argname)
{
	const struct json_value *d = at(ir->dims, idx), *t = at(ir->types, idx);
	const struct json_value *s = at(ir->strides, idx);
	int noinit = !strcmp(op, "aten::fill_") ||
		     (!strcmp(op, "aten::copy_") && strcmp(argname, "src"));

	if (!d || !s)
		return fail(ir, "no Input Dims/Strides[%zu] recorded", idx);
	pystr_addc(o, '{');
	key(o, level + 1, "shape", 1);
	replay_json_dump(o, d, level + 1);
	key(o, level + 1, "dtype", 0);
	replay_json_dump(o, t, level + 1);
	key(o, level + 1, "strides", 0);
	replay_json_dump(o, s, level + 1);
	key(o, level + 1, "init", 0);
	pystr_adds(o, noinit ? "null" : "\"normal\"");
	nl(o, level);
	pystr_addc(o, '}');
	ir->ntensor++;
	return 0;
}

/* int(x) of a string that matched x.lstrip("-").isdigit() */
static int int_value(struct replay_ir *ir, struct pystr *o, const char *s, size_t n)
{
	if (n >= 2 && s[0] == '-' && s[1] == '-')
		return fail(ir, "invalid literal for int(): '%.*s'", (int)n, s);
	json_int(o, s, n);
	return 0;
}

static int scalar_value(struct replay_ir *ir, struct pystr *o, size_t idx, const char *type,
			int level)
{
	const char *cs;
	size_t cn;
	double x;
	struct items it;

	if (concrete_str(ir, idx, &cs, &cn) < 0)
		return -1;
	if (!strcmp(type, "bool") || !strcmp(type, "bool?")) {
		pystr_adds(o, !strcasecmp(cs, "true") ? "true" : "false");
		return 0;
	}
	if (!strcmp(type, "int") || !strcmp(type, "SymInt"))
		return int_value(ir, o, cs, cn);
	if (!strcmp(type, "float") || !strcmp(type, "float?") || !strcmp(type, "Scalar") ||
	    !strcmp(type, "Scalar?")) {
		if (py_float(cs, cn, &x) < 0)
			return fail(ir, "could not convert string to float: '%.*s'", (int)cn, cs);
		json_float(o, x);
		return 0;
	}
	if (!starts(type, "int[") && !starts(type, "SymInt[") && !starts(type, "bool["))
		return fail(ir, "Unsupported arg type: %s", type);
	split_list(cs, cn, &it);
	if (it.overflow)
		return fail(ir, "argument %zu: list longer than 64 items", idx);
	pystr_addc(o, '[');
	for (size_t i = 0; i < it.count; i++) {
		if (i)
			pystr_addc(o, ',');
		nl(o, level + 1);
		if (starts(type, "bool["))
			pystr_adds(o, it.n[i] == 4 && !strncasecmp(it.s[i], "true", 4) ? "true" : "false");
		else if (!digits_after_minus(it.s[i], it.n[i]))
			return fail(ir, "invalid literal for int(): '%.*s'", (int)it.n[i], it.s[i]);
		else if (int_value(ir, o, it.s[i], it.n[i]) < 0)
			return -1;
	}
	nl(o, level);
	pystr_addc(o, ']');
	return 0;
}

/* one {"arg_name", "arg_type", "value"} element of a list at level 4 */
static int ir_arg(struct replay_ir *ir, struct pystr *o, size_t idx, const char *op)
{
	const struct replay_sig_arg *a = &ir->sig.arg[idx];
	const struct json_value *pt = at(ir->types, idx), *cv = at(ir->concrete, idx);
	const int lv = 4;

	if (o->len)
		pystr_addc(o, ',');
	nl(o, lv);
	pystr_addc(o, '{');
	key(o, lv + 1, "arg_name", 1);
	replay_json_str(o, a->name, strlen(a->name));
	key(o, lv + 1, "arg_type", 0);
	replay_json_str(o, a->type, strlen(a->type));
	key(o, lv + 1, "value", 0);
	if (ends_q(a->type) && pt && pt->type == JV_STR && pt->len == 0) {
		pystr_adds(o, "null");
	} else if (ends_q(a->type) && cv && cv->type == JV_STR && !strcmp(cv->s, "[]")) {
		pystr_adds(o, "[]");
	} else if (ends_q(a->type) && !cv) {
		return fail(ir, "no Concrete Inputs[%zu] recorded", idx);
	} else if (is_tensor_type(a->type)) {
		if (tensor_value(ir, o, idx, lv + 1, op, a->name) < 0)
			return -1;
	} else if (scalar_value(ir, o, idx, a->type, lv + 1) < 0) {
		return -1;
	}
	nl(o, lv);
	pystr_addc(o, '}');
	return 0;
}

static struct json_value *parse(const char *s)
{
	return s && *s ? json_value_parse(s, strlen(s)) : NULL;
}

int replay_ir_build(struct replay_ir *ir, const struct replay_schemas *rs,
		    const struct replay_event *ev)
{
	size_t n;
	const uint32_t *ids = replay_schemas_find(rs, ev->name, &n);
	int r = NOMATCH;

	memset(ir, 0, sizeof(*ir));
	ir->dims = parse(ev->dims);
	ir->types = parse(ev->types);
	ir->strides = parse(ev->strides);
	ir->concrete = parse(ev->concrete);
	for (size_t i = 0; i < n && r == NOMATCH; i++) {
		const char *why;
		if (replay_sig_parse(&ir->sig, replay_schemas_text(rs, ids[i]), &why) < 0) {
			r = fail(ir, "%s: %s", why, replay_schemas_text(rs, ids[i]));
			break;
		}
		r = match(ir, &ir->sig);
		if (r == MATCH)
			ir->schema = replay_schemas_text(rs, ids[i]);
		else
			replay_sig_release(&ir->sig);
	}
	if (r == NOMATCH && n)
		fail(ir, "none of its %zu schemas matches its arguments", n);
	else if (r == NOMATCH)
		fail(ir, "no schema of that name");
	if (r != MATCH)
		return -1;
	for (size_t i = 0; i < ir->sig.n; i++)
		if (ir_arg(ir, i < ir->sig.npos ? &ir->args : &ir->kwargs, i, ev->name) < 0)
			return -1;
	return 0;
}

static void arg_list(struct pystr *o, const struct pystr *body)
{
	if (!body->len) {
		pystr_adds(o, "[]");
		return;
	}
	pystr_addc(o, '[');
	pystr_add(o, body->buf, body->len);
	nl(o, 3);
	pystr_addc(o, ']');
}

void replay_ir_write(const struct replay_ir *ir, struct pystr *o, const char *name, long count)
{
	pystr_addc(o, '{');
	key(o, 2, "op_name", 1);
	replay_json_str(o, name, strlen(name));
	key(o, 2, "replay_ir", 0);
	pystr_addc(o, '{');
	key(o, 3, "list_pos_args", 1);
	arg_list(o, &ir->args);
	key(o, 3, "list_kwargs", 0);
	arg_list(o, &ir->kwargs);
	nl(o, 2);
	pystr_addc(o, '}');
	if (count >= 0) {
		char num[24];
		key(o, 2, "count", 0);
		snprintf(num, sizeof(num), "%ld", count);
		pystr_adds(o, num);
	}
	nl(o, 1);
	pystr_addc(o, '}');
}

void replay_ir_release(struct replay_ir *ir)
{
	json_value_free(ir->dims);
	json_value_free(ir->types);
	json_value_free(ir->strides);
	json_value_free(ir->concrete);
	replay_sig_release(&ir->sig);
	pystr_release(&ir->args);
	pystr_release(&ir->kwargs);
}
