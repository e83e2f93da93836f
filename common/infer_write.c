#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cat_json.h"
#include "err.h"
#include "infer_write.h"
#include "outbuf.h"
#include "py_fmt.h"
#include "py_repr.h"
#include "stream_rows.h"
#include "xalloc.h"
#include "banned.h"

char *infer_path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p;

	if (*b == '/' || !la)
		return xstrdup(b);
	p = xmalloc(la + lb + 2);
	tl_memcpy(p, a, la);
	if (a[la - 1] != '/')
		p[la++] = '/';
	tl_memcpy(p + la, b, lb + 1);
	return p;
}

/* ---- the trace files --------------------------------------------------- */

struct gz {
	gzFile f;
	const char *path;
	int bad;
};

static void gz_put(struct gz *g, const char *s, size_t n)
{
	while (n && !g->bad) {
		unsigned k = n > (1u << 30) ? 1u << 30 : (unsigned)n;
		if (gzwrite(g->f, s, k) != (int)k)
			g->bad = 1;
		s += k;
		n -= k;
	}
}

static void gz_top(struct gz *g, const struct infer_doc *d, int after, int *first)
{
	for (size_t i = 0; i < d->ntop; i++) {
		struct pystr k = { 0 };
		if (d->top[i].after != after)
			continue;
		if (!*first)
			gz_put(g, ",", 1);
		*first = 0;
		cat_json_string(&k, d->top[i].key);
		gz_put(g, k.buf, k.len);
		gz_put(g, ":", 1);
		gz_put(g, d->top[i].json, strlen(d->top[i].json));
		pystr_release(&k);
	}
}

int infer_write_trace(const struct infer_doc *d, const char *path, const uint32_t *uid, size_t n)
{
	struct gz g = { gzopen(path, "wb"), path, 0 };
	const char **f = xcalloc((size_t)d->ncols + 1, sizeof(*f));
	struct pystr ev = { 0 };
	char more[48];
	int first = 1, rval = 0;

	if (!g.f) {
		tl_warn_errno("%s", path);
		free(f);
		return -1;
	}
	gz_put(&g, "{", 1);
	gz_top(&g, d, 0, &first);
	if (!first)
		gz_put(&g, ",", 1);
	gz_put(&g, "\"traceEvents\":[", 15);
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < d->ncols; c++)
			f[c] = stream_rows_field(d->rows, 0, uid[i], c);
		pystr_reset(&ev);
		more[0] = '\0';
		if (uid[i] < d->nstream_index && d->stream_index[uid[i]] >= 0)
			snprintf(more, sizeof(more), "\"stream_index\":%ld",
				 (long)d->stream_index[uid[i]]);
		cat_json_event(&ev, d->cols, f, more);
		if (i)
			gz_put(&g, ",", 1);
		gz_put(&g, ev.buf, ev.len);
	}
	gz_put(&g, "]", 1);
	first = 0;
	gz_top(&g, d, 1, &first);
	gz_put(&g, "}", 1);
	if (gzclose(g.f) != Z_OK || g.bad) {
		tl_warn("%s: write error", path);
		rval = -1;
	}
	pystr_release(&ev);
	free(f);
	return rval;
}

/* ---- execution_details ------------------------------------------------- */

/* a Python number as json.dumps writes it */
static void json_num(struct pystr *o, struct infer_num x)
{
	char buf[PY_FLOAT_MAX];

	if (!x.is_float) {
		snprintf(buf, sizeof(buf), "%.0f", x.v);
	} else if (x.v != x.v) {
		snprintf(buf, sizeof(buf), "NaN");
	} else if (x.v > 1e308 || x.v < -1e308) {
		snprintf(buf, sizeof(buf), "%sInfinity", x.v < 0 ? "-" : "");
	} else {
		buf[py_float_repr(x.v, buf)] = '\0';
	}
	pystr_adds(o, buf);
}

static void json_int(struct pystr *o, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	pystr_adds(o, buf);
}

/* json.dumps(ensure_ascii=True) of a UTF-8 string */
static void json_ascii(struct pystr *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	pystr_addc(o, '"');
	while (*p) {
		unsigned cp = *p, len = 1;
		if (cp >= 0xf0 && p[1] && p[2] && p[3])
			cp = (cp & 7) << 18 | (p[1] & 63u) << 12 | (p[2] & 63u) << 6 | (p[3] & 63u), len = 4;
		else if (cp >= 0xe0 && p[1] && p[2])
			cp = (cp & 15) << 12 | (p[1] & 63u) << 6 | (p[2] & 63u), len = 3;
		else if (cp >= 0xc0 && p[1])
			cp = (cp & 31) << 6 | (p[1] & 63u), len = 2;
		p += len;
		if (cp == '"' || cp == '\\') {
			pystr_addc(o, '\\');
			pystr_addc(o, (char)cp);
		} else if (cp == '\n') {
			pystr_adds(o, "\\n");
		} else if (cp == '\r') {
			pystr_adds(o, "\\r");
		} else if (cp == '\t') {
			pystr_adds(o, "\\t");
		} else if (cp == '\b') {
			pystr_adds(o, "\\b");
		} else if (cp == '\f') {
			pystr_adds(o, "\\f");
		} else if (cp < 0x20 || cp > 0x7e) {
			unsigned u[2] = { cp, 0 };
			int nu = 1;
			if (cp > 0xffff) {
				cp -= 0x10000;
				u[0] = 0xd800 | (cp >> 10);
				u[1] = 0xdc00 | (cp & 0x3ff);
				nu = 2;
			}
			for (int i = 0; i < nu; i++) {
				pystr_adds(o, "\\u");
				for (int sh = 12; sh >= 0; sh -= 4)
					pystr_addc(o, hex[(u[i] >> sh) & 15]);
			}
		} else {
			pystr_addc(o, (char)cp);
		}
	}
	pystr_addc(o, '"');
}

static void key(struct pystr *o, const char *indent, const char *k, int first)
{
	if (!first)
		pystr_addc(o, ',');
	pystr_addc(o, '\n');
	pystr_adds(o, indent);
	json_ascii(o, k);
	pystr_adds(o, ": ");
}

static void entry_json(struct pystr *o, const struct infer_entry *e)
{
	static const char *const sk[] = { "batch_size", "num_requests", "context_requests",
		"context_sum", "generation_requests", "generation_sum" };

	pystr_adds(o, "  {");
	key(o, "    ", "idx", 1);
	json_int(o, (long long)e->idx);
	key(o, "    ", "output_path", 0);
	json_ascii(o, e->path);
	key(o, "    ", "event_count", 0);
	json_int(o, (long long)e->event_count);
	key(o, "    ", "num_gpu_events", 0);
	json_int(o, (long long)e->num_gpu_events);
	key(o, "    ", "gpu_duration", 0);
	json_num(o, e->gpu_duration);
	key(o, "    ", "gpu_busy_duration", 0);
	json_num(o, e->gpu_busy_duration);
	key(o, "    ", "steps", 0);
	if (!e->nsteps)
		pystr_adds(o, "[]");
	else {
		pystr_addc(o, '[');
		for (size_t i = 0; i < e->nsteps; i++) {
			const struct infer_step *s = &e->steps[i];
			const int64_t v[6] = { s->batch_size, s->num_requests, s->context_requests,
					       s->context_sum, s->generation_requests, s->generation_sum };
			pystr_adds(o, i ? ",\n      {" : "\n      {");
			for (int k = 0; k < 6; k++) {
				key(o, "        ", sk[k], !k);
				json_int(o, (long long)v[k]);
			}
			pystr_adds(o, "\n      }");
		}
		pystr_adds(o, "\n    ]");
	}
	key(o, "    ", "phase", 0);
	pystr_addc(o, '{');
	key(o, "      ", "num_prefill", 1);
	json_int(o, (long long)e->phase.num_prefill);
	key(o, "      ", "num_prefilldecode", 0);
	json_int(o, (long long)e->phase.num_prefilldecode);
	key(o, "      ", "num_decode", 0);
	json_int(o, (long long)e->phase.num_decode);
	key(o, "      ", "avg_bs", 0);
	json_int(o, (long long)e->phase.avg_bs);
	key(o, "      ", "avg_conc", 0);
	json_int(o, (long long)e->phase.avg_conc);
	pystr_adds(o, "\n    }\n  }");
}

static int write_file(const char *path, const char *s, size_t n)
{
	FILE *fp = fopen(path, "w");

	if (!fp) {
		tl_warn_errno("%s", path);
		return -1;
	}
	if (fwrite(s, 1, n, fp) != n || fclose(fp) != 0) {
		tl_warn_errno("%s: write error", path);
		return -1;
	}
	return 0;
}

/* a column of the CSV: %.2f for every row once any row's value is a float */
static void csv_num(struct pystr *o, struct infer_num x, int float_col)
{
	char buf[64];

	if (float_col)
		snprintf(buf, sizeof(buf), "%.2f", x.v);
	else
		snprintf(buf, sizeof(buf), "%.0f", x.v);
	pystr_adds(o, buf);
}

static void csv_str(struct pystr *o, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		pystr_adds(o, s);
		return;
	}
	pystr_addc(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			pystr_addc(o, '"');
		pystr_addc(o, *s);
	}
	pystr_addc(o, '"');
}

static void details_csv(struct pystr *o, const struct infer_entry *e, size_t n)
{
	int fdur = 0, fbusy = 0;
	char buf[160];

	for (size_t i = 0; i < n; i++) {
		fdur |= e[i].gpu_duration.is_float;
		fbusy |= e[i].gpu_busy_duration.is_float;
	}
	pystr_adds(o, "idx,output_path,event_count,num_gpu_events,gpu_duration,gpu_busy_duration,"
		   "phase_num_prefill,phase_num_prefilldecode,phase_num_decode,phase_avg_bs,"
		   "phase_avg_conc,num_steps\n");
	for (size_t i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%zu,", e[i].idx);
		pystr_adds(o, buf);
		csv_str(o, e[i].path);
		snprintf(buf, sizeof(buf), ",%zu,%zu,", e[i].event_count, e[i].num_gpu_events);
		pystr_adds(o, buf);
		csv_num(o, e[i].gpu_duration, fdur);
		pystr_addc(o, ',');
		csv_num(o, e[i].gpu_busy_duration, fbusy);
		snprintf(buf, sizeof(buf), ",%lld,%lld,%lld,%lld,%lld,%zu\n",
			 (long long)e[i].phase.num_prefill, (long long)e[i].phase.num_prefilldecode,
			 (long long)e[i].phase.num_decode, (long long)e[i].phase.avg_bs,
			 (long long)e[i].phase.avg_conc, e[i].nsteps);
		pystr_adds(o, buf);
	}
}

int infer_write_details(const char *dir, const struct infer_entry *e, size_t n)
{
	struct pystr js = { 0 }, csv = { 0 };
	char *jp = infer_path_join(dir, "execution_details.json");
	char *cp = infer_path_join(dir, "execution_details.csv");
	int rval = 0;

	pystr_addc(&js, '[');
	for (size_t i = 0; i < n; i++) {
		pystr_adds(&js, i ? ",\n" : "\n");
		entry_json(&js, &e[i]);
	}
	pystr_adds(&js, n ? "\n]" : "]");
	details_csv(&csv, e, n);
	if (write_file(jp, js.buf, js.len) < 0 || write_file(cp, csv.buf, csv.len) < 0)
		rval = -1;
	pystr_release(&js);
	pystr_release(&csv);
	free(jp);
	free(cp);
	return rval;
}
