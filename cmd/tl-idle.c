/*
 * tl-idle: why the GPU waits.  HTA's temporal, idle-time, overlap,
 * kernel-type, launch and queue-length breakdowns of one or more ranks'
 * node streams, HTA's critical path of one iteration, or the job-level
 * folder merged from per-rank ones.  See tl-idle(1); the work is in
 * common/idle_*.c and common/critpath_*.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "critpath_graph.h"
#include "critpath_overlay.h"
#include "critpath_path.h"
#include "err.h"
#include "idle_merge.h"
#include "idle_report.h"
#include "idle_trace.h"
#include "opt.h"
#include "outbuf.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-idle [-hv] [-r RANKS] [--kernel-delay US] [--rank R] -o DIR [NODES...]\n"
	"       tl-idle --critical-path ANNOTATION [--data-load NAME]... [--instance N[:M]]\n"
	"               [--rank R] -o DIR [NODES]\n"
	"       tl-idle --merge [-r RANKS] -o DIR IDLE_DIR...";

enum { OPT_CRIT = 256, OPT_DATA_LOAD, OPT_INSTANCE, OPT_KERNEL_DELAY, OPT_MERGE, OPT_RANK };

static const struct option longopts[] = {
	{ "critical-path", required_argument, NULL, OPT_CRIT },
	{ "data-load", required_argument, NULL, OPT_DATA_LOAD },
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

/* -v: what HTA's rules made of a trace */
static void report_trace(const struct idle_set *set, const struct idle_trace *t)
{
	size_t gpu = 0;

	for (size_t i = 0; i < t->n; i++)
		gpu += t->ev[i].stream != -1;
	tl_warn("%s: rank %ld: %zu rows kept, %zu of them with a stream; times %s; "
		"ProfilerStep filter %s", t->source, t->rank, t->n, gpu,
		t->rounded ? "rounded to whole us" : "as written",
		set->filtered ? "applied (the last step's kernels left out)" : "not applied");
}

/*
 * The breakdowns of every trace in the streams named (stdin without any);
 * rank >= 0 names the rank of the one trace (tl-ranks knows it).
 */
static int breakdowns(char **paths, int n, const struct idle_opts *o, long rank,
		      const char *dir)
{
	struct idle_set set;
	int rval = 0;

	idle_set_init(&set, 0);
	for (int i = 0; i < (n ? n : 1); i++)
		if (idle_set_read(&set, n ? paths[i] : NULL) < 0)
			rval = 1;
	if (rval == 0 && rank >= 0) {
		if (set.n != 1) {
			tl_warn("--rank names the rank of one trace; the streams hold %zu", set.n);
			rval = 1;
		} else {
			set.t[0].rank = rank;
		}
	}
	if (rval == 0 && idle_set_finish(&set) < 0)
		rval = 1;
	for (size_t i = 0; rval == 0 && o->verbose && i < set.n; i++)
		report_trace(&set, &set.t[i]);
	if (rval == 0)
		rval = idle_report_write(&set, o, dir);
	idle_set_release(&set);
	return rval;
}

/* What --critical-path asks for. */
struct cp_opts {
	const char *annotation;
	char **data_load;	/* --data-load, repeated */
	size_t ndata_load;
	long first, last;	/* --instance N or N:M */
	long rank;		/* -1: the only trace, or rank 0 */
};

static int parse_instance(const char *arg, struct cp_opts *c)
{
	char *end;

	c->first = strtol(arg, &end, 10);
	if (end == arg || c->first < 0)
		return -1;
	c->last = c->first;
	if (*end == ':') {
		const char *p = end + 1;
		c->last = strtol(p, &end, 10);
		if (end == p || c->last < c->first)
			return -1;
	}
	return *end ? -1 : 0;
}

/*
 * The overlay reads the stream a second time: standard input is first
 * copied to a temporary file.  Returns the path to read, or NULL.
 */
static char *spool_stdin(void)
{
	const char *tmpdir = getenv("TMPDIR");
	size_t len;
	char *path, buf[65536];
	ssize_t n;
	int fd;

	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	len = strlen(tmpdir) + 32;
	path = malloc(len);
	if (!path)
		tl_die("out of memory");
	snprintf(path, len, "%s/tl-idle.XXXXXX", tmpdir);
	fd = mkstemp(path);
	if (fd < 0) {
		tl_warn_errno("%s: cannot make a temporary file", path);
		free(path);
		return NULL;
	}
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n) {
			tl_warn_errno("%s: write error", path);
			n = -1;
			break;
		}
	close(fd);
	if (n < 0) {
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

static int write_critical_path(struct critpath *g, const char *nodes, const char *dir)
{
	struct outbuf *ob;
	char *p;
	size_t n = strlen(dir) + 40;

	if (idle_mkdirs(dir) < 0)
		return 1;
	p = malloc(n);
	if (!p)
		tl_die("out of memory");
	snprintf(p, n, "%s/critical_path_summary.csv", dir);
	ob = outbuf_open_path(p);
	critpath_write_summary(g, ob);
	outbuf_close(ob);
	snprintf(p, n, "%s/critical_path_breakdown.csv", dir);
	ob = outbuf_open_path(p);
	critpath_write_breakdown(g, ob);
	outbuf_close(ob);
	free(p);
	return critpath_overlay(g, nodes, dir) < 0;
}

static int critical_path(const char *input, const struct cp_opts *c, const char *dir)
{
	struct idle_set set;
	struct critpath g;
	char *spooled = NULL;
	const char *path = input;
	const struct idle_trace *t = NULL;
	int rval = 1;

	if (!path || !strcmp(path, "-")) {
		if (!(spooled = spool_stdin()))
			return 1;
		path = spooled;
	}
	idle_set_init(&set, 1);
	if (idle_set_read(&set, path) == 0 && idle_set_finish(&set) == 0) {
		for (size_t i = 0; i < set.n; i++)
			if (set.t[i].rank == (c->rank < 0 ? 0 : c->rank) || (c->rank < 0 && set.n == 1))
				t = &set.t[i];
		if (!t)
			tl_warn("%s: no trace of rank %ld", input ? input : "-",
				c->rank < 0 ? 0 : c->rank);
	}
	if (t && critpath_build(&g, &set, t, c->annotation, c->first, c->last, c->data_load,
				c->ndata_load) == 0) {
		if (critpath_solve(&g) == 0)
			rval = write_critical_path(&g, path, dir);
		critpath_release(&g);
	} else if (t) {
		critpath_release(&g);
	}
	idle_set_release(&set);
	if (spooled) {
		unlink(spooled);
		free(spooled);
	}
	return rval;
}

int main(int argc, char **argv)
{
	struct idle_opts o = IDLE_OPTS_INIT;
	struct cp_opts cp = { NULL, NULL, 0, 0, 0, -1 };
	const char *dir = NULL;
	int c, rval, merge = 0;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "ho:r:v", longopts, usage)) != -1)
		switch (c) {
		case OPT_CRIT: cp.annotation = optarg; break;
		case OPT_DATA_LOAD:
			cp.data_load = realloc(cp.data_load, (cp.ndata_load + 1) * sizeof(char *));
			if (!cp.data_load)
				tl_die("out of memory");
			cp.data_load[cp.ndata_load++] = optarg;
			break;
		case OPT_INSTANCE:
			if (parse_instance(optarg, &cp) < 0) {
				tl_warn("--instance wants N or N:M (N <= M): '%s'", optarg);
				tl_usage(usage, TL_EXIT_USAGE);
			}
			break;
		case OPT_MERGE: merge = 1; break;
		case OPT_RANK: cp.rank = tl_opt_long("--rank", optarg); break;
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
	if (cp.annotation && (merge || argc - optind > 1)) {
		tl_warn("--critical-path reads one stream");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (merge && optind == argc) {
		tl_warn("--merge needs the ranks' idle folders");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (cp.annotation)
		rval = critical_path(optind < argc ? argv[optind] : NULL, &cp, dir);
	else if (merge)
		rval = idle_merge(argv + optind, (size_t)(argc - optind), &o, dir);
	else
		rval = breakdowns(argv + optind, argc - optind, &o, cp.rank, dir);
	idle_opts_release(&o);
	free(cp.data_load);
	return rval;
}
