#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_stream.h"
#include "err.h"
#include "json.h"
#include "json_value.h"
#include "outbuf.h"
#include "stream.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

const char *const coll_field_arg[COLL_NFIELDS] = {
	"Process Group Name", "Process Group Ranks", "Collective name", "Group size",
	"dtype", "In msg nelems", "Out msg nelems", "In split size", "Out split size",
	"stream",
};

const char *const coll_field_col[COLL_NFIELDS] = {
	"pg_name", "pg_ranks", "coll_name", "group_size", "dtype", "in_nelems",
	"out_nelems", "in_split", "out_split", "stream",
};

void coll_rank_init(struct coll_rank *r)
{
	memset(r, 0, sizeof(*r));
	r->rank = r->gpus = r->world_size = -1;
}

void coll_rank_release(struct coll_rank *r)
{
	strpool_free(r->sp);
	free(r->ev);
	free(r->path);
	free(r->source);
	coll_rank_init(r);
}

const char *coll_rank_intern(struct coll_rank *r, const char *s, size_t n)
{
	if (!r->sp)
		r->sp = strpool_new();
	return strpool_str(r->sp, strpool_intern(r->sp, s, n));
}

struct coll_event *coll_rank_add(struct coll_rank *r)
{
	struct coll_event *e;

	xgrow((void **)&r->ev, &r->alloc, r->n + 1, sizeof(*r->ev));
	e = &r->ev[r->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

char *coll_tsv_unescape(const char *s)
{
	char *out = xstrdup(s), *w = out;

	for (; *s; s++) {
		char c = *s;
		if (c == '\\' && s[1]) {
			switch (s[1]) {
			case '\\': c = '\\'; s++; break;
			case 't': c = '\t'; s++; break;
			case 'n': c = '\n'; s++; break;
			case 'r': c = '\r'; s++; break;
			default: break;	/* \0 cannot live in a C string: kept as it is */
			}
		}
		*w++ = c;
	}
	*w = '\0';
	return out;
}

/* ---- writing ---- */

static void put_field(struct outbuf *ob, const char *s)
{
	outbuf_putc(ob, '\t');
	if (s)
		outbuf_tsv(ob, s, strlen(s));
}

static void put_long_directive(struct outbuf *ob, const char *name, long v)
{
	if (v >= 0)
		outbuf_printf(ob, "#%s\t%ld\n", name, v);
}

void coll_stream_write(const struct coll_rank *r, struct outbuf *ob)
{
	outbuf_puts(ob, "#tl-coll 1\nrank\tuid\tname\tts\tdur");
	for (int f = 0; f < COLL_NFIELDS; f++)
		outbuf_printf(ob, "\t%s", coll_field_col[f]);
	outbuf_putc(ob, '\n');
	if (r->source) {
		outbuf_puts(ob, "#source\t");
		outbuf_tsv(ob, r->source, strlen(r->source));
		outbuf_putc(ob, '\n');
	}
	put_long_directive(ob, "rank", r->rank);
	put_long_directive(ob, "gpus", r->gpus);
	put_long_directive(ob, "world_size", r->world_size);
	put_long_directive(ob, "host_ops", r->host_ops);
	for (size_t i = 0; i < r->n; i++) {
		const struct coll_event *e = &r->ev[i];
		if (r->rank >= 0)
			outbuf_printf(ob, "%ld", r->rank);
		outbuf_printf(ob, "\t%llu", (unsigned long long)e->uid);
		put_field(ob, e->name);
		put_field(ob, e->ts);
		put_field(ob, e->dur);
		for (int f = 0; f < COLL_NFIELDS; f++)
			put_field(ob, e->field[f]);
		outbuf_putc(ob, '\n');
	}
	outbuf_printf(ob, "#end\t%zu\n", r->n);
}

/* ---- reading ---- */

struct reader {
	struct stream *s;
	struct coll_rank *r;
	int c_rank, c_uid, c_name, c_ts, c_dur, c_field[COLL_NFIELDS];
	int ended;
	long end_rows;
};

static int bad(struct reader *rd, const char *what, const char *value)
{
	tl_warn("%s:%ld: %s%s%s%s", stream_name(rd->s), stream_lineno(rd->s), what,
		value ? " '" : "", value ? value : "", value ? "'" : "");
	return -1;
}

/* A non-negative decimal integer that fits a long; -1 if s is not one. */
static long parse_count(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end ? -1 : v;
}

static int directive(struct reader *rd)
{
	const char *line = stream_line(rd->s), *tab = strchr(line, '\t');
	size_t klen = tab ? (size_t)(tab - line) : strlen(line);
	const char *val = tab ? tab + 1 : "";
	long v;

	if (rd->ended)
		return bad(rd, "text after #end", NULL);
	if (klen == 6 && !memcmp(line, "source", 6)) {
		free(rd->r->source);
		rd->r->source = coll_tsv_unescape(val);
		return 0;
	}
	if (klen == 3 && !memcmp(line, "end", 3)) {
		if ((rd->end_rows = parse_count(val)) < 0)
			return bad(rd, "#end needs a row count, not", val);
		rd->ended = 1;
		return 0;
	}
	long *dst = klen == 4 && !memcmp(line, "rank", 4) ? &rd->r->rank :
		    klen == 4 && !memcmp(line, "gpus", 4) ? &rd->r->gpus :
		    klen == 10 && !memcmp(line, "world_size", 10) ? &rd->r->world_size :
		    klen == 8 && !memcmp(line, "host_ops", 8) ? &rd->r->host_ops : NULL;
	if (!dst)
		return 0;	/* a directive of a later version */
	if ((v = parse_count(val)) < 0)
		return bad(rd, "not a count:", line);
	if (dst == &rd->r->rank && rd->r->rank >= 0 && rd->r->rank != v)
		return bad(rd, "#rank differs from the rows' rank:", val);
	*dst = v;
	return 0;
}

static int find_cols(struct reader *rd)
{
	static const char *const need[] = { "rank", "uid", "name", "ts", "dur" };
	int *dst[] = { &rd->c_rank, &rd->c_uid, &rd->c_name, &rd->c_ts, &rd->c_dur };

	for (size_t i = 0; i < 5; i++)
		if ((*dst[i] = stream_col(rd->s, need[i])) < 0) {
			tl_warn("%s:2: no column '%s'", stream_name(rd->s), need[i]);
			return -1;
		}
	for (int f = 0; f < COLL_NFIELDS; f++)
		if ((rd->c_field[f] = stream_col(rd->s, coll_field_col[f])) < 0) {
			tl_warn("%s:2: no column '%s'", stream_name(rd->s), coll_field_col[f]);
			return -1;
		}
	return 0;
}

static int json_ok(const char *s, size_t n)
{
	struct json_value *v = json_value_parse(s, n);

	json_value_free(v);
	return v != NULL;
}

static const char *intern_or_null(struct reader *rd, int c)
{
	size_t n = stream_field_len(rd->s, c);
	return n ? coll_rank_intern(rd->r, stream_field(rd->s, c), n) : NULL;
}

static int row(struct reader *rd)
{
	const char *rank = stream_field(rd->s, rd->c_rank);
	const char *uid = stream_field(rd->s, rd->c_uid);
	const char *ts = stream_field(rd->s, rd->c_ts), *dur = stream_field(rd->s, rd->c_dur);
	struct coll_event *e;
	long rk;

	if (rd->ended)
		return bad(rd, "row after #end", NULL);
	if (*rank) {
		if ((rk = parse_count(rank)) < 0)
			return bad(rd, "rank is not a non-negative integer:", rank);
		if (rd->r->rank >= 0 && rd->r->rank != rk)
			return bad(rd, "rank differs from the stream's #rank:", rank);
		rd->r->rank = rk;
	}
	if (parse_count(uid) < 0)
		return bad(rd, "uid is not a non-negative integer:", uid);
	if (!json_number_ok(ts, strlen(ts)))
		return bad(rd, "ts is not a number:", ts);
	if (!json_number_ok(dur, strlen(dur)))
		return bad(rd, "dur is not a number:", dur);
	for (int f = 0; f < COLL_NFIELDS; f++) {
		size_t n = stream_field_len(rd->s, rd->c_field[f]);
		if (n && !json_ok(stream_field(rd->s, rd->c_field[f]), n)) {
			tl_warn("%s:%ld: %s is not JSON", stream_name(rd->s),
				stream_lineno(rd->s), coll_field_col[f]);
			return -1;
		}
	}
	e = coll_rank_add(rd->r);
	e->uid = strtoull(uid, NULL, 10);
	e->name = coll_rank_intern(rd->r, stream_field(rd->s, rd->c_name),
				   stream_field_len(rd->s, rd->c_name));
	e->ts = coll_rank_intern(rd->r, ts, strlen(ts));
	e->dur = coll_rank_intern(rd->r, dur, strlen(dur));
	for (int f = 0; f < COLL_NFIELDS; f++)
		e->field[f] = intern_or_null(rd, rd->c_field[f]);
	return 0;
}

static int read_stream(struct coll_rank *r, struct stream *s)
{
	struct reader rd = { s, r, 0, 0, 0, 0, 0, { 0 }, 0, -1 };
	int st;

	if (find_cols(&rd) < 0)
		return -1;
	while ((st = stream_next(s)) > 0)
		if ((st == STREAM_DIRECTIVE ? directive(&rd) : row(&rd)) < 0)
			return -1;
	if (st < 0)
		return -1;
	if (!rd.ended) {
		tl_warn("%s: cut short (no #end line)", stream_name(s));
		return -1;
	}
	if ((size_t)rd.end_rows != r->n) {
		tl_warn("%s: #end says %ld rows, the stream has %zu", stream_name(s),
			rd.end_rows, r->n);
		return -1;
	}
	return 0;
}

static int read_from(struct coll_rank *r, struct stream *s, const char *name)
{
	int rc;

	coll_rank_init(r);
	if (!s)
		return -1;
	r->path = xstrdup(name);
	rc = read_stream(r, s);
	stream_close(s);
	if (rc < 0)
		coll_rank_release(r);
	return rc;
}

int coll_stream_read(struct coll_rank *r, const char *path)
{
	return read_from(r, stream_open(path, "coll"), path ? path : "-");
}

int coll_stream_read_mem(struct coll_rank *r, const char *name, const char *buf, size_t len)
{
	FILE *fp = len ? fmemopen((void *)buf, len, "r") : NULL;

	if (!fp) {
		coll_rank_init(r);
		tl_warn("%s:1: not a tl stream (expected a first line like '#tl-coll 1')", name);
		return -1;
	}
	return read_from(r, stream_open_fp(fp, name, "coll"), name);
}
