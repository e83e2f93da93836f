/*
 * tl-pftrace: TraceLens's three reports on a Perfetto-style traceEvents
 * JSON (HIP activity, HIP API <-> kernel latency, memory copies) from the
 * event stream tl-cat writes for it.  See tl-pftrace(1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "opt.h"
#include "outbuf.h"
#include "pftrace_report.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-pftrace [-h] [--csv] [--md FILE] [-o DIR] [-s SHEET]... [--write-md]\n"
	"                  [--merge-kernels] [--min-event-ns N] [--min-tid N] [--max-tid N]\n"
	"                  [--top-xla N] [--no-kernel-summary] [--kernel-summary-include-rccl]\n"
	"                  [--kernel-summary-baseline total|compute]\n"
	"                  [--kernel-summary-group config|name] [--kernel-summary-top N]\n"
	"                  [--no-hip-summary] [--hip-summary-top N]\n"
	"                  [--hip-summary-group name|name+stream|name+op|name+stream+op]\n"
	"                  [--exclude-kernel-regex RE] [--allow-multi-kernel-per-api]\n"
	"                  [--include-nonlaunch-apis] [FILE]\n"
	"\n"
	"  -h, --help                 print this help and exit\n"
	"  -o, --output DIR           write each sheet into DIR\n"
	"  -s, --sheet SHEET          write only this sheet (repeatable; one: to stdout)\n"
	"      --csv                  write TraceLens's CSV files, not tl sheet streams\n"
	"      --md FILE, --output-md-path FILE, --output_md_path FILE  the Markdown report\n"
	"      --write-md, --write_md  the Markdown report to DIR/report.md\n"
	"      --merge-kernels, --merge_kernels  merge kernels of one name first\n"
	"      --min-event-ns N, --min_event_ns N  leave out shorter events (5000)\n"
	"      --min-tid N, --max-tid N, --min_tid N, --max_tid N  only these threads\n"
	"      --top-xla N, --top_xla N  rows of xla_top (30)\n"
	"      --no-kernel-summary, --no-hip-summary, --no_kernel_summary, --no_hip_summary  leave it out\n"
	"      --kernel-summary-include-rccl, --kernel_summary_include_rccl  count RCCL kernels\n"
	"      --kernel-summary-baseline B, --kernel_summary_baseline B  total or compute\n"
	"      --kernel-summary-group G, --kernel_summary_group G  config or name\n"
	"      --kernel-summary-top N, --hip-summary-top N, --kernel_summary_top N, --hip_summary_top N  rows (200)\n"
	"      --hip-summary-group G, --hip_summary_group G  how HIP API calls are grouped\n"
	"      --exclude-kernel-regex RE, --exclude_kernel_regex RE  kernels left out\n"
	"      --allow-multi-kernel-per-api, --allow_multi_kernel_per_api  keep multi-kernel calls\n"
	"      --include-nonlaunch-apis, --include_nonlaunch_apis  keep non-launch calls";

enum {
	O_CSV = 256, O_MD, O_MERGE, O_MINTID, O_MAXTID, O_MINNS, O_NOKS, O_RCCL, O_BASE,
	O_KGROUP, O_NOHIP, O_HGROUP, O_TOPX, O_KTOP, O_HTOP, O_EXCL, O_MULTI, O_NONLAUNCH,
	O_WRITEMD
};

/* TraceLens's spelling and the same with dashes; sorted by name */
static const struct option longopts[] = {
	{ "allow-multi-kernel-per-api", no_argument, NULL, O_MULTI },
	{ "allow_multi_kernel_per_api", no_argument, NULL, O_MULTI },
	{ "csv", no_argument, NULL, O_CSV },
	{ "exclude-kernel-regex", required_argument, NULL, O_EXCL },
	{ "exclude_kernel_regex", required_argument, NULL, O_EXCL },
	{ "help", no_argument, NULL, 'h' },
	{ "hip-summary-group", required_argument, NULL, O_HGROUP },
	{ "hip-summary-top", required_argument, NULL, O_HTOP },
	{ "hip_summary_group", required_argument, NULL, O_HGROUP },
	{ "hip_summary_top", required_argument, NULL, O_HTOP },
	{ "include-nonlaunch-apis", no_argument, NULL, O_NONLAUNCH },
	{ "include_nonlaunch_apis", no_argument, NULL, O_NONLAUNCH },
	{ "kernel-summary-baseline", required_argument, NULL, O_BASE },
	{ "kernel-summary-group", required_argument, NULL, O_KGROUP },
	{ "kernel-summary-include-rccl", no_argument, NULL, O_RCCL },
	{ "kernel-summary-top", required_argument, NULL, O_KTOP },
	{ "kernel_summary_baseline", required_argument, NULL, O_BASE },
	{ "kernel_summary_group", required_argument, NULL, O_KGROUP },
	{ "kernel_summary_include_rccl", no_argument, NULL, O_RCCL },
	{ "kernel_summary_top", required_argument, NULL, O_KTOP },
	{ "max-tid", required_argument, NULL, O_MAXTID },
	{ "max_tid", required_argument, NULL, O_MAXTID },
	{ "md", required_argument, NULL, O_MD },
	{ "merge-kernels", no_argument, NULL, O_MERGE },
	{ "merge_kernels", no_argument, NULL, O_MERGE },
	{ "min-event-ns", required_argument, NULL, O_MINNS },
	{ "min-tid", required_argument, NULL, O_MINTID },
	{ "min_event_ns", required_argument, NULL, O_MINNS },
	{ "min_tid", required_argument, NULL, O_MINTID },
	{ "no-hip-summary", no_argument, NULL, O_NOHIP },
	{ "no-kernel-summary", no_argument, NULL, O_NOKS },
	{ "no_hip_summary", no_argument, NULL, O_NOHIP },
	{ "no_kernel_summary", no_argument, NULL, O_NOKS },
	{ "output", required_argument, NULL, 'o' },
	{ "output-md-path", required_argument, NULL, O_MD },
	{ "output_md_path", required_argument, NULL, O_MD },
	{ "sheet", required_argument, NULL, 's' },
	{ "top-xla", required_argument, NULL, O_TOPX },
	{ "top_xla", required_argument, NULL, O_TOPX },
	{ "write-md", no_argument, NULL, O_WRITEMD },
	{ "write_md", no_argument, NULL, O_WRITEMD },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	struct pftrace_opts p;
	int csv, write_md;
	const char *dir, *md;
	const char **sheets;
	size_t nsheets, sheets_alloc;
};

/* argparse's int(): any integer, negative too */
static int64_t int_arg(const char *opt, const char *arg)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end) {
		tl_warn("--%s: '%s' is not an integer", opt, arg);
		tl_usage(usage, TL_EXIT_USAGE);
	}
	return v;
}

static int choice(const char *opt, const char *arg, const char *const *ch)
{
	for (int i = 0; ch[i]; i++)
		if (!strcmp(arg, ch[i]))
			return i;
	tl_warn("--%s: '%s' is none of the choices", opt, arg);
	tl_usage(usage, TL_EXIT_USAGE);
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const char *const base[] = { "total", "compute", NULL };
	static const char *const kgroup[] = { "config", "name", NULL };
	static const char *const hgroup[] = { "name", "name+stream", "name+op",
					      "name+stream+op", NULL };
	int ch;

	while ((ch = tl_getopt(argc, argv, "ho:s:", longopts, usage)) != -1) {
		switch (ch) {
		case O_CSV: o->csv = 1; break;
		case O_MD: o->md = optarg; break;
		case O_WRITEMD: o->write_md = 1; break;
		case O_MERGE: o->p.merge_kernels = 1; break;
		case O_MINTID: o->p.min_tid = int_arg("min_tid", optarg); break;
		case O_MAXTID: o->p.max_tid = int_arg("max_tid", optarg); break;
		case O_MINNS: o->p.min_event_ns = int_arg("min_event_ns", optarg); break;
		case O_NOKS: o->p.kernel_summary = 0; break;
		case O_RCCL: o->p.include_rccl = 1; break;
		case O_BASE:
			o->p.baseline_compute = choice("kernel_summary_baseline", optarg, base);
			break;
		case O_KGROUP:
			o->p.group_by_name = choice("kernel_summary_group", optarg, kgroup);
			break;
		case O_NOHIP: o->p.hip_summary = 0; break;
		case O_HGROUP: o->p.hip_group = choice("hip_summary_group", optarg, hgroup); break;
		case O_TOPX: o->p.top_xla = (long)int_arg("top_xla", optarg); break;
		case O_KTOP: o->p.kernel_top = (long)int_arg("kernel_summary_top", optarg); break;
		case O_HTOP: o->p.hip_top = (long)int_arg("hip_summary_top", optarg); break;
		case O_EXCL:
			o->p.exclude_re = optarg;
			if (pftrace_check_regex(optarg) < 0)
				tl_usage(usage, TL_EXIT_USAGE);
			break;
		case O_MULTI: o->p.allow_multi = 1; break;
		case O_NONLAUNCH: o->p.include_nonlaunch = 1; break;
		case 'o': o->dir = optarg; break;
		case 's':
			xgrow((void **)&o->sheets, &o->sheets_alloc, o->nsheets + 1,
			      sizeof(*o->sheets));
			o->sheets[o->nsheets++] = optarg;
			break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	if (o->write_md && !o->md && !o->dir) {
		tl_warn("--write_md writes DIR/report.md: give -o DIR, or --md FILE");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (!o->dir && o->nsheets != 1 && !o->md) {
		tl_warn("without -o, name exactly one sheet with -s (or write --md FILE)");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (argc - optind > 1) {
		tl_warn("one event stream at a time");
		tl_usage(usage, TL_EXIT_USAGE);
	}
}

static int write_one(struct pftrace_report *r, const struct opts *o, const char *name)
{
	char *path = NULL;
	struct sheet *sh;
	int rc;

	if (o->dir) {
		size_t n = strlen(o->dir) + strlen(name) + 8;
		path = xmalloc(n);
		snprintf(path, n, "%s/%s.%s", o->dir, name, o->csv ? "csv" : "tsv");
	}
	sh = sheet_open(path, o->csv ? SHEET_CSV : SHEET_TSV);
	free(path);
	if (!sh)
		return 1;
	rc = pftrace_report_write(r, name, sh);
	sheet_close(sh);
	if (rc < 0) {
		tl_warn("no sheet '%s' for this trace", name);
		return 1;
	}
	return 0;
}

static int write_md(struct pftrace_report *r, const struct opts *o)
{
	char *path = NULL;
	struct outbuf *ob;
	int rc;

	if (!o->md) {
		size_t n = strlen(o->dir) + 16;
		path = xmalloc(n);
		snprintf(path, n, "%s/report.md", o->dir);
	}
	ob = outbuf_open_path(o->md ? o->md : path);
	if (!ob) {
		tl_warn_errno("%s", o->md ? o->md : path);
		free(path);
		return 1;
	}
	free(path);
	rc = pftrace_report_markdown(r, ob);
	outbuf_close(ob);
	return rc < 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct pftrace_report *r;
	int rval = 0;
	const char *name;

	memset(&o, 0, sizeof(o));
	pftrace_opts_default(&o.p);
	tl_init(argv[0]);
	parse_opts(argc, argv, &o);
	if (o.dir && mkdir(o.dir, 0777) < 0 && errno != EEXIST)
		tl_die_errno("%s", o.dir);
	r = pftrace_report_read(optind < argc ? argv[optind] : NULL, &o.p);
	if (r) {
		if (o.nsheets)
			for (size_t i = 0; i < o.nsheets; i++)
				rval |= write_one(r, &o, o.sheets[i]);
		else if (o.dir)
			for (size_t i = 0; (name = pftrace_report_sheet(r, i)); i++)
				rval |= write_one(r, &o, name);
		if (o.md || o.write_md)
			rval |= write_md(r, &o);
		rval |= pftrace_report_failed(r);
		pftrace_report_free(r);
	} else {
		rval = 1;
	}
	free(o.sheets);
	return rval ? TL_EXIT_BAD : TL_EXIT_OK;
}
