#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_name.h"
#include "jax_report.h"
#include "jax_hlo.h"
#include "err.h"
#include "json_value.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "pd_groupby.h"
#include "py_repr.h"
#include "stream.h"
#include "strpool.h"
#include "timeline.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* ---- values and frames: pandas' columns as the sheets need them ------- */

enum { PV_NA, PV_INT, PV_FLOAT, PV_STR, PV_BOOL };

struct pv {
	int k;
	int64_t i;
	double d;
	char *s;		/* PV_STR: owned */
};

struct jcol {
	char *name;
	struct pv *v;
};

struct jframe {
	struct jcol *c;
	size_t nc, ac, nr;
	int empty_no_columns;	/* pd.DataFrame(): one empty line */
};

static struct pv pv_int(int64_t i) { struct pv v = { PV_INT, i, (double)i, NULL }; return v; }
static struct pv pv_float(double d)
{
	struct pv v = { PV_FLOAT, 0, d, NULL };
	if (d != d)
		v.k = PV_NA;
	return v;
}
static struct pv pv_na(void) { struct pv v = { PV_NA, 0, NAN, NULL }; return v; }
static struct pv pv_str(const char *s) { struct pv v = { PV_STR, 0, 0, xstrdup(s) }; return v; }
static struct pv pv_take(char *s) { struct pv v = { PV_STR, 0, 0, s }; return v; }

static struct pv *frame_col(struct jframe *f, const char *name)
{
	xgrow((void **)&f->c, &f->ac, f->nc + 1, sizeof(*f->c));
	f->c[f->nc].name = xstrdup(name);
	f->c[f->nc].v = xcalloc(f->nr + 1, sizeof(struct pv));
	return f->c[f->nc++].v;
}

static void frame_release(struct jframe *f)
{
	for (size_t c = 0; c < f->nc; c++) {
		for (size_t r = 0; r < f->nr; r++)
			free(f->c[c].v[r].s);
		free(f->c[c].v);
		free(f->c[c].name);
	}
	free(f->c);
	memset(f, 0, sizeof(*f));
}

/* pandas' dtype of a column built from these values */
enum { DT_INT, DT_FLOAT, DT_BOOL, DT_OBJ };

static int col_dtype(const struct pv *v, size_t n)
{
	int any_float = 0, all_int = 1, all_bool = 1, all_num = 1;

	for (size_t i = 0; i < n; i++) {
		if (v[i].k != PV_INT)
			all_int = 0;
		if (v[i].k != PV_BOOL)
			all_bool = 0;
		if (v[i].k == PV_FLOAT || v[i].k == PV_NA)
			any_float = 1;
		if (v[i].k == PV_STR || v[i].k == PV_BOOL)
			all_num = 0;
	}
	if (n && all_int)
		return DT_INT;
	if (n && all_bool)
		return DT_BOOL;
	if (all_num && (any_float || !n))
		return DT_FLOAT;
	return DT_OBJ;
}

static void cell_write(struct sheet *sh, const struct pv *v, int dt)
{
	switch (v->k) {
	case PV_NA:
		sheet_empty(sh);
		break;
	case PV_INT:
		if (dt == DT_FLOAT)
			sheet_float(sh, (double)v->i);
		else
			sheet_int(sh, v->i);
		break;
	case PV_FLOAT:
		sheet_float(sh, v->d);
		break;
	case PV_BOOL:
		sheet_bool(sh, (int)v->i);
		break;
	default:
		sheet_str(sh, v->s);
	}
}

static void frame_write(const struct jframe *f, struct sheet *sh)
{
	const char **names;
	int *dt;

	if (f->empty_no_columns) {
		sheet_header(sh, NULL, 0);
		return;
	}
	names = xmalloc(st_mult(f->nc + 1, sizeof(*names)));
	dt = xmalloc(st_mult(f->nc + 1, sizeof(*dt)));
	for (size_t c = 0; c < f->nc; c++) {
		names[c] = f->c[c].name;
		dt[c] = col_dtype(f->c[c].v, f->nr);
	}
	sheet_header(sh, names, f->nc);
	for (size_t r = 0; r < f->nr; r++) {
		for (size_t c = 0; c < f->nc; c++)
			cell_write(sh, &f->c[c].v[r], dt[c]);
		sheet_endrow(sh);
	}
	free(names);
	free(dt);
}

/* ---- Python reprs ---------------------------------------------------------- */

/* repr of an int or a float as Python prints a number inside a container */
static void repr_num(struct pystr *ps, const struct pv *v)
{
	char b[32];

	if (v->k == PV_INT) {
		snprintf(b, sizeof(b), "%lld", (long long)v->i);
		pystr_adds(ps, b);
	} else if (v->k == PV_NA) {
		pystr_adds(ps, "nan");
	} else {
		py_repr_float(ps, v->d);
	}
}

/* numpy 2's repr of a numpy scalar: np.float64(5.81), np.int64(3) */
static void repr_np(struct pystr *ps, const struct pv *v)
{
	char b[32];

	if (v->k == PV_INT) {
		snprintf(b, sizeof(b), "np.int64(%lld)", (long long)v->i);
		pystr_adds(ps, b);
	} else {
		py_repr_np64(ps, v->k == PV_NA ? NAN : v->d);
	}
}

/* str() of a tuple of int tuples: ((1, 2), (3,)) */
struct dims {
	int64_t *v;
	size_t n;
};

struct operands {
	struct dims *dims;	/* parsed shapes */
	char **type;
	size_t n;
};

static void repr_dims_tuple(struct pystr *ps, const struct dims *d, size_t n)
{
	char b[32];

	pystr_addc(ps, '(');
	for (size_t i = 0; i < n; i++) {
		if (i)
			pystr_adds(ps, ", ");
		pystr_addc(ps, '(');
		for (size_t k = 0; k < d[i].n; k++) {
			if (k)
				pystr_adds(ps, ", ");
			snprintf(b, sizeof(b), "%lld", (long long)d[i].v[k]);
			pystr_adds(ps, b);
		}
		if (d[i].n == 1)
			pystr_addc(ps, ',');
		pystr_addc(ps, ')');
	}
	if (n == 1)
		pystr_addc(ps, ',');
	pystr_addc(ps, ')');
}

static void repr_str_tuple(struct pystr *ps, char *const *s, size_t n)
{
	pystr_addc(ps, '(');
	for (size_t i = 0; i < n; i++) {
		if (i)
			pystr_adds(ps, ", ");
		py_repr_str(ps, s[i], strlen(s[i]));
	}
	if (n == 1)
		pystr_addc(ps, ',');
	pystr_addc(ps, ')');
}

static void repr_str_list(struct pystr *ps, char *const *s, size_t n)
{
	pystr_addc(ps, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			pystr_adds(ps, ", ");
		py_repr_str(ps, s[i], strlen(s[i]));
	}
	pystr_addc(ps, ']');
}

/* ---- events ------------------------------------------------------------------ */

enum { C_UNKNOWN, C_CPU_OP, C_PYFUNC, C_KERNEL, C_MEMCPY, C_MEMSET };

/* TraceEventUtils.JaxOpKeys.ClassCategories, in its order */
static const struct {
	const char *name, *sheet;
	const char *keys[5];
} cats[] = {
	{ "GEMM", "op_gemm", { "Cijk", "gemm", "nvjet", "cublasLt", NULL } },
	{ "FA BWD", "op_fa_bwd", { "FmhaBwd", "flash_bprop", "ck_fused_attn::dk_dv_reduce_thd",
				   "fmha_bwd", NULL } },
	{ "FA FWD", "op_fa_fwd", { "FmhaFwd", "flash_fprop", "fmha_fwd", NULL } },
	{ "FA V3", "op_fa_v3", { "kernel_func", NULL } },
	{ "Conv", "op_conv", { "conv_", "conv.", "conv-", NULL } },
	{ "TE", "op_te", { "transformer_engine", "te_fused_attn", NULL } },
	{ "Communication rccl/nccl", "op_communication_rccl/nccl", { "rccl", "nccl", NULL } },
};
#define NCATS ((int)(sizeof(cats) / sizeof(cats[0])))
#define CAT_XLA NCATS		/* Uncategorized Events/XLA */

static const char *cat_name(int c)
{
	return c < NCATS ? cats[c].name : "Uncategorized Events/XLA";
}

struct jev {
	uint32_t pid, tid, name;	/* strpool ids; pid/tid compact JSON, 0 absent */
	int has_pid, has_tid, has_ts, has_dur, is_meta;
	struct pv ts, dur;
	uint32_t corr;			/* compact JSON of args.correlation_id, 0 none */
	uint32_t hlo_op, hlo_module;
	int has_hlo_op, has_hlo_module, has_args;
	int cat, gpu, opcat;
	int64_t parent;			/* UID, -1 none */
	const struct jax_hlo_op *meta;
};

struct module {
	uint32_t name;			/* the module name (strpool id) */
	char *text;
	struct jax_hlo *hlo;		/* parsed when first needed */
	int parsed;
};

struct jax_report {
	struct jax_opts o;
	struct strpool *sp;
	struct jev *ev;			/* non-metadata events, UID order */
	size_t nev, ev_alloc;
	/* metadata: "P<pid>" → process name, "T<pid>\x1f<tid>" → thread name */
	struct strpool *mkeys;
	char **mval;
	size_t nmval;
	struct module *mod;
	size_t nmod, mod_alloc;
	/* the GPU pids in Python's set order */
	int64_t *gpus;
	size_t ngpus;
	const char **sheets;
	size_t nsheets;
};

/* ---- reading the stream -------------------------------------------------------- */

static void meta_set(struct jax_report *r, char kind, const char *pid, const char *tid,
		     const char *val)
{
	struct pystr k = { 0 };
	uint32_t id;

	pystr_addc(&k, kind);
	pystr_adds(&k, pid);
	if (tid) {
		pystr_addc(&k, '\x1f');
		pystr_adds(&k, tid);
	}
	id = strpool_intern(r->mkeys, k.buf, k.len);
	if (id >= r->nmval) {
		size_t old = r->nmval;
		xgrow((void **)&r->mval, &r->nmval, (size_t)id + 1, sizeof(*r->mval));
		memset(r->mval + old, 0, (r->nmval - old) * sizeof(*r->mval));
	}
	free(r->mval[id]);
	r->mval[id] = xstrdup(val);
	pystr_release(&k);
}

static const char *meta_get(const struct jax_report *r, char kind, uint32_t pid,
			    uint32_t tid)
{
	struct pystr k = { 0 };
	uint32_t id;

	pystr_addc(&k, kind);
	pystr_adds(&k, strpool_str(r->sp, pid));
	if (kind == 'T') {
		pystr_addc(&k, '\x1f');
		pystr_adds(&k, strpool_str(r->sp, tid));
	}
	id = strpool_find(r->mkeys, k.buf, k.len);
	pystr_release(&k);
	return id != UINT32_MAX && id < r->nmval ? r->mval[id] : NULL;
}

/* A number field as Python's json reads it: int without '.', 'e', 'E'. */
static int num_field(const char *s, struct pv *v)
{
	char *end;

	if (!*s)
		return 0;
	if (strpbrk(s, ".eE")) {
		*v = pv_float(strtod(s, &end));
		v->k = PV_FLOAT;
	} else {
		long long i = strtoll(s, &end, 10);
		*v = pv_int(i);
	}
	return 1;
}

/* A metadata row: process_name / thread_name (the others are kept by
 * TraceLens too but not needed here) */
static void read_meta(struct jax_report *r, const char *name, const char *pid,
		      const char *tid, const char *args)
{
	struct json_value *a;
	const struct json_value *v;

	if (strcmp(name, "process_name") && strcmp(name, "thread_name"))
		return;
	if (!(a = json_value_parse(args, strlen(args))))
		return;
	if ((v = json_value_get(a, "name")) && v->type == JV_STR)
		meta_set(r, name[0] == 'p' ? 'P' : 'T', pid, name[0] == 'p' ? NULL : tid, v->s);
	json_value_free(a);
}

static void read_event(struct jax_report *r, struct stream *s, const int *col)
{
	struct jev *e;
	const char *args = stream_field(s, col[6]);

	xgrow((void **)&r->ev, &r->ev_alloc, r->nev + 1, sizeof(*r->ev));
	e = &r->ev[r->nev++];
	memset(e, 0, sizeof(*e));
	e->parent = -1;
	e->opcat = -1;
	e->has_pid = *stream_field(s, col[2]) != 0;
	e->has_tid = *stream_field(s, col[3]) != 0;
	e->pid = strpool_intern(r->sp, stream_field(s, col[2]), stream_field_len(s, col[2]));
	e->tid = strpool_intern(r->sp, stream_field(s, col[3]), stream_field_len(s, col[3]));
	e->name = strpool_intern(r->sp, stream_field(s, col[1]), stream_field_len(s, col[1]));
	e->has_ts = num_field(stream_field(s, col[4]), &e->ts);
	e->has_dur = num_field(stream_field(s, col[5]), &e->dur);
	e->has_args = *args != 0;
	if (*args) {
		struct json_value *a = json_value_parse(args, strlen(args));
		const struct json_value *v;
		if ((v = json_value_get(a, "correlation_id"))) {
			/* Python compares the values: a number's text, a string quoted */
			struct pystr k = { 0 };
			if (v->type == JV_STR)
				pystr_addc(&k, '"');
			pystr_add(&k, v->s ? v->s : (v->type == JV_NULL ? "null" : "?"),
				  v->s ? v->len : (v->type == JV_NULL ? 4 : 1));
			e->corr = strpool_intern(r->sp, k.buf, k.len);
			pystr_release(&k);
		}
		if ((v = json_value_get(a, "hlo_op")) && v->type == JV_STR) {
			e->has_hlo_op = 1;
			e->hlo_op = strpool_intern(r->sp, v->s, v->len);
		}
		if ((v = json_value_get(a, "hlo_module")) && v->type == JV_STR) {
			e->has_hlo_module = 1;
			e->hlo_module = strpool_intern(r->sp, v->s, v->len);
		}
		json_value_free(a);
	}
}

/* #top hlo_module.PROGRAM {"module": NAME, "text": ...}: the first of a name */
static void read_module(struct jax_report *r, const char *json, size_t len)
{
	struct json_value *v = json_value_parse(json, len);
	const struct json_value *m = json_value_get(v, "module"), *t = json_value_get(v, "text");
	uint32_t name;

	if (m && t && m->type == JV_STR && t->type == JV_STR) {
		name = strpool_intern(r->sp, m->s, m->len);
		size_t i = 0;
		while (i < r->nmod && r->mod[i].name != name)
			i++;
		if (i == r->nmod) {
			xgrow((void **)&r->mod, &r->mod_alloc, r->nmod + 1, sizeof(*r->mod));
			r->mod[r->nmod].name = name;
			r->mod[r->nmod].text = xstrndup(t->s, t->len);
			r->mod[r->nmod].hlo = NULL;
			r->mod[r->nmod++].parsed = 0;
		}
	}
	json_value_free(v);
}

static int read_stream(struct jax_report *r, struct stream *s)
{
	static const char *const names[] = { "ph", "name", "pid", "tid", "ts", "dur", "args" };
	int col[7], rc, sources = 0, ends = 0;
	const char *key, *json;
	size_t len;

	for (int i = 0; i < 7; i++)
		if ((col[i] = stream_col(s, names[i])) < 0) {
			tl_warn("%s:2: no column '%s' (is this a tl-cat event stream?)",
				stream_name(s), names[i]);
			return -1;
		}
	while ((rc = stream_next(s)) > 0) {
		if (rc == STREAM_DIRECTIVE) {
			const char *l = stream_line(s);
			if (!strncmp(l, "source\t", 7) && sources++) {
				tl_warn("%s:%ld: more than one trace in the stream; report one at a time",
					stream_name(s), stream_lineno(s));
				return -1;
			}
			if (!strncmp(l, "end\t", 4))
				ends++;
			if (stream_top(s, &key, &json, &len) && !strncmp(key, "hlo_module.", 11))
				read_module(r, json, len);
			continue;
		}
		if (!strcmp(stream_field(s, col[0]), "M"))
			read_meta(r, stream_field(s, col[1]), stream_field(s, col[2]),
				  stream_field(s, col[3]), stream_field(s, col[6]));
		else
			read_event(r, s, col);
	}
	if (rc == 0 && ends < sources) {
		tl_warn("%s: the trace was cut short (no #end): tl-cat failed?", stream_name(s));
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

/* ---- what TraceLens's JaxTraceToTree works out ---------------------------------- */

static int starts_ci(const char *s, const char *p)
{
	for (; *p; s++, p++)
		if (!*s || ((*s >= 'A' && *s <= 'Z') ? *s + 32 : *s) != *p)
			return 0;
	return 1;
}

/* TraceEventUtils.get_event_category by the thread's name */
static int categorize(const struct jax_report *r, const struct jev *e)
{
	const char *t, *name = strpool_str(r->sp, e->name);

	if (!e->has_pid || !e->has_tid || !(t = meta_get(r, 'T', e->pid, e->tid)))
		return C_UNKNOWN;
	if (!strcmp(t, "Framework Name Scope") || strstr(t, "py_xla"))
		return C_CPU_OP;
	if (!strcmp(t, "XLA Ops"))
		return C_PYFUNC;
	if (!strncmp(t, "Stream", 6)) {
		if (starts_ci(name, "copy") || starts_ci(name, "memcpy"))
			return C_MEMCPY;
		if (starts_ci(name, "memset"))
			return C_MEMSET;
		return C_KERNEL;
	}
	return C_UNKNOWN;
}

static struct module *module_of(struct jax_report *r, uint32_t name)
{
	for (size_t i = 0; i < r->nmod; i++) {
		struct module *m = &r->mod[i];
		if (m->name != name)
			continue;
		if (!m->parsed) {
			m->hlo = jax_hlo_parse(m->text);
			m->parsed = 1;
		}
		return m;
	}
	return NULL;
}

/* The modules' aliases need every hlo_op of the trace named with the module. */
static void module_aliases(struct jax_report *r)
{
	for (size_t i = 0; i < r->nmod; i++) {
		struct strpool *seen = strpool_new();
		char **ops = NULL;
		size_t n = 0, alloc = 0;
		for (size_t k = 0; k < r->nev; k++) {
			const struct jev *e = &r->ev[k];
			if (!e->has_hlo_op || !e->has_hlo_module || e->hlo_module != r->mod[i].name)
				continue;
			const char *op = strpool_str(r->sp, e->hlo_op);
			struct pystr key = { 0 };
			if (op[0] != '%')
				pystr_addc(&key, '%');
			pystr_adds(&key, op);
			uint32_t before = strpool_count(seen);
			strpool_intern(seen, key.buf, key.len);
			if (strpool_count(seen) != before) {
				xgrow((void **)&ops, &alloc, n + 1, sizeof(*ops));
				ops[n++] = key.buf;
			} else {
				pystr_release(&key);
			}
		}
		if (n) {
			struct module *m = module_of(r, r->mod[i].name);
			jax_hlo_set_trace_ops(m->hlo, ops, n);
		}
		for (size_t k = 0; k < n; k++)
			free(ops[k]);
		free(ops);
		strpool_free(seen);
	}
}

static int pid_is(const struct jax_report *r, const struct jev *e, const char *v)
{
	return e->has_pid && !strcmp(strpool_str(r->sp, e->pid), v);
}

struct uidlist {
	uint32_t *v;
	size_t n, alloc;
};

/*
 * _link_cpu_gpu: a host event (pid 701) with a correlation id becomes the
 * parent of every other event with that id, later host events winning;
 * those with args.hlo_op get their HLO op from the module.
 */
static void link_cpu_gpu(struct jax_report *r)
{
	uint32_t nkeys = strpool_count(r->sp);
	struct uidlist *by = xcalloc((size_t)nkeys + 1, sizeof(*by));

	for (size_t i = 0; i < r->nev; i++) {
		uint32_t k = r->ev[i].corr;
		if (!k)
			continue;
		xgrow((void **)&by[k].v, &by[k].alloc, by[k].n + 1, sizeof(*by[k].v));
		by[k].v[by[k].n++] = (uint32_t)i;
	}
	for (size_t i = 0; i < r->nev; i++) {
		const struct jev *h = &r->ev[i];
		if (!h->corr || !pid_is(r, h, "701"))
			continue;
		for (size_t k = 0; k < by[h->corr].n; k++) {
			struct jev *g = &r->ev[by[h->corr].v[k]];
			if (g == h)
				continue;
			g->parent = (int64_t)i;
			if (g->has_hlo_op) {
				struct module *m = g->has_hlo_module ? module_of(r, g->hlo_module) : NULL;
				const struct jax_hlo_op *op = m ? jax_hlo_resolve(m->hlo,
					strpool_str(r->sp, g->hlo_op)) : NULL;
				if (op)
					g->meta = op;
			}
		}
	}
	for (uint32_t k = 0; k <= nkeys; k++)
		free(by[k].v);
	free(by);
}

/* _categorize_gpu_kernel_ops: by name, then by hlo_op (not over FA names) */
static int kernel_category(const struct jax_report *r, const struct jev *e)
{
	const char *name = strpool_str(r->sp, e->name);
	int byname = -1, found;

	for (int c = 0; c < NCATS && byname < 0; c++)
		for (int k = 0; cats[c].keys[k]; k++)
			if (strstr(name, cats[c].keys[k])) {
				byname = c;
				break;
			}
	found = byname;
	if (e->has_hlo_op && *strpool_str(r->sp, e->hlo_op) &&
	    !(byname >= 1 && byname <= 3)) {
		const char *op = strpool_str(r->sp, e->hlo_op);
		for (int c = 0; c < NCATS; c++) {
			int hit = 0;
			for (int k = 0; cats[c].keys[k] && !hit; k++)
				hit = strstr(op, cats[c].keys[k]) != NULL;
			if (hit) {
				found = c;
				break;
			}
		}
	}
	return found < 0 ? CAT_XLA : found;
}

/*
 * list({pid for GPU events}): CPython's set of small ints iterates in hash
 * slot order.  A table of 8 slots grows 4x (×2 past 50000) once 60% full;
 * int hashes are the values, probes linear then perturbed as set_add_entry.
 */
static void python_int_set(const int64_t *vals, size_t n, int64_t **out, size_t *nout)
{
	size_t mask = 7, used = 0, fill = 0;
	int64_t *key = xmalloc(8 * sizeof(*key));
	char *has = xcalloc(8, 1);

	for (size_t v = 0; v < n; v++) {
		int64_t x = vals[v];
		uint64_t h = (uint64_t)(x == -1 ? -2 : x), perturb = h;
		size_t i = (size_t)(h & mask);
		int dup = 0;
		for (;;) {
			size_t probes = i + 9 <= mask ? 9 : 0, j = i;
			for (size_t p = 0; p <= probes; p++, j++) {
				if (!has[j])
					goto insert;
				if (key[j] == x) {
					dup = 1;
					goto insert;
				}
			}
			perturb >>= 5;
			i = (size_t)((i * 5 + 1 + perturb) & mask);
			continue;
insert:
			if (!dup) {
				has[j] = 1;
				key[j] = x;
				used++;
				fill++;
			}
			break;
		}
		if (!dup && fill * 5 >= mask * 3) {
			/* set_table_resize(used > 50000 ? used * 2 : used * 4) */
			size_t minused = used > 50000 ? used * 2 : used * 4, size = 8;
			while (size <= minused)
				size <<= 1;
			int64_t *nkey = xmalloc(st_mult(size, sizeof(*nkey)));
			char *nhas = xcalloc(size, 1);
			size_t nmask = size - 1;
			for (size_t s = 0; s <= mask; s++) {
				if (!has[s])
					continue;
				uint64_t h2 = (uint64_t)(key[s] == -1 ? -2 : key[s]), pt = h2;
				size_t i2 = (size_t)(h2 & nmask);
				for (;;) {
					if (!nhas[i2])
						break;
					int placed = 0;
					if (i2 + 9 <= nmask)
						for (size_t p = 1; p <= 9; p++)
							if (!nhas[i2 + p]) {
								i2 += p;
								placed = 1;
								break;
							}
					if (placed)
						break;
					pt >>= 5;
					i2 = (size_t)((i2 * 5 + 1 + pt) & nmask);
				}
				nhas[i2] = 1;
				nkey[i2] = key[s];
			}
			free(key);
			free(has);
			key = nkey;
			has = nhas;
			mask = nmask;
			fill = used;
		}
	}
	*out = xmalloc(st_mult(used + 1, sizeof(**out)));
	*nout = 0;
	for (size_t s = 0; s <= mask; s++)
		if (has[s])
			(*out)[(*nout)++] = key[s];
	free(key);
	free(has);
}

static void analyse(struct jax_report *r)
{
	int64_t *pids = xmalloc(st_mult(r->nev + 1, sizeof(*pids)));
	size_t np = 0;

	for (size_t i = 0; i < r->nev; i++) {
		struct jev *e = &r->ev[i];
		const char *pn = e->has_pid ? meta_get(r, 'P', e->pid, 0) : NULL;
		e->cat = categorize(r, e);
		e->gpu = pn && strstr(pn, "/device:GPU") != NULL;
		if (e->gpu)
			pids[np++] = strtoll(strpool_str(r->sp, e->pid), NULL, 10);
	}
	module_aliases(r);
	link_cpu_gpu(r);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].gpu && r->ev[i].cat == C_KERNEL)
			r->ev[i].opcat = kernel_category(r, &r->ev[i]);
	python_int_set(pids, np, &r->gpus, &r->ngpus);
	free(pids);
}

/* ---- kernel launchers: the kernels with their HLO-derived arguments -------- */

/*
 * parse_operands: per non-empty operand the first
 * ([A-Za-z]+[0-9]+)\[([0-9,]+)\]\{([0-9,]+)\} match: its type and dims.
 */
static void parse_operands(char *const *ops, size_t n, struct operands *out)
{
	memset(out, 0, sizeof(*out));
	out->dims = xcalloc(n + 1, sizeof(*out->dims));
	out->type = xcalloc(n + 1, sizeof(*out->type));
	for (size_t i = 0; i < n; i++) {
		const char *s = ops[i];
		if (!*s)
			continue;
		for (const char *p = s; *p; p++) {
			const char *q = p, *t0 = p, *t1, *d0, *d1;
			while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))
				q++;
			if (q == p || !(*q >= '0' && *q <= '9'))
				continue;
			while (*q >= '0' && *q <= '9')
				q++;
			t1 = q;
			if (*q++ != '[')
				continue;
			d0 = q;
			while ((*q >= '0' && *q <= '9') || *q == ',')
				q++;
			d1 = q;
			if (d1 == d0 || *q++ != ']' || *q++ != '{')
				continue;
			const char *l0 = q;
			while ((*q >= '0' && *q <= '9') || *q == ',')
				q++;
			if (q == l0 || *q != '}')
				continue;
			/* a match: type and the dims that are not empty pieces */
			struct dims *d = &out->dims[out->n];
			d->v = xcalloc((size_t)(d1 - d0) + 1, sizeof(*d->v));
			for (const char *x = d0; x < d1;) {
				if (*x == ',') {
					x++;
					continue;
				}
				d->v[d->n++] = strtoll(x, NULL, 10);
				while (x < d1 && *x != ',')
					x++;
			}
			out->type[out->n++] = xstrndup(t0, (size_t)(t1 - t0));
			break;
		}
	}
}

static void operands_release(struct operands *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->dims[i].v);
		free(o->type[i]);
	}
	free(o->dims);
	free(o->type);
	memset(o, 0, sizeof(*o));
}

enum { M_REST, M_GEMM, M_TE, M_TE_BWD, M_CONV, M_CONV_BWD };

/* get_event_perf_model_name */
static int perf_model(const struct jev *e)
{
	const char *t;

	if (!e->meta || !e->meta->noperands || !(t = e->meta->custom_call_target) || !*t)
		return M_REST;
	if ((strstr(t, "matmul") || strstr(t, "cublas")) && e->opcat == 0)
		return M_GEMM;
	if (strstr(t, "te_fused_attn_forward_ffi"))
		return M_TE;
	if (strstr(t, "te_fused_attn_backward_ffi"))
		return M_TE_BWD;
	if ((strstr(t, "cudnn$convForward") || strstr(t, "cudnn$convBiasActivationForward")) &&
	    e->opcat == 4)
		return M_CONV;
	if (strstr(t, "cudnn$convBackward") && e->opcat == 4)
		return M_CONV_BWD;
	return M_REST;
}

static const char *const model_names[] = {
	"rest", "jax_gemm", "jax_te_fused_attn", "jax_te_fused_attn_bwd", "jax_conv",
	"jax_conv_bwd",
};

struct krow {
	size_t ev;
	int opcat, model;
	struct operands in, out;	/* Input Dims/type; the output (conv) */
	size_t nin;			/* how many of in go to Input Dims */
	char *dims, *types, *strides, *concrete;	/* str() of the args */
	char *details;			/* str() of kernel_details */
	struct pv latency;
	int bad;			/* TraceLens would have raised here */
};

/* The kernel_details entry of get_kernel_launchers */
static char *kernel_details(const struct jax_report *r, const struct jev *e)
{
	struct pystr ps = { 0 };
	const char *name = strpool_str(r->sp, e->name);
	const struct jax_hlo_op *m = e->meta;

	pystr_adds(&ps, "[{'name': ");
	py_repr_str(&ps, name, strlen(name));
	pystr_adds(&ps, ", 'dur': ");
	repr_num(&ps, &e->dur);
	pystr_adds(&ps, ", 'custom_call_target': ");
	if (m && m->custom_call_target)
		py_repr_str(&ps, m->custom_call_target, strlen(m->custom_call_target));
	else
		pystr_adds(&ps, "'NA'");
	pystr_adds(&ps, ", 'operands': ");
	if (m)
		repr_str_list(&ps, m->operands, m->noperands);
	else
		pystr_adds(&ps, "'NA'");
	pystr_adds(&ps, ", 'outputs': 'NA', 'metadata': ");
	if (m && m->metadata)
		py_repr_str(&ps, m->metadata, strlen(m->metadata));
	else
		pystr_adds(&ps, "'NA'");
	pystr_adds(&ps, "}]");
	return ps.buf;
}

static char *dims_repr(const struct dims *d, size_t n)
{
	struct pystr ps = { 0 };
	repr_dims_tuple(&ps, d, n);
	return ps.buf;
}

/* get_event_metadata: Input Dims/type per model (Output Dims for conv) */
static void event_metadata(const struct jev *e, struct krow *k)
{
	struct pystr ps = { 0 };
	char *nonempty[1];

	k->model = perf_model(e);
	k->strides = xstrdup("()");
	k->concrete = xstrdup("()");
	if (e->meta && e->meta->noperands) {
		parse_operands(e->meta->operands, e->meta->noperands, &k->in);
		k->nin = k->in.n;
		if (k->model == M_TE || k->model == M_TE_BWD) {
			k->nin = k->in.n < 3 ? k->in.n : 3;
			free(k->concrete);
			k->concrete = dims_repr(k->in.dims + k->nin, k->in.n > 3 ? 1 : 0);
		}
		if (k->model == M_CONV || k->model == M_CONV_BWD) {
			nonempty[0] = e->meta->output;
			parse_operands(nonempty, 1, &k->out);
			if (k->in.n < 2 || (k->model == M_CONV_BWD && k->out.n < 1))
				k->bad = 1;	/* TraceLens: IndexError on Filter Shape */
		}
		k->dims = dims_repr(k->in.dims, k->nin);
		repr_str_tuple(&ps, k->in.type, k->nin);
		k->types = ps.buf;
	} else {
		k->dims = xstrdup("()");
		k->types = xstrdup("()");
	}
}

static void krow_release(struct krow *k)
{
	operands_release(&k->in);
	operands_release(&k->out);
	free(k->dims);
	free(k->types);
	free(k->strides);
	free(k->concrete);
	free(k->details);
}

static int has_keyword(const struct jax_report *r, const struct jev *e)
{
	const char *md;

	if (!r->o.keyword_filters)
		return 1;
	if (!e->meta)
		return 0;
	md = e->meta->metadata ? e->meta->metadata : "";
	for (size_t i = 0; i < r->o.nfilters; i++)
		if (strstr(md, r->o.keyword_filters[i]))
			return 1;
	return 0;
}

/* get_df_kernel_launchers(..., gpu_kernel_op_cats=[only]) rows; only < 0: all */
static size_t launchers(struct jax_report *r, int only, struct krow **out)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0; i < r->nev; i++) {
		const struct jev *e = &r->ev[i];
		if (e->cat != C_KERNEL || !e->gpu || (only >= 0 && e->opcat != only) ||
		    !has_keyword(r, e))
			continue;
		xgrow((void **)out, &alloc, n + 1, sizeof(**out));
		struct krow *k = &(*out)[n++];
		memset(k, 0, sizeof(*k));
		k->ev = i;
		k->opcat = e->opcat;
		event_metadata(e, k);
		k->details = kernel_details(r, e);
		if (e->parent < 0 || !r->ev[e->parent].has_ts || !e->has_ts) {
			k->latency = pv_na();
		} else {
			const struct pv *a = &e->ts, *b = &r->ev[e->parent].ts;
			k->latency = a->k == PV_INT && b->k == PV_INT ? pv_int(a->i - b->i)
				: pv_float(a->d - b->d);
		}
	}
	return n;
}

static void krows_release(struct krow *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		krow_release(&k[i]);
	free(k);
}

/* ---- the sheets ----------------------------------------------------------------- */

static struct pv pid_value(const struct jax_report *r, uint32_t id, int has)
{
	struct pv v;

	if (!has)
		return pv_na();
	if (num_field(strpool_str(r->sp, id), &v))
		return v;
	return pv_str(strpool_str(r->sp, id));
}

/* df_xla_perf's total_input_bytes: dtype[shape] operands × bytes per element */
static struct pv input_bytes(const struct jev *e)
{
	static const struct { const char *t; int b; } bpe[] = {
		{ "f32", 4 }, { "bf16", 2 }, { "s32", 4 }, { "fp16", 2 }, { "u32", 4 },
		{ "f16", 2 }, { "u64", 8 }, { "f8e4m3fn", 1 }, { "f8e4m3fnuz", 1 },
		{ "f8e5m2", 1 }, { "f8e5m2fnuz", 1 }, { "pred", 1 },
	};
	/* Python's ints have no top: past 2^62 (no real tensor) the sum goes
	 * on in floating point, and the cell is that float */
	int64_t total = 0;
	double ftotal = 0;
	int big = 0;

	if (!e->meta)		/* operands "NA": its letters match nothing */
		return pv_int(0);
	for (size_t i = 0; i < e->meta->noperands; i++) {
		/* re.match(r"(\w+)\[([0-9,]*)\]...") at the start */
		const char *s = e->meta->operands[i], *q = s;
		while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		       (*q >= '0' && *q <= '9') || *q == '_')
			q++;
		if (q == s || *q != '[')
			continue;
		char *type = xstrndup(s, (size_t)(q - s));
		const char *d0 = ++q;
		while ((*q >= '0' && *q <= '9') || *q == ',')
			q++;
		int64_t prod = 1, ndims = 0;
		double fprod = 1;
		if (*q == ']')
			for (const char *x = d0; x < q;) {
				if (*x == ',') { x++; continue; }
				int64_t d = strtoll(x, NULL, 10);
				fprod *= (double)d;
				big |= fprod >= 0x1p62;
				prod = big ? 0 : prod * d;
				ndims++;
				while (x < q && *x != ',')
					x++;
			}
		int b = -1;
		for (size_t k = 0; k < sizeof(bpe) / sizeof(bpe[0]); k++)
			if (!strcmp(type, bpe[k].t))
				b = bpe[k].b;
		if (b < 0 && (!strncmp(type, "f8", 2) || !strncmp(type, "s8", 2)))
			b = 1;
		if (*q == ']' && ndims && b > 0) {
			ftotal += fprod * b;
			big |= ftotal >= 0x1p62;
			total = big ? 0 : total + prod * b;
		}
		free(type);
	}
	return big ? pv_float(ftotal) : pv_int(total);
}

static void launchers_frame(struct jax_report *r, struct krow *k, size_t n, int xla,
			    struct jframe *f)
{
	static const char *const cols[] = {
		"name", "UID", "op category", "total_direct_kernel_time",
		"total_subtree_kernel_time", "direct_kernel_count", "pid", "tid", "Input Dims",
		"Input type", "Input Strides", "Concrete Inputs", "kernel_details",
		"GPU_kernel_launch_latency", "total_input_bytes",
	};
	struct pv *c[15];

	memset(f, 0, sizeof(*f));
	if (!n && !xla) {	/* pd.DataFrame() of no rows */
		f->empty_no_columns = 1;
		return;
	}
	f->nr = n;
	if (!n) {		/* get_df_xla_perf on an empty frame */
		frame_col(f, cols[14]);
		return;
	}
	for (int i = 0; i < (xla ? 15 : 14); i++)
		c[i] = frame_col(f, cols[i]);
	for (size_t i = 0; i < n; i++) {
		const struct jev *e = &r->ev[k[i].ev];
		c[0][i] = pv_str(strpool_str(r->sp, e->name));
		c[1][i] = pv_int((int64_t)k[i].ev);
		c[2][i] = pv_str(cat_name(k[i].opcat));
		c[3][i] = c[4][i] = e->dur;
		c[5][i] = pv_int(1);
		c[6][i] = pid_value(r, e->pid, e->has_pid);
		c[7][i] = pid_value(r, e->tid, e->has_tid);
		c[8][i] = pv_str(k[i].dims);
		c[9][i] = pv_str(k[i].types);
		c[10][i] = pv_str(k[i].strides);
		c[11][i] = pv_str(k[i].concrete);
		c[12][i] = pv_str(k[i].details);
		c[13][i] = k[i].latency;
		if (xla)
			c[14][i] = input_bytes(e);
	}
}

/* ---- groupby sums as pandas computes them -------------------------------- */

/* a group's sum: exact for an int64 column, Kahan-compensated for floats */
static struct pv group_sum(const struct pv *v, const size_t *rows, size_t n, int dt)
{
	double s = 0, comp = 0;
	int64_t si = 0;

	for (size_t i = 0; i < n; i++) {
		if (dt == DT_INT) {
			si = np_add_int64(si, v[rows[i]].i);
			continue;
		}
		double x = v[rows[i]].k == PV_INT ? (double)v[rows[i]].i : v[rows[i]].d;
		if (x != x)
			continue;
		double y = x - comp, t = s + y;
		comp = t - s - y;
		s = t;
	}
	return dt == DT_INT ? pv_int(si) : pv_float(s);
}

static double num(const struct pv *v)
{
	return v->k == PV_INT ? (double)v->i : v->d;
}

static double *gather(const struct pv *v, const size_t *rows, size_t n)
{
	double *x = xmalloc(st_mult(n + 1, sizeof(*x)));

	for (size_t i = 0; i < n; i++)
		x[i] = num(&v[rows[i]]);
	return x;
}

/* ---- kernel_launchers_summary / _by_category / xla_summary ------------------- */

static size_t nunique_pids(const struct jax_report *r, const struct krow *k, size_t n)
{
	struct strpool *seen = strpool_new();
	size_t c;

	for (size_t i = 0; i < n; i++) {
		const struct jev *e = &r->ev[k[i].ev];
		if (e->has_pid) {
			const char *p = strpool_str(r->sp, e->pid);
			strpool_intern(seen, p, strlen(p));
		}
	}
	c = strpool_count(seen) - 1;	/* id 0 is "" */
	strpool_free(seen);
	return c;
}

/* names[i]: the key of row i (its name, or for xla_summary digits removed) */
static void summary_frame(const struct jax_report *r, const struct krow *k, size_t n,
			  char **names, int by_category, struct jframe *f)
{
	struct pd_groupby *g = pd_groupby_new();
	struct pv *dur = xcalloc(n + 1, sizeof(*dur));
	size_t ng, *sorted, *order;
	double *sums, *ms, total, cum = 0;
	int dt;
	size_t gpus = nunique_pids(r, k, n);

	memset(f, 0, sizeof(*f));
	if (!n) {
		f->empty_no_columns = 1;
		free(dur);
		pd_groupby_free(g);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *key = by_category ? cat_name(k[i].opcat) : names[i];
		dur[i] = r->ev[k[i].ev].dur;
		pd_groupby_add(g, key, strlen(key), i);
	}
	dt = col_dtype(dur, n);
	ng = pd_groupby_count(g);
	sorted = pd_groupby_sorted(g);
	sums = xcalloc(ng + 1, sizeof(*sums));
	struct pv *sumv = xcalloc(ng + 1, sizeof(*sumv));
	for (size_t i = 0; i < ng; i++) {
		size_t m;
		const size_t *rows = pd_groupby_rows(g, sorted[i], &m);
		sumv[i] = group_sum(dur, rows, m, dt);
		sums[i] = num(&sumv[i]);
	}
	order = xmalloc(st_mult(ng + 1, sizeof(*order)));
	pd_argsort_desc(sums, order, ng);
	ms = xcalloc(ng + 1, sizeof(*ms));
	for (size_t o = 0; o < ng; o++)
		ms[o] = sums[order[o]] / 1000;
	total = np_sum(ms, ng);
	f->nr = ng;
	struct pv *c_name = frame_col(f, by_category ? "op category" : "name");
	struct pv *c_sum = NULL, *c_ssum = NULL, *c_ms, *c_sms = NULL, *c_count, *c_cat = NULL;
	if (by_category) {
		c_count = frame_col(f, "Count");
		c_ms = frame_col(f, "total_direct_kernel_time_ms");
	} else {
		c_sum = frame_col(f, "total_direct_kernel_time_sum");
		c_ssum = frame_col(f, "total_subtree_kernel_time_sum");
		c_ms = frame_col(f, "total_direct_kernel_time_ms");
		c_sms = frame_col(f, "total_subtree_kernel_time_ms");
		c_count = frame_col(f, "Count");
		c_cat = frame_col(f, "Categories");
	}
	struct pv *c_pct = frame_col(f, "Percentage (%)");
	struct pv *c_cum = frame_col(f, "Cumulative Percentage (%)");
	struct pv *c_gpu = frame_col(f, "time ms per gpu");
	for (size_t o = 0; o < ng; o++) {
		size_t gi = sorted[order[o]], m;
		const size_t *rows = pd_groupby_rows(g, gi, &m);
		double pct = ms[o] / total * 100;
		c_name[o] = pv_str(pd_groupby_key(g, gi));
		c_count[o] = pv_int((int64_t)m);
		c_ms[o] = pv_float(ms[o]);
		if (!by_category) {
			c_sum[o] = c_ssum[o] = sumv[order[o]];
			c_sms[o] = pv_float(ms[o]);
			/* sorted(set(op category)) */
			int seen[NCATS + 1] = { 0 };
			for (size_t i = 0; i < m; i++)
				seen[k[rows[i]].opcat] = 1;
			const char *cn[NCATS + 1];
			size_t nc = 0;
			for (int c = 0; c <= NCATS; c++)
				if (seen[c])
					cn[nc++] = cat_name(c);
			for (size_t a = 1; a < nc; a++)
				for (size_t b = a; b > 0 && strcmp(cn[b - 1], cn[b]) > 0; b--) {
					const char *t = cn[b]; cn[b] = cn[b - 1]; cn[b - 1] = t;
				}
			struct pystr ps = { 0 };
			repr_str_list(&ps, (char *const *)cn, nc);
			c_cat[o] = pv_take(ps.buf);
		}
		cum += pct;
		c_pct[o] = pv_float(pct);
		c_cum[o] = pv_float(cum);
		c_gpu[o] = pv_float(ms[o] / (double)gpus);
	}
	free(order);
	free(ms);
	free(sums);
	free(sumv);
	free(sorted);
	free(dur);
	pd_groupby_free(g);
}

/* ---- kernel_launchers_unique_args ------------------------------------------------- */

/* _summarize_kernel_stats over one-kernel lists: the template's fields, then
 * count, np.sum, and np.mean/median/std/min/max of the durations */
static char *kernel_summary(const struct jax_report *r, const struct krow *k,
			    const size_t *rows, size_t n, int with_template)
{
	const struct jev *e0 = &r->ev[k[rows[0]].ev];
	struct pystr ps = { 0 };
	struct pv *d = xcalloc(n + 1, sizeof(*d));
	double *x = xcalloc(n + 1, sizeof(*x));
	int ints = 1;
	const char *name = strpool_str(r->sp, e0->name);
	char b[32];

	for (size_t i = 0; i < n; i++) {
		d[i] = r->ev[k[rows[i]].ev].dur;
		x[i] = num(&d[i]);
		ints &= d[i].k == PV_INT;
	}
	pystr_adds(&ps, "[{'name': ");
	py_repr_str(&ps, name, strlen(name));
	if (with_template) {
		/* the kernel_details entry less its dur */
		const char *det = k[rows[0]].details, *p = strstr(det, ", 'custom_call_target': ");
		if (p)
			pystr_add(&ps, p, strlen(p) - 2);	/* up to "}]" */
	}
	snprintf(b, sizeof(b), ", 'count': %zu", n);
	pystr_adds(&ps, b);
	struct pv tot, mn, mx;
	if (ints) {
		int64_t s = 0, lo = d[0].i, hi = d[0].i;
		for (size_t i = 0; i < n; i++) {
			s = np_add_int64(s, d[i].i);
			lo = d[i].i < lo ? d[i].i : lo;
			hi = d[i].i > hi ? d[i].i : hi;
		}
		tot = pv_int(s);
		mn = pv_int(lo);
		mx = pv_int(hi);
	} else {
		tot = pv_float(np_sum(x, n));
		mn = pv_float(np_min(x, n));
		mx = pv_float(np_max(x, n));
	}
	struct pv mean = pv_float(np_mean(x, n)), sd = pv_float(np_std(x, n)), med;
	med = pv_float(np_median(x, n));
	pystr_adds(&ps, ", 'total_duration_us': ");
	repr_np(&ps, &tot);
	pystr_adds(&ps, ", 'mean_duration_us': ");
	repr_np(&ps, &mean);
	pystr_adds(&ps, ", 'median_duration_us': ");
	repr_np(&ps, &med);
	pystr_adds(&ps, ", 'std_dev_duration_us': ");
	repr_np(&ps, &sd);
	pystr_adds(&ps, ", 'min_duration_us': ");
	repr_np(&ps, &mn);
	pystr_adds(&ps, ", 'max_duration_us': ");
	repr_np(&ps, &mx);
	pystr_adds(&ps, "}]");
	free(d);
	free(x);
	return ps.buf;
}

struct ugrp {
	size_t gi;
	double sum;
	int64_t uid;
};

static int cmp_ugrp(const void *a, const void *b)
{
	const struct ugrp *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* mean, median, std, min, max, sum of a group, as pandas' groupby gives them */
static void group_stats(const struct pv *v, const size_t *rows, size_t n, int dt,
			struct pv out[6])
{
	double *x = gather(v, rows, n);

	out[0] = pv_float(pd_group_mean(x, n));
	out[2] = pv_float(pd_group_std(x, n, 1));
	if (dt == DT_INT) {
		int64_t lo = v[rows[0]].i, hi = v[rows[0]].i;
		for (size_t i = 0; i < n; i++) {
			lo = v[rows[i]].i < lo ? v[rows[i]].i : lo;
			hi = v[rows[i]].i > hi ? v[rows[i]].i : hi;
		}
		out[3] = pv_int(lo);
		out[4] = pv_int(hi);
	} else {
		out[3] = pv_float(np_min(x, n));
		out[4] = pv_float(np_max(x, n));
	}
	out[5] = group_sum(v, rows, n, dt);
	out[1] = pv_float(np_median(x, n));	/* reorders x: last */
	free(x);
}

static void unique_args_frame(const struct jax_report *r, const struct krow *k, size_t n,
			      struct jframe *f)
{
	static const char *const stat[] = { "mean", "median", "std", "min", "max", "sum" };
	struct pd_groupby *g = pd_groupby_new();
	struct pv *dur = xcalloc(n + 1, sizeof(*dur));
	struct pystr key = { 0 };
	size_t ng;
	int dt;

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < n; i++) {
		const struct jev *e = &r->ev[k[i].ev];
		const char *parts[6] = { strpool_str(r->sp, e->name), cat_name(k[i].opcat),
					 k[i].dims, k[i].types, k[i].strides, k[i].concrete };
		pystr_reset(&key);
		for (int p = 0; p < 6; p++) {
			if (p)
				pystr_addc(&key, PD_GROUPBY_SEP);
			pystr_adds(&key, parts[p]);
		}
		pd_groupby_add(g, key.buf, key.len, i);
		dur[i] = e->dur;
	}
	pystr_release(&key);
	dt = col_dtype(dur, n);
	ng = pd_groupby_count(g);
	struct ugrp *u = xcalloc(ng + 1, sizeof(*u));
	struct pv (*st)[6] = xcalloc(ng + 1, sizeof(*st));
	for (size_t i = 0; i < ng; i++) {
		size_t m;
		const size_t *rows = pd_groupby_rows(g, i, &m);
		group_stats(dur, rows, m, dt, st[i]);
		u[i].gi = i;
		u[i].sum = num(&st[i][5]);
		u[i].uid = (int64_t)k[rows[0]].ev;
	}
	/* sums before the sort: Series.sum() runs over the sorted rows */
	tl_qsort(u, ng, sizeof(*u), cmp_ugrp);
	double *sums = xcalloc(ng + 1, sizeof(*sums)), total;
	int64_t itotal = 0;
	for (size_t o = 0; o < ng; o++) {
		sums[o] = u[o].sum;
		itotal = np_add_int64(itotal, st[u[o].gi][5].i);
	}
	total = dt == DT_INT ? (double)itotal : np_sum(sums, ng);
	f->nr = ng;
	static const char *const first[] = { "name", "op category", "Input Dims", "Input type",
					     "Input Strides", "Concrete Inputs" };
	struct pv *c_first[6], *c_stat[12], *c_count, *c_uid, *c_det, *c_pct, *c_cum;
	for (int p = 0; p < 6; p++)
		c_first[p] = frame_col(f, first[p]);
	c_count = frame_col(f, "operation_count");
	for (int s = 0; s < 6; s++) {
		char name[64];
		snprintf(name, sizeof(name), "total_direct_kernel_time_%s", stat[s]);
		c_stat[2 * s] = frame_col(f, name);
		snprintf(name, sizeof(name), "total_subtree_kernel_time_%s", stat[s]);
		c_stat[2 * s + 1] = frame_col(f, name);
	}
	c_uid = frame_col(f, "ex_UID");
	c_det = frame_col(f, "kernel_details_summary");
	c_pct = frame_col(f, "Percentage (%)");
	c_cum = frame_col(f, "Cumulative Percentage (%)");
	double cum = 0;
	for (size_t o = 0; o < ng; o++) {
		size_t gi = u[o].gi, m;
		const size_t *rows = pd_groupby_rows(g, gi, &m);
		const struct krow *k0 = &k[rows[0]];
		const char *vals[6] = { strpool_str(r->sp, r->ev[k0->ev].name),
					cat_name(k0->opcat), k0->dims, k0->types, k0->strides,
					k0->concrete };
		for (int p = 0; p < 6; p++)
			c_first[p][o] = pv_str(vals[p]);
		c_count[o] = pv_int((int64_t)m);
		for (int s = 0; s < 6; s++)
			c_stat[2 * s][o] = c_stat[2 * s + 1][o] = st[gi][s];
		c_uid[o] = pv_int(u[o].uid);
		c_det[o] = pv_take(kernel_summary(r, k, rows, m, 1));
		double pct = num(&st[gi][5]) / total * 100;
		cum += pct;
		c_pct[o] = pv_float(pct);
		c_cum[o] = pv_float(cum);
	}
	free(sums);
	free(st);
	free(u);
	free(dur);
	pd_groupby_free(g);
}

/* ---- gpu_timeline and gpu_events_averages -------------------------------------- */

/* compute_metrics of one GPU: its "Stream #" events; -1 when it has none */
static int gpu_breakdown(const struct jax_report *r, int64_t pid, struct breakdown *b)
{
	struct timeline t;
	char ps[32];
	int rc;

	snprintf(ps, sizeof(ps), "%lld", (long long)pid);
	timeline_init(&t);
	for (size_t i = 0; i < r->nev; i++) {
		const struct jev *e = &r->ev[i];
		const char *tn, *name;
		int cls;
		if (!e->gpu || !e->has_ts || !pid_is(r, e, ps))
			continue;
		tn = e->has_tid ? meta_get(r, 'T', e->pid, e->tid) : NULL;
		if (!tn || strncmp(tn, "Stream #", 8))
			continue;
		name = strpool_str(r->sp, e->name);
		if (starts_ci(name, "copy") || starts_ci(name, "memcpy") || starts_ci(name, "memset"))
			cls = GPU_MEMCPY;
		else if (coll_name_match(name, strlen(name)))
			cls = GPU_COMMUNICATION;
		else
			cls = GPU_COMPUTATION;
		/* t_end = ts + dur, in Python's int or float arithmetic */
		double end = e->ts.k == PV_INT && e->dur.k == PV_INT ? (double)(e->ts.i + e->dur.i)
			: num(&e->ts) + (e->has_dur ? num(&e->dur) : NAN);
		timeline_add(&t, num(&e->ts), end, cls);
	}
	rc = timeline_compute(&t, -1, b);
	timeline_release(&t);
	return rc;
}

static void breakdown_rows(struct jframe *f, const struct breakdown *b, size_t row,
			   struct pv *c_type, struct pv *c_ms, struct pv *c_pct)
{
	for (int i = 0; i < b->n; i++) {
		c_type[row + (size_t)i] = pv_str(b->type[i]);
		c_ms[row + (size_t)i] = pv_float(b->us[i] / 1e3);
		c_pct[row + (size_t)i] = pv_float(b->us[i] / b->total * 100);
	}
	(void)f;
}

static void timeline_frame(const struct jax_report *r, int averages, struct jframe *f)
{
	struct breakdown *b = xcalloc(r->ngpus + 1, sizeof(*b)), avg;
	size_t ok = 0, rows = 0;

	memset(f, 0, sizeof(*f));
	for (size_t g = 0; g < r->ngpus; g++) {
		if (gpu_breakdown(r, r->gpus[g], &b[g]) < 0) {
			tl_warn("GPU pid %lld has no events on a \"Stream #\" thread; "
				"left out of the GPU timeline", (long long)r->gpus[g]);
			b[g].n = 0;
			continue;
		}
		rows += (size_t)b[g].n;
		ok++;
	}
	if (averages) {
		/* the first GPU's values, the others added in set order, / GPUs */
		memset(&avg, 0, sizeof(avg));
		for (size_t g = 0, first = 1; g < r->ngpus; g++) {
			if (!b[g].n)
				continue;
			if (first) {
				avg = b[g];
				first = 0;
				continue;
			}
			for (int i = 0; i < avg.n; i++)
				avg.us[i] += b[g].us[i];
		}
		for (int i = 0; i < avg.n; i++) {
			avg.us[i] /= (double)ok;
			if (!strcmp(avg.type[i], "total_time"))
				avg.total = avg.us[i];
		}
		f->nr = (size_t)avg.n;
	} else {
		f->nr = rows;
	}
	struct pv *c_type = frame_col(f, "type"), *c_ms = frame_col(f, "time ms");
	struct pv *c_pct = frame_col(f, "percent");
	if (averages) {
		breakdown_rows(f, &avg, 0, c_type, c_ms, c_pct);
	} else {
		struct pv *c_pid = frame_col(f, "gpu_pid");
		size_t row = 0;
		for (size_t g = 0; g < r->ngpus; g++) {
			breakdown_rows(f, &b[g], row, c_type, c_ms, c_pct);
			for (int i = 0; i < b[g].n; i++)
				c_pid[row + (size_t)i] = pv_int(r->gpus[g]);
			row += (size_t)b[g].n;
		}
	}
	free(b);
}

/* ---- op_<category>: perf-model sheets ---------------------------------------------- */

#define NPARAM 7

struct prow {
	size_t k;		/* into the launcher rows */
	char *param[NPARAM];	/* str() of each param, in the model's order */
	double gflops, tflops, data_mb, fpb, tbs;
};

/* in floating point, as the FLOPs and bytes end up: exact below 2^53 (any
 * real tensor); Python's exact ints would overflow int64 on absurd shapes */
static double prod(const int64_t *v, size_t n)
{
	double p = 1;

	for (size_t i = 0; i < n; i++)
		p *= v[i];
	return p;
}

/* CONV.flops_func(x, w, out, bias, transposed) */
static double conv_flops(const struct dims *x, const struct dims *w, const struct dims *out,
			 int bias, int transposed)
{
	double per = 2 * prod(w->v + (w->n ? 1 : 0), w->n ? w->n - 1 : 0);
	double f = (transposed ? prod(x->v, x->n) : prod(out->v, out->n)) * per;

	return f + (bias ? prod(out->v, out->n) : 0);
}

static double conv_bytes(const struct dims *x, const struct dims *w, const struct dims *out,
			 int bias, int64_t bpe)
{
	return (prod(x->v, x->n) + prod(w->v, w->n) +
		(double)(bias && out->n > 1 ? out->v[1] : 0) + prod(out->v, out->n)) * (double)bpe;
}

/* CONV.t: the first two dims swapped */
static struct dims swap01(const struct dims *d, int64_t *buf)
{
	struct dims t = { buf, d->n };

	tl_memcpy(buf, d->v, d->n * sizeof(*buf));
	if (d->n >= 2) {
		buf[0] = d->v[1];
		buf[1] = d->v[0];
	}
	return t;
}

static int64_t jax_bpe(const char *t)
{
	static const struct { const char *t; int b; } m[] = {
		{ "f32", 4 }, { "f16", 2 }, { "bf16", 2 }, { "f8", 1 }, { "fp8", 1 },
	};
	char low[16];
	size_t i;

	for (i = 0; t[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	low[i] = 0;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(low, m[i].t))
			return m[i].b;
	return -1;
}

static char *tuple_of(const struct dims *d)
{
	struct pystr ps = { 0 };
	char b[24];

	pystr_addc(&ps, '(');
	for (size_t i = 0; i < d->n; i++) {
		if (i)
			pystr_adds(&ps, ", ");
		snprintf(b, sizeof(b), "%lld", (long long)d->v[i]);
		pystr_adds(&ps, b);
	}
	if (d->n == 1)
		pystr_addc(&ps, ',');
	pystr_addc(&ps, ')');
	return ps.buf;
}

/* jax_conv's param_details, FLOPs and bytes; -1 where TraceLens raises */
static int conv_row(const struct jax_report *r, const struct krow *k, struct prow *p)
{
	const struct jev *e = &r->ev[k->ev];
	int bwd = k->model == M_CONV_BWD;
	struct dims x, w, out, fil;
	int64_t bpe;
	double fl, by = -1;
	int bias;
	static const char *const nd[] = { "conv1d", "conv2d", "conv3d" };
	char b[32];

	if (k->bad || k->in.n < 1 || k->out.n < 1)
		return -1;
	x = k->in.dims[0];
	out = k->out.dims[0];
	fil.v = bwd ? out.v + (out.n > 2 ? 2 : out.n) : k->in.dims[1].v +
		(k->in.dims[1].n > 2 ? 2 : k->in.dims[1].n);
	fil.n = bwd ? (out.n > 2 ? out.n - 2 : 0) : (k->in.dims[1].n > 2 ? k->in.dims[1].n - 2 : 0);
	w = fil;
	bias = k->nin == 3;
	if (x.n < 3 || x.n > 5)
		return -1;	/* "Unknown convolution dimension" */
	bpe = jax_bpe(k->in.type[0]);
	if (!bwd) {
		fl = conv_flops(&x, &w, &out, bias, 0);
		if (bpe > 0)
			by = conv_bytes(&x, &w, &out, bias, bpe);
	} else {
		int64_t b1[16], b2[16], b3[16];
		if (x.n > 16 || out.n > 16 || w.n > 16)
			return -1;
		struct dims tx = swap01(&x, b1), to = swap01(&out, b2), tw = swap01(&w, b3);
		fl = conv_flops(&out, &w, &x, 0, 1) + conv_flops(&tx, &to, &tw, 0, 0) +
			(bias ? prod(out.v, out.n) : 0);
		if (bpe > 0)
			by = conv_bytes(&out, &w, &x, 0, bpe) + conv_bytes(&out, &x, &w, 0, bpe) +
				(bias ? prod(out.v, out.n) + (out.n > 1 ? out.v[1] : 0) : 0);
	}
	p->param[0] = xstrdup(nd[x.n - 3]);
	p->param[1] = tuple_of(&x);
	p->param[2] = tuple_of(&fil);
	p->param[3] = tuple_of(&out);
	p->param[4] = xstrdup(bias ? "True" : "False");
	if (bpe > 0)
		snprintf(b, sizeof(b), "%lld", (long long)bpe);
	p->param[5] = xstrdup(bpe > 0 ? b : "None");
	p->param[6] = xstrdup("False");
	double kt = num(&e->dur);
	p->gflops = fl / 1e9;
	p->tflops = kt > 0 ? (p->gflops / 1e3) / (kt / 1e6) : NAN;
	if (by >= 0) {
		p->data_mb = by / (1024 * 1024);
		p->fpb = by > 0 ? (p->gflops * 1e9) / by : NAN;
		p->tbs = kt > 0 ? (by / 1e12) / (kt / 1e6) : NAN;
	} else {
		p->data_mb = p->fpb = p->tbs = NAN;
	}
	return 0;
}

static const char *const conv_params[NPARAM] = {
	"param: convNd", "param: input_shape", "param: filter_shape", "param: output_shape",
	"param: bias", "param: bytes_per_element", "param: transposed_conv",
};

/* Kernel Time sum descending, then UID_first */
static int cmp_ugrp_p(const void *a, const void *b)
{
	return cmp_ugrp(a, b);
}

/* a float column's group stats: mean, median, std, min, max */
static void float_stats(const double *all, const size_t *rows, size_t n, struct pv out[5])
{
	double *x = xmalloc(st_mult(n + 1, sizeof(*x)));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (all[rows[i]] == all[rows[i]])	/* pandas skips NaN */
			x[m++] = all[rows[i]];
	out[0] = pv_float(m ? pd_group_mean(x, m) : NAN);
	out[2] = pv_float(pd_group_std(x, m, 1));
	out[3] = pv_float(m ? np_min(x, m) : NAN);
	out[4] = pv_float(m ? np_max(x, m) : NAN);
	out[1] = pv_float(m ? np_median(x, m) : NAN);
	free(x);
}

/* summarize_df_perf_metrics over one category's modelled kernels */
static int op_frame(const struct jax_report *r, const struct krow *k, size_t nk, int cat,
		    struct jframe *f)
{
	struct prow *p = xcalloc(nk + 1, sizeof(*p));
	size_t np = 0;
	static int warned;

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < nk; i++) {
		if (k[i].opcat != cat || k[i].model == M_REST)
			continue;
		if (k[i].model != M_CONV && k[i].model != M_CONV_BWD) {
			if (!warned++)
				tl_warn("perf model %s is not implemented; its kernels are left "
					"out of op_ sheets", model_names[k[i].model]);
			continue;
		}
		p[np].k = i;
		if (conv_row(r, &k[i], &p[np]) < 0) {
			tl_warn("%s (UID %zu): operands do not fit TraceLens's jax_conv; "
				"left out of %s", strpool_str(r->sp, r->ev[k[i].ev].name), k[i].ev,
				cats[cat].sheet);
			continue;
		}
		np++;
	}
	if (!np) {
		free(p);
		return -1;
	}
	/* groupby([name] + params), sorted by those strings */
	struct pd_groupby *g = pd_groupby_new();
	struct pv *kt = xcalloc(np + 1, sizeof(*kt));
	double *tbs = xcalloc(np + 1, sizeof(*tbs)), *tfl = xcalloc(np + 1, sizeof(*tfl));
	struct pystr key = { 0 };
	for (size_t i = 0; i < np; i++) {
		const struct jev *e = &r->ev[k[p[i].k].ev];
		pystr_reset(&key);
		pystr_adds(&key, strpool_str(r->sp, e->name));
		for (int q = 0; q < NPARAM; q++) {
			pystr_addc(&key, PD_GROUPBY_SEP);
			pystr_adds(&key, p[i].param[q]);
		}
		pd_groupby_add(g, key.buf, key.len, i);
		kt[i] = e->dur;
		tbs[i] = p[i].tbs;
		tfl[i] = p[i].tflops;
	}
	pystr_release(&key);
	int dt = col_dtype(kt, np);
	size_t ng = pd_groupby_count(g), *sorted = pd_groupby_sorted(g);
	struct ugrp *u = xcalloc(ng + 1, sizeof(*u));
	struct pv (*ks)[6] = xcalloc(ng + 1, sizeof(*ks));
	for (size_t i = 0; i < ng; i++) {
		size_t m;
		const size_t *rows = pd_groupby_rows(g, sorted[i], &m);
		group_stats(kt, rows, m, dt, ks[i]);
		u[i].gi = i;
		u[i].sum = num(&ks[i][5]);
		u[i].uid = (int64_t)k[p[rows[0]].k].ev;
	}
	tl_qsort(u, ng, sizeof(*u), cmp_ugrp_p);
	f->nr = ng;
	struct pv *c_name = frame_col(f, "name"), *c_param[NPARAM];
	for (int q = 0; q < NPARAM; q++)
		c_param[q] = frame_col(f, conv_params[q]);
	struct pv *c_gf = frame_col(f, "GFLOPS_first"), *c_dm = frame_col(f, "Data Moved (MB)_first");
	struct pv *c_fb = frame_col(f, "FLOPS/Byte_first"), *c_tb[5], *c_tf[5], *c_ks[6];
	static const char *const agg[] = { "mean", "median", "std", "min", "max", "sum" };
	char nm[64];
	for (int a = 0; a < 5; a++) {
		snprintf(nm, sizeof(nm), "TB/s_%s", agg[a]);
		c_tb[a] = frame_col(f, nm);
	}
	for (int a = 0; a < 5; a++) {
		snprintf(nm, sizeof(nm), "TFLOPS/s_%s", agg[a]);
		c_tf[a] = frame_col(f, nm);
	}
	struct pv *c_pn = frame_col(f, "process_name_first");
	struct pv *c_pl = frame_col(f, "process_label_first");
	struct pv *c_tn = frame_col(f, "thread_name_first");
	struct pv *c_kd = frame_col(f, "kernel_details__summarize_kernel_stats");
	struct pv *c_id = frame_col(f, "Input Dims_first"), *c_it = frame_col(f, "Input type_first");
	for (int a = 0; a < 6; a++) {
		snprintf(nm, sizeof(nm), "Kernel Time (\u00b5s)_%s", agg[a]);
		c_ks[a] = frame_col(f, nm);
	}
	struct pv *c_cnt = frame_col(f, "name_count"), *c_uid = frame_col(f, "UID_first");
	for (size_t o = 0; o < ng; o++) {
		size_t gi = sorted[u[o].gi], m;
		const size_t *rows = pd_groupby_rows(g, gi, &m);
		const struct prow *p0 = &p[rows[0]];
		const struct krow *k0 = &k[p0->k];
		const struct jev *e0 = &r->ev[k0->ev];
		const char *tn = e0->has_tid ? meta_get(r, 'T', e0->pid, e0->tid) : NULL;
		struct pv tb[5], tf[5];
		c_name[o] = pv_str(strpool_str(r->sp, e0->name));
		for (int q = 0; q < NPARAM; q++)
			c_param[q][o] = pv_str(p0->param[q]);
		c_gf[o] = pv_float(p0->gflops);
		c_dm[o] = pv_float(p0->data_mb);
		c_fb[o] = pv_float(p0->fpb);
		float_stats(tbs, rows, m, tb);
		float_stats(tfl, rows, m, tf);
		for (int a = 0; a < 5; a++) {
			c_tb[a][o] = tb[a];
			c_tf[a][o] = tf[a];
		}
		c_pn[o] = pv_str("Unknown");
		c_pl[o] = pv_str("Unknown");
		c_tn[o] = pv_str(tn ? tn : "Unknown");
		size_t *kr = xmalloc(st_mult(m + 1, sizeof(*kr)));
		for (size_t i = 0; i < m; i++)
			kr[i] = p[rows[i]].k;
		c_kd[o] = pv_take(kernel_summary(r, k, kr, m, 0));
		free(kr);
		c_id[o] = pv_str(k0->dims);
		c_it[o] = pv_str(k0->types);
		for (int a = 0; a < 6; a++)
			c_ks[a][o] = ks[u[o].gi][a];
		c_cnt[o] = pv_int((int64_t)m);
		c_uid[o] = pv_int(u[o].uid);
	}
	for (size_t i = 0; i < np; i++)
		for (int q = 0; q < NPARAM; q++)
			free(p[i].param[q]);
	free(p);
	free(kt);
	free(tbs);
	free(tfl);
	free(u);
	free(ks);
	free(sorted);
	pd_groupby_free(g);
	return 0;
}

/* ---- the report ------------------------------------------------------------------- */

struct jax_report *jax_report_read(const char *path, const struct jax_opts *o)
{
	struct stream *s = stream_open(path, "events,nodes");
	struct jax_report *r;

	if (!s)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->o = *o;
	r->sp = strpool_new();
	r->mkeys = strpool_new();
	if (read_stream(r, s) < 0) {
		stream_close(s);
		jax_report_free(r);
		return NULL;
	}
	stream_close(s);
	analyse(r);
	return r;
}

void jax_report_free(struct jax_report *r)
{
	if (!r)
		return;
	strpool_free(r->sp);
	strpool_free(r->mkeys);
	for (size_t i = 0; i < r->nmval; i++)
		free(r->mval[i]);
	free(r->mval);
	for (size_t i = 0; i < r->nmod; i++) {
		free(r->mod[i].text);
		jax_hlo_free(r->mod[i].hlo);
	}
	free(r->mod);
	free(r->ev);
	free(r->gpus);
	free(r->sheets);
	free(r);
}

static const char *const base_sheets[] = {
	"gpu_timeline", "gpu_events_averages", "kernel_launchers", "kernel_launchers_summary",
	"kernel_launchers_summary_by_category", "kernel_launchers_unique_args", "df_xla_perf",
	"xla_summary", NULL,
};

/* The op_ sheets TraceLens writes: categories with a modelled kernel. */
static void list_sheets(struct jax_report *r)
{
	struct krow *k;
	size_t nk = launchers(r, -1, &k), n = 0;

	r->sheets = xcalloc(sizeof(base_sheets) / sizeof(base_sheets[0]) + NCATS + 1,
			    sizeof(*r->sheets));
	for (int i = 0; base_sheets[i]; i++)
		r->sheets[n++] = base_sheets[i];
	for (int c = 0; c < NCATS; c++) {
		struct jframe f;
		if (op_frame(r, k, nk, c, &f) == 0)
			r->sheets[n++] = cats[c].sheet;
		frame_release(&f);
	}
	r->nsheets = n;
	krows_release(k, nk);
}

const char *jax_report_sheet(struct jax_report *r, size_t i)
{
	if (!r->sheets)
		list_sheets(r);
	return i < r->nsheets ? r->sheets[i] : NULL;
}

/* "".join(c for c in name if not c.isdigit()) */
static char *no_digits(const char *s)
{
	char *o = xmalloc(strlen(s) + 1), *w = o;

	for (; *s; s++)
		if (*s < '0' || *s > '9')
			*w++ = *s;
	*w = 0;
	return o;
}

int jax_report_write(struct jax_report *r, const char *sheet, struct sheet *sh)
{
	struct jframe f;
	struct krow *k = NULL;
	size_t nk = 0;
	int rc = 0;

	memset(&f, 0, sizeof(f));
	if (!strcmp(sheet, "gpu_timeline") || !strcmp(sheet, "gpu_events_averages")) {
		timeline_frame(r, sheet[4] == 'e', &f);
	} else if (!strcmp(sheet, "df_xla_perf") || !strcmp(sheet, "xla_summary")) {
		nk = launchers(r, CAT_XLA, &k);
		if (sheet[0] == 'd') {
			launchers_frame(r, k, nk, 1, &f);
		} else {
			char **names = xcalloc(nk + 1, sizeof(*names));
			for (size_t i = 0; i < nk; i++)
				names[i] = no_digits(strpool_str(r->sp, r->ev[k[i].ev].name));
			summary_frame(r, k, nk, names, 0, &f);
			for (size_t i = 0; i < nk; i++)
				free(names[i]);
			free(names);
		}
	} else {
		nk = launchers(r, -1, &k);
		if (!strcmp(sheet, "kernel_launchers")) {
			launchers_frame(r, k, nk, 0, &f);
		} else if (!strcmp(sheet, "kernel_launchers_summary")) {
			char **names = xcalloc(nk + 1, sizeof(*names));
			for (size_t i = 0; i < nk; i++)
				names[i] = (char *)strpool_str(r->sp, r->ev[k[i].ev].name);
			summary_frame(r, k, nk, names, 0, &f);
			free(names);
		} else if (!strcmp(sheet, "kernel_launchers_summary_by_category")) {
			summary_frame(r, k, nk, NULL, 1, &f);
		} else if (!strcmp(sheet, "kernel_launchers_unique_args")) {
			unique_args_frame(r, k, nk, &f);
		} else {
			rc = -1;
			for (int c = 0; c < NCATS && rc < 0; c++)
				if (!strcmp(sheet, cats[c].sheet))
					rc = op_frame(r, k, nk, c, &f);
		}
	}
	if (rc == 0)
		frame_write(&f, sh);
	frame_release(&f);
	krows_release(k, nk);
	return rc;
}
