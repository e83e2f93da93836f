/*
 * fuzz-cat: tl-cat's whole reader — the container layer (plain, gzip,
 * zip, tar, tar.gz, told by magic bytes), the top-level scanner (object
 * with traceEvents and other keys, or a bare array), the per-event
 * tokeniser and the event-row writer — on one input file, as tl-cat FILE
 * runs it; in TSV and, with keep-going, in NDJSON.
 *
 * Dictionary: json
 */
#include "cat.h"
#include "fuzz.h"
#include "outbuf.h"

static void one(const char *path, int ndjson, int keep_going)
{
	struct cat_opts o = { .ndjson = ndjson, .keep_going = keep_going };
	struct outbuf *ob = outbuf_open_fd(1);
	struct cat *c = cat_new(ob, &o);

	cat_file(c, path);
	cat_free(c);
	outbuf_close(ob);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fuzz_init("tl-cat");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	one(path, 0, 0);
	one(path, 1, 1);
	close(fd);
	return 0;
}
