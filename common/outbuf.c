#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void outbuf_flush(struct outbuf *ob)
{
	if (ob->fd < 0) {	/* a memory outbuf: room, not a write */
		grow(ob, ob->cap);
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
	write_all(ob->fd, ob->buf, ob->len);
	ob->len = 0;
	write_all(ob->fd, s, n);
}

void outbuf_close(struct outbuf *ob)
{
	if (!ob)
		return;
	if (ob->fd >= 0)
		outbuf_flush(ob);
	if (ob->own_fd && close(ob->fd) != 0)
		tl_die_errno("write error");
	free(ob->buf);
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
