#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jax_hlo.h"
#include "strpool.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

struct alias {
	char *from, *to;
};

struct jax_hlo {
	struct jax_hlo_op *op;
	size_t n, alloc;
	struct strpool *keys;	/* key → index + 1 in op (by strpool id) */
	size_t *slot;
	size_t nslot;
	struct alias *alias;
	size_t nalias;
};

/* ---- small string helpers --------------------------------------------- */

/* Replace every occurrence of from by to in s (malloc'd result). */
static char *replace_all(const char *s, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), n = 0;
	const char *p;
	char *out, *w;

	for (p = s; (p = strstr(p, from)); p += nf)
		n++;
	out = xmalloc(strlen(s) + n * (nt > nf ? nt - nf : 0) + 1);
	for (w = out, p = s;;) {
		const char *q = strstr(p, from);
		if (!q) {
			tl_memcpy(w, p, strlen(p) + 1);	/* the tail fits by construction */
			break;
		}
		tl_memcpy(w, p, (size_t)(q - p));
		w += q - p;
		tl_memcpy(w, to, nt);
		w += nt;
		p = q + nf;
	}
	return out;
}

/* Python str.strip(): leading and trailing white space */
static char *strip(const char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	return xstrndup(s, n);
}

static int in_class(char c, const char *cls)
{
	return c && strchr(cls, c) != NULL;
}

static int is_alnum_class(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * re.search(PREFIX + "[class]*", s): PREFIX's first occurrence and then the
 * longest run of class characters (letters and digits are always in the
 * classes TraceLens uses; extra holds the others).  NULL when absent.
 */
static char *search_prefix_run(const char *s, const char *prefix, const char *extra)
{
	const char *p = strstr(s, prefix), *e;

	if (!p)
		return NULL;
	for (e = p + strlen(prefix); *e && (is_alnum_class(*e) || in_class(*e, extra)); e++)
		;
	return xstrndup(p, (size_t)(e - p));
}

/* ---- the line filter and get_dict ---------------------------------------- */

static int should_parse(const char *l)
{
	static const char *const hints[] = {
		"get-tuple-element", "bf16", "f8", "f16", "f32", "f64",
		"s32", "s64", "u32", "u64", "pred", NULL,
	};
	size_t n = strlen(l);

	if (!n || !strncmp(l, "HloModule ", 10) || !strncmp(l, "ROOT", 4))
		return 0;
	if (strstr(l, "metadata") && l[n - 1] != ')')
		return 1;
	for (int i = 0; hints[i]; i++)
		if (strstr(l, hints[i]))
			return 1;
	return 0;
}

/*
 * re.findall(r"[bfs][0-9\[\]\{,a-z]*}", s): a start letter, the longest run
 * of the class, then "}" (the class has no "}", so no backtracking helps).
 */
static size_t find_operands(const char *s, char ***out)
{
	size_t n = 0, alloc = 0;
	const char *p = s;

	*out = NULL;
	while (*p) {
		if (*p == 'b' || *p == 'f' || *p == 's') {
			const char *e = p + 1;
			while (*e && ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'z') ||
				      *e == '[' || *e == ']' || *e == '{' || *e == ','))
				e++;
			if (*e == '}') {
				xgrow((void **)out, &alloc, n + 1, sizeof(**out));
				(*out)[n++] = xstrndup(p, (size_t)(e + 1 - p));
				p = e + 1;
				continue;
			}
		}
		p++;
	}
	return n;
}

/* get_operands: text inside the first "(" up to the first ")" */
static size_t get_operands(const char *word, char ***out)
{
	const char *open = strchr(word, '(');
	const char *start = open ? open + 1 : word;
	const char *close = strchr(start, ')');
	char *inner = xstrndup(start, close ? (size_t)(close - start) : strlen(start));
	size_t n = find_operands(inner, out), alloc = 0;

	if (!n) {
		/* operands.split(","): every piece, empty ones included */
		const char *p = inner;
		for (;;) {
			const char *c = strchr(p, ',');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			xgrow((void **)out, &alloc, n + 1, sizeof(**out));
			(*out)[n++] = xstrndup(p, len);
			if (!c)
				break;
			p = c + 1;
		}
	}
	free(inner);
	return n;
}

/* TraceLens's get_operand_type: bf16/f16/f32/f8/fp8 by prefix, else the
 * referenced op's output (NULL if unknown) */
static const char *operand_type(const struct jax_hlo *h, const char *operand)
{
	static const char *const types[] = { "bf16", "f16", "f32", "f8", "fp8", NULL };
	char *o = NULL;
	const char *r = NULL;

	if (strstr(operand, "fusion,")) {
		/* str.strip("fusion,"): drop those characters from both ends */
		size_t b = 0, e = strlen(operand);
		while (b < e && strchr("fusion,", operand[b]))
			b++;
		while (e > b && strchr("fusion,", operand[e - 1]))
			e--;
		operand = o = xstrndup(operand + b, e - b);
	}
	for (int i = 0; types[i] && !r; i++)
		if (!strncmp(operand, types[i], strlen(types[i])))
			r = types[i];
	if (!r) {
		const struct jax_hlo_op *op = jax_hlo_lookup(h, operand);
		for (int i = 0; op && types[i] && !r; i++)
			if (!strncmp(op->output, types[i], strlen(types[i])))
				r = types[i];
	}
	free(o);
	return r;
}

/* replica_groups=... as TraceLens's regex reads it, or NULL */
static int digits(const char **p)
{
	const char *s = *p;
	while (**p >= '0' && **p <= '9')
		(*p)++;
	return *p > s;
}

static int int_list(const char **p)	/* [0-9]+(,[0-9]+)* */
{
	if (!digits(p))
		return 0;
	while (**p == ',') {
		const char *save = *p;
		(*p)++;
		if (!digits(p)) {
			*p = save;
			return 1;
		}
	}
	return 1;
}

static char *replica_groups(const char *line)
{
	static const char key[] = "replica_groups=";

	for (const char *p = strstr(line, key); p; p = strstr(p + 1, key)) {
		const char *s = p + sizeof(key) - 1, *q = s;
		int ok = 0;
		if (*q == '{' && q[1] == '{') {
			/* {{n,..},{n,..},...} */
			q++;
			for (;;) {
				if (*q != '{')
					break;
				q++;
				if (!int_list(&q) || *q != '}')
					break;
				q++;
				if (*q == ',' && q[1] == '{') {
					q++;
					continue;
				}
				if (*q == '}') {
					q++;
					ok = 1;
				}
				break;
			}
		} else if (*q == '[') {
			/* [n,..]<=[n,..] */
			q++;
			if (int_list(&q) && *q == ']' && !strncmp(q + 1, "<=[", 3)) {
				q += 4;
				if (int_list(&q) && *q == ']') {
					q++;
					ok = 1;
				}
			}
		}
		if (!ok)
			continue;
		/* optionally T(n,..) then white space then dimensions={n,..} */
		if (*q == 'T' && q[1] == '(') {
			const char *t = q + 2, *d;
			while ((*t >= '0' && *t <= '9') || *t == ',')
				t++;
			if (t > q + 2 && *t == ')') {
				d = t + 1;
				if (isspace((unsigned char)*d)) {
					while (isspace((unsigned char)*d))
						d++;
					if (!strncmp(d, "dimensions={", 12)) {
						d += 12;
						while ((*d >= '0' && *d <= '9') || *d == ',')
							d++;
						if (*d == '}')
							q = d + 1;
					}
				}
			}
		}
		return xstrndup(s, (size_t)(q - s));
	}
	return NULL;
}

static void op_release(struct jax_hlo_op *op)
{
	free(op->key);
	free(op->output);
	for (size_t i = 0; i < op->noperands; i++)
		free(op->operands[i]);
	free(op->operands);
	free(op->metadata);
	free(op->backend_config);
	free(op->custom_call_target);
	free(op->type);
	free(op->replica_groups);
}

/* Stores op under its key, replacing an earlier op of that key. */
static void put(struct jax_hlo *h, struct jax_hlo_op *op)
{
	uint32_t id = strpool_intern(h->keys, op->key, strlen(op->key));

	if (id >= h->nslot) {
		size_t old = h->nslot;
		xgrow((void **)&h->slot, &h->nslot, (size_t)id + 1, sizeof(*h->slot));
		memset(h->slot + old, 0, (h->nslot - old) * sizeof(*h->slot));
	}
	if (h->slot[id]) {
		op_release(&h->op[h->slot[id] - 1]);
		h->op[h->slot[id] - 1] = *op;
		return;
	}
	xgrow((void **)&h->op, &h->alloc, h->n + 1, sizeof(*h->op));
	h->op[h->n++] = *op;
	h->slot[id] = h->n;
}

/* get_dict on one kept line; 0, or -1 when it has fewer than four words */
static int get_dict(struct jax_hlo *h, const char *line0)
{
	char *a = replace_all(line0, "),", ")");
	char *b = replace_all(a, ", ", ",");
	char *line = replace_all(b, " %", "%");
	char *words[4] = { 0 };
	struct jax_hlo_op op;
	const char *p = line;
	int nw = 0;

	free(a);
	free(b);
	/* line.split(" "): the first four pieces (empty pieces count) */
	while (nw < 4) {
		const char *sp = strchr(p, ' ');
		words[nw++] = xstrndup(p, sp ? (size_t)(sp - p) : strlen(p));
		if (!sp)
			break;
		p = sp + 1;
	}
	if (nw < 4) {
		for (int i = 0; i < nw; i++)
			free(words[i]);
		free(line);
		return -1;
	}
	memset(&op, 0, sizeof(op));
	op.key = words[0];
	op.output = words[2];
	op.noperands = get_operands(words[3], &op.operands);
	op.computation = "rest";
	op.metadata = search_prefix_run(line, "metadata={", "_=\"()/ @.-");
	op.backend_config = search_prefix_run(line, "backend_config={", "_=\"()/ @.,:[]{}-");
	op.custom_call_target = search_prefix_run(line, "custom_call_target=\"", "_=\"()/ @.$-");
	if (op.custom_call_target && (strstr(op.custom_call_target, "matmul") ||
				      strstr(op.custom_call_target, "cublas"))) {
		op.computation = "gemm";
		if (strstr(op.custom_call_target, "f8")) {
			op.type = xstrdup("fp8");
		} else {
			/* TraceLens raises on operands of mixed types; the first's wins here */
			const char *t = op.noperands ? operand_type(h, op.operands[0]) : NULL;
			op.type = t ? xstrdup(t) : NULL;
		}
	}
	op.replica_groups = replica_groups(line);
	free(words[1]);
	free(words[3]);
	free(line);
	put(h, &op);
	return 0;
}

/* _resolve_operand_references: bare "%ref" operands become that op's output */
static void resolve_references(struct jax_hlo *h)
{
	for (size_t i = 0; i < h->n; i++) {
		struct jax_hlo_op *op = &h->op[i];
		for (size_t k = 0; k < op->noperands; k++) {
			const struct jax_hlo_op *ref;
			if (op->operands[k][0] != '%' || !(ref = jax_hlo_lookup(h, op->operands[k])))
				continue;
			free(op->operands[k]);
			op->operands[k] = xstrdup(ref->output);
		}
	}
}

struct jax_hlo *jax_hlo_parse(const char *text)
{
	struct jax_hlo *h = xcalloc(1, sizeof(*h));
	const char *p = text;

	h->keys = strpool_new();
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		char *raw = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
		char *l = strip(raw);
		if (should_parse(l))
			get_dict(h, l);
		free(l);
		free(raw);
		p = nl ? nl + 1 : NULL;
	}
	resolve_references(h);
	return h;
}

void jax_hlo_free(struct jax_hlo *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		op_release(&h->op[i]);
	free(h->op);
	free(h->slot);
	strpool_free(h->keys);
	for (size_t i = 0; i < h->nalias; i++) {
		free(h->alias[i].from);
		free(h->alias[i].to);
	}
	free(h->alias);
	free(h);
}

const struct jax_hlo_op *jax_hlo_lookup(const struct jax_hlo *h, const char *key)
{
	uint32_t id;

	if (!h)
		return NULL;
	id = strpool_find(h->keys, key, strlen(key));
	if (id == UINT32_MAX || id >= h->nslot || !h->slot[id])
		return NULL;
	return &h->op[h->slot[id] - 1];
}

/* ---- collectives: numbered runtime names → the HLO's *-start ops ---------- */

static const char *const families[] = { "all-to-all", "reduce-scatter", "all-gather", NULL };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The family's %F-start* keys sorted, else its %F-done* keys. */
static size_t start_keys(const struct jax_hlo *h, const char *fam, char ***out)
{
	size_t n = 0;
	char pre[64];

	*out = xmalloc(st_mult(h->n + 1, sizeof(**out)));
	for (int pass = 0; pass < 2 && !n; pass++) {
		snprintf(pre, sizeof(pre), "%%%s-%s", fam, pass ? "done" : "start");
		for (size_t i = 0; i < h->n; i++)
			if (!strncmp(h->op[i].key, pre, strlen(pre)))
				(*out)[n++] = h->op[i].key;
	}
	tl_qsort(*out, n, sizeof(**out), cmp_str);
	return n;
}

/* "F.N" with N all digits: N, else -1 */
static long numbered(const char *bare, const char *fam)
{
	size_t n = strlen(fam);
	char *end;

	if (strncmp(bare, fam, n) || bare[n] != '.' || !bare[n + 1])
		return -1;
	for (const char *d = bare + n + 1; *d; d++)
		if (*d < '0' || *d > '9')
			return -1;
	long v = strtol(bare + n + 1, &end, 10);
	return v;
}

struct numop {
	long num;
	const char *key;
};

static int cmp_numop(const void *a, const void *b)
{
	const struct numop *x = a, *y = b;
	if (x->num != y->num)
		return (x->num > y->num) - (x->num < y->num);
	return strcmp(x->key, y->key);
}

void jax_hlo_set_trace_ops(struct jax_hlo *h, char *const *ops, size_t nops)
{
	for (int f = 0; families[f]; f++) {
		struct numop *v = xmalloc(st_mult(nops + 1, sizeof(*v)));
		size_t nv = 0, nk;
		char **keys;
		for (size_t i = 0; i < nops; i++) {
			const char *k = ops[i];
			long num;
			if (jax_hlo_lookup(h, k) || (num = numbered(k + 1, families[f])) < 0)
				continue;
			v[nv].num = num;
			v[nv++].key = k;
		}
		nk = nv ? start_keys(h, families[f], &keys) : 0;
		if (nv && nk) {
			tl_qsort(v, nv, sizeof(*v), cmp_numop);
			for (size_t i = 0; i < nv; i++) {
				xgrow((void **)&h->alias, &h->nalias, h->nalias + 1, sizeof(*h->alias));
				h->alias[h->nalias].from = xstrdup(v[i].key);
				h->alias[h->nalias++].to = xstrdup(keys[i < nk ? i : nk - 1]);
			}
		}
		if (nv)
			free(keys);
		free(v);
	}
}

const struct jax_hlo_op *jax_hlo_resolve(const struct jax_hlo *h, const char *hlo_op)
{
	char *key;
	const struct jax_hlo_op *op;

	if (!h)
		return NULL;
	key = xmalloc(strlen(hlo_op) + 2);
	key[0] = '%';
	tl_memcpy(key + 1, hlo_op, strlen(hlo_op) + 1);
	op = jax_hlo_lookup(h, key);
	for (size_t i = 0; !op && i < h->nalias; i++)
		if (!strcmp(h->alias[i].from, key))
			op = jax_hlo_lookup(h, h->alias[i].to);
	for (int f = 0; !op && families[f]; f++) {
		if (numbered(hlo_op, families[f]) < 0)
			continue;
		char **keys;
		size_t nk = start_keys(h, families[f], &keys);
		if (nk)
			op = jax_hlo_lookup(h, keys[0]);
		free(keys);
	}
	free(key);
	return op;
}
