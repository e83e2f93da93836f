#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "outbuf.h"
#include "py_fmt.h"
#include "sheet.h"
#include "xalloc.h"
#include "banned.h"

struct sheet {
	struct outbuf *ob;
	enum sheet_fmt fmt;
	int ncell;	/* cells written in the current row */
};

struct sheet *sheet_open(const char *path, enum sheet_fmt fmt)
{
	struct sheet *sh;
	int fd = 1;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0) {
			tl_warn_errno("%s", path);
			return NULL;
		}
	}
	sh = xcalloc(1, sizeof(*sh));
	sh->ob = outbuf_open_fd(fd);
	sh->ob->own_fd = fd != 1;
	sh->fmt = fmt;
	if (fmt == SHEET_TSV)
		outbuf_puts(sh->ob, "#tl-sheet 1\n");
	return sh;
}

void sheet_close(struct sheet *sh)
{
	if (!sh)
		return;
	outbuf_close(sh->ob);
	free(sh);
}

static void sep(struct sheet *sh)
{
	if (sh->ncell++)
		outbuf_putc(sh->ob, sh->fmt == SHEET_CSV ? ',' : '\t');
}

void sheet_strn(struct sheet *sh, const char *s, size_t n)
{
	sep(sh);
	if (sh->fmt == SHEET_CSV)
		csv_cell(sh->ob, s, n);
	else
		outbuf_tsv(sh->ob, s, n);
}

void sheet_str(struct sheet *sh, const char *s)
{
	sheet_strn(sh, s, strlen(s));
}

void sheet_float(struct sheet *sh, double x)
{
	char buf[PY_FLOAT_MAX];

	sep(sh);
	if (x == x)
		outbuf_put(sh->ob, buf, py_float_repr(x, buf));
}

void sheet_int(struct sheet *sh, int64_t v)
{
	sep(sh);
	outbuf_i64(sh->ob, v);
}

void sheet_bool(struct sheet *sh, int b)
{
	sheet_str(sh, b ? "True" : "False");
}

void sheet_empty(struct sheet *sh)
{
	sep(sh);
}

void sheet_endrow(struct sheet *sh)
{
	outbuf_putc(sh->ob, '\n');
	sh->ncell = 0;
}

void sheet_header(struct sheet *sh, const char *const *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols; i++)
		sheet_str(sh, cols[i]);
	sheet_endrow(sh);
}
