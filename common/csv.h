/*
 * csv: an RFC 4180 reader that keeps every cell's text exactly, for the
 * report CSVs TraceLens (pandas DataFrame.to_csv) writes.
 *
 * HowTo:
 *
 *	struct csv c;
 *	if (csv_read(&c, "dir/ops_summary.csv") < 0)
 *		...;                 the reason is already on stderr
 *	for (r = 0; r < c.nrows; r++)
 *		use csv_at(&c, r, col)->s / ->n (not NUL-terminated)
 *	csv_release(&c);
 *
 * Rules (those of pandas.read_csv's C parser where it matters):
 *   - fields are separated by ',' and records end with LF, CRLF or CR;
 *     a field in double quotes may hold ',', '"' (written "") and line
 *     ends, which are kept as they are;
 *   - blank lines (also those of only spaces and tabs) are skipped; a
 *     UTF-8 byte order mark is dropped;
 *   - an empty file (or one with only blank lines) is a table with no
 *     columns and no rows, as pandas' EmptyDataError is read by TraceLens;
 *   - header names are renamed as pandas does: an empty name becomes
 *     "Unnamed: I", a repeated name "NAME.1", "NAME.2", ...
 * Errors (reported as "PROG: FILE:LINE: what", then csv_read returns -1):
 * a record with more or fewer fields than the header, text after a
 * closing quote, an unterminated quote, a NUL byte, invalid UTF-8.  pandas
 * fills a short record with NaN and glues text after a closing quote to
 * the field; a report TraceLens wrote has neither, so here they are
 * errors, not guesses.
 */
#ifndef TL_CSV_H
#define TL_CSV_H

#include <stddef.h>

struct csv_field {
	const char *s;		/* points into the table's buffer */
	size_t n;
};

struct csv {
	size_t ncols, nrows;
	char **names;		/* ncols header names, after renaming */
	struct csv_field *f;	/* nrows * ncols cells, row-major */
	size_t *line;		/* line where each data row starts (1-based) */
	char *buf;		/* the file's bytes, unescaped in place */
	char *path;		/* for messages */
};

/*
 * Reads and parses path; 0 on success, -1 (message printed) on error, in
 * which case nothing is left to release.
 */
int csv_read(struct csv *c, const char *path);
/*
 * Parses len bytes of buf, which the table takes over (it is freed by
 * csv_release); path is used in messages only.
 */
int csv_parse(struct csv *c, const char *path, char *buf, size_t len);
void csv_release(struct csv *c);
/* Index of the column called name, or -1. */
long csv_col(const struct csv *c, const char *name);

/*
 * The same table a row at a time, for a sheet too big to hold (a tl-diff
 * folder's diff_stats.csv): memory is one window of the file, whatever its
 * size.  Same rules and messages as csv_read; an error found in a later
 * row comes when that row is read, after the rows before it.
 *
 *	struct csv_rows *r = csv_rows_open(path);     NULL: message printed
 *	long k = csv_col(csv_rows_head(r), "kernel_time");
 *	while ((rc = csv_rows_next(r)) > 0)
 *		use csv_rows_field(r, k)->s / ->n (until the next csv_rows_next)
 *	if (rc < 0) ...;                              message printed
 *	csv_rows_close(r);
 */
struct csv_rows;

struct csv_rows *csv_rows_open(const char *path);
/* The same reading chunk bytes at a time (tests cross every boundary). */
struct csv_rows *csv_rows_open_chunk(const char *path, size_t chunk);
/* The header: ncols and names (csv_col works on it), no rows. */
const struct csv *csv_rows_head(const struct csv_rows *r);
/* Reads the next row: 1, 0 at the end, -1 on error (message printed). */
int csv_rows_next(struct csv_rows *r);
const struct csv_field *csv_rows_field(const struct csv_rows *r, size_t col);
/* The line where the current row starts (1-based). */
size_t csv_rows_line(const struct csv_rows *r);
void csv_rows_close(struct csv_rows *r);

static inline const struct csv_field *csv_at(const struct csv *c, size_t row,
					     size_t col)
{
	return &c->f[row * c->ncols + col];
}

#endif
