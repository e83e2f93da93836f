/*
 * err: the one place that prints diagnostics, shaped like err(3).
 *
 * Every message reads "tl-x: WHERE: what" where WHERE is usually
 * "FILE" or "FILE:LINE" or "FILE: byte N".  Messages start lower-case and
 * have no full stop.  The *_errno variants append ": strerror(errno)".
 *
 * Exit codes are fixed for the whole project:
 *   TL_EXIT_OK (0), TL_EXIT_BAD (1, bad input or I/O), TL_EXIT_USAGE (2).
 */
#ifndef TL_ERR_H
#define TL_ERR_H

#include <stdarg.h>

enum { TL_EXIT_OK = 0, TL_EXIT_BAD = 1, TL_EXIT_USAGE = 2 };

/* Set once from main(): the name printed before every message. */
void tl_set_progname(const char *argv0);
const char *tl_progname(void);

void tl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tl_warn_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void tl_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void tl_die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tl_vwarn(const char *fmt, va_list ap);

/*
 * Called once at start-up: restores SIGPIPE to its default so that
 * "tl-cat big.json | head" ends quietly, and registers a check that stdout
 * was written and closed without error (exit 1 with "write error" if not).
 */
void tl_init(const char *argv0);

#endif
