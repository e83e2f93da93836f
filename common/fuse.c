#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cat_input.h"
#include "err.h"
#include "fuse.h"
#include "fuse_pid.h"
#include "json.h"
#include "json_scan.h"
#include "outbuf.h"
#include "xalloc.h"
#include "banned.h"

#define WINDOW_START (1u << 20)
#define READ_MIN (256u << 10)
/* id, correlation and External id of rank r: r * ID_STRIDE + value */
#define ID_STRIDE INT64_C(10000000000)

struct counts {
	uint64_t read, written, meta, filtered, outside, ids_kept;
};

struct fuse {
	struct fuse_opts o;
	struct outbuf *ob;
	unsigned nranks;
	struct fuse_pids *pids;
	struct json j;
	struct json_scan s;
	char *buf;		/* window: bytes not yet consumed */
	size_t len, cap;
	uint64_t in_array;	/* events written to traceEvents so far */
	unsigned ranks;		/* ranks read */
	struct counts all;
};

/* Value tokens of the members an event is judged and rewritten by (0: absent). */
struct fields {
	unsigned ph, name, cat, pid, ts, dur, id, args;
};

struct fuse *fuse_new(struct outbuf *ob, const struct fuse_opts *o,
		      unsigned nranks)
{
	struct fuse *f = xcalloc(1, sizeof(*f));

	f->o = *o;
	f->ob = ob;
	f->nranks = nranks;
	f->pids = fuse_pids_new(nranks);
	json_init(&f->j);
	f->cap = WINDOW_START;
	f->buf = xmalloc(f->cap);
	outbuf_puts(ob, "{\"traceEvents\":[\n");
	return f;
}

void fuse_free(struct fuse *f)
{
	if (!f)
		return;
	fuse_pids_free(f->pids);
	json_release(&f->j);
	free(f->buf);
	free(f);
}

static int key_is(const struct json *j, unsigned k, const char *s)
{
	return json_tok_eq(j, k, s, strlen(s));
}

static int str_is(const struct json *j, unsigned v, const char *s)
{
	return v && j->tok[v].type == JSON_STRING && key_is(j, v, s);
}

static struct fields find_fields(const struct json *j)
{
	struct fields fl = { 0, 0, 0, 0, 0, 0, 0, 0 };

	for (unsigned k = 1; k < j->ntok; k = json_skip(j, k + 1)) {
		unsigned v = k + 1;
		const char *key = j->text + j->tok[k].start;
		switch (j->tok[k].end - j->tok[k].start) {
		case 2:
			if (!memcmp(key, "ph", 2)) fl.ph = v;
			else if (!memcmp(key, "ts", 2)) fl.ts = v;
			else if (!memcmp(key, "id", 2)) fl.id = v;
			break;
		case 3:
			if (!memcmp(key, "cat", 3)) fl.cat = v;
			else if (!memcmp(key, "pid", 3)) fl.pid = v;
			else if (!memcmp(key, "dur", 3)) fl.dur = v;
			break;
		case 4:
			if (!memcmp(key, "name", 4)) fl.name = v;
			else if (!memcmp(key, "args", 4)) fl.args = v;
			break;
		}
	}
	return fl;
}

/* Token v as a double, if it is a number. */
static int tok_double(const struct json *j, unsigned v, double *d)
{
	char tmp[64];
	size_t n;

	if (!v || !json_tok_is_number(j, v))
		return 0;
	n = (size_t)(j->tok[v].end - j->tok[v].start);
	if (n >= sizeof(tmp))
		return 0;
	tl_memcpy(tmp, j->text + j->tok[v].start, n);
	tmp[n] = 0;
	*d = strtod(tmp, NULL);
	return 1;
}

/* A JSON integer in [0, 10^10): the offset id rank*10^10 + v. */
static int offset_id(const struct json *j, unsigned v, unsigned rank, int64_t *out)
{
	const char *s = j->text + j->tok[v].start;
	size_t n = (size_t)(j->tok[v].end - j->tok[v].start);
	int64_t x = 0;

	if (j->tok[v].type != JSON_PRIMITIVE || !n || n > 10)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (s[i] - '0');
	}
	*out = (int64_t)rank * ID_STRIDE + x;
	return 1;
}

/* Is the event dropped (counted in c)?  TraceFusion's filter, then the window. */
static int dropped(struct fuse *f, const struct fields *fl, struct counts *c)
{
	const struct json *j = &f->j;
	double ts, dur;

	if (str_is(j, fl->ph, "M")) {
		if (str_is(j, fl->name, "process_name") ||
		    str_is(j, fl->name, "process_sort_index") ||
		    str_is(j, fl->name, "process_labels")) {
			c->meta++;
			return 1;
		}
		return 0;
	}
	if (!f->o.all_cats && (str_is(j, fl->cat, "Trace") ||
			       (!f->o.python && str_is(j, fl->cat, "python_function")))) {
		c->filtered++;
		return 1;
	}
	if (!f->o.window || !tok_double(j, fl->ts, &ts))
		return 0;
	if (tok_double(j, fl->dur, &dur) ? ts > f->o.end || ts + dur < f->o.start
					 : ts > f->o.end || ts < f->o.start) {
		c->outside++;
		return 1;
	}
	return 0;
}

static void put_member(struct outbuf *ob, const struct json *j, unsigned k, int *first)
{
	if (!*first)
		outbuf_putc(ob, ',');
	*first = 0;
	json_compact(j, k, ob, 0);
	outbuf_putc(ob, ':');
	json_compact(j, k + 1, ob, 0);
}

static void put_int(struct outbuf *ob, const char *key, int64_t v, int *first)
{
	outbuf_printf(ob, "%s\"%s\":%" PRId64, *first ? "" : ",", key, v);
	*first = 0;
}

static void put_raw(struct outbuf *ob, const struct json *j, const char *key,
		    unsigned v, int *first)
{
	outbuf_printf(ob, "%s\"%s\":", *first ? "" : ",", key);
	json_compact(j, v, ob, 0);
	*first = 0;
}

/* The keys tl-fuse writes into args itself: an event's own are replaced. */
static int own_arg(const struct json *j, unsigned k)
{
	return key_is(j, k, "rank") || key_is(j, k, "id_raw") ||
	       key_is(j, k, "pid_raw") || key_is(j, k, "correlation_raw") ||
	       key_is(j, k, "External id_raw");
}

/* args with offset ids, then rank and the *_raw values. */
static void write_args(struct fuse *f, unsigned rank, const struct fields *fl,
		       struct counts *c)
{
	const struct json *j = &f->j;
	unsigned corr = 0, ext = 0;
	int first = 1;
	int64_t v;

	outbuf_putc(f->ob, '{');
	if (fl->args) {
		unsigned end = json_skip(j, fl->args);
		for (unsigned k = fl->args + 1; k < end; k = json_skip(j, k + 1)) {
			int is_corr = key_is(j, k, "correlation");
			int is_ext = !is_corr && key_is(j, k, "External id");
			if (own_arg(j, k))
				continue;
			if ((is_corr || is_ext) && offset_id(j, k + 1, rank, &v)) {
				if (is_corr) corr = k + 1; else ext = k + 1;
				if (!first)
					outbuf_putc(f->ob, ',');
				first = 0;
				json_compact(j, k, f->ob, 0);
				outbuf_printf(f->ob, ":%" PRId64, v);
				continue;
			}
			if (is_corr || is_ext)
				c->ids_kept++;
			put_member(f->ob, j, k, &first);
		}
	}
	put_int(f->ob, "rank", rank, &first);
	if (fl->id)
		put_raw(f->ob, j, "id_raw", fl->id, &first);
	if (fl->pid)
		put_raw(f->ob, j, "pid_raw", fl->pid, &first);
	if (corr)
		put_raw(f->ob, j, "correlation_raw", corr, &first);
	if (ext)
		put_raw(f->ob, j, "External id_raw", ext, &first);
	outbuf_putc(f->ob, '}');
}

/* The event's new pid (entry noted as kept), or -1 with a message. */
static int map_pid(struct fuse *f, unsigned rank, const struct fields *fl,
		   const char *path, int64_t *pid)
{
	const struct json *j = &f->j;
	const struct json_tok *t = &j->tok[fl->pid];
	long e = fuse_pids_map(f->pids, rank, j->text + t->start,
			       (size_t)(t->end - t->start), t->type == JSON_STRING);

	if (e < 0) {
		tl_warn("%s: more than %" PRId64 " processes in one rank", path,
			fuse_pids_stride(f->pids));
		return -1;
	}
	if (!str_is(j, fl->ph, "M"))
		fuse_pids_note(f->pids, e, str_is(j, fl->cat, "kernel") ||
			       str_is(j, fl->cat, "gpu_memcpy") ||
			       str_is(j, fl->cat, "gpu_memset"));
	*pid = fuse_pids_pid(f->pids, e);
	return 0;
}

static int write_event(struct fuse *f, unsigned rank, const struct fields *fl,
		       const char *path, struct counts *c)
{
	const struct json *j = &f->j;
	int64_t pid = 0, v;
	int first = 1, args_done = 0;

	if (fl->pid && map_pid(f, rank, fl, path, &pid) < 0)
		return -1;
	if (f->in_array++)
		outbuf_put(f->ob, ",\n", 2);
	outbuf_putc(f->ob, '{');
	for (unsigned k = 1; k < j->ntok; k = json_skip(j, k + 1)) {
		if (k + 1 == fl->pid) {
			put_int(f->ob, "pid", pid, &first);
		} else if (k + 1 == fl->id && offset_id(j, k + 1, rank, &v)) {
			put_int(f->ob, "id", v, &first);
		} else if (k + 1 == fl->args && j->tok[k + 1].type == JSON_OBJECT) {
			if (!first)
				outbuf_putc(f->ob, ',');
			first = 0;
			outbuf_puts(f->ob, "\"args\":");
			write_args(f, rank, fl, c);
			args_done = 1;
		} else {
			if (k + 1 == fl->id)
				c->ids_kept++;
			put_member(f->ob, j, k, &first);
		}
	}
	/* no args: added, as TraceFusion does (args that is not an object
	 * was copied as it is) */
	if (!args_done && !fl->args) {
		outbuf_puts(f->ob, first ? "\"args\":" : ",\"args\":");
		write_args(f, rank, fl, c);
	}
	outbuf_putc(f->ob, '}');
	c->written++;
	return 0;
}

/*
 * One traceEvents element: -1 on a fatal error (reported).  The compact
 * copy is tokenised; if it is bad, the original says where.
 */
static int one_event(struct fuse *f, unsigned rank, const char *path,
		     const struct json_scan_item *it, struct counts *c)
{
	struct fields fl;
	uint64_t off = it->off;
	const char *msg = it->bad_msg;

	c->read++;
	if (msg) {
		off = it->bad_off;
	} else if (json_parse_compact(&f->j, it->ctext, it->clen, it->escapes) < 0) {
		msg = f->j.err_msg;
		if (json_parse_checked(&f->j, it->text, it->len) < 0) {
			off = it->off + f->j.err_off;
			msg = f->j.err_msg;
		}
	} else if (f->j.tok[0].type != JSON_OBJECT) {
		msg = "event is not an object";
	}
	if (msg) {
		tl_warn("%s: byte %" PRIu64 ": event %" PRIu64 ": %s", path, off,
			c->read - 1, msg);
		return -1;
	}
	fl = find_fields(&f->j);
	if (dropped(f, &fl, c))
		return 0;
	return write_event(f, rank, &fl, path, c);
}

/* Drop the consumed prefix, grow if needed, read: 1, 0 at the end, -1. */
static int refill(struct fuse *f, struct cat_input *in, const char *path)
{
	size_t used = json_scan_consumed(&f->s);
	ssize_t r;

	tl_memmove(f->buf, f->buf + used, f->len - used);
	f->len -= used;
	if (f->cap - f->len < READ_MIN) {
		f->cap = st_mult(f->cap, 2);
		f->buf = xrealloc(f->buf, f->cap);
	}
	r = cat_input_read(in, f->buf + f->len, READ_MIN);
	if (r < 0) {
		tl_warn("%s: byte %" PRIu64 ": %s", path, f->s.base + used + f->len,
			cat_input_error(in));
		return -1;
	}
	f->len += (size_t)r;
	json_scan_set_buf(&f->s, f->buf, f->len, r > 0);
	return r > 0;
}

/* One JSON document of the rank: 0, or -1 (reported). */
static int fuse_stream(struct fuse *f, struct cat_input *in, unsigned rank,
		       struct counts *c)
{
	const char *path = cat_input_name(in);
	struct json_scan_item it;
	int rc = -2;

	json_scan_init(&f->s);
	f->len = 0;
	json_scan_set_buf(&f->s, f->buf, 0, 1);
	while (rc == -2) {
		switch (json_scan_next(&f->s, &it)) {
		case JSON_SCAN_EVENT:
			if (one_event(f, rank, path, &it, c) < 0)
				rc = -1;
			break;
		case JSON_SCAN_TOP:	/* other top-level keys are not fused */
			break;
		case JSON_SCAN_DONE:
			rc = 0;
			break;
		case JSON_SCAN_ERROR:
			tl_warn("%s: byte %" PRIu64 ": %s", path, f->s.err_off, f->s.err_msg);
			rc = -1;
			break;
		default:
			if (refill(f, in, path) < 0)
				rc = -1;
		}
	}
	json_scan_release(&f->s);
	return rc;
}

static void add(struct counts *to, const struct counts *c)
{
	to->read += c->read;
	to->written += c->written;
	to->meta += c->meta;
	to->filtered += c->filtered;
	to->outside += c->outside;
	to->ids_kept += c->ids_kept;
}

int fuse_rank(struct fuse *f, unsigned rank, const char *path)
{
	struct cat_input *in = cat_input_open(path);
	struct counts c = { 0, 0, 0, 0, 0, 0 };
	int bad = 0, r;

	f->ranks++;
	if (!in)
		return 1;
	/* the output's deflating is slower than the input's inflating */
	cat_input_small_ring(in);
	while (!bad && (r = cat_input_next(in)) > 0)
		bad = fuse_stream(f, in, rank, &c) < 0;
	if (!bad && r < 0) {
		tl_warn("%s: %s", path, cat_input_error(in));
		bad = 1;
	}
	cat_input_close(in);
	if (f->o.verbose)
		tl_warn("%s: rank %u: %" PRIu64 " events read, %" PRIu64 " written, %"
			PRIu64 " process metadata replaced, %" PRIu64 " filtered by cat, %"
			PRIu64 " outside the window", path, rank, c.read, c.written,
			c.meta, c.filtered, c.outside);
	add(&f->all, &c);
	return bad;
}

void fuse_finish(struct fuse *f)
{
	const struct counts *c = &f->all;
	uint64_t names = fuse_pids_write_names(f->pids, f->ob, f->in_array);

	outbuf_puts(f->ob, "\n]}\n");
	tl_warn("%u ranks: %" PRIu64 " events read, %" PRIu64 " written, %" PRIu64
		" process metadata replaced by %" PRIu64 ", %" PRIu64
		" dropped by cat (Trace, python_function), %" PRIu64
		" outside the window", f->ranks, c->read, c->written, c->meta, names,
		c->filtered, c->outside);
	if (c->ids_kept)
		tl_warn("%" PRIu64 " ids (id, correlation, External id) are not integers below 10^10"
			" and were left as they are: they may match ids of other ranks", c->ids_kept);
}
