#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xplane.pb-c.h"
#include "cat_xplane.h"
#include "cat_event.h"
#include "cat_hlo.h"
#include "err.h"
#include "json.h"
#include "py_repr.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

typedef Tensorflow__Profiler__XSpace XSpace;
typedef Tensorflow__Profiler__XPlane XPlane;
typedef Tensorflow__Profiler__XLine XLine;
typedef Tensorflow__Profiler__XEvent XEvent;
typedef Tensorflow__Profiler__XStat XStat;
typedef Tensorflow__Profiler__XEventMetadata XEventMetadata;
typedef Tensorflow__Profiler__XStatMetadata XStatMetadata;

/* tsl/profiler/utils/trace_utils.h: the trace viewer's device ids */
enum { FIRST_DEVICE_ID = 1, LAST_DEVICE_ID = 500, FIRST_CUSTOM_ID = 501,
       HOST_THREADS_ID = 701 };

/* ---- the wire format, checked before protobuf-c unpacks it ------------ */

/* Message kinds of the XSpace schema, for the checker below. */
enum { M_NONE, M_SPACE, M_PLANE, M_LINE, M_EVENT, M_STAT, M_EVMETA, M_STMETA,
       M_EVMAP, M_STMAP };

/* The submessage kind of field f of a message of kind m (M_NONE: scalar). */
static int sub_kind(int m, uint64_t f)
{
	switch (m) {
	case M_SPACE: return f == 1 ? M_PLANE : M_NONE;
	case M_PLANE: return f == 3 ? M_LINE : f == 4 ? M_EVMAP : f == 5 ? M_STMAP
		: f == 6 ? M_STAT : M_NONE;
	case M_LINE: return f == 4 ? M_EVENT : M_NONE;
	case M_EVENT: return f == 4 ? M_STAT : M_NONE;
	case M_EVMETA: return f == 5 ? M_STAT : M_NONE;
	case M_EVMAP: return f == 2 ? M_EVMETA : M_NONE;
	case M_STMAP: return f == 2 ? M_STMETA : M_NONE;
	default: return M_NONE;
	}
}

static int get_varint(const uint8_t *b, size_t n, size_t *i, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (*i >= n)
			return -1;
		uint8_t c = b[(*i)++];
		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return 0;
	}
	return -2;
}

/*
 * Walk the fields of a message of kind m in b[start..end): 0, or -1 with
 * *off and *msg saying where and what.  Depth is bounded by the schema.
 */
static int check_message(const uint8_t *b, size_t start, size_t end, int m,
			 size_t *off, const char **msg)
{
	size_t i = start;

	while (i < end) {
		size_t at = i;
		uint64_t tag, len;
		int r = get_varint(b, end, &i, &tag);
		if (r < 0 || (tag >> 3) == 0) {
			*off = at;
			*msg = r == -1 ? "truncated protobuf: a field tag is cut short"
				: "not an XSpace protobuf: bad field tag";
			return -1;
		}
		switch (tag & 7) {
		case 0:
			if (get_varint(b, end, &i, &len) < 0) {
				*off = at;
				*msg = "truncated protobuf: a number is cut short";
				return -1;
			}
			break;
		case 1: case 5:
			if (end - i < ((tag & 7) == 1 ? 8u : 4u)) {
				*off = at;
				*msg = "truncated protobuf: a fixed-size field is cut short";
				return -1;
			}
			i += (tag & 7) == 1 ? 8 : 4;
			break;
		case 2:
			if (get_varint(b, end, &i, &len) < 0 || len > end - i) {
				*off = at;
				*msg = "truncated protobuf: the field that starts here runs past the end";
				/* a submessage cut short: say where inside it */
				if (len > end - i && sub_kind(m, tag >> 3) != M_NONE)
					check_message(b, i, end, sub_kind(m, tag >> 3), off, msg);
				return -1;
			}
			if (sub_kind(m, tag >> 3) != M_NONE &&
			    check_message(b, i, i + len, sub_kind(m, tag >> 3), off, msg) < 0)
				return -1;
			i += len;
			break;
		default:
			*off = at;
			*msg = "not an XSpace protobuf: unknown wire type";
			return -1;
		}
	}
	return 0;
}

int cat_xplane_sniff(const uint8_t *p, size_t n)
{
	size_t i = 0;
	uint64_t v;

	if (n < 4 || p[i++] != 0x0a || get_varint(p, n, &i, &v) < 0)
		return 0;
	if (i < n && p[i] == 0x08) {
		i++;
		if (get_varint(p, n, &i, &v) < 0)
			return 0;
	}
	if (i >= n || p[i++] != 0x12 || get_varint(p, n, &i, &v) < 0 || !v)
		return 0;
	return i < n && p[i] == '/';
}

/* ---- metadata lookups ---------------------------------------------------- */

struct byid {
	int64_t id;
	size_t order;
	const void *p;
};

/* by id, then by position: of equal ids the later map entry wins (lookup) */
static int cmp_byid(const void *a, const void *b)
{
	const struct byid *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->order > y->order) - (x->order < y->order);
}

/* A plane with its metadata maps sorted by id (the last entry of an id wins). */
struct plane {
	const XPlane *p;
	uint32_t dev;
	struct byid *ev, *st;
	size_t nev, nst;
};

static const void *lookup(const struct byid *v, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;
	const void *found = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].id == id; lo++)
		found = v[lo].p;
	return found;
}

static void index_plane(struct plane *pl)
{
	const XPlane *p = pl->p;

	pl->ev = xmalloc(st_mult(p->n_event_metadata + 1, sizeof(*pl->ev)));
	pl->st = xmalloc(st_mult(p->n_stat_metadata + 1, sizeof(*pl->st)));
	for (size_t i = 0; i < p->n_event_metadata; i++) {
		pl->ev[pl->nev].id = p->event_metadata[i]->key;
		pl->ev[pl->nev].order = i;
		pl->ev[pl->nev++].p = p->event_metadata[i]->value;
	}
	for (size_t i = 0; i < p->n_stat_metadata; i++) {
		pl->st[pl->nst].id = p->stat_metadata[i]->key;
		pl->st[pl->nst].order = i;
		pl->st[pl->nst++].p = p->stat_metadata[i]->value;
	}
	tl_qsort(pl->ev, pl->nev, sizeof(*pl->ev), cmp_byid);
	tl_qsort(pl->st, pl->nst, sizeof(*pl->st), cmp_byid);
}

static const char *stat_name(const struct plane *pl, int64_t id)
{
	const XStatMetadata *m = lookup(pl->st, pl->nst, id);
	return m && m->name ? m->name : "";
}

static int starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* ---- events ---------------------------------------------------------------- */

/* Events the trace viewer never shows (tsl IsInternalEvent, by name). */
static int internal_event(const char *name)
{
	static const char *const names[] = {
		"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce",
		"PrefetchConsume", "ParallelInterleaveProduce", "ParallelInterleaveConsume",
		"ParallelInterleaveInitializedInput", "ParallelMapProduce",
		"ParallelMapConsume", "MapAndBatchProduce", "MapAndBatchConsume",
		"ParseExampleProduce", "ParseExampleConsume", NULL,
	};
	for (int i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* Stats the trace viewer hides (tsl IsInternalStat, by name). */
static int internal_stat(const char *name)
{
	static const char *const names[] = {
		"kernel_details", "_pt", "_ct", "_p", "_c", "_r", "flops",
		"bytes_accessed", "program_id", "symbol_id", NULL,
	};
	for (int i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

enum { K_COMPLETE, K_ASYNC, K_COUNTER };

struct xev {
	const struct plane *pl;
	const XLine *line;
	const XEvent *e;
	int64_t ts, dur;	/* ps; dur as stored */
	uint32_t res;
	int kind;
	const char *name;	/* the shown name */
	size_t order;
};

/* ForAllEvents' order: device; its counter and async tracks (by name)
 * before its threads (by id); in a track by start, longer first. */
static int cmp_xev(const void *a, const void *b)
{
	const struct xev *x = a, *y = b;
	int c;

	if (x->pl->dev != y->pl->dev)
		return x->pl->dev < y->pl->dev ? -1 : 1;
	if ((x->kind == K_COMPLETE) != (y->kind == K_COMPLETE))
		return x->kind == K_COMPLETE ? 1 : -1;
	if (x->kind != K_COMPLETE && (c = strcmp(x->name, y->name)))
		return c;
	if (x->kind == K_COMPLETE && x->res != y->res)
		return x->res < y->res ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if ((c = strcmp(x->name, y->name)))
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

struct conv {
	struct cat_event_out *w;
	const char *name;
	unsigned src;
	const char *host;	/* the XSpace's first hostname */
	struct plane *pl;
	size_t npl;
	struct xev *ev;
	size_t nev, ev_alloc;
	struct pystr o;
	struct json j;
	uint64_t uid;
};

static void add_json_str(struct pystr *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	pystr_addc(o, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\') {
			pystr_addc(o, '\\');
			pystr_addc(o, (char)*p);
		} else if (*p < 0x20) {
			char b[8];
			snprintf(b, sizeof(b), "\\u%04x", *p);
			pystr_adds(o, b);
		} else {
			pystr_addc(o, (char)*p);
		}
	}
	pystr_addc(o, '"');
	(void)hex;
}

static void add_u64(struct pystr *o, uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	pystr_adds(o, b);
}

static void add_i64(struct pystr *o, int64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "%" PRId64, v);
	pystr_adds(o, b);
}

/* %.17g, xprof's (and protobuf's JSON) double format */
static void add_g17(struct pystr *o, double v)
{
	char b[40];
	snprintf(b, sizeof(b), "%.17g", v);
	pystr_adds(o, b);
}

/* picoseconds → microseconds, as PicosToMicros */
static void add_us(struct pystr *o, int64_t ps)
{
	add_g17(o, (double)ps / 1e6);
}

/* Emit the event being built in c->o as the next row. */
static void emit(struct conv *c)
{
	if (json_parse(&c->j, c->o.buf, c->o.len) < 0)
		tl_die("%s: internal error: event %" PRIu64 " is not JSON: %s", c->name,
		       c->uid, c->j.err_msg);
	cat_event_row(c->w, c->src, c->uid++, &c->j, NULL);
}

/* An int64/uint64 stat: a number, quoted beyond 2^53 as JSON readers lose it */
static void add_int_arg(struct pystr *o, int neg, uint64_t mag, int64_t v, int is_signed)
{
	int quote = mag > (1ull << 53);

	if (quote)
		pystr_addc(o, '"');
	if (is_signed)
		add_i64(o, v);
	else
		add_u64(o, mag);
	if (quote)
		pystr_addc(o, '"');
	(void)neg;
}

struct special {
	int has_group, has_flow, is_async;
	int64_t group;
	uint64_t flow;
	const char *step_name;
};

/* One stat into args (after ",") unless it is hidden or special. */
static void add_stat(struct conv *c, const struct plane *pl, const XStat *st,
		     struct special *sp, int *nargs)
{
	const char *name = stat_name(pl, st->metadata_id);
	struct pystr *o = &c->o;
	uint64_t u = 0;
	int64_t i = 0;
	int is_int = 0, is_signed = 0;

	if (internal_stat(name))
		return;
	if (st->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE) {
		i = st->int64_value;
		u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
		is_int = is_signed = 1;
	} else if (st->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE) {
		u = st->uint64_value;
		i = (int64_t)u;
		is_int = 1;
	}
	if (is_int && !strcmp(name, "flow")) {
		sp->has_flow = 1;
		sp->flow = is_signed ? (uint64_t)i : u;
		return;
	}
	if (is_int && !strcmp(name, "group_id")) {
		sp->has_group = 1;
		sp->group = i;
		return;
	}
	if (!strcmp(name, "_a")) {
		sp->is_async = 1;
		return;
	}
	switch (st->value_case) {
	case TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE:
	case TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE:
		pystr_adds(o, (*nargs)++ ? "," : "");
		add_json_str(o, name);
		pystr_addc(o, ':');
		add_int_arg(o, i < 0, u, i, is_signed);
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE:
		pystr_adds(o, (*nargs)++ ? "," : "");
		add_json_str(o, name);
		pystr_addc(o, ':');
		if (isfinite(st->double_value))
			add_g17(o, st->double_value);
		else
			pystr_adds(o, isnan(st->double_value) ? "\"NaN\""
				   : st->double_value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE:
	case TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE: {
		const char *v = st->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE
			? st->str_value : stat_name(pl, (int64_t)st->ref_value);
		if (!strcmp(name, "step_name"))
			sp->step_name = v;
		pystr_adds(o, (*nargs)++ ? "," : "");
		add_json_str(o, name);
		pystr_addc(o, ':');
		add_json_str(o, v);
		break;
	}
	default:	/* bytes: not shown */
		break;
	}
}

/* The flow's category name (tsl ContextType), "" for generic/legacy. */
static const char *context_type(unsigned t)
{
	static const char *const names[] = {
		"", "", "tf_exec", "tfrt_exec", "batch_sched", "PjRt", "as_batch_sched",
		"tfrt_rt", "tpu_embed", "gpu_launch", "batcher", "tpu_stream",
		"tpu_launch", "pathways_exec", "pjrt_library_call", "threadpool_event",
		"jax_serving", "sparsecore_offload",
	};
	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "";
}

/* The JSON of one event (without the closing brace of args handled here). */
static void write_event(struct conv *c, const struct xev *x)
{
	const XEventMetadata *m = lookup(x->pl->ev, x->pl->nev, x->e->metadata_id);
	struct special sp = { 0, 0, 0, 0, 0, NULL };
	struct pystr args = { 0 }, *o = &c->o;
	int nargs = 0;
	const char *name = x->name;

	/* args first (into c->o), then swapped in behind the event's fields */
	pystr_reset(o);
	if (m && m->display_name && *m->display_name) {
		add_json_str(o, "long_name");
		pystr_addc(o, ':');
		add_json_str(o, m->name);
		nargs++;
	}
	if (m)
		for (size_t i = 0; i < m->n_stats; i++)
			add_stat(c, x->pl, m->stats[i], &sp, &nargs);
	for (size_t i = 0; i < x->e->n_stats; i++)
		add_stat(c, x->pl, x->e->stats[i], &sp, &nargs);
	if (sp.step_name && *sp.step_name)
		name = sp.step_name;
	pystr_add(&args, o->buf ? o->buf : "", o->len);
	pystr_reset(o);
	pystr_adds(o, "{\"pid\":");
	add_u64(o, x->pl->dev);
	if (x->kind == K_COMPLETE) {
		pystr_adds(o, ",\"tid\":");
		add_u64(o, x->res);
	}
	pystr_adds(o, ",\"name\":");
	add_json_str(o, name);
	pystr_adds(o, ",\"ts\":");
	add_us(o, x->ts);
	if (x->kind == K_COMPLETE) {
		pystr_adds(o, ",\"dur\":");
		add_us(o, x->dur > 0 ? x->dur : 1);
		if (sp.has_flow && (sp.flow & 3)) {
			pystr_adds(o, ",\"bind_id\":");
			add_u64(o, (sp.flow >> 2) & ((1ull << 56) - 1));
			if (*context_type((unsigned)(sp.flow >> 58))) {
				pystr_adds(o, ",\"cat\":");
				add_json_str(o, context_type((unsigned)(sp.flow >> 58)));
			}
			pystr_adds(o, (sp.flow & 3) == 2 ? ",\"flow_out\":true"
				   : (sp.flow & 3) == 1 ? ",\"flow_in\":true"
				   : ",\"flow_in\":true,\"flow_out\":true");
		}
		pystr_adds(o, ",\"ph\":\"X\"");
	} else if (x->kind == K_ASYNC) {
		pystr_adds(o, ",\"id\":");
		add_u64(o, (sp.flow >> 2) & ((1ull << 56) - 1));
		pystr_adds(o, ",\"cat\":");
		add_json_str(o, context_type((unsigned)(sp.flow >> 58)));
		pystr_adds(o, (sp.flow & 3) == 1 ? ",\"ph\":\"e\"" : ",\"ph\":\"b\"");
	} else {
		pystr_adds(o, ",\"ph\":\"C\"");
	}
	if (sp.has_group || nargs) {
		pystr_adds(o, ",\"args\":{");
		if (sp.has_group) {
			pystr_adds(o, "\"group_id\":");
			add_i64(o, sp.group);
			if (nargs)
				pystr_addc(o, ',');
		}
		pystr_add(o, args.buf ? args.buf : "", args.len);
		pystr_addc(o, '}');
	}
	pystr_addc(o, '}');
	pystr_release(&args);
}

/* Flow and async stats of an event (metadata's, then its own). */
static void flow_of(const struct plane *pl, const XEventMetadata *m, const XEvent *e,
		    int *has_flow, uint64_t *flow, int *is_async)
{
	*has_flow = *is_async = 0;
	*flow = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t n = pass ? e->n_stats : m ? m->n_stats : 0;
		XStat **v = pass ? e->stats : m ? m->stats : NULL;
		for (size_t i = 0; i < n; i++) {
			const char *name = stat_name(pl, v[i]->metadata_id);
			if (!strcmp(name, "_a"))
				*is_async = 1;
			else if (!strcmp(name, "flow") &&
				 (v[i]->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE ||
				  v[i]->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE)) {
				*has_flow = 1;
				*flow = v[i]->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE
					? (uint64_t)v[i]->int64_value : v[i]->uint64_value;
			}
		}
	}
}

/* The line's events into c->ev (the trace viewer's choice of what to show). */
static void gather_line(struct conv *c, const struct plane *pl, const XLine *l)
{
	int counters = l->name && !strcmp(l->name, "_counters_");
	int64_t disp = l->display_id ? l->display_id : l->id;

	for (size_t i = 0; i < l->n_events; i++) {
		const XEvent *e = l->events[i];
		const XEventMetadata *m = lookup(pl->ev, pl->nev, e->metadata_id);
		const char *mname = m && m->name ? m->name : "";
		int has_flow, is_async;
		uint64_t flow;
		struct xev *x;

		if (internal_event(mname))
			continue;
		flow_of(pl, m, e, &has_flow, &flow, &is_async);
		xgrow((void **)&c->ev, &c->ev_alloc, c->nev + 1, sizeof(*c->ev));
		x = &c->ev[c->nev];
		x->pl = pl;
		x->line = l;
		x->e = e;
		/* XEventVisitor::TimestampPs: the line's ns start plus the offset,
		 * in int64 arithmetic that wraps round on x86-64 as the C++ does
		 * (only a corrupt file gets there; C's would be undefined) */
		x->ts = (int64_t)((uint64_t)l->timestamp_ns * 1000u +
				  (uint64_t)(e->data_case == TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS
					     ? e->offset_ps : 0));
		x->dur = e->duration_ps;
		x->res = (uint32_t)disp;
		x->kind = counters ? K_COUNTER : has_flow && is_async && (flow & 3) ? K_ASYNC
			: K_COMPLETE;
		x->name = counters ? mname : m && m->display_name && *m->display_name
			? m->display_name : mname;
		x->order = c->nev++;
	}
}

static void gather(struct conv *c)
{
	for (size_t p = 0; p < c->npl; p++) {
		const XPlane *xp = c->pl[p].p;
		for (size_t l = 0; l < xp->n_lines; l++) {
			const XLine *line = xp->lines[l];
			if (!line->n_events || starts_with(line->name, "counters_"))
				continue;
			gather_line(c, &c->pl[p], line);
		}
	}
	tl_qsort(c->ev, c->nev, sizeof(*c->ev), cmp_xev);
}

/* ---- metadata events: devices and their threads ---------------------------- */

struct res {
	uint32_t dev, res;
	const char *name;
	size_t order;
};

static int cmp_res(const void *a, const void *b)
{
	const struct res *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->res != y->res)
		return x->res < y->res ? -1 : 1;
	/* the last line with an id names the thread */
	return (x->order < y->order) - (x->order > y->order);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static void meta_event(struct conv *c, const char *what, uint32_t dev, const uint32_t *tid,
		       const char *name, uint64_t sort)
{
	struct pystr *o = &c->o;

	pystr_reset(o);
	pystr_adds(o, "{\"args\":{");
	if (name) {
		pystr_adds(o, "\"name\":");
		add_json_str(o, name);
	} else {
		pystr_adds(o, "\"sort_index\":");
		add_u64(o, sort);
	}
	pystr_adds(o, "},\"name\":\"");
	pystr_adds(o, what);
	pystr_adds(o, "\",\"ph\":\"M\",\"pid\":");
	add_u64(o, dev);
	if (tid) {
		pystr_adds(o, ",\"tid\":");
		add_u64(o, *tid);
	}
	pystr_addc(o, '}');
	emit(c);
}

/*
 * process_name/process_sort_index for every device with lines, then
 * thread_name/thread_sort_index for each of its threads (lines with
 * events, not counters), by id.
 */
static void metadata_events(struct conv *c)
{
	struct res *r = NULL;
	size_t n = 0, alloc = 0;
	struct pystr dname = { 0 };

	for (size_t p = 0; p < c->npl; p++) {
		const XPlane *xp = c->pl[p].p;
		for (size_t l = 0; l < xp->n_lines; l++) {
			const XLine *line = xp->lines[l];
			if (!line->n_events || starts_with(line->name, "counters_") ||
			    (line->name && !strcmp(line->name, "_counters_")))
				continue;
			xgrow((void **)&r, &alloc, n + 1, sizeof(*r));
			r[n].dev = c->pl[p].dev;
			r[n].res = (uint32_t)(line->display_id ? line->display_id : line->id);
			r[n].name = line->display_name && *line->display_name ? line->display_name
				: line->name ? line->name : "";
			r[n].order = n;
			n++;
		}
	}
	tl_qsort(r, n, sizeof(*r), cmp_res);
	/* the devices that have lines, in id order */
	uint32_t *devs = xmalloc(st_mult(c->npl + 1, sizeof(*devs)));
	size_t nd = 0;
	for (size_t p = 0; p < c->npl; p++)
		if (c->pl[p].p->n_lines)
			devs[nd++] = c->pl[p].dev;
	tl_qsort(devs, nd, sizeof(*devs), cmp_u32);
	for (size_t d = 0; d < nd; d++) {
		const char *pname = "";
		if (d && devs[d] == devs[d - 1])
			continue;
		for (size_t p = 0; p < c->npl; p++)
			if (c->pl[p].dev == devs[d])
				pname = c->pl[p].p->name ? c->pl[p].p->name : "";
		pystr_reset(&dname);
		pystr_adds(&dname, c->host);
		pystr_addc(&dname, ' ');
		pystr_adds(&dname, pname);
		meta_event(c, "process_name", devs[d], NULL, dname.buf, 0);
		meta_event(c, "process_sort_index", devs[d], NULL, NULL, devs[d]);
		for (size_t i = 0; i < n; i++) {
			if (r[i].dev != devs[d] || (i && r[i - 1].dev == r[i].dev &&
						    r[i - 1].res == r[i].res))
				continue;
			meta_event(c, "thread_name", devs[d], &r[i].res, r[i].name, 0);
			meta_event(c, "thread_sort_index", devs[d], &r[i].res, NULL, r[i].res);
		}
	}
	free(devs);
	free(r);
	pystr_release(&dname);
}

/* ---- the XSpace ------------------------------------------------------------- */

static int cmp_plane_name(const void *a, const void *b)
{
	const XPlane *x = *(const XPlane *const *)a, *y = *(const XPlane *const *)b;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/*
 * The planes the trace viewer shows, with their device ids:
 * ConvertXSpaceToTraceEventsContainer's host planes (sorted by name) from
 * 701, GPU planes (TPU planes when there is no GPU) at 1 + id, custom planes
 * at 501 + id.
 */
static void pick_planes(struct conv *c, const XSpace *xs)
{
	const XPlane **hosts = xmalloc(st_mult(xs->n_planes + 1, sizeof(*hosts)));
	size_t nh = 0, ngpu = 0;
	const char *dev_prefix = "/device:GPU:";

	c->pl = xcalloc(xs->n_planes + 1, sizeof(*c->pl));
	for (size_t i = 0; i < xs->n_planes; i++) {
		if (starts_with(xs->planes[i]->name, "/host:CPU"))
			hosts[nh++] = xs->planes[i];
		ngpu += starts_with(xs->planes[i]->name, "/device:GPU:");
	}
	tl_qsort(hosts, nh, sizeof(*hosts), cmp_plane_name);
	for (size_t i = 0; i < nh; i++) {
		c->pl[c->npl].p = hosts[i];
		c->pl[c->npl++].dev = HOST_THREADS_ID + (uint32_t)i;
	}
	if (!ngpu)
		dev_prefix = "/device:TPU:";
	for (size_t i = 0; i < xs->n_planes; i++) {
		const XPlane *p = xs->planes[i];
		if (!starts_with(p->name, dev_prefix))
			continue;
		int64_t dev = FIRST_DEVICE_ID + p->id;
		c->pl[c->npl].p = p;
		c->pl[c->npl++].dev = dev > LAST_DEVICE_ID || dev < FIRST_DEVICE_ID
			? FIRST_DEVICE_ID : (uint32_t)dev;
	}
	for (size_t i = 0; i < xs->n_planes; i++) {
		const XPlane *p = xs->planes[i];
		if (!starts_with(p->name, "/device:CUSTOM:"))
			continue;
		c->pl[c->npl].p = p;
		c->pl[c->npl++].dev = FIRST_CUSTOM_ID + (uint32_t)p->id;
	}
	for (size_t i = 0; i < c->npl; i++)
		index_plane(&c->pl[i]);
	free(hosts);
}

static void top(struct conv *c, const char *key)
{
	if (json_parse(&c->j, c->o.buf, c->o.len) < 0)
		tl_die("%s: internal error: #top %s is not JSON: %s", c->name, key, c->j.err_msg);
	cat_event_top(c->w, c->src, key, strlen(key), &c->j);
}

/* #top xplane.hostnames, xplane.planes (every plane's name, id, own stats) */
static void space_tops(struct conv *c, const XSpace *xs)
{
	struct pystr *o = &c->o;

	pystr_reset(o);
	pystr_addc(o, '[');
	for (size_t i = 0; i < xs->n_hostnames; i++) {
		if (i)
			pystr_addc(o, ',');
		add_json_str(o, xs->hostnames[i]);
	}
	pystr_addc(o, ']');
	top(c, "xplane.hostnames");
	pystr_reset(o);
	pystr_addc(o, '[');
	for (size_t i = 0; i < xs->n_planes; i++) {
		const XPlane *p = xs->planes[i];
		struct plane pl = { p, 0, NULL, NULL, 0, 0 };
		struct special sp = { 0, 0, 0, 0, 0, NULL };
		int nargs = 0;
		index_plane(&pl);
		pystr_adds(o, i ? ",{\"name\":" : "{\"name\":");
		add_json_str(o, p->name);
		pystr_adds(o, ",\"id\":");
		add_i64(o, p->id);
		pystr_adds(o, ",\"lines\":");
		add_u64(o, p->n_lines);
		pystr_adds(o, ",\"stats\":{");
		for (size_t s = 0; s < p->n_stats; s++)
			add_stat(c, &pl, p->stats[s], &sp, &nargs);
		pystr_adds(o, "}}");
		free(pl.ev);
		free(pl.st);
	}
	pystr_addc(o, ']');
	top(c, "xplane.planes");
}

/*
 * #top hlo_module.NAME for each module of the "/host:metadata" plane (one
 * event metadata per program, its stat "Hlo Proto" the serialized HloProto).
 * An unreadable one is reported and counted, not fatal.
 */
static int hlo_modules(struct conv *c, const XSpace *xs)
{
	int bad = 0;

	for (size_t i = 0; i < xs->n_planes; i++) {
		const XPlane *p = xs->planes[i];
		if (!p->name || strcmp(p->name, "/host:metadata"))
			continue;
		struct plane pl = { p, 0, NULL, NULL, 0, 0 };
		index_plane(&pl);
		for (size_t k = 0; k < p->n_event_metadata; k++) {
			const XEventMetadata *m = p->event_metadata[k]->value;
			for (size_t s = 0; m && s < m->n_stats; s++) {
				const XStat *st = m->stats[s];
				const char *err = NULL, *sname = stat_name(&pl, st->metadata_id);
				if (st->value_case != TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE ||
				    strcmp(sname, "Hlo Proto"))
					continue;
				char *text = cat_hlo_text(st->bytes_value.data, st->bytes_value.len, &err);
				char *mod = cat_hlo_module_name(st->bytes_value.data, st->bytes_value.len);
				if (!text) {
					tl_warn("%s: HLO module of program \"%s\": %s; its kernels get no "
						"HLO metadata", c->name, m->name ? m->name : "", err);
					bad++;
					free(mod);
					continue;
				}
				struct pystr key = { 0 };
				pystr_adds(&key, "hlo_module.");
				pystr_adds(&key, m->name ? m->name : "");
				pystr_reset(&c->o);
				pystr_adds(&c->o, "{\"module\":");
				add_json_str(&c->o, mod ? mod : "");
				pystr_adds(&c->o, ",\"program\":");
				add_json_str(&c->o, m->name);
				pystr_adds(&c->o, ",\"text\":");
				add_json_str(&c->o, text);
				pystr_addc(&c->o, '}');
				top(c, key.buf);
				pystr_release(&key);
				free(text);
				free(mod);
			}
		}
		free(pl.ev);
		free(pl.st);
	}
	return bad;
}

static void events(struct conv *c)
{
	for (size_t i = 0; i < c->nev; i++) {
		const struct xev *x = &c->ev[i];
		write_event(c, x);
		emit(c);
		if (x->kind == K_ASYNC) {
			/* FLOW_MID: a "b" event, then an "e" one at its end */
			int has_flow, is_async;
			uint64_t flow;
			const XEventMetadata *m = lookup(x->pl->ev, x->pl->nev, x->e->metadata_id);
			flow_of(x->pl, m, x->e, &has_flow, &flow, &is_async);
			if ((flow & 3) != 3)
				continue;
			pystr_reset(&c->o);
			pystr_adds(&c->o, "{\"pid\":");
			add_u64(&c->o, x->pl->dev);
			pystr_adds(&c->o, ",\"name\":");
			add_json_str(&c->o, x->name);
			pystr_adds(&c->o, ",\"ts\":");
			add_us(&c->o, (int64_t)((uint64_t)x->ts + (uint64_t)x->dur));	/* wraps, as above */
			pystr_adds(&c->o, ",\"id\":");
			add_u64(&c->o, (flow >> 2) & ((1ull << 56) - 1));
			pystr_adds(&c->o, ",\"cat\":");
			add_json_str(&c->o, context_type((unsigned)(flow >> 58)));
			pystr_adds(&c->o, ",\"ph\":\"e\"}");
			emit(c);
		}
	}
}

static void conv_release(struct conv *c)
{
	for (size_t i = 0; i < c->npl; i++) {
		free(c->pl[i].ev);
		free(c->pl[i].st);
	}
	free(c->pl);
	free(c->ev);
	pystr_release(&c->o);
	json_release(&c->j);
}

int cat_xplane(struct cat_event_out *w, const uint8_t *buf, size_t n, const char *name,
	       unsigned src, uint64_t *elements)
{
	struct conv c;
	const char *msg = NULL;
	size_t off = 0;
	XSpace *xs;
	int bad;

	if (check_message(buf, 0, n, M_SPACE, &off, &msg) < 0) {
		tl_warn("%s: byte %zu: %s", name, off, msg);
		return -1;
	}
	if (!(xs = tensorflow__profiler__xspace__unpack(NULL, n, buf))) {
		tl_warn("%s: byte 0: not an XSpace protobuf (its fields do not fit the schema)",
			name);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.w = w;
	c.name = name;
	c.src = src;
	c.host = xs->n_hostnames ? xs->hostnames[0] : "";
	json_init(&c.j);
	pick_planes(&c, xs);
	space_tops(&c, xs);
	bad = hlo_modules(&c, xs);
	gather(&c);
	metadata_events(&c);
	events(&c);
	*elements = c.uid;
	conv_release(&c);
	tensorflow__profiler__xspace__free_unpacked(xs, NULL);
	return bad ? 1 : 0;
}
