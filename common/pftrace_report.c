#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json_value.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "pftrace_report.h"
#include "py_repr.h"
#include "py_stat.h"
#include "py_tabulate.h"
#include "py_unicode.h"
#include "stream.h"
#include "strpool.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

enum { REP_ACT, REP_API, REP_MEM, NREP };

/* classify() categories, in GPUStats / per_cat order */
enum { C_XLA, C_AITERFWD, C_AITERBWD, C_GEMM, C_CKBWD, C_CKFWD, C_TE, C_MEMCPY,
       C_FILL, C_RCCL, NCAT };

static const char *const cat_label[NCAT] = {
	"xla", "aiterfwd", "aiterbwd", "gemm", "ckbwd", "ckfwd", "te", "memcpy/memset",
	"fillBuffer", "rccl",
};

#define DEFAULT_EXCLUDE "(?:^|\\W)redzone_checker_kernel(?:\\W|$)"

/* A kernel of the HIP activity report (pftrace Event). */
struct kev {
	int64_t ts, dur;
	uint32_t name;
	int cat;
	int64_t cfg[7];		/* grid, workgroup, VGPR, AccumVGPR, SGPR, LDS, Scratch */
};

struct kevs {
	struct kev *v;
	size_t n, alloc;
};

/* A HIP API call of hip_summary (pftrace HIPEvent). */
struct hev {
	int64_t ts, dur;
	uint32_t name;
	int64_t stream, op;	/* `or 0` applied */
};

/* _extract_time_ns of the API analysis: have = begin, end, delta known */
struct atime {
	int have, err;
	int64_t b, en, d;
	const char *what;
};

struct akern {
	int64_t corr;
	size_t seq;
	long line;
	struct atime t;
	uint32_t kname;
	int dev_kind;		/* 0 none, 1 dev below, 2 agent key below */
	int64_t dev;
	uint32_t agent;
};

struct aapi {
	int64_t corr;
	size_t seq;
	long line;
	uint32_t name;
	int launch;
	struct atime t;
	int pid_err, tid_err;
	int64_t pid, tid;
};

struct mrow {
	int64_t bytes;
	char *dir;
};

struct pftrace_report {
	struct pftrace_opts o;
	int failed[NREP];
	struct strpool *sp;	/* names */
	struct strpool *akeys;	/* agent keys, id -> index in aidx */
	uint32_t *aidx;
	size_t aidx_alloc;
	char **agents;		/* str(agent) in first-seen order */
	size_t nagents, agents_alloc, gpu_alloc;

	/* HIP activity */
	uint64_t act_dur_sum;		/* of the durations kept: all its sums fit */
	struct kevs *comp, *comm;	/* per GPU */
	uint32_t *xkey;			/* xla_agg in insertion order */
	int64_t *xns, *xcnt;
	size_t nx, xalloc;
	uint32_t *xidx;			/* name id -> xla_agg index + 1 */
	size_t xidx_alloc;
	int used_fav3;
	struct hev *hip;
	size_t nhip, hip_alloc;

	/* HIP API */
	struct akern *ak;
	size_t nak, ak_alloc;
	struct aapi *aa;
	size_t naa, aa_alloc;
	regex_t re;
	int have_re, default_re;

	/* memory copies */
	struct mrow *mr;
	size_t nmr, mr_alloc;

	const char **sheets;
	size_t nsheets;
	struct tab *cached;
	char **cached_name;
};

/* xgrow, the new part zeroed */
static void zgrow(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t old = *alloc;

	xgrow(p, alloc, need, size);
	if (*alloc > old)
		memset((char *)*p + old * size, 0, (*alloc - old) * size);
}

void pftrace_opts_default(struct pftrace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_tid = -1000000000;
	o->max_tid = 1000000000;
	o->min_event_ns = 5000;
	o->kernel_summary = 1;
	o->hip_summary = 1;
	o->top_xla = 30;
	o->kernel_top = 200;
	o->hip_top = 200;
	o->exclude_re = DEFAULT_EXCLUDE;
}

/* ---------------------------------------------------------------------- */
/* Python values                                                           */

/* PYI_SUM: the values fit int64 but a difference or sum of them does not
 * (Python's ints would go on; tl-pftrace stops the report) */
enum { PYI_OK = 0, PYI_TYPE = -1, PYI_VALUE = -2, PYI_BIG = -3, PYI_SUM = -4 };

/* int(v) */
static int py_int(const struct json_value *v, int64_t *out)
{
	int rc;

	switch (v->type) {
	case JV_TRUE: *out = 1; return PYI_OK;
	case JV_FALSE: *out = 0; return PYI_OK;
	case JV_INT:
		rc = py_str_int(v->s, v->len, out);
		return rc == 0 ? PYI_OK : rc == -2 ? PYI_BIG : PYI_VALUE;
	case JV_FLOAT:
		if (isnan(v->num))
			return PYI_VALUE;
		if (!(fabs(v->num) < 9223372036854775808.0))
			return PYI_BIG;
		*out = (int64_t)trunc(v->num);
		return PYI_OK;
	case JV_STR:
		rc = py_str_int(v->s, v->len, out);
		return rc == 0 ? PYI_OK : rc == -2 ? PYI_BIG : PYI_VALUE;
	default:
		return PYI_TYPE;
	}
}

static int truthy(const struct json_value *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case JV_NULL: case JV_FALSE: return 0;
	case JV_TRUE: return 1;
	case JV_INT: case JV_FLOAT: return v->num != 0;
	case JV_STR: return v->len > 0;
	default: return v->n > 0;
	}
}

/* str(v) */
static void py_str(struct pystr *ps, const struct json_value *v)
{
	pystr_reset(ps);
	if (v->type == JV_STR)
		pystr_add(ps, v->s, v->len);
	else
		py_repr_jval(ps, v, 0);
	pystr_addc(ps, 0);
	ps->len--;
}

/* ---------------------------------------------------------------------- */
/* One event of the stream, its fields as the JSON dict holds them         */

struct ev {
	struct stream *s;
	int c_cat, c_name, c_pid, c_tid, c_ts, c_dur, c_args, c_extra;
	struct json_value *args, *extra;
	struct json_value *fv[4];	/* parsed pid, tid, ts, dur columns */
	struct json_value strv[2];	/* cat, name from their columns */
	int have[2];
};

enum { F_PID, F_TID, F_TS, F_DUR };

static void ev_clear(struct ev *e)
{
	json_value_free(e->args);
	json_value_free(e->extra);
	for (int i = 0; i < 4; i++)
		json_value_free(e->fv[i]);
	e->args = e->extra = NULL;
	memset(e->fv, 0, sizeof(e->fv));
}

static void ev_load(struct ev *e)
{
	const char *a = stream_field(e->s, e->c_args), *x = stream_field(e->s, e->c_extra);
	const int cols[2] = { e->c_cat, e->c_name };

	ev_clear(e);
	if (*a)
		e->args = json_value_parse(a, strlen(a));
	if (e->args && e->args->type != JV_OBJ) {
		json_value_free(e->args);
		e->args = NULL;
	}
	if (*x)
		e->extra = json_value_parse(x, strlen(x));
	for (int i = 0; i < 2; i++) {
		const char *f = stream_field(e->s, cols[i]);
		memset(&e->strv[i], 0, sizeof(e->strv[i]));
		e->strv[i].type = JV_STR;
		e->strv[i].s = (char *)f;
		e->strv[i].len = stream_field_len(e->s, cols[i]);
		e->have[i] = *f != 0;
	}
}

static const struct json_value *arg(const struct ev *e, const char *key)
{
	return e->args ? json_value_get(e->args, key) : NULL;
}

/* top-level field: cat, name, pid, tid, ts, dur; NULL if absent */
static const struct json_value *field(struct ev *e, const char *key)
{
	static const char *const numk[4] = { "pid", "tid", "ts", "dur" };
	const int numc[4] = { e->c_pid, e->c_tid, e->c_ts, e->c_dur };

	if (!strcmp(key, "cat") && e->have[0])
		return &e->strv[0];
	if (!strcmp(key, "name") && e->have[1])
		return &e->strv[1];
	for (int i = 0; i < 4; i++) {
		if (strcmp(key, numk[i]))
			continue;
		if (!e->fv[i]) {
			const char *t = stream_field(e->s, numc[i]);
			if (*t)
				e->fv[i] = json_value_parse(t, strlen(t));
		}
		if (e->fv[i])
			return e->fv[i];
	}
	return e->extra ? json_value_get(e->extra, key) : NULL;
}

/* (ev.get(key) or "") as a str; non-str truthy values as str() */
static void str_or_empty(struct ev *e, const char *key, struct pystr *ps)
{
	const struct json_value *v = field(e, key);

	pystr_reset(ps);
	if (truthy(v)) {
		py_str(ps, v);
	} else {
		pystr_addc(ps, 0);
		ps->len = 0;
	}
}

/* What is wrong with a value py_int() or a sum refused, for messages. */
static const char *py_fail_why(int rc)
{
	return rc == PYI_TYPE ? "is no number, where TraceLens's int() stops" :
	       rc == PYI_BIG ? "is out of range, where TraceLens's int() stops" :
	       rc == PYI_SUM ? "is beyond 64-bit integers" :
	       "is no integer, where TraceLens's int() stops";
}

static int report_fail(struct pftrace_report *r, int rep, struct ev *e, const char *what, int rc)
{
	static const char *const names[NREP] = {
		"HIP activity", "HIP API", "memory copy"
	};

	if (!r->failed[rep])
		tl_warn("%s:%ld: %s report: %s %s; no %s sheets", stream_name(e->s),
			stream_lineno(e->s), names[rep], what, py_fail_why(rc), names[rep]);
	r->failed[rep] = 1;
	return -1;
}

/* ---------------------------------------------------------------------- */
/* Name rules                                                              */

static int any_ci(const char *s, const char *const *pats)
{
	for (; *pats; pats++)
		if (py_search_ci(s, *pats))
			return 1;
	return 0;
}

static int classify(const char *name)
{
	static const char *const rccl[] = { "rccl", "nccl", "cross_device_reduce", NULL };
	static const char *const gemm[] = { "cublaslt", "cijk", "gemm", "nvjet", NULL };
	static const char *const ckbwd[] = { "fmhabwd", "kernel_func", "flash_bprop", NULL };
	static const char *const ckfwd[] = { "fmhafwd", "flash_fprop", NULL };
	static const char *const mem[] = { "copy", "memcpy", "memset", NULL };
	static const char *const te[] = { "transformer_engine", NULL };
	static const char *const afwd[] = { "aiter::fmha_fwd", NULL };
	static const char *const abwd[] = { "aiter::fmha_bwd", NULL };
	static const char *const fill[] = { "fillbuffer", NULL };

	if (any_ci(name, rccl)) return C_RCCL;
	if (any_ci(name, gemm)) return C_GEMM;
	if (any_ci(name, ckbwd)) return C_CKBWD;
	if (any_ci(name, ckfwd)) return C_CKFWD;
	if (any_ci(name, mem)) return C_MEMCPY;
	if (any_ci(name, te)) return C_TE;
	if (any_ci(name, afwd)) return C_AITERFWD;
	if (any_ci(name, abwd)) return C_AITERBWD;
	if (any_ci(name, fill)) return C_FILL;
	return C_XLA;
}

/* re.search(r"(?:Launch).*Kernel", s, re.I): "." stops at a newline */
static int launch_regex(const char *s)
{
	for (const char *p = s; *p; p++) {
		size_t m = py_match_ci(p, "launch");
		const char *q;
		if (!m)
			continue;
		for (q = p + m; *q && *q != '\n'; q++)
			if (py_match_ci(q, "kernel"))
				return 1;
	}
	return 0;
}

static int is_launch_name(const char *name)
{
	static const char *const launch[] = {
		"hipModuleLaunchKernel", "hipLaunchKernelGGL", "hipLaunchKernel",
		"hipExtLaunchKernelGGL", "hipModuleLaunchCooperativeKernel",
		"hipExtModuleLaunchKernel", "hipMemset", "hipMemcpyHtoDAsync",
		"hipMemcpyDtoHAsync", "hipMemsetD32Async", NULL
	};

	for (int i = 0; launch[i]; i++)
		if (!strcmp(name, launch[i]))
			return 1;
	return launch_regex(name);
}

/* \W at the code point ending (before) or starting (after) byte offset */
static int nonword_before(const char *s, size_t at)
{
	size_t b = at;
	uint32_t cp;

	while (b > 0 && ((unsigned char)s[b - 1] & 0xc0) == 0x80)
		b--;
	if (b > 0)
		b--;
	py_utf8_next(s + b, &cp);
	return !py_re_word(cp);
}

/* re.search(DEFAULT_EXCLUDE, s) */
static int default_exclude(const char *s)
{
	static const char lit[] = "redzone_checker_kernel";
	const char *p = s;

	while ((p = strstr(p, lit))) {
		size_t at = (size_t)(p - s), end = at + sizeof(lit) - 1;
		uint32_t cp;
		int pre = at == 0 || nonword_before(s, at);
		int post = !s[end] || (py_utf8_next(s + end, &cp), !py_re_word(cp));
		if (pre && post)
			return 1;
		p++;
	}
	return 0;
}

/* Python regex -> POSIX ERE, for the constructs both have */
static char *translate_re(const char *re, const char **bad)
{
	size_t n = strlen(re);
	char *o = xmalloc(4 * n + 32), *w = o;
	int inbr = 0;

	*bad = NULL;
	for (const char *p = re; *p; p++) {
		if (*p == '\\') {
			char c = p[1];
			const char *cls = NULL;
			switch (c) {
			case 'd': cls = inbr ? "0-9" : "[0-9]"; break;
			case 'D': cls = inbr ? NULL : "[^0-9]"; break;
			case 'w': cls = inbr ? "[:alnum:]_" : "[[:alnum:]_]"; break;
			case 'W': cls = inbr ? NULL : "[^[:alnum:]_]"; break;
			case 's': cls = inbr ? "[:space:]" : "[[:space:]]"; break;
			case 'S': cls = inbr ? NULL : "[^[:space:]]"; break;
			default: break;
			}
			if (cls) {
				size_t k = strlen(cls);
				tl_memcpy(w, cls, k);
				w += k;
				p++;
				continue;
			}
			if (!c || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z') || inbr) {
				*bad = p;
				break;
			}
			*w++ = '\\';
			*w++ = c;
			p++;
			continue;
		}
		if (inbr) {
			if (*p == ']' && !(inbr == 1))
				inbr = 0;
			else
				inbr++;
			*w++ = *p;
			continue;
		}
		if (*p == '[') {
			inbr = 1;
			*w++ = *p;
			if (p[1] == '^') {
				*w++ = *++p;
			}
			continue;
		}
		if (*p == '(' && p[1] == '?') {
			if (p[2] == ':') {
				*w++ = '(';
				p += 2;
				continue;
			}
			*bad = p;
			break;
		}
		if ((*p == '*' || *p == '+' || *p == '?' || *p == '}') && p[1] == '?') {
			*bad = p;
			break;
		}
		*w++ = *p;
	}
	*w = 0;
	if (inbr && !*bad)
		*bad = re + n;
	return o;
}

int pftrace_check_regex(const char *re)
{
	const char *bad;
	char *ere;
	regex_t rx;
	int rc;

	if (!re || !*re || !strcmp(re, DEFAULT_EXCLUDE))
		return 0;
	ere = translate_re(re, &bad);
	if (bad) {
		tl_warn("--exclude_kernel_regex: '%s' at '%s' is Python syntax tl does not run "
			"(it runs (?:...), \\d \\w \\s and their negations, and POSIX ERE)", re, bad);
		free(ere);
		return -1;
	}
	rc = regcomp(&rx, ere, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[200];
		regerror(rc, &rx, msg, sizeof(msg));
		tl_warn("--exclude_kernel_regex: '%s': %s", re, msg);
		free(ere);
		return -1;
	}
	regfree(&rx);
	free(ere);
	return 0;
}

static int excluded(struct pftrace_report *r, const char *kname)
{
	if (r->default_re)
		return default_exclude(kname);
	if (r->have_re)
		return regexec(&r->re, kname, 0, NULL, 0) == 0;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Agents (first-seen order of truthy args.agent, as discover_gpus)        */

/* index of the agent, adding it; -1 (and *err) if it is unhashable */
static long agent_index(struct pftrace_report *r, const struct json_value *v, uint32_t *keyid)
{
	struct pystr key = { 0 }, disp = { 0 };
	uint32_t id;
	int64_t iv;

	if (v->type == JV_ARR || v->type == JV_OBJ)
		return -1;
	/* dict keys: 1, 1.0 and True are one key; "1" another */
	if (v->type == JV_STR) {
		pystr_addc(&key, 's');
		pystr_add(&key, v->s, v->len);
	} else if ((v->type == JV_INT || v->type == JV_TRUE ||
		    (v->type == JV_FLOAT && v->num == trunc(v->num))) && py_int(v, &iv) == 0) {
		char b[32];
		snprintf(b, sizeof(b), "i%" PRId64, iv);
		pystr_adds(&key, b);
	} else {
		pystr_addc(&key, 'f');
		pystr_add(&key, v->s, v->len);
	}
	id = strpool_intern(r->akeys, key.buf, key.len);
	pystr_release(&key);
	*keyid = id;
	zgrow((void **)&r->aidx, &r->aidx_alloc, (size_t)id + 1, sizeof(*r->aidx));
	if (!r->aidx[id]) {
		py_str(&disp, v);
		xgrow((void **)&r->agents, &r->agents_alloc, r->nagents + 1, sizeof(*r->agents));
		r->agents[r->nagents++] = xstrdup(disp.buf);
		pystr_release(&disp);
		if (r->nagents > r->gpu_alloc) {
			size_t old = r->gpu_alloc;
			r->gpu_alloc = 2 * r->nagents;
			r->comp = xrealloc(r->comp, r->gpu_alloc * sizeof(*r->comp));
			r->comm = xrealloc(r->comm, r->gpu_alloc * sizeof(*r->comm));
			memset(r->comp + old, 0, (r->gpu_alloc - old) * sizeof(*r->comp));
			memset(r->comm + old, 0, (r->gpu_alloc - old) * sizeof(*r->comm));
		}
		r->aidx[id] = (uint32_t)r->nagents;
	}
	return (long)r->aidx[id] - 1;
}

/* ---------------------------------------------------------------------- */
/* HIP activity                                                            */

/*
 * The overlap sweep takes ts + dur of every event, and the sheets add up
 * durations (per category, kernel, API; overlaps are parts of them): with
 * ts + dur and the sum of all kept (positive) durations within int64,
 * every one of those fits.
 */
static int act_end_fits(struct pftrace_report *r, struct ev *e, int64_t ts, int64_t dur)
{
	int64_t end;

	if (__builtin_add_overflow(ts, dur, &end))
		return report_fail(r, REP_ACT, e, "ts + dur", PYI_SUM);
	if (dur > 0 && (__builtin_add_overflow(r->act_dur_sum, (uint64_t)dur, &r->act_dur_sum) ||
			r->act_dur_sum > (uint64_t)INT64_MAX))
		return report_fail(r, REP_ACT, e, "the sum of the durations", PYI_SUM);
	return 0;
}

/* pftrace_hip_activity_analysis.extract_time_ns; <0: failed */
static int act_time(struct pftrace_report *r, struct ev *e, int64_t *ts, int64_t *dur)
{
	const struct json_value *b = arg(e, "begin_ns"), *d = arg(e, "delta_ns");
	const struct json_value *t, *u;
	struct json_value zero = { .type = JV_INT, .s = (char *)"0", .len = 1 };
	int rc;

	if (b && d) {
		if ((rc = py_int(b, ts)) < 0)
			return report_fail(r, REP_ACT, e, "args.begin_ns", rc);
		if ((rc = py_int(d, dur)) < 0)
			return report_fail(r, REP_ACT, e, "args.delta_ns", rc);
		return act_end_fits(r, e, *ts, *dur);
	}
	t = field(e, "ts");
	u = field(e, "dur");
	if ((rc = py_int(t ? t : &zero, ts)) < 0)
		return report_fail(r, REP_ACT, e, "ts", rc);
	if ((rc = py_int(u ? u : &zero, dur)) < 0)
		return report_fail(r, REP_ACT, e, "dur", rc);
	if (*ts < 10000000000LL) {
		if (__builtin_mul_overflow(*ts, 1000, ts) || __builtin_mul_overflow(*dur, 1000, dur))
			return report_fail(r, REP_ACT, e, "ts", PYI_BIG);
	}
	return act_end_fits(r, e, *ts, *dur);
}

static int64_t safe_int(const struct json_value *v)
{
	int64_t x;

	return v && py_int(v, &x) == 0 ? x : 0;	/* _nz(_safe_int(v)) */
}

static void act_kernel(struct pftrace_report *r, struct ev *e, long gi)
{
	static const char *const cfgk[7] = {
		"grid_size", "workgroup_size", "VGPR_Count", "Accum_VGPR_Count",
		"SGPR_Count", "LDS_Block_Size", "Scratch_Size"
	};
	struct json_value m1 = { .type = JV_INT, .s = (char *)"-1", .len = 2 };
	const struct json_value *tv;
	struct pystr nm = { 0 };
	struct kev k;
	struct kevs *list;
	int64_t tid;
	int rc;

	if (act_time(r, e, &k.ts, &k.dur) < 0 || k.dur <= 0)
		return;
	tv = field(e, "tid");
	if ((rc = py_int(tv ? tv : &m1, &tid)) < 0) {
		report_fail(r, REP_ACT, e, "tid", rc);
		return;
	}
	if (tid < r->o.min_tid || tid > r->o.max_tid)
		return;
	tv = field(e, "name");
	if (tv) {
		py_str(&nm, tv);
	} else {
		pystr_addc(&nm, 0);
		nm.len = 0;
	}
	k.name = strpool_intern(r->sp, nm.buf, nm.len);
	k.cat = classify(nm.buf);
	for (int i = 0; i < 7; i++)
		k.cfg[i] = safe_int(arg(e, cfgk[i]));
	list = k.cat == C_RCCL ? &r->comm[gi] : &r->comp[gi];
	xgrow((void **)&list->v, &list->alloc, list->n + 1, sizeof(*list->v));
	list->v[list->n++] = k;
	if (k.cat != C_RCCL) {
		if (k.cat == C_CKBWD && strstr(nm.buf, "kernel_func"))
			r->used_fav3 = 1;
		if (k.cat == C_XLA) {
			uint32_t key = k.name;
			if (r->o.merge_kernels) {
				char *m = py_re_sub_digits(nm.buf);
				key = strpool_intern(r->sp, m, strlen(m));
				free(m);
			}
			zgrow((void **)&r->xidx, &r->xidx_alloc, (size_t)key + 1, sizeof(*r->xidx));
			if (!r->xidx[key]) {
				xgrow((void **)&r->xkey, &r->xalloc, r->nx + 1, sizeof(*r->xkey));
				r->xns = xrealloc(r->xns, r->xalloc * sizeof(*r->xns));
				r->xcnt = xrealloc(r->xcnt, r->xalloc * sizeof(*r->xcnt));
				r->xkey[r->nx] = key;
				r->xns[r->nx] = r->xcnt[r->nx] = 0;
				r->xidx[key] = (uint32_t)++r->nx;
			}
			r->xns[r->xidx[key] - 1] += k.dur;
			r->xcnt[r->xidx[key] - 1]++;
		}
	}
	pystr_release(&nm);
}

static void act_hip(struct pftrace_report *r, struct ev *e)
{
	struct json_value m1 = { .type = JV_INT, .s = (char *)"-1", .len = 2 };
	const struct json_value *tv, *at;
	struct pystr nm = { 0 };
	struct hev h;
	int64_t tid, pid;
	int rc;

	if (act_time(r, e, &h.ts, &h.dur) < 0 || h.dur <= 0)
		return;
	tv = field(e, "tid");
	at = arg(e, "tid");
	if ((rc = py_int(tv ? tv : at ? at : &m1, &tid)) < 0) {
		report_fail(r, REP_ACT, e, "tid", rc);
		return;
	}
	if (tid < r->o.min_tid || tid > r->o.max_tid)
		return;
	tv = field(e, "pid");
	if ((rc = py_int(tv ? tv : &m1, &pid)) < 0) {
		report_fail(r, REP_ACT, e, "pid", rc);
		return;
	}
	tv = field(e, "name");
	if (tv) {
		py_str(&nm, tv);
	} else {
		pystr_addc(&nm, 0);
		nm.len = 0;
	}
	h.name = strpool_intern(r->sp, nm.buf, nm.len);
	h.stream = safe_int(arg(e, "stream_ID"));
	h.op = safe_int(arg(e, "operation"));
	xgrow((void **)&r->hip, &r->hip_alloc, r->nhip + 1, sizeof(*r->hip));
	r->hip[r->nhip++] = h;
	pystr_release(&nm);
}

/* ---------------------------------------------------------------------- */
/* HIP API                                                                 */

/* pftrace_hip_api_analysis._extract_time_ns */
static void api_time(struct ev *e, struct atime *t)
{
	const struct json_value *b = arg(e, "begin_ns"), *en = arg(e, "end_ns");
	const struct json_value *d = arg(e, "delta_ns");
	int64_t bi, ei, di;
	int rc;

	memset(t, 0, sizeof(*t));
	if (b && b->type == JV_NULL) b = NULL;
	if (en && en->type == JV_NULL) en = NULL;
	if (d && d->type == JV_NULL) d = NULL;
	if (b && en && !d) {
		if ((rc = py_int(en, &ei)) < 0 || (rc = py_int(b, &bi)) < 0) {
			t->err = rc;
			t->what = "args.begin_ns/end_ns";
			return;
		}
		if (__builtin_sub_overflow(ei, bi, &t->d)) {
			t->err = PYI_SUM;
			t->what = "args.end_ns - begin_ns";
			return;
		}
		t->have = 1;
		t->b = bi;
		t->en = ei;
		return;
	}
	if (!b || !en || !d) {
		const struct json_value *ts = field(e, "ts"), *dur = field(e, "dur");
		if (ts && ts->type == JV_NULL) ts = NULL;
		if (dur && dur->type == JV_NULL) dur = NULL;
		if (!ts || !dur)
			return;
		if ((rc = py_int(ts, &bi)) < 0 || (rc = py_int(dur, &di)) < 0) {
			t->err = rc;
			t->what = "ts/dur";
			return;
		}
		if (__builtin_mul_overflow(bi, 1000, &t->b) ||
		    __builtin_mul_overflow(di, 1000, &t->d)) {
			t->err = PYI_BIG;
			t->what = "ts/dur";
			return;
		}
		if (__builtin_add_overflow(t->b, t->d, &t->en)) {
			t->err = PYI_SUM;
			t->what = "ts + dur";
			return;
		}
		t->have = 1;
		return;
	}
	if ((rc = py_int(b, &t->b)) < 0 || (rc = py_int(en, &t->en)) < 0 ||
	    (rc = py_int(d, &t->d)) < 0) {
		t->err = rc;
		t->what = "args.begin_ns/end_ns/delta_ns";
		return;
	}
	t->have = 1;
}

/* first of keys in args that optional_int() turns into an int */
static int first_int(struct ev *e, const char *const *keys, int64_t *out, int *big)
{
	for (; *keys; keys++) {
		const struct json_value *v = arg(e, *keys);
		int rc;
		if (!v)
			continue;
		rc = py_int(v, out);
		if (rc == PYI_OK)
			return 1;
		if (rc == PYI_BIG)
			*big = 1;
	}
	return 0;
}

static void api_event(struct pftrace_report *r, struct ev *e, size_t seq)
{
	static const char *const corrk[] = { "corr_id", "correlation_id", "correlationId",
					     "CorrId", NULL };
	static const char *const devk[] = { "device_id", "deviceId", "dev_id", "DevId",
					    "gpu_id", "gpuId", NULL };
	static const char *const knk[] = { "kernel_name", "KernelName", "symbol",
					   "symbol_name", "funcName", NULL };
	struct pystr name = { 0 }, cat = { 0 };
	char *lname, *lcat;
	int64_t corr;
	int big = 0, kernel = 0;
	struct atime t;

	if (!first_int(e, corrk, &corr, &big)) {
		if (big)
			report_fail(r, REP_API, e, "the correlation id", PYI_BIG);
		return;
	}
	str_or_empty(e, "name", &name);
	str_or_empty(e, "cat", &cat);
	lname = py_ascii_case(name.buf, PY_LOWER);
	lcat = py_ascii_case(cat.buf, PY_LOWER);
	memset(&t, 0, sizeof(t));
	{
		size_t n = strlen(lname);
		if ((n >= 3 && !strcmp(lname + n - 3, ".kd")) || strstr(lname, ".kd ")) {
			kernel = 1;
			api_time(e, &t);
		} else if (strstr(lcat, "kernel_dispatch") || strstr(lcat, "gpu_activity") ||
			   strstr(lcat, "kernel") || strstr(lcat, "memory_copy")) {
			api_time(e, &t);
			if (t.err) {
				report_fail(r, REP_API, e, t.what, t.err);
				goto out;
			}
			kernel = t.have && t.d > 0 && !strstr(lname, "register");
		}
	}
	if (kernel) {
		struct akern k;
		struct pystr kn = { 0 };
		const struct json_value *v;
		memset(&k, 0, sizeof(k));
		for (int i = 0; knk[i]; i++)
			if (truthy(v = arg(e, knk[i]))) {
				py_str(&kn, v);
				break;
			}
		if (!kn.buf) {
			pystr_add(&kn, name.buf, name.len);
			pystr_addc(&kn, 0);
		}
		if (excluded(r, kn.buf)) {
			pystr_release(&kn);
			goto out;
		}
		k.corr = corr;
		k.seq = seq;
		k.line = stream_lineno(e->s);
		k.t = t;
		k.kname = strpool_intern(r->sp, kn.buf, strlen(kn.buf));
		pystr_release(&kn);
		big = 0;
		if (first_int(e, devk, &k.dev, &big)) {
			k.dev_kind = 1;
		} else if (truthy(v = arg(e, "agent"))) {
			long gi = agent_index(r, v, &k.agent);
			if (gi >= 0)
				k.dev_kind = 2;
		}
		xgrow((void **)&r->ak, &r->ak_alloc, r->nak + 1, sizeof(*r->ak));
		r->ak[r->nak++] = k;
	} else {
		const struct json_value *cid = arg(e, "corr_id");
		int hip = cat.len == 7 && !strcmp(cat.buf, "hip_api") && cid && cid->type != JV_NULL;
		if (hip || !strcmp(lcat, "cuda_api") || !strcmp(lcat, "cupti")) {
			struct aapi a;
			const struct json_value *v;
			memset(&a, 0, sizeof(a));
			a.corr = corr;
			a.seq = seq;
			a.line = stream_lineno(e->s);
			a.name = strpool_intern(r->sp, name.buf, name.len);
			a.launch = hip && is_launch_name(name.buf);
			api_time(e, &a.t);
			v = field(e, "pid");
			if (v && py_int(v, &a.pid) < 0)
				a.pid_err = py_int(v, &a.pid);
			v = field(e, "tid");
			if (v && py_int(v, &a.tid) < 0)
				a.tid_err = py_int(v, &a.tid);
			xgrow((void **)&r->aa, &r->aa_alloc, r->naa + 1, sizeof(*r->aa));
			r->aa[r->naa++] = a;
		}
	}
out:
	free(lname);
	free(lcat);
	pystr_release(&name);
	pystr_release(&cat);
}

/* ---------------------------------------------------------------------- */
/* Memory copies                                                           */

static int opt_int(const struct json_value *v, int64_t *out)
{
	return v && py_int(v, out) == 0;
}

static void mem_event(struct pftrace_report *r, struct ev *e)
{
	struct pystr cat = { 0 }, name = { 0 };
	const struct json_value *cb;
	size_t b, en;
	int64_t bytes, src, dst;
	int hs, hd, rc;
	char *up, dir[96];
	char ss[24] = "?", ds[24] = "?";

	str_or_empty(e, "cat", &cat);
	py_strip(cat.buf, cat.len, &b, &en);
	{
		char *sub = xmalloc(en - b + 1), *low;
		tl_memcpy(sub, cat.buf + b, en - b);
		sub[en - b] = 0;
		low = py_ascii_case(sub, PY_LOWER);
		rc = strcmp(low, "memory_copy");
		free(sub);
		free(low);
	}
	pystr_release(&cat);
	if (rc)
		return;
	cb = arg(e, "copy_bytes");
	if (!cb || cb->type == JV_NULL)
		return;
	rc = py_int(cb, &bytes);
	if (rc == PYI_BIG) {
		report_fail(r, REP_MEM, e, "args.copy_bytes", rc);
		return;
	}
	if (rc < 0)
		return;
	str_or_empty(e, "name", &name);
	up = py_ascii_case(name.buf, PY_UPPER);
	hs = opt_int(arg(e, "src_agent"), &src);
	hd = opt_int(arg(e, "dst_agent"), &dst);
	if (hs)
		snprintf(ss, sizeof(ss), "%" PRId64, src);
	if (hd)
		snprintf(ds, sizeof(ds), "%" PRId64, dst);
	if (strstr(up, "MEMORY_COPY_HOST_TO_DEVICE"))
		snprintf(dir, sizeof(dir), "h2d (GPU %s)", ds);
	else if (strstr(up, "MEMORY_COPY_DEVICE_TO_HOST"))
		snprintf(dir, sizeof(dir), "d2h (GPU %s)", ss);
	else if (strstr(up, "MEMORY_COPY_DEVICE_TO_DEVICE"))
		snprintf(dir, sizeof(dir), "d2d (GPU %s -> GPU %s)", ss, ds);
	else
		snprintf(dir, sizeof(dir), "other");
	free(up);
	pystr_release(&name);
	xgrow((void **)&r->mr, &r->mr_alloc, r->nmr + 1, sizeof(*r->mr));
	r->mr[r->nmr].bytes = bytes;
	r->mr[r->nmr++].dir = xstrdup(dir);
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

static void one_event(struct pftrace_report *r, struct ev *e, size_t seq)
{
	const struct json_value *ag = arg(e, "agent"), *cat;
	uint32_t keyid;
	long gi = -1;

	if (truthy(ag)) {
		gi = agent_index(r, ag, &keyid);
		if (gi < 0) {
			tl_warn("%s:%ld: args.agent is a list or object, which TraceLens "
				"cannot look up", stream_name(e->s), stream_lineno(e->s));
			r->failed[REP_ACT] = r->failed[REP_API] = 1;
		}
	}
	if (!r->failed[REP_ACT]) {
		if (gi >= 0)
			act_kernel(r, e, gi);
		cat = field(e, "cat");
		if (!r->failed[REP_ACT] && cat && cat->type == JV_STR &&
		    !strcmp(cat->s, "hip_api") && cat->len == 7)
			act_hip(r, e);
	}
	if (!r->failed[REP_API])
		api_event(r, e, seq);
	if (!r->failed[REP_MEM])
		mem_event(r, e);
}

static void list_sheets(struct pftrace_report *r);

struct pftrace_report *pftrace_report_read(const char *path, const struct pftrace_opts *o)
{
	struct pftrace_report *r = xcalloc(1, sizeof(*r));
	struct ev e;
	int rc;
	size_t seq = 0;

	memset(&e, 0, sizeof(e));
	r->o = *o;
	r->sp = strpool_new();
	r->akeys = strpool_new();
	if (o->exclude_re && *o->exclude_re) {
		if (!strcmp(o->exclude_re, DEFAULT_EXCLUDE)) {
			r->default_re = 1;
		} else {
			const char *bad;
			char *ere = translate_re(o->exclude_re, &bad);
			if (bad || regcomp(&r->re, ere, REG_EXTENDED | REG_NOSUB)) {
				free(ere);
				pftrace_check_regex(o->exclude_re);
				pftrace_report_free(r);
				return NULL;
			}
			free(ere);
			r->have_re = 1;
		}
	}
	e.s = stream_open(path, "events");
	if (!e.s) {
		pftrace_report_free(r);
		return NULL;
	}
	e.c_cat = stream_col(e.s, "cat");
	e.c_name = stream_col(e.s, "name");
	e.c_pid = stream_col(e.s, "pid");
	e.c_tid = stream_col(e.s, "tid");
	e.c_ts = stream_col(e.s, "ts");
	e.c_dur = stream_col(e.s, "dur");
	e.c_args = stream_col(e.s, "args");
	e.c_extra = stream_col(e.s, "extra");
	while ((rc = stream_next(e.s)) > 0) {
		if (rc != STREAM_ROW)
			continue;
		ev_load(&e);
		one_event(r, &e, seq++);
	}
	ev_clear(&e);
	stream_close(e.s);
	if (rc < 0) {
		pftrace_report_free(r);
		return NULL;
	}
	list_sheets(r);
	return r;
}

/* ---------------------------------------------------------------------- */
/* HIP activity sheets                                                     */

struct gstats {
	int64_t ns[NCAT], cnt[NCAT];
	int64_t overlapped, non_overlapped, compute_total;
};

static const struct pftrace_report *sort_r;

static int kev_cmp(const void *a, const void *b)
{
	const struct kev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return strcmp(strpool_str(sort_r->sp, x->name), strpool_str(sort_r->sp, y->name));
}

/* events of list with dur >= min_event_ns (sorted by (ts, dur, name)) */
static struct kev *filtered(struct pftrace_report *r, struct kevs *l, size_t *n)
{
	struct kev *v = xcalloc(l->n + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dur >= r->o.min_event_ns)
			v[(*n)++] = l->v[i];
	return v;
}

/* rccl_overlap_two_pointer */
static void overlap(const struct kev *comp, size_t nc, const struct kev *comm, size_t nm,
		    int64_t *ov, int64_t *nonov)
{
	size_t i = 0;
	int64_t overlapped = 0, total = 0;

	for (size_t j = 0; j < nm; j++) {
		int64_t cs = comm[j].ts, ce = comm[j].ts + comm[j].dur;
		size_t k;
		total += comm[j].dur;
		while (i < nc && comp[i].ts + comp[i].dur <= cs)
			i++;
		k = i;
		while (k < nc && comp[k].ts < ce) {
			int64_t s1 = comp[k].ts, e1 = comp[k].ts + comp[k].dur;
			int64_t lo = s1 > cs ? s1 : cs, hi = e1 < ce ? e1 : ce;
			overlapped += hi - lo > 0 ? hi - lo : 0;
			if (e1 <= ce)
				k++;
			else
				break;
		}
	}
	*ov = overlapped;
	*nonov = total - overlapped;
}

static struct gstats *gpu_stats(struct pftrace_report *r)
{
	struct gstats *g = xcalloc(r->nagents + 1, sizeof(*g));

	sort_r = r;
	for (size_t i = 0; i < r->nagents; i++) {
		size_t nc, nm;
		struct kev *c, *m;
		tl_qsort(r->comp[i].v, r->comp[i].n, sizeof(struct kev), kev_cmp);
		tl_qsort(r->comm[i].v, r->comm[i].n, sizeof(struct kev), kev_cmp);
		c = filtered(r, &r->comp[i], &nc);
		m = filtered(r, &r->comm[i], &nm);
		for (size_t k = 0; k < nc; k++) {
			g[i].ns[c[k].cat] += c[k].dur;
			g[i].cnt[c[k].cat]++;
		}
		for (size_t k = 0; k < nm; k++) {
			g[i].ns[m[k].cat] += m[k].dur;
			g[i].cnt[m[k].cat]++;
		}
		for (int k = 0; k < NCAT; k++)
			if (k != C_RCCL)
				g[i].compute_total += g[i].ns[k];
		overlap(c, nc, m, nm, &g[i].overlapped, &g[i].non_overlapped);
		free(c);
		free(m);
	}
	return g;
}

static double div0(int64_t a, int64_t b)
{
	return b > 0 ? (double)a / (double)b : 0.0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void category_summary(struct pftrace_report *r, struct tab *t)
{
	static const char *const cols[] = {
		"GPU ID", "Category", "Total runtime (ms)", "Total count",
		"Fraction of compute runtime", "Fraction of total runtime"
	};
	static const char *const extra[4] = {
		"overlapped_comm", "non_overlapped_comm", "compute_total", "total_incl_comm"
	};
	struct gstats *g;
	size_t n = r->nagents, nrow = 14;
	double *ms, *cnt, *fc, *ft;
	const char *labels[14];

	if (!n) {
		tab_init(t, NULL, 0);
		return;
	}
	g = gpu_stats(r);
	ms = xcalloc(n * nrow, sizeof(double));
	cnt = xcalloc(n * nrow, sizeof(double));
	fc = xcalloc(n * nrow, sizeof(double));
	ft = xcalloc(n * nrow, sizeof(double));
	tab_init(t, cols, 6);
	for (int k = 0; k < NCAT; k++)
		labels[k] = cat_label[k];
	for (int k = 0; k < 4; k++)
		labels[NCAT + k] = extra[k];
	for (size_t i = 0; i < n; i++) {
		int64_t comp = g[i].compute_total, total = comp + g[i].ns[C_RCCL];
		for (size_t k = 0; k < nrow; k++) {
			int64_t ns, c = 0;
			size_t at = k * n + i;
			if (k < NCAT) {
				ns = g[i].ns[k];
				c = g[i].cnt[k];
			} else {
				ns = k == NCAT ? g[i].overlapped : k == NCAT + 1 ? g[i].non_overlapped :
				     k == NCAT + 2 ? comp : total;
			}
			ms[at] = (double)ns / 1000000.0;
			cnt[at] = (double)c;
			fc[at] = div0(ns, comp);
			ft[at] = div0(ns, total);
			tab_int(t, (int64_t)i);
			tab_str(t, labels[k]);
			tab_float(t, ms[at]);
			tab_float(t, cnt[at]);
			tab_float(t, fc[at]);
			tab_float(t, ft[at]);
		}
	}
	/* "Avg" rows: groupby("Category").mean(), categories sorted */
	{
		size_t order[14];
		const char *sorted[14];
		tl_memcpy(sorted, labels, sizeof(sorted));
		tl_qsort(sorted, nrow, sizeof(*sorted), str_cmp);
		for (size_t j = 0; j < nrow; j++)
			for (size_t k = 0; k < nrow; k++)
				if (labels[k] == sorted[j])
					order[j] = k;
		for (size_t j = 0; j < nrow; j++) {
			size_t k = order[j];
			tab_str(t, "Avg");
			tab_str(t, labels[k]);
			tab_float(t, pd_group_mean(ms + k * n, n));
			tab_float(t, pd_group_mean(cnt + k * n, n));
			tab_float(t, pd_group_mean(fc + k * n, n));
			tab_float(t, pd_group_mean(ft + k * n, n));
		}
	}
	free(ms);
	free(cnt);
	free(fc);
	free(ft);
	free(g);
}

static void xla_top_rows(struct pftrace_report *r, size_t **idx, size_t *n, int64_t *total)
{
	size_t *o = xcalloc(r->nx + 1, sizeof(*o));
	long top = r->o.top_xla;

	*total = 0;
	for (size_t i = 0; i < r->nx; i++) {
		o[i] = i;
		*total += r->xns[i];
	}
	if (!*total)
		*total = 1;
	/* sorted(..., key=total, reverse=True): stable */
	for (size_t i = 1; i < r->nx; i++) {
		size_t v = o[i], j = i;
		while (j > 0 && r->xns[o[j - 1]] < r->xns[v]) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = v;
	}
	/* [:top_n] with Python's slice rules */
	if (top < 0)
		*n = (size_t)-top >= r->nx ? 0 : r->nx - (size_t)-top;
	else
		*n = (size_t)top < r->nx ? (size_t)top : r->nx;
	*idx = o;
}

static void xla_top(struct pftrace_report *r, struct tab *t)
{
	static const char *const cols[] = { "Kernel", "Total time (ms)", "Count", "Fraction of XLA" };
	size_t *o, n;
	int64_t total;

	xla_top_rows(r, &o, &n, &total);
	if (!n) {
		tab_init(t, NULL, 0);
		free(o);
		return;
	}
	tab_init(t, cols, 4);
	for (size_t i = 0; i < n; i++) {
		tab_str(t, strpool_str(r->sp, r->xkey[o[i]]));
		tab_float(t, (double)r->xns[o[i]] / 1000000.0);
		tab_int(t, r->xcnt[o[i]]);
		tab_float(t, (double)r->xns[o[i]] / (double)total);
	}
	free(o);
}

/* human_time_ns */
static void human(char *buf, size_t n, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, n, "%.3f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, n, "%.3f \xce\xbcs", ns / 1e3);
	else
		snprintf(buf, n, "%lld ns", (long long)trunc(ns));
}

/* One group of durations: the numpy statistics of the summaries. */
struct dstat {
	uint32_t name;
	int64_t total, count, min, max;
	double avg, med, std;
	int64_t meta[9];	/* grid, block, VGPR, AccumVGPR, SGPR, LDS, Scratch, stream, op */
};

static void durstats(int64_t *d, size_t n, struct dstat *s)
{
	double *x = xcalloc(n + 1, sizeof(double));

	s->total = 0;
	s->min = s->max = d[0];
	for (size_t i = 0; i < n; i++) {
		s->total += d[i];
		if (d[i] < s->min) s->min = d[i];
		if (d[i] > s->max) s->max = d[i];
		x[i] = (double)d[i];
	}
	s->count = (int64_t)n;
	s->avg = np_mean(x, n);
	s->std = np_std(x, n);
	s->med = np_median(x, n);
	free(x);
}

/*
 * Groups of events by key (a string made by the caller), in insertion
 * order: keys[i] names event i's group, durs[i] its duration.
 */
struct groups {
	size_t n;
	size_t *first;		/* first event of each group */
	size_t *cnt;
	int64_t **d;
};

static void group(char **keys, const int64_t *durs, size_t n, struct groups *g)
{
	struct strpool *sp = strpool_new();
	uint32_t *gi = NULL;
	size_t gia = 0, alloc = 0;

	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		uint32_t id = strpool_intern(sp, keys[i], strlen(keys[i]));
		zgrow((void **)&gi, &gia, (size_t)id + 1, sizeof(*gi));
		if (!gi[id]) {
			xgrow((void **)&g->first, &alloc, g->n + 1, sizeof(*g->first));
			g->cnt = xrealloc(g->cnt, alloc * sizeof(*g->cnt));
			g->d = xrealloc(g->d, alloc * sizeof(*g->d));
			g->first[g->n] = i;
			g->cnt[g->n] = 0;
			g->d[g->n] = NULL;
			gi[id] = (uint32_t)++g->n;
		}
		{
			size_t k = gi[id] - 1;
			g->d[k] = xrealloc(g->d[k], (g->cnt[k] + 1) * sizeof(int64_t));
			g->d[k][g->cnt[k]++] = durs[i];
		}
	}
	free(gi);
	strpool_free(sp);
}

static void groups_release(struct groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->d[i]);
	free(g->first);
	free(g->cnt);
	free(g->d);
}

/* the NSYS-style columns shared by kernel_summary and hip_summary */
static void summary_rows(struct tab *t, struct dstat *st, size_t n, int64_t baseline,
			 const char *const *order, size_t ncols, struct strpool *sp)
{
	double *tot = xcalloc(n + 1, sizeof(double));
	size_t *o = xcalloc(n + 1, sizeof(size_t));
	char buf[64];

	for (size_t i = 0; i < n; i++)
		tot[i] = (double)st[i].total;
	pd_argsort_desc(tot, o, n);
	tab_init(t, order, ncols);
	for (size_t k = 0; k < n; k++) {
		const struct dstat *s = &st[o[k]];
		double pct = (baseline > 0 ? (double)s->total / (double)baseline : 0.0) * 100.0;
		for (size_t c = 0; c < ncols; c++) {
			const char *col = order[c];
			if (!strcmp(col, "Time")) {
				snprintf(buf, sizeof(buf), "%.1f%%", pct);
				tab_str(t, buf);
			} else if (!strcmp(col, "Total Time")) {
				human(buf, sizeof(buf), (double)s->total);
				tab_str(t, buf);
			} else if (!strcmp(col, "Instances")) {
				tab_int(t, s->count);
			} else if (!strcmp(col, "Avg") || !strcmp(col, "Med") ||
				   !strcmp(col, "StdDev")) {
				human(buf, sizeof(buf), col[0] == 'A' ? s->avg : col[0] == 'M' ? s->med : s->std);
				tab_str(t, buf);
			} else if (!strcmp(col, "Min") || !strcmp(col, "Max")) {
				human(buf, sizeof(buf), (double)(col[1] == 'i' ? s->min : s->max));
				tab_str(t, buf);
			} else if (!strcmp(col, "Name")) {
				tab_str(t, strpool_str(sp, s->name));
			} else if (!strcmp(col, "Time %")) {
				tab_float(t, pct);
			} else if (!strcmp(col, "Total Time (ns)")) {
				tab_int(t, s->total);
			} else if (!strcmp(col, "Avg (ns)")) {
				tab_float(t, s->avg);
			} else if (!strcmp(col, "Med (ns)")) {
				tab_float(t, s->med);
			} else if (!strcmp(col, "Min (ns)")) {
				tab_int(t, s->min);
			} else if (!strcmp(col, "Max (ns)")) {
				tab_int(t, s->max);
			} else if (!strcmp(col, "StdDev (ns)")) {
				tab_float(t, s->std);
			} else if (!strcmp(col, "GridXYZ") || !strcmp(col, "BlockXYZ")) {
				snprintf(buf, sizeof(buf), "%7" PRId64 " %4d %4d",
					 s->meta[col[0] == 'G' ? 0 : 1], 1, 1);
				tab_str(t, buf);
			} else {
				static const char *const meta[] = {
					"GridX", "BlockX", "VGPR", "AccumVGPR", "SGPR", "LDS",
					"Scratch", "Stream", "Op", NULL
				};
				int64_t v = 1;
				for (int m = 0; meta[m]; m++)
					if (!strcmp(col, meta[m]))
						v = s->meta[m];
				tab_int(t, v);	/* GridY/Z, BlockY/Z: 1 */
			}
		}
	}
	free(tot);
	free(o);
}

static void kernel_summary(struct pftrace_report *r, struct tab *t)
{
	static const char *const cfg_cols[] = {
		"Time", "Total Time", "Instances", "Avg", "Med", "Min", "Max", "StdDev",
		"GridXYZ", "BlockXYZ", "VGPR", "AccumVGPR", "SGPR", "LDS", "Scratch", "Name",
		"Time %", "Total Time (ns)", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
		"StdDev (ns)", "GridX", "GridY", "GridZ", "BlockX", "BlockY", "BlockZ"
	};
	static const char *const name_cols[] = {
		"Time", "Total Time", "Instances", "Avg", "Med", "Min", "Max", "StdDev", "Name",
		"Time %", "Total Time (ns)", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
		"StdDev (ns)"
	};
	struct gstats *g = gpu_stats(r);
	int64_t baseline = 0;
	struct kev *all = NULL;
	size_t nall = 0, alloc = 0;
	char **keys;
	int64_t *durs;
	uint32_t *names;
	struct groups gr;
	struct dstat *st;

	for (size_t i = 0; i < r->nagents; i++) {
		size_t nc, nm;
		struct kev *c = filtered(r, &r->comp[i], &nc), *m = filtered(r, &r->comm[i], &nm);
		baseline += g[i].compute_total + (r->o.baseline_compute ? 0 : g[i].ns[C_RCCL]);
		if (!r->o.include_rccl)
			nm = 0;
		xgrow((void **)&all, &alloc, nall + nc + nm + 1, sizeof(*all));
		tl_memcpy(all + nall, c, nc * sizeof(*c));
		nall += nc;
		tl_memcpy(all + nall, m, nm * sizeof(*m));
		nall += nm;
		free(c);
		free(m);
	}
	free(g);
	if (!nall) {
		tab_init(t, NULL, 0);
		free(all);
		return;
	}
	keys = xcalloc(nall, sizeof(*keys));
	durs = xcalloc(nall, sizeof(*durs));
	names = xcalloc(nall, sizeof(*names));
	for (size_t i = 0; i < nall; i++) {
		const char *nm = strpool_str(r->sp, all[i].name);
		char *m = r->o.merge_kernels ? py_re_sub_digits(nm) : xstrdup(nm);
		struct pystr k = { 0 };
		char b[32];
		names[i] = strpool_intern(r->sp, m, strlen(m));
		snprintf(b, sizeof(b), "%" PRIu32, names[i]);
		pystr_adds(&k, b);
		if (!r->o.group_by_name)
			for (int c = 0; c < 7; c++) {
				snprintf(b, sizeof(b), ",%" PRId64, all[i].cfg[c]);
				pystr_adds(&k, b);
			}
		keys[i] = k.buf;
		free(m);
		durs[i] = all[i].dur;
	}
	group(keys, durs, nall, &gr);
	st = xcalloc(gr.n + 1, sizeof(*st));
	for (size_t k = 0; k < gr.n; k++) {
		const struct kev *e = &all[gr.first[k]];
		durstats(gr.d[k], gr.cnt[k], &st[k]);
		st[k].name = names[gr.first[k]];
		for (int c = 0; c < 7; c++)
			st[k].meta[c] = e->cfg[c];
	}
	if (r->o.group_by_name)
		summary_rows(t, st, gr.n, baseline, name_cols, 16, r->sp);
	else
		summary_rows(t, st, gr.n, baseline, cfg_cols, 29, r->sp);
	for (size_t i = 0; i < nall; i++)
		free(keys[i]);
	free(keys);
	free(durs);
	free(names);
	free(st);
	free(all);
	groups_release(&gr);
}

static int hev_cmp(const void *a, const void *b)
{
	const struct hev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return strcmp(strpool_str(sort_r->sp, x->name), strpool_str(sort_r->sp, y->name));
}

static void hip_summary(struct pftrace_report *r, struct tab *t)
{
	static const char *const base[] = {
		"Time", "Total Time", "Instances", "Avg", "Med", "Min", "Max", "StdDev"
	};
	static const char *const tail[] = {
		"Name", "Time %", "Total Time (ns)", "Avg (ns)", "Med (ns)", "Min (ns)",
		"Max (ns)", "StdDev (ns)"
	};
	const char *cols[18];
	size_t nc = 0, n = 0;
	struct hev *h = xcalloc(r->nhip + 1, sizeof(*h));
	char **keys;
	int64_t *durs, baseline = 0;
	struct groups gr;
	struct dstat *st;
	int gs = r->o.hip_group == PF_GROUP_STREAM || r->o.hip_group == PF_GROUP_STREAM_OP;
	int go = r->o.hip_group == PF_GROUP_OP || r->o.hip_group == PF_GROUP_STREAM_OP;

	sort_r = r;
	tl_memcpy(h, r->hip, r->nhip * sizeof(*h));
	/* sorted then filtered; a stable sort keeps the order of equal keys */
	{
		size_t *o = xcalloc(r->nhip + 1, sizeof(*o));
		struct hev *s = xcalloc(r->nhip + 1, sizeof(*s));
		for (size_t i = 0; i < r->nhip; i++)
			o[i] = i;
		for (size_t i = 1; i < r->nhip; i++) {	/* insertion sort: stable */
			size_t v = o[i], j = i;
			while (j > 0 && hev_cmp(&h[o[j - 1]], &h[v]) > 0) {
				o[j] = o[j - 1];
				j--;
			}
			o[j] = v;
		}
		for (size_t i = 0; i < r->nhip; i++)
			if (h[o[i]].dur >= r->o.min_event_ns)
				s[n++] = h[o[i]];
		free(o);
		free(h);
		h = s;
	}
	if (!n) {
		tab_init(t, NULL, 0);
		free(h);
		return;
	}
	for (size_t i = 0; i < 8; i++)
		cols[nc++] = base[i];
	if (gs)
		cols[nc++] = "Stream";
	if (go)
		cols[nc++] = "Op";
	for (size_t i = 0; i < 8; i++)
		cols[nc++] = tail[i];
	keys = xcalloc(n, sizeof(*keys));
	durs = xcalloc(n, sizeof(*durs));
	for (size_t i = 0; i < n; i++) {
		keys[i] = xmalloc(80);
		snprintf(keys[i], 80, "%" PRIu32 ",%" PRId64 ",%" PRId64, h[i].name,
			 gs ? h[i].stream : 0, go ? h[i].op : 0);
		durs[i] = h[i].dur;
		baseline += h[i].dur;
	}
	group(keys, durs, n, &gr);
	st = xcalloc(gr.n + 1, sizeof(*st));
	for (size_t k = 0; k < gr.n; k++) {
		durstats(gr.d[k], gr.cnt[k], &st[k]);
		st[k].name = h[gr.first[k]].name;
		st[k].meta[7] = h[gr.first[k]].stream;
		st[k].meta[8] = h[gr.first[k]].op;
	}
	summary_rows(t, st, gr.n, baseline, cols, nc, r->sp);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(durs);
	free(st);
	free(h);
	groups_release(&gr);
}

/* ---------------------------------------------------------------------- */
/* api_kernel_summary                                                      */

struct packed {
	int64_t pid, tid, dev;
	uint32_t api, kern;
	int count, qcount, has_t;
	int64_t T, A, Q, K;
};

static int akern_cmp(const void *a, const void *b)
{
	const struct akern *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int aapi_cmp(const void *a, const void *b)
{
	const struct aapi *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int packed_cmp(const void *a, const void *b)
{
	const struct packed *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	c = strcmp(strpool_str(sort_r->sp, x->api), strpool_str(sort_r->sp, y->api));
	if (c)
		return c;
	return strcmp(strpool_str(sort_r->sp, x->kern), strpool_str(sort_r->sp, y->kern));
}

static void api_fail(struct pftrace_report *r, long line, const char *what, int rc)
{
	if (!r->failed[REP_API])
		tl_warn("line %ld: HIP API report: %s %s; no HIP API sheets", line, what,
			py_fail_why(rc));
	r->failed[REP_API] = 1;
}

static void stats5(struct tab *t, int64_t *v, size_t n)
{
	int64_t mn, mx;

	if (!n) {
		tab_float(t, 0.0);
		tab_float(t, 0.0);
		tab_int(t, 0);
		tab_int(t, 0);
		tab_float(t, 0.0);
		return;
	}
	/* sorted copy */
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;
		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	mn = v[0];
	mx = v[n - 1];
	tab_float(t, py_mean_int(v, n));
	if (n % 2)
		tab_float(t, (double)v[n / 2]);
	else
		tab_float(t, py_mid_int(v[n / 2 - 1], v[n / 2]));
	tab_int(t, mn);
	tab_int(t, mx);
	tab_float(t, n > 1 ? py_pstdev_int(v, n) : 0.0);
}

static int api_kernel_summary(struct pftrace_report *r, struct tab *t)
{
	static const char *const cols[] = {
		"PID", "TID", "DevId", "Count", "QCount",
		"TAvg_ns", "TMed_ns", "TMin_ns", "TMax_ns", "TStdDev_ns",
		"AAvg_ns", "AMed_ns", "AMin_ns", "AMax_ns", "AStdDev_ns",
		"QAvg_ns", "QMed_ns", "QMin_ns", "QMax_ns", "QStdDev_ns",
		"KAvg_ns", "KMed_ns", "KMin_ns", "KMax_ns", "KStdDev_ns",
		"API Name", "Kernel Name"
	};
	struct packed *p = NULL;
	size_t np = 0, palloc = 0, ki = 0;
	uint32_t empty = strpool_intern(r->sp, "", 0);

	sort_r = r;
	tl_qsort(r->ak, r->nak, sizeof(*r->ak), akern_cmp);
	tl_qsort(r->aa, r->naa, sizeof(*r->aa), aapi_cmp);
	for (size_t i = 0; i < r->naa; i++) {
		const struct aapi *a;
		size_t k0, k1;
		if (i + 1 < r->naa && r->aa[i + 1].corr == r->aa[i].corr)
			continue;	/* api_by_corr keeps the last */
		a = &r->aa[i];
		if (!r->o.include_nonlaunch && !a->launch)
			continue;
		if (a->t.err) {
			api_fail(r, a->line, a->t.what, a->t.err);
			goto fail;
		}
		if (!a->t.have)
			continue;
		if (a->pid_err || a->tid_err) {
			api_fail(r, a->line, a->pid_err ? "pid" : "tid",
				 a->pid_err ? a->pid_err : a->tid_err);
			goto fail;
		}
		while (ki < r->nak && r->ak[ki].corr < a->corr)
			ki++;
		k0 = k1 = ki;
		while (k1 < r->nak && r->ak[k1].corr == a->corr)
			k1++;
		if (k0 == k1) {
			if (r->o.include_nonlaunch) {
				xgrow((void **)&p, &palloc, np + 1, sizeof(*p));
				memset(&p[np], 0, sizeof(*p));
				p[np].pid = a->pid;
				p[np].tid = a->tid;
				p[np].api = a->name;
				p[np].kern = empty;
				p[np].count = 1;
				p[np].A = a->t.d;
				np++;
			}
			continue;
		}
		for (size_t k = k0; k < k1; k++)
			if (r->ak[k].t.err) {
				api_fail(r, r->ak[k].line, r->ak[k].t.what, r->ak[k].t.err);
				goto fail;
			}
		if (!r->o.allow_multi && k1 - k0 > 1) {
			/* sorted by begin (None -> 0), stable: the first earliest */
			size_t best = k0;
			for (size_t k = k0 + 1; k < k1; k++) {
				int64_t bk = r->ak[k].t.have ? r->ak[k].t.b : 0;
				int64_t bb = r->ak[best].t.have ? r->ak[best].t.b : 0;
				if (bk < bb)
					best = k;
			}
			k0 = best;
			k1 = best + 1;
		}
		for (size_t k = k0; k < k1; k++) {
			const struct akern *ke = &r->ak[k];
			int64_t dev = 0, q;
			if (!ke->t.have)
				continue;
			if (ke->dev_kind == 1)
				dev = ke->dev;
			else if (ke->dev_kind == 2)
				dev = (int64_t)r->aidx[ke->agent] - 1;
			if (__builtin_sub_overflow(ke->t.b, a->t.en, &q)) {
				api_fail(r, a->line, "the kernel's begin - the API's end", PYI_SUM);
				goto fail;
			}
			xgrow((void **)&p, &palloc, np + 1, sizeof(*p));
			memset(&p[np], 0, sizeof(*p));
			p[np].pid = a->pid;
			p[np].tid = a->tid;
			p[np].dev = dev;
			p[np].api = a->name;
			p[np].kern = ke->kname;
			p[np].count = p[np].qcount = 1;
			p[np].has_t = 1;
			p[np].A = a->t.d;
			p[np].Q = q > 0 ? q : 0;
			p[np].K = ke->t.d;
			if (__builtin_add_overflow(p[np].A, p[np].Q, &p[np].T) ||
			    __builtin_add_overflow(p[np].T, p[np].K, &p[np].T)) {
				api_fail(r, a->line, "T = A + Q + K", PYI_SUM);
				goto fail;
			}
			np++;
		}
	}
	tl_qsort(p, np, sizeof(*p), packed_cmp);
	tab_init(t, cols, 27);
	for (size_t i = 0; i < np; ) {
		size_t j = i, n = 0, nt = 0;
		int64_t count = 0, qcount = 0, *T, *A, *Q, *K;
		while (j < np && !packed_cmp(&p[i], &p[j]))
			j++;
		T = xcalloc(j - i + 1, sizeof(int64_t));
		A = xcalloc(j - i + 1, sizeof(int64_t));
		Q = xcalloc(j - i + 1, sizeof(int64_t));
		K = xcalloc(j - i + 1, sizeof(int64_t));
		for (size_t k = i; k < j; k++) {
			count += p[k].count;
			qcount += p[k].qcount;
			if (p[k].has_t)
				T[nt++] = p[k].T;
			A[n] = p[k].A;
			Q[n] = p[k].Q;
			K[n] = p[k].K;
			n++;
		}
		tab_int(t, p[i].pid);
		tab_int(t, p[i].tid);
		tab_int(t, p[i].dev);
		tab_int(t, count);
		tab_int(t, qcount);
		stats5(t, T, nt);
		stats5(t, A, n);
		stats5(t, Q, n);
		stats5(t, K, n);
		tab_str(t, strpool_str(r->sp, p[i].api));
		tab_str(t, strpool_str(r->sp, p[i].kern));
		free(T);
		free(A);
		free(Q);
		free(K);
		i = j;
	}
	free(p);
	return 0;
fail:	/* a value TraceLens's int() raises on: api_fail said which */
	free(p);
	return -1;
}

/* ---------------------------------------------------------------------- */
/* memory_copy_by_copy_bytes                                               */

static int mrow_cmp(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static void memory_copy(struct pftrace_report *r, struct tab *t)
{
	static const char *const cols[] = { "copy_bytes", "direction", "count" };

	tl_qsort(r->mr, r->nmr, sizeof(*r->mr), mrow_cmp);
	tab_init(t, cols, 3);
	for (size_t i = 0; i < r->nmr; ) {
		size_t j = i;
		while (j < r->nmr && !mrow_cmp(&r->mr[i], &r->mr[j]))
			j++;
		tab_int(t, r->mr[i].bytes);
		tab_str(t, r->mr[i].dir);
		tab_int(t, (int64_t)(j - i));
		i = j;
	}
}

/* ---------------------------------------------------------------------- */
/* Sheets                                                                  */

static const char *const all_sheets[] = {
	"category_summary", "xla_top", "kernel_summary", "hip_summary",
	"api_kernel_summary", "memory_copy_by_copy_bytes", NULL
};

static int sheet_report(const char *name)
{
	if (!strcmp(name, "api_kernel_summary"))
		return REP_API;
	if (!strcmp(name, "memory_copy_by_copy_bytes"))
		return REP_MEM;
	return REP_ACT;
}

static int sheet_on(const struct pftrace_report *r, const char *name)
{
	if (r->failed[sheet_report(name)])
		return 0;
	if (!strcmp(name, "kernel_summary"))
		return r->o.kernel_summary;
	if (!strcmp(name, "hip_summary"))
		return r->o.hip_summary;
	return 1;
}

/* the table of a sheet, built once; NULL if the sheet is off or failed */
static const struct tab *table(struct pftrace_report *r, const char *name)
{
	size_t i;

	for (i = 0; all_sheets[i]; i++)
		if (!strcmp(all_sheets[i], name))
			break;
	if (!all_sheets[i] || !sheet_on(r, name))
		return NULL;
	if (!r->cached) {
		r->cached = xcalloc(7, sizeof(*r->cached));
		r->cached_name = xcalloc(7, sizeof(*r->cached_name));
	}
	if (!r->cached_name[i]) {
		struct tab *t = &r->cached[i];
		switch (i) {
		case 0: category_summary(r, t); break;
		case 1: xla_top(r, t); break;
		case 2: kernel_summary(r, t); break;
		case 3: hip_summary(r, t); break;
		case 4:
			if (api_kernel_summary(r, t) < 0) {
				tab_release(t);
				return NULL;
			}
			break;
		default: memory_copy(r, t); break;
		}
		r->cached_name[i] = (char *)all_sheets[i];
	}
	return &r->cached[i];
}

static void list_sheets(struct pftrace_report *r)
{
	r->sheets = xcalloc(7, sizeof(*r->sheets));
	r->nsheets = 0;
	for (size_t i = 0; all_sheets[i]; i++)
		if (table(r, all_sheets[i]))
			r->sheets[r->nsheets++] = all_sheets[i];
}

const char *pftrace_report_sheet(struct pftrace_report *r, size_t i)
{
	return i < r->nsheets ? r->sheets[i] : NULL;
}

int pftrace_report_write(struct pftrace_report *r, const char *sheet, struct sheet *sh)
{
	const struct tab *t = table(r, sheet);

	if (!t)
		return -1;
	tab_write_sheet(t, sh);
	return 0;
}

int pftrace_report_failed(const struct pftrace_report *r)
{
	return r->failed[REP_ACT] || r->failed[REP_API] || r->failed[REP_MEM];
}

int pftrace_report_markdown(struct pftrace_report *r, struct outbuf *ob)
{
	const struct tab *cat, *ks = NULL, *hs = NULL;
	size_t *o, n;
	int64_t total;

	if (r->failed[REP_ACT])
		return -1;
	cat = table(r, "category_summary");
	if (r->o.kernel_summary)
		ks = table(r, "kernel_summary");
	if (r->o.hip_summary)
		hs = table(r, "hip_summary");
	outbuf_puts(ob, "# ROCm Perfetto Trace Report\n\n- Agents (GPUs): ");
	for (size_t i = 0; i < r->nagents; i++) {
		if (i)
			outbuf_puts(ob, ", ");
		outbuf_puts(ob, r->agents[i]);
	}
	outbuf_printf(ob, "\n- Used FA v3 kernels detected: **%d**\n\n## Category Summary (per GPU)\n",
		      r->used_fav3);
	if (cat && cat->nrows)
		py_tabulate_pipe(ob, cat, cat->nrows);
	else
		outbuf_puts(ob, "_(no data)_");
	outbuf_puts(ob, "\n\n## Top XLA Kernels (by time)\n");
	xla_top_rows(r, &o, &n, &total);
	if (!n) {
		outbuf_puts(ob, "_(no data)_\n");
	} else {
		outbuf_puts(ob, "| Kernel | Total Time (ms) | Count | Fraction of XLA |\n|---|---:|---:|---:|\n");
		for (size_t i = 0; i < n; i++)
			outbuf_printf(ob, "| `%s` | %.2f | %" PRId64 " | %.2f%% |\n",
				      strpool_str(r->sp, r->xkey[o[i]]),
				      (double)r->xns[o[i]] / 1000000.0, r->xcnt[o[i]],
				      (double)r->xns[o[i]] / (double)total * 100.0);
	}
	free(o);
	if (ks && ks->nrows) {
		outbuf_puts(ob, "\n### Kernel Summary Table\n");
		py_tabulate_pipe(ob, ks, r->o.kernel_top);
		outbuf_puts(ob, "\n");
	}
	if (hs && hs->nrows) {
		outbuf_puts(ob, "\n### HIP API Summary Table\n");
		py_tabulate_pipe(ob, hs, r->o.hip_top);
		outbuf_puts(ob, "\n");
	}
	return 0;
}

void pftrace_report_free(struct pftrace_report *r)
{
	if (!r)
		return;
	strpool_free(r->sp);
	strpool_free(r->akeys);
	free(r->aidx);
	for (size_t i = 0; i < r->nagents; i++) {
		free(r->agents[i]);
		if (r->comp) {
			free(r->comp[i].v);
			free(r->comm[i].v);
		}
	}
	free(r->agents);
	free(r->comp);
	free(r->comm);
	free(r->xkey);
	free(r->xns);
	free(r->xcnt);
	free(r->xidx);
	free(r->hip);
	free(r->ak);
	free(r->aa);
	if (r->have_re)
		regfree(&r->re);
	for (size_t i = 0; i < r->nmr; i++)
		free(r->mr[i].dir);
	free(r->mr);
	if (r->cached) {
		for (size_t i = 0; i < 6; i++)
			if (r->cached_name[i])
				tab_release(&r->cached[i]);
		free(r->cached);
		free(r->cached_name);
	}
	free(r->sheets);
	free(r);
}
