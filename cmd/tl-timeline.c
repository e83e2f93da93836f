/*
 * tl-timeline: the GPU timeline breakdown of TraceLens (gpu_timeline.csv)
 * from an event or node stream.  The work is in common/timeline_scan.c.
 */
#include <stdlib.h>

#include "err.h"
#include "timeline_scan.h"
#include "timeline_strip.h"
#include "opt.h"
#include "outbuf.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-timeline [-hv] [--all-gpu] [--csv] [--micro-idle US] [--per-gpu]\n"
	"                   [--per-stream] [--strip FILE] [--strip-bins N] [FILE]";

enum { OPT_ALL_GPU = 256, OPT_CSV, OPT_MICRO_IDLE, OPT_PER_GPU, OPT_PER_STREAM,
       OPT_STRIP, OPT_STRIP_BINS };

static const struct option longopts[] = {
	{ "all-gpu", no_argument, NULL, OPT_ALL_GPU },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "help", no_argument, NULL, 'h' },
	{ "micro-idle", required_argument, NULL, OPT_MICRO_IDLE },
	{ "per-gpu", no_argument, NULL, OPT_PER_GPU },
	{ "per-stream", no_argument, NULL, OPT_PER_STREAM },
	{ "strip", required_argument, NULL, OPT_STRIP },
	{ "strip-bins", required_argument, NULL, OPT_STRIP_BINS },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 }
};

int main(int argc, char **argv)
{
	struct timeline_scan_opts o = { .micro_us = -1, .strip_bins = TIMELINE_STRIP_BINS };
	long bins;
	struct outbuf *ob;
	int c, rval;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "hv", longopts, usage)) != -1)
		switch (c) {
		case OPT_ALL_GPU: o.all_gpu = 1; break;
		case OPT_CSV: o.csv = 1; break;
		case OPT_MICRO_IDLE: o.micro_us = tl_opt_double("--micro-idle", optarg); break;
		case OPT_PER_GPU: o.per_gpu = 1; break;
		case OPT_PER_STREAM: o.per_stream = 1; break;
		case OPT_STRIP: o.strip = optarg; break;
		case OPT_STRIP_BINS:
			bins = tl_opt_long("--strip-bins", optarg);
			if (bins < 1 || bins > TIMELINE_STRIP_MAXBINS) {
				tl_warn("--strip-bins must be between 1 and %d", TIMELINE_STRIP_MAXBINS);
				tl_usage(usage, TL_EXIT_USAGE);
			}
			o.strip_bins = (int)bins;
			break;
		case 'v': o.verbose = 1; break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	if (argc - optind > 1) {
		tl_warn("one input at most (got %d)", argc - optind);
		tl_usage(usage, TL_EXIT_USAGE);
	}
	ob = outbuf_open_fd(1);
	rval = timeline_scan_run(optind < argc ? argv[optind] : NULL, &o, ob);
	outbuf_close(ob);
	return rval;
}
