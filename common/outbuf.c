#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "err.h"
#include "outbuf.h"
#include "word_scan.h"
#include "xalloc.h"
#include "banned.h"

#define OUTBUF_SIZE (1u << 18)

struct outbuf *outbuf_open_fd(int fd)
{
	struct outbuf *ob = xcalloc(1, sizeof(*ob));
	ob->buf = xmalloc(OUTBUF_SIZE);
	ob->cap = OUTBUF_SIZE;
	ob->fd = fd;
	return ob;
}

struct outbuf *outbuf_open_path(const char *path)
{
	struct outbuf *ob;
	int fd;

	if (!path || !strcmp(path, "-"))
		return outbuf_open_fd(1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		tl_die_errno("%s: cannot open for writing", path);
	ob = outbuf_open_fd(fd);
	ob->own_fd = 1;
	return ob;
}

struct outbuf *outbuf_open_mem(void)
{
	return outbuf_open_fd(-1);
}

/* A memory outbuf's room for n bytes more: it grows, doubling. */
static void grow(struct outbuf *ob, size_t n)
{
	size_t cap = ob->cap;

	while (cap - ob->len < n)
		cap = st_mult(cap, 2);
	if (cap != ob->cap) {
		ob->buf = xrealloc(ob->buf, cap);
		ob->cap = cap;
	}
}

static void write_all(int fd, const char *s, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			tl_die_errno("write error");
		}
		off += (size_t)n;
	}
}

/*
 * Lent pages: the buffers of the ring, mapped (not malloc's: one the pipe
 * still holds pages of is unmapped and replaced, never handed back to the
 * allocator, whose next user would write into them).  A pipe holds at most
 * its size in pages, one page a slot, and the newest ones: a buffer is free
 * again once that many pages were lent after its own.
 *
 * A full pipe does not stop the writer at once: a filled buffer waits in
 * the ring (up to QUEUE_MAX of them, 8 MiB) and is lent at a later flush,
 * once the reader has made room.  A writer and its reader each have
 * stretches where they are the slower (tl-cat on a run of python frames,
 * tl-tree on a run of the rows it keeps), longer than the few milliseconds
 * a pipe holds (1 MiB at most, for a user), and they waited for each
 * other in turn: tl-cat | tl-tree on the x20 bench trace left 1.76
 * core-seconds of the two cores idle, 1.41 with the queue (8 MiB: 2 and
 * 4 MiB gained less, 16 and 30 no more).
 */
enum { RING_MAX = 64, QUEUE_MAX = 32 };

struct outbuf_ring {
	char *buf[RING_MAX];
	size_t len[RING_MAX];		/* bytes filled, waiting to be lent */
	uint64_t lent_upto[RING_MAX];	/* pages lent up to its last lending */
	uint64_t pages;			/* pages lent in all */
	size_t page;
	size_t off;			/* bytes of the oldest waiting buffer lent */
	int n, cur;
	int first, nwait;		/* the oldest waiting buffer; how many wait */
	int max_wait;			/* at most this many wait (QUEUE_MAX or fewer) */
};

static char *ring_map(void)
{
	void *p = mmap(NULL, OUTBUF_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tl_die_errno("out of memory");
	return p;
}

int outbuf_lend_pages(struct outbuf *ob)
{
	struct outbuf_ring *r;
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);
	const char *e;
	int size, in_pipe;

	if (ob->fd < 0 || ob->ring || page <= 0 || OUTBUF_SIZE % (size_t)page ||
	    fstat(ob->fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return -1;
	/* 1 MiB: fewer wake-ups on both ends (failure is harmless) */
	fcntl(ob->fd, F_SETPIPE_SZ, 1 << 20);
	if ((size = fcntl(ob->fd, F_GETPIPE_SZ)) <= 0)
		return -1;
	r = xcalloc(1, sizeof(*r));
	r->page = (size_t)page;
	/* the buffers the pipe may hold, the one being filled, the one
	 * after it, and those waiting */
	in_pipe = (int)((size_t)size / OUTBUF_SIZE);
	r->n = in_pipe + 2 + QUEUE_MAX;
	/* tests ask for fewer, to have buffers replaced (t1014) */
	if ((e = getenv("TL_LEND_RING")) && atoi(e) > 0)
		r->n = atoi(e);
	if (r->n > RING_MAX)
		r->n = RING_MAX;
	/* never the next buffer to fill: so at most n - 2 wait */
	r->max_wait = r->n - 2 - in_pipe;
	if (r->max_wait < 0)
		r->max_wait = 0;
	if (r->max_wait > QUEUE_MAX)
		r->max_wait = QUEUE_MAX;
	for (int i = 0; i < r->n; i++)
		r->buf[i] = ring_map();
	outbuf_flush(ob);	/* what the malloc'd buffer holds goes by copy */
	free(ob->buf);
	ob->buf = r->buf[0];
	ob->ring = r;
	return 0;
}

/*
 * The next buffer of the ring, unmapped and replaced if the pipe may still
 * hold a page of it (the reader made the pipe bigger, or few pages went
 * since: a flush of a part-filled buffer).
 */
static void ring_next(struct outbuf *ob)
{
	struct outbuf_ring *r = ob->ring;
	int size = fcntl(ob->fd, F_GETPIPE_SZ);
	uint64_t slots = size > 0 ? (uint64_t)size / r->page : UINT64_MAX;

	r->cur = (r->cur + 1) % r->n;
	if (r->lent_upto[r->cur] && r->pages - r->lent_upto[r->cur] < slots) {
		munmap(r->buf[r->cur], OUTBUF_SIZE);
		r->buf[r->cur] = ring_map();
		r->lent_upto[r->cur] = 0;
	}
	ob->buf = r->buf[r->cur];
}

/*
 * Lends the waiting buffers, oldest first: waiting for the pipe to take
 * them while more than keep wait, and no longer than that.
 */
static void ring_drain(struct outbuf *ob, int keep)
{
	struct outbuf_ring *r = ob->ring;

	while (r->nwait) {
		int b = r->first, block = r->nwait > keep;
		struct iovec iov = { r->buf[b] + r->off, r->len[b] - r->off };
		ssize_t n = vmsplice(ob->fd, &iov, 1, block ? 0 : SPLICE_F_NONBLOCK);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && !block)
				return;
			tl_die_errno("write error");
		}
		r->off += (size_t)n;
		if (r->off < r->len[b])
			continue;
		/* a page cut by a short vmsplice takes two slots: counted
		 * once, which errs on the safe side */
		r->pages += (r->len[b] + r->page - 1) / r->page;
		r->lent_upto[b] = r->pages;
		r->off = 0;
		r->first = (b + 1) % r->n;
		r->nwait--;
	}
}

/* The buffer filled waits its turn; what the pipe takes now is lent. */
static void lend(struct outbuf *ob)
{
	struct outbuf_ring *r = ob->ring;

	if (!ob->len)
		return;
	if (!r->nwait)
		r->first = r->cur;
	r->len[r->cur] = ob->len;
	r->nwait++;
	ob->len = 0;
	ring_drain(ob, r->max_wait);
	ring_next(ob);
}

void outbuf_flush(struct outbuf *ob)
{
	if (ob->fd < 0) {	/* a memory outbuf: room, not a write */
		grow(ob, ob->cap);
		return;
	}
	if (ob->ring) {
		lend(ob);
		return;
	}
	write_all(ob->fd, ob->buf, ob->len);
	ob->len = 0;
}

void outbuf_write_through(struct outbuf *ob, const char *s, size_t n)
{
	if (ob->fd < 0) {
		outbuf_put(ob, s, n);
		return;
	}
	outbuf_flush(ob);
	if (ob->ring)
		ring_drain(ob, 0);
	write_all(ob->fd, s, n);
}

void outbuf_close(struct outbuf *ob)
{
	if (!ob)
		return;
	if (ob->fd >= 0)
		outbuf_flush(ob);
	if (ob->ring)
		ring_drain(ob, 0);
	if (ob->own_fd && close(ob->fd) != 0)
		tl_die_errno("write error");
	if (ob->ring) {
		/* the pipe keeps the pages it still holds */
		for (int i = 0; i < ob->ring->n; i++)
			munmap(ob->ring->buf[i], OUTBUF_SIZE);
		free(ob->ring);
	} else {
		free(ob->buf);
	}
	free(ob);
}

void outbuf_put_slow(struct outbuf *ob, const char *s, size_t n)
{
	while (n) {
		size_t k;
		if (ob->len == ob->cap)
			outbuf_flush(ob);
		k = ob->cap - ob->len;
		if (k > n)
			k = n;
		tl_memcpy(ob->buf + ob->len, s, k);
		ob->len += k;
		s += k;
		n -= k;
	}
}

char *outbuf_room(struct outbuf *ob, size_t n)
{
	if (ob->fd < 0)
		grow(ob, n);
	if (n > ob->cap)
		return NULL;
	if (ob->cap - ob->len < n)
		outbuf_flush(ob);
	return ob->buf + ob->len;
}

void outbuf_puts(struct outbuf *ob, const char *s)
{
	outbuf_put(ob, s, strlen(s));
}

/* 1 for the bytes TSV escapes: backslash, tab, newline, CR, NUL */
static inline int tsv_special(unsigned char c)
{
	return c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

/*
 * Nonzero when one of the eight bytes of w may need escaping: one below
 * 14 (NUL, tab, LF, CR among them) or a backslash.
 */
static inline uint64_t tsv_word_special(uint64_t w)
{
	return word_any_below(w, 14) | word_any_equal(w, '\\');
}

void outbuf_tsv(struct outbuf *ob, const char *s, size_t n)
{
	size_t i = 0, start = 0;

	/* most fields have nothing to escape: pass them eight bytes at a time */
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		tl_memcpy(&w, s + i, 8);
		if (tsv_word_special(w))
			break;
	}
	for (; i < n; i++) {
		char esc;
		/* most bytes are printable: skip them with one cheap test */
		if ((unsigned char)s[i] > '\\' || !tsv_special((unsigned char)s[i]))
			continue;
		switch (s[i]) {
		case '\\': esc = '\\'; break;
		case '\t': esc = 't'; break;
		case '\n': esc = 'n'; break;
		case '\r': esc = 'r'; break;
		default: esc = '0'; break;
		}
		outbuf_put(ob, s + start, i - start);
		outbuf_putc(ob, '\\');
		outbuf_putc(ob, esc);
		start = i + 1;
	}
	outbuf_put(ob, s + start, n - start);
}

void outbuf_printf(struct outbuf *ob, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		tl_die("printf format error");
	if ((size_t)n < sizeof(small)) {
		outbuf_put(ob, small, (size_t)n);
	} else {
		char *big = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		outbuf_put(ob, big, (size_t)n);
		free(big);
	}
}

void outbuf_u64(struct outbuf *ob, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	outbuf_put(ob, tmp + i, sizeof(tmp) - (size_t)i);
}

void outbuf_i64(struct outbuf *ob, int64_t v)
{
	if (v < 0) {
		outbuf_putc(ob, '-');
		outbuf_u64(ob, (uint64_t)0 - (uint64_t)v);
	} else {
		outbuf_u64(ob, (uint64_t)v);
	}
}
