/*
 * outbuf_gzip: gzip output for an outbuf.  The caller writes plain bytes
 * to a pipe (outbuf_open_fd on the fd it gets back); a thread reads the
 * other end and deflates into the file, so compressing runs beside the
 * work that produces the bytes, on a second core.
 *
 *	int fd;
 *	struct outbuf_gzip *g = outbuf_gzip_open("out.json.gz", 1, &fd);
 *	struct outbuf *ob = outbuf_open_fd(fd);
 *	... write ...
 *	outbuf_close(ob);
 *	if (outbuf_gzip_close(g, fd) < 0) ...      closes fd, waits, reports
 *
 * outbuf_gzip_open dies with a message when the file cannot be created.
 * A write error in the thread (disk full) is reported by outbuf_gzip_close
 * ("tl-x: PATH: write error: why"), which then returns -1; until then the
 * thread keeps draining the pipe, so the writer never blocks or gets
 * SIGPIPE.
 */
#ifndef TL_OUTBUF_GZIP_H
#define TL_OUTBUF_GZIP_H

struct outbuf_gzip;

struct outbuf_gzip *outbuf_gzip_open(const char *path, int level, int *fd);
int outbuf_gzip_close(struct outbuf_gzip *g, int fd);

#endif
