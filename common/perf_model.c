#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "json.h"
#include "perf_ops.h"
#include "perf_model.h"
#include "json_value.h"
#include "perf_args.h"
#include "py_fmt.h"
#include "py_repr.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* The repr being built, handed over as a malloc'd string ("" if empty). */
static char *sb_done(struct pystr *b)
{
	return b->buf ? b->buf : xstrdup("");
}

/* ---- JSON (the four small argument texts) ---------------------------- */

/*
 * The four argument texts are JSON arrays (tl-stream(5) compact JSON);
 * json_parse (common/json.h) tokenises and checks them.
 */
static int js_open(struct json *j, const char *text)
{
	json_init(j);
	if (json_parse(j, text, strlen(text)) < 0 || !j->ntok ||
	    j->tok[0].type != JSON_ARRAY) {
		json_release(j);
		return -1;
	}
	return 0;
}

/* The decoded text of string token i (malloc'd). */
static char *js_str(const struct json *j, unsigned i)
{
	const struct json_tok *t = &j->tok[i];
	size_t n = (size_t)(t->end - t->start);
	char *o = xmalloc(n + 1);

	o[json_decode_string(j->text + t->start, n, o)] = '\0';
	return o;
}

static void repr_pystr(struct pystr *b, const char *s)
{
	py_repr_str(b, s, strlen(s));
}

/* Python repr of the value at token i, lists turned into tuples as
 * TraceLens does with tuple(...) (nested lists stay lists there, but
 * params only ever hold flat shapes). */
static int js_repr(const struct json *j, int i, struct pystr *b)
{
	const struct json_tok *t = &j->tok[i];
	const char *s = j->text + t->start;
	int len = t->end - t->start, k = i + 1;

	if (t->type == JSON_ARRAY) {
		pystr_adds(b, "(");
		for (int e = 0; e < t->size; e++) {
			if (e)
				pystr_adds(b, ", ");
			k = js_repr(j, k, b);
		}
		pystr_adds(b, t->size == 1 ? ",)" : ")");
		return k;
	}
	if (t->type == JSON_STRING) {
		char *d = js_str(j, i);
		repr_pystr(b, d);
		free(d);
	} else if (len == 4 && !strncmp(s, "true", 4)) {
		pystr_adds(b, "True");
	} else if (len == 5 && !strncmp(s, "false", 5)) {
		pystr_adds(b, "False");
	} else if (len == 4 && !strncmp(s, "null", 4)) {
		pystr_adds(b, "None");
	} else {
		pystr_add(b, s, (size_t)len);
	}
	return (int)json_skip(j, (unsigned)i);
}

static int is_int_tok(const struct json *j, int i)
{
	const char *s = j->text + j->tok[i].start;

	return j->tok[i].type == JSON_PRIMITIVE && (*s == '-' || (*s >= '0' && *s <= '9'));
}

static void parse_val(const struct json *j, int i, struct pm_val *v)
{
	const struct json_tok *t = &j->tok[i];
	struct pystr b = { 0 };

	js_repr(j, i, &b);
	v->repr = sb_done(&b);
	v->flat = t->type == JSON_ARRAY;
	v->n = 0;
	v->v = NULL;
	if (!v->flat)
		return;
	v->v = xcalloc((size_t)t->size + 1, sizeof(*v->v));
	for (int e = 0, k = i + 1; e < t->size; e++, k++) {
		if (!is_int_tok(j, k)) {
			v->flat = 0;
			break;
		}
		v->v[v->n++] = strtoll(j->text + j->tok[k].start, NULL, 10);
	}
}

static int parse_vals(const char *text, struct pm_val **out, int *n)
{
	struct json j;

	*out = NULL;
	*n = 0;
	if (!text || !*text)
		return 0;
	if (js_open(&j, text) < 0)
		return -1;
	*out = xcalloc((size_t)j.tok[0].size + 1, sizeof(**out));
	for (int e = 0, k = 1; e < j.tok[0].size; e++) {
		parse_val(&j, k, &(*out)[e]);
		k = (int)json_skip(&j, (unsigned)k);
		(*n)++;
	}
	json_release(&j);
	return 0;
}

static int parse_strs(const char *text, char ***out, int *n)
{
	struct json j;

	*out = NULL;
	*n = 0;
	if (!text || !*text)
		return 0;
	if (js_open(&j, text) < 0)
		return -1;
	*out = xcalloc((size_t)j.tok[0].size + 1, sizeof(**out));
	for (int e = 0, k = 1; e < j.tok[0].size; e++) {
		if (j.tok[k].type == JSON_STRING)
			(*out)[e] = js_str(&j, k);
		k = (int)json_skip(&j, (unsigned)k);
		(*n)++;
	}
	json_release(&j);
	return 0;
}

int pm_parse(struct pm_ctx *c, const struct pm_args *a)
{
	struct pm_in *in = &c->in;

	memset(in, 0, sizeof(*in));
	in->has_strides = a->strides && *a->strides;
	if (a->args && *a->args && !(in->args = json_value_parse(a->args, strlen(a->args))))
		return -1;
	if (parse_vals(a->dims, &in->dims, &in->ndims) < 0 ||
	    parse_vals(a->strides, &in->strides, &in->nstrides) < 0 ||
	    parse_strs(a->types, &in->types, &in->ntypes) < 0 ||
	    parse_strs(a->concrete, &in->conc, &in->nconc) < 0)
		return -1;
	return 0;
}

static void free_vals(struct pm_val *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].v);
		free(v[i].repr);
	}
	free(v);
}

static void free_strs(char **s, int n)
{
	for (int i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

void pm_in_release(struct pm_in *in)
{
	free_vals(in->dims, in->ndims);
	free_vals(in->strides, in->nstrides);
	free_strs(in->types, in->ntypes);
	free_strs(in->conc, in->nconc);
	json_value_free(in->args);
	memset(in, 0, sizeof(*in));
}

/* ---- accessors ------------------------------------------------------- */

const struct json_value *pm_arg(struct pm_ctx *c, const char *key)
{
	return json_value_get(c->in.args, key);
}

static const struct pm_val empty_val = { 1, 0, NULL, (char *)"()" };

int pm_fail(struct pm_ctx *c, enum pm_status st, const char *why)
{
	if (c->err == PM_OK) {
		c->err = st;
		free(c->r->why);
		c->r->why = xstrdup(why);
	}
	return 0;
}

int pm_failed(const struct pm_ctx *c)
{
	return c->err != PM_OK;
}

const struct pm_val *pm_D(struct pm_ctx *c, int i)
{
	if (i < 0 || i >= c->in.ndims) {
		pm_fail(c, PM_FAIL, "Input Dims index out of range");
		return &empty_val;
	}
	return &c->in.dims[i];
}

int64_t pm_Dj(struct pm_ctx *c, int i, int j)
{
	const struct pm_val *v = pm_D(c, i);

	if (j < 0)
		j += v->n;
	if (!v->flat || j < 0 || j >= v->n)
		return pm_fail(c, PM_FAIL, "Input Dims shape index out of range");
	return v->v[j];
}

double pm_nel(const struct pm_val *v)
{
	double p = 1;

	for (int k = 0; k < v->n; k++)
		p *= (double)v->v[k];
	return p;
}

double pm_N(struct pm_ctx *c, int i)
{
	const struct pm_val *v = pm_D(c, i);

	if (!v->flat)
		return pm_fail(c, PM_FAIL, "Input Dims entry is not a shape");
	return pm_nel(v);
}

const char *pm_T(struct pm_ctx *c, int i)
{
	if (i < 0 || i >= c->in.ntypes) {
		pm_fail(c, PM_FAIL, "Input type index out of range");
		return NULL;
	}
	return c->in.types[i];
}

const char *pm_C(struct pm_ctx *c, int i)
{
	if (i < 0 || i >= c->in.nconc) {
		pm_fail(c, PM_FAIL, "Concrete Inputs index out of range");
		return "";
	}
	return c->in.conc[i] ? c->in.conc[i] : "";
}

const char *pm_S(struct pm_ctx *c, int i)
{
	if (!c->in.has_strides)
		return "None";	/* KeyError caught by TraceLens */
	if (i < 0 || i >= c->in.nstrides) {
		pm_fail(c, PM_FAIL, "Input Strides index out of range");
		return "None";
	}
	return c->in.strides[i].repr;
}

const char *pm_opt(struct pm_ctx *c, const char *key, char *buf, size_t size)
{
	size_t len;
	const char *v = perf_ops_opt(c->opts, key, &len);

	if (!v || len + 1 > size)
		return NULL;
	tl_memcpy(buf, v, len);
	buf[len] = '\0';
	return buf;
}

long pm_opt_int(struct pm_ctx *c, const char *key, long def)
{
	char buf[32];
	const char *v = pm_opt(c, key, buf, sizeof(buf));

	return v ? strtol(v, NULL, 10) : def;
}

/* ---- params ---------------------------------------------------------- */

/*
 * pm_params_dict's texts by the params they were made from: one op's dict
 * is asked for on each of its rows of unified_perf_summary, a training
 * trace repeats its ops every iteration, and writing the dict (a repr a
 * parameter) cost 4,000 instructions a row.  Keys and reprs are pm_text's
 * (add_param makes every param), so equal pointers are equal texts; the
 * memo goes with them in perf_model_free_texts, and stops growing at
 * DICT_MAX dicts (a trace whose ops never repeat writes each one).
 */
enum { DICT_MAX = 1 << 15 };

struct dict_memo {
	const char **kr;	/* key, repr, key, repr, ... */
	size_t n;
	const char *text;
};

static struct hmap dict_index;	/* hash of the params -> dict + 1 */
static struct dict_memo *dicts;
static size_t ndicts, adicts;

static uint64_t params_hash(const struct pm_result *r)
{
	uint64_t h = (uint64_t)r->nparam * UINT64_C(0x9e3779b97f4a7c15);

	for (size_t i = 0; i < r->nparam; i++) {
		h = (h ^ (uint64_t)(uintptr_t)r->param[i].key) * UINT64_C(0xbf58476d1ce4e5b9);
		h = (h ^ (uint64_t)(uintptr_t)r->param[i].repr) * UINT64_C(0x94d049bb133111eb);
		h ^= h >> 31;
	}
	return h;
}

static int params_same(const struct dict_memo *d, const struct pm_result *r)
{
	if (d->n != r->nparam)
		return 0;
	for (size_t i = 0; i < r->nparam; i++)
		if (d->kr[2 * i] != r->param[i].key || d->kr[2 * i + 1] != r->param[i].repr)
			return 0;
	return 1;
}

static void dict_remember(uint64_t h, const struct pm_result *r, const char *text)
{
	struct dict_memo *d;

	xgrow((void **)&dicts, &adicts, ndicts + 1, sizeof(*dicts));
	d = &dicts[ndicts++];
	d->n = r->nparam;
	d->kr = xmalloc(st_mult(st_mult(r->nparam, 2), sizeof(*d->kr)));
	for (size_t i = 0; i < r->nparam; i++) {
		d->kr[2 * i] = r->param[i].key;
		d->kr[2 * i + 1] = r->param[i].repr;
	}
	d->text = text;
	hmap_put(&dict_index, h, (uint32_t)ndicts);
}

static void dict_forget(void)
{
	for (size_t i = 0; i < ndicts; i++)
		free(dicts[i].kr);
	free(dicts);
	dicts = NULL;
	ndicts = adicts = 0;
	hmap_release(&dict_index);
}

/*
 * The param texts of every result: a sheet row holds several params and
 * a trace has a row per op, but the keys and shapes repeat, so each text
 * is stored once (tl-perf's largest allocation after the tree when they
 * were copied per row: 17 bytes per trace event on owlv2).
 */
static struct strpool *texts;

const char *pm_text(const char *s)
{
	if (!texts)
		texts = strpool_new();
	return strpool_str(texts, strpool_intern(texts, s, strlen(s)));
}

void perf_model_free_texts(void)
{
	dict_forget();
	strpool_free(texts);
	texts = NULL;
}

/* repr and text (NULL: repr, or "" for None) are freed here */
static void add_param(struct pm_ctx *c, const char *key, enum pm_vkind k, char *repr,
		      char *text)
{
	struct pm_result *r = c->r;

	xgrow((void **)&r->param, &r->aparam, r->nparam + 1, sizeof(*r->param));
	r->param[r->nparam].key = pm_text(key);
	r->param[r->nparam].kind = k;
	r->param[r->nparam].repr = pm_text(repr);
	r->param[r->nparam].str = text ? pm_text(text) : k == PV_NONE ? pm_text("") :
		r->param[r->nparam].repr;
	r->nparam++;
	free(repr);
	free(text);
}

void pm_p_int(struct pm_ctx *c, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	add_param(c, key, PV_INT, xstrdup(buf), NULL);
}

void pm_p_float(struct pm_ctx *c, const char *key, double v)
{
	char buf[PY_FLOAT_MAX];

	py_float_repr(v, buf);
	add_param(c, key, PV_FLOAT, xstrdup(buf), NULL);
}

void pm_p_bool(struct pm_ctx *c, const char *key, int v)
{
	add_param(c, key, PV_BOOL, xstrdup(v ? "True" : "False"), NULL);
}

void pm_p_none(struct pm_ctx *c, const char *key)
{
	add_param(c, key, PV_NONE, xstrdup("None"), NULL);
}

void pm_p_str(struct pm_ctx *c, const char *key, const char *s)
{
	if (!s)
		pm_p_none(c, key);
	else
		add_param(c, key, PV_STR, pm_repr_str(s), xstrdup(s));
}

void pm_p_obj(struct pm_ctx *c, const char *key, const char *repr)
{
	add_param(c, key, strcmp(repr, "None") ? PV_OBJ : PV_NONE, xstrdup(repr), NULL);
}

char *pm_repr_str(const char *s)
{
	struct pystr b = { 0 };

	repr_pystr(&b, s);
	return sb_done(&b);
}

char *pm_repr_strs(const char *const *s, int n)
{
	struct pystr b = { 0 };

	pystr_adds(&b, "(");
	for (int i = 0; i < n; i++) {
		if (i)
			pystr_adds(&b, ", ");
		if (s[i])
			repr_pystr(&b, s[i]);
		else
			pystr_adds(&b, "None");
	}
	pystr_adds(&b, n == 1 ? ",)" : ")");
	return sb_done(&b);
}

char *pm_repr_ints(const int64_t *v, int n)
{
	struct pystr b = { 0 };
	char buf[32];

	pystr_adds(&b, "(");
	for (int i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), i ? ", %lld" : "%lld", (long long)v[i]);
		pystr_adds(&b, buf);
	}
	pystr_adds(&b, n == 1 ? ",)" : ")");
	return sb_done(&b);
}

static const char *dict_text(const struct pm_result *r)
{
	struct pystr b = { 0 };
	const char *t;

	pystr_adds(&b, "{");
	for (size_t i = 0; i < r->nparam; i++) {
		if (i)
			pystr_adds(&b, ", ");
		repr_pystr(&b, r->param[i].key);
		pystr_adds(&b, ": ");
		pystr_adds(&b, r->param[i].repr);
	}
	pystr_adds(&b, "}");
	t = pm_text(b.buf ? b.buf : "");
	pystr_release(&b);
	return t;
}

const char *pm_params_dict(const struct pm_result *r)
{
	uint64_t h;
	uint32_t at;
	int found;
	const char *t;

	if (!r->nparam)
		return pm_text("None");
	h = params_hash(r);
	found = hmap_get(&dict_index, h, &at);
	if (found && params_same(&dicts[at - 1], r))
		return dicts[at - 1].text;
	t = dict_text(r);
	/* a hash shared by two param lists: the second is written every time */
	if (!found && ndicts < DICT_MAX)
		dict_remember(h, r, t);
	return t;
}

/* ---- results and dispatch -------------------------------------------- */

void pm_set(struct pm_ctx *c, double flops, double bytes)
{
	c->r->flops = flops;
	c->r->bytes = bytes < 0 ? 0 : bytes;
	c->r->has_bytes = bytes >= 0;
}

void pm_spec(struct pm_ctx *c, const char *maf, const char *precision)
{
	if (maf && precision)
		snprintf(c->r->spec, sizeof(c->r->spec), "%s_%s", maf, precision);
	else
		c->r->spec[0] = '\0';
}

static const struct {
	const char *kind;
	void (*fn)(struct pm_ctx *);
} kinds[] = {
	{ "gemm", pmk_gemm },
	{ "grouped_gemm", pmk_grouped_gemm },
	{ "conv", pmk_conv },
	{ "sdpa", pmk_sdpa },
	{ "unary", pmk_unary },
	{ "binary", pmk_binary },
	{ "reduce", pmk_reduce },
	{ "norm", pmk_norm },
	{ "operand_sum", pmk_operand_sum },
	{ "expr", pmk_expr },
	{ "infer_attn", pmk_infer_attn },
	{ "triton", pmk_triton },
	{ "moe", pmk_moe },
	{ "ssd", pmk_ssd },
	{ "gquant", pmk_gquant },
};

static void set_status(struct pm_result *r, enum pm_status st, const char *why)
{
	r->status = st;
	if (!r->why && why)
		r->why = xstrdup(why);
}

void perf_model_compute(const struct perf_ops_entry *e, const struct pm_args *a,
		       const char *const *kernels, size_t nkernels, int bwd,
		       struct pm_result *r)
{
	struct pm_ctx c;
	void (*fn)(struct pm_ctx *) = NULL;

	memset(r, 0, sizeof(*r));
	if (!e) {
		set_status(r, PM_NOMODEL, "no perf model for this op");
		return;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].kind, e->kind))
			fn = kinds[i].fn;
	if (!fn) {
		set_status(r, PM_NOMODEL, "model kind not implemented in tl");
		return;
	}
	/* an arg the TraceLens class reads without a fallback is missing
	 * (older traces have no Input Strides): KeyError, no metrics */
	if (((e->req & PM_REQ_DIMS) && !a->dims) || ((e->req & PM_REQ_TYPES) && !a->types) ||
	    ((e->req & PM_REQ_STRIDES) && !a->strides) ||
	    ((e->req & PM_REQ_CONCRETE) && !a->concrete)) {
		set_status(r, PM_FAIL, "the event lacks a profiler arg the model reads (KeyError)");
		return;
	}
	memset(&c, 0, sizeof(c));
	c.opts = e->options;
	c.name = a->opname ? a->opname : e->name;
	c.annotation = a->annotation;
	c.kernels = kernels;
	c.nkernels = nkernels;
	c.bwd = bwd;
	c.r = r;
	if (pm_parse(&c, a) < 0) {
		pm_in_release(&c.in);
		set_status(r, PM_FAIL, "malformed argument JSON");
		return;
	}
	fn(&c);
	pm_in_release(&c.in);
	if (c.err != PM_OK) {
		/* a failed model has no params or metrics */
		enum pm_status st = c.err;
		char *why = r->why;
		r->why = NULL;
		pm_result_release(r);
		r->status = st;
		r->why = why;
	} else if (r->nparam < r->aparam) {
		/* sheets keep a result per row: no room for params to come */
		r->param = xrealloc(r->param, st_mult(r->nparam, sizeof(*r->param)));
		r->aparam = r->nparam;
	}
}

void pm_result_release(struct pm_result *r)
{
	free(r->param);
	free(r->why);
	memset(r, 0, sizeof(*r));
}
