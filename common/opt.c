#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "banned.h"

void tl_usage(const char *usage, int status)
{
	fputs(usage, status ? stderr : stdout);
	if (usage[0] && usage[strlen(usage) - 1] != '\n')
		fputc('\n', status ? stderr : stdout);
	exit(status);
}

int tl_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *longopts, const char *usage)
{
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);

	if (c == 'h')
		tl_usage(usage, TL_EXIT_OK);
	if (c == '?' || c == ':')
		tl_usage(usage, TL_EXIT_USAGE);
	return c;
}

double tl_opt_double(const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || v < 0) {
		tl_warn("option %s: not a non-negative number: '%s'", opt, arg);
		exit(TL_EXIT_USAGE);
	}
	return v;
}

long tl_opt_long(const char *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0) {
		tl_warn("option %s: not a non-negative integer: '%s'", opt, arg);
		exit(TL_EXIT_USAGE);
	}
	return v;
}
