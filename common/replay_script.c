/*
 * replay_script: replay.py from its template (see replay_script.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "outbuf.h"
#include "replay_script.h"
#include "share.h"
#include "xalloc.h"
#include "banned.h"

static void column(struct pystr *o, const char *key, const struct json_value *v, int first)
{
	if (!first)
		pystr_add(o, ", ", 2);
	replay_json_str(o, key, strlen(key));
	pystr_add(o, ": ", 2);
	if (v)
		replay_json_dump(o, v, -1);
	else
		pystr_adds(o, "null");
}

/*
 * One op as a JSON object on one line.  The text goes between r''' and '''
 * in the script: strings are written with every non-ASCII character
 * escaped, and a quote ' (only ever inside a string) as \u0027.
 */
void replay_script_add(struct pystr *ops, const char *name, long count,
		       const struct replay_ir *ir)
{
	struct pystr o = {0};
	char num[24];

	pystr_adds(&o, ops->len ? ",\n{" : "\n{");
	pystr_adds(&o, "\"op_name\": ");
	replay_json_str(&o, name, strlen(name));
	snprintf(num, sizeof(num), "%ld", count);
	pystr_adds(&o, ", \"count\": ");
	pystr_adds(&o, num);
	pystr_adds(&o, ", \"args\": {");
	column(&o, "Input type", ir->types, 1);
	column(&o, "Input Dims", ir->dims, 0);
	column(&o, "Input Strides", ir->strides, 0);
	column(&o, "Concrete Inputs", ir->concrete, 0);
	pystr_adds(&o, "}}");
	for (size_t i = 0; i < o.len; i++)
		if (o.buf[i] == '\'')
			pystr_adds(ops, "\\u0027");
		else
			pystr_addc(ops, o.buf[i]);
	pystr_release(&o);
}

static char *read_template(const char **pathp)
{
	char *path = tl_share_path("replay.py.in"), *buf = NULL;
	size_t len = 0;
	FILE *f;

	*pathp = "replay.py.in";
	if (!path) {
		tl_warn("replay.py.in: not found in the share folder (set TL_SHARE)");
		return NULL;
	}
	if (!(f = fopen(path, "r"))) {
		tl_warn_errno("%s", path);
		free(path);
		return NULL;
	}
	for (;;) {
		char blk[8192];
		size_t n = fread(blk, 1, sizeof(blk), f);
		if (!n)
			break;
		buf = xrealloc(buf, st_add(len, n + 1));
		tl_memcpy(buf + len, blk, n);
		len += n;
		buf[len] = '\0';
	}
	if (ferror(f) || !buf) {
		tl_warn("%s: cannot read the template", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	free(path);
	return buf;
}

int replay_script_write(const char *path, const struct pystr *ops)
{
	const char *tname;
	char *tpl = read_template(&tname), *mark;
	struct outbuf *ob;

	if (!tpl)
		return -1;
	if (!(mark = strstr(tpl, "@OPS@"))) {
		tl_warn("%s: no @OPS@ line", tname);
		free(tpl);
		return -1;
	}
	ob = outbuf_open_path(path);
	outbuf_put(ob, tpl, (size_t)(mark - tpl));
	outbuf_putc(ob, '[');
	if (ops->len)
		outbuf_put(ob, ops->buf, ops->len);
	outbuf_puts(ob, "\n]");
	outbuf_puts(ob, mark + 5);
	outbuf_close(ob);
	free(tpl);
	return 0;
}
