/*
 * cat_inflate: one gzip member at a time, streaming.  The one place that
 * knows which inflater tl was built with: Intel ISA-L's igzip where the
 * build found it (libisal-dev; about 6x zlib's speed on traces), zlib
 * otherwise.  Both check the gzip header, CRC-32 and length; both give the
 * same bytes.  TL_INFLATE=zlib in the environment picks zlib in an ISA-L
 * build (tests run both; a user can rule out the fast path).
 *
 * HowTo:
 *
 *	struct cat_inflate *z = cat_inflate_new();
 *	for each member: cat_inflate_reset(z);
 *		while ((r = cat_inflate_run(z, &in, &in_n, &out, &out_n)) == CAT_INFLATE_OK)
 *			give more input (in_n == 0) or take the output (out_n == 0);
 *		r == CAT_INFLATE_END: member done, in/in_n hold what follows it
 *		r == CAT_INFLATE_ERROR: cat_inflate_error(z) says why
 *	cat_inflate_free(z);
 *
 * run consumes input and fills output and advances the pointers; it
 * returns OK when it needs more input or more room.
 */
#ifndef TL_CAT_INFLATE_H
#define TL_CAT_INFLATE_H

#include <stddef.h>

enum { CAT_INFLATE_ERROR = -1, CAT_INFLATE_OK = 0, CAT_INFLATE_END = 1 };

struct cat_inflate;

struct cat_inflate *cat_inflate_new(void);
void cat_inflate_free(struct cat_inflate *z);
/* Get ready for a new gzip member (after new or after END). */
void cat_inflate_reset(struct cat_inflate *z);
int cat_inflate_run(struct cat_inflate *z, const unsigned char **in, size_t *in_n,
		    unsigned char **out, size_t *out_n);
const char *cat_inflate_error(const struct cat_inflate *z);
/* "isa-l" or "zlib": the inflater cat_inflate_new picks now. */
const char *cat_inflate_name(void);

#endif
