#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "cat_inflate.h"
#include "err.h"
#include "xalloc.h"
#include "banned.h"

struct cat_inflate {
	int isal;		/* which of the two below is in use */
	z_stream zs;
	int zs_init;
#ifdef HAVE_ISAL
	struct inflate_state is;
#endif
	const char *err;
};

static int use_isal(void)
{
#ifdef HAVE_ISAL
	const char *e = getenv("TL_INFLATE");
	return !e || strcmp(e, "zlib") != 0;
#else
	return 0;
#endif
}

const char *cat_inflate_name(void)
{
	return use_isal() ? "isa-l" : "zlib";
}

struct cat_inflate *cat_inflate_new(void)
{
	struct cat_inflate *z = xcalloc(1, sizeof(*z));

	z->isal = use_isal();
	if (!z->isal) {
		/* 15 + 16: a gzip wrapper, the largest window */
		if (inflateInit2(&z->zs, 15 + 16) != Z_OK)
			tl_die("cannot start zlib");
		z->zs_init = 1;
	}
	cat_inflate_reset(z);
	return z;
}

void cat_inflate_free(struct cat_inflate *z)
{
	if (!z)
		return;
	if (z->zs_init)
		inflateEnd(&z->zs);
	free(z);
}

void cat_inflate_reset(struct cat_inflate *z)
{
	z->err = NULL;
	if (!z->isal) {
		inflateReset(&z->zs);
		return;
	}
#ifdef HAVE_ISAL
	isal_inflate_init(&z->is);
	z->is.crc_flag = ISAL_GZIP;	/* parse the header, check CRC and size */
#endif
}

const char *cat_inflate_error(const struct cat_inflate *z)
{
	return z->err ? z->err : "corrupt data";
}

/* Both libraries count in 32 bits: hand them at most that much. */
static unsigned clamp(size_t n)
{
	return n > UINT_MAX ? UINT_MAX : (unsigned)n;
}

static int run_zlib(struct cat_inflate *z, const unsigned char **in, size_t *in_n,
		    unsigned char **out, size_t *out_n)
{
	unsigned ai = clamp(*in_n), ao = clamp(*out_n);
	int r;

	z->zs.next_in = (unsigned char *)*in;
	z->zs.avail_in = ai;
	z->zs.next_out = *out;
	z->zs.avail_out = ao;
	r = inflate(&z->zs, Z_NO_FLUSH);
	*in += ai - z->zs.avail_in;
	*in_n -= ai - z->zs.avail_in;
	*out += ao - z->zs.avail_out;
	*out_n -= ao - z->zs.avail_out;
	if (r == Z_STREAM_END)
		return CAT_INFLATE_END;
	if (r == Z_OK || r == Z_BUF_ERROR)
		return CAT_INFLATE_OK;
	z->err = z->zs.msg ? z->zs.msg : "corrupt data";
	return CAT_INFLATE_ERROR;
}

#ifdef HAVE_ISAL
static const char *isal_msg(int r)
{
	switch (r) {
	case ISAL_INVALID_BLOCK: return "invalid block type";
	case ISAL_INVALID_SYMBOL: return "invalid code";
	case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER: return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
	default: return "corrupt data";
	}
}

static int run_isal(struct cat_inflate *z, const unsigned char **in, size_t *in_n,
		    unsigned char **out, size_t *out_n)
{
	unsigned ai = clamp(*in_n), ao = clamp(*out_n);
	int r;

	z->is.next_in = (uint8_t *)*in;
	z->is.avail_in = ai;
	z->is.next_out = *out;
	z->is.avail_out = ao;
	r = isal_inflate(&z->is);
	*in += ai - z->is.avail_in;
	*in_n -= ai - z->is.avail_in;
	*out += ao - z->is.avail_out;
	*out_n -= ao - z->is.avail_out;
	if (r != ISAL_DECOMP_OK) {
		z->err = isal_msg(r);
		return CAT_INFLATE_ERROR;
	}
	return z->is.block_state == ISAL_BLOCK_FINISH ? CAT_INFLATE_END : CAT_INFLATE_OK;
}
#endif

int cat_inflate_run(struct cat_inflate *z, const unsigned char **in, size_t *in_n,
		    unsigned char **out, size_t *out_n)
{
#ifdef HAVE_ISAL
	if (z->isal)
		return run_isal(z, in, in_n, out, out_n);
#endif
	return run_zlib(z, in, in_n, out, out_n);
}
