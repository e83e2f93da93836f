/*
 * input: the container layer.  One file argument (or "-" for stdin) gives
 * one or more byte streams of JSON: the file itself, plain or gzip
 * (several members, as zcat), or each *.json / *.json.gz member of a zip,
 * tar or tar.gz archive, in name order, a gzip member inflated too.
 * Formats are told by magic bytes, never by name: 1f 8b gzip, "PK\3\4"
 * (or the empty "PK\5\6") zip, "ustar" at offset 257 tar, also under gzip.
 *
 * Compressed data is inflated in a background thread into a ring of
 * blocks (8 MiB), so that parsing and inflating overlap (a .json.gz costs
 * about what zcat costs).  Archives on a pipe are spooled to an unlinked
 * temporary file first, since members are read in name order.
 *
 * HowTo:
 *
 *	struct cat_input *in = cat_input_open(path);      NULL: message printed
 *	while ((r = cat_input_next(in)) > 0) {
 *		printf("%s\n", cat_input_name(in));      "FILE" or "FILE:MEMBER"
 *		while ((n = cat_input_read(in, buf, size)) > 0)
 *			use n bytes;
 *		if (n < 0) report cat_input_error(in);   e.g. truncated gzip data
 *	}
 *	if (r < 0) report cat_input_error(in);           e.g. archive holds no trace
 *	cat_input_close(in);
 */
#ifndef TL_CAT_INPUT_H
#define TL_CAT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cat_input;

/* Open path ("-" is stdin); on failure print "tl-x: PATH: why", return NULL. */
struct cat_input *cat_input_open(const char *path);
/*
 * Inflate in the caller's thread as it reads, without the thread that
 * otherwise inflates megabytes ahead: for a reader of the first bytes
 * only (tl-cat --format).  Before the first cat_input_next.
 */
void cat_input_sync(struct cat_input *in);
/*
 * Inflate into a ring of 2 MiB instead of 8: for a reader that gains
 * nothing from reading further ahead (tl-fuse, whose own deflating is the
 * slower), and keeps the memory.  Before the first cat_input_next.
 */
void cat_input_small_ring(struct cat_input *in);
/* Go to the next stream: 1, 0 when there are no more, -1 on error. */
int cat_input_next(struct cat_input *in);
/* The current stream's name for #source: PATH or PATH:MEMBER. */
const char *cat_input_name(const struct cat_input *in);
/* Read up to n bytes of the current stream: count, 0 at its end, -1 on error. */
ssize_t cat_input_read(struct cat_input *in, char *buf, size_t n);
/*
 * The current stream's bytes in place, where it is a plain regular file
 * (not gzip, not an archive member, not a pipe): mapped, not copied into
 * a buffer.  cat_input_viewable says whether the stream can be read so
 * (it maps the first bytes to find out; 0: read it instead).
 * cat_input_view points *p at the bytes from stream offset off on and
 * returns how many there are: at least want, unless the file ends first
 * (0 at its end).  They stay valid until the next call, cat_input_next or
 * cat_input_close.  -1 on error (cat_input_error).  A file that shrinks
 * while it is viewed ends the process with a message and status 1.
 */
int cat_input_viewable(struct cat_input *in);
ssize_t cat_input_view(struct cat_input *in, uint64_t off, size_t want, const char **p);
/*
 * A compressed stream (gzip, an archive member) may be viewable too: its
 * bytes in the ring they are inflated into, where the ring can be mapped
 * twice in a row so that it never wraps.  cat_input_viewable then says
 * CAT_INPUT_RING (before the stream's first block is used up: sniffing
 * its first bytes by cat_input_read is fine), and cat_input_view gives at
 * most what the ring holds: CAT_INPUT_VIEW_FULL where want bytes do not
 * fit and the stream goes on.  The caller then copies what it needs of
 * the last view and reads on by cat_input_read, after cat_input_unview
 * with the offset it reads on from (the end of what it copied).
 */
enum { CAT_INPUT_FILE = 1, CAT_INPUT_RING = 2 };
#define CAT_INPUT_VIEW_FULL (-2)
void cat_input_unview(struct cat_input *in, uint64_t off);
/* The last error, without file name: "truncated gzip data" */
const char *cat_input_error(const struct cat_input *in);
/* "isa-l" or "zlib" when the current stream is gzip, else NULL. */
const char *cat_input_inflater(const struct cat_input *in);
void cat_input_close(struct cat_input *in);

#endif
