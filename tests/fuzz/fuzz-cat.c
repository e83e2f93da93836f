/*
 * fuzz-cat: tl-cat's whole reader — the container layer (plain, gzip,
 * zip, tar, tar.gz, told by magic bytes), the top-level scanner (object
 * with traceEvents and other keys, or a bare array), the per-event
 * tokeniser and the event-row writer — on one input file, as tl-cat FILE
 * runs it; in TSV and, with keep-going, in NDJSON.  The TSV is made twice,
 * the default way (rows straight from the text where it can) and jsmn's
 * (TL_JSON=jsmn): the bytes and the status must be the same.  The lean
 * TSV (--lean) must have the same lines but for "#dropped" ones, each the
 * first nine fields of the whole row, of a row with no corr to device.
 *
 * Dictionary: json
 */
#include "cat.h"
#include "fuzz.h"
#include "outbuf.h"

#include <string.h>

static void one(const char *path, int ndjson, int keep_going)
{
	struct cat_opts o = { .ndjson = ndjson, .keep_going = keep_going };
	struct outbuf *ob = outbuf_open_fd(1);
	struct cat *c = cat_new(ob, &o);

	cat_file(c, path);
	cat_free(c);
	outbuf_close(ob);
}

/* tl-cat FILE's TSV into the memory file out; its status.  jsmn: TL_JSON=jsmn. */
static int tsv(const char *path, int out, int jsmn, int lean)
{
	struct cat_opts o = { .lean = lean };
	struct outbuf *ob = outbuf_open_fd(out);
	struct cat *c;
	int r;

	if (jsmn)
		setenv("TL_JSON", "jsmn", 1);
	c = cat_new(ob, &o);	/* json_init reads TL_JSON */
	unsetenv("TL_JSON");
	r = cat_file(c, path);
	cat_free(c);
	outbuf_close(ob);
	return r;
}

/* The whole content of memory file fd (malloc'd, *n bytes). */
static char *slurp(int fd, size_t *n)
{
	off_t size = lseek(fd, 0, SEEK_END);
	char *b = malloc(size > 0 ? (size_t)size : 1);

	*n = 0;
	if (!b || size < 0 || pread(fd, b, (size_t)size, 0) != size)
		abort();
	*n = (size_t)size;
	return b;
}

/* The end of line p (its newline, or end). */
static const char *eol(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* p[0..n) holds k tabs before its end; where the k-th one is, or NULL. */
static const char *nth_tab(const char *p, size_t n, int k)
{
	const char *end = p + n;

	for (; p < end; p++)
		if (*p == '\t' && --k == 0)
			return p;
	return NULL;
}

/*
 * The lean TSV against the whole one: line by line the same, or a
 * "#dropped" line that is the whole row's first nine fields where its
 * corr, ext, seq, stream and device (fields 10 to 14) are empty.
 */
static int lean_matches(const char *a, size_t na, const char *l, size_t nl)
{
	const char *ae = a + na, *le = l + nl;

	while (a < ae && l < le) {
		const char *x = eol(a, ae), *y = eol(l, le);
		size_t n = (size_t)(x - a), m = (size_t)(y - l);

		if (m > 9 && !memcmp(l, "#dropped\t", 9)) {
			const char *t9 = nth_tab(a, n, 9), *t10 = nth_tab(a, n, 10);
			if (!t9 || !t10 || (size_t)(t9 - a) != m - 9 || memcmp(a, l + 9, m - 9) ||
			    n < (size_t)(t10 - a) + 5 || memcmp(t10, "\t\t\t\t\t", 5))
				return 0;
		} else if (n != m || memcmp(a, l, n)) {
			return 0;
		}
		a = x + 1;
		l = y + 1;
	}
	return a >= ae && l >= le;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd, fa, fb, fl, ra, rb, rl;
	size_t na, nb, nl;
	char *a, *b, *l;

	fuzz_init("tl-cat");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	fa = memfd_create("tsv-default", 0);
	fb = memfd_create("tsv-jsmn", 0);
	fl = memfd_create("tsv-lean", 0);
	if (fa < 0 || fb < 0 || fl < 0)
		abort();
	ra = tsv(path, fa, 0, 0);
	rb = tsv(path, fb, 1, 0);
	rl = tsv(path, fl, 0, 1);
	a = slurp(fa, &na);
	b = slurp(fb, &nb);
	l = slurp(fl, &nl);
	if (ra != rb || na != nb || memcmp(a, b, na)) {
		fprintf(stderr, "fuzz-cat: the default and jsmn ways differ (status %d, %d)\n",
			ra, rb);
		abort();
	}
	if (rl != ra || !lean_matches(a, na, l, nl)) {
		fprintf(stderr, "fuzz-cat: the lean TSV is not the whole one thinned (status %d, %d)\n",
			ra, rl);
		abort();
	}
	free(a);
	free(b);
	free(l);
	close(fa);
	close(fb);
	close(fl);
	one(path, 1, 1);
	close(fd);
	return 0;
}
