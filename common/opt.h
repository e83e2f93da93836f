/*
 * opt: getopt_long(3) once, for every program.
 *
 *	static const char usage[] = "usage: tl-cat [-v] [-o FILE] [FILE...]";
 *	static const struct option longopts[] = {
 *		{"help", no_argument, NULL, 'h'}, ... {NULL, 0, NULL, 0} };
 *	while ((c = tl_getopt(argc, argv, "ho:v", longopts, usage)) != -1)
 *		switch (c) { ... default: tl_usage(usage, 2); }
 *
 * -h/--help print the usage (the man page SYNOPSIS) to stdout and exit 0;
 * an unknown option or missing argument prints it to stderr and exits 2.
 * Keep long option tables sorted by name.
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
