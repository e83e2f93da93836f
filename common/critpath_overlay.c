#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cat_event.h"
#include "critpath_graph.h"
#include "critpath_overlay.h"
#include "err.h"
#include "hmap.h"
#include "idle_trace.h"
#include "outbuf.h"
#include "stream.h"
#include "xalloc.h"
#include "banned.h"

#define NONE UINT32_MAX

static uint64_t ikey(int64_t v)
{
	return (uint64_t)v ^ 0x8000000000000000ULL;
}

/* What a flow needs of an event, read on the second pass. */
struct fev {
	char *pid, *tid;
	double ts, dur;
	long long device;	/* -1 when absent */
	int seen;
};

/* The tl-stream(5) columns an event is rebuilt from. */
enum { C_UID, C_SRC, C_PH, C_CAT, C_NAME, C_PID, C_TID, C_TS, C_DUR, C_ID, C_CORR, C_EXT, C_SEQ,
       C_STREAM, C_DEVICE, C_DIMS, C_TYPES, C_STRIDES, C_CONCRETE, C_ARGS, C_EXTRA, C_N };

static const char *const colname[C_N] = {
	"uid", "src", "ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "corr", "ext", "seq",
	"stream", "device", "dims", "types", "strides", "concrete", "args", "extra",
};

/* args keys of the columns corr ... concrete */
static const char *const argkey[C_N] = {
	[C_CORR] = "correlation", [C_EXT] = "External id", [C_SEQ] = "Sequence number",
	[C_STREAM] = "stream", [C_DEVICE] = "device", [C_DIMS] = "Input Dims",
	[C_TYPES] = "Input type", [C_STRIDES] = "Input Strides", [C_CONCRETE] = "Concrete Inputs",
};

static void member(struct outbuf *ob, int *first, const char *key)
{
	if (!*first)
		outbuf_putc(ob, ',');
	*first = 0;
	cat_event_put_json_string(ob, key, strlen(key));
	outbuf_putc(ob, ':');
}

/* The members of a compact JSON object, without its braces. */
static void inner(struct outbuf *ob, int *first, const char *obj)
{
	size_t n = strlen(obj);
	if (n < 2 || obj[0] != '{' || n == 2)
		return;
	if (!*first)
		outbuf_putc(ob, ',');
	*first = 0;
	outbuf_put(ob, obj + 1, n - 2);
}

static void event_json(struct outbuf *ob, struct stream *s, const int *c, int critical)
{
	int first = 1, afirst = 1, has_args = 0;
	const char *f;

	outbuf_putc(ob, '{');
	for (int k = C_PH; k <= C_NAME; k++)
		if (*(f = stream_field(s, c[k]))) {
			member(ob, &first, colname[k]);
			cat_event_put_json_string(ob, f, stream_field_len(s, c[k]));
		}
	for (int k = C_PID; k <= C_ID; k++)
		if (*(f = stream_field(s, c[k]))) {
			member(ob, &first, colname[k]);
			outbuf_puts(ob, f);
		}
	for (int k = C_CORR; k <= C_ARGS; k++)
		has_args |= *stream_field(s, c[k]) != 0;
	if (has_args || critical) {
		member(ob, &first, "args");
		outbuf_putc(ob, '{');
		for (int k = C_CORR; k <= C_CONCRETE; k++)
			if (*(f = stream_field(s, c[k]))) {
				member(ob, &afirst, argkey[k]);
				outbuf_puts(ob, f);
			}
		inner(ob, &afirst, stream_field(s, c[C_ARGS]));
		if (critical) {
			member(ob, &afirst, "critical");
			outbuf_putc(ob, '1');
		}
		outbuf_putc(ob, '}');
	}
	inner(ob, &first, stream_field(s, c[C_EXTRA]));
	outbuf_putc(ob, '}');
}

/* A #top directive's key and value, TSV-unescaped. */
static size_t unescape(const char *s, size_t n, char *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			out[k++] = s[i];
			continue;
		}
		switch (s[++i]) {
		case 't': out[k++] = '\t'; break;
		case 'n': out[k++] = '\n'; break;
		case 'r': out[k++] = '\r'; break;
		case '0': out[k++] = 0; break;
		default: out[k++] = s[i]; break;
		}
	}
	return k;
}

static void top_member(struct outbuf *ob, const char *line, int *first)
{
	/* "top\tSRC\tKEY\tJSON" */
	const char *k = strchr(line, '\t'), *v;
	char *key, *val;
	size_t kn, vn;

	if (!k || !(k = strchr(k + 1, '\t')) || !(v = strchr(k + 1, '\t')))
		return;
	k++;
	key = xmalloc((size_t)(v - k) + 1);
	kn = unescape(k, (size_t)(v - k), key);
	v++;
	val = xmalloc(strlen(v) + 1);
	vn = unescape(v, strlen(v), val);
	if (!*first)
		outbuf_puts(ob, ",\n");
	*first = 0;
	cat_event_put_json_string(ob, key, kn);
	outbuf_putc(ob, ':');
	outbuf_put(ob, val, vn);
	free(key);
	free(val);
}

static void flow(struct outbuf *ob, int id, const struct fev *ev, int at_start,
		 const struct critpath_edge *e, int is_start)
{
	double end = ev->ts + ev->dur;

	if (ev->device >= 0)
		end -= ev->dur < 1 ? ev->dur : 1;	/* min(1, dur): arrows land inside */
	outbuf_printf(ob, "{\"ph\":\"%s\",\"id\":%d,\"pid\":%s,\"tid\":%s,\"ts\":%lld,"
		      "\"cat\":\"critical_path\",\"name\":\"critical_path\",\"args\":{\"weight\":%lld,"
		      "\"critical\":true,\"type\":\"%s\"}%s}",
		      is_start ? "s" : "f", id, *ev->pid ? ev->pid : "null",
		      *ev->tid ? ev->tid : "null",
		      (long long)(at_start ? ev->ts : end), (long long)e->weight,
		      critpath_etype_name(e->type), is_start ? "" : ",\"bp\":\"e\"");
}

static char *out_name(const char *dir, const char *source)
{
	const char *base = strrchr(source, '/'), *colon;
	size_t n;
	char *p;

	base = base ? base + 1 : source;
	colon = strrchr(base, ':');	/* ARCHIVE:MEMBER */
	if (colon)
		base = colon + 1;
	if (!strcmp(source, "-") || !*base)
		base = "trace.json";
	n = strlen(dir) + strlen(base) + 32;
	p = xmalloc(n);
	snprintf(p, n, "%s/overlaid_critical_path_%s", dir, base);
	return p;
}

static int gzip_copy(FILE *from, const char *path)
{
	gzFile gz = gzopen(path, "wb");
	char buf[65536];
	size_t n;

	if (!gz) {
		tl_warn_errno("%s: cannot write", path);
		return -1;
	}
	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (gzwrite(gz, buf, (unsigned)n) != (int)n) {
			tl_warn("%s: write error", path);
			gzclose(gz);
			return -1;
		}
	if (gzclose(gz) != Z_OK) {
		tl_warn("%s: write error", path);
		return -1;
	}
	return 0;
}

static int is_critical(const struct hmap *crit, int64_t uid)
{
	uint32_t v;
	return hmap_get(crit, ikey(uid), &v);
}

/* The overlay being written. */
struct ov {
	const struct critpath *g;
	struct stream *s;
	struct outbuf *ob;
	int c[C_N];
	struct hmap crit;	/* the path's events */
	struct hmap want;	/* event → slot in fe */
	struct fev *fe;
	size_t nfe;
	char **tail;		/* #top keys after traceEvents */
	size_t ntail, tail_alloc;
	int rows_seen, first_top, first_ev;
};

static void ov_index(struct ov *o)
{
	const struct critpath *g = o->g;
	uint32_t v;

	o->fe = xcalloc(g->npath + 1, sizeof(*o->fe));
	for (size_t i = 0; i < g->npath; i++) {
		int64_t ev = g->node[g->path[i]].ev;
		hmap_put(&o->crit, ikey(ev), 1);
		if (!hmap_get(&o->want, ikey(ev), &v))
			hmap_put(&o->want, ikey(ev), (uint32_t)o->nfe++);
	}
}

static void ov_open_events(struct ov *o)
{
	if (o->rows_seen)
		return;
	outbuf_puts(o->ob, o->first_top ? "\"traceEvents\":[" : ",\n\"traceEvents\":[");
	o->first_top = 0;
	o->rows_seen = 1;
}

/* What a flow needs of one of the path's events. */
static void ov_remember(struct ov *o, uint32_t slot)
{
	struct fev *f = &o->fe[slot];
	const char *device = stream_field(o->s, o->c[C_DEVICE]);

	free(f->pid);
	free(f->tid);
	f->pid = xstrdup(stream_field(o->s, o->c[C_PID]));
	f->tid = xstrdup(stream_field(o->s, o->c[C_TID]));
	f->ts = strtod(stream_field(o->s, o->c[C_TS]), NULL);
	f->dur = strtod(stream_field(o->s, o->c[C_DUR]), NULL);
	f->device = *device ? strtoll(device, NULL, 10) : -1;
	f->seen = 1;
}

/* only_show_critical_events: complete events only if on the path, or
 * user annotations and Python functions */
static int ov_keep(const struct ov *o, int critical)
{
	const char *cat = stream_field(o->s, o->c[C_CAT]);
	return critical || strcmp(stream_field(o->s, o->c[C_PH]), "X") ||
	       !strcmp(cat, "user_annotation") || !strcmp(cat, "python_function");
}

/* The pass over the stream: top-level keys, then the events kept. */
static int ov_events(struct ov *o)
{
	unsigned src = o->g->t->src;
	uint32_t v;
	int k;

	while ((k = stream_next(o->s)) > 0) {
		if (k == STREAM_DIRECTIVE) {
			const char *line = stream_line(o->s);
			if (strncmp(line, "top\t", 4) || strtoul(line + 4, NULL, 10) != src)
				continue;
			if (o->rows_seen) {	/* a key after traceEvents: written after it */
				xgrow((void **)&o->tail, &o->tail_alloc, o->ntail + 1, sizeof(*o->tail));
				o->tail[o->ntail++] = xstrdup(line);
			} else {
				top_member(o->ob, line, &o->first_top);
			}
			continue;
		}
		if (strtoul(stream_field(o->s, o->c[C_SRC]), NULL, 10) != src)
			continue;
		int64_t uid = strtoll(stream_field(o->s, o->c[C_UID]), NULL, 10);
		int critical = is_critical(&o->crit, uid);
		ov_open_events(o);
		if (hmap_get(&o->want, ikey(uid), &v))
			ov_remember(o, v);
		if (!ov_keep(o, critical))
			continue;
		outbuf_puts(o->ob, o->first_ev ? "\n" : ",\n");
		o->first_ev = 0;
		event_json(o->ob, o->s, o->c, critical);
	}
	return k < 0 ? -1 : 0;
}

/* the flows of the path's dependency, launch and sync edges */
static void ov_flows(struct ov *o)
{
	const struct critpath *g = o->g;
	int flow_id = 0;

	for (size_t i = 0; i + 1 < g->npath; i++) {
		uint32_t a = g->path[i], b = g->path[i + 1], id, va, vb;
		const struct critpath_edge *e;
		hmap_get(&g->edge_of, ((uint64_t)a << 32 | b) + 1, &id);
		e = &g->edge[id];
		if (e->type != CP_DEPENDENCY && e->type != CP_KERNEL_LAUNCH_DELAY &&
		    e->type != CP_SYNC_DEPENDENCY)
			continue;
		hmap_get(&o->want, ikey(g->node[a].ev), &va);
		hmap_get(&o->want, ikey(g->node[b].ev), &vb);
		if (!o->fe[va].seen || !o->fe[vb].seen)
			continue;
		outbuf_puts(o->ob, o->first_ev ? "\n" : ",\n");
		o->first_ev = 0;
		flow(o->ob, flow_id, &o->fe[va], g->node[a].is_start, e, 1);
		outbuf_puts(o->ob, ",\n");
		flow(o->ob, flow_id, &o->fe[vb], g->node[b].is_start, e, 0);
		flow_id++;
	}
}

static void ov_release(struct ov *o)
{
	for (size_t i = 0; i < o->nfe; i++) {
		free(o->fe[i].pid);
		free(o->fe[i].tid);
	}
	for (size_t i = 0; i < o->ntail; i++)
		free(o->tail[i]);
	free(o->tail);
	free(o->fe);
	hmap_release(&o->crit);
	hmap_release(&o->want);
}

int critpath_overlay(const struct critpath *g, const char *nodes_path, const char *dir)
{
	struct ov o;
	char *path = out_name(dir, g->t->source);
	size_t len = strlen(path);
	int gz = len > 3 && !strcmp(path + len - 3, ".gz"), rval;
	FILE *tmp = NULL;

	memset(&o, 0, sizeof(o));
	o.g = g;
	o.first_top = o.first_ev = 1;
	if (!(o.s = stream_open(nodes_path, "events,nodes"))) {
		free(path);
		return -1;
	}
	for (int i = 0; i < C_N; i++)
		o.c[i] = stream_col(o.s, colname[i]);
	if (gz && !(tmp = tmpfile())) {
		tl_warn_errno("cannot make a temporary file");
		stream_close(o.s);
		free(path);
		return -1;
	}
	ov_index(&o);
	o.ob = gz ? outbuf_open_fd(fileno(tmp)) : outbuf_open_path(path);
	outbuf_puts(o.ob, "{\n");
	rval = ov_events(&o);
	ov_open_events(&o);
	ov_flows(&o);
	outbuf_puts(o.ob, "\n]");
	for (size_t i = 0; i < o.ntail; i++)
		top_member(o.ob, o.tail[i], &o.first_top);
	outbuf_puts(o.ob, "\n}\n");
	outbuf_close(o.ob);
	if (gz && rval == 0)
		rval = gzip_copy(tmp, path);
	if (tmp)
		fclose(tmp);
	stream_close(o.s);
	ov_release(&o);
	free(path);
	return rval;
}
