/*
 * outbuf: fast buffered output to a file descriptor, with the TSV escaping
 * every tl stream uses.  Write errors die with "tl-x: write error".
 *
 *	struct outbuf *ob = outbuf_open_fd(1);
 *	outbuf_put(ob, s, n); outbuf_tsv(ob, field, n); outbuf_putc(ob, '\n');
 *	outbuf_close(ob);            flushes and frees (does not close fd 1)
 *
 * TSV escaping (tl-stream(5)): backslash, tab, newline, carriage return and
 * NUL inside a field are written as \\ \t \n \r \0; nothing else changes.
 */
#ifndef TL_OUTBUF_H
#define TL_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct outbuf_ring;

struct outbuf {
	char *buf;
	size_t len, cap;
	int fd;
	int own_fd;
	struct outbuf_ring *ring;	/* lent pages (outbuf_lend_pages) */
};

struct outbuf *outbuf_open_fd(int fd);
/*
 * An outbuf that only collects (fd -1): it grows instead of writing, so
 * outbuf_flush makes room and writes nothing; its bytes are ob->buf[0..len),
 * outbuf_clear empties it.
 */
struct outbuf *outbuf_open_mem(void);
/* Opens (truncates) path for writing, or stdout for NULL or "-". */
struct outbuf *outbuf_open_path(const char *path);
void outbuf_flush(struct outbuf *ob);
/* The bytes pending, then s[0..n) straight to the fd: no copy, for big blocks. */
void outbuf_write_through(struct outbuf *ob, const char *s, size_t n);
void outbuf_close(struct outbuf *ob);
/*
 * From now on a flush lends the buffer's pages to the pipe fd by reference
 * (vmsplice(2)) instead of copying them into it, and the bytes after go to
 * the next of a ring of buffers, each used again only once the pipe can no
 * longer hold a page of it.  Half the cost of a pipe (the reader's copy
 * remains), for a reader that copies what it reads (read(2), as every tl
 * program does): one that moves the pages on (splice(2), as pv does) would
 * see them change.  0, or -1 where fd is no pipe (the outbuf writes as
 * before).
 */
int outbuf_lend_pages(struct outbuf *ob);
void outbuf_put_slow(struct outbuf *ob, const char *s, size_t n);
void outbuf_tsv(struct outbuf *ob, const char *s, size_t n);
void outbuf_puts(struct outbuf *ob, const char *s);
void outbuf_printf(struct outbuf *ob, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void outbuf_u64(struct outbuf *ob, uint64_t v);
void outbuf_i64(struct outbuf *ob, int64_t v);

/*
 * Room for up to n bytes stored straight into the buffer, for a writer
 * that knows a bound on what it writes: where they go, or NULL when n is
 * more than the buffer holds (a memory outbuf grows to hold them).
 * outbuf_wrote then takes the bytes up to end.
 */
char *outbuf_room(struct outbuf *ob, size_t n);

static inline void outbuf_wrote(struct outbuf *ob, const char *end)
{
	ob->len = (size_t)(end - ob->buf);
}

static inline void outbuf_clear(struct outbuf *ob)
{
	ob->len = 0;
}

static inline void outbuf_put(struct outbuf *ob, const char *s, size_t n)
{
	if (ob->cap - ob->len >= n) {
		if (n)	/* memcpy(p, NULL, 0) is undefined; callers pass (NULL, 0) */
			memcpy(ob->buf + ob->len, s, n);
		ob->len += n;
	} else {
		outbuf_put_slow(ob, s, n);
	}
}

static inline void outbuf_putc(struct outbuf *ob, char c)
{
	if (ob->len == ob->cap)
		outbuf_flush(ob);
	ob->buf[ob->len++] = c;
}

#endif
