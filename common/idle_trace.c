#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "idle_kind.h"
#include "idle_trace.h"
#include "json_value.h"
#include "np_stat.h"
#include "num_parse.h"
#include "stream.h"
#include "strpool.h"
#include "text_memo.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* The columns of tl-stream(5) this module reads. */
struct cols {
	int uid, src, cat, name, pid, tid, ts, dur, corr, stream, device, args, extra;
};

/* A trace being read: raw values until its #end, when HTA's rules apply. */
struct pending {
	int ts_float, dur_float, pid_kind, tid_kind;
	struct text_memo pid_last, tid_last;
};

void idle_set_init(struct idle_set *set, int keep_all)
{
	memset(set, 0, sizeof(*set));
	set->sp = strpool_new();
	set->keep_all = keep_all;
	/* interned up front: rows are classified by these names as they come */
	set->event_sync = strpool_intern(set->sp, "Event Sync", 10);
	set->context_sync = strpool_intern(set->sp, "Context Sync", 12);
}

void idle_set_release(struct idle_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		struct idle_trace *t = &set->t[i];
		free(t->source);
		free(t->ev);
		free(t->plain_ts);
		free(t->wait);
	}
	free(set->t);
	free(set->is_symbol);
	free(set->ktype);
	strpool_free(set->sp);
	memset(set, 0, sizeof(*set));
}

static uint32_t symbol(struct idle_set *set, const char *s, size_t n)
{
	uint32_t id = strpool_intern(set->sp, s, n);
	if (id >= set->nsym_alloc) {
		size_t old = set->nsym_alloc;
		xgrow((void **)&set->is_symbol, &set->nsym_alloc, (size_t)id + 1, 1);
		memset(set->is_symbol + old, 0, set->nsym_alloc - old);
		set->ktype = xrealloc(set->ktype, set->nsym_alloc);
		memset(set->ktype + old, 0, set->nsym_alloc - old);
	}
	set->is_symbol[id] = 1;
	return id;
}

uint32_t idle_symbol(const struct idle_set *set, const char *s)
{
	uint32_t id = strpool_find(set->sp, s, strlen(s));
	return id != UINT32_MAX && id < set->nsym_alloc && set->is_symbol[id] ? id : UINT32_MAX;
}

int idle_ktype(struct idle_set *set, uint32_t name)
{
	if (!set->ktype[name])
		set->ktype[name] = (unsigned char)(1 + idle_kernel_type(idle_str(set, name),
								idle_len(set, name)));
	return set->ktype[name] - 1;
}

const char *idle_str(const struct idle_set *set, uint32_t id) { return strpool_str(set->sp, id); }
size_t idle_len(const struct idle_set *set, uint32_t id) { return strpool_len(set->sp, id); }

const struct idle_wait *idle_trace_wait(const struct idle_trace *t, int64_t index)
{
	size_t lo = 0, hi = t->nwait;

	while (lo < hi) {	/* rows are read in uid order: the array is sorted */
		size_t mid = lo + (hi - lo) / 2;
		if (t->wait[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nwait && t->wait[lo].index == index ? &t->wait[lo] : NULL;
}

/*
 * A JSON number written with '.', 'e' or 'E' is a Python float.  The
 * fields are short (a pid, a time): a loop, not a strpbrk call.  The
 * first n bytes, up to a NUL: a field cut (NUL-terminated, n its length)
 * or peeked in the row (ending at a tab, with no NUL in it).
 */
static int is_float_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
			return 1;
	return 0;
}

static int is_float_literal(const char *s)
{
	return is_float_text(s, SIZE_MAX);
}

/* pandas' dtype of a pid/tid column from one more element's value (n
 * bytes, up to a NUL, as is_float_text reads). */
static int value_kind(const char *s, size_t n)
{
	if (!n || !*s)
		return IDLE_FLOAT;	/* missing: NaN */
	if (*s == '"' || *s == 't' || *s == 'f' || *s == 'n')
		return *s == 'n' ? IDLE_FLOAT : IDLE_OBJECT;
	return is_float_text(s, n) ? IDLE_FLOAT : IDLE_INT;
}

/* value_kind of v (n bytes) into *kind, skipped for the last text again. */
static void note_kind(int *kind, struct text_memo *m, const char *v, size_t n)
{
	int k;

	if (*kind == IDLE_OBJECT)
		return;		/* as general as it gets */
	if (text_memo_same(m, v, n))
		return;
	k = value_kind(v, n);
	if (k > *kind)
		*kind = k;
}

static int64_t int_field(const char *s, int64_t missing)
{
	if (!*s)
		return missing;
	if (is_float_literal(s))	/* astype(int) truncates */
		return np_int64(strtod(s, NULL));
	return num_strtoi64(s);
}

/* "cat" present but an empty string sits in extra (tl-stream(5)). */
static int empty_cat_in_extra(const char *extra)
{
	return *extra && strstr(extra, "\"cat\":\"\"") != NULL;
}

static void read_wait(struct idle_trace *t, int64_t index, const char *args)
{
	struct json_value *v;
	const struct json_value *s, *c;
	struct idle_wait *w;

	if (!strstr(args, "\"wait_on_"))
		return;
	v = json_value_parse(args, strlen(args));
	if (!v)
		return;
	s = json_value_get(v, "wait_on_stream");
	c = json_value_get(v, "wait_on_cuda_event_record_corr_id");
	if ((s && s->type == JV_INT) || (c && c->type == JV_INT)) {
		xgrow((void **)&t->wait, &t->wait_alloc, t->nwait + 1, sizeof(*t->wait));
		w = &t->wait[t->nwait++];
		w->index = index;
		w->stream = s && s->type == JV_INT ? np_int64(s->num) : -1;
		w->corr = c && c->type == JV_INT ? np_int64(c->num) : -1;
	}
	json_value_free(v);
}

/* GPUKernelFilter: stream >= 0 and correlation >= 0, or a device sync. */
static int gpu_filter_row(const struct idle_ev *e, uint32_t event_sync, uint32_t context_sync)
{
	return (e->stream >= 0 && e->corr >= 0) || e->name == event_sync || e->name == context_sync;
}

static void add_row(struct idle_set *set, struct idle_trace *t, struct pending *p,
		    struct stream *s, const struct cols *c)
{
	const char *ts = stream_field(s, c->ts), *dur = stream_field(s, c->dur);
	const char *cat = stream_field(s, c->cat), *extra = stream_field(s, c->extra);
	const char *name = stream_field(s, c->name), *uid;
	struct idle_ev e;
	int plain;

	/* pandas types each column over all elements, kept or not */
	/* once a float, always (no need to look at more rows) */
	if (!p->ts_float && (!*ts || is_float_literal(ts)))
		p->ts_float = 1;
	if (!p->dur_float && (!*dur || is_float_literal(dur)))
		p->dur_float = 1;
	note_kind(&p->pid_kind, &p->pid_last, stream_field(s, c->pid), stream_field_len(s, c->pid));
	note_kind(&p->tid_kind, &p->tid_last, stream_field(s, c->tid), stream_field_len(s, c->tid));

	/* dropna(subset=["dur", "cat"]) and the "Trace" span (the first
	 * byte told first: most rows are none of the names compared here) */
	if (!*dur || !*ts || (!*cat && !empty_cat_in_extra(extra)) ||
	    (cat[0] == 'T' && !strcmp(cat, "Trace")))
		return;
	memset(&e, 0, sizeof(e));
	e.ts = num_strtod(ts, NULL);
	e.stream = int_field(stream_field(s, c->stream), -1);
	e.corr = int_field(stream_field(s, c->corr), -1);
	/*
	 * A CPU row without correlation is not stored for the breakdowns (its
	 * start is, for the filter); uid 0 stays: HTA joins a kernel whose
	 * correlation found no launch (index_correlation 0) with the event of
	 * index 0.  There the uid is only compared with 0: one that starts
	 * with a digit from 1 to 9 is not (strtoll's value is at least that).
	 */
	uid = stream_field(s, c->uid);
	plain = !set->keep_all && e.stream == -1 && e.corr == -1 &&
		((uid[0] >= '1' && uid[0] <= '9') || num_strtoi64(uid) != 0);
	if (plain && !idle_is_profiler_step(name, stream_field_len(s, c->name))) {
		if (!(name[0] == 'E' && !strcmp(name, "Event Sync")) &&
		    !(name[0] == 'C' && !strcmp(name, "Context Sync")))
			t->ncpu++;
		xgrow((void **)&t->plain_ts, &t->plain_alloc, t->nplain + 1, sizeof(double));
		/* rounded later, like the stored rows */
		t->plain_ts[t->nplain++] = e.ts;
		return;
	}
	e.index = num_strtoi64(uid);
	e.dur = num_strtod(dur, NULL);	/* a plain row's is never read */
	e.device = (int32_t)int_field(stream_field(s, c->device), -1);
	e.cat = symbol(set, cat, stream_field_len(s, c->cat));
	e.name = symbol(set, name, stream_field_len(s, c->name));
	if (!gpu_filter_row(&e, set->event_sync, set->context_sync))
		t->ncpu++;
	/* the breakdowns read the pid and tid of launch calls only */
	if (set->keep_all || e.stream == -1) {
		e.pid = strpool_intern(set->sp, stream_field(s, c->pid), stream_field_len(s, c->pid));
		e.tid = strpool_intern(set->sp, stream_field(s, c->tid), stream_field_len(s, c->tid));
	}
	if (set->keep_all)
		read_wait(t, e.index, stream_field(s, c->args));
	xgrow((void **)&t->ev, &t->alloc, t->n + 1, sizeof(*t->ev));
	t->ev[t->n++] = e;
}

/*
 * A "#dropped" row (tl-tree --lean: a python frame, flow or instant out of
 * the tree; 1.9 M of the x20 bench trace's 2.6 M rows) read as add_row
 * reads it, from its first nine fields as written (f, len: no backslash
 * or NUL in them), without cutting it into all its columns: it has no
 * correlation, stream, device or extra, so it is a plain CPU row, whose
 * start is kept for the filter.  1 if so; 0 where add_row must read it
 * (uid 0, a ProfilerStep).
 */
static int add_dropped(struct idle_trace *t, struct pending *p, const char *const *f,
		       const size_t *len)
{
	const char *ts = f[7], *dur = f[8], *cat = f[3], *name = f[4];

	if (f[0][0] < '1' || f[0][0] > '9' || idle_is_profiler_step(name, len[4]))
		return 0;
	if (!p->ts_float && (!len[7] || is_float_text(ts, len[7])))
		p->ts_float = 1;
	if (!p->dur_float && (!len[8] || is_float_text(dur, len[8])))
		p->dur_float = 1;
	note_kind(&p->pid_kind, &p->pid_last, f[5], len[5]);
	note_kind(&p->tid_kind, &p->tid_last, f[6], len[6]);
	if (!len[8] || !len[7] || !len[3] || (len[3] == 5 && !memcmp(cat, "Trace", 5)))
		return 1;	/* dropna, or the "Trace" span */
	if (!(len[4] == 10 && !memcmp(name, "Event Sync", 10)) &&
	    !(len[4] == 12 && !memcmp(name, "Context Sync", 12)))
		t->ncpu++;
	xgrow((void **)&t->plain_ts, &t->plain_alloc, t->nplain + 1, sizeof(double));
	/* num_strtod stops at the tab as at a cut field's NUL */
	t->plain_ts[t->nplain++] = num_strtod(ts, NULL);
	return 1;
}

/* round_down_time_stamps: ceil the start, floor the end. */
static void round_times(struct idle_trace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct idle_ev *e = &t->ev[i];
		double end = floor(e->ts + e->dur);
		e->ts = ceil(e->ts);
		e->dur = end - e->ts;
	}
	for (size_t i = 0; i < t->nplain; i++)
		t->plain_ts[i] = ceil(t->plain_ts[i]);
}

static uint64_t corr_key(int64_t corr)
{
	return (uint64_t)corr ^ 0x8000000000000000ULL;	/* 0 only for INT64_MIN */
}

/*
 * transform_correlation_to_index: the CPU and GPU rows of one correlation
 * point at each other; with several on a side, at the last one (pandas
 * assigns the merge's pairs in order, so the last pair wins).
 */
/* The side of a row with a correlation (1 GPU, 0 CPU), or -1 for none. */
static int corr_side(const struct idle_ev *e, uint32_t event_sync, uint32_t context_sync)
{
	if (e->corr == -1 || !corr_key(e->corr))
		return -1;
	return gpu_filter_row(e, event_sync, context_sync);
}

static void link_correlations(struct idle_trace *t, uint32_t event_sync, uint32_t context_sync)
{
	struct hmap last_cpu = HMAP_INIT, last_gpu = HMAP_INIT;
	size_t n[2] = { 0, 0 };
	uint32_t r;
	int side;

	/* each map at its size at once: growing it doubling by doubling
	 * moved every key about once more (hmap_reserve) */
	for (size_t i = 0; i < t->n; i++)
		if ((side = corr_side(&t->ev[i], event_sync, context_sync)) >= 0)
			n[side]++;
	hmap_reserve(&last_gpu, n[1]);
	hmap_reserve(&last_cpu, n[0]);
	for (size_t i = 0; i < t->n; i++) {
		struct idle_ev *e = &t->ev[i];
		e->icorr = e->corr < 0 ? e->corr : 0;
		if ((side = corr_side(e, event_sync, context_sync)) >= 0)
			hmap_put(side ? &last_gpu : &last_cpu, corr_key(e->corr), (uint32_t)i);
	}
	for (size_t i = 0; i < t->n; i++) {
		struct idle_ev *e = &t->ev[i];
		if ((side = corr_side(e, event_sync, context_sync)) >= 0 &&
		    hmap_get(side ? &last_cpu : &last_gpu, corr_key(e->corr), &r))
			e->icorr = t->ev[r].index;
	}
	hmap_release(&last_cpu);
	hmap_release(&last_gpu);
}

static void finish_source(struct idle_set *set, struct idle_trace *t, struct pending *p)
{
	t->rounded = p->ts_float;
	if (t->rounded)
		round_times(t);
	t->ts_type = p->ts_float ? IDLE_FLOAT : IDLE_INT;
	t->dur_type = p->dur_float || p->ts_float ? IDLE_FLOAT : IDLE_INT;
	t->pid_type = p->pid_kind;
	t->tid_type = p->tid_kind;
	t->min_ts = INFINITY;
	for (size_t i = 0; i < t->n; i++)
		if (t->ev[i].ts < t->min_ts)
			t->min_ts = t->ev[i].ts;
	for (size_t i = 0; i < t->nplain; i++)
		if (t->plain_ts[i] < t->min_ts)
			t->min_ts = t->plain_ts[i];
	link_correlations(t, set->event_sync, set->context_sync);
}

static long top_rank(const char *line)
{
	/* "top\tSRC\tKEY\tJSON" */
	const char *p = strchr(line, '\t'), *json;
	struct json_value *v;
	const struct json_value *r;
	long rank = 0;

	if (!p || !(p = strchr(p + 1, '\t')) || strncmp(p + 1, "distributedInfo\t", 16))
		return -1;
	json = p + 17;
	v = json_value_parse(json, strlen(json));
	if (v && (r = json_value_get(v, "rank")) && r->type == JV_INT && r->num >= 0)
		rank = (long)r->num;
	json_value_free(v);
	return rank;
}

/* The sources of one stream while it is read. */
struct reading {
	unsigned src;
	size_t ti;		/* index in set->t */
	struct pending p;
	int ended;
};

static struct reading *reading_of(struct reading *r, size_t n, unsigned src)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].src == src)
			return &r[i];
	return NULL;
}

static int directive(struct idle_set *set, struct stream *s, struct reading **rd,
		     size_t *nrd, size_t *rd_alloc)
{
	const char *line = stream_line(s);
	unsigned src;
	struct reading *r;
	struct idle_trace *t;

	if (!strncmp(line, "source\t", 7)) {
		const char *name = strchr(line + 7, '\t');
		src = (unsigned)strtoul(line + 7, NULL, 10);
		if (reading_of(*rd, *nrd, src)) {
			tl_warn("%s:%ld: source %u appears twice", stream_name(s),
				stream_lineno(s), src);
			return -1;
		}
		xgrow((void **)&set->t, &set->alloc, set->n + 1, sizeof(*set->t));
		t = &set->t[set->n];
		memset(t, 0, sizeof(*t));
		t->src = src;
		t->source = xstrdup(name ? name + 1 : "-");
		xgrow((void **)rd, rd_alloc, *nrd + 1, sizeof(**rd));
		r = &(*rd)[(*nrd)++];
		memset(r, 0, sizeof(*r));
		r->src = src;
		r->ti = set->n++;
		return 0;
	}
	if (!strncmp(line, "top\t", 4) || !strncmp(line, "end\t", 4)) {
		src = (unsigned)strtoul(line + 4, NULL, 10);
		r = reading_of(*rd, *nrd, src);
		if (!r || r->ended) {
			tl_warn("%s:%ld: directive for source %u outside it", stream_name(s),
				stream_lineno(s), src);
			return -1;
		}
		if (line[0] == 't') {
			long rank = top_rank(line);
			if (rank >= 0)
				set->t[r->ti].rank = rank;
		} else {
			finish_source(set, &set->t[r->ti], &r->p);
			r->ended = 1;
		}
	}
	return 0;
}

static int find_cols(struct stream *s, struct cols *c)
{
	/* tl-nodes 2 adds rows and relinks kernels: HTA reads the trace as
	 * recorded */
	if (stream_col(s, "graft") >= 0) {
		tl_warn("%s: an edited tree (tl-nodes 2, tl-tree --capture or --pseudo-ops): "
			"give tl-idle the event stream or tl-tree's plain node stream",
			stream_name(s));
		return -1;
	}
	c->uid = stream_col(s, "uid");
	c->src = stream_col(s, "src");
	c->cat = stream_col(s, "cat");
	c->name = stream_col(s, "name");
	c->pid = stream_col(s, "pid");
	c->tid = stream_col(s, "tid");
	c->ts = stream_col(s, "ts");
	c->dur = stream_col(s, "dur");
	c->corr = stream_col(s, "corr");
	c->stream = stream_col(s, "stream");
	c->device = stream_col(s, "device");
	c->args = stream_col(s, "args");
	c->extra = stream_col(s, "extra");
	if (c->uid < 0 || c->src < 0 || c->ts < 0 || c->dur < 0 || c->cat < 0 ||
	    c->name < 0) {
		tl_warn("%s: no uid, src, cat, name, ts or dur column: not a tl-stream(5) "
			"event or node stream", stream_name(s));
		return -1;
	}
	return 0;
}

/*
 * The source number (strtoul's) of a row's src field v (n bytes, cut or
 * peeked: strtoul stops at its NUL or tab): rows come a source at a time,
 * so the last text's number *src holds again for the same text.
 */
static unsigned src_of(struct text_memo *m, unsigned *src, const char *v, size_t n)
{
	if (!text_memo_same(m, v, n))
		*src = (unsigned)strtoul(v, NULL, 10);
	return *src;
}

/* Whether a "#dropped" row's nine fields are the columns add_dropped
 * reads, and those it does not give (empty) the ones add_row would. */
static int dropped_layout(const struct cols *c)
{
	const int after[] = { c->corr, c->stream, c->device, c->args, c->extra };

	if (c->uid != 0 || c->src != 1 || c->cat != 3 || c->name != 4 || c->pid != 5 ||
	    c->tid != 6 || c->ts != 7 || c->dur != 8)
		return 0;
	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++)
		if (after[i] >= 0 && after[i] < 9)
			return 0;
	return 1;
}

/* A "#dropped" row by add_dropped, uncut: 1 if read so. */
static int read_dropped(struct idle_set *set, struct stream *s, struct reading *rd, size_t nrd,
			struct text_memo *src_last, unsigned *src)
{
	const char *f[9];
	size_t len[9];
	struct reading *r;

	if (!stream_peek_first(s, 9, f, len) ||
	    memchr(f[0], '\0', (size_t)(f[8] + len[8] - f[0])))
		return 0;
	r = reading_of(rd, nrd, src_of(src_last, src, f[1], len[1]));
	return r && !r->ended && add_dropped(&set->t[r->ti], &r->p, f, len);
}

int idle_set_read(struct idle_set *set, const char *path)
{
	struct stream *s = stream_open(path, "events,nodes");
	struct reading *rd = NULL, *r;
	size_t nrd = 0, rd_alloc = 0;
	struct cols c;
	struct text_memo src_last = { { 0 }, 0, 0 };
	unsigned src = 0;
	int k, fast, rval = 0;

	if (!s)
		return -1;
	if (find_cols(s, &c) < 0) {
		stream_close(s);
		return -1;
	}
	fast = dropped_layout(&c);
	/*
	 * The breakdowns read a "#dropped" row's first columns only (it has
	 * no correlation or stream: tl-tree --lean); the critical path reads
	 * every row's args
	 */
	if (!set->keep_all)
		stream_allow_dropped(s);
	while ((k = stream_next(s)) > 0) {
		if (k == STREAM_DIRECTIVE) {
			if (directive(set, s, &rd, &nrd, &rd_alloc) < 0) {
				rval = -1;
				break;
			}
			continue;
		}
		if (k == STREAM_DROPPED && fast &&
		    read_dropped(set, s, rd, nrd, &src_last, &src))
			continue;
		if (k == STREAM_DROPPED && stream_cut(s) < 0) {
			rval = -1;
			break;
		}
		r = reading_of(rd, nrd, src_of(&src_last, &src, stream_field(s, c.src),
						stream_field_len(s, c.src)));
		if (!r || r->ended) {
			tl_warn("%s:%ld: row of source %s outside its #source ... #end",
				stream_name(s), stream_lineno(s), stream_field(s, c.src));
			rval = -1;
			break;
		}
		add_row(set, &set->t[r->ti], &r->p, s, &c);
	}
	if (k < 0)
		rval = -1;
	for (size_t i = 0; rval == 0 && i < nrd; i++)
		if (!rd[i].ended) {
			tl_warn("%s: source %u has no #end: the stream was cut short",
				stream_name(s), rd[i].src);
			rval = -1;
		}
	if (rval == 0 && nrd == 0) {
		tl_warn("%s: no trace in the stream (no #source line)", stream_name(s));
		rval = -1;
	}
	free(rd);
	stream_close(s);
	return rval;
}

static int by_rank(const void *a, const void *b)
{
	const struct idle_trace *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * _filter_irrelevant_gpu_kernels for one rank: CPU rows that start before
 * the last ProfilerStep starts, and the GPU rows of their correlations
 * (once per matching CPU row: pandas' inner merge), GPU rows first.
 */
static void filter_rank(struct idle_set *set, struct idle_trace *t)
{
	struct hmap kept = HMAP_INIT;	/* correlation → kept CPU rows */
	struct idle_ev *out = NULL;
	size_t nout = 0, alloc = 0, nplain_kept = 0;
	double last_start = -INFINITY, min_cpu = INFINITY;
	int have_step = 0;
	uint32_t cnt;

	if (t->ncpu == 0)
		return;		/* "if cpu_kernels.empty: return trace_df" */
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (gpu_filter_row(e, set->event_sync, set->context_sync))
			continue;
		if (e->ts < min_cpu)
			min_cpu = e->ts;
		if (idle_is_profiler_step(idle_str(set, e->name), idle_len(set, e->name))) {
			if (!have_step || e->ts > last_start)
				last_start = e->ts;
			have_step = 1;
		}
	}
	for (size_t i = 0; i < t->nplain; i++)
		if (t->plain_ts[i] < min_cpu)
			min_cpu = t->plain_ts[i];
	if (!have_step)
		last_start = min_cpu;
	for (size_t i = 0; i < t->nplain; i++)
		nplain_kept += t->plain_ts[i] < last_start;
	for (size_t i = 0; i < t->n; i++) {
		const struct idle_ev *e = &t->ev[i];
		if (gpu_filter_row(e, set->event_sync, set->context_sync) || !(e->ts < last_start))
			continue;
		cnt = 0;
		hmap_get(&kept, corr_key(e->corr), &cnt);
		hmap_put(&kept, corr_key(e->corr), cnt + 1);
	}
	if (nplain_kept) {	/* the rows not stored all have correlation -1 */
		cnt = 0;
		hmap_get(&kept, corr_key(-1), &cnt);
		hmap_put(&kept, corr_key(-1), cnt + (uint32_t)nplain_kept);
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t->n; i++) {
			const struct idle_ev *e = &t->ev[i];
			int gpu = gpu_filter_row(e, set->event_sync, set->context_sync);
			if (pass == 0 && gpu) {
				cnt = 0;
				hmap_get(&kept, corr_key(e->corr), &cnt);
			} else if (pass == 1 && !gpu && e->ts < last_start) {
				cnt = 1;
			} else {
				continue;
			}
			xgrow((void **)&out, &alloc, nout + cnt, sizeof(*out));
			while (cnt--)
				out[nout++] = *e;
		}
	hmap_release(&kept);
	free(t->ev);
	t->ev = out;
	t->n = nout;
	t->alloc = alloc;
	/* the rows not stored: those kept stay counted for nothing further */
	t->nplain = 0;
}

int idle_set_finish(struct idle_set *set)
{
	double min_ts = INFINITY;
	size_t nsteps = 0;

	if (set->n > 1)
		tl_qsort(set->t, set->n, sizeof(*set->t), by_rank);
	for (size_t i = 1; i < set->n; i++)
		if (set->t[i].rank == set->t[i - 1].rank) {
			tl_warn("%s: rank %ld again (also in %s): one trace per rank",
				set->t[i].source, set->t[i].rank, set->t[i - 1].source);
			return -1;
		}
	/* _align_all_ranks: every ts relative to the earliest of all ranks */
	for (size_t i = 0; i < set->n; i++)
		if (set->t[i].min_ts < min_ts)
			min_ts = set->t[i].min_ts;
	for (size_t i = 0; i < set->n && isfinite(min_ts); i++) {
		struct idle_trace *t = &set->t[i];
		for (size_t j = 0; j < t->n; j++)
			t->ev[j].ts -= min_ts;
		for (size_t j = 0; j < t->nplain; j++)
			t->plain_ts[j] -= min_ts;
	}
	set->min_ts = isfinite(min_ts) ? min_ts : 0;
	/* the filter runs when the symbol table holds two ProfilerStep names */
	for (uint32_t id = 0; id < set->nsym_alloc; id++)
		if (set->is_symbol[id] && idle_is_profiler_step(idle_str(set, id), idle_len(set, id)))
			nsteps++;
	if (nsteps >= 2) {
		set->filtered = 1;
		for (size_t i = 0; i < set->n; i++)
			filter_rank(set, &set->t[i]);
	}
	return 0;
}
