#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "cat_inflate.h"
#include "cat_input.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

#define PEEK_SIZE (64u << 10)	/* bytes read to tell the format */
#define ZIN_SIZE (256u << 10)	/* compressed bytes per read */
/*
 * The ring of inflated blocks: 8 MiB.  With tl-tree beside it there are
 * three threads for two cores, and the inflating one, a fifth of a core,
 * waits its turn to run for a few milliseconds at a time: a 2 MiB ring
 * (four blocks) ran dry meanwhile, and tl-cat | tl-tree on the x20 bench
 * trace left the cores idle 1.32 core-seconds, 0.84 with 8 MiB (sixteen
 * blocks; four of 2 MiB did as well: it is the size, not the wake-ups).
 * The pages are mapped twice, so RSS counts them twice: 16 MiB.  A
 * reader that gains nothing from reading further ahead asks for four
 * (cat_input_small_ring).
 */
#define NBLK 16
#define NBLK_SMALL 4
#define BLK_SIZE (512u << 10)
#define VIEW_SIZE (4u << 20)	/* bytes of a plain file mapped at a time */

enum { K_PLAIN, K_GZIP, K_ARCHIVE };

struct member {
	char *name;
	long ord;		/* position in the archive */
};

/*
 * The ring between the inflating thread (producer) and cat_input_read
 * (consumer).  head counts blocks filled, tail blocks used up.  Every
 * block but the last is filled whole, so block k holds the stream's bytes
 * from k * blk_size on.  Where it can be (memfd_create), the ring is one
 * buffer mapped twice in a row (mirror): any stretch of it that wraps
 * round is then contiguous too, and the consumer may scan the inflated
 * bytes where they lie (cat_input_view) instead of copying each into a
 * buffer of its own (the copy was 5 % of tl-cat's instructions on a
 * .json.gz).
 */
struct pump {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *blk[NBLK];
	size_t blen[NBLK];
	size_t blk_size;
	char *mirror;		/* nblk blocks mapped twice, or NULL: blk[] malloc'd */
	size_t nblk;		/* blocks in the ring: NBLK, or NBLK_SMALL */
	size_t head, tail, roff;
	uint64_t viewed;	/* the end of the last view (pump_view) */
	int done;		/* 1 at end, -1 on error (message in in->err) */
	int stop;		/* the consumer gave up */
};

struct cat_input {
	char *path;
	int fd, own_fd;
	int kind;
	int started;
	/* bytes already read from fd or the archive entry, replayed first */
	char *peek;
	size_t npeek, peek_off;
	/* archive */
	struct archive *ar;
	struct member *m;
	size_t nm, next;
	long cur_ord;
	char *name;
	/* gzip over the raw bytes of the current stream */
	int gz;
	struct cat_inflate *zi;
	int z_member_end;
	unsigned char *zin;
	const unsigned char *zp;	/* compressed bytes not yet inflated */
	size_t zn;
	struct pump *pump;
	int sync;		/* no pump: inflate as read (cat_input_sync) */
	int small_ring;		/* a ring of NBLK_SMALL blocks (cat_input_small_ring) */
	/* a plain regular file's bytes in place (cat_input_view) */
	int viewable;
	off_t start;		/* the fd's offset of the stream's byte 0 */
	uint64_t size;		/* the file's bytes from start, as last seen */
	char *map;		/* [mapoff, mapoff + maplen) of the file, then a guard page */
	size_t maplen;
	off_t mapoff;
	char err[256];
};

static ssize_t pump_view(struct cat_input *in, uint64_t off, size_t want, const char **p);

static void set_err(struct cat_input *in, const char *fmt, const char *arg)
{
	snprintf(in->err, sizeof(in->err), fmt, arg);
}

/* Raw bytes of the current stream: the peeked prefix, then fd or entry. */
static ssize_t raw_read(struct cat_input *in, char *buf, size_t n)
{
	ssize_t r;

	if (in->peek_off < in->npeek) {
		size_t k = in->npeek - in->peek_off;
		if (k > n)
			k = n;
		tl_memcpy(buf, in->peek + in->peek_off, k);
		in->peek_off += k;
		return (ssize_t)k;
	}
	if (in->kind == K_ARCHIVE) {
		r = archive_read_data(in->ar, buf, n);
		if (r < 0)
			set_err(in, "archive error: %s", archive_error_string(in->ar));
		return r < 0 ? -1 : r;
	}
	do
		r = read(in->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		set_err(in, "read error: %s", strerror(errno));
	return r;
}

/* Fill the peek buffer with up to want bytes (fewer at the end). */
static int peek_fill(struct cat_input *in, size_t want)
{
	size_t got = 0;

	if (!in->peek)
		in->peek = xmalloc(PEEK_SIZE);
	/* nothing to replay while filling */
	in->npeek = in->peek_off = 0;
	while (got < want) {
		ssize_t r = raw_read(in, in->peek + got, want - got);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	in->npeek = got;
	return 0;
}

static int is_gzip(const char *p, size_t n)
{
	return n >= 2 && (unsigned char)p[0] == 0x1f && (unsigned char)p[1] == 0x8b;
}

static int is_tar(const char *p, size_t n)
{
	return n >= 262 && !memcmp(p + 257, "ustar", 5);
}

static int is_zip(const char *p, size_t n)
{
	return n >= 4 && (!memcmp(p, "PK\3\4", 4) || !memcmp(p, "PK\5\6", 4));
}

const char *cat_input_inflater(const struct cat_input *in)
{
	return in->gz ? cat_inflate_name() : NULL;
}

/* Does the gzip data in the peek buffer hold a tar? */
static int gzip_holds_tar(const struct cat_input *in)
{
	unsigned char out[512], *o = out;
	const unsigned char *p = (const unsigned char *)in->peek;
	size_t pn = in->npeek, on = sizeof(out);
	struct cat_inflate *z = cat_inflate_new();

	while (on && pn && cat_inflate_run(z, &p, &pn, &o, &on) == CAT_INFLATE_OK)
		;
	cat_inflate_free(z);
	return is_tar((const char *)out, sizeof(out) - on);
}

/* ---- gzip ---- */

static int gz_start(struct cat_input *in)
{
	if (!in->zi)
		in->zi = cat_inflate_new();
	cat_inflate_reset(in->zi);
	if (!in->zin)
		in->zin = xmalloc(ZIN_SIZE);
	in->zn = 0;
	in->z_member_end = 0;
	return 0;
}

static void gz_end(struct cat_input *in)
{
	cat_inflate_free(in->zi);
	in->zi = NULL;
}

/*
 * After a gzip member: another member may follow (as zcat reads them);
 * zero bytes of padding are ignored; anything else is an error.
 * 1: a member follows, 0: end, -1 error.
 */
static int gz_next_member(struct cat_input *in)
{
	for (;;) {
		while (in->zn && !*in->zp) {
			in->zp++;
			in->zn--;
		}
		if (in->zn >= 2 || (in->zn == 1 && in->zp[0] != 0x1f))
			break;
		if (in->zn == 1)
			in->zin[0] = in->zp[0];
		in->zp = in->zin;
		ssize_t r = raw_read(in, (char *)in->zin + in->zn, ZIN_SIZE - in->zn);
		if (r < 0)
			return -1;
		if (r == 0) {
			if (in->zn) {
				set_err(in, "%s", "trailing garbage after gzip data");
				return -1;
			}
			return 0;
		}
		in->zn += (size_t)r;
	}
	if (!is_gzip((const char *)in->zp, in->zn)) {
		set_err(in, "%s", "trailing garbage after gzip data");
		return -1;
	}
	cat_inflate_reset(in->zi);
	in->z_member_end = 0;
	return 1;
}

/* Inflate up to n bytes into out: count, 0 at the end, -1 on error. */
static ssize_t gz_read(struct cat_input *in, char *out, size_t n)
{
	unsigned char *o = (unsigned char *)out;
	size_t on = n;

	while (on == n) {
		int r;
		if (in->z_member_end) {
			r = gz_next_member(in);
			if (r <= 0)
				return r;
		}
		if (!in->zn) {
			ssize_t k = raw_read(in, (char *)in->zin, ZIN_SIZE);
			if (k < 0)
				return -1;
			if (k == 0) {
				set_err(in, "%s", "truncated gzip data");
				return -1;
			}
			in->zp = in->zin;
			in->zn = (size_t)k;
		}
		r = cat_inflate_run(in->zi, &in->zp, &in->zn, &o, &on);
		if (r == CAT_INFLATE_END) {
			in->z_member_end = 1;
		} else if (r == CAT_INFLATE_ERROR) {
			set_err(in, "gzip data error: %s", cat_inflate_error(in->zi));
			return -1;
		}
	}
	return (ssize_t)(n - on);
}

/* The decompressed bytes of the current stream, in the producer thread. */
static ssize_t src_read(struct cat_input *in, char *buf, size_t n)
{
	return in->gz ? gz_read(in, buf, n) : raw_read(in, buf, n);
}

/* ---- a plain file's bytes in place ---- */

/*
 * A mapped file that shrinks while it is read (or whose device fails a
 * read) raises SIGBUS at the first byte gone, where read() would have
 * seen the end or an error.  The handler says so as every error is said,
 * with the byte, and exits; a fault outside the current view gets the
 * default action.  One view is current at a time (tl-cat reads its files
 * in turn).
 */
static struct {
	const struct cat_input *in;	/* the one with a view mapped, or NULL */
	char head[512];		/* "tl-x: FILE: byte " */
	size_t nhead;
} bus;

static const char bus_tail[] = ": read error: the file shrank, or its device failed, while it was read\n";

static void bus_handler(int sig, siginfo_t *si, void *uc)
{
	const struct cat_input *in = bus.in;
	const char *a = si->si_addr;
	char num[24];
	size_t k = sizeof(num);
	uint64_t at;
	int told;

	(void)uc;
	if (!in || a < in->map || a >= in->map + in->maplen) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	at = (uint64_t)(in->mapoff - in->start) + (uint64_t)(a - in->map);
	do
		num[--k] = (char)('0' + at % 10);
	while ((at /= 10) != 0);
	/* nothing to do if stderr fails: the exit status still says it */
	told = write(2, bus.head, bus.nhead) >= 0 && write(2, num + k, sizeof(num) - k) >= 0 &&
	       write(2, bus_tail, sizeof(bus_tail) - 1) >= 0;
	(void)told;
	_exit(TL_EXIT_BAD);
}

static void bus_watch(struct cat_input *in)
{
	static int installed;
	struct sigaction sa;

	snprintf(bus.head, sizeof(bus.head), "%s: %s: byte ", tl_progname(), in->name);
	bus.nhead = strlen(bus.head);
	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = bus_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	installed = 1;
}

static size_t page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (size_t)n : 4096;
}

/* A view's address space: its pages and the guard page after them. */
static size_t map_span(size_t len)
{
	size_t page = page_size();

	return (len + page - 1) / page * page + page;
}

static void view_unmap(struct cat_input *in)
{
	if (!in->map)
		return;
	bus.in = NULL;
	munmap(in->map, map_span(in->maplen));
	in->map = NULL;
	in->maplen = 0;
}

/* The file's size again: it may have grown since it was last seen. */
static int view_stat(struct cat_input *in)
{
	struct stat st;

	if (fstat(in->fd, &st) < 0) {
		set_err(in, "cannot stat: %s", strerror(errno));
		return -1;
	}
	in->size = st.st_size > in->start ? (uint64_t)(st.st_size - in->start) : 0;
	return 0;
}

/*
 * Map len bytes of the file from at (a page's start), followed by a page
 * that is not mapped, so that a read past the view faults instead of
 * quietly reading whatever lies there.  The pages are filled at once
 * (MAP_POPULATE): a fault a page would cost what the copy saves.
 */
static int view_map(struct cat_input *in, off_t at, size_t len)
{
	size_t span = map_span(len);
	int populate = 0;
	char *r;

#ifdef MAP_POPULATE
	populate = MAP_POPULATE;
#endif
	view_unmap(in);
	r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED) {
		set_err(in, "cannot map: %s", strerror(errno));
		return -1;
	}
	if (mmap(r, len, PROT_READ, MAP_SHARED | MAP_FIXED | populate, in->fd, at) == MAP_FAILED) {
		set_err(in, "cannot map: %s", strerror(errno));
		munmap(r, span);
		return -1;
	}
	/*
	 * A file not in memory yet (a cold one, a network file system's) is
	 * read as the view is filled: ask for the next view's bytes now, so
	 * that they come while this one is parsed, as read()'s readahead has
	 * them come.  In memory already, this costs nothing to speak of.
	 */
	posix_fadvise(in->fd, at + (off_t)len, VIEW_SIZE, POSIX_FADV_WILLNEED);
	in->map = r;
	in->maplen = len;
	in->mapoff = at;
	bus.in = in;
	return 0;
}

int cat_input_viewable(struct cat_input *in)
{
	const char *p;

	/* inflated bytes in the mirrored ring, none given back yet */
	if (in->pump && in->pump->mirror) {
		int whole;
		pthread_mutex_lock(&in->pump->mu);
		whole = in->pump->tail == 0;
		pthread_mutex_unlock(&in->pump->mu);
		return whole ? CAT_INPUT_RING : 0;
	}
	if (!in->viewable || in->kind != K_PLAIN)
		return 0;
	/*
	 * Size 0 is read: an empty file says so the same either way, and
	 * some file systems (procfs, some FUSE ones) give 0 for files that
	 * read() finds bytes in.
	 */
	bus_watch(in);
	if (view_stat(in) < 0 || in->size == 0 || cat_input_view(in, 0, 1, &p) < 0) {
		in->viewable = 0;	/* not mappable here: read it */
		return 0;
	}
	return 1;
}

ssize_t cat_input_view(struct cat_input *in, uint64_t off, size_t want, const char **p)
{
	size_t page = page_size();
	uint64_t at, end, from, len;

	if (in->pump)
		return pump_view(in, off, want, p);
	if (st_add(off, want) > in->size && view_stat(in) < 0)
		return -1;
	*p = "";
	if (off >= in->size)
		return 0;
	from = (uint64_t)in->start + off;
	end = from + (want < in->size - off ? want : in->size - off);
	if (!in->map || from < (uint64_t)in->mapoff || end > (uint64_t)in->mapoff + in->maplen) {
		at = from / page * page;
		len = end - at;
		if (len < VIEW_SIZE)
			len = VIEW_SIZE;
		/* an element larger than a view: double it, not a read's worth more */
		else if (in->map && len < 2 * (uint64_t)in->maplen)
			len = 2 * (uint64_t)in->maplen;
		if (len > (uint64_t)in->start + in->size - at)
			len = (uint64_t)in->start + in->size - at;
		if (view_map(in, (off_t)at, (size_t)len) < 0)
			return -1;
	}
	*p = in->map + (from - (uint64_t)in->mapoff);
	len = (uint64_t)in->mapoff + in->maplen - from;
	if (len > in->size - off)
		len = in->size - off;
	return (ssize_t)len;
}

/* ---- the inflating thread ---- */

static void *pump_main(void *arg)
{
	struct cat_input *in = arg;
	struct pump *p = in->pump;

	for (;;) {
		size_t slot, len = 0;
		ssize_t r = 1;

		int stop;

		pthread_mutex_lock(&p->mu);
		while (p->head - p->tail == p->nblk && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		slot = p->head % p->nblk;
		stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		while (len < p->blk_size && (r = src_read(in, p->blk[slot] + len,
							  p->blk_size - len)) > 0)
			len += (size_t)r;
		pthread_mutex_lock(&p->mu);
		p->blen[slot] = len;
		p->head++;
		if (r <= 0)
			p->done = r < 0 ? -1 : 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (r <= 0)
			break;
	}
	return NULL;
}

/*
 * The ring as one memfd mapped twice, back to back: NULL where that
 * cannot be done (no memfd, a block size not a multiple of the page).
 */
static char *mirror_map(size_t size)
{
	char *r;
	int fd;

	if (size % page_size())
		return NULL;
	fd = memfd_create("tl-cat-ring", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	r = ftruncate(fd, (off_t)size) == 0
		? mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
		: MAP_FAILED;
	if (r != MAP_FAILED &&
	    (mmap(r, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	     mmap(r + size, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)) {
		munmap(r, 2 * size);
		r = MAP_FAILED;
	}
	close(fd);	/* the mappings keep the memory */
	return r == MAP_FAILED ? NULL : r;
}

static void pump_start(struct cat_input *in)
{
	struct pump *p;
	const char *e;

	if (in->sync)
		return;
	p = xcalloc(1, sizeof(*p));
	p->nblk = in->small_ring ? NBLK_SMALL : NBLK;
	p->blk_size = BLK_SIZE;
	/* tests ask for small blocks, to wrap the ring round and outgrow it */
	if ((e = getenv("TL_CAT_PUMP_BLOCK")) && atol(e) > 0)
		p->blk_size = (size_t)atol(e);
	p->mirror = mirror_map(p->nblk * p->blk_size);
	for (size_t i = 0; i < p->nblk; i++)
		p->blk[i] = p->mirror ? p->mirror + i * p->blk_size : xmalloc(p->blk_size);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	in->pump = p;
	if (pthread_create(&p->th, NULL, pump_main, in))
		tl_die("cannot start a thread");
}

static void pump_stop(struct cat_input *in)
{
	struct pump *p = in->pump;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	if (p->mirror)
		munmap(p->mirror, 2 * p->nblk * p->blk_size);
	else
		for (size_t i = 0; i < p->nblk; i++)
			free(p->blk[i]);
	free(p);
	in->pump = NULL;
}

/* Take the next filled block, waiting for it; 0 with none left. */
static int pump_wait(struct pump *p)
{
	int r;

	pthread_mutex_lock(&p->mu);
	while (p->head == p->tail && !p->done)
		pthread_cond_wait(&p->cv, &p->mu);
	r = p->head != p->tail;
	pthread_mutex_unlock(&p->mu);
	return r;
}

static void pump_release(struct pump *p)
{
	pthread_mutex_lock(&p->mu);
	p->tail++;
	p->roff = 0;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static ssize_t pump_read(struct cat_input *in, char *buf, size_t n)
{
	struct pump *p = in->pump;

	while (pump_wait(p)) {
		size_t slot = p->tail % p->nblk;
		size_t k = p->blen[slot] - p->roff;
		/*
		 * a block used up is given back when the next is asked for,
		 * not at once: sniffing a stream's first bytes leaves its
		 * first block whole for cat_input_view
		 */
		if (!k) {
			pump_release(p);
			continue;
		}
		if (k > n)
			k = n;
		tl_memcpy(buf, p->blk[slot] + p->roff, k);
		p->roff += k;
		return (ssize_t)k;
	}
	/* done is final once the producer set it, and it has stopped */
	return p->done < 0 ? -1 : 0;
}

/* Give back the blocks wholly before stream byte off; under p->mu. */
static void give_back_before(struct pump *p, uint64_t off)
{
	while (p->tail < p->head && (uint64_t)(p->tail + 1) * p->blk_size <= off) {
		p->tail++;
		p->roff = 0;
		pthread_cond_broadcast(&p->cv);
	}
}

/* The bytes filled so far, from the stream's byte 0; under p->mu. */
static uint64_t pump_filled(const struct pump *p)
{
	return p->head ? (uint64_t)(p->head - 1) * p->blk_size + p->blen[(p->head - 1) % p->nblk] : 0;
}

/*
 * cat_input_view through the mirrored ring: the blocks before off are
 * given back, then the bytes from off are waited for up to off + want, as
 * far as the ring can hold them.  CAT_INPUT_VIEW_FULL where it cannot
 * (an element longer than about nblk - 1 blocks) and the stream goes on.
 */
static ssize_t pump_view(struct cat_input *in, uint64_t off, size_t want, const char **p)
{
	struct pump *pp = in->pump;
	uint64_t end, cap, target = off + want;
	int done;

	pthread_mutex_lock(&pp->mu);
	give_back_before(pp, off);
	cap = (uint64_t)(pp->tail + pp->nblk) * pp->blk_size;
	while ((end = pump_filled(pp)) < target && end < cap && !pp->done)
		pthread_cond_wait(&pp->cv, &pp->mu);
	done = pp->done;
	pthread_mutex_unlock(&pp->mu);
	if (end < target && !done)
		return CAT_INPUT_VIEW_FULL;
	/* an inflating error once the bytes before it are viewed, as read */
	if (end < target && done < 0 && end == pp->viewed)
		return -1;
	pp->viewed = end;
	*p = pp->mirror + off % (pp->nblk * pp->blk_size);
	return (ssize_t)(end - off);
}

/*
 * The consumer of a ring viewed so far goes on by cat_input_read from
 * byte off (it has the bytes before): the blocks before it given back,
 * the read offset in its block set.
 */
void cat_input_unview(struct cat_input *in, uint64_t off)
{
	struct pump *p = in->pump;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	give_back_before(p, off);
	p->roff = (size_t)(off - (uint64_t)p->tail * p->blk_size);
	pthread_mutex_unlock(&p->mu);
}

/* ---- archives ---- */

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->ord > y->ord) - (x->ord < y->ord);
}

static int is_trace_name(const char *s)
{
	size_t n = strlen(s);
	return (n > 5 && !strcmp(s + n - 5, ".json")) ||
	       (n > 8 && !strcmp(s + n - 8, ".json.gz"));
}

static int ar_open(struct cat_input *in)
{
	if (in->ar)
		archive_read_free(in->ar);
	in->ar = archive_read_new();
	archive_read_support_filter_all(in->ar);
	archive_read_support_format_zip(in->ar);
	archive_read_support_format_tar(in->ar);
	in->cur_ord = -1;
	if (lseek(in->fd, 0, SEEK_SET) != 0 ||
	    archive_read_open_fd(in->ar, in->fd, 1 << 16) != ARCHIVE_OK) {
		set_err(in, "cannot read archive: %s", archive_error_string(in->ar));
		return -1;
	}
	return 0;
}

/* Step the archive to the entry numbered ord. */
static int ar_seek(struct cat_input *in, long ord)
{
	struct archive_entry *e;

	if (in->cur_ord >= ord && ar_open(in) < 0)
		return -1;
	while (in->cur_ord < ord) {
		int r = archive_read_next_header(in->ar, &e);
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			set_err(in, "archive error: %s", r == ARCHIVE_EOF ? "entry vanished"
				: archive_error_string(in->ar));
			return -1;
		}
		in->cur_ord++;
	}
	return 0;
}

static int ar_list(struct cat_input *in)
{
	struct archive_entry *e;
	size_t alloc = 0;
	int r;

	if (ar_open(in) < 0)
		return -1;
	while ((r = archive_read_next_header(in->ar, &e)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		in->cur_ord++;
		if (archive_entry_filetype(e) != AE_IFREG || !name || !is_trace_name(name))
			continue;
		xgrow((void **)&in->m, &alloc, in->nm + 1, sizeof(*in->m));
		in->m[in->nm].name = xstrdup(name);
		in->m[in->nm++].ord = in->cur_ord;
	}
	if (r != ARCHIVE_EOF) {
		set_err(in, "archive error: %s", archive_error_string(in->ar));
		return -1;
	}
	if (!in->nm) {
		set_err(in, "%s", "archive holds no *.json or *.json.gz member");
		return -1;
	}
	tl_qsort(in->m, in->nm, sizeof(*in->m), member_cmp);
	return 0;
}

/* Copy what is left of a pipe, after the peeked bytes, into a temp file. */
static int spool(struct cat_input *in)
{
	char tmpl[4096], buf[1 << 16];
	const char *dir = getenv("TMPDIR");
	int fd;
	ssize_t r;

	snprintf(tmpl, sizeof(tmpl), "%s/tl-cat.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmpl);
	if (fd < 0) {
		set_err(in, "cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	unlink(tmpl);
	while ((r = raw_read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)r) != r) {
			set_err(in, "cannot write a temporary file: %s", strerror(errno));
			close(fd);
			return -1;
		}
	if (in->own_fd)
		close(in->fd);
	in->fd = fd;
	in->own_fd = 1;
	return r < 0 ? -1 : 0;
}

struct cat_input *cat_input_open(const char *path)
{
	struct cat_input *in = xcalloc(1, sizeof(*in));

	in->path = xstrdup(path);
	in->fd = 0;
	in->cur_ord = -1;
	if (strcmp(path, "-")) {
		in->fd = open(path, O_RDONLY);
		if (in->fd < 0) {
			tl_warn_errno("%s: cannot open", path);
			free(in->path);
			free(in);
			return NULL;
		}
		in->own_fd = 1;
	}
	/* a regular file can be mapped instead of read (cat_input_view) */
	in->start = lseek(in->fd, 0, SEEK_CUR);
	if (in->start >= 0) {
		struct stat st;
		in->viewable = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
	}
	if (peek_fill(in, PEEK_SIZE) < 0) {
		tl_warn("%s: %s", path, in->err);
		cat_input_close(in);
		return NULL;
	}
	if (is_gzip(in->peek, in->npeek))
		in->kind = gzip_holds_tar(in) ? K_ARCHIVE : K_GZIP;
	else if (is_zip(in->peek, in->npeek) || is_tar(in->peek, in->npeek))
		in->kind = K_ARCHIVE;
	if (in->kind == K_ARCHIVE) {
		/* keep the peeked bytes for spooling; open_archive decides */
		in->kind = K_PLAIN;
		in->peek_off = 0;
		if (lseek(in->fd, 0, SEEK_SET) != 0) {
			if (spool(in) < 0)
				goto fail;
		}
		in->kind = K_ARCHIVE;
		in->npeek = in->peek_off = 0;
		if (ar_list(in) < 0)
			goto fail;
	}
	return in;
fail:
	tl_warn("%s: %s", path, in->err);
	cat_input_close(in);
	return NULL;
}

static void stream_end(struct cat_input *in)
{
	view_unmap(in);
	pump_stop(in);
	gz_end(in);
	in->gz = 0;
}

/* Position on archive member k, sniff it for gzip, start inflating. */
static int member_start(struct cat_input *in, size_t k)
{
	size_t n = strlen(in->path) + strlen(in->m[k].name) + 2;

	if (ar_seek(in, in->m[k].ord) < 0)
		return -1;
	free(in->name);
	in->name = xmalloc(n);
	snprintf(in->name, n, "%s:%s", in->path, in->m[k].name);
	if (peek_fill(in, 2) < 0)
		return -1;
	in->gz = is_gzip(in->peek, in->npeek);
	if (in->gz && gz_start(in) < 0)
		return -1;
	pump_start(in);
	return 0;
}

int cat_input_next(struct cat_input *in)
{
	stream_end(in);
	if (in->kind != K_ARCHIVE) {
		if (in->started)
			return 0;
		in->started = 1;
		free(in->name);
		in->name = xstrdup(in->path);
		if (in->kind == K_GZIP) {
			in->gz = 1;
			if (gz_start(in) < 0)
				return -1;
			pump_start(in);
		}
		return 1;
	}
	if (in->next >= in->nm)
		return 0;
	return member_start(in, in->next++) < 0 ? -1 : 1;
}

const char *cat_input_name(const struct cat_input *in)
{
	return in->name;
}

ssize_t cat_input_read(struct cat_input *in, char *buf, size_t n)
{
	if (in->pump)
		return pump_read(in, buf, n);
	return src_read(in, buf, n);
}

void cat_input_sync(struct cat_input *in)
{
	in->sync = 1;
}

void cat_input_small_ring(struct cat_input *in)
{
	in->small_ring = 1;
}

const char *cat_input_error(const struct cat_input *in)
{
	return in->err;
}

void cat_input_close(struct cat_input *in)
{
	if (!in)
		return;
	stream_end(in);
	if (in->ar)
		archive_read_free(in->ar);
	for (size_t i = 0; i < in->nm; i++)
		free(in->m[i].name);
	free(in->m);
	if (in->own_fd)
		close(in->fd);
	free(in->zin);
	free(in->peek);
	free(in->name);
	free(in->path);
	free(in);
}
