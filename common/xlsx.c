#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "xalloc.h"
#include "xlsx.h"
#include "banned.h"

/* Excel's limits (Excel specifications and limits). */
enum {
	MAX_ROWS = 1048576,
	MAX_COLS = 16384,
	MAX_CELL = 32767,	/* UTF-16 code units a cell */
	MAX_NAME = 31,		/* UTF-16 code units a sheet name */
};

#define NS_MAIN "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
#define NS_REL "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
#define NS_PKG "http://schemas.openxmlformats.org/package/2006/relationships"
#define NS_CT "http://schemas.openxmlformats.org/package/2006/content-types"
#define CT_PREFIX "application/vnd.openxmlformats-officedocument.spreadsheetml."
#define XML_DECL "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"

/* A growing byte buffer: one zip part is built in memory, then written. */
struct xbuf {
	char *p;
	size_t len, alloc;
};

struct xlsx {
	struct archive *a;
	char *path, *tmp;	/* tmp is NULL when writing stdout */
	int fd;
	char **names;		/* sheet names as written */
	size_t n, alloc;
	int failed;		/* an I/O error, or data dropped */
	struct xbuf b;
};

/* What one sheet had to change, for the warnings. */
struct counts {
	size_t escaped, cut;
};

static void xb_put(struct xbuf *b, const char *s, size_t n)
{
	xgrow((void **)&b->p, &b->alloc, st_add(b->len, n), 1);
	tl_memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void xb_puts(struct xbuf *b, const char *s)
{
	xb_put(b, s, strlen(s));
}

static void xb_printf(struct xbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void xb_printf(struct xbuf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* only short, fixed texts (numbers, part names) come here */
	if (n < 0 || (size_t)n >= sizeof(tmp))
		tl_die("internal error: xlsx format overflow");
	xb_put(b, tmp, (size_t)n);
}

/*
 * Length of the valid UTF-8 sequence at s (at most left bytes), or 0.
 * Table cells are valid already (common/csv.c checks); file names need
 * not be.
 */
static size_t u8len(const unsigned char *s, size_t left)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2
		: s[0] < 0xF0 ? 3 : s[0] < 0xF5 ? 4 : 0;

	if (!n || n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) ||
	    (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
	    (n == 4 && s[0] == 0xF0 && s[1] < 0x90) ||
	    (n == 4 && s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* U+FFFE and U+FFFF: valid UTF-8, but not XML 1.0 characters. */
static int is_nonchar(const unsigned char *s, size_t clen)
{
	return clen == 3 && s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') ||
	       (c >= 'a' && c <= 'f');
}

/* Does s start with "_xHHHH_", text Excel would read as an escape? */
static int looks_escaped(const char *s, size_t n)
{
	if (n < 7 || s[0] != '_' || s[1] != 'x' || s[6] != '_')
		return 0;
	return is_hex(s[2]) && is_hex(s[3]) && is_hex(s[4]) && is_hex(s[5]);
}

/* One character of cell text, XML-escaped. */
static void put_char(struct xbuf *b, const char *s, size_t left, size_t clen,
		     struct counts *k)
{
	const unsigned char *u = (const unsigned char *)s;

	switch (s[0]) {
	case '&': xb_puts(b, "&amp;"); return;
	case '<': xb_puts(b, "&lt;"); return;
	case '>': xb_puts(b, "&gt;"); return;
	case '"': xb_puts(b, "&quot;"); return;
	case '\r': xb_puts(b, "&#13;"); return;	/* XML readers drop a raw CR */
	case '\t': case '\n': xb_put(b, s, 1); return;
	case '_':
		if (looks_escaped(s, left))
			xb_puts(b, "_x005F");
		xb_put(b, s, 1);
		return;
	}
	if (u[0] < 0x20 || is_nonchar(u, clen)) {
		xb_printf(b, "_x%04X_", u[0] < 0x20 ? u[0] : 0xFFF0u + (u[2] & 0x0F));
		k->escaped++;
		return;
	}
	xb_put(b, s, clen);
}

/* Cell text, cut at Excel's 32767 UTF-16 code units. */
static void put_text(struct xbuf *b, const char *s, size_t n, struct counts *k)
{
	size_t units = 0;

	for (size_t i = 0; i < n;) {
		size_t clen = u8len((const unsigned char *)s + i, n - i);
		size_t w = clen == 4 ? 2 : 1;
		if (!clen)
			clen = 1;	/* not from common/csv.c; copied as is */
		if (units + w > MAX_CELL) {
			k->cut++;
			return;
		}
		units += w;
		put_char(b, s + i, n - i, clen, k);
		i += clen;
	}
}

static size_t digits(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/*
 * A JSON number as Python writes ints and float reprs ("-12", "0.5",
 * "7.2192e-05", "1e+16"), finite as a double.
 */
static int is_number(const char *s, size_t n)
{
	char tmp[512];
	size_t i = 0, d;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		i = digits(s, i, n);
	else
		return 0;
	if (i < n && s[i] == '.') {
		d = ++i;
		if ((i = digits(s, i, n)) == d)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		d = i;
		if ((i = digits(s, i, n)) == d)
			return 0;
	}
	if (i != n || n >= sizeof(tmp))
		return 0;
	tl_memcpy(tmp, s, n);
	tmp[n] = '\0';
	return isfinite(strtod(tmp, NULL));
}

/* "A", "Z", "AA", ... "XFD" for col 0, 25, 26, ... 16383; then the row. */
static void put_ref(struct xbuf *b, size_t col, size_t row)
{
	char letters[8];
	size_t n = 0;

	col++;
	while (col) {
		letters[n++] = (char)('A' + (col - 1) % 26);
		col = (col - 1) / 26;
	}
	while (n)
		xb_put(b, &letters[--n], 1);
	xb_printf(b, "%zu", row);
}

static void put_cell(struct xbuf *b, const struct csv_field *f, size_t col,
		     size_t row, struct counts *k)
{
	if (!f->n)
		return;
	xb_puts(b, "<c r=\"");
	put_ref(b, col, row);
	if (is_number(f->s, f->n)) {
		xb_puts(b, "\"><v>");
		xb_put(b, f->s, f->n);
		xb_puts(b, "</v></c>");
	} else if ((f->n == 4 && !memcmp(f->s, "True", 4)) ||
		   (f->n == 5 && !memcmp(f->s, "False", 5))) {
		xb_puts(b, f->n == 4 ? "\" t=\"b\"><v>1</v></c>"
				     : "\" t=\"b\"><v>0</v></c>");
	} else {
		xb_puts(b, "\" t=\"inlineStr\"><is><t xml:space=\"preserve\">");
		put_text(b, f->s, f->n, k);
		xb_puts(b, "</t></is></c>");
	}
}

static void put_header(struct xbuf *b, const struct csv *c, size_t ncols,
		       struct counts *k)
{
	xb_puts(b, "<row r=\"1\">");
	for (size_t j = 0; j < ncols; j++) {
		xb_puts(b, "<c r=\"");
		put_ref(b, j, 1);
		xb_puts(b, "\" s=\"1\" t=\"inlineStr\"><is><t xml:space=\"preserve\">");
		put_text(b, c->names[j], strlen(c->names[j]), k);
		xb_puts(b, "</t></is></c>");
	}
	xb_puts(b, "</row>");
}

/* The head of a worksheet: used range, frozen header, first tab selected. */
static void put_sheet_head(struct xbuf *b, size_t nrows, size_t ncols, int first)
{
	xb_puts(b, XML_DECL "<worksheet xmlns=\"" NS_MAIN "\" xmlns:r=\"" NS_REL
		"\"><dimension ref=\"A1");
	if (ncols) {
		xb_puts(b, ":");
		put_ref(b, ncols - 1, nrows + 1);
	}
	xb_puts(b, "\"/><sheetViews><sheetView ");
	if (first)
		xb_puts(b, "tabSelected=\"1\" ");
	xb_puts(b, "workbookViewId=\"0\">");
	if (ncols)
		xb_puts(b, "<pane ySplit=\"1\" topLeftCell=\"A2\" "
			"activePane=\"bottomLeft\" state=\"frozen\"/>"
			"<selection pane=\"bottomLeft\"/>");
	xb_puts(b, "</sheetView></sheetViews>"
		"<sheetFormatPr defaultRowHeight=\"15\"/>");
}

/*
 * Starts a zip entry with fixed metadata, so that output is reproducible.
 * Its size is left unset so that a sheet can be written in pieces; with
 * zip64 off (xlsx_open) libarchive then puts sizes in a data descriptor.
 */
static void part_begin(struct xlsx *x, const char *name)
{
	struct archive_entry *e;

	if (x->failed & 2)
		return;
	e = archive_entry_new();
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	/* before 1980 in every time zone: libarchive writes the DOS minimum */
	archive_entry_set_mtime(e, 0, 0);
	if (archive_write_header(x->a, e) != ARCHIVE_OK) {
		tl_warn("%s: %s", x->path, archive_error_string(x->a));
		x->failed |= 2;
	}
	archive_entry_free(e);
}

/* Writes what b holds to the current entry and empties it. */
static void part_write(struct xlsx *x, struct xbuf *b)
{
	if (!(x->failed & 2) && b->len &&
	    archive_write_data(x->a, b->p, b->len) != (la_ssize_t)b->len) {
		tl_warn("%s: %s", x->path, archive_error_string(x->a));
		x->failed |= 2;
	}
	b->len = 0;
}

static void put_part(struct xlsx *x, const char *name, struct xbuf *b)
{
	part_begin(x, name);
	part_write(x, b);
}

/* A worksheet, written out a megabyte at a time. */
static void put_sheet(struct xlsx *x, const struct csv *c, size_t nrows,
		      size_t ncols, struct counts *k)
{
	struct xbuf *b = &x->b;

	put_sheet_head(b, nrows, ncols, x->n == 1);
	if (!ncols) {
		xb_puts(b, "<sheetData/></worksheet>");
		return;
	}
	xb_puts(b, "<sheetData>");
	put_header(b, c, ncols, k);
	for (size_t i = 0; i < nrows; i++) {
		xb_printf(b, "<row r=\"%zu\">", i + 2);
		for (size_t j = 0; j < ncols; j++)
			put_cell(b, csv_at(c, i, j), j, i + 2, k);
		xb_puts(b, "</row>");
		if (b->len >= (1 << 20))
			part_write(x, b);
	}
	xb_puts(b, "</sheetData></worksheet>");
}

/* Opens the temporary file beside path that xlsx_close renames. */
static int open_tmp(struct xlsx *x)
{
	size_t n = strlen(x->path);
	mode_t mask = umask(0);

	umask(mask);
	x->tmp = xmalloc(n + 8);
	tl_memcpy(x->tmp, x->path, n);
	tl_memcpy(x->tmp + n, ".XXXXXX", 8);
	x->fd = mkstemp(x->tmp);
	if (x->fd < 0) {
		tl_warn_errno("%s", x->path);
		return -1;
	}
	if (fchmod(x->fd, 0666 & ~mask) < 0)
		tl_warn_errno("%s", x->tmp);
	return 0;
}

static void free_x(struct xlsx *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->names[i]);
	free(x->names);
	free(x->path);
	free(x->tmp);
	free(x->b.p);
	free(x);
}

struct xlsx *xlsx_open(const char *path)
{
	struct xlsx *x = xcalloc(1, sizeof(*x));

	x->path = xstrdup(path);
	x->fd = 1;
	if (strcmp(path, "-") && open_tmp(x) < 0) {
		free_x(x);
		return NULL;
	}
	x->a = archive_write_new();
	if (archive_write_set_format_zip(x->a) != ARCHIVE_OK ||
	    archive_write_zip_set_compression_deflate(x->a) != ARCHIVE_OK ||
	    archive_write_set_format_option(x->a, "zip", "zip64", NULL) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(x->a, 1) != ARCHIVE_OK ||
	    archive_write_open_fd(x->a, x->fd) != ARCHIVE_OK) {
		tl_warn("%s: %s", path, archive_error_string(x->a));
		archive_write_free(x->a);
		if (x->tmp) {
			close(x->fd);
			unlink(x->tmp);
		}
		free_x(x);
		return NULL;
	}
	return x;
}

/* Appends name's first max UTF-16 units to b, with what Excel forbids as '_'. */
static void put_safe_name(struct xbuf *b, const char *name, size_t max)
{
	const unsigned char *u = (const unsigned char *)name;
	size_t units = 0, len = strlen(name);

	for (size_t i = 0; i < len;) {
		size_t clen = u8len(u + i, len - i);
		size_t w = clen == 4 ? 2 : 1;
		if (units + w > max)
			break;
		units += w;
		if (!clen || u[i] < 0x20 || strchr("[]:*?/\\", u[i]) ||
		    is_nonchar(u + i, clen))
			xb_put(b, "_", 1);
		else
			xb_put(b, name + i, clen);
		i += clen ? clen : 1;
	}
}

char *xlsx_sheet_name(const char *name)
{
	struct xbuf b = { 0 };

	put_safe_name(&b, name, MAX_NAME);
	if (!b.len)
		xb_puts(&b, "Sheet");
	if (b.p[0] == '\'')
		b.p[0] = '_';
	if (b.p[b.len - 1] == '\'')
		b.p[b.len - 1] = '_';
	if (b.len == 7 && !strncasecmp(b.p, "History", 7))
		xb_puts(&b, "_");	/* a name Excel keeps for itself */
	xb_put(&b, "", 1);
	return b.p;
}

static int name_taken(const struct xlsx *x, const char *name)
{
	for (size_t i = 0; i < x->n; i++)
		if (!strcasecmp(x->names[i], name))
			return 1;
	return 0;
}

/* The safe name, with "~2", "~3", ... in place of its end if taken. */
static char *unique_name(const struct xlsx *x, const char *name)
{
	char *safe = xlsx_sheet_name(name);
	char suffix[24];

	for (size_t k = 2; name_taken(x, safe); k++) {
		struct xbuf b = { 0 };
		int n = snprintf(suffix, sizeof(suffix), "~%zu", k);
		put_safe_name(&b, name, MAX_NAME - (size_t)n);
		xb_put(&b, suffix, (size_t)n + 1);
		free(safe);
		safe = b.p;
	}
	return safe;
}

/* Rows and columns that fit, with a warning for what does not. */
static void fit(struct xlsx *x, const struct csv *c, size_t *nrows, size_t *ncols)
{
	*nrows = c->nrows;
	*ncols = c->ncols;
	if (*nrows > MAX_ROWS - 1) {
		tl_warn("%s: %zu rows past Excel's limit of %d dropped",
			c->path, *nrows - (MAX_ROWS - 1), MAX_ROWS);
		*nrows = MAX_ROWS - 1;
		x->failed |= 1;
	}
	if (*ncols > MAX_COLS) {
		tl_warn("%s: %zu columns past Excel's limit of %d dropped",
			c->path, *ncols - MAX_COLS, MAX_COLS);
		*ncols = MAX_COLS;
		x->failed |= 1;
	}
}

void xlsx_add_csv(struct xlsx *x, const char *name, const struct csv *c)
{
	struct counts k = { 0, 0 };
	char *sheet = unique_name(x, name);
	char part[64];
	size_t nrows, ncols;

	if (strcmp(sheet, name))
		tl_warn("%s: sheet '%s' named '%s' (Excel: 31 characters, "
			"none of []:*?/\\, unique)", c->path, name, sheet);
	xgrow((void **)&x->names, &x->alloc, x->n + 1, sizeof(*x->names));
	x->names[x->n++] = sheet;
	fit(x, c, &nrows, &ncols);
	snprintf(part, sizeof(part), "xl/worksheets/sheet%zu.xml", x->n);
	part_begin(x, part);
	x->b.len = 0;
	put_sheet(x, c, nrows, ncols, &k);
	part_write(x, &x->b);
	if (k.escaped)
		tl_warn("%s: %zu characters XML cannot hold written as _xHHHH_",
			c->path, k.escaped);
	if (k.cut)
		tl_warn("%s: %zu cells cut to Excel's %d characters", c->path,
			k.cut, MAX_CELL);
}

static const char styles_xml[] = XML_DECL
	"<styleSheet xmlns=\"" NS_MAIN "\">"
	"<fonts count=\"2\">"
	"<font><sz val=\"11\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
	"<font><b/><sz val=\"11\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
	"</fonts>"
	"<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill>"
	"<fill><patternFill patternType=\"gray125\"/></fill></fills>"
	"<borders count=\"2\">"
	"<border><left/><right/><top/><bottom/><diagonal/></border>"
	"<border><left style=\"thin\"/><right style=\"thin\"/>"
	"<top style=\"thin\"/><bottom style=\"thin\"/><diagonal/></border>"
	"</borders>"
	"<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" "
	"borderId=\"0\"/></cellStyleXfs>"
	"<cellXfs count=\"2\">"
	"<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
	"<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"1\" xfId=\"0\" "
	"applyFont=\"1\" applyBorder=\"1\" applyAlignment=\"1\">"
	"<alignment horizontal=\"center\" vertical=\"top\"/></xf>"
	"</cellXfs>"
	"<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" "
	"builtinId=\"0\"/></cellStyles>"
	"</styleSheet>";

static const char root_rels_xml[] = XML_DECL
	"<Relationships xmlns=\"" NS_PKG "\">"
	"<Relationship Id=\"rId1\" Type=\"" NS_REL "/officeDocument\" "
	"Target=\"xl/workbook.xml\"/></Relationships>";

/* A sheet name as an XML attribute value (it is safe UTF-8 already). */
static void put_attr(struct xbuf *b, const char *s)
{
	struct counts k = { 0, 0 };

	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '_')	/* _xHHHH_ is text in attributes */
			xb_put(b, s + i, 1);
		else
			put_char(b, s + i, strlen(s + i), 1, &k);
	}
}

static void put_workbook(struct xlsx *x)
{
	x->b.len = 0;
	xb_puts(&x->b, XML_DECL "<workbook xmlns=\"" NS_MAIN "\" xmlns:r=\""
		NS_REL "\"><bookViews><workbookView activeTab=\"0\"/>"
		"</bookViews><sheets>");
	for (size_t i = 0; i < x->n; i++) {
		xb_puts(&x->b, "<sheet name=\"");
		put_attr(&x->b, x->names[i]);
		xb_printf(&x->b, "\" sheetId=\"%zu\" r:id=\"rId%zu\"/>", i + 1, i + 1);
	}
	xb_puts(&x->b, "</sheets></workbook>");
	put_part(x, "xl/workbook.xml", &x->b);

	x->b.len = 0;
	xb_puts(&x->b, XML_DECL "<Relationships xmlns=\"" NS_PKG "\">");
	for (size_t i = 0; i < x->n; i++)
		xb_printf(&x->b, "<Relationship Id=\"rId%zu\" Type=\"" NS_REL
			  "/worksheet\" Target=\"worksheets/sheet%zu.xml\"/>",
			  i + 1, i + 1);
	xb_printf(&x->b, "<Relationship Id=\"rId%zu\" Type=\"" NS_REL
		  "/styles\" Target=\"styles.xml\"/></Relationships>", x->n + 1);
	put_part(x, "xl/_rels/workbook.xml.rels", &x->b);
}

static void put_content_types(struct xlsx *x)
{
	x->b.len = 0;
	xb_puts(&x->b, XML_DECL "<Types xmlns=\"" NS_CT "\">"
		"<Default Extension=\"rels\" ContentType=\"application/"
		"vnd.openxmlformats-package.relationships+xml\"/>"
		"<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
		"<Override PartName=\"/xl/workbook.xml\" ContentType=\""
		CT_PREFIX "sheet.main+xml\"/>"
		"<Override PartName=\"/xl/styles.xml\" ContentType=\""
		CT_PREFIX "styles+xml\"/>");
	for (size_t i = 0; i < x->n; i++)
		xb_printf(&x->b, "<Override PartName=\"/xl/worksheets/sheet%zu.xml\""
			  " ContentType=\"" CT_PREFIX "worksheet+xml\"/>", i + 1);
	xb_puts(&x->b, "</Types>");
	put_part(x, "[Content_Types].xml", &x->b);
}

static void put_static(struct xlsx *x, const char *name, const char *text)
{
	struct xbuf b = { (char *)text, strlen(text), 0 };

	put_part(x, name, &b);
}

/* Closes the archive and the file; renames the temporary file into place. */
static void finish(struct xlsx *x, int keep)
{
	if (archive_write_close(x->a) != ARCHIVE_OK && keep) {
		tl_warn("%s: %s", x->path, archive_error_string(x->a));
		x->failed |= 2;
	}
	archive_write_free(x->a);
	if (!x->tmp)
		return;
	if (close(x->fd) < 0 && keep) {
		tl_warn_errno("%s", x->path);
		x->failed |= 2;
	}
	if (!keep || (x->failed & 2))
		unlink(x->tmp);
	else if (rename(x->tmp, x->path) < 0) {
		tl_warn_errno("%s", x->path);
		unlink(x->tmp);
		x->failed |= 2;
	}
}

int xlsx_close(struct xlsx *x)
{
	int failed;

	if (!x->n) {
		tl_warn("%s: no sheet to write", x->path);
		finish(x, 0);
		free_x(x);
		return -1;
	}
	put_static(x, "xl/styles.xml", styles_xml);
	put_workbook(x);
	put_static(x, "_rels/.rels", root_rels_xml);
	put_content_types(x);
	finish(x, 1);
	failed = x->failed;
	free_x(x);
	return failed ? -1 : 0;
}
