/*
 * display: text written for a person to read (a terminal, report.md, the
 * HTML page, tl-tree's text views), as opposed to data: TSV, CSV and JSON
 * keep a trace's exact bytes, but a name shown on a terminal must not be
 * able to move the cursor, retitle the window or clear the screen.
 *
 * HowTo:
 *
 *	display_escape(ob, name, len, DISPLAY_MARKDOWN);   one table cell
 *	char *d = display_demangle(name);                 NULL if not mangled
 *	...; free(d);
 */
#ifndef TL_DISPLAY_H
#define TL_DISPLAY_H

#include <stddef.h>
#include <stdio.h>

struct outbuf;

enum {
	DISPLAY_TERMINAL = 0,	/* control characters escaped */
	DISPLAY_MARKDOWN = 1,	/* also '|' and '\\', for a Markdown table cell */
	DISPLAY_HTML = 2	/* also & < > " ' as character references, for
				 * HTML/SVG text and attribute values */
};

/*
 * Write s[0..n) with every control character (C0 bytes, DEL, and the C1
 * characters U+0080..U+009F in their UTF-8 form) and every byte that is
 * not valid UTF-8 written as \xHH; tab, newline and carriage return as
 * \t, \n, \r.  Valid UTF-8 text passes unchanged.  Linear in n.
 */
void display_escape(struct outbuf *ob, const char *s, size_t n, int mode);
/*
 * The same into dst[0..cap): tl_warn's messages, which name files and
 * events a trace controls (as git's vreportf does), put together whole
 * before one write.  The length written, or SIZE_MAX where it does not fit
 * (dst then holds a part).
 */
size_t display_escape_mem(char *dst, size_t cap, const char *s, size_t n, int mode);

/*
 * The demangled form of an Itanium C++ ABI name ("_ZN5aiter..." →
 * "aiter::..."), newly allocated, or NULL when name is not a mangled
 * name (or the demangler refuses it).  Uses the toolchain's C++ runtime
 * (__cxa_demangle), which every gcc and clang installation has.
 */
char *display_demangle(const char *name);

#endif
