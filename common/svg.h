/*
 * svg: inline SVG for the HTML report (tl-html): linear and log scales,
 * "nice" axis ticks with labels that do not overlap, text width estimates
 * to fit a label into a box, and the few elements the charts draw.  Every
 * piece of text goes through display_escape(DISPLAY_HTML), so a name with
 * '<', '&', quotes or control characters cannot break the page.
 *
 * HowTo:
 *
 *	struct svg g;
 *	struct svg_scale x;
 *	svg_scale_log(&x, 0.01, 1000, 60, 960);           domain → pixels
 *	svg_begin(&g, ob, 1000, 400, "roofline", "Roofline plot");
 *	svg_axis_x(&g, &x, 360, 20, "FLOPS/Byte");        ticks, grid, labels
 *	svg_circle_open(&g, svg_map(&x, 12.5), 200, 4, "#4e79a7");
 *	svg_tip(&g, name, len); svg_tipf(&g, "\n%.1f %%", pct);
 *	svg_close(&g);                                    one mark, with tooltip
 *	svg_end(&g);                                      writes the mark count
 *
 * A "mark" is one drawn datum (a bar, a point, a strip path): it has class
 * "mark" and a <title> tooltip, and svg_end() writes how many were drawn in
 * a data-marks attribute, which the page's own check compares with what
 * the browser parsed.  Coordinates print with at most two decimals, so the
 * same data always gives the same bytes.
 */
#ifndef TL_SVG_H
#define TL_SVG_H

#include <stddef.h>

struct outbuf;

/* ---- scales and ticks ------------------------------------------------ */

struct svg_scale {
	double d0, d1;		/* domain (data units); log: both > 0 */
	double r0, r1;		/* range (pixels); r1 < r0 for a y axis */
	int log;		/* base-10 logarithmic */
};

void svg_scale_linear(struct svg_scale *s, double d0, double d1, double r0, double r1);
void svg_scale_log(struct svg_scale *s, double d0, double d1, double r0, double r1);
/* Pixel position of v (log scale: v <= 0 maps to r0). */
double svg_map(const struct svg_scale *s, double v);

/*
 * Widen [*lo, *hi] to whole multiples of a 1-2-5 step giving about target
 * ticks (linear), or to whole decades (log; *lo > 0).  An empty or
 * invalid range becomes [0, 1] (linear) or [1, 10] (log).
 */
void svg_nice_linear(double *lo, double *hi, int target);
void svg_nice_log(double *lo, double *hi);

#define SVG_MAXTICKS 128

struct svg_tick {
	double v, pos;		/* value, pixel */
	int major;		/* has a label */
	char label[24];
};

/*
 * Ticks inside the scale's domain: linear, a 1-2-5 step for about target
 * ticks, each labelled with as many decimals as the step needs; log, every
 * decade labelled ("0.01" .. "10000", "1e-05", "1e+06" beyond), 2 and 5
 * labelled too when the domain spans at most two decades, and unlabelled
 * minor ticks 2..9 when it spans at most eight.  Returns the count (at
 * most max).
 */
size_t svg_ticks(const struct svg_scale *s, int target, struct svg_tick *t, size_t max);

/* ---- text ------------------------------------------------------------- */

enum svg_font { SVG_SANS, SVG_MONO };

/*
 * Estimated width in pixels of s[0..n) drawn at font_px, as it is shown
 * (control characters and invalid UTF-8 as \xHH): Helvetica's widths for
 * the sans font (DejaVu Sans, what Debian's browsers fall back to, is a
 * little wider, so the estimate errs on the wide side), 0.6 em per
 * character for the monospace one, East Asian wide characters 1 em.
 */
double svg_text_width(const char *s, size_t n, double font_px, enum svg_font f);
/*
 * How many bytes of s fit in width pixels when an ellipsis ("…") follows
 * them; n when the whole text fits without one.  Always a character
 * boundary.  Looks at no more bytes than the width can hold, so a 10 MB
 * name costs what a short one does.
 */
size_t svg_text_fit(const char *s, size_t n, double width, double font_px, enum svg_font f);
/*
 * The smallest k such that labelling every k-th of the n major ticks
 * (t[0], t[k], ...) leaves at least gap pixels between neighbouring labels
 * drawn centred on their positions (horizontal axis); 1 if they all fit.
 */
size_t svg_label_step(const struct svg_tick *t, size_t n, double font_px, double gap);

/* ---- drawing ---------------------------------------------------------- */

enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };

struct svg {
	struct outbuf *ob;
	size_t marks;		/* marks drawn so far */
	const char *open;	/* element whose <title> is open, or NULL */
	double w, h;
};

/* <svg> of w × h user units (scaled to the page width by CSS). */
void svg_begin(struct svg *g, struct outbuf *ob, double w, double h, const char *chart,
	       const char *label);
/* </svg>, after an empty <g data-marks="N"> telling how many marks were drawn. */
void svg_end(struct svg *g);

/* Numbers as the SVG is written: at most two decimals, no "-0". */
void svg_num(struct outbuf *ob, double v);

void svg_line(struct svg *g, double x1, double y1, double x2, double y2, const char *cls);
void svg_rect(struct svg *g, double x, double y, double w, double h, const char *fill);
/* Text (escaped), at x, y (baseline) with the anchor and CSS class given. */
void svg_text(struct svg *g, double x, double y, enum svg_anchor a, const char *cls,
	      const char *s, size_t n);
void svg_textf(struct svg *g, double x, double y, enum svg_anchor a, const char *cls,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/*
 * Text cut to fit width pixels (with "…"), the whole text in a tooltip when
 * it was cut; the font must be the one the CSS class sets.
 */
void svg_text_fitted(struct svg *g, double x, double y, enum svg_anchor a, const char *cls,
		     enum svg_font f, double font_px, double width, const char *s, size_t n);

/*
 * Marks: each opens an element with class "mark" and its <title>; write
 * the tooltip with svg_tip()/svg_tipf() (escaped; "\n" starts a new line),
 * then svg_close().
 */
void svg_rect_open(struct svg *g, double x, double y, double w, double h, const char *fill);
void svg_circle_open(struct svg *g, double cx, double cy, double r, const char *fill);
/*
 * A path of rectangles, one mark: svg_path_begin, svg_path_rect for each,
 * then svg_path_title and the tooltip, then svg_close.
 */
void svg_path_begin(struct svg *g, const char *fill);
void svg_path_rect(struct svg *g, double x, double y, double w, double h);
void svg_path_title(struct svg *g);
void svg_tip(struct svg *g, const char *s, size_t n);
/*
 * A name in a tooltip: at most SVG_TIP_MAX bytes of it (cut on a character
 * boundary), then "… (N bytes)" if it was cut.
 */
#define SVG_TIP_MAX 2000
void svg_tip_name(struct svg *g, const char *s, size_t n);
void svg_tipf(struct svg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void svg_close(struct svg *g);

/*
 * Axes: tick marks, grid lines across the plot (to grid_to: the y of the
 * plot's far edge for an x axis, the x for a y axis), tick labels thinned
 * so that none overlap, and the axis title.  An x axis is drawn at
 * pixel y, a y axis at pixel x.
 */
void svg_axis_x(struct svg *g, const struct svg_scale *s, double y, double grid_to,
		const char *title, int target);
void svg_axis_y(struct svg *g, const struct svg_scale *s, double x, double grid_to,
		const char *title, int target);

#endif
