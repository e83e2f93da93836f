/*
 * tl-perf: TraceLens's host-op report sheets (ops_summary, ops_unique_args,
 * unified_perf_summary, kernel_summary, short kernels) from a node stream.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "tree_nodes.h"
#include "perf_ops.h"
#include "opt.h"
#include "perf_compare.h"
#include "perf_model.h"
#include "perf_report.h"
#include "perf_sheet.h"
#include "report_info.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-perf [-hl] [--all-gpu] [--arch NAME|FILE|auto] [--bins N] [--csv]\n"
	"               [--detect-recompute] [--diff-stats FILE] [--extension-file FILE]\n"
	"               [--group-by-num-kernels] [--group-by-parent-module]\n"
	"               [--include-call-stack] [--include-first-occurrence-time]\n"
	"               [--include-overlap-info] [--inference] [--info FILE]\n"
	"               [--micro-idle US] [--ops FILE] [-o DIR] [-s SHEET]...\n"
	"               [--short-kernel-us N] [--split-nice N] [--topk N] [FILE]\n"
	"\n"
	"  -h, --help                 print this help and exit\n"
	"  -l, --list                 list the sheet names and exit\n"
	"  -o, --output DIR           write the sheets into DIR\n"
	"  -s, --sheet SHEET          write this sheet (repeatable; one: to stdout)\n"
	"      --all-gpu              count GPU events without a launch in the total\n"
	"      --arch NAME|FILE|auto  add the roofline columns for this GPU table\n"
	"      --bins N               bins of the short-kernel histogram (100)\n"
	"      --csv                  write TraceLens-exact CSV, not tl TSV sheets\n"
	"      --detect-recompute     tell activation recomputation from the first forward\n"
	"      --diff-stats FILE      speedup/delta columns from a tl-diff diff_stats.csv\n"
	"      --extension-file FILE  extra ops and performance models from FILE\n"
	"      --group-by-num-kernels  group unified_perf_summary by the kernels an op launches\n"
	"      --group-by-parent-module  group ops_unique_args by call stack and parent nn.Module\n"
	"      --include-call-stack   the python call stack of each op group\n"
	"      --include-first-occurrence-time  when each op group first ran\n"
	"      --include-overlap-info  the *_kl_overlap sheets (kernels overlapping others)\n"
	"      --inference            the sheets of TraceLens's inference report\n"
	"      --info FILE            also write the facts tl-html opens a report with\n"
	"      --micro-idle US        idle gaps shorter than US between kernels, counted\n"
	"      --ops FILE             op categories and models from FILE, not ops.tsv\n"
	"      --short-kernel-us N    threshold of the short-kernel sheets (10)\n"
	"      --split-nice N         the forked writer of unified_perf_summary at nice +N (0)\n"
	"      --topk N               keep the first N rows of short_kernels_summary";

static const struct option longopts[] = {
	{ "all-gpu", no_argument, NULL, 'A' },
	{ "arch", required_argument, NULL, 'a' },
	{ "bins", required_argument, NULL, 'B' },
	{ "csv", no_argument, NULL, 'C' },
	{ "detect-recompute", no_argument, NULL, 'R' },
	{ "diff-stats", required_argument, NULL, 'X' },
	{ "extension-file", required_argument, NULL, 'E' },
	{ "group-by-num-kernels", no_argument, NULL, 'N' },
	{ "group-by-parent-module", no_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{ "include-call-stack", no_argument, NULL, 'T' },
	{ "include-first-occurrence-time", no_argument, NULL, 'F' },
	{ "include-overlap-info", no_argument, NULL, 'V' },
	{ "inference", no_argument, NULL, 'I' },
	{ "info", required_argument, NULL, 'W' },
	{ "list", no_argument, NULL, 'l' },
	{ "micro-idle", required_argument, NULL, 'M' },
	{ "ops", required_argument, NULL, 'D' },
	{ "output", required_argument, NULL, 'o' },
	{ "sheet", required_argument, NULL, 's' },
	{ "short-kernel-us", required_argument, NULL, 'S' },
	{ "split-nice", required_argument, NULL, 'Y' },
	{ "topk", required_argument, NULL, 'K' },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	int all_gpu, csv, inference, parent_module;
	int recompute, num_kernels, call_stack, first_occ, overlap;
	long bins, topk, split_nice;
	double short_us, micro_us;
	const char *dir, *ops, *arch, *diff_stats, *info;
	const char **sheets;
	size_t nsheets;
	const char **ext;	/* --extension-file tables, in order */
	size_t next;
};

static int write_one(struct perf_report *pr, struct perf_sheet *ps, const struct opts *o,
		     const char *name)
{
	char *path = NULL;
	struct sheet *sh;
	size_t n;

	if (o->dir) {
		n = strlen(o->dir) + strlen(name) + 8;
		path = xmalloc(n);
		snprintf(path, n, "%s/%s.%s", o->dir, name, o->csv ? "csv" : "tsv");
	}
	sh = sheet_open(path, o->csv ? SHEET_CSV : SHEET_TSV);
	free(path);
	if (!sh)
		return 1;
	if (perf_report_known(name))
		perf_report_write(pr, name, sh);
	else
		perf_sheet_write(ps, name, sh);
	sheet_close(sh);
	return 0;
}

/*
 * The sheets are written in two processes: unified_perf_summary (and its
 * _kl_overlap), the longest to make (half of the time spent writing sheets
 * on a big trace), in a child forked once the tables are built, the others
 * here.  In tl-report tl-perf is the last program still running, so the
 * other core is free.  Each process makes its sheets from the same tables
 * (copied on write: each sheet reads what was built before the fork and
 * its own memos, nothing another sheet made), so the files are the same
 * bytes as one process writes.  SIDE_ALL: every sheet, in this process.
 */
enum { SIDE_ALL = -1, SIDE_HERE = 0, SIDE_CHILD = 1 };

static int side_of(const char *name)
{
	return strncmp(name, "unified_perf_summary", 20) ? SIDE_HERE : SIDE_CHILD;
}

/* Explicit --sheet names are written even where TraceLens would skip them. */
static int write_side(struct perf_report *pr, struct perf_sheet *ps, const struct opts *o,
		      int side)
{
	int rval = 0;
	const char *name;

	if (o->nsheets) {
		for (size_t i = 0; i < o->nsheets; i++)
			if (side == SIDE_ALL || side_of(o->sheets[i]) == side)
				rval |= write_one(pr, ps, o, o->sheets[i]);
		return rval;
	}
	for (int i = 0; perf_report_names[i]; i++) {
		name = perf_report_names[i];
		if ((side == SIDE_ALL || side_of(name) == side) && perf_report_wanted(pr, name))
			rval |= write_one(pr, ps, o, name);
	}
	if (side == SIDE_CHILD)
		return rval;
	for (size_t i = 0; (name = perf_sheet_name(ps, i)); i++)
		rval |= write_one(pr, ps, o, name);
	return rval;
}

/* Whether an explicit --sheet list names a sheet of that side. */
static int side_named(const struct opts *o, int side)
{
	for (size_t i = 0; i < o->nsheets; i++)
		if (side_of(o->sheets[i]) == side)
			return 1;
	return 0;
}

/*
 * Writes the sheets; the forked process returns what it wrote, and then
 * only frees and exits as this one does.  Serial where the sheets go to
 * stdout, an explicit list leaves a side nothing to write, or fork fails.
 */
static int write_sheets(struct perf_report *pr, struct perf_sheet *ps, const struct opts *o)
{
	pid_t pid, w;
	int rval, st;

	if (!o->dir || (o->nsheets && !(side_named(o, SIDE_HERE) && side_named(o, SIDE_CHILD))))
		return write_side(pr, ps, o, SIDE_ALL);
	fflush(NULL);		/* nothing buffered is written twice */
	pid = fork();
	if (pid < 0)
		return write_side(pr, ps, o, SIDE_ALL);
	if (pid == 0) {
		/*
		 * --split-nice: where other programs share the cores at that
		 * niceness (tl-report's other readers of the node file), the
		 * writer does not push them back; tl-report is done when the
		 * last of them is.
		 */
		errno = 0;
		if (o->split_nice && nice((int)o->split_nice) == -1 && errno)
			tl_warn_errno("--split-nice %ld", o->split_nice);
		return write_side(pr, ps, o, SIDE_CHILD);
	}
	rval = write_side(pr, ps, o, SIDE_HERE);
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (w != pid) {
		tl_warn_errno("waitpid");
		return 1;
	}
	if (WIFSIGNALED(st)) {
		tl_warn("unified_perf_summary: its writer was killed by signal %d", WTERMSIG(st));
		return 1;
	}
	return rval | (WIFEXITED(st) && WEXITSTATUS(st) != 0);
}

/*
 * --arch NAME|FILE, or auto: from the trace's deviceProperties name; *how
 * says which, for report_info.csv
 */
static struct perf_arch *pick_arch(const struct opts *o, const struct tree_nodes *ns, int *bad,
				   const char **how)
{
	struct perf_arch *a = NULL;

	*bad = 0;
	*how = "none";
	if (!o->arch)
		return NULL;
	if (strcmp(o->arch, "auto")) {
		*how = "given";
		if (!(a = perf_arch_load(o->arch)))
			*bad = 1;
		return a;
	}
	*how = "auto";
	if (ns->device && (a = perf_arch_detect(ns->device))) {
		tl_warn("roofline for '%s' with arch %s (%s)", ns->device, a->name, a->path);
	} else {
		*how = "no match";
		tl_warn("no arch table for device '%s': no roofline columns (use --arch NAME)",
			ns->device ? ns->device : "unknown");
	}
	return a;
}

/* --info FILE: report_info.csv */
static void write_info(const struct opts *o, const struct tree_nodes *ns,
		       const struct perf_arch *arch, const char *how)
{
	struct outbuf *ob;

	if (!o->info)
		return;
	ob = outbuf_open_path(o->info);
	report_info_write(ob, ns, arch, how, o->short_us);
	outbuf_close(ob);
}

static void print_name(const char *name)
{
	puts(name);
}

static int run(const char *path, const struct opts *o, const struct perf_ops *db)
{
	struct tree_nodes *ns = tree_nodes_read(path);
	struct perf_tree *tp;
	struct perf_report *pr;
	struct perf_sheet *ps;
	struct perf_arch *arch;
	struct perf_compare *cmp = NULL;
	const char *how;
	int rval;

	if (!ns)
		return 1;
	arch = pick_arch(o, ns, &rval, &how);
	if (rval) {
		tree_nodes_free(ns);
		return 1;
	}
	if (o->diff_stats && !(cmp = perf_compare_load(o->diff_stats))) {
		perf_arch_free(arch);
		tree_nodes_free(ns);
		return 1;
	}
	write_info(o, ns, arch, how);
	tp = perf_tree_new(ns, db, o->all_gpu);
	/* TraceLens's add_python_func: the call stack and recompute options */
	tp->python = tp->python || o->call_stack || o->recompute;
	if (o->recompute)
		perf_tree_recompute(tp);
	if (o->overlap)
		perf_tree_overlap(tp);
	pr = perf_report_new(tp);
	pr->short_us = o->short_us;
	pr->bins = (int)o->bins;
	pr->topk = o->topk;
	pr->inference = o->inference;
	pr->parent_module = o->parent_module;
	pr->micro_us = o->micro_us;
	pr->num_kernels = o->num_kernels;
	pr->call_stack = o->call_stack;
	pr->first_occurrence = o->first_occ;
	pr->compare = cmp;
	ps = perf_sheet_new(pr, arch);
	pr->perf_cols = perf_sheet_unified_cols;
	pr->perf_ctx = ps;
	rval = write_sheets(pr, ps, o);
	perf_sheet_free(ps);
	perf_arch_free(arch);
	perf_report_free(pr);
	perf_compare_free(cmp);
	perf_tree_free(tp);
	tree_nodes_free(ns);
	perf_model_free_texts();
	return rval;
}

static void check_opts(struct opts *o, int nargs, const struct perf_ops *db)
{
	if (nargs > 1)
		tl_usage(usage, 2);
	if (!o->dir && o->nsheets != 1) {
		tl_warn("give one --sheet to write to stdout, or -o DIR");
		tl_usage(usage, 2);
	}
	for (size_t i = 0; i < o->nsheets; i++)
		if (!perf_report_known(o->sheets[i]) && !perf_sheet_exists(db, o->sheets[i])) {
			tl_warn("unknown sheet '%s' (tl-perf -l lists them)", o->sheets[i]);
			exit(2);
		}
	if (o->split_nice < 0 || o->split_nice > 19) {
		tl_warn("--split-nice must be between 0 and 19");
		exit(2);
	}
	if (o->bins < 1 || o->bins > 1000000) {
		tl_warn("--bins must be between 1 and 1000000");
		exit(2);
	}
	if (o->dir && mkdir(o->dir, 0777) && errno != EEXIST)
		tl_die_errno("%s", o->dir);
}

int main(int argc, char **argv)
{
	struct opts o = { .bins = 100, .topk = -1, .short_us = 10, .micro_us = -1 };
	size_t alloc = 0, ealloc = 0;
	int c, rval, list = 0;
	struct perf_ops *db;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "hlo:s:", longopts, usage)) != -1) {
		switch (c) {
		case 'A': o.all_gpu = 1; break;
		case 'a': o.arch = optarg; break;
		case 'B': o.bins = tl_opt_long("--bins", optarg); break;
		case 'C': o.csv = 1; break;
		case 'I': o.inference = 1; break;
		case 'P': o.parent_module = 1; break;
		case 'D': o.ops = optarg; break;
		case 'E':
			xgrow((void **)&o.ext, &ealloc, o.next + 1, sizeof(*o.ext));
			o.ext[o.next++] = optarg;
			break;
		case 'F': o.first_occ = 1; break;
		case 'M': o.micro_us = tl_opt_double("--micro-idle", optarg); break;
		case 'N': o.num_kernels = 1; break;
		case 'R': o.recompute = 1; break;
		case 'T': o.call_stack = 1; break;
		case 'V': o.overlap = 1; break;
		case 'X': o.diff_stats = optarg; break;
		case 'W': o.info = optarg; break;
		case 'K': o.topk = tl_opt_long("--topk", optarg); break;
		case 'Y': o.split_nice = tl_opt_long("--split-nice", optarg); break;
		case 'S': o.short_us = tl_opt_double("--short-kernel-us", optarg); break;
		case 'l': list = 1; break;
		case 'o': o.dir = optarg; break;
		case 's':
			xgrow((void **)&o.sheets, &alloc, o.nsheets + 1, sizeof(*o.sheets));
			o.sheets[o.nsheets++] = optarg;
			break;
		default: tl_usage(usage, 2);
		}
	}
	db = perf_ops_load(o.ops);
	/* TraceLens's perf_model_extension / op_category_extension, as table
	 * rows: a known name is replaced in place, a new one appended */
	for (size_t i = 0; i < o.next; i++)
		perf_ops_extend(db, o.ext[i]);
	if (list) {
		for (int i = 0; perf_report_names[i]; i++)
			puts(perf_report_names[i]);
		perf_sheet_each_name(db, print_name);
		perf_ops_free(db);
		return 0;
	}
	check_opts(&o, argc - optind, db);
	rval = run(optind < argc ? argv[optind] : NULL, &o, db);
	perf_ops_free(db);
	free(o.sheets);
	free(o.ext);
	return rval;
}
