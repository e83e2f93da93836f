/*
 * tl-cat: decompress and parse profiler traces (PyTorch/Kineto JSON,
 * rocprofv3 results, JAX XPlane) into the tl-events stream
 * (tl-stream(5)), or NDJSON.  See tl-cat(1).
 */
#include <stdlib.h>

#include "cat.h"
#include "err.h"
#include "opt.h"
#include "outbuf.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-cat [-hkv] [--format] [--lean] [--lend-pages] [--ndjson] [-o FILE] [FILE...]\n"
	"\n"
	"      --format       print each trace's format (kineto, perfetto, rocprof, xplane ...)\n"
	"  -h, --help         print this help and exit\n"
	"  -k, --keep-going   report a malformed event, count it as skipped, go on\n"
	"      --lean         rows the call tree keeps nothing of (python frames,\n"
	"                     instants) as \"#dropped\" lines: for tl-tree's --lean\n"
	"                     and --tree-rows only\n"
	"      --lend-pages   hand the output's pages to a pipe (vmsplice), not copies:\n"
	"                     only for a reader that copies what it reads, as tl's do\n"
	"      --ndjson       write JSON lines (the events' own members) instead of TSV\n"
	"  -o, --output FILE  write to FILE instead of standard output\n"
	"  -v, --verbose      print the events read, written and skipped of each source";

static const struct option longopts[] = {
	{ "format", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "keep-going", no_argument, NULL, 'k' },
	{ "lean", no_argument, NULL, 'L' },
	{ "lend-pages", no_argument, NULL, 'l' },
	{ "ndjson", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 }
};

int main(int argc, char **argv)
{
	struct cat_opts o = { 0, 0, 0, 0, 0 };
	const char *out = NULL;
	struct outbuf *ob;
	struct cat *c;
	int ch, lend = 0, rval = 0;

	tl_init(argv[0]);
	while ((ch = tl_getopt(argc, argv, "hko:v", longopts, usage)) != -1) {
		switch (ch) {
		case 'f': o.format = 1; break;
		case 'k': o.keep_going = 1; break;
		case 'L': o.lean = 1; break;
		case 'l': lend = 1; break;
		case 'n': o.ndjson = 1; break;
		case 'o': out = optarg; break;
		case 'v': o.verbose = 1; break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (o.lean && o.ndjson) {
		tl_warn("--lean writes TSV rows: not with --ndjson");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	ob = outbuf_open_path(out);
	if (lend)
		outbuf_lend_pages(ob);	/* no pipe: written as usual */
	c = cat_new(ob, &o);
	if (!argc)
		rval |= cat_file(c, "-");
	for (int i = 0; i < argc; i++)
		rval |= cat_file(c, argv[i]);
	cat_free(c);
	outbuf_close(ob);
	return rval ? TL_EXIT_BAD : TL_EXIT_OK;
}
