/*
 * tl-idle: why the GPU waits.  HTA's temporal, idle-time, overlap,
 * kernel-type, launch and queue-length breakdowns of one or more ranks'
 * node streams, HTA's critical path of one iteration, or the job-level
 * folder merged from per-rank ones.  See tl-idle(1); the work is in
 * common/idle_*.c and common/critpath_*.c.
 */
#include <stdlib.h>

#include "err.h"
#include "idle_report.h"
#include "idle_trace.h"
#include "opt.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-idle [-hv] [-r RANKS] [--kernel-delay US] -o DIR [NODES...]\n"
	"       tl-idle --critical-path ANNOTATION [--instance N[:M]] [--rank R] -o DIR [NODES]\n"
	"       tl-idle --merge [-r RANKS] -o DIR IDLE_DIR...";

enum { OPT_CRIT = 256, OPT_INSTANCE, OPT_KERNEL_DELAY, OPT_MERGE, OPT_RANK };

static const struct option longopts[] = {
	{ "critical-path", required_argument, NULL, OPT_CRIT },
	{ "help", no_argument, NULL, 'h' },
	{ "instance", required_argument, NULL, OPT_INSTANCE },
	{ "kernel-delay", required_argument, NULL, OPT_KERNEL_DELAY },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "output", required_argument, NULL, 'o' },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "ranks", required_argument, NULL, 'r' },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 }
};

/* The breakdowns of every trace in the streams named (stdin without any). */
static int breakdowns(char **paths, int n, const struct idle_opts *o, const char *dir)
{
	struct idle_set set;
	int rval = 0;

	idle_set_init(&set, 0);
	for (int i = 0; i < (n ? n : 1); i++)
		if (idle_set_read(&set, n ? paths[i] : NULL) < 0)
			rval = 1;
	if (rval == 0 && idle_set_finish(&set) < 0)
		rval = 1;
	if (rval == 0)
		rval = idle_report_write(&set, o, dir);
	idle_set_release(&set);
	return rval;
}

int main(int argc, char **argv)
{
	struct idle_opts o = IDLE_OPTS_INIT;
	const char *dir = NULL;
	int c, rval;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "ho:r:v", longopts, usage)) != -1)
		switch (c) {
		case OPT_KERNEL_DELAY:
			o.kernel_delay = tl_opt_double("--kernel-delay", optarg);
			break;
		case 'o': dir = optarg; break;
		case 'r':
			if (idle_ranks_parse(&o, optarg) < 0) {
				tl_warn("-r wants 'all' or ranks like 0,3: '%s'", optarg);
				tl_usage(usage, TL_EXIT_USAGE);
			}
			break;
		case 'v': o.verbose = 1; break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	if (!dir) {
		tl_warn("-o DIR is needed");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	rval = breakdowns(argv + optind, argc - optind, &o, dir);
	idle_opts_release(&o);
	return rval;
}
