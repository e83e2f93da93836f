#include <string.h>

#include "cat_json.h"
#include "py_repr.h"
#include "banned.h"

static int find(const char *const *names, int n, const char *want)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], want))
			return i;
	return -1;
}

void cat_json_cols_init(struct cat_json_cols *c, const char *const *names, int n)
{
	c->ph = find(names, n, "ph");
	c->cat = find(names, n, "cat");
	c->name = find(names, n, "name");
	c->pid = find(names, n, "pid");
	c->tid = find(names, n, "tid");
	c->ts = find(names, n, "ts");
	c->dur = find(names, n, "dur");
	c->id = find(names, n, "id");
	c->corr = find(names, n, "corr");
	c->ext = find(names, n, "ext");
	c->seq = find(names, n, "seq");
	c->stream = find(names, n, "stream");
	c->device = find(names, n, "device");
	c->dims = find(names, n, "dims");
	c->types = find(names, n, "types");
	c->strides = find(names, n, "strides");
	c->concrete = find(names, n, "concrete");
	c->args = find(names, n, "args");
	c->extra = find(names, n, "extra");
}

void cat_json_string(struct pystr *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	pystr_addc(out, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\') {
			pystr_addc(out, '\\');
			pystr_addc(out, (char)ch);
		} else if (ch < 0x20) {
			pystr_adds(out, "\\u00");
			pystr_addc(out, hex[ch >> 4]);
			pystr_addc(out, hex[ch & 15]);
		} else {
			pystr_addc(out, (char)ch);
		}
	}
	pystr_addc(out, '"');
}

static const char *f(const char *const *field, int col)
{
	return col >= 0 && field[col] ? field[col] : "";
}

/* "key": value, with the comma before every member but the first */
static void member(struct pystr *out, int *first, const char *key, const char *json)
{
	if (!*first)
		pystr_addc(out, ',');
	*first = 0;
	cat_json_string(out, key);
	pystr_addc(out, ':');
	pystr_adds(out, json);
}

static void string_member(struct pystr *out, int *first, const char *key, const char *s)
{
	struct pystr v = { 0 };

	cat_json_string(&v, s);
	member(out, first, key, v.buf);
	pystr_release(&v);
}

/* the members of a compact JSON object "{...}", spliced in */
static void splice(struct pystr *out, int *first, const char *obj)
{
	size_t n = strlen(obj);

	if (n < 2 || obj[0] != '{' || n == 2)
		return;
	if (!*first)
		pystr_addc(out, ',');
	*first = 0;
	pystr_add(out, obj + 1, n - 2);
}

void cat_json_event(struct pystr *out, const struct cat_json_cols *c, const char *const *field,
		    const char *more)
{
	static const char *const argkey[] = {
		"correlation", "External id", "Sequence number", "stream", "device",
		"Input Dims", "Input type", "Input Strides", "Concrete Inputs"
	};
	const int argcol[] = { c->corr, c->ext, c->seq, c->stream, c->device, c->dims, c->types,
			       c->strides, c->concrete };
	const char *s;
	int first = 1, afirst = 1;

	pystr_addc(out, '{');
	if (*(s = f(field, c->ph)))
		string_member(out, &first, "ph", s);
	if (*(s = f(field, c->cat)))
		string_member(out, &first, "cat", s);
	if (*(s = f(field, c->name)))
		string_member(out, &first, "name", s);
	if (*(s = f(field, c->pid)))
		member(out, &first, "pid", s);
	if (*(s = f(field, c->tid)))
		member(out, &first, "tid", s);
	if (*(s = f(field, c->ts)))
		member(out, &first, "ts", s);
	if (*(s = f(field, c->dur)))
		member(out, &first, "dur", s);
	if (*(s = f(field, c->id)))
		member(out, &first, "id", s);
	splice(out, &first, f(field, c->extra));
	if (*f(field, c->args)) {
		if (!first)
			pystr_addc(out, ',');
		first = 0;
		pystr_adds(out, "\"args\":{");
		for (size_t i = 0; i < sizeof(argkey) / sizeof(argkey[0]); i++)
			if (*(s = f(field, argcol[i])))
				member(out, &afirst, argkey[i], s);
		splice(out, &afirst, f(field, c->args));
		if (more && *more) {
			if (!afirst)
				pystr_addc(out, ',');
			pystr_adds(out, more);
		}
		pystr_addc(out, '}');
	}
	pystr_addc(out, '}');
}
