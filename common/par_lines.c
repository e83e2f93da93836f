#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "err.h"
#include "outbuf.h"
#include "par_lines.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Part k is the lines that start in the k-th MiB of the input (from on),
 * read, made and written by the thread that takes it (in order: a thread
 * waits its turn to write), where one thread reading ahead and writing
 * for both had been the bottleneck.  Four parts in flight: one being
 * written, two being made, one made and waiting (tl-tree: about 9 MB in
 * all).
 */
enum { PART_SIZE = 1 << 20, NPART = 4 };

/* A slot's part: being made (by either thread), made, or free. */
enum { P_FREE, P_MAKING, P_MADE };

struct part {
	char *in;
	size_t cap;
	off_t upto;		/* the input offset after its lines */
	int state;
	int maker;		/* 0 the caller's thread, 1 the other */
	struct outbuf *out;
};

struct par {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct part part[NPART];
	int fd;
	off_t from, size;
	unsigned long nparts, ntaken, nwritten;
	int err;		/* a read's errno, or 0 */
	const struct par_lines_job *job;
};

/* Reads in[0..n) at off, short only at the end: the bytes read, or -1. */
static ssize_t read_at(int fd, char *in, size_t n, off_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, in + got, n - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/*
 * Part k's lines into p->in: those starting in [a, b), from the byte after
 * the first '\n' at or after a - 1 (at a for the first part) to the first
 * '\n' at or after b - 1, or the end.  *beg and *len say where they are
 * in p->in, whose byte after them is p->in's too.  0, or -1 on a read
 * error.
 */
static int read_part(struct par *q, struct part *p, unsigned long k, size_t *beg, size_t *len)
{
	off_t a = q->from + (off_t)k * PART_SIZE, b = a + PART_SIZE, at = k ? a - 1 : a;
	size_t want, got = 0, last, start;
	const char *nl = NULL;

	if (b > q->size)
		b = q->size;
	want = (size_t)(b - at) + 4096;
	last = (size_t)(b - 1 - at);
	for (;;) {
		ssize_t r;
		if (p->cap < want + 1) {
			p->cap = want + 1;
			p->in = xrealloc(p->in, p->cap);
		}
		r = read_at(q->fd, p->in + got, want - got, at + (off_t)got);
		if (r < 0)
			return -1;
		got += (size_t)r;
		/* the last line: ends at the first '\n' from b - 1 on */
		if (got > last)
			nl = memchr(p->in + last, '\n', got - last);
		if (nl || got < want)
			break;
		want = st_mult(want, 2);
	}
	*len = nl ? (size_t)(nl - p->in) + 1 : got;
	/*
	 * The first line: after the first '\n' from a - 1 on.  Where that is
	 * b - 1 or later, it is the last line's '\n' too, and the part is
	 * empty: no line starts in [a, b).
	 */
	start = 0;
	if (k) {
		nl = memchr(p->in, '\n', *len);
		start = nl ? (size_t)(nl - p->in) + 1 : *len;
	}
	*beg = start;
	*len -= start;
	p->upto = at + (off_t)(start + *len);
	return 0;
}

/* Makes part k in its slot with ctx; the lock held on entry and exit. */
static void make(struct par *q, unsigned long k, void *ctx)
{
	struct part *p = &q->part[k % NPART];
	size_t beg, len;
	int r, err;

	p->state = P_MAKING;
	pthread_mutex_unlock(&q->mu);
	outbuf_clear(p->out);
	r = read_part(q, p, k, &beg, &len);
	err = r < 0 ? errno : 0;
	if (r == 0 && len)
		q->job->fn(ctx, p->in + beg, len, p->out);
	pthread_mutex_lock(&q->mu);
	if (r < 0 && !q->err)
		q->err = err ? err : EIO;
	p->state = P_MADE;
	pthread_cond_broadcast(&q->cv);
}

/* Whether a part is left to take and has a free slot (the lock held). */
static int can_take(const struct par *q)
{
	return !q->err && q->ntaken < q->nparts && q->ntaken - q->nwritten < NPART;
}

/*
 * Thread t's loop, the same in both: write the next part when it made it,
 * else make one, else wait.  Each part is written by the thread that made
 * it, so its output is copied out of that core's cache, not the other's
 * (the other way cost 12-16 % more CPU).
 */
static void work(struct par *q, int t, struct outbuf *out)
{
	pthread_mutex_lock(&q->mu);
	while (!q->err && q->nwritten < q->nparts) {
		struct part *w = &q->part[q->nwritten % NPART];

		if (q->nwritten < q->ntaken && w->state == P_MADE && w->maker == t) {
			pthread_mutex_unlock(&q->mu);
			outbuf_write_through(out, w->out->buf, w->out->len);
			if (q->job->done)
				q->job->done(q->job->done_arg, w->upto);
			pthread_mutex_lock(&q->mu);
			w->state = P_FREE;
			q->nwritten++;
			pthread_cond_broadcast(&q->cv);
		} else if (can_take(q)) {
			q->part[q->ntaken % NPART].maker = t;
			make(q, q->ntaken++, q->job->ctx[t]);
		} else {
			pthread_cond_wait(&q->cv, &q->mu);
		}
	}
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

struct helper_arg {
	struct par *q;
	struct outbuf *out;
};

static void *helper(void *arg)
{
	struct helper_arg *h = arg;

	work(h->q, 1, h->out);
	return NULL;
}

int par_lines_write(int fd, off_t from, struct outbuf *out, const struct par_lines_job *job)
{
	struct par q;
	struct stat st;
	struct helper_arg h;
	pthread_t th;
	int err;

	if (fstat(fd, &st) < 0)
		return -1;
	memset(&q, 0, sizeof(q));
	q.job = job;
	q.fd = fd;
	q.from = from;
	q.size = st.st_size;
	q.nparts = st.st_size > from ? (unsigned long)((st.st_size - from - 1) / PART_SIZE + 1) : 0;
	for (int i = 0; i < NPART; i++)
		q.part[i].out = outbuf_open_mem();
	if (pthread_mutex_init(&q.mu, NULL) || pthread_cond_init(&q.cv, NULL))
		tl_die("cannot make a lock");
	h.q = &q;
	h.out = out;
	if ((err = pthread_create(&th, NULL, helper, &h)) != 0) {
		errno = err;
		tl_die_errno("cannot start a thread");
	}
	work(&q, 0, out);
	pthread_join(th, NULL);
	pthread_cond_destroy(&q.cv);
	pthread_mutex_destroy(&q.mu);
	for (int i = 0; i < NPART; i++) {
		free(q.part[i].in);
		outbuf_close(q.part[i].out);
	}
	errno = q.err;
	return q.err ? -1 : 0;
}
