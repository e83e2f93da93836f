#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pd_frame.h"
#include "py_fmt.h"
#include "xalloc.h"
#include "banned.h"

/* pandas.read_csv's default na_values (pandas/_libs/parsers.pyx) */
static const char *const na_tokens[] = {
	"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
	"1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None",
	"n/a", "nan", "null", NULL
};

static int is_na_token(const char *s, size_t n)
{
	for (size_t i = 0; na_tokens[i]; i++)
		if (strlen(na_tokens[i]) == n && !memcmp(na_tokens[i], s, n))
			return 1;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f' || c == '\v';
}

/* pandas' number parsers skip white space on both sides. */
static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s))
		(*s)++, (*n)--;
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

static int parse_int(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0, lim;
	size_t i = 0;
	int neg = 0;

	trim(&s, &n);
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == n)
		return 0;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (lim - d) / 10)
			return 0;	/* out of int64: read as a float */
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* 1e0 .. 1e308, each correctly rounded as the C literals pandas uses */
static const double *powers_of_ten(void)
{
	static double e[309];
	static int done;
	char buf[8];

	if (!done) {
		for (int i = 0; i <= 308; i++) {
			snprintf(buf, sizeof(buf), "1e%d", i);
			e[i] = strtod(buf, NULL);
		}
		done = 1;
	}
	return e;
}

/* The digits of a number: at most 17 count, as in precise_xstrtod. */
struct mantissa {
	double number;
	int exponent, ndigits;
};

static size_t read_mantissa(const char *s, size_t n, size_t i,
			    struct mantissa *m)
{
	int ndec = 0;

	for (; i < n && is_digit(s[i]); i++) {
		if (m->ndigits < 17) {
			m->number = m->number * 10. + (s[i] - '0');
			m->ndigits++;
		} else {
			m->exponent++;
		}
	}
	if (i < n && s[i] == '.') {
		for (i++; m->ndigits < 17 && i < n && is_digit(s[i]); i++) {
			m->number = m->number * 10. + (s[i] - '0');
			m->ndigits++;
			ndec++;
		}
		while (i < n && is_digit(s[i]))
			i++;
		m->exponent -= ndec;
	}
	return i;
}

/* The exponent part; 0 when "e" has no digits (pandas then fails). */
static size_t read_exponent(const char *s, size_t n, size_t i, int *exponent)
{
	int neg = 0, k = 0;
	long e = 0;

	i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; k < 17 && i < n && is_digit(s[i]); k++, i++)
		if (e < 100000)		/* far past any double already */
			e = e * 10 + (s[i] - '0');
	if (!k)
		return 0;
	*exponent += (int)(neg ? -e : e);
	return i;
}

static double scale(double number, int exponent)
{
	const double *e = powers_of_ten();

	if (exponent > 0)
		return number * e[exponent];
	if (exponent < -616)
		return 0.;
	if (exponent < -308)
		return number / e[-308 - exponent] / e[308];
	return number / e[-exponent];
}

/* _try_double's fallback words, matched case-blind on the whole cell */
static int inf_word(const char *s, size_t n, double *out)
{
	static const char *const pos[] = { "inf", "+inf", "Infinity",
					   "+Infinity" };
	static const char *const neg[] = { "-inf", "-Infinity" };

	for (size_t i = 0; i < 4; i++)
		if (strlen(pos[i]) == n && !strncasecmp(pos[i], s, n))
			return *out = INFINITY, 1;
	for (size_t i = 0; i < 2; i++)
		if (strlen(neg[i]) == n && !strncasecmp(neg[i], s, n))
			return *out = -INFINITY, 1;
	return 0;
}

/*
 * pandas.read_csv's float parser (precise_xstrtod, tokenizer.c), which is
 * not correctly rounded: it adds up at most 17 digits in a double and
 * scales by one power of ten, so "99.61316657755181" reads as the double
 * that prints as 99.6131665775518.  Reproducing it reproduces pandas'
 * values, and the diffs computed from them, bit for bit.
 */
int pd_frame_parse_float(const char *s, size_t n, double *out)
{
	struct mantissa m = { 0., 0, 0 };
	size_t i = 0;
	int neg = 0;

	while (i < n && is_space(s[i]))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	i = read_mantissa(s, n, i, &m);
	if (m.ndigits == 0)
		return inf_word(s, n, out);
	if (neg)
		m.number = -m.number;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i = read_exponent(s, n, i, &m.exponent);
		if (!i)
			return inf_word(s, n, out);
	}
	if (m.exponent > 308)
		return inf_word(s, n, out);	/* ERANGE */
	*out = scale(m.number, m.exponent);
	if (isinf(*out))
		return inf_word(s, n, out);	/* ERANGE */
	while (i < n && is_space(s[i]))
		i++;
	return i == n || inf_word(s, n, out);
}

static int parse_bool(const char *s, size_t n, int *out)
{
	static const char *const t[] = { "True", "TRUE", "true" };
	static const char *const f[] = { "False", "FALSE", "false" };

	for (int i = 0; i < 3; i++) {
		if (strlen(t[i]) == n && !memcmp(t[i], s, n))
			return *out = 1, 1;
		if (strlen(f[i]) == n && !memcmp(f[i], s, n))
			return *out = 0, 1;
	}
	return 0;
}

/* What every non-missing cell of a column could be read as. */
struct col_scan {
	size_t na, nonna;
	int all_int, all_num, all_bool;
};

static void scan_column(const struct csv *c, size_t col, struct col_scan *sc)
{
	int64_t i;
	double d;
	int b;

	memset(sc, 0, sizeof(*sc));
	sc->all_int = sc->all_num = sc->all_bool = 1;
	for (size_t r = 0; r < c->nrows; r++) {
		const struct csv_field *x = csv_at(c, r, col);
		if (is_na_token(x->s, x->n)) {
			sc->na++;
			continue;
		}
		sc->nonna++;
		if (sc->all_int && !parse_int(x->s, x->n, &i))
			sc->all_int = 0;
		if (sc->all_num && !sc->all_int &&
		    !pd_frame_parse_float(x->s, x->n, &d))
			sc->all_num = 0;
		if (sc->all_bool && !parse_bool(x->s, x->n, &b))
			sc->all_bool = 0;
	}
}

static enum col_type column_type(const struct col_scan *sc, size_t nrows)
{
	if (nrows == 0)
		return COL_OBJ;		/* read_csv types a header-only column object */
	if (sc->nonna == 0)
		return COL_FLOAT;	/* all NaN */
	if (sc->all_int)
		return sc->na ? COL_FLOAT : COL_INT;
	if (sc->all_num)
		return COL_FLOAT;
	if (sc->all_bool)
		return sc->na ? COL_OBJ : COL_BOOL;
	return COL_OBJ;
}

static void fill_column(const struct csv *c, size_t col,
			const struct col_scan *sc, struct pd_frame_col *fc)
{
	for (size_t r = 0; r < c->nrows; r++) {
		const struct csv_field *x = csv_at(c, r, col);
		struct cell *v = &fc->v[r];
		v->s = x->s;
		v->n = x->n;
		if (is_na_token(x->s, x->n))
			v->kind = CELL_NA;
		else if (fc->type == COL_INT && parse_int(x->s, x->n, &v->v.i))
			v->kind = CELL_INT;
		else if (fc->type == COL_FLOAT &&
			 pd_frame_parse_float(x->s, x->n, &v->v.d))
			v->kind = isnan(v->v.d) ? CELL_NA : CELL_FLOAT;
		else if (sc->all_bool && parse_bool(x->s, x->n, &v->v.b))
			v->kind = CELL_BOOL;
		else
			v->kind = CELL_STR;
	}
}

void pd_frame_from_csv(struct pd_frame *f, const struct csv *c)
{
	struct col_scan sc;

	memset(f, 0, sizeof(*f));
	f->nrows = c->nrows;
	for (size_t j = 0; j < c->ncols; j++) {
		struct cell *v = xcalloc(c->nrows ? c->nrows : 1, sizeof(*v));
		struct pd_frame_col fc = { .v = v };
		scan_column(c, j, &sc);
		fc.type = column_type(&sc, c->nrows);
		fill_column(c, j, &sc, &fc);
		pd_frame_add(f, xstrdup(c->names[j]), fc.type, v);
	}
}

void pd_frame_release(struct pd_frame *f)
{
	for (size_t j = 0; j < f->ncols; j++) {
		free(f->col[j].name);
		free(f->col[j].v);
	}
	free(f->col);
	memset(f, 0, sizeof(*f));
}

long pd_frame_find(const struct pd_frame *f, const char *name)
{
	for (size_t j = 0; j < f->ncols; j++)
		if (!strcmp(f->col[j].name, name))
			return (long)j;
	return -1;
}

void pd_frame_add(struct pd_frame *f, char *name, enum col_type type,
	       struct cell *v)
{
	xgrow((void **)&f->col, &f->acols, f->ncols + 1, sizeof(*f->col));
	f->col[f->ncols].name = name;
	f->col[f->ncols].type = type;
	f->col[f->ncols].v = v;
	f->ncols++;
}

void pd_frame_drop(struct pd_frame *f, const char *name)
{
	long j = pd_frame_find(f, name);

	if (j < 0)
		return;
	free(f->col[j].name);
	free(f->col[j].v);
	tl_memmove(&f->col[j], &f->col[j + 1],
		(f->ncols - (size_t)j - 1) * sizeof(*f->col));
	f->ncols--;
}

void pd_frame_select(struct pd_frame *f, const size_t *order, size_t n)
{
	struct pd_frame_col *cols = xcalloc(n ? n : 1, sizeof(*cols));
	char *keep = xcalloc(f->ncols ? f->ncols : 1, 1);

	for (size_t i = 0; i < n; i++) {
		cols[i] = f->col[order[i]];
		keep[order[i]] = 1;
	}
	for (size_t j = 0; j < f->ncols; j++)
		if (!keep[j]) {
			free(f->col[j].name);
			free(f->col[j].v);
		}
	free(keep);
	free(f->col);
	f->col = cols;
	f->ncols = f->acols = n;
}

/* The type a column gets when some of its rows become missing. */
static enum col_type with_missing(enum col_type t)
{
	if (t == COL_INT)
		return COL_FLOAT;
	if (t == COL_BOOL)
		return COL_OBJ;
	return t;
}

static struct cell *take_cells(const struct pd_frame_col *c, const long *rows,
			       size_t n, int *missing)
{
	struct cell *v = xcalloc(n ? n : 1, sizeof(*v));

	*missing = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i] < 0) {
			v[i].kind = CELL_NA;
			*missing = 1;
		} else {
			v[i] = c->v[rows[i]];
		}
	}
	return v;
}

void pd_frame_take(struct pd_frame *out, const struct pd_frame *in, const long *rows,
		size_t n)
{
	int missing;

	memset(out, 0, sizeof(*out));
	out->nrows = n;
	for (size_t j = 0; j < in->ncols; j++) {
		const struct pd_frame_col *c = &in->col[j];
		struct cell *v = take_cells(c, rows, n, &missing);
		pd_frame_add(out, xstrdup(c->name),
			  missing ? with_missing(c->type) : c->type, v);
	}
}

static int is_num(const struct cell *c)
{
	return c->kind == CELL_INT || c->kind == CELL_FLOAT;
}

static double num(const struct cell *c)
{
	return c->kind == CELL_INT ? (double)c->v.i : c->v.d;
}

int cell_cmp(const struct cell *a, const struct cell *b)
{
	if (a->kind == CELL_NA || b->kind == CELL_NA)
		return (a->kind == CELL_NA) - (b->kind == CELL_NA);
	if (a->kind == CELL_INT && b->kind == CELL_INT)
		return (a->v.i > b->v.i) - (a->v.i < b->v.i);
	if (is_num(a) && is_num(b)) {
		double x = num(a), y = num(b);
		return (x > y) - (x < y);
	}
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == CELL_BOOL)
		return a->v.b - b->v.b;
	size_t m = a->n < b->n ? a->n : b->n;
	int r = memcmp(a->s, b->s, m);
	if (r)
		return r < 0 ? -1 : 1;
	return (a->n > b->n) - (a->n < b->n);
}

static void msort(long *a, long *tmp, size_t n,
		  int (*cmp)(long, long, const void *), const void *ctx)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, h, cmp, ctx);
	msort(a + h, tmp, n - h, cmp, ctx);
	while (i < h && j < n)
		tmp[k++] = cmp(a[j], a[i], ctx) < 0 ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	tl_memcpy(a, tmp, n * sizeof(*a));
}

void stable_sort(long *idx, size_t n,
		 int (*cmp)(long a, long b, const void *ctx), const void *ctx)
{
	long *tmp = xcalloc(n ? n : 1, sizeof(*tmp));

	msort(idx, tmp, n, cmp, ctx);
	free(tmp);
}

/* One side of a merge: its frame, the key columns, rows in key order. */
struct side {
	const struct pd_frame *f;
	long *key;
	long *order;
	size_t nkeys;
};

static int key_cmp2(const struct side *a, long ra, const struct side *b,
		    long rb)
{
	for (size_t k = 0; k < a->nkeys; k++) {
		int r = cell_cmp(&a->f->col[a->key[k]].v[ra],
				 &b->f->col[b->key[k]].v[rb]);
		if (r)
			return r;
	}
	return 0;
}

static int side_cmp(long a, long b, const void *ctx)
{
	return key_cmp2(ctx, a, ctx, b);
}

static void side_init(struct side *s, const struct pd_frame *f,
		      char *const *keys, size_t nkeys)
{
	s->f = f;
	s->nkeys = nkeys;
	s->key = xcalloc(nkeys ? nkeys : 1, sizeof(*s->key));
	for (size_t k = 0; k < nkeys; k++)
		s->key[k] = pd_frame_find(f, keys[k]);
	s->order = xcalloc(f->nrows ? f->nrows : 1, sizeof(*s->order));
	for (size_t r = 0; r < f->nrows; r++)
		s->order[r] = (long)r;
	stable_sort(s->order, f->nrows, side_cmp, s);
}

static void side_free(struct side *s)
{
	free(s->key);
	free(s->order);
}

/* Row pairs of the outer join, in result order; -1 is "no row". */
struct pairs {
	long *l, *r;
	size_t n, al, ar;
};

static void pair_add(struct pairs *p, long l, long r)
{
	xgrow((void **)&p->l, &p->al, p->n + 1, sizeof(*p->l));
	xgrow((void **)&p->r, &p->ar, p->n + 1, sizeof(*p->r));
	p->l[p->n] = l;
	p->r[p->n] = r;
	p->n++;
}

static size_t run_end(const struct side *s, size_t i)
{
	size_t j = i + 1;
	while (j < s->f->nrows && !side_cmp(s->order[i], s->order[j], s))
		j++;
	return j;
}

static void join_pairs(const struct side *L, const struct side *R,
		       struct pairs *p)
{
	size_t i = 0, j = 0, nl = L->f->nrows, nr = R->f->nrows;

	while (i < nl || j < nr) {
		int c = i == nl ? 1 : j == nr ? -1 :
			key_cmp2(L, L->order[i], R, R->order[j]);
		if (c < 0) {
			pair_add(p, L->order[i++], -1);
		} else if (c > 0) {
			pair_add(p, -1, R->order[j++]);
		} else {
			size_t ie = run_end(L, i), je = run_end(R, j);
			for (size_t a = i; a < ie; a++)
				for (size_t b = j; b < je; b++)
					pair_add(p, L->order[a], R->order[b]);
			i = ie;
			j = je;
		}
	}
}

static enum col_type key_type(enum col_type a, enum col_type b)
{
	if (a == b)
		return a;
	if ((a == COL_INT || a == COL_FLOAT) && (b == COL_INT || b == COL_FLOAT))
		return COL_FLOAT;
	return COL_OBJ;
}

static void add_keys(struct pd_frame *out, const struct side *L,
		     const struct side *R, const struct pairs *p)
{
	for (size_t k = 0; k < L->nkeys; k++) {
		const struct pd_frame_col *lc = &L->f->col[L->key[k]];
		const struct pd_frame_col *rc = &R->f->col[R->key[k]];
		struct cell *v = xcalloc(p->n ? p->n : 1, sizeof(*v));
		for (size_t i = 0; i < p->n; i++)
			v[i] = p->l[i] >= 0 ? lc->v[p->l[i]] : rc->v[p->r[i]];
		pd_frame_add(out, xstrdup(lc->name), key_type(lc->type, rc->type),
			  v);
	}
}

static int is_key(const struct side *s, size_t j)
{
	for (size_t k = 0; k < s->nkeys; k++)
		if (s->key[k] == (long)j)
			return 1;
	return 0;
}

static void add_side(struct pd_frame *out, const struct side *s, const long *rows,
		     size_t n)
{
	int missing;

	for (size_t j = 0; j < s->f->ncols; j++) {
		const struct pd_frame_col *c = &s->f->col[j];
		if (is_key(s, j))
			continue;
		struct cell *v = take_cells(c, rows, n, &missing);
		pd_frame_add(out, xstrdup(c->name),
			  missing ? with_missing(c->type) : c->type, v);
	}
}

void pd_frame_merge_outer(struct pd_frame *out, const struct pd_frame *l,
		       const struct pd_frame *r, char *const *keys, size_t nkeys)
{
	struct side L, R;
	struct pairs p = { 0 };

	side_init(&L, l, keys, nkeys);
	side_init(&R, r, keys, nkeys);
	join_pairs(&L, &R, &p);
	memset(out, 0, sizeof(*out));
	out->nrows = p.n;
	add_keys(out, &L, &R, &p);
	add_side(out, &L, p.l, p.n);
	add_side(out, &R, p.r, p.n);
	side_free(&L);
	side_free(&R);
	free(p.l);
	free(p.r);
}

struct desc_ctx {
	const struct cell *v;
};

static int desc_cmp(long a, long b, const void *ctx)
{
	const struct cell *v = ((const struct desc_ctx *)ctx)->v;
	int na = v[a].kind == CELL_NA, nb = v[b].kind == CELL_NA;

	if (na || nb)
		return na - nb;		/* missing last, in their order */
	return -cell_cmp(&v[a], &v[b]);
}

void pd_frame_order_desc(const struct pd_frame *f, size_t col, long *perm)
{
	struct desc_ctx ctx = { f->col[col].v };

	for (size_t r = 0; r < f->nrows; r++)
		perm[r] = (long)r;
	stable_sort(perm, f->nrows, desc_cmp, &ctx);
}

static void write_cell(struct outbuf *ob, enum col_type t, const struct cell *c)
{
	switch (c->kind) {
	case CELL_NA:
		return;
	case CELL_INT:
		if (t == COL_FLOAT)
			csv_float(ob, (double)c->v.i);
		else
			outbuf_i64(ob, c->v.i);
		return;
	case CELL_FLOAT:
		csv_float(ob, c->v.d);
		return;
	case CELL_BOOL:
		outbuf_puts(ob, c->v.b ? "True" : "False");
		return;
	default:
		csv_cell(ob, c->s, c->n);
	}
}

static int is_empty(const struct cell *c)
{
	return c->kind == CELL_NA || (c->kind == CELL_STR && c->n == 0);
}

void pd_frame_write_csv(const struct pd_frame *f, struct outbuf *ob)
{
	for (size_t j = 0; j < f->ncols; j++) {
		if (j)
			outbuf_putc(ob, ',');
		csv_cell(ob, f->col[j].name, strlen(f->col[j].name));
	}
	outbuf_putc(ob, '\n');
	for (size_t r = 0; r < f->nrows; r++) {
		if (f->ncols == 1 && is_empty(&f->col[0].v[r])) {
			/* Python's csv writer quotes a lone empty field */
			outbuf_puts(ob, "\"\"\n");
			continue;
		}
		for (size_t j = 0; j < f->ncols; j++) {
			if (j)
				outbuf_putc(ob, ',');
			write_cell(ob, f->col[j].type, &f->col[j].v[r]);
		}
		outbuf_putc(ob, '\n');
	}
}
