/*
 * opt: getopt_long(3) once, for every program.
 *
 *	static const char usage[] = "usage: tl-cat [-v] [-o FILE] [FILE...]";
 *	static const struct option longopts[] = {
 *		{"help", no_argument, NULL, 'h'}, ... {NULL, 0, NULL, 0} };
 *	while ((c = tl_getopt(argc, argv, "ho:v", longopts, usage)) != -1)
 *		switch (c) { ... default: tl_usage(usage, 2); }
 *
 * The usage text is the man page's SYNOPSIS, then a blank line, then one
 * line per option (two spaces, the option's forms, its one-line meaning):
 *
 *	static const char usage[] =
 *		"usage: tl-cat [-hkv] [--ndjson] [-o FILE] [FILE...]\n"
 *		"\n"
 *		"  -k, --keep-going     skip a malformed event, count it\n"
 *		"  -o, --output FILE    write to FILE, not stdout\n" ...;
 *
 * -h/--help print all of it to stdout, then "See tl-cat(1).", and exit 0;
 * any option of the getopt tables that the text does not mention is listed
 * too (bare, so that tests/t0201-man-help.sh, which checks every man page
 * against its program's -h, points at it).  An unknown option or a missing
 * argument prints the SYNOPSIS alone to stderr and exits 2, as does
 * tl_usage(usage, 2).  Keep long option tables sorted by name.
 */
#ifndef TL_OPT_H
#define TL_OPT_H

#include <getopt.h>

int tl_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *longopts, const char *usage);
_Noreturn void tl_usage(const char *usage, int status);
/* Parse a non-negative number option or exit 2 with a message. */
double tl_opt_double(const char *opt, const char *arg);
long tl_opt_long(const char *opt, const char *arg);

#endif
