/*
 * replay_schema: the ATen schema table and TraceLens's schema-string parse
 * (see replay_schema.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "replay_schema.h"
#include "share.h"
#include "sort.h"
#include "xalloc.h"
#include "banned.h"

struct schema_line {
	char *name;		/* "aten::add" */
	char *text;		/* "aten::add.Tensor(Tensor self, ...) -> Tensor" */
};

struct replay_schemas {
	struct schema_line *line;	/* table order */
	size_t n;
	uint32_t *byname;		/* ids sorted by (name, id) */
};

static const struct replay_schemas *sort_ctx;

static int cmp_byname(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sort_ctx->line[x].name, sort_ctx->line[y].name);

	return c ? c : (x > y) - (x < y);
}

/* torch's FunctionSchema.name: the text before the overload's '.' or '(' */
static char *schema_name(const char *text)
{
	size_t n = strcspn(text, "(");
	const char *colon = strstr(text, "::");
	const char *dot;

	if (colon && (size_t)(colon - text) < n &&
	    (dot = memchr(colon, '.', n - (size_t)(colon - text))))
		n = (size_t)(dot - text);
	return xstrndup(text, n);
}

struct replay_schemas *replay_schemas_load(const char *path)
{
	char *found = NULL, *buf = NULL;
	size_t cap = 0, alloc = 0;
	struct replay_schemas *rs;
	ssize_t len;
	FILE *f;

	if (!path && !(path = found = tl_share_path("aten-schemas.txt"))) {
		tl_warn("aten-schemas.txt: not found in the share folder (set TL_SHARE)");
		return NULL;
	}
	if (!(f = fopen(path, "r"))) {
		tl_warn_errno("%s", path);
		free(found);
		return NULL;
	}
	rs = xcalloc(1, sizeof(*rs));
	while ((len = getline(&buf, &cap, f)) > 0) {
		if (buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (len == 0 || buf[0] == '#')
			continue;
		xgrow((void **)&rs->line, &alloc, rs->n + 1, sizeof(*rs->line));
		rs->line[rs->n].name = schema_name(buf);
		rs->line[rs->n].text = xstrdup(buf);
		rs->n++;
	}
	free(buf);
	fclose(f);
	free(found);
	rs->byname = xmalloc(st_mult(rs->n + 1, sizeof(*rs->byname)));
	for (size_t i = 0; i < rs->n; i++)
		rs->byname[i] = (uint32_t)i;
	sort_ctx = rs;
	tl_qsort(rs->byname, rs->n, sizeof(*rs->byname), cmp_byname);
	sort_ctx = NULL;
	return rs;
}

void replay_schemas_free(struct replay_schemas *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->line[i].name);
		free(rs->line[i].text);
	}
	free(rs->line);
	free(rs->byname);
	free(rs);
}

const uint32_t *replay_schemas_find(const struct replay_schemas *rs, const char *name,
				    size_t *n)
{
	size_t lo = 0, hi = rs->n, end;

	while (lo < hi) {	/* first entry whose name is >= name */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(rs->line[rs->byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < rs->n && strcmp(rs->line[rs->byname[end]].name, name) == 0; end++)
		;
	*n = end - lo;
	return rs->byname + lo;
}

const char *replay_schemas_text(const struct replay_schemas *rs, uint32_t id)
{
	return rs->line[id].text;
}

size_t replay_schemas_count(const struct replay_schemas *rs)
{
	return rs->n;
}

/* ---- parse_schema_string ---------------------------------------------- */

/* Python's str.isspace() for ASCII: what strip() and \s remove */
static int py_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* [s, e) with Python's strip() applied */
static void strip(const char **s, const char **e)
{
	while (*s < *e && py_space((unsigned char)**s))
		(*s)++;
	while (*e > *s && py_space((unsigned char)(*e)[-1]))
		(*e)--;
}

static int ident_start(int c)
{
	return isalpha(c) || c == '_';
}

/*
 * _parse_arg: "TYPE NAME[=DEFAULT]" (^(\S+)\s+(.*)$ then
 * ^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$); the default is not kept.
 */
static int parse_arg(struct replay_sig *sig, size_t *alloc, const char *s, const char *e,
		     const char **why)
{
	const char *t = s, *name;

	while (t < e && !py_space((unsigned char)*t))
		t++;
	if (t == s || t == e) {
		*why = "Invalid arg";
		return -1;
	}
	name = t;
	while (name < e && py_space((unsigned char)*name))
		name++;
	if (name == e || !ident_start((unsigned char)*name)) {
		*why = "Invalid arg name/default";
		return -1;
	}
	const char *ne = name + 1;
	while (ne < e && (isalnum((unsigned char)*ne) || *ne == '_'))
		ne++;
	if (ne < e && *ne != '=') {
		*why = "Invalid arg name/default";
		return -1;
	}
	xgrow((void **)&sig->arg, alloc, sig->n + 1, sizeof(*sig->arg));
	sig->arg[sig->n].type = xstrndup(s, (size_t)(t - s));
	sig->arg[sig->n].name = xstrndup(name, (size_t)(ne - name));
	sig->n++;
	return 0;
}

/* every non-blank comma-separated item of [s, e) */
static int parse_list(struct replay_sig *sig, size_t *alloc, const char *s, const char *e,
		      const char **why)
{
	while (s < e) {
		const char *c = memchr(s, ',', (size_t)(e - s));
		const char *ie = c ? c : e, *is = s;
		strip(&is, &ie);
		if (is < ie && parse_arg(sig, alloc, is, ie, why) < 0)
			return -1;
		s = c ? c + 1 : e;
	}
	return 0;
}

int replay_sig_parse(struct replay_sig *sig, const char *text, const char **why)
{
	const char *s = text, *e = text + strlen(text), *open, *close = NULL, *p;
	size_t alloc = 0;

	memset(sig, 0, sizeof(*sig));
	strip(&s, &e);
	/* ^([^(]+)\((.*)\)\s*->\s*(.*)$: the last ')' followed by "->" */
	open = memchr(s, '(', (size_t)(e - s));
	for (p = open ? open + 1 : e; p < e; p++) {
		const char *q = p + 1;
		if (*p != ')')
			continue;
		while (q < e && py_space((unsigned char)*q))
			q++;
		if (e - q >= 2 && q[0] == '-' && q[1] == '>')
			close = p;
	}
	if (!open || open == s || !close) {
		*why = "Cannot parse schema string";
		return -1;
	}
	/* args_str.split("*"): parts[0] positional, parts[1] keyword-only */
	const char *a = open + 1, *star = memchr(a, '*', (size_t)(close - a));
	const char *pe = star ? star : close, *kwe = close;
	if (star) {
		const char *star2 = memchr(star + 1, '*', (size_t)(close - star - 1));
		if (star2)
			kwe = star2;
	}
	if (parse_list(sig, &alloc, a, pe, why) < 0)
		goto fail;
	sig->npos = sig->n;
	if (star && parse_list(sig, &alloc, star + 1, kwe, why) < 0)
		goto fail;
	return 0;
fail:
	replay_sig_release(sig);
	return -1;
}

void replay_sig_release(struct replay_sig *sig)
{
	for (size_t i = 0; i < sig->n; i++) {
		free(sig->arg[i].type);
		free(sig->arg[i].name);
	}
	free(sig->arg);
	memset(sig, 0, sizeof(*sig));
}
