#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "banned.h"

/* The SYNOPSIS: the usage text up to its first blank line. */
static size_t synopsis_len(const char *usage)
{
	const char *blank = strstr(usage, "\n\n");

	return blank ? (size_t)(blank - usage) : strlen(usage);
}

void tl_usage(const char *usage, int status)
{
	FILE *fp = status ? stderr : stdout;
	size_t n = synopsis_len(usage);

	fwrite(usage, 1, n, fp);
	if (n && usage[n - 1] != '\n')
		fputc('\n', fp);
	exit(status);
}

/* Does the option list mention opt ("-k", "--keep-going") as a word? */
static int mentions(const char *list, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = list; (p = strstr(p, opt)); p += n) {
		char before = p == list ? ' ' : p[-1], after = p[n];
		if ((before == ' ' || before == ',') &&
		    !(after == '-' || after == '_' || (after >= 'a' && after <= 'z') ||
		      (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9')))
			return 1;
	}
	return 0;
}

/*
 * -h: the whole text, every option the tables have that it forgot (bare),
 * and where the full story is.
 */
static _Noreturn void help(const char *usage, const char *shortopts,
			   const struct option *longopts)
{
	const char *list = usage + synopsis_len(usage);
	char opt[128];
	int header = *list != '\0';

	fputs(usage, stdout);
	if (usage[0] && usage[strlen(usage) - 1] != '\n')
		fputc('\n', stdout);
	for (const char *p = shortopts; *p; p++) {
		if (*p == ':' || *p == '+' || *p == '-')
			continue;
		snprintf(opt, sizeof(opt), "-%c", *p);
		if (!mentions(list, opt)) {
			printf("%s  %s\n", header++ ? "" : "\n", opt);
		}
	}
	for (const struct option *o = longopts; o && o->name; o++) {
		snprintf(opt, sizeof(opt), "--%s", o->name);
		if (!mentions(list, opt))
			printf("%s  %s%s\n", header++ ? "" : "\n", opt,
			       o->has_arg == required_argument ? " ARG" : "");
	}
	printf("\nSee %s(1).\n", tl_progname());
	exit(TL_EXIT_OK);
}

int tl_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *longopts, const char *usage)
{
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);

	if (c == 'h')
		help(usage, shortopts, longopts);
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
