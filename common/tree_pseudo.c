/*
 * tree_pseudo: apply_pseudo_op_extensions of TraceLens 171dd74
 * (Trace2Tree/extensions/ *_pseudo_ops.py), one function per extension file.
 *
 * An extension that raises stops where it is (earlier injections stay),
 * as TraceLens catches each extension's exception and goes on with the
 * next; here such a step returns -1.
 */
#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "infer_annot.h"
#include "json_value.h"
#include "py_repr.h"
#include "tree_graft.h"
#include "tree_pseudo.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

struct pseudo_set {
	struct pseudo_spec *s;
	size_t n, alloc;
	int verbose;
};

const struct pseudo_spec *tree_pseudo_spec(const struct pseudo_set *ps, uint32_t k)
{
	return &ps->s[k];
}

size_t tree_pseudo_count(const struct pseudo_set *ps)
{
	return ps->n;
}

void tree_pseudo_free(struct pseudo_set *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++)
		free(ps->s[i].extra);
	free(ps->s);
	free(ps);
}

/* ---- small helpers ------------------------------------------------------- */

static int search(const char *re, const char *s)
{
	regex_t r;
	int m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		tl_die("internal error: pattern '%s'", re);
	m = regexec(&r, s, 0, NULL, 0) == 0;
	regfree(&r);
	return m;
}

static int has_name(const struct graft *g, const char *name)
{
	size_t n;

	return graft_named(g, name, &n) != NULL;
}

static int any_name(const struct graft *g, const char *re)
{
	for (size_t k = 0; k < graft_names(g); k++)
		if (search(re, graft_str(g, graft_names_name(g, k))))
			return 1;
	return 0;
}

/* any event of cat "kernel" whose name contains s (lower-cased first) */
static int any_kernel(const struct graft *g, const char *s, int lower)
{
	for (uint32_t i = 0; i < graft_count(g); i++) {
		const char *n = graft_name(g, i);
		if (graft_at(g, i)->kind != TK_KERNEL)
			continue;
		if (lower ? strcasestr(n, s) != NULL : strstr(n, s) != NULL)
			return 1;
	}
	return 0;
}

static uint32_t parent_of(const struct graft *g, uint32_t i)
{
	return i == GN_NONE ? GN_NONE : graft_at(g, i)->parent;
}

static uint32_t ancestor_named(const struct graft *g, uint32_t i, const char *name)
{
	for (uint32_t a = parent_of(g, i); a != GN_NONE; a = parent_of(g, a))
		if (!strcmp(graft_name(g, a), name))
			return a;
	return GN_NONE;
}

static struct pseudo_spec *new_spec(struct pseudo_set *ps, struct graft *g, uint32_t node)
{
	struct pseudo_spec *sp;

	xgrow((void **)&ps->s, &ps->alloc, ps->n + 1, sizeof(*ps->s));
	sp = &ps->s[ps->n];
	memset(sp, 0, sizeof(*sp));
	sp->node = node;
	sp->idfrom = sp->tsfrom = sp->argfrom = sp->argalt = sp->seqfrom = GN_NONE;
	graft_at(g, node)->cap = (uint32_t)ps->n++;
	return sp;
}

/* An extension's extra args: a JSON text of members, built up. */
struct members {
	struct pystr ps;
};

static void m_key(struct members *m, const char *key)
{
	if (m->ps.len)
		pystr_addc(&m->ps, ',');
	pystr_addc(&m->ps, '"');
	pystr_adds(&m->ps, key);
	pystr_adds(&m->ps, "\":");
}

static void m_str(struct members *m, const char *key, const char *v)
{
	m_key(m, key);
	if (!v) {
		pystr_adds(&m->ps, "null");
		return;
	}
	pystr_addc(&m->ps, '"');
	for (const char *p = v; *p; p++) {
		if ((unsigned char)*p < 0x20) {
			char u[8];
			snprintf(u, sizeof(u), "\\u%04x", (unsigned char)*p);
			pystr_adds(&m->ps, u);
			continue;
		}
		if (*p == '"' || *p == '\\')
			pystr_addc(&m->ps, '\\');
		pystr_addc(&m->ps, *p);
	}
	pystr_addc(&m->ps, '"');
}

static void m_int(struct members *m, const char *key, long long v)
{
	char buf[32];

	m_key(m, key);
	snprintf(buf, sizeof(buf), "%lld", v);
	pystr_adds(&m->ps, buf);
}

static void m_bool(struct members *m, const char *key, int v)
{
	m_key(m, key);
	pystr_adds(&m->ps, v ? "true" : "false");
}

/* ---- the three ways of injecting ----------------------------------------- */

/*
 * inject_pseudo_op: parent op → pseudo op → launch call → kernel, in the
 * children lists only: the launch call keeps its parent link.
 */
static int inject(struct pseudo_set *ps, struct graft *g, uint32_t kernel, const char *name,
		  uint32_t moe, uint32_t sequid, struct members *extra)
{
	uint32_t launcher = parent_of(g, kernel), orig = parent_of(g, launcher), p;
	const struct gnode *kn = graft_at(g, kernel);
	struct pseudo_spec *sp;

	/* get_parent_event(None), None["pid"], a missing pid: all raise */
	if (launcher == GN_NONE || orig == GN_NONE || graft_at(g, orig)->origin == GO_CAPROOT)
		return -1;
	/* kernel_evt["args"]["correlation"] */
	if (!kn->corr && !(kn->flags & GF_CORR))
		return -1;
	p = graft_add(g, TK_CPU_OP, GO_PSEUDO, name);
	sp = new_spec(ps, g, p);
	sp->idfrom = orig;
	sp->argfrom = moe;
	sp->argalt = orig;
	sp->seqfrom = moe;
	sp->sequid = sequid;
	sp->has_ext = 1;
	sp->ext = graft_at(g, kernel)->corr;	/* graft_add may have moved kn */
	sp->extra = extra ? xstrdup(extra->ps.buf ? extra->ps.buf : "") : xstrdup("");
	graft_at(g, p)->parent = orig;
	if (graft_kid_remove(g, orig, launcher) < 0)
		return -1;
	graft_kid_append(g, orig, p);
	graft_kids_set(g, p, &launcher, 1);
	graft_gev_set(g, p, &kernel, 1);
	return 0;
}

/* the common part of the other two: a pseudo op with its donor's shapes */
static uint32_t add_donated(struct pseudo_set *ps, struct graft *g, const char *name,
			    uint32_t idfrom, uint32_t tsfrom, uint32_t donor, uint32_t sequid,
			    const struct members *extra)
{
	uint32_t p = graft_add(g, TK_CPU_OP, GO_PSEUDO, name);
	struct pseudo_spec *sp = new_spec(ps, g, p);

	sp->idfrom = idfrom;
	sp->tsfrom = tsfrom;
	sp->argfrom = donor;
	sp->seqfrom = donor;
	sp->sequid = sequid;
	sp->extra = xstrdup(extra && extra->ps.buf ? extra->ps.buf : "");
	graft_at(g, p)->ts = graft_at(g, tsfrom)->ts;
	graft_at(g, p)->dur = graft_at(g, tsfrom)->dur;
	return p;
}

static void drop_roots_below(struct graft *g, const uint32_t *kids, uint32_t n)
{
	uint32_t *stk = NULL;
	size_t ns = 0, as = 0;

	for (uint32_t k = 0; k < n; k++) {
		xgrow((void **)&stk, &as, ns + 1, sizeof(*stk));
		stk[ns++] = kids[k];
	}
	while (ns) {
		uint32_t u = stk[--ns];
		const struct gnode *x = graft_at(g, u);
		graft_root_remove(g, u);
		for (uint32_t k = 0; k < x->nkids; k++) {
			xgrow((void **)&stk, &as, ns + 1, sizeof(*stk));
			stk[ns++] = x->kids[k];
		}
	}
	free(stk);
}

/* inject_pseudo_op_wrap_children: parent → pseudo op → all its children */
static int wrap_children(struct pseudo_set *ps, struct graft *g, uint32_t parent,
			 const char *name, uint32_t donor, const struct members *extra)
{
	struct gnode *pn = graft_at(g, parent);
	uint32_t n = pn->nkids, *kids, *gev, ngev, p;

	if (!n)
		return 0;
	if (pn->origin == GO_CAPROOT)
		return -1;	/* parent_evt["pid"] */
	kids = xmalloc(st_mult(n, sizeof(*kids)));
	tl_memcpy(kids, pn->kids, n * sizeof(*kids));
	p = add_donated(ps, g, name, parent, parent, donor, graft_at(g, parent)->uid, extra);
	gev = graft_gpu_events(g, parent, &ngev);
	graft_kids_set(g, p, kids, n);
	graft_gev_set(g, p, gev, ngev);
	free(gev);
	for (uint32_t k = 0; k < n; k++)
		graft_at(g, kids[k])->parent = p;
	graft_kids_set(g, parent, &p, 1);
	graft_at(g, p)->parent = parent;
	drop_roots_below(g, kids, n);
	graft_root_append(g, p);
	free(kids);
	return 0;
}

/* inject_pseudo_op_above_event: parent → pseudo op → target */
static int above_event(struct pseudo_set *ps, struct graft *g, uint32_t target,
		       const char *name, uint32_t donor, uint32_t sequid,
		       const struct members *extra)
{
	uint32_t parent = parent_of(g, target), p, *gev, ngev;
	int idx;

	if (parent == GN_NONE) {
		tl_warn("pseudo ops: target uid %u has no parent; skipping injection of %s",
			graft_at(g, target)->uid, name);
		return 0;
	}
	p = add_donated(ps, g, name, target, target, donor, sequid, extra);
	gev = graft_gpu_events(g, target, &ngev);
	graft_kids_set(g, p, &target, 1);
	graft_gev_set(g, p, gev, ngev);
	free(gev);
	graft_at(g, p)->parent = parent;
	if ((idx = graft_kid_index(g, parent, target)) < 0)
		return -1;
	graft_at(g, parent)->kids[idx] = p;
	graft_at(g, parent)->flags |= GF_KIDS;
	graft_at(g, target)->parent = p;
	return 0;
}

/* ---- shared pieces of the MoE extensions --------------------------------- */

/* The kernels among an op's gpu_events that pass keep(), sorted by ts
 * (stable); duplicates in gpu_events stay duplicates. */
static uint32_t *kernels_of(const struct graft *g, uint32_t op, int (*keep)(const char *),
			    uint32_t *n, int need_kernel_cat)
{
	uint32_t ngev, *gev = graft_gpu_events(g, op, &ngev), *out;

	out = xmalloc(st_mult(ngev + 1, sizeof(*out)));
	*n = 0;
	for (uint32_t k = 0; k < ngev; k++) {
		const struct gnode *x = graft_at(g, gev[k]);
		if ((!need_kernel_cat || x->kind == TK_KERNEL) && keep(graft_name(g, gev[k])))
			out[(*n)++] = gev[k];
	}
	free(gev);
	/* insertion sort: stable, and n is a handful */
	for (uint32_t i = 1; i < *n; i++) {
		uint32_t v = out[i], j = i;
		while (j > 0 && graft_at(g, out[j - 1])->ts > graft_at(g, v)->ts) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
	}
	return out;
}

static int has_gpu(const struct graft *g, uint32_t op)
{
	uint32_t n, *gev = graft_gpu_events(g, op, &n);

	free(gev);
	return n > 0;
}

/* PerfModel.utils.optional_int of a JSON value; 0 when it gives None */
static int optional_int(const struct json_value *v, long long *out)
{
	int ok = 0;

	if (!v)
		return 0;
	switch (v->type) {
	case JV_STR:
		*out = infer_int(v->s, v->len, &ok);
		return ok;
	case JV_INT:
		*out = infer_int(v->s, v->len, &ok);
		return ok;
	case JV_FLOAT:
		if (isnan(v->num) || isinf(v->num))
			return 0;
		*out = (long long)v->num;
		return 1;
	case JV_TRUE:
	case JV_FALSE:
		*out = v->type == JV_TRUE;
		return 1;
	default:
		return 0;
	}
}

/* Python truthiness of a JSON value */
static int truthy(const struct json_value *v)
{
	switch (v->type) {
	case JV_NULL: case JV_FALSE: return 0;
	case JV_TRUE: return 1;
	case JV_INT: case JV_FLOAT: return v->num != 0;
	case JV_STR: return v->len > 0;
	default: return v->n > 0;
	}
}

/* search_for_topk: "TopK" ops, Concrete Inputs[1] */
static int search_topk(const struct graft *g, uint32_t e, int depth, long long *topk)
{
	const struct gnode *x = graft_at(g, e);

	if (depth > 10)
		return 0;
	if (strstr(graft_name(g, e), "TopK")) {
		uint32_t c = graft_row_topk(g, x->uid);
		struct json_value *v = c ? json_value_parse(graft_str(g, c), strlen(graft_str(g, c))) : NULL;
		int found = v && v->type == JV_ARR && v->n > 1 && truthy(&v->kids[1]) &&
			    optional_int(&v->kids[1], topk);
		json_value_free(v);
		if (found)
			return 1;
	}
	for (uint32_t k = 0; k < x->nkids; k++)
		if (search_topk(g, x->kids[k], depth + 1, topk))
			return 1;
	return 0;
}

static int is_matmul_ogs(const char *n) { return strcasestr(n, "matmul_ogs") != NULL; }
static int is_matmul_scatter(const char *n) { return strcasestr(n, "matmul_scatter") != NULL; }
static int is_gptq_awq(const char *n) { return strstr(n, "fused_moe_kernel_gptq_awq") != NULL; }

static int is_aiter_fmoe(const char *n)
{
	return strstr(n, "aiter::") && strstr(n, "fmoe") && !strstr(n, "MoeSorting") &&
	       !strcasestr(n, "quant");
}

/* ---- the extensions -------------------------------------------------- */

/* moe_unfused_triton_pseudo_ops.py */
static int moe_unfused_triton(struct pseudo_set *ps, struct graft *g)
{
	size_t nmoe;
	const uint32_t *moes = graft_named(g, "vllm::moe_forward", &nmoe);
	uint32_t *list = xmalloc(st_mult(nmoe + 1, sizeof(*list)));
	int rval = 0;

	tl_memcpy(list, moes, nmoe * sizeof(*list));
	for (size_t m = 0; m < nmoe && !rval; m++) {
		uint32_t moe = list[m], nk, nfin, *k, *fin;
		long long topk = 4;
		if (!has_gpu(g, moe))
			continue;
		k = kernels_of(g, moe, is_matmul_ogs, &nk, 1);
		if (!nk) {
			free(k);
			continue;
		}
		{
			const struct gnode *x = graft_at(g, moe);
			int found = 0;
			for (uint32_t c = 0; c < x->nkids && !found; c++)
				found = search_topk(g, x->kids[c], 0, &topk);
			if (!found)
				topk = 4;
		}
		for (uint32_t i = 0; i < nk && !rval; i++) {
			const char *kname = graft_name(g, k[i]);
			struct members e = { { 0 } };
			char name[64];
			snprintf(name, sizeof(name), "pseudo_op::moe_triton_unfused_%s", i ? "down" : "up");
			m_str(&e, "MoE GEMM type", i ? "down" : "up");
			m_int(&e, "MoE GEMM index", i);
			m_bool(&e, "MoE GEMM gated", strcasestr(kname, "_swiglu") || strcasestr(kname, "_glu"));
			m_int(&e, "MoE topk", topk);
			rval = inject(ps, g, k[i], name, moe, graft_at(g, moe)->uid, &e);
			pystr_release(&e.ps);
		}
		free(k);
		if (rval)
			break;
		fin = kernels_of(g, moe, is_matmul_scatter, &nfin, 0);
		if (nfin == 1) {
			struct members e = { { 0 } };
			m_str(&e, "MoE GEMM type", "finalize_matmul_scatter");
			rval = inject(ps, g, fin[0], "pseudo_op::moe_triton_unfused_finalize_matmul_scatter",
				      moe, graft_at(g, moe)->uid, &e);
			pystr_release(&e.ps);
		} else if (nfin > 1 && ps->verbose) {
			tl_warn("pseudo ops: multiple matmul_scatter kernels for uid %u",
				graft_at(g, moe)->uid);
		}
		free(fin);
	}
	free(list);
	return rval;
}

/* _has_cpu_op_descendant, skipping non_gpu_path subtrees */
static int has_cpu_op_below(const struct graft *g, uint32_t e)
{
	const struct gnode *x = graft_at(g, e);

	for (uint32_t k = 0; k < x->nkids; k++) {
		uint32_t c = x->kids[k];
		const struct gnode *cn = graft_at(g, c);
		int non_gpu = !graft_is_gpu(cn) && cn->origin != GO_PSEUDO && graft_non_gpu(g, c);
		if (cn->kind == TK_CPU_OP)
			return 1;
		if (!non_gpu && has_cpu_op_below(g, c))
			return 1;
	}
	return 0;
}

/* moe_aiter_pseudo_ops.py */
static int moe_fused_aiter(struct pseudo_set *ps, struct graft *g)
{
	size_t nmoe;
	const uint32_t *moes = graft_named(g, "vllm::rocm_aiter_fused_moe", &nmoe);
	uint32_t *list = xmalloc(st_mult(nmoe + 1, sizeof(*list)));
	int rval = 0;

	tl_memcpy(list, moes, nmoe * sizeof(*list));
	for (size_t m = 0; m < nmoe && !rval; m++) {
		uint32_t moe = list[m], nk, *k;
		if (has_cpu_op_below(g, moe) || !has_gpu(g, moe))
			continue;
		k = kernels_of(g, moe, is_aiter_fmoe, &nk, 1);
		if (nk == 1)
			rval = inject(ps, g, k[0], "pseudo_op::moe_aiter_fused_1stage", moe,
				      graft_at(g, moe)->uid, NULL);
		free(k);
	}
	free(list);
	return rval;
}

/* _extract_topk_from_outplace: Input Dims[4][1], default 8 */
static long long outplace_topk(const struct graft *g, uint32_t moe)
{
	uint32_t d = graft_row_dims(g, graft_at(g, moe)->uid);
	struct json_value *v = d ? json_value_parse(graft_str(g, d), strlen(graft_str(g, d))) : NULL;
	long long topk = 8, t;

	if (v && v->type == JV_ARR && v->n > 4 && v->kids[4].type == JV_ARR && v->kids[4].n >= 2 &&
	    optional_int(&v->kids[4].kids[1], &t))
		topk = t;
	json_value_free(v);
	return topk;
}

/* moe_gptq_awq_pseudo_ops.py */
static int moe_gptq_awq(struct pseudo_set *ps, struct graft *g)
{
	size_t nmoe;
	const uint32_t *moes = graft_named(g, "vllm::outplace_fused_experts", &nmoe);
	uint32_t *list = xmalloc(st_mult(nmoe + 1, sizeof(*list)));
	int rval = 0;

	tl_memcpy(list, moes, nmoe * sizeof(*list));
	for (size_t m = 0; m < nmoe && !rval; m++) {
		uint32_t moe = list[m], nk, *k;
		long long topk;
		if (!has_gpu(g, moe))
			continue;
		k = kernels_of(g, moe, is_gptq_awq, &nk, 1);
		topk = nk ? outplace_topk(g, moe) : 0;
		for (uint32_t i = 0; i < nk && !rval; i++) {
			struct members e = { { 0 } };
			char name[64];
			snprintf(name, sizeof(name), "pseudo_op::moe_gptq_awq_%s", i ? "down" : "up");
			m_str(&e, "MoE GEMM type", i ? "down" : "up");
			m_int(&e, "MoE GEMM index", i);
			m_bool(&e, "MoE GEMM gated", i == 0);
			m_int(&e, "MoE topk", topk);
			rval = inject(ps, g, k[i], name, moe, graft_at(g, moe)->uid, &e);
			pystr_release(&e.ps);
		}
		free(k);
	}
	free(list);
	return rval;
}

static int is_python(const struct gnode *x)
{
	return x->kind == TK_PYTHON;
}

/* moe_flydsl_pseudo_ops.py */
static int moe_flydsl(struct pseudo_set *ps, struct graft *g)
{
	static const char *const stage[2][2] = {
		{ "pseudo_op::moe_flydsl_stage1", "flydsl_moe_stage1" },
		{ "pseudo_op::moe_flydsl_stage2", "flydsl_moe_stage2" },
	};

	for (int s = 0; s < 2; s++) {
		char suffix[64];
		size_t sl;
		snprintf(suffix, sizeof(suffix), ": %s", stage[s][1]);
		sl = strlen(suffix);
		for (size_t k = 0; k < graft_names(g); k++) {
			const char *nm = graft_str(g, graft_names_name(g, k));
			size_t nl = strlen(nm), n;
			const uint32_t *nodes;
			uint32_t *list;
			if (nl < sl || strcmp(nm + nl - sl, suffix))
				continue;
			nodes = graft_names_nodes(g, k, &n);
			list = xmalloc(st_mult(n + 1, sizeof(*list)));
			tl_memcpy(list, nodes, n * sizeof(*list));
			for (size_t i = 0; i < n; i++) {
				uint32_t fused;
				struct members e = { { 0 } };
				int r;
				if (!is_python(graft_at(g, list[i])))
					continue;
				if ((fused = ancestor_named(g, list[i], "aiter::fused_moe_")) == GN_NONE)
					continue;
				/* extra_args "Sequence number" replaces the donor's
				 * default (the target's parent's uid) by its own uid */
				m_str(&e, "MoE flydsl stage", stage[s][1]);
				r = above_event(ps, g, list[i], stage[s][0], fused,
						graft_at(g, fused)->uid, &e);
				pystr_release(&e.ps);
				if (r) {
					free(list);
					return -1;
				}
			}
			free(list);
		}
	}
	return 0;
}

/* DFS for the first descendant named name (_find_stage1_child) */
static uint32_t find_below(const struct graft *g, uint32_t e, const char *name)
{
	const struct gnode *x = graft_at(g, e);

	for (uint32_t k = 0; k < x->nkids; k++) {
		uint32_t c = x->kids[k], f;
		if (!strcmp(graft_name(g, c), name))
			return c;
		if ((f = find_below(g, c, name)) != GN_NONE)
			return f;
	}
	return GN_NONE;
}

/* python_function events whose name matches re, in name2event_uids order */
static uint32_t *python_named(const struct graft *g, const char *re, size_t *n)
{
	uint32_t *out = NULL;
	size_t alloc = 0;

	*n = 0;
	for (size_t k = 0; k < graft_names(g); k++) {
		size_t m;
		const uint32_t *nodes;
		if (!search(re, graft_str(g, graft_names_name(g, k))))
			continue;
		nodes = graft_names_nodes(g, k, &m);
		for (size_t i = 0; i < m; i++)
			if (is_python(graft_at(g, nodes[i]))) {
				xgrow((void **)&out, &alloc, *n + 1, sizeof(*out));
				out[(*n)++] = nodes[i];
			}
	}
	return out;
}

/* mla_decode_pseudo_ops.py, mla_prefill_pseudo_ops.py */
static int mla(struct pseudo_set *ps, struct graft *g, const char *re, const char *donor_name,
	       const char *name)
{
	size_t n;
	uint32_t *funcs = python_named(g, re, &n);
	int rval = 0;

	for (size_t i = 0; i < n && !rval; i++) {
		uint32_t donor = find_below(g, funcs[i], donor_name);
		if (donor == GN_NONE || !has_gpu(g, funcs[i]))
			continue;
		rval = wrap_children(ps, g, funcs[i], name, donor, NULL);
	}
	free(funcs);
	return rval;
}

static double num_or_zero(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s ? v : 0;
}

static const struct graft *sort_g;

/* (pid, tid, ts): numbers compared as numbers */
static int by_thread_ts(const void *a, const void *b)
{
	const struct gnode *x = graft_at(sort_g, *(const uint32_t *)a),
			   *y = graft_at(sort_g, *(const uint32_t *)b);
	const char *tx = graft_str(sort_g, x->thread), *ty = graft_str(sort_g, y->thread);
	const char *ux = strchr(tx, '\t'), *uy = strchr(ty, '\t');
	double px = num_or_zero(tx), py = num_or_zero(ty);
	double qx = ux ? num_or_zero(ux + 1) : 0, qy = uy ? num_or_zero(uy + 1) : 0;

	if (px != py)
		return px < py ? -1 : 1;
	if (qx != qy)
		return qx < qy ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

static int starts_with_any(const char *s, const char *const *p)
{
	for (; *p; p++)
		if (!strncmp(s, *p, strlen(*p)))
			return 1;
	return 0;
}

/* v4_paged_decode_pseudo_ops.py */
static int v4_paged_decode(struct pseudo_set *ps, struct graft *g, const char *model,
			   const char *tp_env)
{
	static const char *const hca[] = { "hca_compress_forward", "hca_norm_rope_scatter", "hca_", NULL };
	static const char *const csa[] = { "fused_compress_attn", "_update_compressor_states_kernel", NULL };
	size_t n;
	uint32_t *funcs = python_named(g, "paged_decode\\.py\\([0-9]+\\):[[:space:]]*sparse_attn_v4_paged_decode\\b", &n);
	long long tp = 1;
	int ok, rval = 0;

	if (tp_env) {
		tp = infer_int(tp_env, strlen(tp_env), &ok);
		if (!ok)
			tp = 1;
	}
	sort_g = g;
	if (n)
		tl_qsort(funcs, n, sizeof(*funcs), by_thread_ts);
	for (size_t i = 0; i < n && !rval; i++) {
		uint32_t attn = ancestor_named(g, funcs[i], "aiter::v4_attention_with_output"), ngev, *gev;
		const char *mode = "swa";
		long long hq = -1, dh = -1;
		struct members e = { { 0 } };
		char name[64];
		regex_t re;
		if (attn == GN_NONE || !has_gpu(g, funcs[i]))
			continue;
		gev = graft_gpu_events(g, attn, &ngev);
		for (uint32_t k = 0; k < ngev; k++)
			if (starts_with_any(graft_name(g, gev[k]), hca))
				mode = "hca";
		if (strcmp(mode, "hca"))
			for (uint32_t k = 0; k < ngev; k++)
				if (starts_with_any(graft_name(g, gev[k]), csa))
					mode = "csa";
		if (regcomp(&re, "qk_norm_rope_H([0-9]+)_D([0-9]+)_RD([0-9]+)", REG_EXTENDED))
			tl_die("internal error: qk_norm_rope pattern");
		for (uint32_t k = 0; k < ngev && hq < 0; k++) {
			regmatch_t m[4];
			const char *kn = graft_name(g, gev[k]);
			if (!regexec(&re, kn, 4, m, 0)) {
				hq = infer_int(kn + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so), &ok);
				dh = infer_int(kn + m[2].rm_so, (size_t)(m[2].rm_eo - m[2].rm_so), &ok);
			}
		}
		regfree(&re);
		free(gev);
		m_str(&e, "v4_mode", mode);
		m_int(&e, "v4_call_index", (long long)i);
		m_str(&e, "v4_model_name", model);
		m_int(&e, "v4_tp", tp);
		if (hq >= 0) {
			m_int(&e, "v4_H_Q", hq);
			m_int(&e, "v4_d_h", dh);
		}
		snprintf(name, sizeof(name), "pseudo_v4_paged_decode_%s", mode);
		rval = wrap_children(ps, g, funcs[i], name, attn, &e);
		pystr_release(&e.ps);
	}
	free(funcs);
	return rval;
}

/* normalize_sglang_profiler_op_names: sglang_profiler::X_123 → sglang_profiler::X */
static void normalize_sglang(struct graft *g)
{
	size_t n = graft_names(g), k;
	uint32_t *names = xmalloc(st_mult(n + 1, sizeof(*names)));
	regex_t re;

	if (regcomp(&re, "^(sglang_profiler::.+)_[0-9]+$", REG_EXTENDED))
		tl_die("internal error: sglang pattern");
	for (k = 0; k < n; k++)
		names[k] = graft_names_name(g, k);
	for (k = 0; k < n; k++) {
		char *old = xstrdup(graft_str(g, names[k])), *new;
		regmatch_t m[2];
		size_t cnt;
		const uint32_t *nodes = graft_named(g, old, &cnt);
		if (strncmp(old, "sglang_profiler::", 17) || regexec(&re, old, 2, m, 0) ||
		    !cnt || graft_at(g, nodes[0])->kind != TK_CPU_OP) {
			free(old);
			continue;
		}
		/* (.+?) is lazy: the suffix is the last _digits */
		new = xstrndup(old, (size_t)m[1].rm_eo);
		graft_rename(g, old, new);
		free(old);
		free(new);
	}
	regfree(&re);
	free(names);
}

struct pseudo_set *tree_pseudo_apply(struct graft *g, const char *model, const char *tp,
				     int verbose)
{
	struct pseudo_set *ps = xcalloc(1, sizeof(*ps));
	int ext[8], next = 0;
	enum { E_AITER, E_TRITON, E_GPTQ, E_FLYDSL, E_MLA_D, E_MLA_P, E_V4 };

	ps->verbose = verbose;
	normalize_sglang(g);
	if (has_name(g, "vllm::moe_forward")) {
		if (has_name(g, "vllm::rocm_aiter_fused_moe"))
			ext[next++] = E_AITER;
		else if (any_kernel(g, "matmul_ogs", 1))
			ext[next++] = E_TRITON;
	}
	if (has_name(g, "vllm::outplace_fused_experts") && any_kernel(g, "fused_moe_kernel_gptq_awq", 0))
		ext[next++] = E_GPTQ;
	if (has_name(g, "aiter::fused_moe_"))
		ext[next++] = E_FLYDSL;
	if (has_name(g, "aiter::mla_decode_stage1_asm_fwd") &&
	    any_name(g, "aiter/mla.py\\([0-9]+\\): mla_decode_fwd"))
		ext[next++] = E_MLA_D;
	if (has_name(g, "aiter::mla_prefill_ps_asm_fwd") &&
	    any_name(g, ":[[:space:]]*mla_fp8_prefill_attn(\\b|$)"))
		ext[next++] = E_MLA_P;
	if (any_name(g, "paged_decode\\.py\\([0-9]+\\):[[:space:]]*sparse_attn_v4_paged_decode\\b"))
		ext[next++] = E_V4;
	/*
	 * TraceLens 171dd74 registers an extension for these two ops whose
	 * module (paged_attn_perf_meta) it does not ship: the import raises
	 * while the list is built, and no extension runs at all.
	 */
	if (has_name(g, "_rocm_C::paged_attention") || has_name(g, "aiter::paged_attention_v1")) {
		tl_warn("pseudo ops: none injected: the trace has a paged-attention op whose TraceLens extension is missing, and TraceLens then applies no pseudo-op extension");
		return ps;
	}
	for (int i = 0; i < next; i++) {
		int r = 0;
		size_t before = ps->n;
		switch (ext[i]) {
		case E_AITER: r = moe_fused_aiter(ps, g); break;
		case E_TRITON: r = moe_unfused_triton(ps, g); break;
		case E_GPTQ: r = moe_gptq_awq(ps, g); break;
		case E_FLYDSL: r = moe_flydsl(ps, g); break;
		case E_MLA_D:
			r = mla(ps, g, "aiter/mla.py\\([0-9]+\\): mla_decode_fwd",
				"aiter::mla_decode_stage1_asm_fwd", "pseudo_mla_decode_fwd");
			break;
		case E_MLA_P:
			r = mla(ps, g, ":[[:space:]]*mla_fp8_prefill_attn(\\b|$)",
				"aiter::mla_prefill_ps_asm_fwd", "pseudo_mla_prefill_fwd");
			break;
		case E_V4: r = v4_paged_decode(ps, g, model, tp); break;
		}
		if (r)
			tl_warn("pseudo ops: an extension stopped early, as TraceLens's raises there (%zu pseudo ops from it kept)",
				ps->n - before);
		if (verbose)
			tl_warn("pseudo ops: extension %d: %zu pseudo ops", ext[i], ps->n - before);
	}
	return ps;
}
