/*
 * fuzz-cat: tl-cat's whole reader — the container layer (plain, gzip,
 * zip, tar, tar.gz, told by magic bytes), the top-level scanner (object
 * with traceEvents and other keys, or a bare array), the per-event
 * tokeniser and the event-row writer — on one input file, as tl-cat FILE
 * runs it; in TSV and, with keep-going, in NDJSON.  The TSV is made twice,
 * the default way (rows straight from the text where it can) and jsmn's
 * (TL_JSON=jsmn): the bytes and the status must be the same.
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
static int tsv(const char *path, int out, int jsmn)
{
	struct cat_opts o = { 0 };
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd, fa, fb, ra, rb;
	size_t na, nb;
	char *a, *b;

	fuzz_init("tl-cat");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	fa = memfd_create("tsv-default", 0);
	fb = memfd_create("tsv-jsmn", 0);
	if (fa < 0 || fb < 0)
		abort();
	ra = tsv(path, fa, 0);
	rb = tsv(path, fb, 1);
	a = slurp(fa, &na);
	b = slurp(fb, &nb);
	if (ra != rb || na != nb || memcmp(a, b, na)) {
		fprintf(stderr, "fuzz-cat: the default and jsmn ways differ (status %d, %d)\n",
			ra, rb);
		abort();
	}
	free(a);
	free(b);
	close(fa);
	close(fb);
	one(path, 1, 1);
	close(fd);
	return 0;
}
