/*
 * tl-html: a finished report folder (tl-report's, a tl-ranks job's, a
 * tl-diff folder, or TraceLens's own CSVs) as report.html - one file with
 * inline SVG pictures, nothing loaded from anywhere - or, with --md, as
 * report.md.  The work is in common/report_*.c, svg.c and html.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "outbuf.h"
#include "perf_arch.h"
#include "report_dir.h"
#include "report_html.h"
#include "report_md.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-html [-h] [--arch NAME|FILE] [--md [--html]] [-o FILE] REPORT_DIR\n"
	"\n"
	"  -h, --help         print this help and exit\n"
	"  -o, --output FILE  write FILE (- for standard output), not REPORT_DIR/report.*\n"
	"      --arch NAME|FILE  draw the roofs of this GPU table (share/tl/arch/NAME.tsv)\n"
	"      --md           write report.md instead of report.html\n"
	"      --html         with --md: write report.html too, in the same run";

static const struct option longopts[] = {
	{ "arch", required_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ "html", no_argument, NULL, 'H' },
	{ "md", no_argument, NULL, 'm' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};

/* DIR/report.html or DIR/report.md unless -o says otherwise. */
static char *out_path(const char *dir, const char *out, int md)
{
	size_t n;
	char *p;

	if (out)
		return xstrdup(out);
	n = strlen(dir) + 16;
	p = xmalloc(n);
	snprintf(p, n, "%s/report.%s", dir, md ? "md" : "html");
	return p;
}

/* One page: report.md (md) or report.html. */
static int write_one(struct report_dir *rd, const char *out, int md,
		     const struct report_html_opts *o)
{
	char *path = out_path(rd->path, out, md);
	struct outbuf *ob = outbuf_open_path(path);
	int rval = md ? report_md_write(rd, ob) : report_html_write(rd, ob, o);

	outbuf_close(ob);
	free(path);
	return rval;
}

int main(int argc, char **argv)
{
	struct report_html_opts o = { NULL };
	struct perf_arch *arch = NULL;
	const char *out = NULL, *arch_name = NULL;
	struct report_dir *rd;
	int c, md = 0, html = 0, rval;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "ho:", longopts, usage)) != -1)
		switch (c) {
		case 'a': arch_name = optarg; break;
		case 'H': html = 1; break;
		case 'm': md = 1; break;
		case 'o': out = optarg; break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	if (argc - optind != 1)
		tl_usage(usage, TL_EXIT_USAGE);
	if (html && md && out) {
		tl_warn("-o names one file: give --md and --html without it");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (arch_name && !(arch = perf_arch_load(arch_name)))
		return TL_EXIT_BAD;
	if (!(rd = report_dir_open(argv[optind]))) {
		perf_arch_free(arch);
		return TL_EXIT_BAD;
	}
	o.arch = arch;
	/* report.md first, then report.html (tl-report's order) */
	rval = write_one(rd, out, md, &o);
	if (rval == TL_EXIT_OK && md && html)
		rval = write_one(rd, NULL, 0, &o);
	report_dir_free(rd);
	perf_arch_free(arch);
	return rval;
}
