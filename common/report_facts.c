#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_facts.h"
#include "xalloc.h"
#include "banned.h"

/* A name in the verdict: at most this many bytes of it. */
#define VERDICT_NAME_MAX 200

static struct report_text info_text(struct report_dir *rd, const char *key)
{
	struct report_text t;

	t.s = report_info(rd, key, &t.n);
	if (t.s && !t.n)
		t.s = NULL;
	return t;
}

static double info_num(struct report_dir *rd, const char *key)
{
	size_t n;
	const char *s = report_info(rd, key, &n);
	char buf[64], *end;
	double v;

	if (!s || !n || n >= sizeof(buf))
		return NAN;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtod(buf, &end);
	return *end ? NAN : v;
}

static int is(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && !memcmp(s, lit, n);
}

static void timeline(struct report_facts *f, struct report_dir *rd)
{
	const struct csv *c = report_dir_sheet(rd, "gpu_timeline");
	long ct = report_col(c, "type"), cm = report_col(c, "time ms");
	double micro = NAN, macro = NAN;

	f->comp = f->xcomm = f->xmem = f->busy = f->idle = f->total = f->comm = f->mem = NAN;
	if (ct < 0 || cm < 0)
		return;
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *t = report_str(c, r, ct, &n);
		double us = report_num(c, r, cm) * 1e3;
		if (is(t, n, "computation_time")) f->comp = us;
		else if (is(t, n, "exposed_comm_time")) f->xcomm = us;
		else if (is(t, n, "exposed_memcpy_time")) f->xmem = us;
		else if (is(t, n, "busy_time")) f->busy = us;
		else if (is(t, n, "idle_time")) f->idle = us;
		else if (is(t, n, "micro_idle_time")) micro = us;
		else if (is(t, n, "macro_idle_time")) macro = us;
		else if (is(t, n, "total_time")) f->total = us;
		else if (is(t, n, "total_comm_time")) f->comm = us;
		else if (is(t, n, "total_memcpy_time")) f->mem = us;
	}
	if (isnan(f->idle) && !isnan(micro) && !isnan(macro))
		f->idle = micro + macro;
	f->have_timeline = f->total > 0 && !isnan(f->comp) && !isnan(f->idle);
}

static void top_category(struct report_facts *f, struct report_dir *rd)
{
	const struct csv *c = report_dir_sheet(rd, "ops_summary_by_category");
	long cc = report_col(c, "op category"), cp = report_col(c, "Percentage (%)");
	double best = -1;

	f->top_cat_pct = NAN;
	for (size_t r = 0; cc >= 0 && cp >= 0 && r < c->nrows; r++) {
		double p = report_num(c, r, cp);
		if (p > best) {
			best = p;
			f->top_cat.s = report_str(c, r, cc, &f->top_cat.n);
			f->top_cat_pct = p;
		}
	}
	c = report_dir_sheet(rd, "ops_summary");
	cc = report_col(c, "name"), cp = report_col(c, "Percentage (%)");
	f->top_op_pct = NAN;
	if (cc >= 0 && cp >= 0 && c->nrows) {
		f->top_op.s = report_str(c, 0, cc, &f->top_op.n);
		f->top_op_pct = report_num(c, 0, cp);
	}
}

/*
 * The top category's distance from its roofline, weighted by time: the
 * time its op groups would take at the roofline over the time they took.
 */
static void roofline(struct report_facts *f, struct report_dir *rd)
{
	const struct csv *c = report_dir_sheet(rd, "unified_perf_summary");
	long cc = report_col(c, "op category"), ct = report_col(c, "Kernel Time (µs)_sum");
	long cr = report_col(c, "Roofline Time (µs)_first"), cn = report_col(c, "operation_count");
	long cb = report_col(c, "Roofline Bound");
	double all = 0, modelled = 0, ideal = 0, mem = 0, comp = 0;

	f->roof_pct = f->roof_cover = NAN;
	f->roof_bound = NULL;
	if (!f->top_cat.s || cc < 0 || ct < 0)
		return;
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *cat = report_str(c, r, cc, &n), *b;
		double t = report_num(c, r, ct), rt = report_num(c, r, cr);
		double cnt = report_num(c, r, cn);
		if (n != f->top_cat.n || memcmp(cat, f->top_cat.s, n) || !(t >= 0))
			continue;
		all += t;
		if (!(rt > 0) || !(cnt > 0) || !isfinite(rt))
			continue;
		modelled += t;
		ideal += rt * cnt;
		b = report_str(c, r, cb, &n);
		if (is(b, n, "MEMORY_BOUND"))
			mem += t;
		else if (is(b, n, "COMPUTE_BOUND"))
			comp += t;
	}
	if (modelled > 0) {
		f->roof_pct = ideal / modelled * 100;
		f->roof_cover = all > 0 ? modelled / all * 100 : NAN;
		if (mem + comp > 0)
			f->roof_bound = mem >= comp ? "memory" : "compute";
	}
}

static void short_kernels(struct report_facts *f, struct report_dir *rd)
{
	const struct csv *c = report_dir_sheet(rd, "short_kernel_histogram");
	long cn = report_col(c, "count");

	f->short_count = f->kernel_count = NAN;
	if (cn >= 0) {
		f->short_count = 0;
		for (size_t r = 0; r < c->nrows; r++) {
			double v = report_num(c, r, cn);
			if (v > 0)
				f->short_count += v;
		}
	}
	c = report_dir_sheet(rd, "kernel_summary");
	cn = report_col(c, "Kernel duration (µs)_count");
	if (cn >= 0) {
		f->kernel_count = 0;
		for (size_t r = 0; r < c->nrows; r++) {
			double v = report_num(c, r, cn);
			if (v > 0)
				f->kernel_count += v;
		}
	}
}

void report_facts_get(struct report_facts *f, struct report_dir *rd)
{
	memset(f, 0, sizeof(*f));
	f->trace = info_text(rd, "trace");
	f->device = info_text(rd, "device");
	f->arch = info_text(rd, "arch");
	f->arch_file = info_text(rd, "arch_file");
	f->arch_how = info_text(rd, "arch_how");
	f->gpus = info_num(rd, "gpus");
	f->events = info_num(rd, "events");
	f->gpu_events = info_num(rd, "gpu_events");
	f->kernels = info_num(rd, "kernels");
	f->span_us = info_num(rd, "trace_span_us");
	f->short_us = info_num(rd, "short_kernel_us");
	timeline(f, rd);
	top_category(f, rd);
	roofline(f, rd);
	short_kernels(f, rd);
}

struct report_text report_title(const struct report_dir *rd, const struct report_facts *f)
{
	struct report_text t;
	size_t slashes = 0, i;

	if (!f->trace.s) {
		t.s = report_dir_name(rd);
		t.n = strlen(t.s);
		return t;
	}
	for (i = f->trace.n; i > 0; i--)
		if (f->trace.s[i - 1] == '/' && ++slashes == 2)
			break;
	t.s = f->trace.s + i;
	t.n = f->trace.n - i;
	return t;
}

static void say(struct outbuf *ob, void (*text)(struct outbuf *, const char *, size_t),
		const char *s)
{
	text(ob, s, strlen(s));
}

void report_arch_note(struct outbuf *ob, const struct report_facts *f,
		      void (*text)(struct outbuf *, const char *, size_t))
{
	const struct report_text *how = &f->arch_how;

	if (f->arch.s) {
		text(ob, f->arch.s, f->arch.n);
		say(ob, text, " (");
		if (f->arch_file.s)
			text(ob, f->arch_file.s, f->arch_file.n);
		if (how->s && is(how->s, how->n, "auto"))
			say(ob, text, ", picked from the device name)");
		else if (how->s && is(how->s, how->n, "given"))
			say(ob, text, ", given with --arch)");
		else
			say(ob, text, ")");
	} else if (how->s && is(how->s, how->n, "no match")) {
		say(ob, text, "none: no table in share/tl/arch matches the device name, so there "
		    "are no roofline columns (tl-report --arch NAME picks one)");
	} else {
		say(ob, text, "none (the report was made without --arch): no roofline columns");
	}
}

/* ---- the verdict ------------------------------------------------------- */

struct vbuf {
	char *s;
	size_t n, alloc;
};

static void vb_add(struct vbuf *b, const char *s, size_t n)
{
	xgrow((void **)&b->s, &b->alloc, st_add(b->n, n) + 1, 1);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void vb_str(struct vbuf *b, const char *s)
{
	vb_add(b, s, strlen(s));
}

static void vb_printf(struct vbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void vb_printf(struct vbuf *b, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		vb_add(b, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void vb_name(struct vbuf *b, const struct report_text *t)
{
	size_t n = t->n;

	if (n > VERDICT_NAME_MAX) {
		n = VERDICT_NAME_MAX;
		while (n > 0 && ((unsigned char)t->s[n] & 0xc0) == 0x80)
			n--;
	}
	vb_add(b, t->s, n);
	if (n < t->n)
		vb_str(b, "\xe2\x80\xa6");
}

static double pct(double part, double whole)
{
	return whole > 0 ? part / whole * 100 : NAN;
}

/* What the GPU timeline says: the first sentence. */
static void verdict_timeline(struct vbuf *b, const struct report_facts *f)
{
	double idle = pct(f->idle, f->total), xcomm = pct(f->xcomm, f->total);
	double xmem = pct(f->xmem, f->total), busy = pct(f->busy, f->total);
	int comm_said = 0;

	if (idle >= 50) {
		vb_printf(b, "GPU idle %.1f %% of the GPU span (%.3f ms): launch-bound, the GPU "
			  "waits on the host (CPU work, kernel launches, synchronisation).",
			  idle, f->total / 1e3);
	} else if (xcomm >= 25) {
		vb_printf(b, "Exposed communication is %.1f %% of the GPU span (%.3f ms): "
			  "communication-bound, collectives are not hidden behind computation.",
			  xcomm, f->total / 1e3);
		comm_said = 1;
	} else if (idle >= 20) {
		vb_printf(b, "GPU busy %.1f %% of the GPU span (%.3f ms), idle %.1f %%: partly "
			  "host-bound.", busy, f->total / 1e3, idle);
	} else {
		vb_printf(b, "GPU busy %.1f %% of the GPU span (%.3f ms): compute-bound, the "
			  "speed of the kernels is what counts.", busy, f->total / 1e3);
	}
	if (xcomm >= 5 && !comm_said)
		vb_printf(b, " Exposed communication %.1f %%.", xcomm);
	if (xmem >= 5)
		vb_printf(b, " Exposed memcpy %.1f %%.", xmem);
}

static void verdict_category(struct vbuf *b, const struct report_facts *f)
{
	vb_str(b, b->n ? " Largest op category: " : "Largest op category: ");
	vb_name(b, &f->top_cat);
	vb_printf(b, ", %.1f %% of GPU kernel time", f->top_cat_pct);
	if (!isnan(f->roof_pct)) {
		vb_printf(b, ", at %.1f %% of roofline", f->roof_pct);
		if (f->roof_bound)
			vb_printf(b, ", %s-bound", f->roof_bound);
		if (f->roof_cover < 90)
			vb_printf(b, " (%.0f %% of its time has a roofline)", f->roof_cover);
	} else if (f->arch_how.s && !f->arch.s) {
		vb_str(b, " (no roofline: no arch table for this GPU)");
	}
	vb_str(b, ".");
	if (f->top_op.s && !isnan(f->top_op_pct)) {
		vb_str(b, " The top op is ");
		vb_name(b, &f->top_op);
		vb_printf(b, " (%.1f %%).", f->top_op_pct);
	}
}

char *report_verdict(const struct report_facts *f)
{
	struct vbuf b = { 0 };
	double share = pct(f->short_count, f->kernel_count);

	if (f->have_timeline)
		verdict_timeline(&b, f);
	if (f->top_cat.s && !isnan(f->top_cat_pct))
		verdict_category(&b, f);
	if (share >= 30) {
		vb_printf(&b, "%s%.0f of %.0f kernels (%.0f %%) are shorter than ", b.n ? " " : "",
			  f->short_count, f->kernel_count, share);
		if (f->short_us > 0)
			vb_printf(&b, "%g µs", f->short_us);
		else
			vb_str(&b, "the short-kernel threshold");
		vb_str(&b, ": launch overhead matters, fusion or CUDA/HIP graphs help.");
	}
	return b.s;
}
