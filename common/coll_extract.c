#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_extract.h"
#include "coll_name.h"
#include "err.h"
#include "json.h"
#include "json_value.h"
#include "num_parse.h"
#include "stream.h"
#include "xalloc.h"
#include "banned.h"

struct extract {
	struct stream *s;
	struct coll_rank *r;
	struct json j;
	int c_uid, c_src, c_cat, c_name, c_ts, c_dur, c_corr, c_ext, c_stream, c_args;
	char *src;		/* the one source's number */
	long di_rank;		/* distributedInfo.rank */
	size_t no_time;		/* collectives without numeric ts/dur */
};

/* Key token i equals key, escapes decoded. */
static int key_is(struct json *j, unsigned i, const char *key)
{
	const struct json_tok *t = &j->tok[i];
	size_t n = (size_t)(t->end - t->start), klen = strlen(key);
	char buf[64];

	if (!memchr(j->text + t->start, '\\', n))
		return json_tok_eq(j, i, key, klen);
	if (n >= sizeof(buf))
		return 0;
	return json_decode_string(j->text + t->start, n, buf) == klen &&
	       !memcmp(buf, key, klen);
}

/* The raw compact text of value token i (strings with their quotes). */
static const char *value_text(struct coll_rank *r, struct json *j, unsigned i)
{
	const struct json_tok *t = &j->tok[i];
	int q = t->type == JSON_STRING;
	return coll_rank_intern(r, j->text + t->start - q, (size_t)(t->end - t->start + 2 * q));
}

static int is_null(struct json *j, unsigned i)
{
	return j->tok[i].type == JSON_PRIMITIVE && j->text[j->tok[i].start] == 'n';
}

/*
 * Reads the args object: the fields build_df_long reads (the last of
 * duplicate keys, as json.loads keeps), and whether correlation or
 * External id is there and not null.
 */
static int read_args(struct extract *x, struct coll_event *e, int *linked)
{
	const char *a = stream_field(x->s, x->c_args);
	size_t n = stream_field_len(x->s, x->c_args);
	struct json *j = &x->j;

	if (!n)
		return 0;
	if (json_parse(j, a, n) < 0 || j->ntok < 1 || j->tok[0].type != JSON_OBJECT) {
		tl_warn("%s:%ld: args is not a JSON object", stream_name(x->s),
			stream_lineno(x->s));
		return -1;
	}
	for (unsigned i = 1; i + 1 < j->ntok; i = json_skip(j, i + 1)) {
		if ((key_is(j, i, "correlation") || key_is(j, i, "External id")) &&
		    !is_null(j, i + 1))
			*linked = 1;
		for (int f = 0; f < COLL_NFIELDS; f++)
			if (key_is(j, i, coll_field_arg[f]))
				e->field[f] = is_null(j, i + 1) ? NULL : value_text(x->r, j, i + 1);
	}
	return 0;
}

/*
 * A row not cut yet (a "#dropped" one of tl-tree --lean, or any:
 * stream_defer_cut) that is no kernel: row() would at most count it as a
 * host op, which is done here from its raw cat.
 */
static int counted_uncut(struct extract *x)
{
	size_t n;
	int esc;
	const char *cat = stream_peek(x->s, x->c_cat, &n, &esc);

	/* a row with an escape is cut: row() reads cat as a C string */
	if (esc || (n == 6 && !memcmp(cat, "kernel", 6)))
		return 0;
	if ((n == 6 && !memcmp(cat, "cpu_op", 6)) || (n == 11 && !memcmp(cat, "python_func", 11)))
		x->r->host_ops++;
	return 1;
}

static int row(struct extract *x)
{
	const char *cat = stream_field(x->s, x->c_cat);
	const char *name = stream_field(x->s, x->c_name);
	const char *ts = stream_field(x->s, x->c_ts), *dur = stream_field(x->s, x->c_dur);
	struct coll_event e;
	int linked, rc;

	if (!strcmp(cat, "cpu_op") || !strcmp(cat, "python_func"))
		x->r->host_ops++;
	if (strcmp(cat, "kernel") || !coll_name_match(name, stream_field_len(x->s, x->c_name)))
		return 0;
	memset(&e, 0, sizeof(e));
	linked = stream_field_len(x->s, x->c_corr) || stream_field_len(x->s, x->c_ext);
	if (stream_field_len(x->s, x->c_stream))
		e.field[COLL_F_STREAM] = coll_rank_intern(x->r, stream_field(x->s, x->c_stream),
							  stream_field_len(x->s, x->c_stream));
	rc = read_args(x, &e, &linked);
	if (rc < 0 || !linked || !*ts || !*dur) {
		if (rc == 0 && linked)
			x->no_time++;
		return rc;
	}
	e.uid = num_strtou64(stream_field(x->s, x->c_uid));
	e.name = coll_rank_intern(x->r, name, stream_field_len(x->s, x->c_name));
	e.ts = coll_rank_intern(x->r, ts, strlen(ts));
	e.dur = coll_rank_intern(x->r, dur, strlen(dur));
	*coll_rank_add(x->r) = e;
	return 0;
}

/* "#top SRC KEY JSON": deviceProperties and distributedInfo */
static void top(struct extract *x, const char *key, const char *json)
{
	struct json_value *v;
	const struct json_value *m;

	if (strcmp(key, "deviceProperties") && strcmp(key, "distributedInfo"))
		return;
	if (!(v = json_value_parse(json, strlen(json))))
		return;
	if (!strcmp(key, "deviceProperties")) {
		/* detect_gpus_per_node: a non-empty list */
		x->r->gpus = v->type == JV_ARR && v->n ? (long)v->n : -1;
	} else if (v->type == JV_OBJ) {
		m = json_value_get(v, "rank");
		x->di_rank = m && m->type == JV_INT && m->num >= 0 && m->num < 1e9 ? (long)m->num : -1;
		m = json_value_get(v, "world_size");
		x->r->world_size = m && m->type == JV_INT && m->num > 0 && m->num < 1e9 ?
				   (long)m->num : -1;
	}
	json_value_free(v);
}

static int directive(struct extract *x)
{
	char *line = xstrdup(stream_line(x->s)), *f[4] = { NULL };
	int n = 0, rc = 0;

	for (char *p = line; n < 4 && p; n++) {
		f[n] = p;
		if ((p = strchr(p, '\t')))
			*p++ = '\0';
	}
	if (!strcmp(f[0], "source") && n >= 3) {
		if (x->src && strcmp(x->src, f[1])) {
			tl_warn("%s:%ld: a second trace in the stream (sources %s and %s): extract one rank at a time",
				stream_name(x->s), stream_lineno(x->s), x->src, f[1]);
			rc = -1;
		} else if (!x->src) {
			x->src = xstrdup(f[1]);
			x->r->source = coll_tsv_unescape(stream_line(x->s) + 8 + strlen(f[1]));
		}
	} else if (!strcmp(f[0], "top") && n == 4) {
		top(x, f[2], f[3]);
	}
	free(line);
	return rc;
}

static int find_cols(struct extract *x)
{
	static const char *const need[] = { "uid", "cat", "name", "ts", "dur", "corr",
					     "ext", "stream", "args" };
	int *dst[] = { &x->c_uid, &x->c_cat, &x->c_name, &x->c_ts, &x->c_dur, &x->c_corr,
		       &x->c_ext, &x->c_stream, &x->c_args };

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if ((*dst[i] = stream_col(x->s, need[i])) < 0) {
			tl_warn("%s:2: no column '%s'", stream_name(x->s), need[i]);
			return -1;
		}
	return 0;
}

static int scan(struct extract *x)
{
	int st;

	if (find_cols(x) < 0)
		return -1;
	stream_defer_cut(x->s, x->c_cat + 1);	/* most rows are told by their cat */
	while ((st = stream_next(x->s)) > 0) {
		if (st != STREAM_DIRECTIVE && counted_uncut(x))
			continue;
		if (st != STREAM_DIRECTIVE && stream_cut(x->s) < 0)
			return -1;
		if ((st == STREAM_DIRECTIVE ? directive(x) : row(x)) < 0)
			return -1;
	}
	return st < 0 ? -1 : 0;
}

int coll_extract(struct coll_rank *r, const char *path, long rank_opt)
{
	struct extract x;
	int rc;

	coll_rank_init(r);
	memset(&x, 0, sizeof(x));
	x.r = r;
	x.di_rank = -1;
	json_init(&x.j);
	if (!(x.s = stream_open(path, "events,nodes")))
		return -1;
	stream_allow_dropped(x.s);	/* never a kernel; row() counts host ops */
	/* tl-nodes 2 adds copies of capture-trace events: TraceLens's
	 * collective analysis reads the trace as recorded */
	if (stream_col(x.s, "graft") >= 0) {
		tl_warn("%s: an edited tree (tl-nodes 2, tl-tree --capture or --pseudo-ops): "
			"give tl-coll the event stream or tl-tree's plain node stream",
			stream_name(x.s));
		stream_close(x.s);
		json_release(&x.j);
		return -1;
	}
	r->path = xstrdup(stream_name(x.s));
	rc = scan(&x);
	if (x.no_time)
		tl_warn("%s: %zu collective kernel%s without a numeric ts or dur left out",
			stream_name(x.s), x.no_time, x.no_time == 1 ? "" : "s");
	if (x.di_rank >= 0 && rank_opt >= 0 && x.di_rank != rank_opt)
		tl_warn("%s: distributedInfo.rank %ld is used, not --rank %ld",
			stream_name(x.s), x.di_rank, rank_opt);
	r->rank = x.di_rank >= 0 ? x.di_rank : rank_opt;
	stream_close(x.s);
	json_release(&x.j);
	free(x.src);
	if (rc < 0)
		coll_rank_release(r);
	return rc;
}
