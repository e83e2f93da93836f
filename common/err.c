#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "err.h"

static const char *progname = "tl";

void tl_set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	progname = slash ? slash + 1 : argv0;
}

const char *tl_progname(void)
{
	return progname;
}

/*
 * The message, its control characters escaped: it names files, archive
 * members and events that a trace controls, and a name must not be able to
 * retitle the terminal or clear it (display_escape_mem, as git's vreportf).
 * The line is put together first and written at once: tl-report's
 * programs share one stderr, and a message written in pieces came out
 * spliced into another's ("tl-perf: tl-timeline: ...").  No allocation on
 * the common path: tl_die reports failed allocations.
 */
static void put_message(const char *fmt, va_list ap, const char *tail)
{
	char small[1024], *buf = small, line[4096];
	size_t len, k;
	va_list aq;
	int n, fits;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (buf = malloc((size_t)n + 1)))
		vsnprintf(buf, (size_t)n + 1, fmt, aq);
	else if (n >= (int)sizeof(small))
		buf = small, n = (int)sizeof(small) - 1;
	va_end(aq);
	len = (size_t)snprintf(line, sizeof(line), "%s: ", progname);
	fits = len < sizeof(line);
	if (fits && n > 0) {
		k = display_escape_mem(line + len, sizeof(line) - len, buf, (size_t)n,
				       DISPLAY_TERMINAL);
		fits = k != SIZE_MAX;
		len += fits ? k : 0;
	}
	if (fits) {
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s\n",
					tail ? ": " : "", tail ? tail : "");
		fits = len < sizeof(line);
	}
	if (fits) {
		fwrite(line, 1, len, stderr);	/* stderr is unbuffered: one write */
	} else {
		/* longer than a line's buffer: in pieces, escaped a part at a time */
		fprintf(stderr, "%s: ", progname);
		for (size_t at = 0, part; n > 0 && at < (size_t)n; at += part) {
			part = (size_t)n - at < 512 ? (size_t)n - at : 512;
			/* not inside a UTF-8 sequence (4x512 bytes escaped fit) */
			while (part < (size_t)n - at && part > 508 && (buf[at + part] & 0xc0) == 0x80)
				part--;
			k = display_escape_mem(line, sizeof(line), buf + at, part, DISPLAY_TERMINAL);
			fwrite(line, 1, k, stderr);
		}
		if (tail)
			fprintf(stderr, ": %s", tail);
		fputc('\n', stderr);
	}
	if (buf != small)
		free(buf);
}

void tl_vwarn(const char *fmt, va_list ap)
{
	fflush(stdout);
	put_message(fmt, ap, NULL);
}

void tl_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tl_vwarn(fmt, ap);
	va_end(ap);
}

static void vwarn_errno(int e, const char *fmt, va_list ap)
{
	put_message(fmt, ap, strerror(e));
}

void tl_warn_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vwarn_errno(e, fmt, ap);
	va_end(ap);
}

void tl_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tl_vwarn(fmt, ap);
	va_end(ap);
	exit(TL_EXIT_BAD);
}

void tl_die_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vwarn_errno(e, fmt, ap);
	va_end(ap);
	exit(TL_EXIT_BAD);
}

/*
 * A full disk or a closed pipe must not look like success: check what
 * stdio could not tell us while the program ran, as git.c does at exit.
 */
static void check_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (errno == EPIPE)
			_exit(TL_EXIT_BAD);
		fprintf(stderr, "%s: write error: %s\n", progname, strerror(errno));
		_exit(TL_EXIT_BAD);
	}
}

void tl_init(const char *argv0)
{
	tl_set_progname(argv0);
	signal(SIGPIPE, SIG_DFL);
	atexit(check_stdout);
}
