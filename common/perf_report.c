#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_groupby.h"
#include "np_stat.h"
#include "perf_callstack.h"
#include "perf_compare.h"
#include "perf_kdetail.h"
#include "perf_report.h"
#include "py_repr.h"
#include "strpool.h"
#include "timeline.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

const char *const perf_report_names[] = {
	"gpu_timeline", "ops_summary_by_category", "ops_summary", "ops_unique_args",
	"ops_unique_args_kl_overlap", "unified_perf_summary",
	"unified_perf_summary_kl_overlap", "kernel_summary", "short_kernel_histogram",
	"short_kernels_summary", NULL
};

struct perf_report *perf_report_new(struct perf_tree *tp)
{
	struct perf_report *pr = xcalloc(1, sizeof(*pr));

	pr->tp = tp;
	pr->short_us = 10;
	pr->bins = 100;
	pr->topk = -1;
	pr->micro_us = -1;
	pr->nrepr = strpool_count(tp->ns->sp);
	pr->repr = xcalloc(pr->nrepr + 1, sizeof(*pr->repr));
	return pr;
}

void perf_report_free(struct perf_report *pr)
{
	if (!pr)
		return;
	for (size_t i = 0; i < pr->nrepr; i++)
		free(pr->repr[i]);
	free(pr->repr);
	for (size_t i = 0; pr->cstack && i < pr->tp->nlaunch; i++) {
		free(pr->cstack[i]);
		free(pr->pmodule[i]);
	}
	free(pr->cstack);
	free(pr->pmodule);
	free(pr);
}

int perf_report_known(const char *sheet)
{
	for (int i = 0; perf_report_names[i]; i++)
		if (!strcmp(perf_report_names[i], sheet))
			return 1;
	return 0;
}

/* ---- cells ---------------------------------------------------------- */

/* a row's UID as the trace numbers it: a record's uid, or past the last
 * event for the synthetic rows (numbered from ns->n on in memory) */
static int64_t printed_uid(const struct tree_nodes *ns, uint32_t row_uid)
{
	if (row_uid < ns->n)
		return tree_nodes_uid(ns, row_uid);
	return (int64_t)row_uid - (int64_t)ns->n + (int64_t)ns->nevents;
}

static const struct tree_nodes *NS(const struct perf_report *pr)
{
	return pr->tp->ns;
}

static const struct node *ND(const struct perf_report *pr, uint32_t uid)
{
	return &pr->tp->ns->node[uid];
}

static const char *nm(const struct perf_report *pr, uint32_t uid)
{
	return tree_nodes_str(NS(pr), ND(pr, uid)->name);
}

/* TraceLens's list_to_tuple(args[...]) as str(); NULL when the arg is absent. */
static const char *arg_repr(struct perf_report *pr, uint32_t id)
{
	struct pystr ps = {0};
	const char *json;

	if (id == 0 || id >= pr->nrepr)
		return NULL;
	if (pr->repr[id])
		return pr->repr[id];
	json = tree_nodes_str(NS(pr), id);
	if (py_repr_json(&ps, json, tree_nodes_len(NS(pr), id), PY_REPR_TUPLE))
		pystr_add(&ps, json, strlen(json));
	pr->repr[id] = ps.buf;
	return ps.buf;
}

static void cell_opt(struct sheet *sh, const char *s)
{
	if (s)
		sheet_str(sh, s);
	else
		sheet_empty(sh);
}

static void key_add(struct pystr *k, const char *s)
{
	if (k->len)
		pystr_addc(k, PD_GROUPBY_SEP);
	pystr_adds(k, s ? s : "None");
}

static void stream_repr(const struct perf_report *pr, uint32_t k, struct pystr *out)
{
	const struct node *n = ND(pr, k);
	if (n->flags & NF_STREAM)
		pystr_adds(out, tree_nodes_str(NS(pr), n->stream));
	else
		pystr_adds(out, "None");
}

/* ---- kernel_details summaries (§4.11) -------------------------------- */

static const char *stream_of(const struct perf_report *pr, uint32_t k)
{
	const struct node *n = ND(pr, k);
	return n->flags & NF_STREAM ? tree_nodes_str(NS(pr), n->stream) : NULL;
}

/* kernel_details entries {name, dur, stream} of GPU events (malloc'd) */
static struct kdent *kd_of(const struct perf_report *pr, const uint32_t *uids, uint32_t n)
{
	struct kdent *e = xcalloc(n + 1, sizeof(*e));

	for (uint32_t i = 0; i < n; i++) {
		e[i].name = nm(pr, uids[i]);
		e[i].stream = stream_of(pr, uids[i]);
		e[i].dur = ND(pr, uids[i])->dur;
		e[i].dur_int = (ND(pr, uids[i])->flags & NF_DUR_INT) != 0;
	}
	return e;
}

/*
 * _summarize_kernel_stats over nrows kernel lists (GPU event uids): the
 * kernel_details_summary cell into full, trunc_kernel_details into trunc
 * (nothing when every list is empty).
 */
static void kernel_summary_cells(const struct perf_report *pr, uint32_t *const *lists,
				 const uint32_t *lens, size_t nrows,
				 struct pystr *full, struct pystr *trunc)
{
	struct kdent **kd = xmalloc(st_mult(nrows + 1, sizeof(*kd)));
	struct kdsum s;
	size_t r;

	for (r = 0; r < nrows; r++)
		kd[r] = kd_of(pr, lists[r], lens[r]);
	kdetail_summarize((const struct kdent *const *)kd, lens, nrows, &s);
	kdetail_full(&s, 0, full);
	kdetail_trunc(&s, trunc);
	kdetail_release(&s);
	for (r = 0; r < nrows; r++)
		free(kd[r]);
	free(kd);
}

void perf_report_kernel_cells(const struct perf_report *pr, uint32_t *const *lists,
			     const uint32_t *lens, size_t nrows,
			     struct pystr *full, struct pystr *trunc)
{
	kernel_summary_cells(pr, lists, lens, nrows, full, trunc);
}

/* ---- shared aggregation helpers -------------------------------------- */

struct agg {
	double mean, median, std, min, max, sum;
};

static void aggregate(double *x, size_t n, struct agg *a)
{
	a->sum = pd_gsum(x, n);
	a->mean = pd_mean(x, n);
	a->std = pd_gstd(x, n);
	a->min = np_min(x, n);
	a->max = np_max(x, n);
	a->median = pd_median(x, n);	/* reorders x: last */
}

/* order[] of n groups by value desc (stable: ties keep group order) */
static const double *sort_val;
static const uint32_t *sort_tie;

static int cmp_desc(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (sort_val[x] != sort_val[y])
		return sort_val[x] > sort_val[y] ? -1 : 1;
	if (sort_tie && sort_tie[x] != sort_tie[y])
		return sort_tie[x] < sort_tie[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static size_t *order_desc(const double *val, const uint32_t *tie, size_t n)
{
	if (!tie) {
		/* sort_values(one column): numpy quicksort, ties as pandas has them */
		size_t *p = xmalloc(st_mult(n ? n : 1, sizeof(*p)));
		pd_argsort_desc(val, p, n);
		return p;
	}
	size_t *o = xmalloc(st_mult(n ? n : 1, sizeof(*o)));
	for (size_t i = 0; i < n; i++)
		o[i] = i;
	sort_val = val;
	sort_tie = tie;
	tl_qsort(o, n, sizeof(*o), cmp_desc);
	sort_tie = NULL;
	return o;
}

static void percent_cells(struct sheet *sh, double v, double total, double *cum)
{
	double p = v / total * 100;
	*cum += p;
	sheet_float(sh, p);
	sheet_float(sh, *cum);
}

/* ---- column lists ------------------------------------------------------ */

/* a header built column by column (options add columns in TraceLens's places) */
struct cols {
	const char *c[96];
	size_t n;
};

static void col(struct cols *h, const char *name)
{
	if (h->n < sizeof(h->c) / sizeof(h->c[0]))
		h->c[h->n++] = name;
}

static int rc_of(const struct perf_report *pr, uint32_t uid)
{
	return pr->tp->rc && pr->tp->rc[uid];
}

static void key_bool(struct pystr *k, int b)
{
	key_add(k, b ? "True" : "False");
}

/* Percentage (%) and Cumulative Percentage (%) of values already in sheet
 * order: Series.sum() (numpy's pairwise sum), then a running sum */
static double sorted_total(const double *v, const size_t *o, size_t n, double scale)
{
	double *x = xmalloc(st_mult(n + 1, sizeof(*x))), t;

	for (size_t i = 0; i < n; i++)
		x[i] = v[o ? o[i] : i] / scale;
	t = np_sum(x, n);
	free(x);
	return t;
}

/* ---- ops_summary, ops_summary_by_category (§4.5) ---------------------- */

/* groupby(["name"(, "is_recompute")]) or by op category: sorted keys, Kahan
 * sums of the launchers' direct (and subtree) times in launcher order */
static struct pd_groupby *launcher_groups(struct perf_report *pr, int by_cat)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = {0};

	for (size_t i = 0; i < tp->nlaunch; i++) {
		const struct launcher *L = &tp->launch[i];
		pystr_reset(&k);
		key_add(&k, by_cat ? L->category : nm(pr, L->uid));
		if (tp->rc)
			key_bool(&k, rc_of(pr, L->uid));
		pd_groupby_add(g, k.buf, k.len, i);
	}
	pystr_release(&k);
	return g;
}

static double launcher_gsum(const struct perf_tree *tp, const size_t *rows, size_t n, int subtree)
{
	double *v = xmalloc(st_mult(n + 1, sizeof(*v))), s;

	for (size_t j = 0; j < n; j++)
		v[j] = subtree ? tp->launch[rows[j]].subtree_us : tp->launch[rows[j]].direct_us;
	s = pd_gsum(v, n);
	free(v);
	return s;
}

static int write_ops_summary(struct perf_report *pr, struct sheet *sh)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = launcher_groups(pr, 0);
	struct cols h = {0};
	size_t ng, *keyorder, *o, i, j, n;
	double *dsum, *ssum, total, cum = 0;

	col(&h, "name");
	if (tp->rc)
		col(&h, "is_recompute");
	col(&h, "total_direct_kernel_time_sum");
	col(&h, "total_subtree_kernel_time_sum");
	col(&h, "total_direct_kernel_time_ms");
	col(&h, "total_subtree_kernel_time_ms");
	col(&h, "Count");
	col(&h, "Categories");
	col(&h, "Percentage (%)");
	col(&h, "Cumulative Percentage (%)");
	ng = pd_groupby_count(g);
	keyorder = pd_groupby_sorted(g);
	dsum = xcalloc(ng + 1, sizeof(*dsum));
	ssum = xcalloc(ng + 1, sizeof(*ssum));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[i], &n);
		dsum[i] = launcher_gsum(tp, rows, n, 0);
		ssum[i] = launcher_gsum(tp, rows, n, 1);
	}
	o = order_desc(dsum, NULL, ng);
	total = sorted_total(dsum, o, ng, 1000);
	sheet_header(sh, h.c, h.n);
	for (i = 0; i < ng; i++) {
		size_t gi = keyorder[o[i]];
		const size_t *rows = pd_groupby_rows(g, gi, &n);
		const struct launcher *L0 = &tp->launch[rows[0]];
		struct pd_groupby *cats = pd_groupby_new();
		size_t *co;
		struct pystr ps = {0};
		sheet_str(sh, nm(pr, L0->uid));
		if (tp->rc)
			sheet_bool(sh, rc_of(pr, L0->uid));
		sheet_float(sh, dsum[o[i]]);
		sheet_float(sh, ssum[o[i]]);
		sheet_float(sh, dsum[o[i]] / 1000);
		sheet_float(sh, ssum[o[i]] / 1000);
		sheet_int(sh, (int64_t)n);
		for (j = 0; j < n; j++)
			pd_groupby_add(cats, tp->launch[rows[j]].category,
				    strlen(tp->launch[rows[j]].category), j);
		co = pd_groupby_sorted(cats);
		pystr_addc(&ps, '[');
		for (j = 0; j < pd_groupby_count(cats); j++) {
			const char *c = pd_groupby_key(cats, co[j]);
			if (j)
				pystr_adds(&ps, ", ");
			py_repr_str(&ps, c, strlen(c));
		}
		pystr_addc(&ps, ']');
		sheet_strn(sh, ps.buf, ps.len);
		percent_cells(sh, dsum[o[i]] / 1000, total, &cum);
		sheet_endrow(sh);
		pystr_release(&ps);
		free(co);
		pd_groupby_free(cats);
	}
	free(o);
	free(dsum);
	free(ssum);
	free(keyorder);
	pd_groupby_free(g);
	return 0;
}

static int write_ops_by_category(struct perf_report *pr, struct sheet *sh)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = launcher_groups(pr, 1);
	struct cols h = {0};
	size_t ng, *keyorder, *o, i, n;
	double *dsum, total, cum = 0;

	col(&h, "op category");
	if (tp->rc)
		col(&h, "is_recompute");
	col(&h, "Count");
	col(&h, "total_direct_kernel_time_ms");
	col(&h, "Percentage (%)");
	col(&h, "Cumulative Percentage (%)");
	ng = pd_groupby_count(g);
	keyorder = pd_groupby_sorted(g);
	dsum = xcalloc(ng + 1, sizeof(*dsum));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[i], &n);
		dsum[i] = launcher_gsum(tp, rows, n, 0);
	}
	o = order_desc(dsum, NULL, ng);
	total = sorted_total(dsum, o, ng, 1000);
	sheet_header(sh, h.c, h.n);
	for (i = 0; i < ng; i++) {
		size_t gi = keyorder[o[i]];
		const size_t *rows = pd_groupby_rows(g, gi, &n);
		sheet_str(sh, tp->launch[rows[0]].category);
		if (tp->rc)
			sheet_bool(sh, rc_of(pr, tp->launch[rows[0]].uid));
		sheet_int(sh, (int64_t)n);
		sheet_float(sh, dsum[o[i]] / 1000);
		percent_cells(sh, dsum[o[i]] / 1000, total, &cum);
		sheet_endrow(sh);
	}
	free(o);
	free(dsum);
	free(keyorder);
	pd_groupby_free(g);
	return 0;
}

/* ---- the inference report's *_module sheets ---------------------------- */

/* call_stack and parent_module of launcher li (get_df_kernel_launchers with
 * include_call_stack, which --group_by_parent_module turns on) */
static void launcher_stack(struct perf_report *pr, size_t li)
{
	struct pystr cs = { 0 }, pm = { 0 };

	if (!pr->cstack) {
		pr->cstack = xcalloc(pr->tp->nlaunch + 1, sizeof(*pr->cstack));
		pr->pmodule = xcalloc(pr->tp->nlaunch + 1, sizeof(*pr->pmodule));
	}
	if (pr->cstack[li])
		return;
	perf_callstack(pr->tp, pr->tp->launch[li].uid, &cs, &pm);
	pr->cstack[li] = cs.buf;
	pr->pmodule[li] = pm.buf ? pm.buf : xstrdup("");
}

static const char *parent_module(struct perf_report *pr, size_t li)
{
	launcher_stack(pr, li);
	return pr->pmodule[li];
}

static const char *call_stack(struct perf_report *pr, size_t li)
{
	launcher_stack(pr, li);
	return pr->cstack[li];
}

/* pandas' groupby sum: Kahan-compensated, rows in order */
static void kahan_add(double *sum, double *comp, double v)
{
	double y = v - *comp, t = *sum + y;

	*comp = (t - *sum) - y;
	*sum = t;
}

/* groupby(["name"/"op category"(, "parent_module")]) with pandas' sorted keys */
static struct pd_groupby *module_groups(struct perf_report *pr, int by_category)
{
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = { 0 };

	for (size_t i = 0; i < pr->tp->nlaunch; i++) {
		pystr_reset(&k);
		key_add(&k, by_category ? pr->tp->launch[i].category : nm(pr, pr->tp->launch[i].uid));
		if (pr->parent_module)
			key_add(&k, parent_module(pr, i));
		pd_groupby_add(g, k.buf, k.len, i);
	}
	pystr_release(&k);
	return g;
}

/* the categories of a group as TraceLens prints set → sorted list */
static void categories_cell(struct perf_report *pr, struct sheet *sh, const size_t *rows, size_t n)
{
	struct pd_groupby *cats = pd_groupby_new();
	struct pystr ps = { 0 };
	size_t *co;

	for (size_t j = 0; j < n; j++)
		pd_groupby_add(cats, pr->tp->launch[rows[j]].category,
			       strlen(pr->tp->launch[rows[j]].category), j);
	co = pd_groupby_sorted(cats);
	pystr_addc(&ps, '[');
	for (size_t j = 0; j < pd_groupby_count(cats); j++) {
		const char *c = pd_groupby_key(cats, co[j]);
		if (j)
			pystr_adds(&ps, ", ");
		py_repr_str(&ps, c, strlen(c));
	}
	pystr_addc(&ps, ']');
	sheet_strn(sh, ps.buf, ps.len);
	pystr_release(&ps);
	free(co);
	pd_groupby_free(cats);
}

/* get_df_kernel_launchers_summary_module */
static int write_ops_summary_module(struct perf_report *pr, struct sheet *sh)
{
	const char *cols[11];
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = module_groups(pr, 0);
	size_t ng = pd_groupby_count(g), *keyorder = pd_groupby_sorted(g), *o, i, j, n, nc = 0;
	double *dsum = xcalloc(ng + 1, sizeof(*dsum)), *ssum = xcalloc(ng + 1, sizeof(*ssum));
	double total = 0, cum = 0;

	cols[nc++] = "name";
	if (pr->parent_module)
		cols[nc++] = "parent_module";
	cols[nc++] = "total_direct_kernel_time_sum";
	cols[nc++] = "total_subtree_kernel_time_sum";
	cols[nc++] = "total_subtree_kernel_time_count";
	cols[nc++] = "total_direct_kernel_time_ms";
	cols[nc++] = "Count";
	cols[nc++] = "Categories";
	if (pr->parent_module)
		cols[nc++] = "call_stack_first";
	cols[nc++] = "Percentage (%)";
	cols[nc++] = "Cumulative Percentage (%)";
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[i], &n);
		double dc = 0, sc = 0;
		for (j = 0; j < n; j++) {
			kahan_add(&dsum[i], &dc, tp->launch[rows[j]].direct_us);
			kahan_add(&ssum[i], &sc, tp->launch[rows[j]].subtree_us);
		}
		total += dsum[i] / 1000;
	}
	o = order_desc(dsum, NULL, ng);
	sheet_header(sh, cols, nc);
	for (i = 0; i < ng; i++) {
		size_t gi = keyorder[o[i]];
		const size_t *rows = pd_groupby_rows(g, gi, &n);
		sheet_str(sh, nm(pr, tp->launch[rows[0]].uid));
		if (pr->parent_module)
			sheet_str(sh, parent_module(pr, rows[0]));
		sheet_float(sh, dsum[o[i]]);
		sheet_float(sh, ssum[o[i]]);
		sheet_int(sh, (int64_t)n);
		sheet_float(sh, dsum[o[i]] / 1000);
		sheet_int(sh, (int64_t)n);
		categories_cell(pr, sh, rows, n);
		if (pr->parent_module)
			sheet_str(sh, call_stack(pr, rows[0]));
		percent_cells(sh, dsum[o[i]] / 1000, total, &cum);
		sheet_endrow(sh);
	}
	free(o);
	free(dsum);
	free(ssum);
	free(keyorder);
	pd_groupby_free(g);
	return 0;
}

/* get_df_kernel_launchers_summary_by_category_module */
static int write_ops_by_category_module(struct perf_report *pr, struct sheet *sh)
{
	const char *cols[7];
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = module_groups(pr, 1);
	size_t ng = pd_groupby_count(g), *keyorder = pd_groupby_sorted(g), *o, i, j, n, nc = 0;
	double *dsum = xcalloc(ng + 1, sizeof(*dsum)), total = 0, cum = 0;

	cols[nc++] = "op category";
	if (pr->parent_module)
		cols[nc++] = "parent_module";
	cols[nc++] = "Count";
	if (pr->parent_module)
		cols[nc++] = "call_stack_first";
	cols[nc++] = "total_direct_kernel_time_ms";
	cols[nc++] = "Percentage (%)";
	cols[nc++] = "Cumulative Percentage (%)";
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[i], &n);
		double dc = 0;
		for (j = 0; j < n; j++)
			kahan_add(&dsum[i], &dc, tp->launch[rows[j]].direct_us);
		total += dsum[i] / 1000;
	}
	o = order_desc(dsum, NULL, ng);
	sheet_header(sh, cols, nc);
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[o[i]], &n);
		sheet_str(sh, tp->launch[rows[0]].category);
		if (pr->parent_module)
			sheet_str(sh, parent_module(pr, rows[0]));
		sheet_int(sh, (int64_t)n);
		if (pr->parent_module)
			sheet_str(sh, call_stack(pr, rows[0]));
		sheet_float(sh, dsum[o[i]] / 1000);
		percent_cells(sh, dsum[o[i]] / 1000, total, &cum);
		sheet_endrow(sh);
	}
	free(o);
	free(dsum);
	free(keyorder);
	pd_groupby_free(g);
	return 0;
}

/* ---- ops_unique_args (§4.5) ------------------------------------------ */

/* The grouping columns TraceLens shares between ops_unique_args and unified
 * (ovl: the str() of overlapping_kernel_names after the name, kl_overlap
 * sheets; NULL otherwise). */
static void group_key(struct perf_report *pr, uint32_t uid, const char *name,
		      const char *cat, const char *const *ovl, struct pystr *k)
{
	const struct node *n = ND(pr, uid);

	pystr_reset(k);
	key_add(k, name);
	if (ovl)
		key_add(k, *ovl);
	key_add(k, cat);
	key_add(k, tree_nodes_process_name(NS(pr), n));
	key_add(k, tree_nodes_process_label(NS(pr), n));
	key_add(k, tree_nodes_thread_name(NS(pr), n));
	key_add(k, arg_repr(pr, n->dims));
	key_add(k, arg_repr(pr, n->types));
	key_add(k, arg_repr(pr, n->strides));
	key_add(k, arg_repr(pr, n->concrete));
}

/* grouping columns' "first" values: the first non-missing arg of the group;
 * pmod: the parent_module column, NULL for none */
static void group_cells(struct perf_report *pr, struct sheet *sh, const char *name,
			const char *cat, const char *const *ovl, const char *pmod,
			const uint32_t *uids, size_t n)
{
	const struct node *f = ND(pr, uids[0]);

	sheet_str(sh, name);
	if (ovl)
		cell_opt(sh, *ovl);
	sheet_str(sh, cat);
	if (pmod)
		sheet_str(sh, pmod);
	sheet_str(sh, tree_nodes_process_name(NS(pr), f));
	sheet_str(sh, tree_nodes_process_label(NS(pr), f));
	sheet_str(sh, tree_nodes_thread_name(NS(pr), f));
	for (int a = 0; a < 4; a++) {
		const char *v = NULL;
		for (size_t i = 0; i < n && !v; i++) {
			const struct node *x = ND(pr, uids[i]);
			uint32_t id = a == 0 ? x->dims : a == 1 ? x->types : a == 2 ? x->strides : x->concrete;
			v = arg_repr(pr, id);
		}
		cell_opt(sh, v);
	}
}

static void agg_pair_cells(struct sheet *sh, const struct agg *d, const struct agg *s)
{
	sheet_float(sh, d->mean); sheet_float(sh, s->mean);
	sheet_float(sh, d->median); sheet_float(sh, s->median);
	sheet_float(sh, d->std); sheet_float(sh, s->std);
	sheet_float(sh, d->min); sheet_float(sh, s->min);
	sheet_float(sh, d->max); sheet_float(sh, s->max);
	sheet_float(sh, d->sum); sheet_float(sh, s->sum);
}

static void unique_args_header(const struct perf_report *pr, struct cols *h, int kl)
{
	static const char *const pairs[] = { "total_direct_kernel_time_mean",
		"total_subtree_kernel_time_mean", "total_direct_kernel_time_median",
		"total_subtree_kernel_time_median", "total_direct_kernel_time_std",
		"total_subtree_kernel_time_std", "total_direct_kernel_time_min",
		"total_subtree_kernel_time_min", "total_direct_kernel_time_max",
		"total_subtree_kernel_time_max", "total_direct_kernel_time_sum",
		"total_subtree_kernel_time_sum" };
	static const char *const args[] = { "op category", "process_name",
		"process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
		"Concrete Inputs" };

	col(h, "name");
	if (kl)
		col(h, "overlapping_kernel_names");
	for (size_t i = 0; i < 8; i++) {
		col(h, args[i]);
		if (i == 0 && pr->parent_module)
			col(h, "parent_module");
	}
	if (pr->num_kernels)
		col(h, "num_kernels");
	if (pr->tp->rc)
		col(h, "is_recompute");
	col(h, "operation_count");
	if (pr->first_occurrence)
		col(h, "first_occurrence_time");
	for (size_t i = 0; i < 12; i++)
		col(h, pairs[i]);
	col(h, "ex_UID");
	if (pr->parent_module)
		col(h, "call_stack");
	col(h, "kernel_details_summary");
	col(h, "trunc_kernel_details");
	if (kl) {
		col(h, "overlapping_kernels_details_summary");
		col(h, "trunc_overlapping_kernels_details");
		col(h, "overlap_pct_mean");
		col(h, "overlap_pct_median");
		col(h, "overlap_pct_std");
		col(h, "overlap_pct_min");
		col(h, "overlap_pct_max");
	}
	col(h, "Percentage (%)");
	col(h, "Cumulative Percentage (%)");
}

/* overlapping_kernels_details entries of n infos (one list per row) */
static struct kdent *ov_kd(const struct overlap_info *ov, char ***extra)
{
	struct kdent *e = xcalloc(ov->ndet + 1, sizeof(*e));

	*extra = xcalloc(ov->ndet + 1, sizeof(**extra));
	for (size_t i = 0; i < ov->ndet; i++) {
		struct pystr x = {0};
		e[i].name = ov->det[i].name;
		e[i].stream = ov->det[i].stream;
		e[i].dur = ov->det[i].dur;
		pystr_adds(&x, ", 'overlap_pct': ");
		py_repr_float(&x, ov->det[i].pct);
		(*extra)[i] = x.buf;
		e[i].extra = x.buf;
	}
	return e;
}

/* overlapping_kernels_details_summary and its trunc cell over n rows */
static void overlap_summary_cells(struct sheet *sh, const struct overlap_info *const *ov, size_t n)
{
	struct kdent **kd = xmalloc(st_mult(n + 1, sizeof(*kd)));
	char ***ex = xmalloc(st_mult(n + 1, sizeof(*ex)));
	uint32_t *lens = xmalloc(st_mult(n + 1, sizeof(*lens)));
	struct pystr full = {0}, trunc = {0};
	struct kdsum s;

	for (size_t r = 0; r < n; r++) {
		kd[r] = ov_kd(ov[r], &ex[r]);
		lens[r] = (uint32_t)ov[r]->ndet;
	}
	kdetail_summarize((const struct kdent *const *)kd, lens, n, &s);
	kdetail_full(&s, 1, &full);
	kdetail_trunc(&s, &trunc);
	sheet_strn(sh, full.buf, full.len);
	sheet_strn(sh, trunc.buf ? trunc.buf : "", trunc.len);
	kdetail_release(&s);
	for (size_t r = 0; r < n; r++) {
		for (size_t i = 0; i < ov[r]->ndet; i++)
			free(ex[r][i]);
		free(ex[r]);
		free(kd[r]);
	}
	pystr_release(&full);
	pystr_release(&trunc);
	free(kd);
	free(ex);
	free(lens);
}

/* overlap_pct_mean ... _max over the rows' overlap_pct (None skipped);
 * round2: the per-category and unified sheets round them and fill a
 * missing std with 0.0 where there is a mean */
static void overlap_pct_cells(struct sheet *sh, const struct overlap_info *const *ov, size_t n,
			      int round2)
{
	double *v = xmalloc(st_mult(n + 1, sizeof(*v)));
	size_t m = 0;
	struct agg a;

	for (size_t r = 0; r < n; r++)
		if (ov[r]->pct == ov[r]->pct)
			v[m++] = ov[r]->pct;
	aggregate(v, m, &a);
	if (!m)
		a.mean = a.min = a.max = NAN;
	if (round2) {
		a.mean = np_round(a.mean, 2);
		a.median = np_round(a.median, 2);
		a.std = np_round(a.std, 2);
		a.min = np_round(a.min, 2);
		a.max = np_round(a.max, 2);
		if (a.std != a.std && a.mean == a.mean)
			a.std = 0.0;
	}
	sheet_float(sh, a.mean);
	sheet_float(sh, a.median);
	sheet_float(sh, a.std);
	sheet_float(sh, a.min);
	sheet_float(sh, a.max);
	free(v);
}

void perf_report_overlap_cells(struct sheet *sh, const struct overlap_info *const *ov, size_t n,
			       int round2)
{
	overlap_summary_cells(sh, ov, n);
	overlap_pct_cells(sh, ov, n, round2);
}

static const struct overlap_info no_overlap = { NULL, NULL, 0, NAN };

const struct overlap_info *perf_report_no_overlap(void)
{
	return &no_overlap;
}

static const struct overlap_info *launcher_ov(const struct perf_tree *tp, const struct launcher *L)
{
	return tp->launch_ov ? &tp->launch_ov[L - tp->launch] : &no_overlap;
}

static void unique_args_row(struct perf_report *pr, struct sheet *sh, const size_t *rows,
			    size_t n, int kl, double ts0, double total, double *cum)
{
	const struct perf_tree *tp = pr->tp;
	double *dv = xmalloc(st_mult(n, sizeof(double))), *sv = xmalloc(st_mult(n, sizeof(double)));
	uint32_t *uids = xmalloc(st_mult(n, sizeof(*uids))), **lists = xmalloc(st_mult(n, sizeof(*lists)));
	uint32_t *lens = xmalloc(st_mult(n, sizeof(*lens)));
	const struct overlap_info **ov = xmalloc(st_mult(n, sizeof(*ov)));
	const struct launcher *L0 = &tp->launch[rows[0]];
	const struct overlap_info *ov0 = launcher_ov(tp, L0);
	struct pystr full = {0}, trunc = {0};
	struct agg da, sa;
	double tsmin = INFINITY;

	for (size_t j = 0; j < n; j++) {
		const struct launcher *L = &tp->launch[rows[j]];
		dv[j] = L->direct_us;
		sv[j] = L->subtree_us;
		uids[j] = L->uid;
		lists[j] = L->kern;
		lens[j] = L->nkern;
		ov[j] = launcher_ov(tp, L);
		if (ND(pr, L->uid)->ts < tsmin)
			tsmin = ND(pr, L->uid)->ts;
	}
	aggregate(dv, n, &da);
	aggregate(sv, n, &sa);
	group_cells(pr, sh, nm(pr, L0->uid), L0->category, kl ? (const char *const *)&ov0->names : NULL,
		    pr->parent_module ? parent_module(pr, rows[0]) : NULL, uids, n);
	if (pr->num_kernels)
		sheet_int(sh, L0->nkern);
	if (tp->rc)
		sheet_bool(sh, rc_of(pr, L0->uid));
	sheet_int(sh, (int64_t)n);
	if (pr->first_occurrence)
		sheet_float(sh, tsmin - ts0);
	agg_pair_cells(sh, &da, &sa);
	sheet_int(sh, tree_nodes_uid(NS(pr), L0->uid));
	if (pr->parent_module)
		sheet_str(sh, call_stack(pr, rows[0]));
	kernel_summary_cells(pr, lists, lens, n, &full, &trunc);
	sheet_strn(sh, full.buf, full.len);
	sheet_strn(sh, trunc.buf ? trunc.buf : "", trunc.len);
	if (kl) {
		overlap_summary_cells(sh, ov, n);
		overlap_pct_cells(sh, ov, n, 0);
	}
	percent_cells(sh, da.sum, total, cum);
	sheet_endrow(sh);
	pystr_release(&full);
	pystr_release(&trunc);
	free(dv); free(sv); free(uids); free(lists); free(lens); free(ov);
}

/* ops_unique_args, and with kl its _kl_overlap twin grouped by the
 * overlapping kernels' names too */
static struct pd_groupby *unique_groups(struct perf_report *pr, int kl)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = {0};

	for (size_t i = 0; i < tp->nlaunch; i++) {
		const struct launcher *L = &tp->launch[i];
		const struct overlap_info *ov = launcher_ov(tp, L);
		const char *ovs = ov->names ? ov->names : "None";
		char num[24];
		group_key(pr, L->uid, nm(pr, L->uid), L->category, kl ? &ovs : NULL, &k);
		if (pr->parent_module)
			key_add(&k, parent_module(pr, i));
		if (pr->num_kernels) {
			snprintf(num, sizeof(num), "%u", L->nkern);
			key_add(&k, num);
		}
		if (tp->rc)
			key_bool(&k, rc_of(pr, L->uid));
		pd_groupby_add(g, k.buf, k.len, i);
	}
	pystr_release(&k);
	return g;
}

static int write_unique_args(struct perf_report *pr, struct sheet *sh, int kl)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = unique_groups(pr, kl);
	struct cols h = {0};
	size_t ng, i, j, n, *o;
	double *dsum, total, cum = 0, ts0 = INFINITY;
	uint32_t *exuid;

	ng = pd_groupby_count(g);
	dsum = xcalloc(ng + 1, sizeof(*dsum));
	exuid = xcalloc(ng + 1, sizeof(*exuid));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &n);
		dsum[i] = launcher_gsum(tp, rows, n, 0);
		exuid[i] = tp->launch[rows[0]].uid;
		/* min over groups of the min ts of a group: every launcher */
		for (j = 0; j < n; j++)
			if (ND(pr, tp->launch[rows[j]].uid)->ts < ts0)
				ts0 = ND(pr, tp->launch[rows[j]].uid)->ts;
	}
	o = order_desc(dsum, exuid, ng);
	total = sorted_total(dsum, o, ng, 1);
	unique_args_header(pr, &h, kl);
	sheet_header(sh, h.c, h.n);
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, o[i], &n);
		unique_args_row(pr, sh, rows, n, kl, ts0, total, &cum);
	}
	free(o);
	free(dsum);
	free(exuid);
	pd_groupby_free(g);
	return 0;
}

size_t perf_report_unique_groups(struct perf_report *pr, uint32_t **exuid, size_t **count)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = unique_groups(pr, 0);
	size_t ng = pd_groupby_count(g), n, *o;
	double *dsum = xcalloc(ng + 1, sizeof(*dsum));
	uint32_t *ex = xcalloc(ng + 1, sizeof(*ex));

	for (size_t i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &n);
		dsum[i] = launcher_gsum(tp, rows, n, 0);
		ex[i] = tp->launch[rows[0]].uid;
	}
	o = order_desc(dsum, ex, ng);
	*exuid = xcalloc(ng + 1, sizeof(**exuid));
	*count = xcalloc(ng + 1, sizeof(**count));
	for (size_t i = 0; i < ng; i++) {
		pd_groupby_rows(g, o[i], &n);
		(*exuid)[i] = ex[o[i]];
		(*count)[i] = n;
	}
	free(o);
	free(dsum);
	free(ex);
	pd_groupby_free(g);
	return ng;
}

static int write_ops_unique_args(struct perf_report *pr, struct sheet *sh)
{
	return write_unique_args(pr, sh, 0);
}

static int write_ops_unique_args_kl(struct perf_report *pr, struct sheet *sh)
{
	return write_unique_args(pr, sh, 1);
}

/* ---- kernel_summary (§4.8) ------------------------------------------- */

/* One row of TraceLens's get_df_kernels: a kernel and its parent op. */
struct krow {
	uint32_t uid;
	int32_t cpu;		/* first cpu_op above, -1 */
	const char *cat;	/* Parent op category, NULL = NaN */
	const char *parent;	/* Parent cpu_op (or the launcher), NULL = NaN */
};

static struct krow *kernel_rows(struct perf_report *pr, size_t *nrows, int *has_cpu)
{
	const struct tree_nodes *ns = NS(pr);
	struct krow *r = NULL;
	size_t alloc = 0, n = 0;

	*has_cpu = 0;
	for (size_t i = 0; i < ns->n; i++) {
		const struct node *k = &ns->node[i];
		struct krow *x;
		if (k->cat != NC_KERNEL)
			continue;
		xgrow((void **)&r, &alloc, n + 1, sizeof(*r));
		x = &r[n++];
		x->uid = (uint32_t)i;
		x->cpu = perf_tree_cpu_op_above(pr->tp, (uint32_t)i);
		x->cat = NULL;
		x->parent = NULL;
		if (x->cpu >= 0) {
			*has_cpu = 1;
			x->cat = perf_tree_category(pr->tp, (uint32_t)x->cpu);
			x->parent = nm(pr, (uint32_t)x->cpu);
		} else if (k->parent >= 0) {
			const char *l = nm(pr, (uint32_t)k->parent);
			x->parent = l;
			if (strcasestr(l, "cudagraph") || strcasestr(l, "graphlaunch"))
				x->cat = "graph";
			else if (*l)
				x->cat = "runtime";
		}
	}
	*nrows = n;
	return r;
}

static int cmp_nullstr(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;		/* NaN sorts last */
	return strcmp(a, b);
}

static int cmp_stream(const struct perf_report *pr, uint32_t a, uint32_t b)
{
	const struct node *x = ND(pr, a), *y = ND(pr, b);
	int hx = x->flags & NF_STREAM, hy = y->flags & NF_STREAM;
	double sx, sy;
	if (!hx || !hy)
		return !hx - !hy;
	sx = strtod(tree_nodes_str(NS(pr), x->stream), NULL);
	sy = strtod(tree_nodes_str(NS(pr), y->stream), NULL);
	return (sx > sy) - (sx < sy);
}

static const struct krow *ks_rows;
static const struct perf_report *ks_pr;
static const struct pd_groupby *ks_g;

/* groupby(sort=True): by category, parent, kernel name, stream; NaN last */
static int cmp_kgroup(const void *a, const void *b)
{
	size_t n;
	const struct krow *x = &ks_rows[pd_groupby_rows(ks_g, *(const size_t *)a, &n)[0]];
	const struct krow *y = &ks_rows[pd_groupby_rows(ks_g, *(const size_t *)b, &n)[0]];
	int c = cmp_nullstr(x->cat, y->cat);
	if (!c)
		c = cmp_nullstr(x->parent, y->parent);
	if (!c)
		c = strcmp(nm(ks_pr, x->uid), nm(ks_pr, y->uid));
	if (!c)
		c = cmp_stream(ks_pr, x->uid, y->uid);
	return c;
}

static int write_kernel_summary(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cols[] = { "Parent op category", "Parent cpu_op",
		"Kernel name", "Kernel stream", "Kernel duration (µs)_sum",
		"Kernel duration (µs)_count", "Kernel duration (µs)_mean",
		"Kernel duration (µs)_min", "Kernel duration (µs)_max",
		"Percent of kernels time (%)", "Percent of total time (%)" };
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = {0};
	size_t nr, ng, i, j, n, *keyo, *o;
	int has_cpu;
	struct krow *r = kernel_rows(pr, &nr, &has_cpu);
	double *sum, all = 0, total_ms = pr->tp->total_us / 1e3;
	double *d;

	for (i = 0; i < nr; i++) {
		pystr_reset(&k);
		key_add(&k, r[i].cat ? r[i].cat : "\x1eNaN");
		key_add(&k, r[i].parent ? r[i].parent : "\x1eNaN");
		key_add(&k, nm(pr, r[i].uid));
		pystr_addc(&k, PD_GROUPBY_SEP);
		stream_repr(pr, r[i].uid, &k);
		pd_groupby_add(g, k.buf, k.len, i);
	}
	/* df_kernels["Kernel duration (µs)"].sum(): numpy's pairwise sum, in
	 * row (uid) order */
	d = xmalloc(st_mult(nr + 1, sizeof(*d)));
	for (i = 0; i < nr; i++)
		d[i] = ND(pr, r[i].uid)->dur;
	all = np_sum(d, nr);
	ng = pd_groupby_count(g);
	keyo = xmalloc(st_mult(ng + 1, sizeof(*keyo)));
	for (i = 0; i < ng; i++)
		keyo[i] = i;
	ks_rows = r; ks_pr = pr; ks_g = g;
	tl_qsort(keyo, ng, sizeof(*keyo), cmp_kgroup);
	sum = xcalloc(ng + 1, sizeof(*sum));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyo[i], &n);
		for (j = 0; j < n; j++)
			d[j] = ND(pr, r[rows[j]].uid)->dur;
		sum[i] = pd_gsum(d, n);
	}
	o = order_desc(sum, NULL, ng);
	for (i = 0; i < 11; i++)
		if (has_cpu || i != 1)
		sheet_str(sh, cols[i]);
	sheet_endrow(sh);
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyo[o[i]], &n);
		const struct krow *x = &r[rows[0]];
		struct pystr s = {0};
		for (j = 0; j < n; j++)
			d[j] = ND(pr, r[rows[j]].uid)->dur;
		cell_opt(sh, x->cat);
		if (has_cpu)
			cell_opt(sh, x->parent);
		sheet_str(sh, nm(pr, x->uid));
		if (ND(pr, x->uid)->flags & NF_STREAM) {
			stream_repr(pr, x->uid, &s);
			sheet_strn(sh, s.buf, s.len);
		} else {
			sheet_empty(sh);
		}
		sheet_float(sh, sum[o[i]]);
		sheet_int(sh, (int64_t)n);
		sheet_float(sh, sum[o[i]] / (double)n);	/* group_mean: the Kahan sum / n */
		sheet_float(sh, np_min(d, n));
		sheet_float(sh, np_max(d, n));
		sheet_float(sh, sum[o[i]] / all * 100);
		sheet_float(sh, sum[o[i]] / (total_ms * 1e3) * 100);
		sheet_endrow(sh);
		pystr_release(&s);
	}
	free(d);
	free(o);
	free(sum);
	free(keyo);
	free(r);
	pystr_release(&k);
	pd_groupby_free(g);
	return 0;
}

/* ---- short kernels (§4.9) -------------------------------------------- */

static double *short_durs(struct perf_report *pr, size_t *n)
{
	const struct tree_nodes *ns = NS(pr);
	double *d = xmalloc(st_mult(ns->n + 1, sizeof(*d)));

	*n = 0;
	for (size_t i = 0; i < ns->n; i++)
		if (ns->node[i].cat == NC_KERNEL && ns->node[i].dur < pr->short_us)
			d[(*n)++] = ns->node[i].dur;
	return d;
}

/* np.histogram(d, bins): linspace edges, numpy's index corrections */
static int write_short_histogram(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cols[] = { "bin_start", "bin_end", "count" };
	size_t n, i, nb = (size_t)pr->bins;
	double *d = short_durs(pr, &n), lo, hi, step, *edge;
	size_t *cnt;

	sheet_header(sh, cols, 3);
	if (!n || !nb) {
		free(d);
		return 0;
	}
	lo = np_min(d, n);
	hi = np_max(d, n);
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	edge = xmalloc(st_mult(nb + 1, sizeof(*edge)));
	cnt = xcalloc(nb, sizeof(*cnt));
	step = (hi - lo) / (double)nb;
	for (i = 0; i <= nb; i++)
		edge[i] = (double)i * step + lo;
	edge[nb] = hi;
	for (i = 0; i < n; i++) {
		long b = (long)(((d[i] - lo) / (hi - lo)) * (double)nb);
		if (b == (long)nb)
			b--;
		if (d[i] < edge[b])
			b--;
		if (d[i] >= edge[b + 1] && b != (long)nb - 1)
			b++;
		cnt[b]++;
	}
	for (i = 0; i < nb; i++) {
		sheet_float(sh, edge[i]);
		sheet_float(sh, edge[i + 1]);
		sheet_int(sh, (int64_t)cnt[i]);
		sheet_endrow(sh);
	}
	free(cnt);
	free(edge);
	free(d);
	return 0;
}

struct sgroup {
	double sum, mean, pct;
	size_t count, gi;
};

static int cmp_sgroup(const void *a, const void *b)
{
	const struct sgroup *x = a, *y = b;
	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	if (x->mean != y->mean)
		return x->mean < y->mean ? -1 : 1;
	return (x->gi > y->gi) - (x->gi < y->gi);
}

static int write_short_summary(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cols[] = { "Parent cpu_op", "Input dims", "Input strides",
		"Concrete Inputs", "Kernel name", "Short Kernel duration (µs) sum",
		"Short Kernel count", "Short Kernel duration (µs) mean",
		"Short Kernel duration (µs) percent of total time" };
	const struct tree_nodes *ns = NS(pr);
	int gpu_only = pr->tp->gpu_only;
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = {0};
	struct sgroup *sg;
	size_t ng, i, j, n, *cpu_of = NULL, nshort = 0;
	double total_ms = pr->tp->total_us / 1e3, *d;

	cpu_of = xmalloc(st_mult(ns->n + 1, sizeof(*cpu_of)));
	for (i = 0; i < ns->n; i++) {
		const struct node *kn = &ns->node[i];
		int32_t c;
		if (kn->cat != NC_KERNEL || !(kn->dur < pr->short_us))
			continue;
		nshort++;
		pystr_reset(&k);
		if (!gpu_only) {
			c = perf_tree_cpu_op_above(pr->tp, (uint32_t)i);
			/* dropna: no parent op or a missing arg drops the kernel */
			if (c < 0 || !arg_repr(pr, ND(pr, c)->dims) ||
			    !arg_repr(pr, ND(pr, c)->strides) || !arg_repr(pr, ND(pr, c)->concrete))
				continue;
			cpu_of[i] = (size_t)c;
			key_add(&k, nm(pr, (uint32_t)c));
			key_add(&k, arg_repr(pr, ND(pr, c)->dims));
			key_add(&k, arg_repr(pr, ND(pr, c)->strides));
			key_add(&k, arg_repr(pr, ND(pr, c)->concrete));
		}
		key_add(&k, tree_nodes_str(ns, kn->name));
		pd_groupby_add(g, k.buf, k.len, i);
	}
	ng = pd_groupby_count(g);
	sg = xcalloc(ng + 1, sizeof(*sg));
	d = xmalloc(st_mult(ns->n + 1, sizeof(*d)));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &n);
		for (j = 0; j < n; j++)
			d[j] = ns->node[rows[j]].dur;
		sg[i].sum = pd_gsum(d, n);
		sg[i].count = n;
		sg[i].mean = pd_mean(d, n);
		sg[i].pct = sg[i].sum / (total_ms * 1e3) * 100;
		sg[i].gi = i;
	}
	free(d);
	tl_qsort(sg, ng, sizeof(*sg), cmp_sgroup);
	if (!nshort) {
		/* no short kernel: an empty DataFrame, a bare line */
		sheet_header(sh, cols, 0);
	} else if (!ng) {
		/* every short kernel dropped (a missing key, dropna): the
		 * grouped frame keeps its two-level column header (GPR:237-245) */
		static const char *const agg[] = { "sum", "count", "mean" };
		for (i = 0; i < 3; i++)
			sheet_str(sh, "Kernel duration (µs)");
		sheet_endrow(sh);
		sheet_header(sh, agg, 3);
	} else if (gpu_only) {
		sheet_header(sh, cols + 4, 5);
	} else {
		sheet_header(sh, cols, 9);
	}
	for (i = 0; i < ng && (pr->topk < 0 || (long)i < pr->topk); i++) {
		const size_t *rows = pd_groupby_rows(g, sg[i].gi, &n);
		if (!gpu_only) {
			uint32_t c = (uint32_t)cpu_of[rows[0]];
			sheet_str(sh, nm(pr, c));
			sheet_str(sh, arg_repr(pr, ND(pr, c)->dims));
			sheet_str(sh, arg_repr(pr, ND(pr, c)->strides));
			sheet_str(sh, arg_repr(pr, ND(pr, c)->concrete));
		}
		sheet_str(sh, nm(pr, (uint32_t)rows[0]));
		sheet_float(sh, sg[i].sum);
		sheet_int(sh, (int64_t)sg[i].count);
		sheet_float(sh, sg[i].mean);
		sheet_float(sh, sg[i].pct);
		sheet_endrow(sh);
	}
	free(sg);
	free(cpu_of);
	pystr_release(&k);
	pd_groupby_free(g);
	return 0;
}

/* ---- unified_perf_summary (§4.6) ------------------------------------- */

/* pandas aggregations skip NaN: keep the non-NaN values only */
static size_t drop_nan(double *x, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i])
			x[m++] = x[i];
	return m;
}

static double first_num(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i])
			return x[i];
	return NAN;
}

static void agg_nan(double *x, size_t n, struct agg *a)
{
	n = drop_nan(x, n);
	aggregate(x, n, a);
	if (!n)
		a->sum = 0;
}

/* One unified row before grouping: the row, its perf-model columns, and
 * its overlap info (TraceLens's build_df_unified_perf_table row). */
struct urow {
	const struct unirow *r;
	struct perfcols pc;
	const struct overlap_info *ov;
};

struct ugroup {
	struct urow **rows;
	size_t n;
	double ksum;		/* Kernel Time (µs)_sum */
	uint32_t exuid;
	size_t super;		/* kl_overlap: group without the overlap names */
	double super_total;
	uint32_t super_minuid;
	const char *superkey;
};

static double row_kt(const struct urow *u)
{
	return u->pc.kernel_us == u->pc.kernel_us ? u->pc.kernel_us : u->r->kernel_us;
}

/* the call stack of GPU event k in row r (python mode): r's running stack,
 * then the kept names between k's launch and r (TP:2079-2095) */
static size_t kernel_cs(const struct perf_report *pr, const struct unirow *r, uint32_t k,
			char ***out)
{
	size_t n = 0, a = 0, base;
	struct pystr t = {0};
	char **v = NULL;

	for (uint32_t i = 0; i < r->ncs; i++)
		if (perf_tree_cs_name(pr->tp, r->cs[i], &t)) {
			xgrow((void **)&v, &a, n + 1, sizeof(*v));
			v[n++] = xstrdup(t.buf);
		}
	base = n;
	for (int32_t c = ND(pr, k)->parent; c >= 0 && (uint32_t)c != r->uid; c = ND(pr, c)->parent)
		if (perf_tree_cs_name(pr->tp, (uint32_t)c, &t)) {
			xgrow((void **)&v, &a, n + 1, sizeof(*v));
			v[n++] = xstrdup(t.buf);
		}
	for (size_t i = base, j = n; i + 1 < j; i++, j--) {
		char *x = v[i];
		v[i] = v[j - 1];
		v[j - 1] = x;
	}
	pystr_release(&t);
	*out = v;
	return n;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void repr_strv(struct pystr *out, char *const *v, size_t n)
{
	pystr_addc(out, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			pystr_adds(out, ", ");
		py_repr_str(out, v[i], strlen(v[i]));
	}
	pystr_addc(out, ']');
}

/* kernel_details of a unified row: {name, dur, stream} plus the call stack
 * of each kernel when the row has one */
static struct kdent *unified_kd(const struct perf_report *pr, const struct unirow *r, char ***extra)
{
	struct kdent *e = kd_of(pr, r->gpu, r->ngpu);

	*extra = xcalloc(r->ngpu + 1, sizeof(**extra));
	if (!r->has_cs)
		return e;
	for (uint32_t i = 0; i < r->ngpu; i++) {
		struct pystr x = {0};
		char **v;
		size_t n = kernel_cs(pr, r, r->gpu[i], &v);
		pystr_adds(&x, ", 'call_stack': ");
		repr_strv(&x, v, n);
		free_strv(v, n);
		(*extra)[i] = x.buf;
		e[i].extra = x.buf;
	}
	return e;
}

/* ---- entry_point (GPR:65-178) ---- */

static int is_wrapper_frame(const char *f)
{
	static const char *const pre[] = { "<built-in", "pybind11_builtins", "nn.Module:" };
	static const char *const files[] = { "torch/_ops.py", "torch/nn/modules/module.py",
		"torch/utils/_contextlib.py", "torch/utils/_device.py", "torch/_tensor.py",
		"torch/functional.py", "torch/overrides.py", "torch/_inductor/",
		"torch/_functorch/", "torch/distributed/c10d_logger.py", "triton/backends/" };
	static const char *const funcs[] = { "__torch_function__", "_call_impl",
		"_wrapped_call_impl", "decorate_context", "dispatch_wrapper",
		"handle_torch_function", "wrapper", "custom_wrapper", "wrapper_custom",
		"outer_wrapper" };
	const char *p, *last = NULL;

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(f, pre[i], strlen(pre[i])))
			return 1;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (strstr(f, files[i]))
			return 1;
	for (p = f; (p = strstr(p, "): ")); p++)
		last = p + 3;
	if (last)
		for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
			if (!strcmp(last, funcs[i]))
				return 1;
	return 0;
}

/* str.lower() for ASCII */
static char *lower(const char *s)
{
	char *t = xstrdup(s);
	for (char *p = t; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return t;
}

/* the frame's function name as _find_entry_point takes it, lowered */
static char *func_name(const char *frame)
{
	const char *p, *last = NULL;

	for (p = frame; (p = strstr(p, "): ")); p++)
		last = p + 3;
	return lower(last ? last : frame);
}

static const char *entry_point(char *const *flat, size_t n, const char *op)
{
	const char *colon = NULL, *p;
	char *local, *stripped;
	size_t len = strlen(op), cut = len;
	long idx = -1;

	for (p = op; (p = strstr(p, "::")); p++)
		colon = p + 2;
	local = lower(colon ? colon : op);
	for (size_t i = n; i-- > 0 && idx < 0; )
		if (!strcmp(flat[i], op))
			idx = (long)i;
	/* re.sub(r"_\d+$", "", op) */
	while (cut > 0 && op[cut - 1] >= '0' && op[cut - 1] <= '9')
		cut--;
	stripped = cut < len && cut > 0 && op[cut - 1] == '_' ? xstrndup(op, cut - 1) : NULL;
	for (size_t i = n; stripped && i-- > 0 && idx < 0; )
		if (!strcmp(flat[i], stripped))
			idx = (long)i;
	free(stripped);
	if (idx >= 0)
		for (size_t i = (size_t)idx + 1; i < n; i++) {
			char *fn;
			int hit;
			if (!strstr(flat[i], ".py"))
				continue;
			fn = func_name(flat[i]);
			hit = strstr(fn, local) != NULL;
			free(fn);
			if (hit) {
				free(local);
				return flat[i];
			}
		}
	free(local);
	for (long i = idx - 1; idx >= 0 && i >= 0; i--)
		if (strstr(flat[i], ".py") && !is_wrapper_frame(flat[i]))
			return flat[i];
	return "Not found";
}

/*
 * entry_point and call_stack_full of a group (GPR:806-826, TP:2470-2533):
 * the chains (call stack + kernel name) of the summary's kernels, their
 * common prefix, then each distinct tail as a list.
 */
static void call_stack_cells(const struct perf_report *pr, struct sheet *sh, const struct kdsum *s,
			     const struct unirow *tr, const char *name)
{
	char ***ch;
	size_t *cn, m = s->m, pre = 0, nflat = 0, af = 0;
	char **flat = NULL;
	struct pystr out = {0};

	if (!m) {
		sheet_str(sh, "Not found");
		sheet_str(sh, "Not found");
		return;
	}
	ch = xcalloc(m, sizeof(*ch));
	cn = xcalloc(m, sizeof(*cn));
	for (size_t i = 0; i < m; i++) {
		const struct kdent *e = &s->tmpl[s->st[i].pos];
		cn[i] = tr->has_cs ? kernel_cs(pr, tr, tr->gpu[s->st[i].pos], &ch[i]) : 0;
		ch[i] = xrealloc(ch[i], st_mult(cn[i] + 1, sizeof(**ch)));
		ch[i][cn[i]++] = xstrdup(e->name);
	}
	if (m > 1) {
		size_t minlen = cn[0];
		for (size_t i = 1; i < m; i++)
			if (cn[i] < minlen)
				minlen = cn[i];
		for (; pre < minlen; pre++) {
			size_t i;
			for (i = 1; i < m && !strcmp(ch[i][pre], ch[0][pre]); i++)
				;
			if (i < m)
				break;
		}
	} else {
		pre = cn[0];
	}
	pystr_addc(&out, '[');
	for (size_t j = 0; j < pre; j++) {
		if (j)
			pystr_adds(&out, ", ");
		py_repr_str(&out, ch[0][j], strlen(ch[0][j]));
		xgrow((void **)&flat, &af, nflat + 1, sizeof(*flat));
		flat[nflat++] = ch[0][j];
	}
	for (size_t i = 0; m > 1 && i < m; i++) {
		size_t d;
		/* a tail seen before is left out */
		for (d = 0; d < i; d++) {
			size_t j;
			if (cn[d] != cn[i])
				continue;
			for (j = pre; j < cn[i] && !strcmp(ch[d][j], ch[i][j]); j++)
				;
			if (j == cn[i])
				break;
		}
		if (d < i)
			continue;
		if (out.len > 1)
			pystr_adds(&out, ", ");
		repr_strv(&out, ch[i] + pre, cn[i] - pre);
		for (size_t j = pre; j < cn[i]; j++) {
			xgrow((void **)&flat, &af, nflat + 1, sizeof(*flat));
			flat[nflat++] = ch[i][j];
		}
	}
	pystr_addc(&out, ']');
	sheet_str(sh, entry_point(flat, nflat, name));
	sheet_strn(sh, out.buf, out.len);
	pystr_release(&out);
	free(flat);
	for (size_t i = 0; i < m; i++)
		free_strv(ch[i], cn[i]);
	free(ch);
	free(cn);
}

static void unified_header(const struct perf_report *pr, struct cols *h, int kl, int rl, int cmp)
{
	static const char *const args[] = { "op category", "process_name",
		"process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
		"Concrete Inputs", "ex_UID", "operation_count", "total_duration_us",
		"mean_duration_us", "std_duration_us", "GFLOPS", "Data Moved (MB)", "FLOPS/Byte",
		"Compute Spec" };
	static const char *const mid[] = { "TB/s_mean", "TB/s_std", "TFLOPS/s_mean",
		"TFLOPS/s_std", "Kernel Time (µs)_mean", "Kernel Time (µs)_std",
		"Kernel Time (µs)_sum", "duration_us_median", "duration_us_min",
		"duration_us_max", "TB/s_median", "TB/s_min", "TB/s_max", "TFLOPS/s_median",
		"TFLOPS/s_min", "TFLOPS/s_max" };
	static const char *const roof[] = { "Roofline Time (µs)_first", "Pct Roofline_mean",
		"Pct Roofline_median", "Pct Roofline_std", "Pct Roofline_min", "Pct Roofline_max" };

	col(h, "name");
	if (kl)
		col(h, "overlapping_kernel_names");
	for (size_t i = 0; i < 8; i++)
		col(h, args[i]);
	if (pr->tp->rc)
		col(h, "is_recompute");
	for (size_t i = 8; i < 17; i++)
		col(h, args[i]);
	if (rl)
		col(h, "Roofline Bound");
	for (size_t i = 0; i < 16; i++) {
		col(h, mid[i]);
		/* --comparison_json_path: after Kernel Time (µs)_sum */
		if (i == 6 && cmp) {
			col(h, "speedup (trace2/trace1)");
			col(h, "delta_us (trace2 - trace1)");
			col(h, "lca_count_trace2");
			col(h, "lca_id");
			col(h, "lca_name");
			col(h, "lca_total_kernel_time_trace1_us");
			col(h, "lca_total_kernel_time_trace2_us");
		}
	}
	for (size_t i = 0; rl && i < 6; i++)
		col(h, roof[i]);
	col(h, "Kernel Time (µs)_median");
	col(h, "Kernel Time (µs)_min");
	col(h, "Kernel Time (µs)_max");
	col(h, "kernel_details_summary");
	col(h, "trunc_kernel_details");
	if (kl) {
		col(h, "overlapping_kernels_details_summary");
		col(h, "trunc_overlapping_kernels_details");
		col(h, "overlap_pct_mean");
		col(h, "overlap_pct_median");
		col(h, "overlap_pct_std");
		col(h, "overlap_pct_min");
		col(h, "overlap_pct_max");
	}
	col(h, "perf_params");
	col(h, "has_perf_model");
	if (pr->call_stack && !kl) {
		col(h, "entry_point");
		col(h, "call_stack_full");
	}
	col(h, "Percentage (%)");
	col(h, "Cumulative Percentage (%)");
}

/* Roofline Bound, first non-missing */
static void bound_cell(struct sheet *sh, const struct ugroup *ug)
{
	const char *bound = NULL;

	for (size_t j = 0; j < ug->n && !bound; j++)
		if (ug->rows[j]->pc.has_rl)
			bound = ug->rows[j]->pc.rl_bound;
	cell_opt(sh, bound);
}

/* Roofline Time (µs)_first, Pct Roofline_* of a group */
static void roofline_cells(struct sheet *sh, const struct ugroup *ug, double *v)
{
	size_t n = ug->n, j;
	struct agg pa;

	for (j = 0; j < n; j++)
		v[j] = ug->rows[j]->pc.has_rl ? ug->rows[j]->pc.rl_time_us : NAN;
	sheet_float(sh, first_num(v, n));
	for (j = 0; j < n; j++)
		v[j] = ug->rows[j]->pc.has_rl ? ug->rows[j]->pc.rl_pct : NAN;
	agg_nan(v, n, &pa);
	sheet_float(sh, pa.mean); sheet_float(sh, pa.median); sheet_float(sh, pa.std);
	sheet_float(sh, pa.min); sheet_float(sh, pa.max);
}

/* kernel_details_summary and trunc_kernel_details of a group, then (not
 * kl_overlap, with the call stack option) entry_point and call_stack_full,
 * which TraceLens places before the percentages */
static void unified_kernel_cells(struct perf_report *pr, struct sheet *sh, const struct ugroup *ug,
				 int kl, struct kdsum *s, struct kdent **kd, char ***ex)
{
	uint32_t *lens = xmalloc(st_mult(ug->n, sizeof(*lens)));
	struct pystr full = {0}, trunc = {0};

	for (size_t j = 0; j < ug->n; j++) {
		kd[j] = unified_kd(pr, ug->rows[j]->r, &ex[j]);
		lens[j] = ug->rows[j]->r->ngpu;
	}
	kdetail_summarize((const struct kdent *const *)kd, lens, ug->n, s);
	/*
	 * A kernel's call stack is TraceLens's internal field: it pops it from
	 * unified_perf_summary with --include_call_stack.  171dd74 leaks it
	 * there in python mode without that option (--detect_recompute);
	 * TraceLens's committed recompute report has none, and tl follows
	 * that.  The _kl_overlap summary keeps it, as 171dd74 writes it.
	 */
	kdetail_full(s, kl, &full);
	kdetail_trunc(s, &trunc);
	sheet_strn(sh, full.buf, full.len);
	sheet_strn(sh, trunc.buf ? trunc.buf : "", trunc.len);
	pystr_release(&full);
	pystr_release(&trunc);
	free(lens);
}

/* the comparison cells of a row (NULL: no comparison columns) */
static void compare_cells(struct sheet *sh, const struct lca_meta *m, double ksum)
{
	if (!m->has) {
		for (int i = 0; i < 7; i++)
			sheet_empty(sh);
		return;
	}
	sheet_float(sh, m->t1 != 0 ? m->t2 / m->t1 : NAN);
	sheet_float(sh, m->t2 - ksum);
	sheet_float(sh, m->count2);
	sheet_str(sh, m->ids);
	sheet_str(sh, m->names);
	sheet_float(sh, m->t1);
	sheet_float(sh, m->t2);
}

static void write_unified_group(struct perf_report *pr, struct sheet *sh,
				const struct ugroup *ug, double total, double *cum, int rl, int kl,
				const struct lca_meta *cmp)
{
	const struct unirow *r0 = ug->rows[0]->r;
	size_t n = ug->n, j;
	double *dur = xmalloc(st_mult(n, sizeof(double))), *kt = xmalloc(st_mult(n, sizeof(double)));
	double *v = xmalloc(st_mult(n, sizeof(double)));
	uint32_t *uids = xmalloc(st_mult(n, sizeof(*uids)));
	const struct overlap_info **ov = xmalloc(st_mult(n, sizeof(*ov)));
	struct kdent **kd = xcalloc(n, sizeof(*kd));
	char ***ex = xcalloc(n, sizeof(*ex));
	struct agg da, ka, tb, tf;
	struct kdsum ks;
	const char *spec = NULL, *params = NULL;
	const char *const *ovl = kl ? (const char *const *)&ug->rows[0]->ov->names : NULL;

	for (j = 0; j < n; j++) {
		const struct urow *u = ug->rows[j];
		/* duration_us is event.get("dur"): None (NaN) for a pseudo op */
		dur[j] = ND(pr, u->r->uid)->flags & NF_HAS_DUR ? ND(pr, u->r->uid)->dur : NAN;
		kt[j] = row_kt(u);
		uids[j] = u->r->uid;
		ov[j] = u->ov;
		if (!spec && u->pc.has && u->pc.compute_spec && u->pc.compute_spec[0])
			spec = u->pc.compute_spec;
		if (!params && u->pc.perf_params)
			params = u->pc.perf_params;
	}
	agg_nan(dur, n, &da);
	aggregate(kt, n, &ka);
	for (j = 0; j < n; j++) v[j] = ug->rows[j]->pc.has ? ug->rows[j]->pc.tbps : NAN;
	agg_nan(v, n, &tb);
	for (j = 0; j < n; j++) v[j] = ug->rows[j]->pc.has ? ug->rows[j]->pc.tflops : NAN;
	agg_nan(v, n, &tf);
	group_cells(pr, sh, r0->name, r0->category, ovl, NULL, uids, n);
	if (pr->tp->rc)
		sheet_bool(sh, rc_of(pr, r0->uid));
	sheet_int(sh, printed_uid(NS(pr), r0->row_uid));
	sheet_int(sh, (int64_t)n);
	sheet_float(sh, da.sum);
	sheet_float(sh, da.mean);
	sheet_float(sh, da.std);
	for (j = 0; j < n; j++) v[j] = ug->rows[j]->pc.has ? ug->rows[j]->pc.gflops : NAN;
	sheet_float(sh, first_num(v, n));
	for (j = 0; j < n; j++) v[j] = ug->rows[j]->pc.has ? ug->rows[j]->pc.data_mb : NAN;
	sheet_float(sh, first_num(v, n));
	for (j = 0; j < n; j++) v[j] = ug->rows[j]->pc.has ? ug->rows[j]->pc.flops_per_byte : NAN;
	sheet_float(sh, first_num(v, n));
	cell_opt(sh, spec);
	if (rl)
		bound_cell(sh, ug);
	sheet_float(sh, tb.mean); sheet_float(sh, tb.std);
	sheet_float(sh, tf.mean); sheet_float(sh, tf.std);
	sheet_float(sh, ka.mean); sheet_float(sh, ka.std); sheet_float(sh, ka.sum);
	if (cmp)
		compare_cells(sh, cmp, ka.sum);
	sheet_float(sh, da.median); sheet_float(sh, da.min); sheet_float(sh, da.max);
	sheet_float(sh, tb.median); sheet_float(sh, tb.min); sheet_float(sh, tb.max);
	sheet_float(sh, tf.median); sheet_float(sh, tf.min); sheet_float(sh, tf.max);
	if (rl)
		roofline_cells(sh, ug, v);
	sheet_float(sh, ka.median); sheet_float(sh, ka.min); sheet_float(sh, ka.max);
	unified_kernel_cells(pr, sh, ug, kl, &ks, kd, ex);
	if (kl) {
		overlap_summary_cells(sh, ov, n);
		overlap_pct_cells(sh, ov, n, 1);
	}
	cell_opt(sh, params);
	sheet_bool(sh, r0->has_perf_model);
	if (pr->call_stack && !kl)
		call_stack_cells(pr, sh, &ks, ks.tmpl ? ug->rows[ks.tmpl_row]->r : r0, r0->name);
	percent_cells(sh, ug->ksum, total, cum);
	sheet_endrow(sh);
	kdetail_release(&ks);
	for (j = 0; j < n; j++) {
		for (uint32_t i = 0; i < ug->rows[j]->r->ngpu; i++)
			free(ex[j][i]);
		free(ex[j]);
		free(kd[j]);
	}
	free(kd); free(ex); free(dur); free(kt); free(v); free(uids); free(ov);
}

/*
 * The comparison metadata of the sheet's rows, in sheet order
 * (_build_uid_to_row_idx): each GPU event of a row maps to the summary row
 * whose grouping columns (without is_recompute) print as its row's; where
 * two summary rows print alike, the later one in the sheet.  NULL when no
 * row maps to an LCA: TraceLens then adds no columns.
 */
static struct lca_meta *unified_compare(struct perf_report *pr, const struct ugroup *ug, size_t ng,
					const size_t *o)
{
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *keys = pd_groupby_new();
	struct pystr k = {0};
	size_t *last = xcalloc(ng + 1, sizeof(*last)), *kof = xcalloc(ng + 1, sizeof(*kof));
	/* by uid as diff_stats names them (gpu_op_uid), records or not */
	int32_t *row_of = xmalloc(st_mult(tp->ns->nevents + 1, sizeof(*row_of)));
	struct lca_meta *m;
	int any = 0;

	for (size_t i = 0; i < ng; i++) {
		const struct unirow *r = ug[o[i]].rows[0]->r;
		group_key(pr, r->uid, r->name, r->category, NULL, &k);
		kof[o[i]] = pd_groupby_add(keys, k.buf, k.len, i);
		last[kof[o[i]]] = i;
	}
	for (size_t i = 0; i < tp->ns->nevents; i++)
		row_of[i] = -1;
	for (size_t g = 0; g < ng; g++)
		for (size_t j = 0; j < ug[g].n; j++) {
			const struct unirow *r = ug[g].rows[j]->r;
			for (uint32_t x = 0; x < r->ngpu; x++)
				row_of[tree_nodes_uid(tp->ns, r->gpu[x])] = (int32_t)last[kof[g]];
		}
	m = perf_compare_rows(pr->compare, row_of, tp->ns->nevents, ng);
	for (size_t i = 0; i < ng; i++)
		any |= m[i].has;
	if (!any) {
		perf_compare_release_rows(m, ng);
		m = NULL;
	}
	free(last);
	free(kof);
	free(row_of);
	pystr_release(&k);
	pd_groupby_free(keys);
	return m;
}

static const struct ugroup *sort_ug;

/* kl_overlap: the groups without the overlap names by their total time,
 * then their lowest ex_UID, their keys, then this row's time and ex_UID
 * (TP:2536-2580); one sort_values over several columns, stable */
static int cmp_ug_kl(const void *a, const void *b)
{
	const struct ugroup *x = &sort_ug[*(const size_t *)a], *y = &sort_ug[*(const size_t *)b];
	int c;

	if (x->super_total != y->super_total)
		return x->super_total > y->super_total ? -1 : 1;
	if (x->super_minuid != y->super_minuid)
		return x->super_minuid < y->super_minuid ? -1 : 1;
	if ((c = strcmp(x->superkey, y->superkey)))
		return c;
	if (x->ksum != y->ksum)
		return x->ksum > y->ksum ? -1 : 1;
	if (x->exuid != y->exuid)
		return x->exuid < y->exuid ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* the kl_overlap order: supergroups' Kahan totals and lowest ex_UID */
static size_t *kl_order(struct ugroup *ug, size_t ng, struct pd_groupby *sg)
{
	size_t *o = xmalloc(st_mult(ng + 1, sizeof(*o)));

	for (size_t s = 0; s < pd_groupby_count(sg); s++) {
		size_t n;
		const size_t *gs = pd_groupby_rows(sg, s, &n);
		double *v = xmalloc(st_mult(n + 1, sizeof(*v))), t;
		uint32_t mu = UINT32_MAX;
		for (size_t j = 0; j < n; j++) {
			v[j] = ug[gs[j]].ksum;
			if (ug[gs[j]].exuid < mu)
				mu = ug[gs[j]].exuid;
		}
		t = pd_gsum(v, n);
		for (size_t j = 0; j < n; j++) {
			ug[gs[j]].super_total = t;
			ug[gs[j]].super_minuid = mu;
			ug[gs[j]].superkey = pd_groupby_key(sg, s);
		}
		free(v);
	}
	for (size_t i = 0; i < ng; i++)
		o[i] = i;
	sort_ug = ug;
	tl_qsort(o, ng, sizeof(*o), cmp_ug_kl);
	return o;
}

static int write_unified_sheet(struct perf_report *pr, struct sheet *sh, int kl)
{
	struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new(), *sg = pd_groupby_new();
	struct pystr k = {0};
	struct urow *ur;
	struct ugroup *ug;
	struct cols h = {0};
	struct lca_meta *cmp = NULL;
	size_t ng, i, j, *o;
	int rl = 0;
	double *ksum, total, cum = 0;
	uint32_t *exuid;

	if (!tp->uni)
		perf_tree_unified(tp);
	ur = xcalloc(tp->nuni + 1, sizeof(*ur));
	for (i = 0; i < tp->nuni; i++) {
		struct urow *u = &ur[i];
		const char *ovs;
		u->r = &tp->uni[i];
		u->pc.kernel_us = NAN;
		u->ov = tp->uni_ov ? &tp->uni_ov[i] : &no_overlap;
		if (pr->perf_cols)
			pr->perf_cols(tp, u->r, &u->pc, pr->perf_ctx);
		if (u->pc.drop)
			continue;
		rl |= u->pc.has_rl;
		ovs = u->ov->names ? u->ov->names : "None";
		group_key(pr, u->r->uid, u->r->name, u->r->category, kl ? &ovs : NULL, &k);
		if (tp->rc)
			key_bool(&k, rc_of(pr, u->r->uid));
		pd_groupby_add(g, k.buf, k.len, i);
	}
	ng = pd_groupby_count(g);
	ug = xcalloc(ng + 1, sizeof(*ug));
	ksum = xcalloc(ng + 1, sizeof(*ksum));
	exuid = xcalloc(ng + 1, sizeof(*exuid));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &ug[i].n);
		double *kt = xmalloc(st_mult(ug[i].n, sizeof(double)));
		ug[i].rows = xcalloc(ug[i].n, sizeof(*ug[i].rows));
		for (j = 0; j < ug[i].n; j++) {
			ug[i].rows[j] = &ur[rows[j]];
			kt[j] = row_kt(&ur[rows[j]]);
		}
		ksum[i] = ug[i].ksum = pd_gsum(kt, ug[i].n);
		exuid[i] = ug[i].exuid = ur[rows[0]].r->row_uid;
		if (kl) {
			const struct unirow *r = ur[rows[0]].r;
			group_key(pr, r->uid, r->name, r->category, NULL, &k);
			if (tp->rc)
				key_bool(&k, rc_of(pr, r->uid));
			pd_groupby_add(sg, k.buf, k.len, i);
		}
		free(kt);
	}
	o = kl ? kl_order(ug, ng, sg) : order_desc(ksum, exuid, ng);
	total = sorted_total(ksum, o, ng, 1);
	if (!kl && perf_compare_has_rows(pr->compare))
		cmp = unified_compare(pr, ug, ng, o);
	unified_header(pr, &h, kl, rl, cmp != NULL);
	sheet_header(sh, h.c, h.n);
	for (i = 0; i < ng; i++)
		write_unified_group(pr, sh, &ug[o[i]], total, &cum, rl, kl, cmp ? &cmp[i] : NULL);
	perf_compare_release_rows(cmp, ng);
	for (i = 0; i < ng; i++)
		free(ug[i].rows);
	free(ur);
	free(ug);
	free(o);
	free(ksum);
	free(exuid);
	pystr_release(&k);
	pd_groupby_free(g);
	pd_groupby_free(sg);
	return 0;
}

static int write_unified(struct perf_report *pr, struct sheet *sh)
{
	return write_unified_sheet(pr, sh, 0);
}

static int write_unified_kl(struct perf_report *pr, struct sheet *sh)
{
	return write_unified_sheet(pr, sh, 1);
}

/* ---- gpu_timeline with detect_recompute (TP:2756-2785) --------------- */

/* one breakdown per recompute flag (only flags with GPU events), each
 * with its own total, plus the is_recompute column; without recompute
 * marking, tl-timeline's single breakdown */
static int write_gpu_timeline(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cat[] = { [NC_KERNEL] = "kernel", [NC_MEMCPY] = "gpu_memcpy",
					   [NC_MEMSET] = "gpu_memset" };
	static const char *const cols[] = { "type", "time ms", "percent", "is_recompute" };
	const struct perf_tree *tp = pr->tp;
	struct timeline t;
	struct breakdown b;

	sheet_header(sh, cols, tp->rc ? 4 : 3);
	timeline_init(&t);
	for (int flag = 0; flag <= (tp->rc != NULL); flag++) {
		for (size_t i = 0; i < NS(pr)->n; i++) {
			const struct node *e = ND(pr, (uint32_t)i);
			if (!node_is_gpu(e) || (!tp->all_gpu && e->parent < 0) ||
			    (tp->rc && tp->rc[i] != flag))
				continue;
			timeline_add(&t, e->ts, node_end(e),
				     gpu_classify(cat[e->cat], tree_nodes_str(NS(pr), e->name)));
		}
		if (timeline_compute(&t, pr->micro_us, &b) == 0)
			for (int r = 0; r < b.n; r++) {
				sheet_str(sh, b.type[r]);
				sheet_float(sh, b.us[r] / 1e3);
				sheet_float(sh, b.us[r] / b.total * 100);
				if (tp->rc)
					sheet_bool(sh, flag);
				sheet_endrow(sh);
			}
		timeline_reset(&t);
	}
	timeline_release(&t);
	return 0;
}

/* ---- dispatch --------------------------------------------------------- */

static int has_kernels(const struct perf_report *pr)
{
	for (size_t i = 0; i < NS(pr)->n; i++)
		if (NS(pr)->node[i].cat == NC_KERNEL)
			return 1;
	return 0;
}

int perf_report_wanted(const struct perf_report *pr, const char *sheet)
{
	/* tl-timeline writes it, except split by recompute */
	if (!strcmp(sheet, "gpu_timeline"))
		return pr->tp->rc != NULL;
	if (!strncmp(sheet, "short_kernel", 12))
		return 1;
	if (!strcmp(sheet, "kernel_summary"))
		return has_kernels(pr);
	if (pr->tp->gpu_only || !pr->tp->nlaunch)
		return 0;
	/* the overlap sheets: --include_overlap_info (perf_tree_overlap) */
	if (strstr(sheet, "_kl_overlap") && !pr->tp->launch_ov)
		return 0;
	if (!strncmp(sheet, "unified_perf_summary", 20)) {
		if (!pr->tp->uni)
			perf_tree_unified(pr->tp);
		return pr->tp->nuni > 0;
	}
	return perf_report_known(sheet);
}

int perf_report_write(struct perf_report *pr, const char *sheet, struct sheet *sh)
{
	static const struct {
		const char *name;
		int (*fn)(struct perf_report *, struct sheet *);
	} w[] = {
		{ "gpu_timeline", write_gpu_timeline },
		{ "ops_summary_by_category", write_ops_by_category },
		{ "ops_summary", write_ops_summary },
		{ "ops_unique_args", write_ops_unique_args },
		{ "ops_unique_args_kl_overlap", write_ops_unique_args_kl },
		{ "unified_perf_summary", write_unified },
		{ "unified_perf_summary_kl_overlap", write_unified_kl },
		{ "kernel_summary", write_kernel_summary },
		{ "short_kernel_histogram", write_short_histogram },
		{ "short_kernels_summary", write_short_summary },
	};
	if (pr->inference && !strcmp(sheet, "ops_summary"))
		return write_ops_summary_module(pr, sh);
	if (pr->inference && !strcmp(sheet, "ops_summary_by_category"))
		return write_ops_by_category_module(pr, sh);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(w[i].name, sheet))
			return w[i].fn(pr, sh);
	return -1;
}
