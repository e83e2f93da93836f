#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocprof_report.h"
#include "err.h"
#include "json_value.h"
#include "np_stat.h"
#include "pd_agg.h"
#include "pd_groupby.h"
#include "py_repr.h"
#include "stream.h"
#include "strpool.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

const char *const rocprof_report_names[] = {
	"gpu_timeline", "kernel_summary", "kernel_summary_by_category",
	"kernel_details", "short_kernels_summary", "short_kernel_histogram", NULL
};

/* kernel_details' identity columns, as text (TraceLens's defaults) */
enum { K_STREAM, K_DISPATCH, K_GRID_X, K_GRID_Y, K_GRID_Z, K_BLOCK_X,
       K_BLOCK_Y, K_BLOCK_Z, K_AGENT, K_THREAD, K_NID };

struct kern {
	uint32_t name;
	int64_t ts, dur;	/* ns */
	double v;		/* the duration the sheets aggregate */
	uint32_t id[K_NID];	/* strpool ids of the cells' text */
};

struct mem {
	int64_t ts, dur;
};

struct rocprof_report {
	struct rocprof_opts o;
	struct strpool *sp;
	struct kern *k;
	size_t nk, k_alloc;
	struct mem *m;
	size_t nm, m_alloc;
	int64_t init_time, fini_time;
};

/* ---- reading ---------------------------------------------------------- */

int rocprof_us_to_ns(const char *s, int64_t *ns)
{
	const char *p = s;
	int neg = 0, nfrac = 0;
	uint64_t v = 0;

	if (*p == '-')
		neg = 1, p++;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			goto slow;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9' && nfrac < 3; p++, nfrac++) {
			if (v > (UINT64_MAX - 9) / 10)
				goto slow;
			v = v * 10 + (uint64_t)(*p - '0');
		}
		if (*p >= '0' && *p <= '9')
			goto slow;
	}
	if (*p)
		goto slow;
	for (; nfrac < 3; nfrac++) {
		if (v > UINT64_MAX / 10)
			goto slow;
		v *= 10;
	}
	if (v > (uint64_t)INT64_MAX)
		goto slow;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return 0;
slow:	/* more than three decimals or an exponent: the nearest nanosecond */
	{
		char *end;
		double d = strtod(s, &end);
		if (end == s || *end || !isfinite(d) || fabs(d) > 9e15)
			return -1;
		*ns = llround(d * 1000.0);
		return 0;
	}
}

/* A JSON value as the cell pandas writes for it. */
static uint32_t cell_id(struct strpool *sp, const struct json_value *v, const char *dflt)
{
	struct pystr ps = { 0 };
	uint32_t id;

	if (!v)
		return strpool_intern(sp, dflt, strlen(dflt));
	switch (v->type) {
	case JV_INT: case JV_FLOAT: case JV_STR:
		return strpool_intern(sp, v->s, v->len);
	case JV_NULL:
		return 0;
	default:
		py_repr_jval(&ps, v, 0);
		id = strpool_intern(sp, ps.buf, ps.len);
		pystr_release(&ps);
		return id;
	}
}

static void dims(struct kern *k, struct strpool *sp, const struct json_value *v, int first)
{
	for (int d = 0; d < 3; d++) {
		const struct json_value *x = v && v->type == JV_ARR && (size_t)d < v->n
			? &v->kids[d] : NULL;
		k->id[first + d] = cell_id(sp, x, "1");
	}
}

static int read_kernel(struct rocprof_report *r, struct stream *s, const int *col)
{
	struct json_value *a = NULL;
	struct kern *k;
	const char *args = stream_field(s, col[5]);

	xgrow((void **)&r->k, &r->k_alloc, r->nk + 1, sizeof(*r->k));
	k = &r->k[r->nk];
	memset(k, 0, sizeof(*k));
	if ((*stream_field(s, col[2]) && rocprof_us_to_ns(stream_field(s, col[2]), &k->ts) < 0) ||
	    (*stream_field(s, col[3]) && rocprof_us_to_ns(stream_field(s, col[3]), &k->dur) < 0)) {
		tl_warn("%s:%ld: ts or dur is not a number", stream_name(s), stream_lineno(s));
		return -1;
	}
	k->v = r->o.fix_units ? (double)k->dur / 1000.0 : (double)k->dur;
	k->name = strpool_intern(r->sp, stream_field(s, col[1]), stream_field_len(s, col[1]));
	if (*args && !(a = json_value_parse(args, strlen(args)))) {
		tl_warn("%s:%ld: args is not JSON", stream_name(s), stream_lineno(s));
		return -1;
	}
	if (*stream_field(s, col[4]))
		k->id[K_STREAM] = strpool_intern(r->sp, stream_field(s, col[4]),
						 stream_field_len(s, col[4]));
	else
		k->id[K_STREAM] = cell_id(r->sp, json_value_get(a, "stream"), "0");
	k->id[K_DISPATCH] = cell_id(r->sp, json_value_get(a, "dispatch_id"), "0");
	k->id[K_AGENT] = cell_id(r->sp, json_value_get(a, "agent_id"), "0");
	k->id[K_THREAD] = cell_id(r->sp, json_value_get(a, "thread_id"), "0");
	dims(k, r->sp, json_value_get(a, "grid"), K_GRID_X);
	dims(k, r->sp, json_value_get(a, "block"), K_BLOCK_X);
	json_value_free(a);
	r->nk++;
	return 0;
}

static int read_mem(struct rocprof_report *r, struct stream *s, const int *col)
{
	struct mem m = { 0, 0 };

	if ((*stream_field(s, col[2]) && rocprof_us_to_ns(stream_field(s, col[2]), &m.ts) < 0) ||
	    (*stream_field(s, col[3]) && rocprof_us_to_ns(stream_field(s, col[3]), &m.dur) < 0)) {
		tl_warn("%s:%ld: ts or dur is not a number", stream_name(s), stream_lineno(s));
		return -1;
	}
	xgrow((void **)&r->m, &r->m_alloc, r->nm + 1, sizeof(*r->m));
	r->m[r->nm++] = m;
	return 0;
}

/* init_time and fini_time of #top rocprofiler-sdk-tool.metadata (0 if absent). */
static void metadata(struct rocprof_report *r, const char *json, size_t len)
{
	struct json_value *v = json_value_parse(json, len);
	const struct json_value *t;

	if ((t = json_value_get(v, "init_time")) && t->type == JV_INT)
		r->init_time = strtoll(t->s, NULL, 10);
	if ((t = json_value_get(v, "fini_time")) && t->type == JV_INT)
		r->fini_time = strtoll(t->s, NULL, 10);
	json_value_free(v);
}

static int read_stream(struct rocprof_report *r, struct stream *s)
{
	static const char *const names[] = { "cat", "name", "ts", "dur", "stream", "args" };
	int col[6], rc, sources = 0, ends = 0;
	const char *key, *json;
	size_t len;

	for (int i = 0; i < 6; i++)
		if ((col[i] = stream_col(s, names[i])) < 0) {
			tl_warn("%s:2: no column '%s' (is this a tl-cat event stream?)",
				stream_name(s), names[i]);
			return -1;
		}
	while ((rc = stream_next(s)) > 0) {
		if (rc == STREAM_DIRECTIVE) {
			if (!strncmp(stream_line(s), "source\t", 7) && sources++) {
				tl_warn("%s:%ld: more than one trace in the stream; report one at a time",
					stream_name(s), stream_lineno(s));
				return -1;
			}
			if (!strncmp(stream_line(s), "end\t", 4))
				ends++;
			if (stream_top(s, &key, &json, &len) &&
			    !strcmp(key, "rocprofiler-sdk-tool.metadata"))
				metadata(r, json, len);
			continue;
		}
		const char *cat = stream_field(s, col[0]);
		if (!strcmp(cat, "kernel")) {
			if (read_kernel(r, s, col) < 0)
				return -1;
		} else if (!strcmp(cat, "gpu_memcpy") || !strcmp(cat, "gpu_memset")) {
			if (read_mem(r, s, col) < 0)
				return -1;
		}
	}
	if (rc == 0 && ends < sources) {
		tl_warn("%s: the trace was cut short (no #end): tl-cat failed?", stream_name(s));
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

struct rocprof_report *rocprof_report_read(const char *path, const struct rocprof_opts *o)
{
	struct stream *s = stream_open(path, "events,nodes");
	struct rocprof_report *r;

	if (!s)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->o = *o;
	r->sp = strpool_new();
	if (read_stream(r, s) < 0) {
		rocprof_report_free(r);
		r = NULL;
	}
	stream_close(s);
	return r;
}

void rocprof_report_free(struct rocprof_report *r)
{
	if (!r)
		return;
	strpool_free(r->sp);
	free(r->k);
	free(r->m);
	free(r);
}

/* ---- helpers ------------------------------------------------------------ */

const char *rocprof_kernel_category(const char *name)
{
	static const struct {
		const char *cat;
		const char *keys[4];
	} rules[] = {
		{ "GEMM", { "gemm", "matmul", "cijk", NULL } },
		{ "Elementwise", { "elementwise", NULL } },
		{ "Reduction", { "reduce", "sum", NULL } },
		{ "Convolution", { "conv", NULL } },
		{ "Normalization", { "norm", NULL } },
		{ "Attention", { "flash", "attn", "fmha", NULL } },
		{ "Memory", { "copy", "memcpy", NULL } },
		{ "COMM", { "nccl", "rccl", "cross_device_reduce", NULL } },
	};
	size_t n = strlen(name);
	char *low = xmalloc(n + 1);
	const char *cat = "Other";

	/* str.lower() of ASCII; other bytes unchanged (no rule word has any) */
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]) && !strcmp(cat, "Other"); r++)
		for (int k = 0; rules[r].keys[k]; k++)
			if (strstr(low, rules[r].keys[k])) {
				cat = rules[r].cat;
				break;
			}
	free(low);
	return cat;
}

static double kahan_sum(const double *x, size_t n)
{
	double sum = 0, comp = 0;

	for (size_t i = 0; i < n; i++) {
		double y = x[i] - comp, t = sum + y;
		comp = t - sum - y;
		sum = t;
	}
	return sum;
}

/* A duration cell: an integer of nanoseconds, or a float (fix_units). */
static void dur_cell(const struct rocprof_report *r, struct sheet *sh, double v)
{
	if (r->o.fix_units)
		sheet_float(sh, v);
	else
		sheet_int(sh, (int64_t)v);
}

/* A groupby sum: exact integer nanoseconds, or pandas' Kahan float sum. */
static double group_sum(const struct rocprof_report *r, const double *x, size_t n)
{
	if (r->o.fix_units)
		return kahan_sum(x, n);
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += (int64_t)x[i];
	return (double)s;
}

/* Groups of kernels by a key (sorted, as pandas' groupby): rows are indices. */
static struct pd_groupby *group_kernels(const struct rocprof_report *r, const size_t *rows,
					size_t n, int by_category)
{
	struct pd_groupby *g = pd_groupby_new();

	for (size_t i = 0; i < n; i++) {
		const char *key = strpool_str(r->sp, r->k[rows[i]].name);
		size_t len = strpool_len(r->sp, r->k[rows[i]].name);
		if (by_category) {
			key = rocprof_kernel_category(key);
			len = strlen(key);
		}
		pd_groupby_add(g, key, len, rows[i]);
	}
	return g;
}

static size_t *all_rows(size_t n)
{
	size_t *rows = xmalloc(st_mult(n ? n : 1, sizeof(*rows)));

	for (size_t i = 0; i < n; i++)
		rows[i] = i;
	return rows;
}

static double *values(const struct rocprof_report *r, const size_t *rows, size_t n)
{
	double *x = xmalloc(st_mult(n ? n : 1, sizeof(*x)));

	for (size_t i = 0; i < n; i++)
		x[i] = r->k[rows[i]].v;
	return x;
}

/* ---- gpu_timeline --------------------------------------------------------- */

struct iv {
	double start, end;
	size_t order;
};

static int cmp_iv(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* TraceLens's _merge_intervals (stable sort by start), then the summed lengths */
static double merged_time(struct iv *v, size_t n)
{
	double sum = 0, s, e;

	if (!n)
		return 0;
	tl_qsort(v, n, sizeof(*v), cmp_iv);
	s = v[0].start;
	e = v[0].end;
	for (size_t i = 1; i < n; i++) {
		if (v[i].start <= e) {
			e = v[i].end > e ? v[i].end : e;
		} else {
			sum += e - s;
			s = v[i].start;
			e = v[i].end;
		}
	}
	return sum + (e - s);
}

static void timeline_row(struct sheet *sh, const char *type, double us, double total)
{
	sheet_str(sh, type);
	sheet_float(sh, us / 1000.0);
	sheet_float(sh, total > 0 ? us / total * 100.0 : 0.0);
	sheet_endrow(sh);
}

/* (ts / 1000.0, (ts + dur) / 1000.0): integer ns, then microseconds */
static void interval(struct iv *v, int64_t ts, int64_t dur, size_t order)
{
	v->start = (double)ts / 1000.0;
	v->end = (double)(ts + dur) / 1000.0;
	v->order = order;
}

static int write_timeline(struct rocprof_report *r, struct sheet *sh)
{
	static const char *const cols[] = { "type", "time ms", "percent" };
	size_t n = r->nk + r->nm, i;
	struct iv *v;
	double total, kernel, memory, busy, idle;

	sheet_header(sh, cols, 3);
	if (!r->nk)
		return 0;
	v = xmalloc(st_mult(n, sizeof(*v)));
	for (i = 0; i < r->nk; i++)
		interval(&v[i], r->k[i].ts, r->k[i].dur, i);
	kernel = merged_time(v, r->nk);
	for (i = 0; i < r->nm; i++)
		interval(&v[i], r->m[i].ts, r->m[i].dur, i);
	memory = merged_time(v, r->nm);
	/* kernels then memory operations, as TraceLens lists them */
	for (i = 0; i < r->nk; i++)
		interval(&v[i], r->k[i].ts, r->k[i].dur, i);
	for (i = 0; i < r->nm; i++)
		interval(&v[r->nk + i], r->m[i].ts, r->m[i].dur, r->nk + i);
	busy = merged_time(v, n);
	free(v);
	total = (double)r->fini_time / 1000.0 - (double)r->init_time / 1000.0;
	idle = total - busy > 0 ? total - busy : 0;
	sheet_str(sh, "total_time");
	sheet_float(sh, total / 1000.0);
	sheet_float(sh, 100.0);
	sheet_endrow(sh);
	timeline_row(sh, "kernel", kernel, total);
	timeline_row(sh, "memory", memory, total);
	timeline_row(sh, "busy_time", busy, total);
	timeline_row(sh, "idle", idle, total);
	return 0;
}

/* ---- kernel_summary ------------------------------------------------------- */

struct grp {
	size_t gi;
	double sum;
};

/* descending sum, ties in pandas' quicksort order (rows in key order) */
static size_t *sort_desc(const struct grp *g, size_t n)
{
	double *v = xmalloc(st_mult(n ? n : 1, sizeof(*v)));
	size_t *idx = xmalloc(st_mult(n ? n : 1, sizeof(*idx)));

	for (size_t i = 0; i < n; i++)
		v[i] = g[i].sum;
	pd_argsort_desc(v, idx, n);
	free(v);
	return idx;
}

static int write_kernel_summary(struct rocprof_report *r, struct sheet *sh)
{
	static const char *const cols[] = {
		"name", "Count", "Mean Kernel Time (\u00b5s)", "Median Kernel Time (\u00b5s)",
		"Std Kernel Time (\u00b5s)", "Min Kernel Time (\u00b5s)",
		"Max Kernel Time (\u00b5s)", "Percentage (%)", "Cumulative Percentage (%)",
		"Total Kernel Time (ms)", "Category",
	};
	size_t *rows = all_rows(r->nk), ng, *sorted, *order;
	struct pd_groupby *g;
	struct grp *gs;
	double total = 0, cum = 0, *pct, *cump, *sums;

	if (!r->nk) {
		/* TraceLens's empty frame lists the ms total before the percentages */
		static const char *const empty[] = {
			"name", "Count", "Mean Kernel Time (\u00b5s)", "Median Kernel Time (\u00b5s)",
			"Std Kernel Time (\u00b5s)", "Min Kernel Time (\u00b5s)",
			"Max Kernel Time (\u00b5s)", "Total Kernel Time (ms)", "Percentage (%)",
			"Cumulative Percentage (%)", "Category",
		};
		sheet_header(sh, empty, 11);
		free(rows);
		return 0;
	}
	sheet_header(sh, cols, 11);
	g = group_kernels(r, rows, r->nk, 0);
	ng = pd_groupby_count(g);
	sorted = pd_groupby_sorted(g);
	gs = xcalloc(ng, sizeof(*gs));
	sums = xcalloc(ng, sizeof(*sums));
	for (size_t i = 0; i < ng; i++) {
		size_t n;
		const size_t *gr = pd_groupby_rows(g, sorted[i], &n);
		double *x = values(r, gr, n);
		gs[i].gi = sorted[i];
		gs[i].sum = sums[i] = group_sum(r, x, n);
		free(x);
	}
	/* the Series sum: exact integers, or numpy's pairwise float sum */
	if (r->o.fix_units)
		total = np_sum(sums, ng);
	else
		for (size_t i = 0; i < ng; i++)
			total += sums[i];
	pct = xcalloc(ng, sizeof(*pct));
	cump = xcalloc(ng, sizeof(*cump));
	for (size_t i = 0; i < ng; i++) {
		/* the cumulative percentage is summed in name order, before the sort */
		pct[i] = total > 0 ? gs[i].sum / total * 100.0 : 0;
		cum += pct[i];
		cump[i] = cum;
	}
	order = sort_desc(gs, ng);
	for (size_t o = 0; o < ng; o++) {
		size_t i = order[o], n;
		const size_t *gr = pd_groupby_rows(g, gs[i].gi, &n);
		double *x = values(r, gr, n), mean = pd_group_mean(x, n);
		double sd = pd_group_std(x, n, 1), mn = np_min(x, n), mx = np_max(x, n);
		double med = np_median(x, n);
		const char *name = pd_groupby_key(g, gs[i].gi);
		sheet_str(sh, name);
		sheet_int(sh, (int64_t)n);
		sheet_float(sh, mean);
		sheet_float(sh, med);
		sheet_float(sh, sd);
		dur_cell(r, sh, mn);
		dur_cell(r, sh, mx);
		sheet_float(sh, pct[i]);
		sheet_float(sh, cump[i]);
		sheet_float(sh, gs[i].sum / 1000.0);
		sheet_str(sh, rocprof_kernel_category(name));
		sheet_endrow(sh);
		free(x);
	}
	free(order);
	free(pct);
	free(cump);
	free(sums);
	free(gs);
	free(sorted);
	pd_groupby_free(g);
	free(rows);
	return 0;
}

static int write_by_category(struct rocprof_report *r, struct sheet *sh)
{
	static const char *const cols[] = {
		"op category", "Count", "total_direct_kernel_time_ms", "Percentage (%)",
		"Cumulative Percentage (%)",
	};
	size_t *rows = all_rows(r->nk), ng, *sorted, *order;
	struct pd_groupby *g;
	struct grp *gs;
	double total, cum = 0, *ms, *cump;

	sheet_header(sh, cols, 5);
	if (!r->nk) {
		free(rows);
		return 0;
	}
	g = group_kernels(r, rows, r->nk, 1);
	ng = pd_groupby_count(g);
	sorted = pd_groupby_sorted(g);
	gs = xcalloc(ng, sizeof(*gs));
	ms = xcalloc(ng, sizeof(*ms));
	cump = xcalloc(ng, sizeof(*cump));
	for (size_t i = 0; i < ng; i++) {
		size_t n;
		const size_t *gr = pd_groupby_rows(g, sorted[i], &n);
		double *x = values(r, gr, n);
		gs[i].gi = sorted[i];
		gs[i].sum = ms[i] = group_sum(r, x, n) / 1000.0;
		free(x);
	}
	total = np_sum(ms, ng);
	for (size_t i = 0; i < ng; i++) {
		cum += total > 0 ? ms[i] / total * 100.0 : 0;
		cump[i] = cum;
	}
	order = sort_desc(gs, ng);
	for (size_t o = 0; o < ng; o++) {
		size_t i = order[o], n;
		pd_groupby_rows(g, gs[i].gi, &n);
		sheet_str(sh, pd_groupby_key(g, gs[i].gi));
		sheet_int(sh, (int64_t)n);
		sheet_float(sh, ms[i]);
		sheet_float(sh, total > 0 ? ms[i] / total * 100.0 : 0);
		sheet_float(sh, cump[i]);
		sheet_endrow(sh);
	}
	free(order);
	free(cump);
	free(ms);
	free(gs);
	free(sorted);
	pd_groupby_free(g);
	free(rows);
	return 0;
}

/* ---- kernel_details ----------------------------------------------------- */

static int write_details(struct rocprof_report *r, struct sheet *sh)
{
	static const char *const cols[] = {
		"name", "Kernel duration (\u00b5s)", "stream", "dispatch_id", "grid_x",
		"grid_y", "grid_z", "block_x", "block_y", "block_z", "agent_id", "thread_id",
	};
	/* the cells in that order after name and duration */
	static const int ids[] = { K_STREAM, K_DISPATCH, K_GRID_X, K_GRID_Y, K_GRID_Z,
				   K_BLOCK_X, K_BLOCK_Y, K_BLOCK_Z, K_AGENT, K_THREAD };
	double *v;
	size_t *idx, n;

	if (!r->nk) {	/* an empty DataFrame without columns: one empty line */
		sheet_header(sh, cols, 0);
		return 0;
	}
	sheet_header(sh, cols, 12);
	v = xmalloc(st_mult(r->nk, sizeof(*v)));
	idx = xmalloc(st_mult(r->nk, sizeof(*idx)));
	for (size_t i = 0; i < r->nk; i++)
		v[i] = r->k[i].v;
	pd_argsort_desc(v, idx, r->nk);
	n = r->o.topk >= 0 && (size_t)r->o.topk < r->nk ? (size_t)r->o.topk : r->nk;
	for (size_t o = 0; o < n; o++) {
		const struct kern *k = &r->k[idx[o]];
		sheet_strn(sh, strpool_str(r->sp, k->name), strpool_len(r->sp, k->name));
		dur_cell(r, sh, k->v);
		for (size_t c = 0; c < sizeof(ids) / sizeof(ids[0]); c++) {
			uint32_t id = k->id[ids[c]];
			if (id)
				sheet_strn(sh, strpool_str(r->sp, id), strpool_len(r->sp, id));
			else
				sheet_empty(sh);
		}
		sheet_endrow(sh);
	}
	free(v);
	free(idx);
	return 0;
}

/* ---- short kernels ---------------------------------------------------------- */

static size_t *short_rows(const struct rocprof_report *r, size_t *n)
{
	size_t *rows = xmalloc(st_mult(r->nk ? r->nk : 1, sizeof(*rows)));

	*n = 0;
	for (size_t i = 0; i < r->nk; i++)
		if (r->k[i].v < r->o.short_us)
			rows[(*n)++] = i;
	return rows;
}

struct sgrp {
	const char *name;
	size_t len, gi, count;
	double sum;
};

static int cmp_sgrp(const void *a, const void *b)
{
	const struct sgrp *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if ((c = memcmp(x->name, y->name, n)))
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

static int write_short_summary(struct rocprof_report *r, struct sheet *sh)
{
	static const char *const cols[] = {
		"name", "Short Kernel count", "Short Kernel duration (\u00b5s) sum",
		"Short Kernel duration (\u00b5s) mean",
		"Short Kernel duration (\u00b5s) percent of total time",
	};
	size_t n, ng;
	size_t *rows = short_rows(r, &n);
	struct pd_groupby *g;
	struct sgrp *gs;
	double total = 0;
	int64_t itotal = 0;

	sheet_header(sh, cols, 5);
	if (!n) {
		free(rows);
		return 0;
	}
	/* Python's sum() over every kernel: exact integers, or left to right */
	for (size_t i = 0; i < r->nk; i++) {
		total += r->k[i].v;
		itotal += r->k[i].dur;
	}
	if (!r->o.fix_units)
		total = (double)itotal;
	g = group_kernels(r, rows, n, 0);
	ng = pd_groupby_count(g);
	gs = xcalloc(ng, sizeof(*gs));
	for (size_t i = 0; i < ng; i++) {
		const size_t *gr = pd_groupby_rows(g, i, &gs[i].count);
		double *x = values(r, gr, gs[i].count);
		gs[i].gi = i;
		gs[i].name = pd_groupby_key(g, i);
		gs[i].len = strlen(gs[i].name);
		gs[i].sum = group_sum(r, x, gs[i].count);
		free(x);
	}
	tl_qsort(gs, ng, sizeof(*gs), cmp_sgrp);
	for (size_t i = 0; i < ng; i++) {
		size_t cnt;
		const size_t *gr = pd_groupby_rows(g, gs[i].gi, &cnt);
		double *x = values(r, gr, cnt);
		sheet_str(sh, gs[i].name);
		sheet_int(sh, (int64_t)cnt);
		dur_cell(r, sh, gs[i].sum);
		sheet_float(sh, pd_group_mean(x, cnt));
		sheet_float(sh, total > 0 ? gs[i].sum / total * 100.0 : 0);
		sheet_endrow(sh);
		free(x);
	}
	free(gs);
	pd_groupby_free(g);
	free(rows);
	return 0;
}

static int write_short_histogram(struct rocprof_report *r, struct sheet *sh)
{
	static const char *const cols[] = { "bin_start", "bin_end", "count" };
	size_t n, nb = (size_t)r->o.bins;
	size_t *rows = short_rows(r, &n), *cnt;
	double *x, *edge;

	sheet_header(sh, cols, 3);
	if (!n || !nb) {
		free(rows);
		return 0;
	}
	x = values(r, rows, n);
	edge = xmalloc(st_mult(nb + 1, sizeof(*edge)));
	cnt = xmalloc(st_mult(nb, sizeof(*cnt)));
	np_histogram(x, n, nb, edge, cnt);
	for (size_t i = 0; i < nb; i++) {
		sheet_float(sh, edge[i]);
		sheet_float(sh, edge[i + 1]);
		sheet_int(sh, (int64_t)cnt[i]);
		sheet_endrow(sh);
	}
	free(cnt);
	free(edge);
	free(x);
	free(rows);
	return 0;
}

int rocprof_report_write(struct rocprof_report *r, const char *sheet, struct sheet *sh)
{
	static const struct {
		const char *name;
		int (*fn)(struct rocprof_report *, struct sheet *);
	} w[] = {
		{ "gpu_timeline", write_timeline },
		{ "kernel_summary", write_kernel_summary },
		{ "kernel_summary_by_category", write_by_category },
		{ "kernel_details", write_details },
		{ "short_kernels_summary", write_short_summary },
		{ "short_kernel_histogram", write_short_histogram },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(w[i].name, sheet))
			return w[i].fn(r, sh);
	return -1;
}
