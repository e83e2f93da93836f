/*
 * html: the HTML document around tl-html's charts: one self-contained
 * file (inline CSS, inline SVG, one small inline script, no request to
 * anywhere), readable with JavaScript off.  The script only adds what a
 * page can do without: tables sort when a header is clicked, and the page
 * checks itself (below).
 *
 *	html_begin(ob, "tl report: trace.json.gz");
 *	html_section(ob, "roofline", "Roofline");
 *	... svg.h charts, html_p(), tables ...
 *	html_section_end(ob);
 *	html_end(ob);
 *
 *	html_table_begin(ob, "ops", cols, ncols);    cols[i]: "n:GPU time (ms)" is numeric
 *	html_tr(ob);
 *	html_td_text(ob, name, len, HTML_TD_NAME); html_td_num(ob, 12.5, 3); ...
 *	html_tr_end(ob);
 *	html_table_end(ob);
 *
 * The page's own check: at load, the script counts the SVG elements of
 * class "mark" inside each <svg data-chart="NAME"> as the browser parsed
 * them, compares each count with the data-marks the writer recorded
 * (svg_end()), and writes "NAME=COUNT ..." into the data-counts attribute
 * of the element with id "tl-check", with data-ok="1" when every count
 * agrees and data-resources set to the number of resources the page
 * loaded (none, for a page that is whole by itself).  A test reads them
 * with a headless browser's --dump-dom.
 */
#ifndef TL_HTML_H
#define TL_HTML_H

#include <stddef.h>

struct outbuf;

void html_begin(struct outbuf *ob, const char *title);
void html_end(struct outbuf *ob);

/* Escaped text (control characters as \xHH, & < > " ' as references). */
void html_text(struct outbuf *ob, const char *s, size_t n);
void html_str(struct outbuf *ob, const char *s);
/* Formatted text, escaped after formatting; at most 4 KiB. */
void html_printf(struct outbuf *ob, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void html_section(struct outbuf *ob, const char *id, const char *title);
void html_section_end(struct outbuf *ob);

/* A chart legend: n coloured keys. */
void html_legend(struct outbuf *ob, const char *const *label, const char *const *color, size_t n);

/*
 * Tables.  A column named "n:TITLE" is numeric (right-aligned, sorts by
 * value); others sort as text.  Long text in a cell is cut at max bytes
 * (at a character boundary, "…" and the full length after it), so a
 * 10 MB name gives a readable page.
 */
void html_table_begin(struct outbuf *ob, const char *id, const char *const *cols, size_t n);
void html_table_end(struct outbuf *ob);
void html_tr(struct outbuf *ob);
void html_tr_end(struct outbuf *ob);

enum { HTML_TD_TEXT, HTML_TD_NAME };

#define HTML_CELL_MAX 2000

void html_td_text(struct outbuf *ob, const char *s, size_t n, int kind);
/* A number with prec decimals, its full value in data-v for sorting; NaN: empty. */
void html_td_num(struct outbuf *ob, double v, int prec);

#endif
