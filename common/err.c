#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void tl_vwarn(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(e));
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
