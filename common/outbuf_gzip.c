#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "outbuf_gzip.h"
#include "xalloc.h"
#include "banned.h"

#define CHUNK (1u << 18)

struct outbuf_gzip {
	char *path;
	gzFile gz;
	int rfd;
	pthread_t th;
	const char *err;	/* set by the thread on failure */
	int err_errno;
};

static void fail(struct outbuf_gzip *g, const char *why, int e)
{
	if (!g->err) {
		g->err = why;
		g->err_errno = e;
	}
}

/* The thread: pipe -> deflate -> file; after an error, only drains. */
static void *run(void *arg)
{
	struct outbuf_gzip *g = arg;
	char *buf = xmalloc(CHUNK);
	ssize_t n;

	for (;;) {
		n = read(g->rfd, buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(g, "read error", errno);
			break;
		}
		if (n == 0)
			break;
		if (!g->err && gzwrite(g->gz, buf, (unsigned)n) != (int)n)
			fail(g, "write error", errno);
	}
	free(buf);
	return NULL;
}

struct outbuf_gzip *outbuf_gzip_open(const char *path, int level, int *fd)
{
	struct outbuf_gzip *g = xcalloc(1, sizeof(*g));
	char mode[4] = "wb1";
	int p[2];

	if (level >= 0 && level <= 9)
		mode[2] = (char)('0' + level);
	g->path = xstrdup(path);
	g->gz = gzopen(path, mode);
	if (!g->gz)
		tl_die_errno("%s: cannot open for writing", path);
	gzbuffer(g->gz, CHUNK);
	if (pipe(p) < 0)
		tl_die_errno("pipe");
	g->rfd = p[0];
	*fd = p[1];
	if (pthread_create(&g->th, NULL, run, g) != 0)
		tl_die("%s: cannot start the compressing thread", path);
	return g;
}

int outbuf_gzip_close(struct outbuf_gzip *g, int fd)
{
	int rc = 0;

	close(fd);
	pthread_join(g->th, NULL);
	close(g->rfd);
	if (gzclose(g->gz) != Z_OK)
		fail(g, "write error", errno);
	if (g->err) {
		errno = g->err_errno;
		tl_warn_errno("%s: %s", g->path, g->err);
		rc = -1;
	}
	free(g->path);
	free(g);
	return rc;
}
