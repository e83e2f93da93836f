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

int critpath_overlay(const struct critpath *g, const char *nodes_path, const char *dir)
{
	struct stream *s = stream_open(nodes_path, "events,nodes");
	struct hmap crit = HMAP_INIT, want = HMAP_INIT;
	struct fev *fe;
	char *path = out_name(dir, g->t->source);
	size_t len = strlen(path), nflow = 0;
	int gz = len > 3 && !strcmp(path + len - 3, ".gz");
	FILE *tmp = NULL;
	struct outbuf *ob;
	int c[C_N], k, rows_seen = 0, first_top = 1, first_ev = 1, flow_id = 0, rval = 0;
	char **tail = NULL;
	size_t ntail = 0, tail_alloc = 0;
	uint32_t v;

	if (!s) {
		free(path);
		return -1;
	}
	for (int i = 0; i < C_N; i++)
		c[i] = stream_col(s, colname[i]);
	/* the path's events; the ends of its edges that get a flow */
	fe = xcalloc(2 * g->npath + 1, sizeof(*fe));
	for (size_t i = 0; i < g->npath; i++)
		hmap_put(&crit, ikey(g->node[g->path[i]].ev), 1);
	for (size_t i = 0; i < g->npath; i++)
		if (!hmap_get(&want, ikey(g->node[g->path[i]].ev), &v))
			hmap_put(&want, ikey(g->node[g->path[i]].ev), (uint32_t)nflow++);
	if (gz) {
		tmp = tmpfile();
		if (!tmp) {
			tl_warn_errno("cannot make a temporary file");
			stream_close(s);
			free(path);
			free(fe);
			return -1;
		}
		ob = outbuf_open_fd(fileno(tmp));
	} else {
		ob = outbuf_open_path(path);
	}
	outbuf_puts(ob, "{\n");
	while ((k = stream_next(s)) > 0) {
		if (k == STREAM_DIRECTIVE) {
			const char *line = stream_line(s);
			if (strncmp(line, "top\t", 4) || strtoul(line + 4, NULL, 10) != g->t->src)
				continue;
			if (rows_seen) {	/* a key after traceEvents: written after it */
				xgrow((void **)&tail, &tail_alloc, ntail + 1, sizeof(*tail));
				tail[ntail++] = xstrdup(line);
			} else {
				top_member(ob, line, &first_top);
			}
			continue;
		}
		if (strtoul(stream_field(s, c[C_SRC]), NULL, 10) != g->t->src)
			continue;
		int64_t uid = strtoll(stream_field(s, c[C_UID]), NULL, 10);
		int critical = is_critical(&crit, uid);
		if (!rows_seen) {
			outbuf_puts(ob, first_top ? "\"traceEvents\":[" : ",\n\"traceEvents\":[");
			first_top = 0;
			rows_seen = 1;
		}
		if (hmap_get(&want, ikey(uid), &v)) {
			fe[v].pid = xstrdup(stream_field(s, c[C_PID]));
			fe[v].tid = xstrdup(stream_field(s, c[C_TID]));
			fe[v].ts = strtod(stream_field(s, c[C_TS]), NULL);
			fe[v].dur = strtod(stream_field(s, c[C_DUR]), NULL);
			fe[v].device = *stream_field(s, c[C_DEVICE]) ?
				       strtoll(stream_field(s, c[C_DEVICE]), NULL, 10) : -1;
			fe[v].seen = 1;
		}
		if (!strcmp(stream_field(s, c[C_PH]), "X") && !critical &&
		    strcmp(stream_field(s, c[C_CAT]), "user_annotation") &&
		    strcmp(stream_field(s, c[C_CAT]), "python_function"))
			continue;
		outbuf_puts(ob, first_ev ? "\n" : ",\n");
		first_ev = 0;
		event_json(ob, s, c, critical);
	}
	if (k < 0)
		rval = -1;
	if (!rows_seen) {
		outbuf_puts(ob, first_top ? "\"traceEvents\":[" : ",\n\"traceEvents\":[");
		first_top = 0;
	}
	/* the flows of the path's dependency, launch and sync edges */
	for (size_t i = 0; i + 1 < g->npath; i++) {
		uint32_t a = g->path[i], b = g->path[i + 1], id, va, vb;
		const struct critpath_edge *e;
		hmap_get(&g->edge_of, ((uint64_t)a << 32 | b) + 1, &id);
		e = &g->edge[id];
		if (e->type != CP_DEPENDENCY && e->type != CP_KERNEL_LAUNCH_DELAY &&
		    e->type != CP_SYNC_DEPENDENCY)
			continue;
		hmap_get(&want, ikey(g->node[a].ev), &va);
		hmap_get(&want, ikey(g->node[b].ev), &vb);
		if (!fe[va].seen || !fe[vb].seen)
			continue;
		outbuf_puts(ob, first_ev ? "\n" : ",\n");
		first_ev = 0;
		flow(ob, flow_id, &fe[va], g->node[a].is_start, e, 1);
		outbuf_puts(ob, ",\n");
		flow(ob, flow_id, &fe[vb], g->node[b].is_start, e, 0);
		flow_id++;
	}
	outbuf_puts(ob, "\n]");
	for (size_t i = 0; i < ntail; i++) {
		top_member(ob, tail[i], &first_top);
		free(tail[i]);
	}
	free(tail);
	outbuf_puts(ob, "\n}\n");
	outbuf_close(ob);
	if (gz && rval == 0)
		rval = gzip_copy(tmp, path);
	if (tmp)
		fclose(tmp);
	stream_close(s);
	for (size_t i = 0; i < nflow; i++) {
		free(fe[i].pid);
		free(fe[i].tid);
	}
	free(fe);
	free(path);
	hmap_release(&crit);
	hmap_release(&want);
	return rval;
}
