/*
 * tl-rocprof: TraceLens's rocprofv3 report sheets (gpu_timeline,
 * kernel_summary, kernel_summary_by_category, kernel_details, short
 * kernels) from the event stream tl-cat writes for a rocprofv3 results
 * file.  See tl-rocprof(1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "opt.h"
#include "rocprof_report.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-rocprof [-h] [--bins N] [--csv] [--fix-units] [--kernel-details]\n"
	"                  [--no-kernel-summary] [-o DIR] [-s SHEET]...\n"
	"                  [--short-kernel-us N] [--topk N] [FILE]\n"
	"\n"
	"  -h, --help             print this help and exit\n"
	"  -o, --output DIR       write each sheet into DIR\n"
	"  -s, --sheet SHEET      write only this sheet (repeatable; one: to stdout)\n"
	"      --bins N           bins of the short-kernel histogram (100)\n"
	"      --csv              write TraceLens's CSV files, not tl sheet streams\n"
	"      --fix-units        durations in microseconds (a deviation from TraceLens)\n"
	"      --kernel-details   also the kernel_details sheet\n"
	"      --no-kernel-summary  leave out the two kernel summaries\n"
	"      --short-kernel-us N  the short-kernel threshold (10)\n"
	"      --topk N           only the N longest kernels in kernel_details";

static const struct option longopts[] = {
	{ "bins", required_argument, NULL, 'B' },
	{ "csv", no_argument, NULL, 'C' },
	{ "fix-units", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ "kernel-details", no_argument, NULL, 'D' },
	{ "no-kernel-summary", no_argument, NULL, 'N' },
	{ "output", required_argument, NULL, 'o' },
	{ "sheet", required_argument, NULL, 's' },
	{ "short-kernel-us", required_argument, NULL, 'S' },
	{ "topk", required_argument, NULL, 'K' },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	struct rocprof_opts r;
	int csv, details, no_summary;
	const char *dir;
	const char **sheets;
	size_t nsheets, sheets_alloc;
};

static int known(const char *name)
{
	for (int i = 0; rocprof_report_names[i]; i++)
		if (!strcmp(rocprof_report_names[i], name))
			return 1;
	return 0;
}

static int write_one(struct rocprof_report *r, const struct opts *o, const char *name)
{
	char *path = NULL;
	struct sheet *sh;

	if (o->dir) {
		size_t n = strlen(o->dir) + strlen(name) + 8;
		path = xmalloc(n);
		snprintf(path, n, "%s/%s.%s", o->dir, name, o->csv ? "csv" : "tsv");
	}
	sh = sheet_open(path, o->csv ? SHEET_CSV : SHEET_TSV);
	free(path);
	if (!sh)
		return 1;
	rocprof_report_write(r, name, sh);
	sheet_close(sh);
	return 0;
}

/* -s names, or TraceLens's set: kernel sheets unless --no-kernel-summary,
 * kernel_details with --kernel-details, the short-kernel study always. */
static int write_sheets(struct rocprof_report *r, const struct opts *o)
{
	int rval = 0;

	if (o->nsheets) {
		for (size_t i = 0; i < o->nsheets; i++)
			rval |= write_one(r, o, o->sheets[i]);
		return rval;
	}
	for (int i = 0; rocprof_report_names[i]; i++) {
		const char *name = rocprof_report_names[i];
		if (o->no_summary && !strncmp(name, "kernel_summary", 14))
			continue;
		if (!o->details && !strcmp(name, "kernel_details"))
			continue;
		rval |= write_one(r, o, name);
	}
	return rval;
}

static void add_sheet(struct opts *o, const char *name)
{
	if (!known(name)) {
		tl_warn("unknown sheet '%s' (one of gpu_timeline, kernel_summary, "
			"kernel_summary_by_category, kernel_details, short_kernels_summary, "
			"short_kernel_histogram)", name);
		tl_usage(usage, TL_EXIT_USAGE);
	}
	xgrow((void **)&o->sheets, &o->sheets_alloc, o->nsheets + 1, sizeof(*o->sheets));
	o->sheets[o->nsheets++] = name;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = tl_getopt(argc, argv, "ho:s:", longopts, usage)) != -1) {
		switch (ch) {
		case 'B': o->r.bins = tl_opt_long("--bins", optarg); break;
		case 'C': o->csv = 1; break;
		case 'D': o->details = 1; break;
		case 'F': o->r.fix_units = 1; break;
		case 'K': o->r.topk = tl_opt_long("--topk", optarg); break;
		case 'N': o->no_summary = 1; break;
		case 'o': o->dir = optarg; break;
		case 's': add_sheet(o, optarg); break;
		case 'S': o->r.short_us = tl_opt_double("--short-kernel-us", optarg); break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	if (!o->dir && o->nsheets != 1) {
		tl_warn("without -o, name exactly one sheet with -s");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (argc - optind > 1) {
		tl_warn("one event stream at a time");
		tl_usage(usage, TL_EXIT_USAGE);
	}
}

int main(int argc, char **argv)
{
	struct opts o = { { 10, 100, -1, 0 }, 0, 0, 0, NULL, NULL, 0, 0 };
	struct rocprof_report *r;
	int rval;

	tl_init(argv[0]);
	parse_opts(argc, argv, &o);
	if (o.dir && mkdir(o.dir, 0777) < 0 && errno != EEXIST)
		tl_die_errno("%s", o.dir);
	r = rocprof_report_read(optind < argc ? argv[optind] : NULL, &o.r);
	if (!r) {
		free(o.sheets);
		return TL_EXIT_BAD;
	}
	rval = write_sheets(r, &o);
	rocprof_report_free(r);
	free(o.sheets);
	return rval ? TL_EXIT_BAD : TL_EXIT_OK;
}
