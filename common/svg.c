#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "display.h"
#include "outbuf.h"
#include "svg.h"
#include "banned.h"

/* ---- scales ------------------------------------------------------------ */

void svg_scale_linear(struct svg_scale *s, double d0, double d1, double r0, double r1)
{
	s->d0 = d0, s->d1 = d1, s->r0 = r0, s->r1 = r1, s->log = 0;
}

void svg_scale_log(struct svg_scale *s, double d0, double d1, double r0, double r1)
{
	s->d0 = d0, s->d1 = d1, s->r0 = r0, s->r1 = r1, s->log = 1;
}

double svg_map(const struct svg_scale *s, double v)
{
	double a = s->d0, b = s->d1;

	if (s->log) {
		if (!(v > 0) || !(a > 0) || !(b > 0))
			return s->r0;
		v = log10(v), a = log10(a), b = log10(b);
	}
	if (b == a || !isfinite(v))
		return s->r0;
	return s->r0 + (v - a) / (b - a) * (s->r1 - s->r0);
}

/* A 1-2-5 step giving about target intervals over span. */
static double nice_step(double span, int target)
{
	double raw = span / (target > 0 ? target : 1);
	double mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;

	if (norm < 1.5)
		return mag;
	if (norm < 3)
		return 2 * mag;
	if (norm < 7)
		return 5 * mag;
	return 10 * mag;
}

void svg_nice_linear(double *lo, double *hi, int target)
{
	double step;

	if (!isfinite(*lo) || !isfinite(*hi) || *hi < *lo) {
		*lo = 0, *hi = 1;
		return;
	}
	if (*hi == *lo) {
		if (*lo == 0) {
			*hi = 1;
			return;
		}
		*lo = *lo > 0 ? 0 : *lo;
		*hi = *hi > 0 ? *hi : 0;
		if (*hi == *lo)
			*hi = *lo + 1;
	}
	step = nice_step(*hi - *lo, target);
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
}

void svg_nice_log(double *lo, double *hi)
{
	if (!(*lo > 0) || !isfinite(*lo) || !(*hi > 0) || !isfinite(*hi) || *hi < *lo) {
		*lo = 1, *hi = 10;
		return;
	}
	*lo = pow(10, floor(log10(*lo) + 1e-9));
	*hi = pow(10, ceil(log10(*hi) - 1e-9));
	if (*hi <= *lo)
		*hi = *lo * 10;
}

/* ---- ticks ------------------------------------------------------------- */

/* A decade 10^k as a person writes it: 0.001 .. 10000, else 1e-05, 1e+06. */
static void decade_label(char *buf, size_t size, int k)
{
	if (k >= 0 && k <= 4)
		snprintf(buf, size, "%.0f", pow(10, k));
	else if (k < 0 && k >= -3)
		snprintf(buf, size, "%.*f", -k, pow(10, k));
	else
		snprintf(buf, size, "1e%+03d", k);
}

static size_t add_tick(const struct svg_scale *s, struct svg_tick *t, size_t n, size_t max,
		       double v, int major)
{
	if (n >= max)
		return n;
	t[n].v = v;
	t[n].pos = svg_map(s, v);
	t[n].major = major;
	t[n].label[0] = 0;
	return n + 1;
}

static size_t log_ticks(const struct svg_scale *s, struct svg_tick *t, size_t max)
{
	double lo = fmin(s->d0, s->d1), hi = fmax(s->d0, s->d1);
	int k0, k1, decades;
	size_t n = 0;

	if (!(lo > 0) || !isfinite(hi))
		return 0;
	k0 = (int)floor(log10(lo) + 1e-9);
	k1 = (int)ceil(log10(hi) - 1e-9);
	if (k1 - k0 > 300)
		return 0;
	decades = k1 - k0;
	for (int k = k0; k <= k1; k++) {
		double d = pow(10, k);
		if (d >= lo * (1 - 1e-9) && d <= hi * (1 + 1e-9)) {
			size_t i = n;
			n = add_tick(s, t, n, max, d, 1);
			if (n > i)
				decade_label(t[i].label, sizeof(t[i].label), k);
		}
		if (decades > 8 || k == k1)
			continue;
		for (int m = 2; m <= 9; m++) {
			double v = m * d;
			int labelled = decades <= 2 && (m == 2 || m == 5);
			size_t i = n;
			if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9))
				continue;
			n = add_tick(s, t, n, max, v, labelled);
			if (n > i && labelled)
				snprintf(t[i].label, sizeof(t[i].label), "%g", v);
		}
	}
	return n;
}

static size_t linear_ticks(const struct svg_scale *s, int target, struct svg_tick *t, size_t max)
{
	double lo = fmin(s->d0, s->d1), hi = fmax(s->d0, s->d1), step, first;
	int decimals;
	size_t n = 0;

	if (!isfinite(lo) || !isfinite(hi) || hi <= lo)
		return 0;
	step = nice_step(hi - lo, target);
	decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	first = ceil(lo / step - 1e-9);
	for (double k = first; k * step <= hi + step * 1e-9 && n < max; k++) {
		double v = k * step;
		size_t i = n;
		if (fabs(v) < step * 1e-9)
			v = 0;
		n = add_tick(s, t, n, max, v, 1);
		if (fabs(v) >= 1e6)
			snprintf(t[i].label, sizeof(t[i].label), "%g", v);
		else
			snprintf(t[i].label, sizeof(t[i].label), "%.*f", decimals, v);
	}
	return n;
}

size_t svg_ticks(const struct svg_scale *s, int target, struct svg_tick *t, size_t max)
{
	return s->log ? log_ticks(s, t, max) : linear_ticks(s, target, t, max);
}

/* ---- text -------------------------------------------------------------- */

/* Helvetica's advance widths (1/1000 em) for ' ' .. '~'. */
static const unsigned short helvetica[95] = {
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584
};

/*
 * The next character of s[0..n): its byte length and code point, or
 * cp = -1 for a byte display_escape writes as \xHH (control characters,
 * invalid UTF-8; the C1 controls are two such bytes).
 */
static size_t next_char(const unsigned char *s, size_t n, long *cp)
{
	size_t k;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0] >= 0x20 && s[0] != 0x7f ? s[0] : -1;
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] < 0xe0)
		k = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] < 0xf0)
		k = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] < 0xf5)
		k = 4, c = s[0] & 0x07;
	else
		k = 0, c = 0;
	for (size_t i = 1; k && i < k; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80)
			k = 0;
		else
			c = c << 6 | (s[i] & 0x3f);
	}
	if (!k || (k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c < 0xe000) || (c >= 0x80 && c < 0xa0)) {
		*cp = -1;
		return 1;
	}
	*cp = (long)c;
	return k;
}

static int wide(long c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
	       (c >= 0x20000 && c <= 0x3fffd);
}

/* Width in em of one character (cp = -1: its four-character \xHH form). */
static double char_em(long cp, enum svg_font f)
{
	if (cp < 0)
		return 4 * (f == SVG_MONO ? 0.6 : 0.556);
	if (wide(cp))
		return 1.0;
	if (f == SVG_MONO)
		return 0.6;
	if (cp >= 0x20 && cp < 0x7f)
		return helvetica[cp - 0x20] / 1000.0 * 1.08;
	return 0.6;
}

double svg_text_width(const char *s, size_t n, double font_px, enum svg_font f)
{
	const unsigned char *u = (const unsigned char *)s;
	double em = 0;
	long cp;

	for (size_t i = 0; i < n;) {
		i += next_char(u + i, n - i, &cp);
		em += char_em(cp, f);
	}
	return em * font_px;
}

size_t svg_text_fit(const char *s, size_t n, double width, double font_px, enum svg_font f)
{
	const unsigned char *u = (const unsigned char *)s;
	double ell = char_em(0x2026, f) * font_px, w = 0;
	size_t i = 0, fit = 0;	/* fit: bytes that fit with the ellipsis after */
	long cp;

	while (i < n) {
		size_t k = next_char(u + i, n - i, &cp);
		w += char_em(cp, f) * font_px;
		if (w > width)
			return fit;	/* does not all fit: cut where the ellipsis fits */
		i += k;
		if (w + ell <= width)
			fit = i;
	}
	return n;
}

size_t svg_label_step(const struct svg_tick *t, size_t n, double font_px, double gap)
{
	for (size_t k = 1; k < n; k++) {
		int ok = 1;
		for (size_t i = 0; i + k < n && ok; i += k) {
			double wa = svg_text_width(t[i].label, strlen(t[i].label), font_px, SVG_SANS);
			double wb = svg_text_width(t[i + k].label, strlen(t[i + k].label), font_px,
						   SVG_SANS);
			ok = fabs(t[i + k].pos - t[i].pos) >= (wa + wb) / 2 + gap;
		}
		if (ok)
			return k;
	}
	return n ? n : 1;
}

/* ---- drawing ----------------------------------------------------------- */

void svg_num(struct outbuf *ob, double v)
{
	char buf[64];
	size_t n;

	if (!isfinite(v))
		v = 0;
	v = round(v * 100) / 100;
	if (v == 0)
		v = 0;	/* no "-0" */
	n = (size_t)snprintf(buf, sizeof(buf), "%.2f", v);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	while (n > 0 && buf[n - 1] == '0')
		n--;
	if (n > 0 && buf[n - 1] == '.')
		n--;
	outbuf_put(ob, buf, n);
}

static void attr_num(struct svg *g, const char *name, double v)
{
	outbuf_putc(g->ob, ' ');
	outbuf_puts(g->ob, name);
	outbuf_put(g->ob, "=\"", 2);
	svg_num(g->ob, v);
	outbuf_putc(g->ob, '"');
}

/* An attribute whose value is ours (a colour, a class name), escaped anyway. */
static void attr_str(struct svg *g, const char *name, const char *v)
{
	outbuf_putc(g->ob, ' ');
	outbuf_puts(g->ob, name);
	outbuf_put(g->ob, "=\"", 2);
	display_escape(g->ob, v, strlen(v), DISPLAY_HTML);
	outbuf_putc(g->ob, '"');
}

void svg_begin(struct svg *g, struct outbuf *ob, double w, double h, const char *chart,
	       const char *label)
{
	g->ob = ob;
	g->marks = 0;
	g->open = NULL;
	g->w = w, g->h = h;
	outbuf_puts(ob, "<svg viewBox=\"0 0 ");
	svg_num(ob, w);
	outbuf_putc(ob, ' ');
	svg_num(ob, h);
	outbuf_putc(ob, '"');
	attr_num(g, "width", w);
	attr_num(g, "height", h);
	attr_str(g, "data-chart", chart);
	outbuf_puts(ob, " role=\"img\"");
	attr_str(g, "aria-label", label);
	outbuf_puts(ob, ">\n");
}

void svg_end(struct svg *g)
{
	outbuf_printf(g->ob, "<g data-marks=\"%zu\"></g></svg>\n", g->marks);
}

void svg_line(struct svg *g, double x1, double y1, double x2, double y2, const char *cls)
{
	outbuf_puts(g->ob, "<line");
	attr_num(g, "x1", x1);
	attr_num(g, "y1", y1);
	attr_num(g, "x2", x2);
	attr_num(g, "y2", y2);
	if (cls)
		attr_str(g, "class", cls);
	outbuf_puts(g->ob, "/>\n");
}

void svg_rect(struct svg *g, double x, double y, double w, double h, const char *fill)
{
	outbuf_puts(g->ob, "<rect");
	attr_num(g, "x", x);
	attr_num(g, "y", y);
	attr_num(g, "width", w > 0 ? w : 0);
	attr_num(g, "height", h > 0 ? h : 0);
	attr_str(g, "fill", fill);
	outbuf_puts(g->ob, "/>\n");
}

static void text_open(struct svg *g, double x, double y, enum svg_anchor a, const char *cls)
{
	outbuf_puts(g->ob, "<text");
	attr_num(g, "x", x);
	attr_num(g, "y", y);
	if (a != SVG_START)
		attr_str(g, "text-anchor", a == SVG_MIDDLE ? "middle" : "end");
	if (cls)
		attr_str(g, "class", cls);
	outbuf_putc(g->ob, '>');
}

void svg_text(struct svg *g, double x, double y, enum svg_anchor a, const char *cls,
	      const char *s, size_t n)
{
	text_open(g, x, y, a, cls);
	display_escape(g->ob, s, n, DISPLAY_HTML);
	outbuf_puts(g->ob, "</text>\n");
}

void svg_textf(struct svg *g, double x, double y, enum svg_anchor a, const char *cls,
	       const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	svg_text(g, x, y, a, cls, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void svg_text_fitted(struct svg *g, double x, double y, enum svg_anchor a, const char *cls,
		     enum svg_font f, double font_px, double width, const char *s, size_t n)
{
	size_t k = svg_text_fit(s, n, width, font_px, f);

	text_open(g, x, y, a, cls);
	display_escape(g->ob, s, k, DISPLAY_HTML);
	if (k < n) {
		outbuf_puts(g->ob, "\xe2\x80\xa6<title>");
		svg_tip_name(g, s, n);
		outbuf_puts(g->ob, "</title>");
	}
	outbuf_puts(g->ob, "</text>\n");
}

static void mark_open(struct svg *g, const char *elem)
{
	g->open = elem;
	g->marks++;
}

void svg_rect_open(struct svg *g, double x, double y, double w, double h, const char *fill)
{
	outbuf_puts(g->ob, "<rect class=\"mark\"");
	attr_num(g, "x", x);
	attr_num(g, "y", y);
	attr_num(g, "width", w > 0 ? w : 0);
	attr_num(g, "height", h > 0 ? h : 0);
	attr_str(g, "fill", fill);
	outbuf_puts(g->ob, "><title>");
	mark_open(g, "rect");
}

void svg_circle_open(struct svg *g, double cx, double cy, double r, const char *fill)
{
	outbuf_puts(g->ob, "<circle class=\"mark\"");
	attr_num(g, "cx", cx);
	attr_num(g, "cy", cy);
	attr_num(g, "r", r);
	attr_str(g, "fill", fill);
	outbuf_puts(g->ob, "><title>");
	mark_open(g, "circle");
}

void svg_path_begin(struct svg *g, const char *fill)
{
	outbuf_puts(g->ob, "<path class=\"mark\"");
	attr_str(g, "fill", fill);
	outbuf_puts(g->ob, " d=\"");
}

void svg_path_rect(struct svg *g, double x, double y, double w, double h)
{
	outbuf_putc(g->ob, 'M');
	svg_num(g->ob, x);
	outbuf_putc(g->ob, ' ');
	svg_num(g->ob, y);
	outbuf_putc(g->ob, 'h');
	svg_num(g->ob, w);
	outbuf_putc(g->ob, 'v');
	svg_num(g->ob, h);
	outbuf_putc(g->ob, 'h');
	svg_num(g->ob, -w);
	outbuf_putc(g->ob, 'z');
}

void svg_path_title(struct svg *g)
{
	outbuf_puts(g->ob, "\"><title>");
	mark_open(g, "path");
}

void svg_tip(struct svg *g, const char *s, size_t n)
{
	display_escape(g->ob, s, n, DISPLAY_HTML);
}

void svg_tip_name(struct svg *g, const char *s, size_t n)
{
	size_t k = n;

	if (n > SVG_TIP_MAX) {
		/* a tooltip stays readable: the first SVG_TIP_MAX bytes at most */
		k = SVG_TIP_MAX;
		while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
	}
	display_escape(g->ob, s, k, DISPLAY_HTML);
	if (k < n)
		outbuf_printf(g->ob, "\xe2\x80\xa6 (%zu bytes)", n);
}

/* Our own text: escaped line by line, the newlines kept as tooltip lines. */
void svg_tipf(struct svg *g, const char *fmt, ...)
{
	char buf[1024];
	const char *p, *nl;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		display_escape(g->ob, p, (size_t)(nl - p), DISPLAY_HTML);
		outbuf_putc(g->ob, '\n');
	}
	display_escape(g->ob, p, strlen(p), DISPLAY_HTML);
}

void svg_close(struct svg *g)
{
	if (!g->open)
		return;
	outbuf_puts(g->ob, "</title></");
	outbuf_puts(g->ob, g->open);
	outbuf_puts(g->ob, ">\n");
	g->open = NULL;
}

/* ---- axes -------------------------------------------------------------- */

#define AXIS_FONT 11.0

static size_t major_ticks(const struct svg_tick *t, size_t n, struct svg_tick *m)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (t[i].major)
			m[k++] = t[i];
	return k;
}

void svg_axis_x(struct svg *g, const struct svg_scale *s, double y, double grid_to,
		const char *title, int target)
{
	struct svg_tick t[SVG_MAXTICKS], m[SVG_MAXTICKS];
	size_t n = svg_ticks(s, target, t, SVG_MAXTICKS), nm = major_ticks(t, n, m), step;

	for (size_t i = 0; i < n; i++)
		svg_line(g, t[i].pos, grid_to, t[i].pos, y, t[i].major ? "grid" : "grid minor");
	svg_line(g, s->r0, y, s->r1, y, "axis");
	step = svg_label_step(m, nm, AXIS_FONT, 6);
	for (size_t i = 0; i < nm; i += step) {
		svg_line(g, m[i].pos, y, m[i].pos, y + 4, "axis");
		svg_text(g, m[i].pos, y + 16, SVG_MIDDLE, "tick", m[i].label, strlen(m[i].label));
	}
	if (title)
		svg_text(g, (s->r0 + s->r1) / 2, y + 32, SVG_MIDDLE, "axis-title", title,
			 strlen(title));
}

void svg_axis_y(struct svg *g, const struct svg_scale *s, double x, double grid_to,
		const char *title, int target)
{
	struct svg_tick t[SVG_MAXTICKS], m[SVG_MAXTICKS];
	size_t n = svg_ticks(s, target, t, SVG_MAXTICKS), nm = major_ticks(t, n, m), step = 1;
	double maxw = 0;

	for (size_t i = 0; i < n; i++)
		svg_line(g, x, t[i].pos, grid_to, t[i].pos, t[i].major ? "grid" : "grid minor");
	svg_line(g, x, s->r0, x, s->r1, "axis");
	/* vertical: labels one line high need AXIS_FONT + 2 px between them */
	while (step < nm && nm > 1 && fabs(m[step].pos - m[0].pos) < AXIS_FONT + 2)
		step++;
	for (size_t i = 0; i < nm; i += step) {
		double w = svg_text_width(m[i].label, strlen(m[i].label), AXIS_FONT, SVG_SANS);
		maxw = w > maxw ? w : maxw;
		svg_line(g, x - 4, m[i].pos, x, m[i].pos, "axis");
		svg_text(g, x - 6, m[i].pos + 4, SVG_END, "tick", m[i].label, strlen(m[i].label));
	}
	if (title) {
		double tx = x - maxw - 14, ty = (s->r0 + s->r1) / 2;
		outbuf_puts(g->ob, "<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate(");
		svg_num(g->ob, tx);
		outbuf_putc(g->ob, ' ');
		svg_num(g->ob, ty);
		outbuf_puts(g->ob, ") rotate(-90)\">");
		display_escape(g->ob, title, strlen(title), DISPLAY_HTML);
		outbuf_puts(g->ob, "</text>\n");
	}
}
