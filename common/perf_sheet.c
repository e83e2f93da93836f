#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_annidx.h"
#include "err.h"
#include "pd_groupby.h"
#include "np_stat.h"
#include "perf_model.h"
#include "perf_model_memo.h"
#include "perf_sheet.h"
#include "py_fmt.h"
#include "py_repr.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* One event's metrics: TraceLens compute_perf_metrics (TP:387-531). */
struct psrow {
	uint32_t uid;
	struct pm_result r;
	double kt;		/* Kernel Time (µs): busy time of kern */
	uint32_t *kern;		/* GPU events, sorted by ts */
	uint32_t nk;
	int has_rl;
	struct roofline rl;
};

enum { T_SINGLE, T_FWD, T_BWD };

struct pstable {
	char *name;		/* "GEMM", "SDPA_fwd", ... */
	const char *base;	/* the ops.tsv sheet */
	int type;
	struct psrow *rows;
	size_t n, alloc;
};

struct perf_sheet {
	struct perf_report *pr;
	struct perf_tree *tp;
	const struct tree_nodes *ns;
	const struct perf_arch *arch;
	uint32_t *boff, *bl;	/* node i's linked backward events: bl[boff[i]..boff[i+1]) */
	struct pstable *t;
	size_t nt;
	const char **names;	/* non-empty tables (and their _kl_overlap twins) */
	size_t nnames;
	char **klnames;		/* per table: its _kl_overlap name, or NULL */
	/*
	 * The nodes of each ops.tsv sheet, looked up once, in uid order:
	 * bysheet[bsoff[j]..bsoff[j + 1]) for the sheet whose first table is
	 * t[j] (empty for the other tables)
	 */
	uint32_t *bysheet, *bsoff;
	struct perf_annidx *ann;	/* user annotations (infer_attn's iteration labels) */
};

/* Sheets TraceLens writes as one table, computed forward only (GPR:540-760). */
static const char *const single[] = {
	"GEMM", "UnaryElementwise", "BinaryElementwise", "Normalization", NULL
};
/* The inference report (GPRI:700-790): Normalization gets _fwd, no _bwd
 * table is ever written (its op list is emptied before use), and only
 * these two backward ops leave the fwd table — for nowhere. */
static const char *const single_inference[] = {
	"GEMM", "UnaryElementwise", "BinaryElementwise", NULL
};
static const char *const dropped_inference[] = {
	"flash_attn::_flash_attn_varlen_backward", "aten::convolution_backward", NULL
};
/* explicit backward ops moved from the fwd table to the bwd table */
static const char *const moved[] = {
	"flash_attn::_flash_attn_varlen_backward", "aten::convolution_backward",
	"ConvBias_Backward", "ConvBiasReLU_Backward", NULL
};
/* forward convolutions kept out of the bwd table */
static const char *const not_bwd[] = {
	"aten::convolution", "aten::miopen_convolution", "aten::cudnn_convolution",
	"ConvBias_", "ConvBiasReLU_", NULL
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static const struct node *ND(const struct perf_sheet *ps, uint32_t uid)
{
	return &ps->ns->node[uid];
}

static const char *NM(const struct perf_sheet *ps, uint32_t uid)
{
	return tree_nodes_str(ps->ns, ND(ps, uid)->name);
}

/* ---- kernels of an event ---------------------------------------------- */

static const struct perf_sheet *sort_ps;

static int cmp_ts(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double tx = ND(sort_ps, x)->ts, ty = ND(sort_ps, y)->ts;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x > y) - (x < y);
}

static void add_uids(uint32_t **v, size_t *n, size_t *alloc, const uint32_t *u, uint32_t m)
{
	xgrow((void **)v, alloc, *n + m + 1, sizeof(**v));
	tl_memcpy(*v + *n, u, m * sizeof(*u));
	*n += m;
}

/* get_subtree_bwd_events: backward events linked to uid or any descendant,
 * then all their GPU events */
static uint32_t *bwd_kernels(const struct perf_sheet *ps, uint32_t uid, size_t *n)
{
	const struct perf_tree *tp = ps->tp;
	uint32_t *stack = NULL, *out = NULL;
	size_t ns = 0, sa = 0, oa = 0;

	*n = 0;
	add_uids(&stack, &ns, &sa, &uid, 1);
	while (ns) {
		uint32_t u = stack[--ns];
		for (uint32_t i = ps->boff[u]; i < ps->boff[u + 1]; i++) {
			uint32_t m;
			const uint32_t *g = perf_tree_gpu_events(tp, ps->bl[i], &m);
			add_uids(&out, n, &oa, g, m);
		}
		add_uids(&stack, &ns, &sa, tp->ch + tp->ch_off[u], tp->ch_off[u + 1] - tp->ch_off[u]);
	}
	free(stack);
	return out;
}

static int has_bwd_events(const struct perf_sheet *ps, uint32_t uid)
{
	return ps->boff[uid + 1] > ps->boff[uid];
}

static void row_kernels(const struct perf_sheet *ps, uint32_t uid, int bwd, struct psrow *row)
{
	size_t n = 0, m = 0;
	uint32_t *k;

	if (bwd) {
		k = bwd_kernels(ps, uid, &n);
	} else {
		uint32_t c;
		const uint32_t *g = perf_tree_gpu_events(ps->tp, uid, &c);
		size_t a = 0;
		k = NULL;
		add_uids(&k, &n, &a, g, c);
	}
	sort_ps = ps;
	if (n)
		tl_qsort(k, n, sizeof(*k), cmp_ts);
	/* one GPU event reached through two backward roots counts once */
	for (size_t i = 0; i < n; i++)
		if (!m || k[m - 1] != k[i])
			k[m++] = k[i];
	row->kern = k;
	row->nk = (uint32_t)m;
	row->kt = perf_tree_busy(ps->tp, k, m);
}

/* ---- one event through its model ------------------------------------- */

static const char *arg(const struct perf_sheet *ps, uint32_t id)
{
	return id ? tree_nodes_str(ps->ns, id) : NULL;
}

static double gflops(const struct psrow *w)
{
	return w->r.flops / 1e9;
}

static double tflops_s(const struct psrow *w)
{
	return w->kt > 0 ? (gflops(w) / 1e3) / (w->kt / 1e6) : NAN;
}

static double data_mb(const struct psrow *w)
{
	return w->r.has_bytes ? w->r.bytes / (1024.0 * 1024.0) : NAN;
}

static double flops_byte(const struct psrow *w)
{
	return w->r.has_bytes && w->r.bytes > 0 ? gflops(w) * 1e9 / w->r.bytes : NAN;
}

static double tb_s(const struct psrow *w)
{
	return w->r.has_bytes && w->kt > 0 ? (w->r.bytes / 1e12) / (w->kt / 1e6) : NAN;
}

/* 1 with the row filled; 0 (row released) when the model does not apply */
static int compute_row(const struct perf_sheet *ps, uint32_t uid, int bwd, struct psrow *row)
{
	const struct node *nd = ND(ps, uid);
	const struct perf_ops_entry *e = perf_tree_op(ps->tp, uid);
	struct pm_args a = { .dims = arg(ps, nd->dims), .types = arg(ps, nd->types),
			     .strides = arg(ps, nd->strides), .concrete = arg(ps, nd->concrete),
			     .opname = NM(ps, uid), .args = arg(ps, nd->args) };
	const char **kn;

	if (ps->pr->inference ? perf_annidx_applies_inference(a.opname) :
				perf_annidx_applies(a.opname))
		a.annotation = perf_annidx_lookup(ps->ann, nd);
	memset(row, 0, sizeof(*row));
	row->uid = uid;
	row_kernels(ps, uid, bwd, row);
	kn = xmalloc(st_mult(row->nk + 1, sizeof(*kn)));
	for (uint32_t i = 0; i < row->nk; i++)
		kn[i] = NM(ps, row->kern[i]);
	perf_model_memo_compute(e, &a, kn, row->nk, bwd, &row->r);
	free(kn);
	if (row->r.status != PM_OK)
		return 0;
	if (ps->arch)
		row->has_rl = perf_arch_roofline(ps->arch, row->r.spec, row->r.flops, row->r.bytes,
					    row->r.has_bytes, row->kt, &row->rl);
	return 1;
}

static void row_release(struct psrow *row)
{
	pm_result_release(&row->r);
	free(row->kern);
	row->kern = NULL;
}

/* ---- building the tables ---------------------------------------------- */

static void table_add(struct pstable *t, const struct psrow *row)
{
	xgrow((void **)&t->rows, &t->alloc, t->n + 1, sizeof(*t->rows));
	t->rows[t->n++] = *row;
}

static const char *lookup_sheet(const struct perf_sheet *ps, uint32_t uid)
{
	const struct node *nd = ND(ps, uid);
	const struct perf_ops_entry *e;

	if (node_is_gpu(nd) || nd->cat == NC_META)
		return NULL;
	e = perf_tree_op(ps->tp, uid);
	if (!e || !strcmp(e->kind, "none") || !strcmp(e->sheet, "-") || strchr(e->name, '*'))
		return NULL;
	return e->sheet;
}

/* The first table of sheet (t[nt] where none is: an empty bucket). */
static size_t first_table(const struct perf_sheet *ps, const char *sheet)
{
	for (size_t j = 0; j < ps->nt; j++)
		if (!strcmp(ps->t[j].base, sheet))
			return j;
	return ps->nt;
}

/* Node u's bucket: its sheet's first table, or nt; *last keeps a lookup. */
static size_t bucket_of(const struct perf_sheet *ps, uint32_t u, const char **last,
			size_t *last_j)
{
	const char *s = lookup_sheet(ps, u);

	if (!s)
		return ps->nt;
	if (s != *last) {	/* the last sheet's table kept: ops repeat */
		*last = s;
		*last_j = first_table(ps, s);
	}
	return *last_j;
}

/*
 * Every table used to scan every node for its sheet (nodes × tables);
 * the nodes are put in buckets by sheet instead, once, keeping uid order:
 * counted in one pass, placed in a second (the lookups are memos), with
 * no array by node — freed before the tables grow, such an array (3 MB
 * on the x20 trace) raised glibc's mmap threshold early, and the tables
 * then took 12 MB more of the heap at tl-perf's peak.
 */
static void bucket_nodes(struct perf_sheet *ps)
{
	const char *last = NULL;
	size_t last_j = ps->nt, *fill;

	ps->bsoff = xcalloc(ps->nt + 2, sizeof(*ps->bsoff));
	for (uint32_t u = 0; u < ps->ns->n; u++)
		ps->bsoff[bucket_of(ps, u, &last, &last_j) + 1]++;
	for (size_t j = 0; j <= ps->nt; j++)
		ps->bsoff[j + 1] += ps->bsoff[j];
	ps->bysheet = xcalloc(ps->bsoff[ps->nt + 1] + 1, sizeof(*ps->bysheet));
	fill = xcalloc(ps->nt + 1, sizeof(*fill));
	for (uint32_t u = 0; u < ps->ns->n; u++) {
		size_t j = bucket_of(ps, u, &last, &last_j);
		ps->bysheet[ps->bsoff[j] + fill[j]++] = u;
	}
	free(fill);
}

/* Fills the table(s) of one ops.tsv sheet; counts dropped events. */
static void build(struct perf_sheet *ps, struct pstable *t)
{
	size_t failed = 0, total = 0, nobwd = 0, missing = 0, j = first_table(ps, t->base);
	struct psrow row;

	for (size_t k = ps->bsoff[j]; k < ps->bsoff[j + 1]; k++) {
		uint32_t u = ps->bysheet[k];
		const char *name = NM(ps, u);
		int bwd = t->type == T_BWD;

		if (t->type == T_FWD && in_list(ps->pr->inference ? dropped_inference : moved, name))
			continue;
		if (t->type == T_BWD && (!strcmp(name, "vllm::unified_attention_with_output") ||
					 in_list(not_bwd, name)))
			continue;
		if (t->type == T_BWD && in_list(moved, name))
			bwd = 0;	/* moved from the fwd table as computed there */
		total++;
		if (!compute_row(ps, u, bwd, &row)) {
			if (row.r.status == PM_FAIL)
				failed++;
			else if (row.r.status == PM_NOMODEL)
				missing++;
			row_release(&row);
			continue;
		}
		if (bwd && !has_bwd_events(ps, u)) {
			nobwd++;
			row_release(&row);
			continue;
		}
		table_add(t, &row);
	}
	if (failed)
		tl_warn("%s: %zu/%zu events with failed performance metric computation left out",
			t->name, failed, total);
	if (missing)
		tl_warn("%s: %zu/%zu events left out: their model is not implemented in tl",
			t->name, missing, total);
	(void)nobwd;	/* forward ops without backward: TraceLens only warns */
}

static void add_table(struct perf_sheet *ps, const char *base, int type)
{
	struct pstable *t;
	size_t n = strlen(base) + 5;

	ps->t = xrealloc(ps->t, st_mult(ps->nt + 1, sizeof(*ps->t)));
	t = &ps->t[ps->nt++];
	memset(t, 0, sizeof(*t));
	t->base = base;
	t->type = type;
	t->name = xmalloc(n);
	snprintf(t->name, n, "%s%s", base, type == T_FWD ? "_fwd" : type == T_BWD ? "_bwd" : "");
}

static void index_bwd(struct perf_sheet *ps)
{
	size_t n = ps->ns->n;

	ps->boff = xcalloc(n + 2, sizeof(*ps->boff));
	for (size_t i = 0; i < n; i++)
		if (ps->ns->node[i].fwd >= 0 && (size_t)ps->ns->node[i].fwd < n)
			ps->boff[ps->ns->node[i].fwd + 1]++;
	for (size_t i = 0; i < n; i++)
		ps->boff[i + 1] += ps->boff[i];
	ps->bl = xmalloc(st_mult(ps->boff[n] + 1, sizeof(*ps->bl)));
	{
		uint32_t *fill = xcalloc(n + 1, sizeof(*fill));
		for (size_t i = 0; i < n; i++) {
			int32_t f = ps->ns->node[i].fwd;
			if (f >= 0 && (size_t)f < n)
				ps->bl[ps->boff[f] + fill[f]++] = (uint32_t)i;
		}
		free(fill);
	}
}

struct perf_sheet *perf_sheet_new(struct perf_report *pr, const struct perf_arch *arch)
{
	struct perf_sheet *ps = xcalloc(1, sizeof(*ps));
	const struct perf_ops *db = pr->tp->db;

	ps->pr = pr;
	ps->tp = pr->tp;
	ps->ns = pr->tp->ns;
	ps->arch = arch;
	ps->ann = perf_annidx_new(ps->ns);
	index_bwd(ps);
	/* sheets in op-table order, as TraceLens's dict of sheet categories */
	for (size_t i = 0; i < perf_ops_count(db); i++) {
		const struct perf_ops_entry *e = perf_ops_at(db, i);
		int seen = 0;
		if (!strcmp(e->kind, "none") || !strcmp(e->sheet, "-"))
			continue;
		for (size_t j = 0; j < ps->nt && !seen; j++)
			seen = !strcmp(ps->t[j].base, e->sheet);
		if (seen)
			continue;
		if (in_list(pr->inference ? single_inference : single, e->sheet)) {
			add_table(ps, e->sheet, T_SINGLE);
		} else {
			add_table(ps, e->sheet, T_FWD);
			if (!pr->inference)
				add_table(ps, e->sheet, T_BWD);
		}
	}
	ps->names = xcalloc(ps->nt + 1, sizeof(*ps->names));
	if (ps->tp->gpu_only)
		return ps;
	bucket_nodes(ps);
	ps->klnames = xcalloc(ps->nt + 1, sizeof(*ps->klnames));
	for (size_t j = 0; j < ps->nt; j++) {
		build(ps, &ps->t[j]);
		if (ps->t[j].n)
			ps->names[ps->nnames++] = ps->t[j].name;
	}
	/* only the tables read them: the unified sheet, written later, holds
	 * tl-perf's peak */
	free(ps->bysheet);
	free(ps->bsoff);
	ps->bysheet = ps->bsoff = NULL;
	/* --include_overlap_info: each table's _kl_overlap twin, after the
	 * single table or after the _fwd/_bwd pair (GPR:574-752) */
	if (ps->tp->launch_ov) {
		const char **all = xcalloc(2 * ps->nnames + 1, sizeof(*all));
		size_t n = 0, pending = 0;
		for (size_t j = 0; j < ps->nt; j++) {
			struct pstable *t = &ps->t[j];
			if (t->n) {
				size_t len = strlen(t->name) + 12;
				ps->klnames[j] = xmalloc(len);
				snprintf(ps->klnames[j], len, "%s_kl_overlap", t->name);
				all[n++] = t->name;
			}
			if (t->type == T_FWD)
				continue;
			for (size_t i = pending; i <= j; i++)
				if (ps->klnames[i])
					all[n++] = ps->klnames[i];
			pending = j + 1;
		}
		free(ps->names);
		ps->names = all;
		ps->nnames = n;
	}
	return ps;
}

void perf_sheet_free(struct perf_sheet *ps)
{
	if (!ps)
		return;
	for (size_t j = 0; j < ps->nt; j++) {
		for (size_t i = 0; i < ps->t[j].n; i++)
			row_release(&ps->t[j].rows[i]);
		free(ps->t[j].rows);
		free(ps->t[j].name);
		free(ps->klnames ? ps->klnames[j] : NULL);
	}
	free(ps->klnames);
	free(ps->t);
	free(ps->names);
	free(ps->boff);
	free(ps->bl);
	free(ps->bysheet);
	free(ps->bsoff);
	perf_annidx_free(ps->ann);
	free(ps);
}

const char *perf_sheet_name(struct perf_sheet *ps, size_t i)
{
	return i < ps->nnames ? ps->names[i] : NULL;
}

static struct pstable *find_table(struct perf_sheet *ps, const char *name, int *kl)
{
	size_t len = strlen(name);

	*kl = len > 11 && !strcmp(name + len - 11, "_kl_overlap");
	if (*kl)
		len -= 11;
	for (size_t j = 0; j < ps->nt; j++)
		if (strlen(ps->t[j].name) == len && !strncmp(ps->t[j].name, name, len))
			return &ps->t[j];
	return NULL;
}

/* the sheet bases of the table, in order, each once */
static size_t sheet_bases(const struct perf_ops *db, const char ***out)
{
	size_t n = 0, a = 0;

	*out = NULL;
	for (size_t i = 0; i < perf_ops_count(db); i++) {
		const struct perf_ops_entry *e = perf_ops_at(db, i);
		size_t j;
		if (!strcmp(e->kind, "none") || !strcmp(e->sheet, "-"))
			continue;
		for (j = 0; j < n && strcmp((*out)[j], e->sheet); j++)
			;
		if (j == n) {
			xgrow((void **)out, &a, n + 1, sizeof(**out));
			(*out)[n++] = e->sheet;
		}
	}
	return n;
}

void perf_sheet_each_name(const struct perf_ops *db, void (*fn)(const char *name))
{
	const char **b;
	size_t n = sheet_bases(db, &b);
	char buf[256];

	for (size_t i = 0; i < n; i++) {
		if (in_list(single, b[i])) {
			fn(b[i]);
			continue;
		}
		snprintf(buf, sizeof(buf), "%s_fwd", b[i]);
		fn(buf);
		snprintf(buf, sizeof(buf), "%s_bwd", b[i]);
		fn(buf);
	}
	free(b);
}

int perf_sheet_exists(const struct perf_ops *db, const char *name)
{
	const char **b;
	size_t n = sheet_bases(db, &b), len = strlen(name);
	int found = 0;

	/* a _kl_overlap twin exists wherever its table does */
	if (len > 11 && !strcmp(name + len - 11, "_kl_overlap"))
		len -= 11;
	for (size_t i = 0; i < n && !found; i++) {
		size_t bl = strlen(b[i]);
		if (in_list(single, b[i]))
			found = (len == bl && !strncmp(name, b[i], bl)) ||
				/* Normalization_fwd: the inference report's name */
				(!in_list(single_inference, b[i]) && len == bl + 4 &&
				 !strncmp(name, b[i], bl) && !strncmp(name + bl, "_fwd", 4));
		else
			found = len == bl + 4 && !strncmp(name, b[i], bl) &&
				(!strncmp(name + bl, "_fwd", 4) || !strncmp(name + bl, "_bwd", 4));
	}
	free(b);
	return found;
}

/* ---- writing: summarize_df_perf_metrics (TP:669-875) ------------------ */

struct pagg {
	double mean, median, std, min, max, sum;
};

/* pandas' aggregations skip NaN */
static void pagg(const double *x, size_t n, struct pagg *a)
{
	double *v = xmalloc(st_mult(n + 1, sizeof(*v)));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i])
			v[m++] = x[i];
	a->sum = pd_gsum(v, m);
	a->mean = m ? pd_mean(v, m) : NAN;
	a->std = pd_gstd(v, m);
	a->min = m ? np_min(v, m) : NAN;
	a->max = m ? np_max(v, m) : NAN;
	a->median = m ? pd_median(v, m) : NAN;
	free(v);
}

static void agg_cells(struct sheet *sh, const struct pagg *a, int with_sum)
{
	sheet_float(sh, a->mean);
	sheet_float(sh, a->median);
	sheet_float(sh, a->std);
	sheet_float(sh, a->min);
	sheet_float(sh, a->max);
	if (with_sum)
		sheet_float(sh, a->sum);
}

/* param columns in first-seen order over the rows */
static size_t param_cols(const struct pstable *t, const char ***cols)
{
	size_t n = 0, a = 0;

	*cols = NULL;
	for (size_t i = 0; i < t->n; i++)
		for (size_t p = 0; p < t->rows[i].r.nparam; p++) {
			const char *k = t->rows[i].r.param[p].key;
			size_t j;
			for (j = 0; j < n && strcmp((*cols)[j], k); j++)
				;
			if (j == n) {
				xgrow((void **)cols, &a, n + 1, sizeof(**cols));
				(*cols)[n++] = k;
			}
		}
	return n;
}

static const struct pm_param *find_param(const struct psrow *w, const char *key)
{
	for (size_t p = 0; p < w->r.nparam; p++)
		if (!strcmp(w->r.param[p].key, key))
			return &w->r.param[p];
	return NULL;
}

struct pgroup {
	const size_t *rows;
	size_t n;
	double ksum;
	uint32_t uid;
	const char *key;
	double stotal;		/* kl_overlap: the group without overlap names */
	uint32_t suid;
};

static int cmp_pgroup(const void *a, const void *b)
{
	const struct pgroup *x = a, *y = b;

	if (x->ksum != y->ksum)
		return x->ksum > y->ksum ? -1 : 1;
	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* the optional columns of a sheet: TraceLens's options */
struct sheetopt {
	int kl;			/* _kl_overlap twin */
	int nk;			/* group_by_num_kernels */
	int rc;			/* detect_recompute */
};

static void header(struct perf_sheet *ps, struct sheet *sh, const char **pc, size_t np, int rl,
		   const struct sheetopt *so)
{
	static const char *const mid[] = {
		"GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first",
		"TB/s_mean", "TB/s_median", "TB/s_std", "TB/s_min", "TB/s_max",
		"TFLOPS/s_mean", "TFLOPS/s_median", "TFLOPS/s_std", "TFLOPS/s_min", "TFLOPS/s_max",
		"process_name_first", "process_label_first", "thread_name_first", "Compute Spec"
	};
	static const char *const roof[] = {
		"Roofline Time (µs)_first", "Roofline Bound_first", "Pct Roofline_mean",
		"Pct Roofline_median", "Pct Roofline_std", "Pct Roofline_min", "Pct Roofline_max"
	};
	static const char *const kcols[] = {
		"kernel_details__summarize_kernel_stats", "trunc_kernel_details"
	};
	static const char *const ovcols[] = {
		"overlapping_kernels_details__summarize_kernel_stats",
		"trunc_overlapping_kernels_details", "overlap_pct_mean", "overlap_pct_median",
		"overlap_pct_std", "overlap_pct_min", "overlap_pct_max"
	};
	static const char *const tail[] = {
		"Input Dims_first", "Input type_first", "Input Strides_first", "Concrete Inputs_first",
		"Kernel Time (µs)_mean", "Kernel Time (µs)_median", "Kernel Time (µs)_std",
		"Kernel Time (µs)_min", "Kernel Time (µs)_max", "Kernel Time (µs)_sum",
		"name_count", "UID_first"
	};
	size_t n = 0, cap = 1 + np + 3 + 17 + 7 + 2 + 7 + 12;
	const char **cols = xmalloc(st_mult(cap, sizeof(*cols)));
	char **owned = xcalloc(np + 1, sizeof(*owned));

	(void)ps;
	cols[n++] = "name";
	if (so->kl)
		cols[n++] = "overlapping_kernel_names_first";
	for (size_t i = 0; i < np; i++) {
		size_t len = strlen(pc[i]) + 8;
		owned[i] = xmalloc(len);
		snprintf(owned[i], len, "param: %s", pc[i]);
		cols[n++] = owned[i];
	}
	if (so->nk)
		cols[n++] = "num_kernels";
	if (so->rc)
		cols[n++] = "is_recompute";
	for (size_t i = 0; i < 17; i++)
		cols[n++] = mid[i];
	for (size_t i = 0; rl && i < 7; i++)
		cols[n++] = roof[i];
	for (size_t i = 0; i < 2; i++)
		cols[n++] = kcols[i];
	for (size_t i = 0; so->kl && i < 7; i++)
		cols[n++] = ovcols[i];
	for (size_t i = 0; i < 12; i++)
		cols[n++] = tail[i];
	sheet_header(sh, cols, n);
	for (size_t i = 0; i < np; i++)
		free(owned[i]);
	free(owned);
	free(cols);
}

static double first_num(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] == x[i])
			return x[i];
	return NAN;
}

/* the raw args as TraceLens prints them here: the list repr */
static void arg_cell(const struct perf_sheet *ps, struct sheet *sh, uint32_t id)
{
	struct pystr s = {0};

	if (id && py_repr_json(&s, tree_nodes_str(ps->ns, id), tree_nodes_len(ps->ns, id), 0) == 0)
		sheet_strn(sh, s.buf, s.len);
	else
		sheet_empty(sh);
	pystr_release(&s);
}

static void metric_cells(struct sheet *sh, const struct psrow *rows, const size_t *idx, size_t n,
			 double (*f)(const struct psrow *), int first)
{
	double *v = xmalloc(st_mult(n + 1, sizeof(*v)));
	struct pagg a;

	for (size_t i = 0; i < n; i++)
		v[i] = f(&rows[idx[i]]);
	if (first) {
		sheet_float(sh, first_num(v, n));
	} else {
		pagg(v, n, &a);
		agg_cells(sh, &a, 0);
	}
	free(v);
}

static double kt_of(const struct psrow *w) { return w->kt; }
static double rl_pct(const struct psrow *w) { return w->has_rl ? w->rl.pct : NAN; }
static double rl_time(const struct psrow *w) { return w->has_rl ? w->rl.time_us : NAN; }

/* the launcher overlap info of an event (what the event carries when the
 * per-category sheets are built), or none */
static const struct overlap_info *row_ov(const struct perf_sheet *ps, uint32_t uid)
{
	int32_t li = ps->tp->launcher_of[uid];

	return ps->tp->launch_ov && li >= 0 ? &ps->tp->launch_ov[li] : perf_report_no_overlap();
}

static void group_row(struct perf_sheet *ps, struct sheet *sh, const struct pstable *t,
		      const struct pgroup *g, const char **pc, size_t np, int rl,
		      const struct sheetopt *so)
{
	const struct psrow *r0 = &t->rows[g->rows[0]];
	const struct node *n0 = ND(ps, r0->uid);
	uint32_t **lists = xmalloc(st_mult(g->n, sizeof(*lists)));
	uint32_t *lens = xmalloc(st_mult(g->n, sizeof(*lens)));
	struct pystr full = {0}, trunc = {0};
	const char *bound = NULL;
	struct pagg kt;
	double *v = xmalloc(st_mult(g->n, sizeof(*v)));

	sheet_str(sh, NM(ps, r0->uid));
	if (so->kl) {
		const char *names = NULL;
		for (size_t i = 0; i < g->n && !names; i++)
			names = row_ov(ps, t->rows[g->rows[i]].uid)->names;
		if (names)
			sheet_str(sh, names);
		else
			sheet_empty(sh);
	}
	for (size_t i = 0; i < np; i++) {
		const struct pm_param *p = find_param(r0, pc[i]);
		if (p && p->kind != PV_NONE)
			sheet_str(sh, p->str);
		else
			sheet_empty(sh);
	}
	if (so->nk)
		sheet_int(sh, r0->nk);
	if (so->rc)
		sheet_bool(sh, ps->tp->rc[r0->uid]);
	metric_cells(sh, t->rows, g->rows, 1, gflops, 1);
	metric_cells(sh, t->rows, g->rows, g->n, data_mb, 1);
	metric_cells(sh, t->rows, g->rows, g->n, flops_byte, 1);
	metric_cells(sh, t->rows, g->rows, g->n, tb_s, 0);
	metric_cells(sh, t->rows, g->rows, g->n, tflops_s, 0);
	sheet_str(sh, tree_nodes_process_name(ps->ns, n0));
	sheet_str(sh, tree_nodes_process_label(ps->ns, n0));
	sheet_str(sh, tree_nodes_thread_name(ps->ns, n0));
	sheet_str(sh, r0->r.spec);
	if (rl) {
		metric_cells(sh, t->rows, g->rows, g->n, rl_time, 1);
		for (size_t i = 0; i < g->n && !bound; i++)
			if (t->rows[g->rows[i]].has_rl)
				bound = t->rows[g->rows[i]].rl.bound;
		if (bound)
			sheet_str(sh, bound);
		else
			sheet_empty(sh);
		metric_cells(sh, t->rows, g->rows, g->n, rl_pct, 0);
	}
	for (size_t i = 0; i < g->n; i++) {
		lists[i] = t->rows[g->rows[i]].kern;
		lens[i] = t->rows[g->rows[i]].nk;
	}
	perf_report_kernel_cells(ps->pr, lists, lens, g->n, &full, &trunc);
	sheet_strn(sh, full.buf ? full.buf : "", full.len);
	sheet_strn(sh, trunc.buf ? trunc.buf : "", trunc.len);
	if (so->kl) {
		const struct overlap_info **ov = xmalloc(st_mult(g->n, sizeof(*ov)));
		for (size_t i = 0; i < g->n; i++)
			ov[i] = row_ov(ps, t->rows[g->rows[i]].uid);
		perf_report_overlap_cells(sh, ov, g->n, 1);
		free(ov);
	}
	arg_cell(ps, sh, n0->dims);
	arg_cell(ps, sh, n0->types);
	arg_cell(ps, sh, n0->strides);
	arg_cell(ps, sh, n0->concrete);
	for (size_t i = 0; i < g->n; i++)
		v[i] = kt_of(&t->rows[g->rows[i]]);
	pagg(v, g->n, &kt);
	agg_cells(sh, &kt, 1);
	sheet_int(sh, (int64_t)g->n);
	sheet_int(sh, tree_nodes_uid(ps->ns, r0->uid));
	sheet_endrow(sh);
	pystr_release(&full);
	pystr_release(&trunc);
	free(lists);
	free(lens);
	free(v);
}

static void group_key(const struct perf_sheet *ps, const struct psrow *w, const char **pc,
		      size_t np, const struct sheetopt *so, int with_ovl, struct pystr *k)
{
	char num[24];

	pystr_reset(k);
	pystr_adds(k, NM(ps, w->uid));
	for (size_t i = 0; i < np; i++) {
		const struct pm_param *p = find_param(w, pc[i]);
		pystr_addc(k, PD_GROUPBY_SEP);
		/* astype(str): None → 'None', a missing column → 'nan' */
		pystr_adds(k, !p ? "nan" : p->repr && p->kind == PV_NONE ? "None" : p->str);
	}
	if (so->nk) {
		snprintf(num, sizeof(num), "%c%u", PD_GROUPBY_SEP, w->nk);
		pystr_adds(k, num);
	}
	if (with_ovl) {
		const char *names = row_ov(ps, w->uid)->names;
		pystr_addc(k, PD_GROUPBY_SEP);
		pystr_adds(k, names ? names : "None");
	}
	if (so->rc) {
		pystr_addc(k, PD_GROUPBY_SEP);
		pystr_adds(k, ps->tp->rc[w->uid] ? "True" : "False");
	}
}

/* kl_overlap order: the group without the overlap names (its total kernel
 * time desc, its lowest UID), then the row's own time desc and UID */
static int cmp_pgroup_kl(const void *a, const void *b)
{
	const struct pgroup *x = a, *y = b;

	if (x->stotal != y->stotal)
		return x->stotal > y->stotal ? -1 : 1;
	if (x->suid != y->suid)
		return x->suid < y->suid ? -1 : 1;
	return cmp_pgroup(a, b);
}

/* the totals and lowest UIDs of the groups without the overlap names,
 * summed in the groups' sorted-key order (TP:805-830) */
static void kl_supergroups(struct perf_sheet *ps, const struct pstable *t, struct pgroup *grp,
			   size_t ng, const char **pc, size_t np, const struct sheetopt *so)
{
	struct pd_groupby *sg = pd_groupby_new();
	struct pystr k = {0};

	for (size_t i = 0; i < ng; i++) {
		group_key(ps, &t->rows[grp[i].rows[0]], pc, np, so, 0, &k);
		pd_groupby_add(sg, k.buf, k.len, i);
	}
	for (size_t s = 0; s < pd_groupby_count(sg); s++) {
		size_t n;
		const size_t *gi = pd_groupby_rows(sg, s, &n);
		double *v = xmalloc(st_mult(n, sizeof(*v))), tot;
		uint32_t mu = UINT32_MAX;
		for (size_t j = 0; j < n; j++) {
			v[j] = grp[gi[j]].ksum;
			if (grp[gi[j]].uid < mu)
				mu = grp[gi[j]].uid;
		}
		tot = pd_gsum(v, n);
		for (size_t j = 0; j < n; j++) {
			grp[gi[j]].stotal = tot;
			grp[gi[j]].suid = mu;
		}
		free(v);
	}
	pystr_release(&k);
	pd_groupby_free(sg);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct pgroup *)a)->key, ((const struct pgroup *)b)->key);
}

int perf_sheet_write(struct perf_sheet *ps, const char *name, struct sheet *sh)
{
	struct sheetopt so = { 0, ps->pr->num_kernels, ps->tp->rc != NULL };
	struct pstable *t = find_table(ps, name, &so.kl);
	const char **pc;
	size_t np, ng;
	struct pd_groupby *g;
	struct pgroup *grp;
	struct pystr k = {0};
	int rl = 0;

	if (!t)
		return -1;
	np = param_cols(t, &pc);
	for (size_t i = 0; i < t->n; i++)
		rl |= t->rows[i].has_rl;
	g = pd_groupby_new();
	for (size_t i = 0; i < t->n; i++) {
		group_key(ps, &t->rows[i], pc, np, &so, so.kl, &k);
		pd_groupby_add(g, k.buf, k.len, i);
	}
	ng = pd_groupby_count(g);
	grp = xcalloc(ng + 1, sizeof(*grp));
	for (size_t i = 0; i < ng; i++) {
		double *v;
		grp[i].rows = pd_groupby_rows(g, i, &grp[i].n);
		grp[i].uid = t->rows[grp[i].rows[0]].uid;
		grp[i].key = pd_groupby_key(g, i);
		v = xmalloc(st_mult(grp[i].n, sizeof(*v)));
		for (size_t j = 0; j < grp[i].n; j++)
			v[j] = t->rows[grp[i].rows[j]].kt;
		grp[i].ksum = pd_gsum(v, grp[i].n);
		free(v);
	}
	if (so.kl) {
		/* groupby(sort=True): the summary's rows in key order */
		tl_qsort(grp, ng, sizeof(*grp), cmp_key);
		kl_supergroups(ps, t, grp, ng, pc, np, &so);
		tl_qsort(grp, ng, sizeof(*grp), cmp_pgroup_kl);
	} else {
		tl_qsort(grp, ng, sizeof(*grp), cmp_pgroup);
	}
	header(ps, sh, pc, np, rl, &so);
	for (size_t i = 0; i < ng; i++)
		group_row(ps, sh, t, &grp[i], pc, np, rl, &so);
	free(grp);
	free(pc);
	pystr_release(&k);
	pd_groupby_free(g);
	return 0;
}

/* ---- unified_perf_summary hook (TP:2156-2249) -------------------------- */

/* the linked forward op of a sole-backward row: the first of its five
 * parents with a fwd_event (_get_linked_fwd_event, TP:1672-1733) */
static int32_t linked_fwd(const struct perf_sheet *ps, uint32_t uid)
{
	int32_t w = ND(ps, uid)->parent;

	for (int i = 1; i < 5 && w >= 0 && ND(ps, (uint32_t)w)->fwd <= 0; i++)
		w = ND(ps, (uint32_t)w)->parent;
	return w >= 0 && ND(ps, (uint32_t)w)->fwd > 0 ? ND(ps, (uint32_t)w)->fwd : -1;
}

void perf_sheet_unified_cols(const struct perf_tree *tp, const struct unirow *row,
			    struct perfcols *out, void *ctx)
{
	struct perf_sheet *ps = ctx;
	struct psrow w;
	int32_t fwd = -1;
	int ok;

	if (!row->has_perf_model)
		return;
	if (perf_tree_has_perf_model(tp, row->uid)) {
		ok = compute_row(ps, row->uid, 0, &w);
		/* NotImplementedError drops the whole row; other failures keep
		 * it with its kernel time only */
		out->drop = !ok && w.r.status == PM_NOTIMPL;
	} else {
		if ((fwd = linked_fwd(ps, row->uid)) < 0)
			return;
		ok = compute_row(ps, (uint32_t)fwd, 1, &w);
	}
	if (ok) {
		out->has = 1;
		out->gflops = gflops(&w);
		out->data_mb = data_mb(&w);
		out->flops_per_byte = flops_byte(&w);
		out->tbps = tb_s(&w);
		out->tflops = tflops_s(&w);
		out->compute_spec = pm_text(w.r.spec);
		out->perf_params = pm_params_dict(&w.r);
		if (fwd >= 0)
			out->kernel_us = w.kt;
		if (w.has_rl) {
			out->has_rl = 1;
			out->rl_time_us = w.rl.time_us;
			out->rl_pct = w.rl.pct;
			out->rl_bound = w.rl.bound;
		}
	}
	row_release(&w);
}
