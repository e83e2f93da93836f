#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_groupby.h"
#include "np_stat.h"
#include "perf_callstack.h"
#include "perf_report.h"
#include "py_repr.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

const char *const perf_report_names[] = {
	"ops_summary_by_category", "ops_summary", "ops_unique_args",
	"unified_perf_summary", "kernel_summary", "short_kernel_histogram",
	"short_kernels_summary", NULL
};

struct perf_report *perf_report_new(struct perf_tree *tp)
{
	struct perf_report *pr = xcalloc(1, sizeof(*pr));

	pr->tp = tp;
	pr->short_us = 10;
	pr->bins = 100;
	pr->topk = -1;
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

struct kstat {
	uint32_t tmpl;		/* template kernel (name, stream) */
	double total, mean, median, std, min, max;
	size_t count;
};

static const struct perf_report *kst_pr;

static int cmp_kstat(const void *a, const void *b)
{
	const struct kstat *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	return strcmp(nm(kst_pr, x->tmpl), nm(kst_pr, y->tmpl));
}

/* Python's name[:64] + "...": 64 code points, not bytes */
static void trunc_name(struct pystr *out, const char *s)
{
	size_t i = 0, cps = 0;

	while (s[i] && cps < 64) {
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		cps++;
	}
	if (!s[i]) {
		py_repr_str(out, s, i);
		return;
	}
	struct pystr t = {0};
	pystr_add(&t, s, i);
	pystr_adds(&t, "...");
	py_repr_str(out, t.buf, t.len);
	pystr_release(&t);
}

/*
 * _summarize_kernel_stats over nrows kernel lists: the first non-empty list
 * is the template; lists of another length are skipped.  Writes the
 * kernel_details_summary cell to full and trunc_kernel_details to trunc
 * (empty when there is nothing).  with_uid: the lists carry gpu_op_uid
 * (unified table), which the summary drops anyway.
 */
static void kernel_summary_cells(const struct perf_report *pr, uint32_t *const *lists,
				 const uint32_t *lens, size_t nrows,
				 struct pystr *full, struct pystr *trunc)
{
	size_t r, t = nrows, m, i, cnt = 0;
	struct kstat *ks;
	double *d;

	for (r = 0; r < nrows && t == nrows; r++)
		if (lens[r])
			t = r;
	if (t == nrows) {
		pystr_adds(full, "[]");
		return;
	}
	m = lens[t];
	ks = xcalloc(m, sizeof(*ks));
	d = xmalloc(st_mult(nrows, sizeof(*d)));
	for (i = 0; i < m; i++) {
		cnt = 0;
		for (r = 0; r < nrows; r++)
			if (lens[r] == m)
				d[cnt++] = ND(pr, lists[r][i])->dur;
		ks[i].tmpl = lists[t][i];
		ks[i].count = cnt;
		ks[i].total = np_sum(d, cnt);
		ks[i].mean = np_mean(d, cnt);
		ks[i].std = np_std(d, cnt);
		ks[i].min = np_min(d, cnt);
		ks[i].max = np_max(d, cnt);
		ks[i].median = np_median(d, cnt);
	}
	kst_pr = pr;
	qsort(ks, m, sizeof(*ks), cmp_kstat);
	pystr_addc(full, '[');
	pystr_addc(trunc, '[');
	for (i = 0; i < m; i++) {
		char num[32];
		const char *name = nm(pr, ks[i].tmpl);
		if (i) {
			pystr_adds(full, ", ");
			pystr_adds(trunc, ", ");
		}
		pystr_adds(full, "{'name': ");
		py_repr_str(full, name, strlen(name));
		pystr_adds(full, ", 'stream': ");
		stream_repr(pr, ks[i].tmpl, full);
		snprintf(num, sizeof(num), ", 'count': %zu", ks[i].count);
		pystr_adds(full, num);
		pystr_adds(full, ", 'total_duration_us': ");
		py_repr_np64(full, ks[i].total);
		pystr_adds(full, ", 'mean_duration_us': ");
		py_repr_np64(full, ks[i].mean);
		pystr_adds(full, ", 'median_duration_us': ");
		py_repr_np64(full, ks[i].median);
		pystr_adds(full, ", 'std_dev_duration_us': ");
		py_repr_np64(full, ks[i].std);
		pystr_adds(full, ", 'min_duration_us': ");
		py_repr_np64(full, ks[i].min);
		pystr_adds(full, ", 'max_duration_us': ");
		py_repr_np64(full, ks[i].max);
		pystr_addc(full, '}');
		pystr_adds(trunc, "{'name': ");
		trunc_name(trunc, name);
		pystr_adds(trunc, ", 'stream': ");
		stream_repr(pr, ks[i].tmpl, trunc);
		pystr_adds(trunc, ", 'mean_duration_us': ");
		py_repr_np64(trunc, np_round(ks[i].mean, 2));
		pystr_addc(trunc, '}');
	}
	pystr_addc(full, ']');
	pystr_addc(trunc, ']');
	free(d);
	free(ks);
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
	a->sum = np_sum(x, n);
	a->mean = pd_mean(x, n);
	a->std = pd_std(x, n);
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
	qsort(o, n, sizeof(*o), cmp_desc);
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

/* ---- ops_summary, ops_summary_by_category (§4.5) ---------------------- */

static int write_ops_summary(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cols[] = { "name", "total_direct_kernel_time_sum",
		"total_subtree_kernel_time_sum", "total_direct_kernel_time_ms",
		"total_subtree_kernel_time_ms", "Count", "Categories", "Percentage (%)",
		"Cumulative Percentage (%)" };
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new();
	size_t ng, *keyorder, *o, i, j, n;
	double *dsum, *ssum, total = 0, cum = 0;

	for (i = 0; i < tp->nlaunch; i++) {
		const char *s = nm(pr, tp->launch[i].uid);
		pd_groupby_add(g, s, strlen(s), i);
	}
	ng = pd_groupby_count(g);
	keyorder = pd_groupby_sorted(g);
	dsum = xcalloc(ng + 1, sizeof(*dsum));
	ssum = xcalloc(ng + 1, sizeof(*ssum));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[i], &n);
		for (j = 0; j < n; j++) {
			dsum[i] += tp->launch[rows[j]].direct_us;
			ssum[i] += tp->launch[rows[j]].subtree_us;
		}
		total += dsum[i] / 1000;
	}
	o = order_desc(dsum, NULL, ng);
	sheet_header(sh, cols, 9);
	for (i = 0; i < ng; i++) {
		size_t gi = keyorder[o[i]];
		const size_t *rows = pd_groupby_rows(g, gi, &n);
		struct pd_groupby *cats = pd_groupby_new();
		size_t *co;
		struct pystr ps = {0};
		sheet_str(sh, pd_groupby_key(g, gi));
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
	static const char *const cols[] = { "op category", "Count",
		"total_direct_kernel_time_ms", "Percentage (%)", "Cumulative Percentage (%)" };
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new();
	size_t ng, *keyorder, *o, i, j, n;
	double *dsum, total = 0, cum = 0;

	for (i = 0; i < tp->nlaunch; i++)
		pd_groupby_add(g, tp->launch[i].category, strlen(tp->launch[i].category), i);
	ng = pd_groupby_count(g);
	keyorder = pd_groupby_sorted(g);
	dsum = xcalloc(ng + 1, sizeof(*dsum));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyorder[i], &n);
		for (j = 0; j < n; j++)
			dsum[i] += tp->launch[rows[j]].direct_us;
		total += dsum[i] / 1000;
	}
	o = order_desc(dsum, NULL, ng);
	sheet_header(sh, cols, 5);
	for (i = 0; i < ng; i++) {
		size_t gi = keyorder[o[i]];
		pd_groupby_rows(g, gi, &n);
		sheet_str(sh, pd_groupby_key(g, gi));
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

/* The grouping columns TraceLens shares between ops_unique_args and unified. */
static void group_key(struct perf_report *pr, uint32_t uid, const char *name,
		      const char *cat, struct pystr *k)
{
	const struct node *n = ND(pr, uid);

	pystr_reset(k);
	key_add(k, name);
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
			const char *cat, const char *pmod, const uint32_t *uids, size_t n)
{
	const struct node *f = ND(pr, uids[0]);

	sheet_str(sh, name);
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

static int write_ops_unique_args(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cols[] = { "name", "op category", "parent_module", "process_name",
		"process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
		"Concrete Inputs", "operation_count", "total_direct_kernel_time_mean",
		"total_subtree_kernel_time_mean", "total_direct_kernel_time_median",
		"total_subtree_kernel_time_median", "total_direct_kernel_time_std",
		"total_subtree_kernel_time_std", "total_direct_kernel_time_min",
		"total_subtree_kernel_time_min", "total_direct_kernel_time_max",
		"total_subtree_kernel_time_max", "total_direct_kernel_time_sum",
		"total_subtree_kernel_time_sum", "ex_UID", "call_stack", "kernel_details_summary",
		"trunc_kernel_details", "Percentage (%)", "Cumulative Percentage (%)" };
	const struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = {0};
	size_t ng, i, j, n, *o, nc = 0;
	double *dsum, total = 0, cum = 0;
	uint32_t *exuid;
	const char *hdr[sizeof(cols) / sizeof(cols[0])];

	/* parent_module and call_stack only with --group_by_parent_module */
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (pr->parent_module || (strcmp(cols[i], "parent_module") && strcmp(cols[i], "call_stack")))
			hdr[nc++] = cols[i];
	for (i = 0; i < tp->nlaunch; i++) {
		group_key(pr, tp->launch[i].uid, nm(pr, tp->launch[i].uid),
			  tp->launch[i].category, &k);
		if (pr->parent_module)
			key_add(&k, parent_module(pr, i));
		pd_groupby_add(g, k.buf, k.len, i);
	}
	ng = pd_groupby_count(g);
	dsum = xcalloc(ng + 1, sizeof(*dsum));
	exuid = xcalloc(ng + 1, sizeof(*exuid));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &n);
		for (j = 0; j < n; j++)
			dsum[i] += tp->launch[rows[j]].direct_us;
		exuid[i] = tp->launch[rows[0]].uid;
		total += dsum[i];
	}
	o = order_desc(dsum, exuid, ng);
	sheet_header(sh, hdr, nc);
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, o[i], &n);
		double *dv = xmalloc(st_mult(n, sizeof(double))), *sv = xmalloc(st_mult(n, sizeof(double)));
		uint32_t *uids = xmalloc(st_mult(n, sizeof(*uids))), **lists = xmalloc(st_mult(n, sizeof(*lists)));
		uint32_t *lens = xmalloc(st_mult(n, sizeof(*lens)));
		struct agg da, sa;
		struct pystr full = {0}, trunc = {0};
		const struct launcher *L0 = &tp->launch[rows[0]];
		for (j = 0; j < n; j++) {
			const struct launcher *L = &tp->launch[rows[j]];
			dv[j] = L->direct_us;
			sv[j] = L->subtree_us;
			uids[j] = L->uid;
			lists[j] = L->kern;
			lens[j] = L->nkern;
		}
		aggregate(dv, n, &da);
		aggregate(sv, n, &sa);
		group_cells(pr, sh, nm(pr, L0->uid), L0->category,
			    pr->parent_module ? parent_module(pr, rows[0]) : NULL, uids, n);
		sheet_int(sh, (int64_t)n);
		agg_pair_cells(sh, &da, &sa);
		sheet_int(sh, L0->uid);
		if (pr->parent_module)
			sheet_str(sh, call_stack(pr, rows[0]));
		kernel_summary_cells(pr, lists, lens, n, &full, &trunc);
		sheet_strn(sh, full.buf, full.len);
		sheet_strn(sh, trunc.buf ? trunc.buf : "", trunc.len);
		percent_cells(sh, da.sum, total, &cum);
		sheet_endrow(sh);
		pystr_release(&full);
		pystr_release(&trunc);
		free(dv); free(sv); free(uids); free(lists); free(lens);
	}
	pystr_release(&k);
	free(o);
	free(dsum);
	free(exuid);
	pd_groupby_free(g);
	return 0;
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
		all += ND(pr, r[i].uid)->dur;
	}
	ng = pd_groupby_count(g);
	keyo = xmalloc(st_mult(ng + 1, sizeof(*keyo)));
	for (i = 0; i < ng; i++)
		keyo[i] = i;
	ks_rows = r; ks_pr = pr; ks_g = g;
	qsort(keyo, ng, sizeof(*keyo), cmp_kgroup);
	sum = xcalloc(ng + 1, sizeof(*sum));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, keyo[i], &n);
		for (j = 0; j < n; j++)
			sum[i] += ND(pr, r[rows[j]].uid)->dur;
	}
	o = order_desc(sum, NULL, ng);
	for (i = 0; i < 11; i++)
		if (has_cpu || i != 1)
		sheet_str(sh, cols[i]);
	sheet_endrow(sh);
	d = xmalloc(st_mult(nr + 1, sizeof(*d)));
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
		sheet_float(sh, sum[o[i]] / (double)n);
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
	size_t ng, i, j, n, *cpu_of = NULL;
	double total_ms = pr->tp->total_us / 1e3;

	cpu_of = xmalloc(st_mult(ns->n + 1, sizeof(*cpu_of)));
	for (i = 0; i < ns->n; i++) {
		const struct node *kn = &ns->node[i];
		int32_t c;
		if (kn->cat != NC_KERNEL || !(kn->dur < pr->short_us))
			continue;
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
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &n);
		for (j = 0; j < n; j++)
			sg[i].sum += ns->node[rows[j]].dur;
		sg[i].count = n;
		sg[i].mean = sg[i].sum / (double)n;
		sg[i].pct = sg[i].sum / (total_ms * 1e3) * 100;
		sg[i].gi = i;
	}
	qsort(sg, ng, sizeof(*sg), cmp_sgroup);
	if (gpu_only)
		sheet_header(sh, cols + 4, 5);
	else
		sheet_header(sh, cols, 9);
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

struct ugroup {
	size_t *rows, n;
	struct perfcols *pc;	/* per row */
};

/* Roofline Time (µs)_first, Roofline Bound, Pct Roofline_* of a group */
static void roofline_cells(struct sheet *sh, const struct ugroup *ug, double *v)
{
	size_t n = ug->n, j;
	const char *bound = NULL;
	struct agg pa;

	for (j = 0; j < n; j++)
		v[j] = ug->pc[j].has_rl ? ug->pc[j].rl_time_us : NAN;
	sheet_float(sh, first_num(v, n));
	for (j = 0; j < n && !bound; j++)
		if (ug->pc[j].has_rl)
			bound = ug->pc[j].rl_bound;
	cell_opt(sh, bound);
	for (j = 0; j < n; j++)
		v[j] = ug->pc[j].has_rl ? ug->pc[j].rl_pct : NAN;
	agg_nan(v, n, &pa);
	sheet_float(sh, pa.mean); sheet_float(sh, pa.median); sheet_float(sh, pa.std);
	sheet_float(sh, pa.min); sheet_float(sh, pa.max);
}

static void write_unified_group(struct perf_report *pr, struct sheet *sh,
				const struct ugroup *ug, double total, double *cum, int rl)
{
	const struct perf_tree *tp = pr->tp;
	const struct unirow *r0 = &tp->uni[ug->rows[0]];
	size_t n = ug->n, j;
	double *dur = xmalloc(st_mult(n, sizeof(double))), *kt = xmalloc(st_mult(n, sizeof(double)));
	double *v = xmalloc(st_mult(n, sizeof(double)));
	uint32_t *uids = xmalloc(st_mult(n, sizeof(*uids))), **lists = xmalloc(st_mult(n, sizeof(*lists)));
	uint32_t *lens = xmalloc(st_mult(n, sizeof(*lens)));
	struct agg da, ka, tb, tf;
	struct pystr full = {0}, trunc = {0};
	const char *spec = NULL, *params = NULL;

	for (j = 0; j < n; j++) {
		const struct unirow *r = &tp->uni[ug->rows[j]];
		/* duration_us is event.get("dur"): None (NaN) for a pseudo op */
		dur[j] = ND(pr, r->uid)->flags & NF_HAS_DUR ? ND(pr, r->uid)->dur : NAN;
		kt[j] = ug->pc[j].kernel_us == ug->pc[j].kernel_us ? ug->pc[j].kernel_us : r->kernel_us;
		uids[j] = r->uid;
		lists[j] = r->gpu;
		lens[j] = r->ngpu;
		if (!spec && ug->pc[j].has && ug->pc[j].compute_spec[0])
			spec = ug->pc[j].compute_spec;
		if (!params && ug->pc[j].perf_params)
			params = ug->pc[j].perf_params;
	}
	agg_nan(dur, n, &da);
	aggregate(kt, n, &ka);
	for (j = 0; j < n; j++) v[j] = ug->pc[j].has ? ug->pc[j].tbps : NAN;
	agg_nan(v, n, &tb);
	for (j = 0; j < n; j++) v[j] = ug->pc[j].has ? ug->pc[j].tflops : NAN;
	agg_nan(v, n, &tf);
	group_cells(pr, sh, r0->name, r0->category, NULL, uids, n);
	sheet_int(sh, r0->row_uid);
	sheet_int(sh, (int64_t)n);
	sheet_float(sh, da.sum);
	sheet_float(sh, da.mean);
	sheet_float(sh, da.std);
	for (j = 0; j < n; j++) v[j] = ug->pc[j].has ? ug->pc[j].gflops : NAN;
	sheet_float(sh, first_num(v, n));
	for (j = 0; j < n; j++) v[j] = ug->pc[j].has ? ug->pc[j].data_mb : NAN;
	sheet_float(sh, first_num(v, n));
	for (j = 0; j < n; j++) v[j] = ug->pc[j].has ? ug->pc[j].flops_per_byte : NAN;
	sheet_float(sh, first_num(v, n));
	cell_opt(sh, spec);
	sheet_float(sh, tb.mean); sheet_float(sh, tb.std);
	sheet_float(sh, tf.mean); sheet_float(sh, tf.std);
	sheet_float(sh, ka.mean); sheet_float(sh, ka.std); sheet_float(sh, ka.sum);
	sheet_float(sh, da.median); sheet_float(sh, da.min); sheet_float(sh, da.max);
	sheet_float(sh, tb.median); sheet_float(sh, tb.min); sheet_float(sh, tb.max);
	sheet_float(sh, tf.median); sheet_float(sh, tf.min); sheet_float(sh, tf.max);
	sheet_float(sh, ka.median); sheet_float(sh, ka.min); sheet_float(sh, ka.max);
	if (rl)
		roofline_cells(sh, ug, v);
	kernel_summary_cells(pr, lists, lens, n, &full, &trunc);
	sheet_strn(sh, full.buf, full.len);
	sheet_strn(sh, trunc.buf ? trunc.buf : "", trunc.len);
	cell_opt(sh, params);
	sheet_bool(sh, r0->has_perf_model);
	percent_cells(sh, ka.sum, total, cum);
	sheet_endrow(sh);
	pystr_release(&full);
	pystr_release(&trunc);
	free(dur); free(kt); free(v); free(uids); free(lists); free(lens);
}

static int write_unified(struct perf_report *pr, struct sheet *sh)
{
	static const char *const cols[] = { "name", "op category", "process_name",
		"process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
		"Concrete Inputs", "ex_UID", "operation_count", "total_duration_us",
		"mean_duration_us", "std_duration_us", "GFLOPS", "Data Moved (MB)", "FLOPS/Byte",
		"Compute Spec", "TB/s_mean", "TB/s_std", "TFLOPS/s_mean", "TFLOPS/s_std",
		"Kernel Time (µs)_mean", "Kernel Time (µs)_std", "Kernel Time (µs)_sum",
		"duration_us_median", "duration_us_min", "duration_us_max", "TB/s_median",
		"TB/s_min", "TB/s_max", "TFLOPS/s_median", "TFLOPS/s_min", "TFLOPS/s_max",
		"Kernel Time (µs)_median", "Kernel Time (µs)_min", "Kernel Time (µs)_max",
		"kernel_details_summary", "trunc_kernel_details", "perf_params",
		"has_perf_model", "Percentage (%)", "Cumulative Percentage (%)" };
	static const char *const roof[] = { "Roofline Time (µs)_first", "Roofline Bound",
		"Pct Roofline_mean", "Pct Roofline_median", "Pct Roofline_std",
		"Pct Roofline_min", "Pct Roofline_max" };
	const char *hdr[sizeof(cols) / sizeof(cols[0]) + 7];
	size_t nh = 0, kd = 37;	/* kd: index of kernel_details_summary */
	struct perf_tree *tp = pr->tp;
	struct pd_groupby *g = pd_groupby_new();
	struct pystr k = {0};
	struct perfcols *pc;
	struct ugroup *ug;
	size_t ng, i, j, *o;
	int rl = 0;
	double *ksum, total = 0, cum = 0;
	uint32_t *exuid;

	if (!tp->uni)
		perf_tree_unified(tp);
	pc = xcalloc(tp->nuni + 1, sizeof(*pc));
	for (i = 0; i < tp->nuni; i++) {
		const struct unirow *r = &tp->uni[i];
		pc[i].kernel_us = NAN;
		if (pr->perf_cols)
			pr->perf_cols(tp, r, &pc[i], pr->perf_ctx);
		if (pc[i].drop)
			continue;
		rl |= pc[i].has_rl;
		group_key(pr, r->uid, r->name, r->category, &k);
		pd_groupby_add(g, k.buf, k.len, i);
	}
	ng = pd_groupby_count(g);
	ug = xcalloc(ng + 1, sizeof(*ug));
	ksum = xcalloc(ng + 1, sizeof(*ksum));
	exuid = xcalloc(ng + 1, sizeof(*exuid));
	for (i = 0; i < ng; i++) {
		const size_t *rows = pd_groupby_rows(g, i, &ug[i].n);
		ug[i].rows = (size_t *)rows;
		ug[i].pc = xcalloc(ug[i].n, sizeof(*ug[i].pc));
		double *kt = xmalloc(st_mult(ug[i].n, sizeof(double)));
		for (j = 0; j < ug[i].n; j++) {
			ug[i].pc[j] = pc[rows[j]];
			kt[j] = pc[rows[j]].kernel_us == pc[rows[j]].kernel_us ?
				pc[rows[j]].kernel_us : tp->uni[rows[j]].kernel_us;
		}
		ksum[i] = np_sum(kt, ug[i].n);
		exuid[i] = tp->uni[rows[0]].row_uid;
		total += ksum[i];
		free(kt);
	}
	o = order_desc(ksum, exuid, ng);
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		if (i == kd && rl)
			for (j = 0; j < 7; j++)
				hdr[nh++] = roof[j];
		hdr[nh++] = cols[i];
	}
	sheet_header(sh, hdr, nh);
	for (i = 0; i < ng; i++)
		write_unified_group(pr, sh, &ug[o[i]], total, &cum, rl);
	for (i = 0; i < ng; i++)
		free(ug[i].pc);
	for (i = 0; i < tp->nuni; i++)
		free(pc[i].perf_params);
	free(pc);
	free(ug);
	free(o);
	free(ksum);
	free(exuid);
	pystr_release(&k);
	pd_groupby_free(g);
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
	if (!strncmp(sheet, "short_kernel", 12))
		return 1;
	if (!strcmp(sheet, "kernel_summary"))
		return has_kernels(pr);
	if (pr->tp->gpu_only || !pr->tp->nlaunch)
		return 0;
	if (!strcmp(sheet, "unified_perf_summary")) {
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
		{ "ops_summary_by_category", write_ops_by_category },
		{ "ops_summary", write_ops_summary },
		{ "ops_unique_args", write_ops_unique_args },
		{ "unified_perf_summary", write_unified },
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
