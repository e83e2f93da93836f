/*
 * tl-fuse: the ranks' traces of one job as one Chrome/Perfetto trace, as
 * TraceLens's TraceFusion writes it, streaming.  See tl-fuse(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "fuse.h"
#include "opt.h"
#include "outbuf.h"
#include "outbuf_gzip.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-fuse [-hv] [--no-filter] [-o FILE] [--python] [-r LIST] [-w START:END] TRACE...\n"
	"       tl-fuse [-hv] [--no-filter] [-o FILE] [--python] [-r LIST] [-w START:END] --job DIR";

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "job", required_argument, NULL, 'J' },
	{ "no-filter", no_argument, NULL, 'N' },
	{ "output", required_argument, NULL, 'o' },
	{ "python", no_argument, NULL, 'P' },
	{ "ranks", required_argument, NULL, 'r' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "window", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static _Noreturn void bad_ranks(const char *list)
{
	tl_warn("--ranks: not a list of ranks such as 0,3,5-7: '%s'", list);
	tl_usage(usage, TL_EXIT_USAGE);
}

/* A number of the list, or exit 2. */
static long rank_number(const char *s, char **end, const char *list)
{
	if (*s < '0' || *s > '9')
		bad_ranks(list);
	return strtol(s, end, 10);
}

/* --ranks 0,3,5-7: sel[r] = 1 for each; exit 2 on a bad list. */
static void parse_ranks(const char *list, char *sel, unsigned n)
{
	const char *s = list;
	char *end;

	memset(sel, 0, n);
	for (;;) {
		long a = rank_number(s, &end, list), b = a;
		if (*end == '-')
			b = rank_number(end + 1, &end, list);
		if (a > b || (unsigned long)b >= n) {
			tl_warn("--ranks: %s: the ranks here are 0 to %u", list, n - 1);
			tl_usage(usage, TL_EXIT_USAGE);
		}
		for (long r = a; r <= b; r++)
			sel[r] = 1;
		if (!*end)
			return;
		if (*end != ',')
			bad_ranks(list);
		s = end + 1;
	}
}

/* --window START:END (either may be empty): exit 2 if bad. */
static void parse_window(const char *arg, struct fuse_opts *o)
{
	const char *colon = strchr(arg, ':');
	char *end;

	o->window = 1;
	o->start = -1e308;
	o->end = 1e308;
	if (!colon)
		goto bad;
	if (colon != arg) {
		o->start = strtod(arg, &end);
		if (end != colon)
			goto bad;
	}
	if (colon[1]) {
		o->end = strtod(colon + 1, &end);
		if (*end)
			goto bad;
	}
	if (o->start <= o->end)
		return;
bad:
	tl_warn("--window: not START:END in µs: '%s'", arg);
	tl_usage(usage, TL_EXIT_USAGE);
}

/*
 * --job DIR: the traces of DIR/ranks.csv (tl-ranks(1)), indexed by its
 * rank column, which must hold 0 to N-1 once each.  NULL (reported) if not.
 */
static char **job_traces(const char *dir, unsigned *n)
{
	size_t plen = strlen(dir) + sizeof("/ranks.csv");
	char *path = xmalloc(plen);
	char **tr = NULL;
	struct csv c;
	long rc, tc;

	snprintf(path, plen, "%s/ranks.csv", dir);
	if (csv_read(&c, path) < 0) {
		free(path);
		return NULL;
	}
	rc = csv_col(&c, "rank");
	tc = csv_col(&c, "trace");
	if (rc < 0 || tc < 0 || !c.nrows) {
		tl_warn("%s: no rank and trace columns, or no rows", path);
		goto out;
	}
	tr = xcalloc(c.nrows, sizeof(*tr));
	for (size_t i = 0; i < c.nrows; i++) {
		const struct csv_field *r = csv_at(&c, i, (size_t)rc);
		const struct csv_field *t = csv_at(&c, i, (size_t)tc);
		char num[24];
		unsigned long k;
		char *end;
		snprintf(num, sizeof(num), "%.*s", (int)(r->n < 23 ? r->n : 23), r->s);
		k = strtoul(num, &end, 10);
		if (!r->n || *end || k >= c.nrows || tr[k]) {
			tl_warn("%s:%zu: rank '%s' is not one of 0 to %zu, once each",
				path, c.line[i], num, c.nrows - 1);
			for (size_t m = 0; m < c.nrows; m++)
				free(tr[m]);
			free(tr);
			tr = NULL;
			goto out;
		}
		tr[k] = xstrndup(t->s, t->n);
	}
	*n = (unsigned)c.nrows;
out:
	csv_release(&c);
	free(path);
	return tr;
}

static int fuse_all(char **traces, unsigned n, const char *sel,
		    const struct fuse_opts *o, const char *out)
{
	size_t olen = out ? strlen(out) : 0;
	struct outbuf_gzip *gz = NULL;
	struct outbuf *ob;
	struct fuse *f;
	int rval = 0, fd;

	if (olen > 3 && !strcmp(out + olen - 3, ".gz")) {
		gz = outbuf_gzip_open(out, 1, &fd);
		ob = outbuf_open_fd(fd);
	} else {
		ob = outbuf_open_path(out);
	}
	f = fuse_new(ob, o, n);
	for (unsigned r = 0; r < n; r++)
		if (!sel || sel[r])
			rval |= fuse_rank(f, r, traces[r]);
	fuse_finish(f);
	fuse_free(f);
	outbuf_close(ob);
	if (gz && outbuf_gzip_close(gz, fd) < 0)
		rval = 1;
	return rval;
}

int main(int argc, char **argv)
{
	struct fuse_opts o = { 0, 0, 0, 0, 0, 0 };
	const char *out = NULL, *job = NULL, *ranks = NULL;
	char **traces, *sel = NULL;
	unsigned n;
	int ch, rval;

	tl_init(argv[0]);
	while ((ch = tl_getopt(argc, argv, "ho:r:vw:", longopts, usage)) != -1) {
		switch (ch) {
		case 'J': job = optarg; break;
		case 'N': o.all_cats = 1; break;
		case 'o': out = optarg; break;
		case 'P': o.python = 1; break;
		case 'r': ranks = optarg; break;
		case 'v': o.verbose = 1; break;
		case 'w': parse_window(optarg, &o); break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (!job == !argc)
		tl_usage(usage, TL_EXIT_USAGE);
	traces = argv;
	n = (unsigned)argc;
	if (job && !(traces = job_traces(job, &n)))
		return TL_EXIT_BAD;
	if (ranks) {
		sel = xmalloc(n);
		parse_ranks(ranks, sel, n);
	}
	rval = fuse_all(traces, n, sel, &o, out);
	if (job) {
		for (unsigned r = 0; r < n; r++)
			free(traces[r]);
		free(traces);
	}
	free(sel);
	return rval ? TL_EXIT_BAD : TL_EXIT_OK;
}
