/*
 * par_lines: the lines of a file from an offset on, cut into parts of whole
 * lines (about a MiB each), each part made into output by a function in
 * one of two threads (the caller's and one more), the outputs written in
 * the parts' order.  For a stage whose lines depend only on state that is
 * read, not written, while they are made: tl-tree's node rows once the
 * tree is built.  The output is the same bytes as one thread's.
 *
 *	static void rows(void *ctx, char *lines, size_t len, struct outbuf *out);
 *	struct par_lines_job job = { rows, { &mine, &other }, NULL, NULL };
 *	if (par_lines_write(fd, 0, out, &job) < 0) ...   read error, errno set
 *
 * fn gets whole lines, each ending in '\n' (the file's last one may not:
 * lines[len] may then be written, a NUL say), which it may change in place,
 * and a memory outbuf (outbuf_open_mem) of
 * its own to write to; ctx[0] is passed in the caller's thread, ctx[1] in
 * the other.  done (when not NULL) is called in the caller's thread each
 * time a part's output is written: the input before upto is then used up.
 */
#ifndef TL_PAR_LINES_H
#define TL_PAR_LINES_H

#include <stddef.h>
#include <sys/types.h>

struct outbuf;

typedef void par_lines_fn(void *ctx, char *lines, size_t len, struct outbuf *out);

struct par_lines_job {
	par_lines_fn *fn;
	void *ctx[2];
	void (*done)(void *arg, off_t upto);
	void *done_arg;
};

int par_lines_write(int fd, off_t from, struct outbuf *out, const struct par_lines_job *job);

#endif
