#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
#include "py_tabulate.h"
#include "py_unicode.h"
#include "xalloc.h"
#include "banned.h"

void tab_init(struct tab *t, const char *const *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->cols = xcalloc(ncols + 1, sizeof(*t->cols));
	for (size_t i = 0; i < ncols; i++)
		t->cols[i] = xstrdup(cols[i]);
}

static struct tab_cell *add(struct tab *t, enum tab_kind k)
{
	struct tab_cell *c;

	xgrow((void **)&t->cells, &t->alloc, t->ncells + 1, sizeof(*t->cells));
	c = &t->cells[t->ncells++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	if (t->ncols)
		t->nrows = (t->ncells + t->ncols - 1) / t->ncols;
	return c;
}

void tab_int(struct tab *t, int64_t v) { add(t, TAB_INT)->i = v; }
void tab_float(struct tab *t, double v) { add(t, TAB_FLOAT)->f = v; }
void tab_str(struct tab *t, const char *s) { add(t, TAB_STR)->s = xstrdup(s); }

void tab_release(struct tab *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i].s);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	memset(t, 0, sizeof(*t));
}

const struct tab_cell *tab_at(const struct tab *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

void tab_write_sheet(const struct tab *t, struct sheet *sh)
{
	sheet_header(sh, (const char *const *)t->cols, t->ncols);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const struct tab_cell *x = tab_at(t, r, c);
			if (x->kind == TAB_INT)
				sheet_int(sh, x->i);
			else if (x->kind == TAB_FLOAT)
				sheet_float(sh, x->f);
			else
				sheet_str(sh, x->s);
		}
		sheet_endrow(sh);
	}
}

/* tabulate's type lattice */
enum { T_BOOL = 1, T_INT = 2, T_FLOAT = 3, T_TEXT = 5 };

/* tabulate's _isnumber on a str: float() accepts it, and an inf or nan
 * only when spelled exactly "inf", "-inf" or "nan" in any case */
static int is_number_str(const char *s)
{
	double v;
	char l[8];
	size_t n = strlen(s);

	if (py_str_float(s, n, &v) < 0)
		return 0;
	if (!isinf(v) && !isnan(v))
		return 1;
	if (n >= sizeof(l))
		return 0;
	for (size_t i = 0; i <= n; i++)
		l[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	return !strcmp(l, "inf") || !strcmp(l, "-inf") || !strcmp(l, "nan");
}

static int is_int_str(const char *s)
{
	int64_t v;

	return py_str_int(s, strlen(s), &v) != -1;
}

static int cell_type(const struct tab_cell *c)
{
	if (c->kind == TAB_INT)
		return T_INT;
	if (c->kind == TAB_FLOAT)
		return T_FLOAT;
	if (!strcmp(c->s, "True") || !strcmp(c->s, "False"))
		return T_BOOL;
	if (is_int_str(c->s))
		return T_INT;
	if (is_number_str(c->s))
		return T_FLOAT;
	return T_TEXT;
}

static void fmt_g(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "nan");
	else if (isinf(v))
		snprintf(buf, n, v < 0 ? "-inf" : "inf");
	else
		snprintf(buf, n, "%g", v);
}

static char *cell_text(const struct tab_cell *c, int coltype)
{
	char buf[64];

	if (coltype == T_FLOAT) {
		double v = c->f;
		if (c->kind == TAB_INT)
			v = (double)c->i;
		else if (c->kind == TAB_STR)
			py_str_float(c->s, strlen(c->s), &v);
		fmt_g(buf, sizeof(buf), v);
		return xstrdup(buf);
	}
	if (c->kind == TAB_INT) {
		snprintf(buf, sizeof(buf), "%" PRId64, c->i);
		return xstrdup(buf);
	}
	if (c->kind == TAB_FLOAT) {
		py_float_repr(c->f, buf);
		return xstrdup(buf);
	}
	return xstrdup(c->s);
}

/* tabulate's _afterpoint */
static long afterpoint(const char *s)
{
	const char *p;

	if (!is_number_str(s) || is_int_str(s))
		return -1;
	p = strrchr(s, '.');
	if (!p) {
		p = strrchr(s, 'e');
		const char *q = strrchr(s, 'E');
		if (q && (!p || q > p))
			p = q;
	}
	if (!p)
		return -1;
	return (long)py_len(p + 1, strlen(p + 1));
}

static void pad(struct outbuf *ob, size_t k)
{
	while (k--)
		outbuf_putc(ob, ' ');
}

void py_tabulate_pipe(struct outbuf *ob, const struct tab *t, long maxrows)
{
	size_t nc = t->ncols, nr = t->nrows;
	char **txt;
	int *type;
	size_t *width, *lead, *trail, *len;

	if (maxrows < 0)
		nr = (size_t)-maxrows >= nr ? 0 : nr - (size_t)-maxrows;
	else if ((size_t)maxrows < nr)
		nr = (size_t)maxrows;
	txt = xcalloc(nr * nc + 1, sizeof(*txt));
	type = xcalloc(nc + 1, sizeof(*type));
	width = xcalloc(nc + 1, sizeof(*width));
	lead = xcalloc(nr * nc + 1, sizeof(*lead));
	trail = xcalloc(nr * nc + 1, sizeof(*trail));
	len = xcalloc(nr * nc + 1, sizeof(*len));
	for (size_t c = 0; c < nc; c++) {
		long maxdec = -1;
		type[c] = T_BOOL;
		for (size_t r = 0; r < nr; r++) {
			int ct = cell_type(tab_at(t, r, c));
			if (ct > type[c])
				type[c] = ct;
		}
		width[c] = py_len(t->cols[c], strlen(t->cols[c])) + 2;
		for (size_t r = 0; r < nr; r++) {
			size_t i = r * nc + c;
			txt[i] = cell_text(tab_at(t, r, c), type[c]);
			if (type[c] == T_INT || type[c] == T_FLOAT) {
				long d = afterpoint(txt[i]);
				if (d > maxdec)
					maxdec = d;
			}
		}
		for (size_t r = 0; r < nr; r++) {
			size_t i = r * nc + c, b = 0, e = strlen(txt[i]);
			if (type[c] == T_INT || type[c] == T_FLOAT)
				trail[i] = (size_t)(maxdec - afterpoint(txt[i]));
			else
				py_strip(txt[i], e, &b, &e);
			lead[i] = b;
			len[i] = e - b;
			{
				size_t w = py_len(txt[i] + b, e - b) + trail[i];
				if (w > width[c])
					width[c] = w;
			}
		}
	}
	/* header */
	outbuf_putc(ob, '|');
	for (size_t c = 0; c < nc; c++) {
		size_t hl = py_len(t->cols[c], strlen(t->cols[c]));
		int right = nr && (type[c] == T_INT || type[c] == T_FLOAT);
		outbuf_putc(ob, ' ');
		if (right)
			pad(ob, width[c] - hl);
		outbuf_puts(ob, t->cols[c]);
		if (!right)
			pad(ob, width[c] - hl);
		outbuf_puts(ob, " |");
	}
	outbuf_puts(ob, "\n|");
	for (size_t c = 0; c < nc; c++) {
		int right = type[c] == T_INT || type[c] == T_FLOAT;
		if (!nr) {
			for (size_t k = 0; k < width[c] + 2; k++)
				outbuf_putc(ob, '-');
		} else {
			if (!right)
				outbuf_putc(ob, ':');
			for (size_t k = 0; k < width[c] + 1; k++)
				outbuf_putc(ob, '-');
			if (right)
				outbuf_putc(ob, ':');
		}
		outbuf_putc(ob, '|');
	}
	for (size_t r = 0; r < nr; r++) {
		outbuf_puts(ob, "\n|");
		for (size_t c = 0; c < nc; c++) {
			size_t i = r * nc + c;
			size_t w = py_len(txt[i] + lead[i], len[i]) + trail[i];
			int right = type[c] == T_INT || type[c] == T_FLOAT;
			outbuf_putc(ob, ' ');
			if (right)
				pad(ob, width[c] - w);
			outbuf_put(ob, txt[i] + lead[i], len[i]);
			pad(ob, trail[i]);
			if (!right)
				pad(ob, width[c] - w);
			outbuf_puts(ob, " |");
		}
	}
	for (size_t i = 0; i < nr * nc; i++)
		free(txt[i]);
	free(txt);
	free(type);
	free(width);
	free(lead);
	free(trail);
	free(len);
}
