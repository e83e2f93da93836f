/*
 * Unit tests for common/stream (the tl-stream(5) line reader): rows of
 * random fields, written here and TSV-escaped here, read back through
 * stream_next and compared with the fields as they were made.  The reader
 * cuts lines out of a 1 MiB buffer and finds tabs 16 bytes at a time, so
 * the rows cover every field length around those steps, a line longer
 * than the buffer, a last line without its newline, escapes,
 * and rows with too few or too many fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "err.h"
#include "outbuf.h"
#include "stream.h"
#include "xalloc.h"
#include "tap.h"
#include "xorshift.h"

enum { NCOLS = 5, NROWS = 3000 };



/* A field's bytes: mostly plain, sometimes a character that needs escaping. */
static size_t make_field(char *f, size_t max)
{
	static const char special[] = "\t\n\\\r";
	size_t n = rnd(4) ? rnd(40) : rnd((unsigned)max);

	for (size_t i = 0; i < n; i++)
		f[i] = rnd(50) ? (char)('a' + rnd(26)) : special[rnd(4)];
	return n;
}

static void put_escaped(FILE *fp, const char *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (f[i]) {
		case '\t': fputs("\\t", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\r': fputs("\\r", fp); break;
		default: fputc(f[i], fp);
		}
	}
}

struct row { char *f[NCOLS]; size_t n[NCOLS]; };

/* Writes NROWS random rows (row 7 holds a 3 MiB field); returns them. */
static struct row *write_rows(const char *path, int final_newline)
{
	struct row *rows = xcalloc(NROWS, sizeof(*rows));
	FILE *fp = fopen(path, "w");

	fputs("#tl-events 1\na\tb\tc\td\te\n#source\t0\tt.json\n", fp);
	for (int r = 0; r < NROWS; r++) {
		for (int j = 0; j < NCOLS; j++) {
			size_t max = r == 7 && j == 2 ? (3u << 20) : 200;
			rows[r].f[j] = xmalloc(max + 1);
			if (r == 7 && j == 2) {
				memset(rows[r].f[j], 'x', max);
				rows[r].n[j] = max;
			} else {
				rows[r].n[j] = make_field(rows[r].f[j], max);
			}
			if (j)
				fputc('\t', fp);
			put_escaped(fp, rows[r].f[j], rows[r].n[j]);
		}
		if (r + 1 < NROWS || final_newline)
			fputc('\n', fp);
	}
	fclose(fp);
	return rows;
}

static void free_rows(struct row *rows)
{
	for (int r = 0; r < NROWS; r++)
		for (int j = 0; j < NCOLS; j++)
			free(rows[r].f[j]);
	free(rows);
}

static void test_round_trip(int final_newline)
{
	char path[] = "/tmp/test-stream.XXXXXX";
	int fd = mkstemp(path), r = 0, bad = 0, rc, directives = 0;
	struct row *rows;
	struct stream *s;

	close(fd);
	rows = write_rows(path, final_newline);
	s = stream_open(path, "events");
	tap_ok(s && stream_ncols(s) == NCOLS, "header: five columns");
	while ((rc = stream_next(s)) > 0) {
		if (rc == STREAM_DIRECTIVE) {
			directives++;
			continue;
		}
		for (int j = 0; r < NROWS && j < NCOLS; j++)
			if (stream_field_len(s, j) != rows[r].n[j] ||
			    memcmp(stream_field(s, j), rows[r].f[j], rows[r].n[j]) ||
			    stream_field(s, j)[rows[r].n[j]] != '\0')
				bad++;
		r++;
	}
	tap_ok(rc == STREAM_EOF, "ends at end of input, not in error");
	tap_ok(r == NROWS, final_newline ? "every row read" :
	       "every row read, the last one without its newline");
	tap_ok(bad == 0, "every field as written (escapes undone, 3 MiB field whole)");
	tap_ok(directives == 1, "the #source directive handed back");
	tap_str(stream_trace(s), "t.json", "the #source directive's trace noted");
	tap_ok(stream_lineno(s) == NROWS + 3, "line numbers count every line");
	stream_close(s);
	free_rows(rows);
	unlink(path);
}

/* Every plain field length from 0 to 40 in every column position. */
static void test_lengths(void)
{
	char buf[8192], want[64];
	size_t len = 0;
	struct stream *s;
	FILE *fp;
	int bad = 0, rc, r = 0;

	len += (size_t)snprintf(buf, sizeof(buf), "#tl-events 1\na\tb\tc\n");
	for (int n = 0; n <= 40; n++) {
		for (int j = 0; j < 3; j++) {
			memset(buf + len, 'a' + j, (size_t)n);
			len += (size_t)n;
			buf[len++] = j < 2 ? '\t' : '\n';
		}
	}
	fp = fmemopen(buf, len, "r");
	s = stream_open_fp(fp, "mem", "events");
	while ((rc = stream_next(s)) == STREAM_ROW) {
		for (int j = 0; j < 3; j++) {
			memset(want, 'a' + j, (size_t)r);
			want[r] = '\0';
			if (strcmp(stream_field(s, j), want) || stream_field_len(s, j) != (size_t)r)
				bad++;
		}
		r++;
	}
	tap_ok(rc == STREAM_EOF && r == 41, "41 rows from a memory stream");
	tap_ok(bad == 0, "fields of every length 0..40 cut at their tabs");
	stream_close(s);
}

static int rows_of(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct stream *s = stream_open_fp(fp, "mem", "events");
	int rc, n = 0;

	while ((rc = stream_next(s)) == STREAM_ROW)
		n++;
	stream_close(s);
	return rc == STREAM_ERROR ? -1 - n : n;
}

static void test_wrong_fields(void)
{
	tap_ok(rows_of("#tl-events 1\na\tb\n1\t2\n3\n") == -2,
	       "a row with too few fields is an error after the good one");
	tap_ok(rows_of("#tl-events 1\na\tb\n1\t2\t3\n") == -1,
	       "a row with too many fields is an error");
	tap_ok(rows_of("#tl-events 1\na\tb\n1\\t\t2\t3\n") == -1,
	       "too many fields with an escape in the row");
	tap_ok(rows_of("#tl-events 1\na\tb\n\\\\x\t\\n\n") == 1,
	       "escaped backslash and newline are one field each");
	tap_ok(rows_of("#tl-events 1\na\tb\n") == 0, "header only: no rows");
}

/* The text of row 1 of a two-column stream, or "(null)". */
static char *row_text_of(const char *row)
{
	char buf[256];
	FILE *fp;
	struct stream *s;
	const char *t;
	size_t n = 0;
	char *got;

	snprintf(buf, sizeof(buf), "#tl-events 1\na\tb\n%s\n", row);
	fp = fmemopen(buf, strlen(buf), "r");
	s = stream_open_fp(fp, "mem", "events");
	t = stream_next(s) == STREAM_ROW ? stream_row_text(s, &n) : NULL;
	got = t ? xstrndup(t, n) : xstrdup("(null)");
	stream_close(s);
	return got;
}

static void test_row_text(void)
{
	char *got;

	tap_str(got = row_text_of("plain\tfield"), "plain\tfield",
		"stream_row_text: a plain row as read, tabs put back");
	free(got);
	tap_str(got = row_text_of("\t"), "\t", "stream_row_text: two empty fields");
	free(got);
	tap_str(got = row_text_of("a\\tb\tc"), "(null)",
		"stream_row_text: none for a row with an escape");
	free(got);
	tap_str(got = row_text_of("a\rb\tc"), "(null)",
		"stream_row_text: none for a raw CR (outbuf_tsv would escape it)");
	free(got);
}

/*
 * stream_row_text hands a row on as read only when writing its fields
 * back with outbuf_tsv gives the same bytes (tl-tree spools it so): for
 * every byte in a field, the row is handed on exactly when outbuf_tsv
 * leaves that byte alone, so the reader's scan and the writer's escape
 * set cannot drift apart unnoticed.
 */
static void test_row_text_escapes(void)
{
	int fd = open("/dev/null", O_WRONLY);
	struct outbuf *ob = outbuf_open_fd(fd);
	size_t bad = 0;

	for (int b = 1; b < 256; b++) {
		char field[4] = { 'x', (char)b, 'y', 0 }, row[8], *got;
		int kept;

		if (b == '\t' || b == '\n')
			continue;	/* they cut fields and rows */
		ob->len = 0;
		outbuf_tsv(ob, field, 3);
		kept = ob->len == 3 && !memcmp(ob->buf, field, 3);
		snprintf(row, sizeof(row), "%s\tz", field);
		got = row_text_of(row);
		if (kept ? strcmp(got, row) != 0 : strcmp(got, "(null)") != 0) {
			if (bad++ < 3)
				printf("# byte 0x%02x: outbuf_tsv %s it, stream_row_text gave '%s'\n",
				       b, kept ? "keeps" : "escapes", got);
		}
		free(got);
	}
	ob->len = 0;
	outbuf_close(ob);
	close(fd);
	tap_ok(bad == 0, "stream_row_text: a row as read exactly when outbuf_tsv keeps its bytes");
}

/*
 * "#dropped" rows: refused unless asked for; stream_peek_is on the row
 * as written, against the fields once cut (absent ones empty).
 */
static void test_dropped(void)
{
	static const char text[] =
		"#tl-nodes 1\n"
		"uid\tsrc\tcat\tname\tts\n"
		"#dropped\t0\t1\tac2g\ta\\tb\n"
		"#dropped\t1\t1\n";
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct stream *s = stream_open_fp(fp, "mem", "nodes");
	int ok;

	tap_ok(stream_next(s) == STREAM_ERROR, "a \"#dropped\" row stops a reader that did not ask");
	stream_close(s);
	fp = fmemopen((void *)text, strlen(text), "r");
	s = stream_open_fp(fp, "mem", "nodes");
	stream_allow_dropped(s);
	ok = stream_next(s) == STREAM_DROPPED;
	ok &= stream_peek_is(s, 2, "ac2g") == 1 && stream_peek_is(s, 2, "ac2") == 0;
	ok &= stream_peek_is(s, 1, "1") == 1 && stream_peek_is(s, 4, "") == 1;
	ok &= stream_peek_is(s, 3, "a\tb") == -1 && stream_peek_is(s, 3, "a") == 0;
	ok &= stream_peek_is(s, -1, "") == 1;
	ok &= stream_cut(s) == 0 && !strcmp(stream_field(s, 3), "a\tb") &&
	      !strcmp(stream_field(s, 4), "") && stream_peek_is(s, 3, "a\tb") == 1;
	ok &= stream_next(s) == STREAM_DROPPED && stream_peek_is(s, 2, "") == 1 &&
	      stream_peek_is(s, 2, "ac2g") == 0;
	ok &= stream_cut(s) == 0 && !strcmp(stream_field(s, 1), "1") &&
	      !strcmp(stream_field(s, 2), "");
	tap_ok(ok, "\"#dropped\" rows: fields as written and cut, absent ones empty");
	tap_ok(stream_next(s) == STREAM_EOF, "then the end");
	stream_close(s);
}

/*
 * Random rows of 0 to 24 fields under a header of 20 columns, some with
 * escapes, read uncut: "#dropped" rows (past 15 tabs the reader walks from
 * its last noted tab; past 20 the row is bad), the same with
 * stream_defer_cut (fewer tabs noted), and plain rows with it (a count of
 * fields other than 20 is bad, as when cut at once).  stream_peek_is on
 * the row as written must agree with its fields once cut (or say -1 for
 * a want with a byte TSV escapes), stream_peek give the field's value
 * where it says no escape is there, and the bad rows be refused exactly:
 * by stream_cut for "#dropped" rows, by stream_next for plain ones.
 */
enum { DROP_COLS = 20, DROP_ROWS = 2000, DROP_MAXF = 24 };
enum { UNCUT_DROPPED, UNCUT_DROPPED_DEFER, UNCUT_ROWS };

static int escapable_text(const char *w)
{
	return strpbrk(w, "\\\t\n\r") != NULL;
}

static const char *const uncut_name[] = {
	"\"#dropped\" rows", "\"#dropped\" rows, cut deferred", "rows, cut deferred"
};

/* Field count of random row r: plain rows mostly have the header's. */
static int random_nf(int mode)
{
	if (mode == UNCUT_ROWS)
		return rnd(5) ? DROP_COLS : (int)rnd(DROP_MAXF + 1);
	return rnd(6) ? 1 + (int)rnd(10) : (int)rnd(DROP_MAXF + 1);
}

/* The peeks at row r, before the cut, against its fields after. */
static int check_peeks(struct stream *s, int r, int nf, char f[][16], int *bad)
{
	const char *want[DROP_COLS + 4][3];
	int got[DROP_COLS + 4][3], plain_ok = 1;

	for (int i = -1; i < DROP_COLS + 3; i++) {
		int col = i < DROP_COLS ? i : -1, esc;
		const char *v = i >= 0 && i < nf ? f[i] : "";
		size_t len;
		const char *p = stream_peek(s, col, &len, &esc);
		if (!esc && (len != strlen(col < 0 ? "" : v) || memcmp(p, col < 0 ? "" : v, len)))
			plain_ok = 0;
		want[i + 1][0] = v;
		want[i + 1][1] = i >= 0 && i < nf ? f[(i + 1) % nf] : "a";
		want[i + 1][2] = "";
		for (int k = 0; k < 3; k++)
			got[i + 1][k] = stream_peek_is(s, col, want[i + 1][k]);
	}
	{
		/* the first k fields at once, where the row gives them so */
		const char *pf[DROP_COLS];
		size_t pl[DROP_COLS];
		int k = 1 + (int)rnd(15);
		if (stream_peek_first(s, k, pf, pl))
			for (int i = 0; i < k; i++) {
				const char *v = i < nf ? f[i] : "";
				if (pl[i] != strlen(v) || memcmp(pf[i], v, pl[i]) || escapable_text(v))
					plain_ok = 0;
			}
	}
	if (stream_cut(s) < 0)
		return -1;
	for (int i = -1; i < DROP_COLS + 3; i++) {
		int col = i < DROP_COLS ? i : -1;
		for (int k = 0; k < 3; k++) {
			const char *w = want[i + 1][k];
			int truth = stream_field_len(s, col) == strlen(w) &&
				    !memcmp(stream_field(s, col), w, strlen(w));
			if (got[i + 1][k] == truth || (got[i + 1][k] == -1 && escapable_text(w)))
				continue;
			if ((*bad)++ < 3)
				printf("# row %d field %d want #%d: %d, cut says %d\n", r, i, k,
				       got[i + 1][k], truth);
		}
	}
	if (!plain_ok && (*bad)++ < 3)
		printf("# row %d: stream_peek's unescaped text is not the value\n", r);
	return 0;
}

static void test_uncut_random(int mode)
{
	char path[] = "/tmp/test-stream-drop.XXXXXX";
	int fd = mkstemp(path), bad = 0, wrong_count = 0;
	static char f[DROP_ROWS][DROP_MAXF][16];
	static int nf[DROP_ROWS];
	FILE *fp = fdopen(fd, "w");
	struct stream *s;
	char title[128];

	fputs("#tl-nodes 1\nc0", fp);
	for (int j = 1; j < DROP_COLS; j++)
		fprintf(fp, "\tc%d", j);
	fputc('\n', fp);
	for (int r = 0; r < DROP_ROWS; r++) {
		nf[r] = random_nf(mode);
		if (mode != UNCUT_ROWS)
			fputs("#dropped\t", fp);
		for (int j = 0; j < nf[r] || (j == 0 && nf[r] == 0); j++) {
			size_t n = rnd(5) ? rnd(6) : rnd(15);
			for (size_t k = 0; k < n; k++)
				f[r][j][k] = rnd(12) ? (char)('a' + rnd(3)) : "\t\\\n\r"[rnd(4)];
			f[r][j][n] = '\0';
			if (nf[r] == 0) {	/* an empty line: one empty field */
				f[r][0][0] = '\0';
				nf[r] = 1;
			}
			if (j)
				fputc('\t', fp);
			put_escaped(fp, f[r][j], strlen(f[r][j]));
		}
		fputc('\n', fp);
	}
	fclose(fp);
	s = stream_open(path, "nodes");
	stream_allow_dropped(s);
	if (mode != UNCUT_DROPPED)
		stream_defer_cut(s, 1 + (int)rnd(DROP_COLS));
	for (int r = 0; r < DROP_ROWS; r++) {
		int k = stream_next(s), refused;

		if (mode == UNCUT_ROWS && k == STREAM_ERROR) {
			refused = 1;
		} else if (k != (mode == UNCUT_ROWS ? STREAM_ROW : STREAM_DROPPED)) {
			bad++;
			break;
		} else {
			refused = check_peeks(s, r, nf[r], f[r], &bad) < 0;
		}
		if (refused != (mode == UNCUT_ROWS ? nf[r] != DROP_COLS : nf[r] > DROP_COLS))
			wrong_count++;
	}
	stream_close(s);
	unlink(path);
	snprintf(title, sizeof(title), "%s: stream_peek_is before the cut agrees with the fields after",
		 uncut_name[mode]);
	tap_ok(bad == 0, title);
	snprintf(title, sizeof(title), "%s: refused exactly when their count of fields is wrong",
		 uncut_name[mode]);
	tap_ok(wrong_count == 0, title);
}

/* "#end SRC ELEMENTS SKIPPED": the count when it is a decimal up to 2^31 */
static void test_end_elements(void)
{
	static const struct { const char *end; int want; uint32_t n; } c[] = {
		{ "#end\t0\t4\t0", 1, 4 },
		{ "#end\t7\t0\t3", 1, 0 },
		{ "#end\t0\t2147483648\t0", 1, 2147483648u },
		{ "#end\t0\t12", 1, 12 },
		{ "#end\t0\t2147483649\t0", -1, 0 },
		{ "#end\t0\t99999999999999999999999\t0", -1, 0 },
		{ "#end\t0\t-9\t0", -1, 0 },
		{ "#end\t0\t\t0", -1, 0 },
		{ "#end\t0\t4x\t0", -1, 0 },
		{ "#end\t0\t 4\t0", -1, 0 },
		{ "#source\t0\tx.json", 0, 0 },
		{ "#end\t0", 0, 0 },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char text[160];
		FILE *fp;
		struct stream *s;
		uint32_t n = 77;
		int r;

		snprintf(text, sizeof(text), "#tl-events 1\nuid\tsrc\n%s\n", c[i].end);
		fp = fmemopen(text, strlen(text), "r");
		s = stream_open_fp(fp, "mem", "events");
		r = stream_next(s) == STREAM_DIRECTIVE ? stream_end_elements(s, &n) : -2;
		if (r != c[i].want || (r == 1 && n != c[i].n)) {
			if (bad++ < 3)
				printf("# '%s': %d, n %u\n", c[i].end, r, n);
		}
		stream_close(s);
	}
	tap_ok(bad == 0, "stream_end_elements: a decimal count up to 2^31, else -1; other lines 0");
}

/*
 * Rows of 40 fields, mostly empty or short: up to 16 tabs in one 16-byte
 * step of the splitter, some rows with an escape, some with one field too
 * many or too few (an error, told after the rows before it).
 */
static void test_many_fields(void)
{
	enum { NF = 40, NR = 2000 };
	char path[] = "/tmp/test-stream-many.XXXXXX";
	int fd = mkstemp(path), bad = 0, rc, rows = 0, r;
	static char f[NR][NF][24];
	static size_t n[NR][NF];
	int extra[NR];
	struct stream *s;
	FILE *fp = fdopen(fd, "w");

	fputs("#tl-events 1\n", fp);
	for (int j = 0; j < NF; j++)
		fprintf(fp, "%sc%d", j ? "\t" : "", j);
	fputc('\n', fp);
	for (r = 0; r < NR; r++) {
		/* the last row alone may have a field too many or too few */
		extra[r] = r == NR - 1 ? (int)rnd(3) - 1 : 0;
		for (int j = 0; j < NF + extra[r]; j++) {
			if (j)
				fputc('\t', fp);
			if (j == NF) {	/* the field too many */
				fputc('x', fp);
				continue;
			}
			n[r][j] = rnd(3) ? rnd(3) : rnd(20);
			for (size_t i = 0; i < n[r][j]; i++)
				f[r][j][i] = rnd(60) ? (char)('a' + rnd(26)) : '\t';
			put_escaped(fp, f[r][j], n[r][j]);
		}
		fputc('\n', fp);
	}
	fclose(fp);
	s = stream_open(path, "events");
	while ((rc = stream_next(s)) == STREAM_ROW) {
		for (int j = 0; j < NF; j++)
			if (stream_field_len(s, j) != n[rows][j] ||
			    memcmp(stream_field(s, j), f[rows][j], n[rows][j]))
				bad++;
		rows++;
	}
	tap_ok(bad == 0, "40 short fields a row: every field as written");
	tap_ok(rows == NR - (extra[NR - 1] != 0) &&
	       rc == (extra[NR - 1] ? STREAM_ERROR : STREAM_EOF),
	       "a row with a field too many or too few is an error");
	stream_close(s);
	unlink(path);
}

/*
 * Rows of 187 bytes (three of the AVX2 splitter's 64-byte steps) with one
 * escaped tab, or one CR, at every offset of every field: the fields as
 * written, and the row never handed on as it was read (stream_row_text).
 */
static void test_odd_byte_offsets(void)
{
	enum { NF = 11, FL = 17 };
	size_t bad = 0;

	for (int kind = 0; kind < 2; kind++) {
		for (int off = 0; off < NF * FL; off++) {
			char want[NF][FL + 1], text[512], *w = text;
			struct stream *s;
			FILE *fp;
			size_t n;

			w += sprintf(w, "#tl-events 1\n");
			for (int k = 0; k < NF; k++)
				w += sprintf(w, "%sc%d", k ? "\t" : "", k);
			*w++ = '\n';
			for (int k = 0; k < NF; k++) {
				memset(want[k], 'a' + k, FL);
				want[k][FL] = '\0';
			}
			want[off / FL][off % FL] = kind ? '\r' : '\t';
			for (int k = 0; k < NF; k++) {
				if (k)
					*w++ = '\t';
				for (int i = 0; i < FL; i++) {
					if (want[k][i] == '\t') {
						*w++ = '\\';
						*w++ = 't';
					} else {
						*w++ = want[k][i];
					}
				}
			}
			*w++ = '\n';
			fp = fmemopen(text, (size_t)(w - text), "r");
			s = stream_open_fp(fp, "mem", "events");
			if (!s || stream_next(s) != STREAM_ROW) {
				bad++;
			} else {
				for (int k = 0; k < NF; k++)
					if (stream_field_len(s, k) != FL ||
					    memcmp(stream_field(s, k), want[k], FL))
						bad++;
				if (stream_row_text(s, &n))
					bad++;
			}
			stream_close(s);
		}
	}
	tap_ok(bad == 0, "an escape or a CR at every offset of a 187-byte row: fields as written");
}

int main(void)
{
	tl_set_progname("test-stream");
	test_dropped();
	test_uncut_random(UNCUT_DROPPED);
	test_uncut_random(UNCUT_DROPPED_DEFER);
	test_uncut_random(UNCUT_ROWS);
	test_end_elements();
	test_round_trip(1);
	test_round_trip(0);
	test_lengths();
	test_odd_byte_offsets();
	test_many_fields();
	test_wrong_fields();
	test_row_text();
	test_row_text_escapes();
	return tap_done();
}
