/*
 * tl-jax: TraceLens's JAX report sheets (gpu_timeline per GPU, GPU event
 * averages, kernel launchers and their summaries, XLA kernels, op_<category>
 * perf-model sheets) from the event stream tl-cat writes for a JAX
 * .xplane.pb.  See tl-jax(1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "jax_report.h"
#include "opt.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-jax [-h] [--csv] [--keyword WORD]... [-o DIR] [-s SHEET]... [FILE]\n"
	"\n"
	"  -h, --help           print this help and exit\n"
	"  -o, --output DIR     write each sheet into DIR\n"
	"  -s, --sheet SHEET    write only this sheet (repeatable; one: to stdout)\n"
	"      --csv            write TraceLens's CSV files, not tl sheet streams\n"
	"      --keyword WORD   only kernels whose metadata holds WORD (repeatable)";

static const struct option longopts[] = {
	{ "csv", no_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ "keyword", required_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "sheet", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	struct jax_opts j;
	int csv;
	const char *dir;
	const char **sheets;
	size_t nsheets, sheets_alloc, kw_alloc;
};

static int write_one(struct jax_report *r, const struct opts *o, const char *name)
{
	char *path = NULL;
	struct sheet *sh;
	int rc;

	if (o->dir) {
		size_t n = strlen(o->dir) + strlen(name) + 8;
		path = xmalloc(n);
		snprintf(path, n, "%s/%s.%s", o->dir, name, o->csv ? "csv" : "tsv");
		/* op_communication_rccl/nccl: TraceLens's name has a slash */
		for (char *p = path + strlen(o->dir) + 1; *p; p++)
			if (*p == '/')
				*p = '_';
	}
	sh = sheet_open(path, o->csv ? SHEET_CSV : SHEET_TSV);
	free(path);
	if (!sh)
		return 1;
	rc = jax_report_write(r, name, sh);
	sheet_close(sh);
	if (rc < 0) {
		tl_warn("no sheet '%s' for this trace", name);
		return 1;
	}
	return 0;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = tl_getopt(argc, argv, "ho:s:", longopts, usage)) != -1) {
		switch (ch) {
		case 'C': o->csv = 1; break;
		case 'k':
			xgrow((void **)&o->j.keyword_filters, &o->kw_alloc, o->j.nfilters + 1,
			      sizeof(*o->j.keyword_filters));
			o->j.keyword_filters[o->j.nfilters++] = optarg;
			break;
		case 'o': o->dir = optarg; break;
		case 's':
			xgrow((void **)&o->sheets, &o->sheets_alloc, o->nsheets + 1,
			      sizeof(*o->sheets));
			o->sheets[o->nsheets++] = optarg;
			break;
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
	struct opts o;
	struct jax_report *r;
	int rval = 0;
	const char *name;

	memset(&o, 0, sizeof(o));
	tl_init(argv[0]);
	parse_opts(argc, argv, &o);
	if (o.dir && mkdir(o.dir, 0777) < 0 && errno != EEXIST)
		tl_die_errno("%s", o.dir);
	r = jax_report_read(optind < argc ? argv[optind] : NULL, &o.j);
	if (r) {
		if (o.nsheets)
			for (size_t i = 0; i < o.nsheets; i++)
				rval |= write_one(r, &o, o.sheets[i]);
		else
			for (size_t i = 0; (name = jax_report_sheet(r, i)); i++)
				rval |= write_one(r, &o, name);
		jax_report_free(r);
	} else {
		rval = 1;
	}
	free(o.sheets);
	free(o.j.keyword_filters);
	return rval ? TL_EXIT_BAD : TL_EXIT_OK;
}
