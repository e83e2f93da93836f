#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "critpath_graph.h"
#include "critpath_path.h"
#include "err.h"
#include "idle_kind.h"
#include "idle_trace.h"
#include "json.h"
#include "np_stat.h"
#include "outbuf.h"
#include "pd_agg.h"
#include "py_fmt.h"
#include "xalloc.h"
#include "banned.h"

#define NONE UINT32_MAX

static int64_t stream_of(const struct critpath *g, int64_t ev)
{
	size_t r = critpath_clip_row(g, ev);
	return r == SIZE_MAX ? -1 : g->t->ev[r].stream;
}

/* _validate_graph: zero the weights of -1 and below, reject bad syncs */
static int validate(struct critpath *g)
{
	for (size_t k = 0; k < g->ngorder; k++)
		for (uint32_t id = g->node[g->gorder[k]].succ; id != NONE; id = g->edge[id].next_succ) {
			struct critpath_edge *e = &g->edge[id];
			int64_t a, b;
			if (e->gweight <= -1)
				e->gweight = 0;
			if (e->type != CP_SYNC_DEPENDENCY)
				continue;
			a = stream_of(g, g->node[e->u].ev);
			b = stream_of(g, g->node[e->v].ev);
			if (a != -1 && a == b) {
				tl_warn("%s: rank %ld: a sync edge between events %lld and %lld, "
					"both on stream %lld: no critical path (as in HTA)",
					g->t->source, g->t->rank, (long long)g->node[e->u].ev,
					(long long)g->node[e->v].ev, (long long)a);
				return -1;
			}
		}
	return 0;
}

/* networkx topological_generations, flattened; -1 on a cycle */
static int topo(const struct critpath *g, uint32_t *order)
{
	uint32_t *indeg = xcalloc(g->nnode + 1, sizeof(uint32_t));
	size_t n = 0, gen_start = 0;

	for (size_t i = 0; i < g->nedge; i++)
		indeg[g->edge[i].v]++;
	for (size_t k = 0; k < g->ngorder; k++)
		if (!indeg[g->gorder[k]])
			order[n++] = g->gorder[k];
	while (gen_start < n) {
		size_t gen_end = n;
		for (size_t k = gen_start; k < gen_end; k++)
			for (uint32_t id = g->node[order[k]].succ; id != NONE;
			     id = g->edge[id].next_succ)
				if (--indeg[g->edge[id].v] == 0)
					order[n++] = g->edge[id].v;
		gen_start = gen_end;
	}
	free(indeg);
	return n == g->ngorder ? 0 : -1;
}

int critpath_solve(struct critpath *g)
{
	uint32_t *order = xmalloc(st_mult(g->ngorder + 1, sizeof(uint32_t)));
	double *dist = xmalloc(st_mult(g->nnode + 1, sizeof(double)));
	uint32_t *from = xmalloc(st_mult(g->nnode + 1, sizeof(uint32_t)));
	uint32_t v = NONE, u;
	size_t n = 0;

	if (validate(g) < 0 || g->ngorder < 2) {
		if (g->ngorder < 2)
			tl_warn("%s: rank %ld: the window holds no graph (%zu nodes)", g->t->source,
				g->t->rank, g->ngorder);
		goto fail;
	}
	if (topo(g, order) < 0) {
		tl_warn("%s: rank %ld: the graph has a cycle: no critical path (as in HTA)",
			g->t->source, g->t->rank);
		goto fail;
	}
	/* dag_longest_path */
	for (size_t k = 0; k < g->ngorder; k++) {
		uint32_t x = order[k];
		double best = 0;
		uint32_t arg = x;
		int any = 0;
		for (uint32_t id = g->node[x].pred; id != NONE; id = g->edge[id].next_pred) {
			double d = dist[g->edge[id].u] + g->edge[id].gweight;
			if (!any || d > best) {
				best = d;
				arg = g->edge[id].u;
				any = 1;
			}
		}
		if (!any || best < 0) {
			best = 0;
			arg = x;
		}
		dist[x] = best;
		from[x] = arg;
		if (v == NONE || dist[x] > dist[v])
			v = x;
	}
	g->path = xmalloc(st_mult(g->ngorder + 1, sizeof(uint32_t)));
	u = NONE;
	while (u != v) {
		g->path[n++] = v;
		u = v;
		v = from[v];
	}
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t tmp = g->path[i];
		g->path[i] = g->path[n - 1 - i];
		g->path[n - 1 - i] = tmp;
	}
	g->npath = n;
	free(order);
	free(dist);
	free(from);
	return 0;
fail:
	free(order);
	free(dist);
	free(from);
	return -1;
}

/* ------------------------------------------------------------------ */

struct brow {
	const struct critpath_edge *e;
	size_t row;		/* the attributed event's row, SIZE_MAX if none */
	char *s_name;
	size_t s_len;
	const char *bound_by;
};

static uint32_t edge_between(const struct critpath *g, uint32_t u, uint32_t v)
{
	uint32_t id;
	return hmap_get(&g->edge_of, ((uint64_t)u << 32 | v) + 1, &id) ? id : NONE;
}

static const char *bound_by(const struct critpath *g, const struct brow *b)
{
	switch (b->e->type) {
	case CP_KERNEL_KERNEL_DELAY: return "gpu_kernel_kernel_overhead";
	case CP_KERNEL_LAUNCH_DELAY: return "gpu_kernel_launch_overhead";
	case CP_DEPENDENCY:
	case CP_SYNC_DEPENDENCY: return "";
	default: break;
	}
	if (b->row == SIZE_MAX)
		return "";	/* HTA asserts here (an edge of the call stack root) */
	if (g->t->ev[b->row].stream < 0)
		return critpath_data_load(g, b->s_name, b->s_len) ? "data_loading" : "cpu_bound";
	if (idle_is_comm(b->s_name, b->s_len))
		return "gpu_communication_bound";
	return "gpu_compute_bound";
}

static struct brow *rows_of(const struct critpath *g)
{
	struct brow *b = xcalloc(g->npath + 1, sizeof(*b));

	for (size_t i = 0; i + 1 < g->npath; i++) {
		const struct critpath_edge *e = &g->edge[edge_between(g, g->path[i], g->path[i + 1])];
		b[i].e = e;
		b[i].row = e->has_attr ? critpath_clip_row(g, e->attr) : SIZE_MAX;
		if (b[i].row != SIZE_MAX) {
			uint32_t name = g->t->ev[b[i].row].name;
			b[i].s_name = xmalloc(idle_len(g->set, name) + 1);
			b[i].s_len = idle_shorten_name(idle_str(g->set, name), idle_len(g->set, name),
						       b[i].s_name);
		}
		b[i].bound_by = bound_by(g, &b[i]);
	}
	return b;
}

static void free_rows(const struct critpath *g, struct brow *b)
{
	for (size_t i = 0; i + 1 < g->npath; i++)
		free(b[i].s_name);
	free(b);
}

/* Python's str() of a pid/tid value of an object column. */
static void put_object(struct outbuf *ob, const char *text, size_t n)
{
	if (n >= 2 && text[0] == '"') {
		char *d = xmalloc(n);
		size_t dn = json_decode_string(text + 1, n - 2, d);
		csv_cell(ob, d, dn);
		free(d);
	} else if (strpbrk(text, ".eE")) {
		char buf[PY_FLOAT_MAX];
		csv_cell(ob, buf, py_float_repr(strtod(text, NULL), buf));
	} else {
		csv_cell(ob, text, n);
	}
}

static void put_id(struct outbuf *ob, const struct critpath *g, uint32_t id,
		   enum idle_dtype type, int any_missing)
{
	const char *s = idle_str(g->set, id);

	if (type == IDLE_OBJECT)
		put_object(ob, s, idle_len(g->set, id));
	else if (type == IDLE_INT && !any_missing)
		outbuf_puts(ob, s);
	else
		csv_float(ob, strtod(s, NULL));
}

/* HTA's symbol number of a string: here, its rank in first appearance */
static size_t symbol_number(const struct critpath *g, uint32_t id)
{
	size_t n = 0;
	for (uint32_t i = 0; i < id; i++)
		n += g->set->is_symbol[i];
	return n;
}

static void int_or_float(struct outbuf *ob, double x, int as_float)
{
	if (as_float)
		csv_float(ob, x);
	else
		outbuf_i64(ob, (int64_t)x);
}

void critpath_write_breakdown(const struct critpath *g, struct outbuf *ob)
{
	struct brow *b = rows_of(g);
	const struct idle_trace *t = g->t;
	int missing = 0, dur_float = t->ts_type != IDLE_INT || t->dur_type != IDLE_INT;
	int attr_missing = 0;

	for (size_t i = 0; i + 1 < g->npath; i++) {
		missing |= b[i].row == SIZE_MAX;
		attr_missing |= !b[i].e->has_attr;
	}
	outbuf_puts(ob, "event_idx,duration,type,s_name,cat,pid,tid,stream,index,bound_by\n");
	for (size_t i = 0; i + 1 < g->npath; i++) {
		const struct critpath_edge *e = b[i].e;
		if (e->has_attr)
			int_or_float(ob, (double)e->attr, attr_missing);
		outbuf_putc(ob, ',');
		int_or_float(ob, e->weight, dur_float);
		outbuf_printf(ob, ",%s,", critpath_etype_name(e->type));
		if (b[i].row != SIZE_MAX) {
			const struct idle_ev *x = &t->ev[b[i].row];
			csv_cell(ob, b[i].s_name, b[i].s_len);
			outbuf_putc(ob, ',');
			int_or_float(ob, (double)symbol_number(g, x->cat), missing);
			outbuf_putc(ob, ',');
			put_id(ob, g, x->pid, t->pid_type, missing);
			outbuf_putc(ob, ',');
			put_id(ob, g, x->tid, t->tid_type, missing);
			outbuf_putc(ob, ',');
			int_or_float(ob, (double)x->stream, missing);
			outbuf_putc(ob, ',');
			int_or_float(ob, (double)x->index, missing);
		} else {
			outbuf_puts(ob, ",,,,,");
		}
		outbuf_printf(ob, ",%s\n", b[i].bound_by);
	}
	free_rows(g, b);
}

void critpath_write_summary(const struct critpath *g, struct outbuf *ob)
{
	static const char *const keys[] = {	/* the groupby's sorted keys */
		"", "cpu_bound", "data_loading", "gpu_communication_bound", "gpu_compute_bound",
		"gpu_kernel_kernel_overhead", "gpu_kernel_launch_overhead",
	};
	struct brow *b = rows_of(g);
	size_t n = g->npath ? g->npath - 1 : 0;
	double *all = xmalloc(st_mult(n + 1, sizeof(double)));
	double *grp = xmalloc(st_mult(n + 1, sizeof(double))), total;

	for (size_t i = 0; i < n; i++)
		all[i] = b[i].e->weight;
	total = np_sum(all, n);
	outbuf_puts(ob, "bound_by,pct_of_path\n");
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(b[i].bound_by, keys[k]))
				grp[m++] = all[i];
		if (!m)
			continue;
		outbuf_printf(ob, "%s,", keys[k]);
		csv_float(ob, pd_group_sum(grp, m) / total * 100);
		outbuf_putc(ob, '\n');
	}
	free(all);
	free(grp);
	free_rows(g, b);
}
