#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "err.h"
#include "pd_frame.h"
#include "outbuf.h"
#include "compare.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

#define CUM_PCT "Cumulative Percentage (%)"

/* How one input sheet is compared (SHEETS_COMPARE_CONFIG and friends). */
struct sheet_cfg {
	const char *sheet;		/* input SHEET.csv */
	const char *out;		/* output name, or prefix of split names */
	const char *const *keys;	/* NULL for roofline: name + params */
	const char *const *diff;
	const char *const *drop;	/* from every report */
	const char *const *drop_variant;	/* from non-baseline reports */
	const char *sort;		/* baseline column to sort by, or NULL */
	int split;			/* intersect / only_* sheets */
};

static const char *const k_type[] = { "type", NULL };
static const char *const k_name[] = { "name", NULL };
static const char *const k_kernel[] = { "Kernel name", NULL };
static const char *const k_args[] = {
	"name", "Input type", "Input Dims", "Input Strides", "Concrete Inputs",
	NULL
};
static const char *const d_time[] = { "time ms", NULL };
static const char *const d_ops[] = {
	"total_direct_kernel_time_ms", "Count", NULL
};
static const char *const x_ops[] = { "total_direct_kernel_time_sum", NULL };
static const char *const x_cum[] = { CUM_PCT, NULL };
static const char *const d_kern[] = {
	"Kernel duration (\xc2\xb5s)_sum", "Kernel duration (\xc2\xb5s)_mean",
	"Kernel duration (\xc2\xb5s)_count", NULL
};
static const char *const x_kern[] = {
	"Kernel duration (\xc2\xb5s)_min", "Kernel duration (\xc2\xb5s)_max",
	"Parent op category", NULL
};
static const char *const d_legacy[] = {
	"Total Kernel Time (ms)", "Mean Kernel Time (\xc2\xb5s)", "Count", NULL
};
static const char *const x_legacy[] = {
	"Total Kernel Time (\xc2\xb5s)", "Median Kernel Time (\xc2\xb5s)",
	"Std Kernel Time (\xc2\xb5s)", "Min Kernel Time (\xc2\xb5s)",
	"Max Kernel Time (\xc2\xb5s)", "Category", NULL
};
static const char *const d_opsall[] = {
	"total_direct_kernel_time_sum", "total_direct_kernel_time_mean",
	"operation_count", NULL
};
static const char *const d_unified[] = {
	"Kernel Time (\xc2\xb5s)_sum", "Kernel Time (\xc2\xb5s)_mean",
	"operation_count", NULL
};
static const char *const d_roof[] = {
	"Kernel Time (\xc2\xb5s)_sum", "Kernel Time (\xc2\xb5s)_mean",
	"name_count", "TFLOPS/s_mean", "TB/s_mean", NULL
};
static const char *const x_roof[] = {
	"GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first",
	"Input type_first", "Input Dims_first", "Input Strides_first",
	"Concrete Inputs_first", NULL
};

static const struct sheet_cfg cfg_timeline = {
	"gpu_timeline", "gpu_timeline", k_type, d_time, NULL, NULL, NULL, 0
};
static const struct sheet_cfg cfg_ops = {
	"ops_summary", "ops_summary", k_name, d_ops, x_ops, x_cum,
	"total_direct_kernel_time_ms", 0
};
static const struct sheet_cfg cfg_kernel = {
	"kernel_summary", "kernel_summary", k_kernel, d_kern, x_kern, x_cum,
	"Kernel duration (\xc2\xb5s)_sum", 0
};
static const struct sheet_cfg cfg_kernel_legacy = {
	"kernel_summary", "kernel_summary", k_name, d_legacy, x_legacy, x_cum,
	"Total Kernel Time (ms)", 0
};
static const struct sheet_cfg cfg_opsall[] = {
	{ "ops_all", "ops_all", k_args, d_opsall, NULL, NULL,
	  "total_direct_kernel_time_sum", 1 },
	{ "ops_unique_args", "ops_unique_args", k_args, d_opsall, NULL, NULL,
	  "total_direct_kernel_time_sum", 1 },
	{ "unified_perf_summary", "unified_perf_summary", k_args, d_unified,
	  NULL, NULL, "Kernel Time (\xc2\xb5s)_sum", 1 },
};
#define ROOF(sheet, out) { sheet, out, NULL, d_roof, NULL, x_roof, \
			   "Kernel Time (\xc2\xb5s)_sum", 1 }
static const struct sheet_cfg cfg_roof[] = {
	ROOF("GEMM", "GEMM"), ROOF("SDPA_fwd", "SDPA_fwd"),
	ROOF("SDPA_bwd", "SDPA_bwd"), ROOF("CONV_fwd", "CONV_fwd"),
	ROOF("CONV_bwd", "CONV_bwd"), ROOF("UnaryElementwise", "un_eltwise"),
	ROOF("BinaryElementwise", "bin_eltwise"),
};

static const struct {
	const char *name;
	unsigned bit;
} group_names[] = {
	{ "all", RC_ALL }, { "gpu_timeline", RC_GPU_TIMELINE },
	{ "kernel_summary", RC_KERNEL_SUMMARY }, { "ops_all", RC_OPS_ALL },
	{ "ops_summary", RC_OPS_SUMMARY }, { "roofline", RC_ROOFLINE },
};

unsigned compare_group(const char *name)
{
	for (size_t i = 0; i < sizeof(group_names) / sizeof(*group_names); i++)
		if (!strcmp(group_names[i].name, name))
			return group_names[i].bit;
	return 0;
}

/* os.path.splitext(os.path.basename(dir))[0], trailing slashes ignored */
char *compare_default_tag(const char *dir)
{
	size_t end = strlen(dir), start, dot, i;

	while (end > 1 && dir[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && dir[start - 1] != '/')
		start--;
	for (dot = end; dot > start && dir[dot - 1] != '.'; dot--)
		;
	if (dot > start) {
		dot--;		/* the last '.'; it counts only after a non-dot */
		for (i = start; i < dot && dir[i] == '.'; i++)
			;
		if (i < dot)
			end = dot;
	}
	return xstrndup(dir + start, end - start);
}

static char *sheet_path(const char *dir, const char *sheet)
{
	size_t len = strlen(dir) + strlen(sheet) + 6;
	char *p = xmalloc(len);

	snprintf(p, len, "%s/%s.csv", dir, sheet);
	return p;
}

static int has_sheet(const char *dir, const char *sheet)
{
	char *p = sheet_path(dir, sheet);
	int ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

/* The reports' copies of one sheet, typed. */
struct inputs {
	size_t n;
	struct csv *csv;
	struct pd_frame *fr;
	char **path;
};

static void inputs_free(struct inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		pd_frame_release(&in->fr[i]);
		csv_release(&in->csv[i]);
		free(in->path[i]);
	}
	free(in->csv);
	free(in->fr);
	free(in->path);
}

static int load_inputs(const struct compare *rc, const char *sheet,
		       struct inputs *in)
{
	in->n = rc->n;
	in->csv = xcalloc(rc->n, sizeof(*in->csv));
	in->fr = xcalloc(rc->n, sizeof(*in->fr));
	in->path = xcalloc(rc->n, sizeof(*in->path));
	for (size_t i = 0; i < rc->n; i++)
		in->path[i] = sheet_path(rc->dirs[i], sheet);
	for (size_t i = 0; i < rc->n; i++) {
		if (access(in->path[i], F_OK) != 0) {
			tl_warn("%s: no %s.csv, %s not compared", rc->dirs[i],
				sheet, sheet);
			return -1;
		}
		if (csv_read(&in->csv[i], in->path[i]) < 0) {
			tl_warn("%s: not compared", sheet);
			return -1;
		}
		pd_frame_from_csv(&in->fr[i], &in->csv[i]);
	}
	return 0;
}

static void drop_all(struct pd_frame *f, const char *const *cols)
{
	for (size_t i = 0; cols && cols[i]; i++)
		pd_frame_drop(f, cols[i]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Roofline keys: name, then sorted(param:* columns every report has). */
static size_t roofline_keys(const struct inputs *in, char ***keys)
{
	const struct pd_frame *b = &in->fr[0];
	size_t n = 1;

	*keys = xcalloc(b->ncols + 1, sizeof(**keys));
	(*keys)[0] = "name";
	for (size_t j = 0; j < b->ncols; j++) {
		const char *c = b->col[j].name;
		size_t i;
		if (strncmp(c, "param:", 6))
			continue;
		for (i = 1; i < in->n && pd_frame_find(&in->fr[i], c) >= 0; i++)
			;
		if (i == in->n)
			(*keys)[n++] = b->col[j].name;
	}
	tl_qsort(*keys + 1, n - 1, sizeof(**keys), cmp_str);
	return n;
}

static size_t copy_keys(const char *const *src, char ***keys)
{
	size_t n = 0;

	while (src[n])
		n++;
	*keys = xcalloc(n + 1, sizeof(**keys));
	for (size_t i = 0; i < n; i++)
		(*keys)[i] = (char *)src[i];
	return n;
}

/* pandas would raise KeyError or TypeError on these; say which file. */
static int check_columns(const struct inputs *in, char *const *keys,
			 size_t nkeys, const char *const *diff)
{
	for (size_t i = 0; i < in->n; i++) {
		const struct pd_frame *f = &in->fr[i];
		for (size_t k = 0; k < nkeys; k++)
			if (pd_frame_find(f, keys[k]) < 0) {
				tl_warn("%s: no key column '%s'", in->path[i],
					keys[k]);
				return -1;
			}
		for (size_t k = 0; diff[k]; k++) {
			long j = pd_frame_find(f, diff[k]);
			if (j < 0) {
				tl_warn("%s: no column '%s'", in->path[i],
					diff[k]);
				return -1;
			}
			if (f->col[j].type != COL_INT &&
			    f->col[j].type != COL_FLOAT) {
				tl_warn("%s: column '%s' is not numeric",
					in->path[i], diff[k]);
				return -1;
			}
		}
	}
	return 0;
}

static int is_key(char *const *keys, size_t nkeys, const char *name)
{
	for (size_t k = 0; k < nkeys; k++)
		if (!strcmp(keys[k], name))
			return 1;
	return 0;
}

static char *join3(const char *a, const char *b, const char *c)
{
	size_t len = strlen(a) + strlen(b) + strlen(c) + 1;
	char *s = xmalloc(len);

	snprintf(s, len, "%s%s%s", a, b, c);
	return s;
}

static void prefix_columns(struct pd_frame *f, const char *tag, char *const *keys,
			   size_t nkeys)
{
	for (size_t j = 0; j < f->ncols; j++) {
		if (is_key(keys, nkeys, f->col[j].name))
			continue;
		char *name = join3(tag, "::", f->col[j].name);
		free(f->col[j].name);
		f->col[j].name = name;
	}
}

static void outer_merge(const struct compare *rc, struct inputs *in,
			char *const *keys, size_t nkeys, struct pd_frame *out)
{
	struct pd_frame acc, next;

	for (size_t i = 0; i < in->n; i++)
		prefix_columns(&in->fr[i], rc->tags[i], keys, nkeys);
	pd_frame_merge_outer(&acc, &in->fr[0], &in->fr[1], keys, nkeys);
	for (size_t i = 2; i < in->n; i++) {
		pd_frame_merge_outer(&next, &acc, &in->fr[i], keys, nkeys);
		pd_frame_release(&acc);
		acc = next;
	}
	*out = acc;
}

static double num(const struct cell *c)
{
	return c->kind == CELL_INT ? (double)c->v.i : c->v.d;
}

/* variant - base; int64 wraps as numpy's does */
static struct cell diff_cell(const struct cell *v, const struct cell *b,
			     int ints)
{
	struct cell d = { .kind = CELL_NA };

	if (v->kind == CELL_NA || b->kind == CELL_NA)
		return d;
	if (ints) {
		d.kind = CELL_INT;
		d.v.i = (int64_t)((uint64_t)v->v.i - (uint64_t)b->v.i);
		return d;
	}
	d.v.d = num(v) - num(b);
	d.kind = isnan(d.v.d) ? CELL_NA : CELL_FLOAT;
	return d;
}

/* 100 * (diff / base), base 0 replaced by NA (add_diff_cols) */
static struct cell pct_cell(const struct cell *d, const struct cell *b)
{
	struct cell p = { .kind = CELL_NA };

	if (d->kind == CELL_NA || b->kind == CELL_NA || num(b) == 0)
		return p;
	p.v.d = 100 * (num(d) / num(b));
	p.kind = isnan(p.v.d) ? CELL_NA : CELL_FLOAT;
	return p;
}

static void add_diff_pair(struct pd_frame *m, const char *col, const char *base,
			  const char *tag)
{
	char *bname = join3(base, "::", col), *vname = join3(tag, "::", col);
	const struct pd_frame_col *b = &m->col[pd_frame_find(m, bname)];
	const struct pd_frame_col *v = &m->col[pd_frame_find(m, vname)];
	int ints = b->type == COL_INT && v->type == COL_INT;
	struct cell *dv = xcalloc(m->nrows ? m->nrows : 1, sizeof(*dv));
	struct cell *pv = xcalloc(m->nrows ? m->nrows : 1, sizeof(*pv));
	char *mid = join3("__", tag, "");

	for (size_t r = 0; r < m->nrows; r++) {
		dv[r] = diff_cell(&v->v[r], &b->v[r], ints);
		pv[r] = pct_cell(&dv[r], &b->v[r]);
	}
	pd_frame_add(m, join3(col, mid, "_diff"), ints ? COL_INT : COL_FLOAT, dv);
	pd_frame_add(m, join3(col, mid, "_pct"), COL_FLOAT, pv);
	free(mid);
	free(bname);
	free(vname);
}

/* re.match(r".*__.*_diff|.*__.*_pct", name) */
static int is_diff_name(const char *name)
{
	const char *u = strstr(name, "__");

	return u && (strstr(u + 2, "_diff") || strstr(u + 2, "_pct"));
}

/* keys, then diff/pct columns, then the rest, each in merged order */
static void order_columns(struct pd_frame *m, size_t nkeys)
{
	size_t *order = xcalloc(m->ncols, sizeof(*order)), n = 0;

	for (size_t j = 0; j < nkeys; j++)
		order[n++] = j;
	for (size_t j = nkeys; j < m->ncols; j++)
		if (is_diff_name(m->col[j].name))
			order[n++] = j;
	for (size_t j = nkeys; j < m->ncols; j++)
		if (!is_diff_name(m->col[j].name))
			order[n++] = j;
	pd_frame_select(m, order, n);
	free(order);
}

/* build_df_dff(): prefix, merge, diff columns, column order */
static void build_diff(const struct compare *rc, struct inputs *in,
		       char *const *keys, size_t nkeys,
		       const char *const *diff, struct pd_frame *m)
{
	outer_merge(rc, in, keys, nkeys, m);
	for (size_t k = 0; diff[k]; k++)
		for (size_t t = 1; t < rc->n; t++)
			add_diff_pair(m, diff[k], rc->tags[0], rc->tags[t]);
	order_columns(m, nkeys);
}

static void write_frame(const struct compare *rc, const char *name,
			const struct pd_frame *f)
{
	char *path = sheet_path(rc->outdir, name);
	struct outbuf *ob = outbuf_open_path(path);

	pd_frame_write_csv(f, ob);
	outbuf_close(ob);
	free(path);
}

static long col_of(const struct pd_frame *f, const char *tag, const char *col)
{
	char *name = join3(tag, "::", col);
	long j = pd_frame_find(f, name);

	free(name);
	return j;
}

/* The merged frame's rows in descending order of TAG::col. */
static void sorted_rows(const struct pd_frame *m, const char *tag,
			const char *col, long *perm)
{
	pd_frame_order_desc(m, (size_t)col_of(m, tag, col), perm);
}

static void write_sorted(const struct compare *rc, const struct sheet_cfg *cfg,
			 const struct pd_frame *m)
{
	long *perm = xcalloc(m->nrows ? m->nrows : 1, sizeof(*perm));
	struct pd_frame s;

	sorted_rows(m, rc->tags[0], cfg->sort, perm);
	pd_frame_take(&s, m, perm, m->nrows);
	write_frame(rc, cfg->out, &s);
	pd_frame_release(&s);
	free(perm);
}

/* re.search(r"__(.+?)_(diff|pct)$"): the tag, or NULL */
static char *diff_tag(const char *name)
{
	const char *u = strstr(name, "__");
	size_t len = strlen(name), s;

	if (!u)
		return NULL;
	if (len >= 5 && !strcmp(name + len - 5, "_diff"))
		s = len - 5;
	else if (len >= 4 && !strcmp(name + len - 4, "_pct"))
		s = len - 4;
	else
		return NULL;
	if (s < (size_t)(u - name) + 3)
		return NULL;
	return xstrndup(u + 2, s - (size_t)(u - name) - 2);
}

static int in_kept(const char *tag, const char *const *kept)
{
	return !strcmp(tag, kept[0]) || (kept[1] && !strcmp(tag, kept[1]));
}

static int all_missing(const struct pd_frame_col *c, size_t nrows)
{
	for (size_t r = 0; r < nrows; r++)
		if (c->v[r].kind != CELL_NA)
			return 0;
	return 1;
}

/* _strip_other_tags(): keys, kept tags' columns and diffs; no all-NA */
static void strip_other_tags(struct pd_frame *f, const char *const *kept)
{
	size_t *order = xcalloc(f->ncols ? f->ncols : 1, sizeof(*order));
	size_t n = 0;

	for (size_t j = 0; j < f->ncols; j++) {
		const char *name = f->col[j].name, *sep = strstr(name, "::");
		char *tag = diff_tag(name);
		int keep;
		if (sep) {
			char *t = xstrndup(name, (size_t)(sep - name));
			keep = in_kept(t, kept);
			free(t);
		} else {
			keep = !tag || in_kept(tag, kept);
		}
		free(tag);
		if (keep && !all_missing(&f->col[j], f->nrows))
			order[n++] = j;
	}
	pd_frame_select(f, order, n);
	free(order);
}

enum { SPLIT_BOTH, SPLIT_BASE, SPLIT_VARIANT };

static void write_split(const struct compare *rc, const struct sheet_cfg *cfg,
			const struct pd_frame *m, size_t t, int which)
{
	static const char *const what[] = {
		"_intersect_", "_only_baseline_", "_only_variant_"
	};
	const char *base = rc->tags[0], *tag = rc->tags[t];
	long bj = col_of(m, base, cfg->diff[0]), vj = col_of(m, tag, cfg->diff[0]);
	long *perm = xcalloc(m->nrows ? m->nrows : 1, sizeof(*perm));
	const char *kept[2] = { which == SPLIT_VARIANT ? tag : base,
				which == SPLIT_BOTH ? tag : NULL };
	size_t n = 0;
	struct pd_frame s;

	sorted_rows(m, which == SPLIT_VARIANT ? tag : base, cfg->sort, perm);
	for (size_t i = 0; i < m->nrows; i++) {
		int hb = m->col[bj].v[perm[i]].kind != CELL_NA;
		int hv = m->col[vj].v[perm[i]].kind != CELL_NA;
		if ((which == SPLIT_BOTH && hb && hv) ||
		    (which == SPLIT_BASE && hb && !hv) ||
		    (which == SPLIT_VARIANT && !hb && hv))
			perm[n++] = perm[i];
	}
	pd_frame_take(&s, m, perm, n);
	strip_other_tags(&s, kept);
	char *name = join3(cfg->out, what[which], tag);
	write_frame(rc, name, &s);
	free(name);
	pd_frame_release(&s);
	free(perm);
}

/*
 * A row whose first compared column is missing in every report falls in
 * no split (TraceLens drops it silently); say how many.
 */
static void count_unsplit(const struct compare *rc,
			  const struct sheet_cfg *cfg, const struct pd_frame *m)
{
	size_t lost = 0, t;

	for (size_t r = 0; r < m->nrows; r++) {
		for (t = 0; t < rc->n; t++)
			if (m->col[col_of(m, rc->tags[t], cfg->diff[0])].v[r].kind
			    != CELL_NA)
				break;
		lost += t == rc->n;
	}
	if (lost)
		tl_warn("%s: %zu row%s without '%s' in any report, in no %s_* "
			"sheet", cfg->sheet, lost, lost == 1 ? "" : "s",
			cfg->diff[0], cfg->out);
}

static int any_empty(const struct inputs *in, const char *sheet)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->fr[i].nrows == 0 || in->fr[i].ncols == 0) {
			tl_warn("%s: empty, %s not compared", in->path[i],
				sheet);
			return 1;
		}
	return 0;
}

/* Compares one sheet of every report; 0, or -1 after a message. */
static int compare_sheet(const struct compare *rc, const struct sheet_cfg *cfg)
{
	struct inputs in = { 0 };
	struct pd_frame m;
	char **keys = NULL;
	size_t nkeys;
	int rcode = -1;

	if (load_inputs(rc, cfg->sheet, &in) < 0)
		goto out;
	if (cfg == &cfg_kernel && pd_frame_find(&in.fr[0], k_kernel[0]) < 0)
		cfg = &cfg_kernel_legacy;
	for (size_t i = 0; i < in.n; i++) {
		drop_all(&in.fr[i], cfg->drop);
		if (i > 0)
			drop_all(&in.fr[i], cfg->drop_variant);
	}
	if (!cfg->keys && any_empty(&in, cfg->sheet)) {
		rcode = 0;	/* TraceLens skips such a roofline sheet */
		goto out;
	}
	nkeys = cfg->keys ? copy_keys(cfg->keys, &keys) : roofline_keys(&in, &keys);
	if (check_columns(&in, keys, nkeys, cfg->diff) < 0)
		goto out;
	build_diff(rc, &in, keys, nkeys, cfg->diff, &m);
	if (!cfg->split) {
		if (cfg->sort)
			write_sorted(rc, cfg, &m);
		else
			write_frame(rc, cfg->out, &m);
	} else {
		count_unsplit(rc, cfg, &m);
		for (size_t t = 1; t < rc->n; t++)
			for (int w = SPLIT_BOTH; w <= SPLIT_VARIANT; w++)
				write_split(rc, cfg, &m, t, w);
	}
	pd_frame_release(&m);
	rcode = 0;
out:
	free(keys);
	inputs_free(&in);
	return rcode;
}

/*
 * A summary sheet the baseline lacks: TraceLens raises ValueError; here
 * that is an error only when the group was asked for by name.
 */
static int missing_in_base(const struct compare *rc, unsigned bit,
			   const char *sheet)
{
	if (rc->groups_named & bit) {
		tl_warn("%s: no %s.csv", rc->dirs[0], sheet);
		return -1;
	}
	tl_warn("%s: no %s.csv, %s not compared", rc->dirs[0], sheet, sheet);
	return 0;
}

static int run_single(const struct compare *rc, unsigned bit,
		      const struct sheet_cfg *cfg)
{
	if (!(rc->groups & bit))
		return 0;
	if (!has_sheet(rc->dirs[0], cfg->sheet))
		return missing_in_base(rc, bit, cfg->sheet);
	return compare_sheet(rc, cfg);
}

static int run_list(const struct compare *rc, unsigned bit,
		    const struct sheet_cfg *cfg, size_t n)
{
	int status = 0;

	if (!(rc->groups & bit))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (has_sheet(rc->dirs[0], cfg[i].sheet) &&
		    compare_sheet(rc, &cfg[i]) < 0)
			status = -1;
	return status;
}

int compare_run(const struct compare *rc)
{
	int bad = 0;

	bad |= run_single(rc, RC_GPU_TIMELINE, &cfg_timeline) < 0;
	bad |= run_single(rc, RC_OPS_SUMMARY, &cfg_ops) < 0;
	bad |= run_single(rc, RC_KERNEL_SUMMARY, &cfg_kernel) < 0;
	bad |= run_list(rc, RC_OPS_ALL, cfg_opsall,
			sizeof(cfg_opsall) / sizeof(*cfg_opsall)) < 0;
	bad |= run_list(rc, RC_ROOFLINE, cfg_roof,
			sizeof(cfg_roof) / sizeof(*cfg_roof)) < 0;
	return bad ? TL_EXIT_BAD : TL_EXIT_OK;
}
