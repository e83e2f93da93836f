/*
 * tl-coll: TraceLens's collective analysis as map and reduce.  --extract
 * keeps one trace's collective kernels (an event or node stream in, a
 * small collectives stream out: common/coll_extract.c); without it the
 * collectives streams of all ranks become the multi-rank report's sheets
 * (common/coll_report.c); --coll-analysis writes one trace's
 * coll_analysis sheet.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_extract.h"
#include "coll_group.h"
#include "coll_report.h"
#include "err.h"
#include "opt.h"
#include "outbuf.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-coll --extract [-h] [--rank N] [-o FILE [--analysis-dir DIR]] [EVENTS]\n"
	"       tl-coll [-h] [--agg-metrics LIST] [--all2allv-heatmap] [--gpus-per-node N]\n"
	"               [--no-strict] -o DIR STREAM...\n"
	"       tl-coll --coll-analysis [-h] -o DIR STREAM\n"
	"\n"
	"  -h, --help             print this help and exit\n"
	"  -o, --output FILE|DIR  the stream (--extract) or the report's folder\n"
	"      --analysis-dir DIR  with --extract -o FILE: also write DIR/coll_analysis.csv\n"
	"      --agg-metrics, --agg_metrics LIST  aggregations of the summary sheets\n"
	"      --all2allv-heatmap, --all2allv_heatmap  also write nccl_all2allv_heatmap.csv\n"
	"      --coll-analysis    write one trace's coll_analysis.csv\n"
	"      --extract          the map step: one trace's collectives stream\n"
	"      --gpus-per-node, --gpus_per_node N  GPUs per node for the node columns\n"
	"      --no-strict        warn about ranks that disagree, take rank 0's metadata\n"
	"      --rank N           with --extract: the rank of a trace without one";

enum {
	OPT_AGG = 256, OPT_HEATMAP, OPT_ANALYSIS, OPT_ANALYSIS_DIR, OPT_EXTRACT, OPT_GPN,
	OPT_NO_STRICT, OPT_RANK
};

static const struct option longopts[] = {
	{ "agg-metrics", required_argument, NULL, OPT_AGG },
	{ "agg_metrics", required_argument, NULL, OPT_AGG },
	{ "all2allv-heatmap", no_argument, NULL, OPT_HEATMAP },
	{ "all2allv_heatmap", no_argument, NULL, OPT_HEATMAP },
	{ "analysis-dir", required_argument, NULL, OPT_ANALYSIS_DIR },
	{ "coll-analysis", no_argument, NULL, OPT_ANALYSIS },
	{ "extract", no_argument, NULL, OPT_EXTRACT },
	{ "gpus-per-node", required_argument, NULL, OPT_GPN },
	{ "gpus_per_node", required_argument, NULL, OPT_GPN },
	{ "help", no_argument, NULL, 'h' },
	{ "no-strict", no_argument, NULL, OPT_NO_STRICT },
	{ "output", required_argument, NULL, 'o' },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ NULL, 0, NULL, 0 }
};

struct args {
	int mode;		/* 0: report, OPT_EXTRACT, OPT_ANALYSIS */
	const char *out;
	const char *analysis_dir;	/* --extract: coll_analysis.csv too */
	long rank;
	char *aggbuf;
	const char **agg;
	size_t nagg;
	struct coll_report_opts o;
};

/* "mean,median max": pandas' aggregation names, comma- or space-separated */
static void parse_agg(struct args *a, const char *arg)
{
	size_t alloc = 0;

	free(a->aggbuf);
	free(a->agg);
	a->agg = NULL;
	a->nagg = 0;
	a->aggbuf = xstrdup(arg);
	for (char *p = a->aggbuf, *tok; (tok = strsep(&p, ", ")); ) {
		if (!*tok)
			continue;
		if (!coll_group_agg_known(tok) || !strcmp(tok, "size") || !strcmp(tok, "sum/1000")) {
			tl_warn("--agg-metrics: unknown aggregation '%s' (use sum, mean, median, std, var, min, max, count, first, last)",
				tok);
			exit(TL_EXIT_USAGE);
		}
		for (size_t i = 0; i < a->nagg; i++)
			if (!strcmp(a->agg[i], tok)) {
				tl_warn("--agg-metrics: '%s' twice", tok);
				exit(TL_EXIT_USAGE);
			}
		xgrow((void **)&a->agg, &alloc, a->nagg + 1, sizeof(*a->agg));
		a->agg[a->nagg++] = tok;
	}
	if (!a->nagg) {
		tl_warn("--agg-metrics needs at least one aggregation");
		exit(TL_EXIT_USAGE);
	}
}

static void parse_args(struct args *a, int argc, char **argv)
{
	int c;

	while ((c = tl_getopt(argc, argv, "ho:", longopts, usage)) != -1)
		switch (c) {
		case OPT_AGG: parse_agg(a, optarg); break;
		case OPT_HEATMAP: a->o.heatmap = 1; break;
		case OPT_ANALYSIS:
		case OPT_EXTRACT: a->mode = c; break;
		case OPT_ANALYSIS_DIR: a->analysis_dir = optarg; break;
		case OPT_GPN:
			if ((a->o.gpus_per_node = tl_opt_long("--gpus-per-node", optarg)) < 1) {
				tl_warn("--gpus-per-node must be a positive integer, got %s", optarg);
				exit(TL_EXIT_USAGE);
			}
			break;
		case OPT_NO_STRICT: a->o.strict = 0; break;
		case 'o': a->out = optarg; break;
		case OPT_RANK: a->rank = tl_opt_long("--rank", optarg); break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	a->o.agg = a->agg;
	a->o.nagg = a->nagg;
}

/*
 * --extract --analysis-dir: the sheet from the stream just written, read
 * back as --coll-analysis reads it (the same values to the last digit),
 * in the same process: tl-report starts one program less per trace.
 */
static int analysis(const char *stream, const char *dir)
{
	struct coll_rank r;
	int rval;

	if (coll_stream_read(&r, stream) < 0)
		return TL_EXIT_BAD;
	rval = coll_analysis_write(&r, dir);
	coll_rank_release(&r);
	return rval;
}

static int extract(const struct args *a, int argc, char **argv)
{
	struct coll_rank r;
	struct outbuf *ob;

	if (argc - optind > 1) {
		tl_warn("--extract reads one trace's stream (got %d)", argc - optind);
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (a->analysis_dir && (!a->out || !strcmp(a->out, "-"))) {
		tl_warn("--analysis-dir reads back the stream: give -o FILE");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (coll_extract(&r, optind < argc ? argv[optind] : NULL, a->rank) < 0)
		return TL_EXIT_BAD;
	ob = outbuf_open_path(a->out);
	coll_stream_write(&r, ob);
	outbuf_close(ob);
	coll_rank_release(&r);
	return a->analysis_dir ? analysis(a->out, a->analysis_dir) : TL_EXIT_OK;
}

static int reduce(const struct args *a, int argc, char **argv)
{
	size_t n = (size_t)(argc - optind);
	struct coll_rank *r = xcalloc(n, sizeof(*r));
	int rval = TL_EXIT_OK;

	if (!a->out || !n || (a->mode == OPT_ANALYSIS && n != 1)) {
		tl_warn("%s", !a->out ? "-o DIR is needed" : a->mode == OPT_ANALYSIS ?
			"--coll-analysis reads one stream" : "no collectives streams given");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	/* read them all, reporting every bad one, before writing anything */
	for (size_t i = 0; i < n; i++)
		if (coll_stream_read(&r[i], argv[optind + (int)i]) < 0)
			rval = TL_EXIT_BAD;
	if (rval == TL_EXIT_OK)
		rval = a->mode == OPT_ANALYSIS ? coll_analysis_write(&r[0], a->out) :
		       coll_report_write(r, n, a->out, &a->o);
	for (size_t i = 0; i < n; i++)
		coll_rank_release(&r[i]);
	free(r);
	return rval;
}

int main(int argc, char **argv)
{
	struct args a = { 0, NULL, NULL, -1, NULL, NULL, 0, COLL_REPORT_OPTS_INIT };
	int rval;

	tl_init(argv[0]);
	parse_args(&a, argc, argv);
	if (a.mode != OPT_EXTRACT && (a.rank >= 0 || a.analysis_dir)) {
		tl_warn("%s goes with --extract", a.rank >= 0 ? "--rank" : "--analysis-dir");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	rval = a.mode == OPT_EXTRACT ? extract(&a, argc, argv) : reduce(&a, argc, argv);
	free(a.agg);
	free(a.aggbuf);
	return rval;
}
