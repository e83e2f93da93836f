/*
 * report_chart: the charts of tl-html's pages, drawn with svg.h from plain
 * arrays (the pages read the sheets; the charts know nothing of CSV).
 * Each chart is one <svg data-chart="NAME"> whose marks are counted by the
 * page's own check; the comment on each function says what one mark is.
 * A tooltip callback writes each mark's <title> text with svg_tip()/svg_tipf().
 *
 *	struct chart_bar b[] = { { name, len, 12.5, "#4e79a7", "12.500 ms · 63.9 %" }, ... };
 *	chart_bars(ob, "ops", "Top ops", b, n, tip, ctx);
 */
#ifndef TL_REPORT_CHART_H
#define TL_REPORT_CHART_H

#include <stddef.h>

#include "outbuf.h"
#include "svg.h"

typedef void (*chart_tip_fn)(struct svg *g, void *ctx, size_t i);

/* The timeline classes' colours: computation, exposed comm, exposed memcpy, idle. */
extern const char *const chart_class_color[4];
extern const char *const chart_class_name[4];
/* Colour i of a ten-colour palette (categories), grey for i = (size_t)-1. */
const char *chart_palette(size_t i);

/* Width (user units) every chart is drawn at; CSS scales it to the page. */
#define CHART_W 1000.0

/*
 * Stacked horizontal bars, one per row (a GPU, a rank, a collective), of
 * nseg segments each; every bar is drawn against the largest row total,
 * so bars of different totals compare.  One mark per segment > 0; the
 * tooltip callback gets i = row * nseg + segment.
 */
struct chart_stack {
	const char *label;	/* left of the bar (shown cut to fit) */
	size_t label_len;
	double v[4];
	char right[48];		/* right of the bar, e.g. "3.908 ms" */
};

void chart_stacked(struct outbuf *ob, const char *chart, const char *title,
		   const struct chart_stack *rows, size_t n, int nseg,
		   const char *const *colors, chart_tip_fn tip, void *ctx);

/*
 * Horizontal bars, one mark each, longest first as given: the name cut to
 * fit (monospace) on the left, or with CHART_NAMES_ABOVE on a line of its
 * own above the bar (long kernel names), the bar scaled to the largest
 * value, the text right of it (value, percent, cumulative percent).
 */
enum { CHART_NAMES_LEFT, CHART_NAMES_ABOVE };

struct chart_bar {
	const char *name;
	size_t name_len;
	double v;
	const char *color;
	char right[64];
};

void chart_bars(struct outbuf *ob, const char *chart, const char *title,
		const struct chart_bar *bars, size_t n, int names, chart_tip_fn tip, void *ctx);

/*
 * Paired bars: for each name, side a (blue) above side b (orange) on one
 * scale (a tl-diff folder's two traces).  Two marks per name (zero-width
 * bars too).
 */
struct chart_pair {
	const char *name;
	size_t name_len;
	double a, b;
	char right[64];
};

void chart_pairs(struct outbuf *ob, const char *chart, const char *title,
		 const struct chart_pair *p, size_t n, chart_tip_fn tip, void *ctx);

/*
 * The timeline strip: one track per row (a GPU's streams together, or one
 * stream), busy time per bin drawn as the height of the bin's column,
 * computation at the bottom, exposed comm and exposed memcpy above; equal
 * neighbouring columns merge.  One mark per row and class with any busy
 * time (a <path>); tooltip i = row * 3 + class.
 */
struct chart_strip_bin {
	double t0, t1;		/* µs from the span's start */
	double v[3];		/* µs busy per class */
};

struct chart_strip_row {
	const char *label;
	size_t label_len;
	const struct chart_strip_bin *bins;
	size_t nbins;
};

void chart_strip(struct outbuf *ob, const char *chart, const char *title,
		 const struct chart_strip_row *rows, size_t n, double span_us,
		 chart_tip_fn tip, void *ctx);

/*
 * The roofline plot: log-log FLOPS/Byte against TFLOPS/s, the memory roof
 * (bandwidth, GB/s; NaN: none) and one compute roof per peak, one circle
 * per point with area proportional to its weight (GPU time), larger ones
 * drawn first.  One mark per point.
 */
struct chart_point {
	double x, y, weight;
	const char *color;
};

struct chart_roof {
	const char *spec;
	double tflops;
};

void chart_roofline(struct outbuf *ob, const char *chart, const struct chart_point *p, size_t n,
		    double bw_gbps, const struct chart_roof *roofs, size_t nroofs,
		    chart_tip_fn tip, void *ctx);

/* A histogram: one mark per bin with a count > 0; tooltip i = bin. */
void chart_histogram(struct outbuf *ob, const char *chart, const char *title,
		     const double *lo, const double *hi, const double *count, size_t n,
		     const char *xtitle, chart_tip_fn tip, void *ctx);

#endif
