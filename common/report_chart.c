#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_chart.h"
#include "xalloc.h"
#include "banned.h"

const char *const chart_class_color[4] = { "#4e79a7", "#e15759", "#f28e2b", "#dfe3e8" };
const char *const chart_class_name[4] = {
	"computation", "exposed communication", "exposed memcpy", "idle"
};

/* Tableau 10, the palette plotting libraries default to. */
static const char *const palette[10] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#79706e"
};

const char *chart_palette(size_t i)
{
	return i == (size_t)-1 ? "#a8adb3" : palette[i % 10];
}

#define FONT 11.0

/* ---- stacked bars ------------------------------------------------------ */

enum { ST_LX = 180, ST_RX = 860, ST_ROW = 26, ST_BAR = 18 };

void chart_stacked(struct outbuf *ob, const char *chart, const char *title,
		   const struct chart_stack *rows, size_t n, int nseg,
		   const char *const *colors, chart_tip_fn tip, void *ctx)
{
	struct svg g;
	double max = 0;

	for (size_t r = 0; r < n; r++) {
		double t = 0;
		for (int k = 0; k < nseg; k++)
			t += rows[r].v[k] > 0 ? rows[r].v[k] : 0;
		max = t > max ? t : max;
	}
	svg_begin(&g, ob, CHART_W, (double)n * ST_ROW + 8, chart, title);
	for (size_t r = 0; r < n; r++) {
		double y = 4 + (double)r * ST_ROW, x = ST_LX, total = 0;
		for (int k = 0; k < nseg; k++)
			total += rows[r].v[k] > 0 ? rows[r].v[k] : 0;
		svg_text_fitted(&g, ST_LX - 8, y + 13, SVG_END, NULL, SVG_SANS, FONT, ST_LX - 12,
				rows[r].label, rows[r].label_len);
		for (int k = 0; k < nseg; k++) {
			double v = rows[r].v[k], w = max > 0 ? v / max * (ST_RX - ST_LX) : 0;
			if (!(v > 0))
				continue;
			svg_rect_open(&g, x, y, w, ST_BAR, colors[k]);
			tip(&g, ctx, r * (size_t)nseg + (size_t)k);
			svg_close(&g);
			if (w >= 44)
				svg_textf(&g, x + w / 2, y + 13, SVG_MIDDLE,
					  colors[k] == chart_class_color[3] ? NULL : "in", "%.1f %%",
					  v / total * 100);
			x += w;
		}
		svg_text(&g, x + 6, y + 13, SVG_START, NULL, rows[r].right, strlen(rows[r].right));
	}
	svg_end(&g);
}

/* ---- bars -------------------------------------------------------------- */

enum { BAR_LX = 310, BAR_RX = 760, BAR_ROW = 20, BAR_H = 14, BAR_ROW2 = 34, BAR_X2 = 8 };

void chart_bars(struct outbuf *ob, const char *chart, const char *title,
		const struct chart_bar *bars, size_t n, int names, chart_tip_fn tip, void *ctx)
{
	int above = names == CHART_NAMES_ABOVE;
	double lx = above ? BAR_X2 : BAR_LX, row = above ? BAR_ROW2 : BAR_ROW, max = 0;
	struct svg g;

	for (size_t i = 0; i < n; i++)
		max = bars[i].v > max ? bars[i].v : max;
	svg_begin(&g, ob, CHART_W, (double)n * row + 8, chart, title);
	for (size_t i = 0; i < n; i++) {
		double y = 4 + (double)i * row, by = above ? y + 15 : y;
		double w = max > 0 && bars[i].v > 0 ? bars[i].v / max * (BAR_RX - lx) : 0;
		if (above)
			svg_text_fitted(&g, BAR_X2, y + 10, SVG_START, "name", SVG_MONO, FONT,
					CHART_W - 2 * BAR_X2, bars[i].name, bars[i].name_len);
		else
			svg_text_fitted(&g, BAR_LX - 8, y + 11, SVG_END, "name", SVG_MONO, FONT,
					BAR_LX - 12, bars[i].name, bars[i].name_len);
		svg_rect_open(&g, lx, by, w, BAR_H, bars[i].color);
		tip(&g, ctx, i);
		svg_close(&g);
		svg_text(&g, lx + w + 6, by + 11, SVG_START, NULL, bars[i].right,
			 strlen(bars[i].right));
	}
	svg_end(&g);
}

/* ---- paired bars ------------------------------------------------------- */

enum { PAIR_ROW = 30, PAIR_H = 11 };

void chart_pairs(struct outbuf *ob, const char *chart, const char *title,
		 const struct chart_pair *p, size_t n, chart_tip_fn tip, void *ctx)
{
	static const char *const color[2] = { "#4e79a7", "#f28e2b" };
	struct svg g;
	double max = 0;

	for (size_t i = 0; i < n; i++)
		max = fmax(max, fmax(p[i].a, p[i].b));
	svg_begin(&g, ob, CHART_W, (double)n * PAIR_ROW + 8, chart, title);
	for (size_t i = 0; i < n; i++) {
		double y = 4 + (double)i * PAIR_ROW, end = BAR_LX;
		svg_text_fitted(&g, BAR_LX - 8, y + 15, SVG_END, "name", SVG_MONO, FONT,
				BAR_LX - 12, p[i].name, p[i].name_len);
		for (int s = 0; s < 2; s++) {
			double v = s ? p[i].b : p[i].a;
			double w = max > 0 && v > 0 ? v / max * (BAR_RX - BAR_LX) : 0;
			svg_rect_open(&g, BAR_LX, y + s * (PAIR_H + 1), w, PAIR_H, color[s]);
			tip(&g, ctx, i * 2 + (size_t)s);
			svg_close(&g);
			end = fmax(end, BAR_LX + w);
		}
		svg_text(&g, end + 6, y + 15, SVG_START, NULL, p[i].right, strlen(p[i].right));
	}
	svg_end(&g);
}

/* ---- the timeline strip ------------------------------------------------ */

enum { STRIP_LX = 180, STRIP_RX = 980, STRIP_ROW = 28, STRIP_H = 22 };

struct pending {
	double x0, x1, y, h;
	int set;
};

static void flush_rect(struct svg *g, struct pending *p)
{
	if (p->set)
		svg_path_rect(g, p->x0, p->y, p->x1 - p->x0, p->h);
	p->set = 0;
}

/* Height in pixels of v µs busy in a bin of width µs: 0.5 px steps, never 0 for v > 0. */
static double busy_h(double v, double width)
{
	double h = width > 0 ? round(v / width * STRIP_H * 2) / 2 : 0;

	if (h > STRIP_H)
		h = STRIP_H;
	return v > 0 && h < 0.5 ? 0.5 : h;
}

/* One class of one row: a path of columns, equal neighbours merged. */
static void strip_class(struct svg *g, const struct chart_strip_row *row, int k, double y0,
			double span)
{
	struct pending p = { 0 };

	svg_path_begin(g, chart_class_color[k]);
	for (size_t i = 0; i < row->nbins; i++) {
		const struct chart_strip_bin *b = &row->bins[i];
		double w = b->t1 - b->t0, below = 0, h, x0, x1, y;
		if (!(b->v[k] > 0))
			continue;
		for (int j = 0; j < k; j++)
			below += b->v[j] > 0 ? busy_h(b->v[j], w) : 0;
		h = busy_h(b->v[k], w);
		if (below + h > STRIP_H)
			h = STRIP_H - below;
		if (h <= 0)
			continue;
		x0 = STRIP_LX + b->t0 / span * (STRIP_RX - STRIP_LX);
		x1 = STRIP_LX + b->t1 / span * (STRIP_RX - STRIP_LX);
		y = y0 + STRIP_H - below - h;
		if (p.set && p.y == y && p.h == h && fabs(p.x1 - x0) < 1e-9) {
			p.x1 = x1;
			continue;
		}
		flush_rect(g, &p);
		p = (struct pending){ x0, x1, y, h, 1 };
	}
	flush_rect(g, &p);
	svg_path_title(g);
}

void chart_strip(struct outbuf *ob, const char *chart, const char *title,
		 const struct chart_strip_row *rows, size_t n, double span_us,
		 chart_tip_fn tip, void *ctx)
{
	struct svg g;
	struct svg_scale x;
	double axis_y = 4 + (double)n * STRIP_ROW + 2, span = span_us > 0 ? span_us : 1;

	svg_begin(&g, ob, CHART_W, axis_y + 40, chart, title);
	svg_scale_linear(&x, 0, span / 1e3, STRIP_LX, STRIP_RX);
	svg_axis_x(&g, &x, axis_y, 4, "time from the first GPU event (ms)", 10);
	for (size_t r = 0; r < n; r++) {
		double y0 = 4 + (double)r * STRIP_ROW;
		double busy[3] = { 0, 0, 0 };
		svg_rect(&g, STRIP_LX, y0, STRIP_RX - STRIP_LX, STRIP_H, "#f3f4f6");
		svg_text_fitted(&g, STRIP_LX - 8, y0 + 15, SVG_END, NULL, SVG_SANS, FONT,
				STRIP_LX - 12, rows[r].label, rows[r].label_len);
		for (size_t i = 0; i < rows[r].nbins; i++)
			for (int k = 0; k < 3; k++)
				busy[k] += rows[r].bins[i].v[k] > 0 ? rows[r].bins[i].v[k] : 0;
		for (int k = 0; k < 3; k++) {
			if (!(busy[k] > 0))
				continue;
			strip_class(&g, &rows[r], k, y0, span);
			tip(&g, ctx, r * 3 + (size_t)k);
			svg_close(&g);
		}
	}
	svg_end(&g);
}

/* ---- the roofline ------------------------------------------------------ */

enum { RF_LX = 80, RF_RX = 960, RF_TY = 14, RF_BY = 420 };

struct rf_plot {
	struct svg_scale x, y;
	double xlo, xhi, ylo, yhi, bw;	/* bw in TB/s */
};

static void rf_domain(struct rf_plot *pl, const struct chart_point *p, size_t n,
		      const struct chart_roof *roofs, size_t nroofs)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		xlo = fmin(xlo, p[i].x), xhi = fmax(xhi, p[i].x);
		ylo = fmin(ylo, p[i].y), yhi = fmax(yhi, p[i].y);
	}
	for (size_t i = 0; i < nroofs; i++) {
		yhi = fmax(yhi, roofs[i].tflops);
		ylo = fmin(ylo, roofs[i].tflops / 1000);
		if (pl->bw > 0) {
			double ridge = roofs[i].tflops / pl->bw;
			xlo = fmin(xlo, ridge / 10), xhi = fmax(xhi, ridge * 4);
		}
	}
	if (!isfinite(xlo)) {
		xlo = 0.1, xhi = 1000;
	}
	if (!isfinite(ylo)) {
		ylo = 0.01, yhi = 1000;
	}
	xlo /= 2, xhi *= 2, ylo /= 2, yhi *= 2;
	svg_nice_log(&xlo, &xhi);
	svg_nice_log(&ylo, &yhi);
	pl->xlo = xlo, pl->xhi = xhi, pl->ylo = ylo, pl->yhi = yhi;
	svg_scale_log(&pl->x, xlo, xhi, RF_LX, RF_RX);
	svg_scale_log(&pl->y, ylo, yhi, RF_BY, RF_TY);
}

static void rf_memory_roof(struct svg *g, const struct rf_plot *pl, double top)
{
	/* y = bw × x, clipped to the plot and to the highest compute roof */
	double x0 = fmax(pl->xlo, pl->ylo / pl->bw), x1 = fmin(pl->xhi, fmin(pl->yhi, top) / pl->bw);
	double px0, py0, px1, py1, ang;

	if (!(x1 > x0))
		return;
	px0 = svg_map(&pl->x, x0), py0 = svg_map(&pl->y, pl->bw * x0);
	px1 = svg_map(&pl->x, x1), py1 = svg_map(&pl->y, pl->bw * x1);
	svg_line(g, px0, py0, px1, py1, "roofline");
	ang = atan2(py1 - py0, px1 - px0) * 180 / M_PI;
	outbuf_puts(g->ob, "<text class=\"roof\" transform=\"translate(");
	svg_num(g->ob, px0 + (px1 - px0) * 0.12);
	outbuf_putc(g->ob, ' ');
	svg_num(g->ob, py0 + (py1 - py0) * 0.12 - 5);
	outbuf_puts(g->ob, ") rotate(");
	svg_num(g->ob, ang);
	outbuf_printf(g->ob, ")\">memory %.0f GB/s</text>\n", pl->bw * 1000);
}

static int cmp_roof(const void *pa, const void *pb)
{
	const struct chart_roof *a = pa, *b = pb;

	if (a->tflops != b->tflops)
		return a->tflops > b->tflops ? -1 : 1;
	return strcmp(a->spec, b->spec);
}

static void rf_compute_roofs(struct svg *g, const struct rf_plot *pl,
			     const struct chart_roof *roofs, size_t n)
{
	struct chart_roof *r = xmalloc((n ? n : 1) * sizeof(*r));
	double last_y = -INFINITY;

	memcpy(r, roofs, n * sizeof(*r));
	qsort(r, n, sizeof(*r), cmp_roof);	/* highest first: labels go down the page */
	for (size_t i = 0; i < n; i++) {
		double x0 = pl->bw > 0 ? fmax(pl->xlo, r[i].tflops / pl->bw) : pl->xlo;
		double y = svg_map(&pl->y, r[i].tflops), ly = y - 4;
		svg_line(g, svg_map(&pl->x, x0), y, RF_RX, y, "roofline");
		if (ly < last_y + 13)
			ly = last_y + 13;
		last_y = ly;
		svg_textf(g, RF_RX - 4, ly, SVG_END, "roof", "%s %g TFLOPS/s", r[i].spec,
			  r[i].tflops);
	}
	free(r);
}

static size_t *rf_order(const struct chart_point *p, size_t n);

void chart_roofline(struct outbuf *ob, const char *chart, const struct chart_point *p, size_t n,
		    double bw_gbps, const struct chart_roof *roofs, size_t nroofs,
		    chart_tip_fn tip, void *ctx)
{
	struct svg g;
	struct rf_plot pl;
	double top = 0, wmax = 0;
	size_t *order;

	pl.bw = bw_gbps > 0 ? bw_gbps / 1000 : NAN;
	rf_domain(&pl, p, n, roofs, nroofs);
	svg_begin(&g, ob, CHART_W, RF_BY + 44, chart, "Roofline plot");
	svg_axis_x(&g, &pl.x, RF_BY, RF_TY, "FLOPS/Byte (arithmetic intensity)", 8);
	svg_axis_y(&g, &pl.y, RF_LX, RF_RX, "TFLOPS/s", 6);
	for (size_t i = 0; i < nroofs; i++)
		top = fmax(top, roofs[i].tflops);
	if (pl.bw > 0)
		rf_memory_roof(&g, &pl, nroofs ? top : INFINITY);
	rf_compute_roofs(&g, &pl, roofs, nroofs);
	order = rf_order(p, n);
	for (size_t i = 0; i < n; i++)
		wmax = fmax(wmax, p[i].weight);
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		double r = 3 + 11 * (wmax > 0 && p[i].weight > 0 ? sqrt(p[i].weight / wmax) : 0);
		svg_circle_open(&g, svg_map(&pl.x, p[i].x), svg_map(&pl.y, p[i].y), r, p[i].color);
		tip(&g, ctx, i);
		svg_close(&g);
	}
	free(order);
	svg_end(&g);
}

static const struct chart_point *sort_pts;	/* qsort has no context argument */

static int cmp_weight(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double wa = sort_pts[a].weight, wb = sort_pts[b].weight;

	if (wa != wb)
		return wa > wb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Points by weight, largest first, so that small ones stay visible on top. */
static size_t *rf_order(const struct chart_point *p, size_t n)
{
	size_t *order = xmalloc((n ? n : 1) * sizeof(*order));

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sort_pts = p;
	qsort(order, n, sizeof(*order), cmp_weight);
	return order;
}

/* ---- histogram --------------------------------------------------------- */

enum { HI_LX = 70, HI_RX = 980, HI_TY = 10, HI_BY = 200 };

void chart_histogram(struct outbuf *ob, const char *chart, const char *title,
		     const double *lo, const double *hi, const double *count, size_t n,
		     const char *xtitle, chart_tip_fn tip, void *ctx)
{
	struct svg g;
	struct svg_scale x, y;
	double cmax = 0, x0 = n ? lo[0] : 0, x1 = n ? hi[n - 1] : 1, ylo = 0;

	for (size_t i = 0; i < n; i++)
		cmax = fmax(cmax, count[i]);
	svg_nice_linear(&ylo, &cmax, 5);
	if (!(x1 > x0))
		x1 = x0 + 1;
	svg_begin(&g, ob, CHART_W, HI_BY + 44, chart, title);
	svg_scale_linear(&x, x0, x1, HI_LX, HI_RX);
	svg_scale_linear(&y, 0, cmax, HI_BY, HI_TY);
	svg_axis_x(&g, &x, HI_BY, HI_TY, xtitle, 10);
	svg_axis_y(&g, &y, HI_LX, HI_RX, "kernels", 5);
	for (size_t i = 0; i < n; i++) {
		double a = svg_map(&x, lo[i]), b = svg_map(&x, hi[i]), top;
		if (!(count[i] > 0))
			continue;
		if (b - a > 3)
			b -= 1;
		top = svg_map(&y, count[i]);
		svg_rect_open(&g, a, top, b - a, HI_BY - top, "#4e79a7");
		tip(&g, ctx, i);
		svg_close(&g);
	}
	svg_end(&g);
}
