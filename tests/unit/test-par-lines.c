/*
 * common/par_lines: a file's lines made into output in two threads and
 * written in order must be the bytes one thread writes, line by line, for
 * files cut anywhere: empty, one line, no last '\n', lines longer than a
 * part (1 MiB), lines ending right at a part's boundary, and from an
 * offset.  The expected output is made here by a plain loop.  Also
 * outbuf's memory mode, which par_lines gives each part.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outbuf.h"
#include "par_lines.h"
#include "tap.h"
#include "xorshift.h"

/* A thread's context: the lines it made, and that it got its own. */
struct count {
	size_t lines;
	int thread;
};

/* Each line as "LEN:LINE\n", so a line cut or joined shows. */
static void put_len(struct outbuf *ob, const char *s, size_t n)
{
	outbuf_u64(ob, n);
	outbuf_putc(ob, ':');
	outbuf_put(ob, s, n);
	outbuf_putc(ob, '\n');
}

static void lines_fn(void *ctx, char *lines, size_t len, struct outbuf *out)
{
	struct count *c = ctx;
	char *p = lines, *end = lines + len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		p[n] = '\0';	/* allowed: the byte after the lines is theirs */
		put_len(out, p, n);
		c->lines++;
		p += n + 1;
	}
}

struct done {
	off_t last;
	int backwards;
};

static void done_fn(void *arg, off_t upto)
{
	struct done *d = arg;

	if (upto < d->last)
		d->backwards = 1;
	d->last = upto;
}

/* The expected output of text[from..n), made one line at a time. */
static char *expect(const char *text, size_t n, size_t from, size_t *outlen)
{
	struct outbuf *ob = outbuf_open_mem();
	size_t i = from;
	char *r;

	while (i < n) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t k = (size_t)((nl ? nl : text + n) - (text + i));
		put_len(ob, text + i, k);
		i += k + 1;
	}
	*outlen = ob->len;
	r = malloc(ob->len + 1);
	memcpy(r, ob->buf, ob->len);
	outbuf_close(ob);
	return r;
}

/* Writes text to a temporary file, runs par_lines on it from from. */
static void check(const char *what, const char *text, size_t n, size_t from)
{
	char in[] = "/tmp/tl-par-in.XXXXXX", out[] = "/tmp/tl-par-out.XXXXXX", msg[160];
	int ifd = mkstemp(in), ofd = mkstemp(out);
	struct count c[2] = { { 0, 0 }, { 0, 1 } };
	struct done d = { 0, 0 };
	struct par_lines_job job = { lines_fn, { &c[0], &c[1] }, done_fn, &d };
	struct outbuf *ob;
	size_t wantlen, got = 0;
	char *want = expect(text, n, from, &wantlen), *buf = malloc(wantlen + 2);
	ssize_t r;
	int rc;

	if (ifd < 0 || ofd < 0 || write(ifd, text, n) != (ssize_t)n)
		abort();
	ob = outbuf_open_fd(ofd);
	outbuf_puts(ob, "head\n");	/* pending bytes go first */
	rc = par_lines_write(ifd, (off_t)from, ob, &job);
	outbuf_close(ob);
	while ((r = pread(ofd, buf + got, wantlen + 2 - got, (off_t)(5 + got))) > 0)
		got += (size_t)r;
	snprintf(msg, sizeof(msg), "%s: the lines in order, as one thread makes them", what);
	tap_ok(rc == 0 && got == wantlen && !memcmp(buf, want, wantlen), msg);
	snprintf(msg, sizeof(msg), "%s: done said where, never backwards, up to the end", what);
	tap_ok(!d.backwards && (n <= from || d.last == (off_t)n), msg);
	close(ifd);
	close(ofd);
	unlink(in);
	unlink(out);
	free(want);
	free(buf);
}

/* n bytes of lines of random lengths below maxlen. */
static char *random_lines(size_t n, unsigned maxlen)
{
	char *t = malloc(n);

	for (size_t i = 0; i < n;) {
		size_t k = maxlen ? rnd(maxlen) : 0;
		for (size_t j = 0; j < k && i < n; j++, i++)
			t[i] = (char)('a' + rnd(26));
		if (i < n)
			t[i++] = '\n';
	}
	return t;
}

static void test_mem_outbuf(void)
{
	struct outbuf *ob = outbuf_open_mem();
	char *p;
	int ok = 1;

	for (int i = 0; i < 300000; i++)
		outbuf_putc(ob, (char)('0' + i % 10));
	for (int i = 0; i < 300000 && ok; i++)
		ok = ob->buf[i] == '0' + i % 10;
	tap_ok(ok && ob->len == 300000, "a memory outbuf keeps every byte as it grows");
	p = outbuf_room(ob, 5u << 20);
	tap_ok(p == ob->buf + 300000 && ob->cap - ob->len >= (5u << 20),
	       "outbuf_room on a memory outbuf grows it to hold more than its size");
	outbuf_clear(ob);
	tap_ok(ob->len == 0, "outbuf_clear empties it");
	outbuf_close(ob);
}

int main(void)
{
	const size_t MB = 1u << 20;
	char *t;

	(void)tap_str;	/* tap.h's, unused here */
	test_mem_outbuf();
	check("an empty file", "", 0, 0);
	check("one line without its newline", "abc", 3, 0);
	check("one empty line", "\n", 1, 0);
	check("from past the end", "abc\n", 4, 4);
	check("from an offset", "skip\nkeep\nthis\n", 15, 5);

	t = random_lines(5 * MB + 12345, 300);
	check("5 MiB of short lines", t, 5 * MB + 12345, 0);
	check("5 MiB of short lines, without the last newline", t, 5 * MB + 12344, 0);
	check("5 MiB of short lines, from byte 7", t, 5 * MB + 12345, 7);
	free(t);

	/* 1024-byte lines: a newline on every part's last byte, and on every first */
	t = malloc(4 * MB);
	for (size_t i = 0; i < 4 * MB; i++)
		t[i] = i % 1024 == 1023 ? '\n' : 'x';
	check("newlines on the parts' last bytes", t, 4 * MB, 0);
	check("newlines on the parts' first bytes", t, 4 * MB, 1023);
	free(t);

	/* a line of 3 MiB across parts with no line start */
	t = random_lines(6 * MB, 200);
	memset(t + MB / 2, 'L', 3 * MB);
	check("a 3 MiB line across parts", t, 6 * MB, 0);
	t[6 * MB - 1] = 'L';
	memset(t + 3 * MB, 'L', 3 * MB);
	check("a last line of 3 MiB without its newline", t, 6 * MB, 0);
	free(t);

	{
		int fd = open("/", O_RDONLY);
		struct count c[2] = { { 0, 0 }, { 0, 1 } };
		struct par_lines_job job = { lines_fn, { &c[0], &c[1] }, NULL, NULL };
		struct outbuf *ob = outbuf_open_mem();
		int rc = par_lines_write(fd, 0, ob, &job);

		tap_ok(rc < 0 && errno == EISDIR, "a read error is -1 with its errno");
		outbuf_close(ob);
		close(fd);
	}
	return tap_done();
}
