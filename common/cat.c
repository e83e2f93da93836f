#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cat.h"
#include "err.h"
#include "cat_event.h"
#include "cat_input.h"
#include "cat_number.h"
#include "cat_rocprof.h"
#include "cat_xplane.h"
#include "json_pull.h"
#include "json_scan.h"
#include "json.h"
#include "outbuf.h"
#include "xalloc.h"
#include "banned.h"

#define WINDOW_START (1u << 20)
#define READ_MIN (256u << 10)	/* read this much at a time, so it is in cache */

struct cat {
	struct cat_opts o;
	struct outbuf *ob;
	struct cat_event_out *w;
	struct json j;
	struct json_scan s;
	char *buf;		/* window: bytes not yet consumed */
	size_t len, cap;
	int view;		/* the trace is read in place (cat_input_view), not into buf */
	unsigned nsrc;
};

/* Counts of one trace, for #end and -v. */
struct counts {
	uint64_t elements, written, skipped;
	int in_place;		/* read by cat_input_view */
	struct cat_number num;	/* impossible ts and dur, told at the end */
};

struct cat *cat_new(struct outbuf *ob, const struct cat_opts *o)
{
	struct cat *c = xcalloc(1, sizeof(*c));

	c->o = *o;
	c->ob = ob;
	c->w = cat_event_out_new(ob, o->ndjson);
	if (o->lean)
		cat_event_lean(c->w);
	json_init(&c->j);
	c->cap = WINDOW_START;
	c->buf = xmalloc(c->cap);
	if (!o->format)
		cat_event_header(c->w);
	return c;
}

void cat_free(struct cat *c)
{
	if (!c)
		return;
	cat_event_out_free(c->w);
	json_release(&c->j);
	free(c->buf);
	free(c);
}

/*
 * Tokenise the element's compact copy; if it is bad, parse the original
 * to say where.  0 or -1 with *off and *msg set.
 */
static int parse(struct cat *c, const struct json_scan_item *it, uint64_t *off,
		 const char **msg)
{
	if (json_parse_compact(&c->j, it->ctext, it->clen, it->escapes) == 0)
		return 0;
	*off = it->off;
	*msg = c->j.err_msg;
	if (json_parse_checked(&c->j, it->text, it->len) < 0) {
		*off = it->off + c->j.err_off;
		*msg = c->j.err_msg;
	}
	return -1;
}

/*
 * One element of traceEvents.  0: written or skipped, -1: a fatal error
 * (reported).
 */
static int one_event(struct cat *c, const char *name, unsigned src,
		     const struct json_scan_item *it, struct counts *n)
{
	uint64_t uid = n->elements++;
	uint64_t off = it->off;
	const char *msg = NULL;

	/* most events: the row straight from the text (TL_JSON=jsmn: never) */
	if (!it->bad_msg && !it->escapes && c->j.fast &&
	    cat_event_row_text(c->w, src, uid, it->ctext, it->clen, &n->num) == 0) {
		n->written++;
		return 0;
	}
	if (it->bad_msg) {
		msg = it->bad_msg;
		off = it->bad_off;
	} else if (parse(c, it, &off, &msg) < 0) {
		;
	} else if (c->j.tok[0].type != JSON_OBJECT) {
		msg = "event is not an object";
	}
	if (!msg) {
		cat_event_row(c->w, src, uid, &c->j, &n->num);
		n->written++;
		return 0;
	}
	tl_warn("%s: byte %" PRIu64 ": event %" PRIu64 ": %s", name, off, uid, msg);
	if (!c->o.keep_going)
		return -1;
	n->skipped++;
	return 0;
}

static int one_top(struct cat *c, const char *name, unsigned src,
		   const struct json_scan_item *it)
{
	uint64_t off = it->bad_off;
	const char *msg = it->bad_msg;

	if (!msg)
		parse(c, it, &off, &msg);
	if (msg) {
		tl_warn("%s: byte %" PRIu64 ": in \"%s\": %s", name, off, it->key, msg);
		return -1;
	}
	cat_event_top(c->w, src, it->key, it->keylen, &c->j);
	return 0;
}

static int refill(struct cat *c, struct cat_input *in, const char *name);

/*
 * An element longer than the inflating ring holds (CAT_INPUT_VIEW_FULL):
 * its bytes so far into the window, the rest of the stream read into it.
 */
static int view_to_window(struct cat *c, struct cat_input *in, const char *name)
{
	size_t used = json_scan_consumed(&c->s);
	size_t have = c->s.len - used;

	if (c->cap < st_add(have, READ_MIN)) {
		free(c->buf);
		c->cap = st_add(have, READ_MIN);
		c->buf = xmalloc(c->cap);
	}
	tl_memcpy(c->buf, c->s.buf + used, have);
	c->len = have;
	cat_input_unview(in, c->s.base + used + have);
	json_scan_set_buf(&c->s, c->buf, c->len, 1);
	c->view = 0;
	return refill(c, in, name);
}

/*
 * The bytes not yet consumed and more, in place: as refill, without
 * copying the file (or the inflated bytes) into the window.
 */
static int refill_view(struct cat *c, struct cat_input *in, const char *name)
{
	size_t used = json_scan_consumed(&c->s);
	uint64_t from = c->s.base + used;
	size_t have = c->s.len - used;
	const char *p;
	ssize_t r = cat_input_view(in, from, st_add(have, READ_MIN), &p);

	if (r == CAT_INPUT_VIEW_FULL)
		return view_to_window(c, in, name);
	if (r < 0) {
		tl_warn("%s: byte %" PRIu64 ": %s", name, from + have, cat_input_error(in));
		return -1;
	}
	json_scan_set_buf(&c->s, p, (size_t)r, (size_t)r > have);
	return (size_t)r > have;
}

/*
 * Make room and read more: drop the consumed prefix, grow the window if an
 * element fills it.  1: read, 0: end of input, -1: error (reported).
 */
static int refill(struct cat *c, struct cat_input *in, const char *name)
{
	size_t used = json_scan_consumed(&c->s);
	ssize_t r;

	if (c->view)
		return refill_view(c, in, name);
	tl_memmove(c->buf, c->buf + used, c->len - used);
	c->len -= used;
	if (c->cap - c->len < READ_MIN) {
		c->cap = st_mult(c->cap, 2);
		c->buf = xrealloc(c->buf, c->cap);
	}
	r = cat_input_read(in, c->buf + c->len, READ_MIN);
	if (r < 0) {
		tl_warn("%s: byte %" PRIu64 ": %s", name,
			c->s.base + used + c->len, cat_input_error(in));
		return -1;
	}
	c->len += (size_t)r;
	json_scan_set_buf(&c->s, c->buf, c->len, r > 0);
	return r > 0;
}

static int scan(struct cat *c, struct cat_input *in, const char *name,
		unsigned src, struct counts *n)
{
	struct json_scan_item it;

	for (;;) {
		int r = json_scan_next(&c->s, &it);
		switch (r) {
		case JSON_SCAN_EVENT:
			if (one_event(c, name, src, &it, n) < 0)
				return -1;
			break;
		case JSON_SCAN_TOP:
			if (one_top(c, name, src, &it) < 0)
				return -1;
			break;
		case JSON_SCAN_DONE:
			return 0;
		case JSON_SCAN_ERROR:
			tl_warn("%s: byte %" PRIu64 ": %s", name, c->s.err_off,
				c->s.err_msg);
			return -1;
		default:
			if (refill(c, in, name) < 0)
				return -1;
		}
	}
}

/* The formats a trace may be in, told by its first bytes. */
enum format { FMT_EVENTS, FMT_ROCPROF, FMT_XPLANE, FMT_PFTRACE, FMT_PERFETTO };

static const char *const format_name[] = {
	"kineto", "rocprofv3", "xplane", "pftrace", "perfetto",
};

/*
 * Read the first bytes into the window (4 KiB, unless the input is
 * shorter) and tell the format by them.  -1: read error (reported).
 */
static int sniff(struct cat *c, struct cat_input *in, const char *name,
		 enum format *fmt)
{
	const unsigned char *b = (const unsigned char *)c->buf;
	size_t i = 0;

	c->len = 0;
	while (c->len < 4096) {
		ssize_t got = cat_input_read(in, c->buf + c->len, READ_MIN);
		if (got < 0) {
			tl_warn("%s: byte %zu: %s", name, c->len, cat_input_error(in));
			return -1;
		}
		if (got == 0)
			break;
		c->len += (size_t)got;
	}
	*fmt = FMT_EVENTS;
	if (cat_rocprof_sniff(c->buf, c->len) == 1) {
		*fmt = FMT_ROCPROF;
		return 0;
	}
	if (c->len >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < c->len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
		i++;
	if (i < c->len && b[i] != '{' && b[i] != '[') {
		if (cat_xplane_sniff(b, c->len))
			*fmt = FMT_XPLANE;
		else if (b[0] == 0x0a)
			*fmt = FMT_PFTRACE;	/* a protobuf, packets in field 1 */
	}
	return 0;
}

static ssize_t pull_read(void *ctx, char *buf, size_t n, const char **msg)
{
	ssize_t r = cat_input_read(ctx, buf, n);

	if (r < 0)
		*msg = cat_input_error(ctx);
	return r;
}

static int rocprof_stream(struct cat *c, struct cat_input *in, const char *name,
			  unsigned src, struct counts *n)
{
	struct json_pull p;
	int rc;

	json_pull_init(&p, c->buf, c->len, pull_read, in);
	rc = cat_rocprof(c->w, &p, name, src, c->o.keep_going, &n->elements, &n->skipped);
	n->written = n->elements - n->skipped;
	json_pull_release(&p);
	return rc;
}

/*
 * Does this event look like rocprofv3's Perfetto output after traceconv
 * json: a rocprofv3 category, or its begin_ns/agent debug annotations?
 */
static int perfetto_event(const struct json *j)
{
	static const char *const cats[] = {
		"hip_api", "hsa_api", "kernel_dispatch", "memory_copy", "marker_api",
		"rccl_api", "gpu_activity", NULL,
	};
	unsigned i = 1;

	for (int m = 0; m < j->tok[0].size; m++, i = json_skip(j, i + 1)) {
		unsigned v = i + 1;
		if (json_tok_eq(j, i, "cat", 3) && j->tok[v].type == JSON_STRING) {
			for (int k = 0; cats[k]; k++)
				if (json_tok_eq(j, v, cats[k], strlen(cats[k])))
					return 1;
		} else if (json_tok_eq(j, i, "args", 4) && j->tok[v].type == JSON_OBJECT) {
			unsigned a = v + 1;
			for (int n = 0; n < j->tok[v].size; n++, a = json_skip(j, a + 1))
				if (json_tok_eq(j, a, "begin_ns", 8) || json_tok_eq(j, a, "agent", 5))
					return 1;
		}
	}
	return 0;
}

/* The first 1000 events of a JSON trace: Perfetto-style or Kineto.  -1 bad. */
static int probe_events(struct cat *c, struct cat_input *in, const char *name,
			enum format *fmt)
{
	struct json_scan_item it;
	int seen = 0, r;

	json_scan_init(&c->s);
	json_scan_set_buf(&c->s, c->buf, c->len, 1);
	for (r = 0; r >= 0 && seen < 1000;) {
		switch (json_scan_next(&c->s, &it)) {
		case JSON_SCAN_EVENT:
			seen++;
			if (json_parse_compact(&c->j, it.ctext, it.clen, it.escapes) == 0 &&
			    c->j.tok[0].type == JSON_OBJECT && perfetto_event(&c->j)) {
				*fmt = FMT_PERFETTO;
				seen = 1000;
			}
			break;
		case JSON_SCAN_TOP:
			break;
		case JSON_SCAN_DONE:
			seen = 1000;
			break;
		case JSON_SCAN_ERROR:
			tl_warn("%s: byte %" PRIu64 ": %s", name, c->s.err_off, c->s.err_msg);
			r = -1;
			break;
		default:
			r = refill(c, in, name);
			if (r == 0)
				seen = 1000;
		}
	}
	json_scan_release(&c->s);
	return r < 0 ? -1 : 0;
}

/* --format: "NAME<TAB>FORMAT" */
static int print_format(struct cat *c, struct cat_input *in, const char *name,
			enum format fmt)
{
	if (fmt == FMT_EVENTS && probe_events(c, in, name, &fmt) < 0)
		return 1;
	outbuf_tsv(c->ob, name, strlen(name));
	outbuf_putc(c->ob, '\t');
	outbuf_puts(c->ob, format_name[fmt]);
	outbuf_putc(c->ob, '\n');
	return 0;
}

/*
 * A protobuf that is not an XSpace: most likely a binary Perfetto trace,
 * which tl reads after Perfetto's traceconv has made JSON of it.
 */
static int pftrace_message(const char *name)
{
	static const char *const sufs[] = { ".pftrace", ".perfetto-trace", NULL };
	const char *in = strcmp(name, "-") ? name : "TRACE.pftrace";
	size_t n = strlen(in);
	int perfetto = 0;

	/* the JSON's name: the trace's without its suffix, plus .json */
	for (int i = 0; sufs[i]; i++) {
		size_t k = strlen(sufs[i]);
		if (n > k && !strcmp(in + n - k, sufs[i])) {
			n -= k;
			perfetto = 1;
			break;
		}
	}
	if (perfetto)
		tl_warn("%s: a binary Perfetto trace (protobuf), not JSON: convert it with "
			"Perfetto's traceconv first: traceconv json %s %.*s.json",
			name, in, (int)n, in);
	else
		tl_warn("%s: byte 0: a protobuf but not an XSpace (no plane named \"/...\" "
			"first); a binary Perfetto trace? convert it with Perfetto's traceconv "
			"first: traceconv json %s %.*s.json", name, in, (int)n, in);
	return 1;
}

static int events_stream(struct cat *c, struct cat_input *in, const char *name,
			 unsigned src, struct counts *n)
{
	int rc;

	json_scan_init(&c->s);
	/* a plain file is scanned where it lies: sniff's bytes are its first */
	c->view = cat_input_viewable(in);
	n->in_place = c->view == CAT_INPUT_FILE;
	if (c->view)
		json_scan_set_buf(&c->s, "", 0, 1);	/* nothing yet: refill_view maps */
	else
		json_scan_set_buf(&c->s, c->buf, c->len, 1);
	rc = scan(c, in, name, src, n);
	c->view = 0;
	json_scan_release(&c->s);
	return rc;
}

/*
 * An XSpace: read whole (protobuf-c unpacks one message), then converted.
 * -1 fatal, 1 written with an embedded HLO module unreadable, 0 ok.
 */
static int xplane_stream(struct cat *c, struct cat_input *in, const char *name,
			 unsigned src, struct counts *n)
{
	ssize_t r;
	int rc;

	for (;;) {
		if (c->cap - c->len < READ_MIN) {
			c->cap = st_mult(c->cap, 2);
			c->buf = xrealloc(c->buf, c->cap);
		}
		r = cat_input_read(in, c->buf + c->len, READ_MIN);
		if (r < 0) {
			tl_warn("%s: byte %zu: %s", name, c->len, cat_input_error(in));
			return -1;
		}
		if (r == 0)
			break;
		c->len += (size_t)r;
	}
	rc = cat_xplane(c->w, (const uint8_t *)c->buf, c->len, name, src, &n->elements);
	n->written = n->elements;
	/* the window goes back to its usual size for the next trace */
	if (c->cap > WINDOW_START) {
		free(c->buf);
		c->cap = WINDOW_START;
		c->buf = xmalloc(c->cap);
	}
	return rc;
}

/* One trace: 0 ok, 1 bad. */
static int cat_stream(struct cat *c, struct cat_input *in)
{
	const char *name = cat_input_name(in);
	unsigned src = c->nsrc++;
	struct counts n = { 0 };
	enum format fmt;
	int rc;

	if (!c->o.format)
		cat_event_source(c->w, src, name);
	if (sniff(c, in, name, &fmt) < 0)
		return 1;
	if (c->o.format)
		return print_format(c, in, name, fmt);
	switch (fmt) {
	case FMT_ROCPROF:
		rc = rocprof_stream(c, in, name, src, &n);
		break;
	case FMT_XPLANE:
		rc = xplane_stream(c, in, name, src, &n);
		break;
	case FMT_PFTRACE:
		return pftrace_message(name);
	default:
		rc = events_stream(c, in, name, src, &n);
	}
	if (rc >= 0)
		cat_event_end(c->w, src, n.elements, n.skipped);
	cat_number_report(&n.num, name);
	if (c->o.verbose)
		tl_warn("%s: %" PRIu64 " %s read, %" PRIu64 " written, %" PRIu64 " skipped%s%s%s",
			name, n.elements, fmt == FMT_EVENTS ? "events" : "records",
			n.written, n.skipped,
			cat_input_inflater(in) ? "; gzip inflated with " : "",
			cat_input_inflater(in) ? cat_input_inflater(in) : "",
			n.in_place ? "; read in place" : "");
	return rc != 0 || n.skipped;
}

int cat_file(struct cat *c, const char *path)
{
	struct cat_input *in = cat_input_open(path);
	int bad = 0, r;

	if (!in)
		return 1;
	if (c->o.format)	/* a few kB of each trace: nothing to read ahead */
		cat_input_sync(in);
	while ((r = cat_input_next(in)) > 0)
		bad |= cat_stream(c, in);
	if (r < 0) {
		tl_warn("%s: %s", path, cat_input_error(in));
		bad = 1;
	}
	cat_input_close(in);
	return bad;
}
