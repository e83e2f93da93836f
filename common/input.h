/*
 * input: the container layer.  One file argument (or "-" for stdin) gives
 * one or more byte streams of JSON: the file itself, plain or gzip
 * (several members, as zcat), or each *.json / *.json.gz member of a zip,
 * tar or tar.gz archive, in name order, a gzip member inflated too.
 * Formats are told by magic bytes, never by name: 1f 8b gzip, "PK\3\4"
 * (or the empty "PK\5\6") zip, "ustar" at offset 257 tar, also under gzip.
 *
 * Compressed data is inflated in a background thread into a small ring
 * of blocks, so that parsing and inflating overlap (a .json.gz costs
 * about what zcat costs).  Archives on a pipe are spooled to an unlinked
 * temporary file first, since members are read in name order.
 *
 * HowTo:
 *
 *	struct input *in = input_open(path);      NULL: message printed
 *	while ((r = input_next(in)) > 0) {
 *		printf("%s\n", input_name(in));      "FILE" or "FILE:MEMBER"
 *		while ((n = input_read(in, buf, size)) > 0)
 *			use n bytes;
 *		if (n < 0) report input_error(in);   e.g. truncated gzip data
 *	}
 *	if (r < 0) report input_error(in);           e.g. archive holds no trace
 *	input_close(in);
 */
#ifndef TL_INPUT_H
#define TL_INPUT_H

#include <stddef.h>
#include <sys/types.h>

struct input;

/* Open path ("-" is stdin); on failure print "tl-x: PATH: why", return NULL. */
struct input *input_open(const char *path);
/* Go to the next stream: 1, 0 when there are no more, -1 on error. */
int input_next(struct input *in);
/* The current stream's name for #source: PATH or PATH:MEMBER. */
const char *input_name(const struct input *in);
/* Read up to n bytes of the current stream: count, 0 at its end, -1 on error. */
ssize_t input_read(struct input *in, char *buf, size_t n);
/* The last error, without file name: "truncated gzip data" */
const char *input_error(const struct input *in);
void input_close(struct input *in);

#endif
