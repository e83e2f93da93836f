/*
 * tap.h: the few TAP helpers the C unit tests in tests/unit/ share.
 * Each unit program prints "ok N - what" / "not ok N - what" lines and a
 * plan; a shell test in tests/ runs it.
 */
#ifndef TL_TAP_H
#define TL_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void tap_ok(int cond, const char *what)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, what);
}

static void tap_str(const char *got, const char *want, const char *what)
{
	tap_ok(!strcmp(got, want), what);
	if (strcmp(got, want))
		printf("#   got '%s', want '%s'\n", got, want);
}

static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
