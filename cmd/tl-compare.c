/*
 * tl-compare: compare finished report folders (TraceLens's
 * compare_perf_reports_pytorch).  The work is in common/compare.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "opt.h"
#include "compare.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-compare BASE_DIR VARIANT_DIR... [--names NAME,...] "
	"[--sheets SHEET,...] -o DIR\n"
	"\n"
	"  -h, --help             print this help and exit\n"
	"  -o, --output DIR       write the comparison sheets into DIR (required)\n"
	"      --names NAME,...   the reports' tags, one per folder (default: base names)\n"
	"      --sheets SHEET,...  groups to compare (tl-compare(1); default all)";

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "names", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "sheets", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 }
};

/* Appends the comma-separated words of arg to *list. */
static void split_words(const char *arg, char ***list, size_t *n, size_t *alloc)
{
	const char *p = arg;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		xgrow((void **)list, alloc, *n + 1, sizeof(**list));
		(*list)[(*n)++] = xstrndup(p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
}

static void parse_sheets(char **words, size_t n, struct compare *rc)
{
	for (size_t i = 0; i < n; i++) {
		unsigned bit = compare_group(words[i]);
		if (!bit) {
			tl_warn("--sheets: unknown sheet group '%s' (want "
				"gpu_timeline, ops_summary, kernel_summary, "
				"ops_all, roofline or all)", words[i]);
			exit(TL_EXIT_USAGE);
		}
		rc->groups |= bit;
		if (bit != RC_ALL)
			rc->groups_named |= bit;
	}
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* Tags: --names, or each folder's base name; NULL after a message where
 * one is empty or repeated (a usage error). */
static char **make_tags(char **names, size_t nnames, char **dirs, size_t n)
{
	char **tags;

	if (nnames && nnames != n) {
		tl_warn("--names: %zu names for %zu reports", nnames, n);
		return NULL;
	}
	tags = xcalloc(n, sizeof(*tags));
	for (size_t i = 0; i < n; i++)
		tags[i] = nnames ? xstrdup(names[i]) : compare_default_tag(dirs[i]);
	for (size_t i = 0; i < n; i++) {
		int bad = !tags[i][0] || strchr(tags[i], '/');
		if (bad)	/* a tag names output files: OUT/SHEET_intersect_TAG.csv */
			tl_warn("report %zu: name '%s' is empty or has a '/'; use "
				"--names", i + 1, tags[i]);
		for (size_t j = 0; j < i && !bad; j++)
			if (!strcmp(tags[i], tags[j])) {
				tl_warn("report name '%s' is used twice; use "
					"--names to tell the reports apart", tags[i]);
				bad = 1;
			}
		if (bad) {
			free_list(tags, n);
			return NULL;
		}
	}
	return tags;
}

/* mkdir -p */
static void make_dir(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			tl_die_errno("%s", p);
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		tl_die_errno("%s", p);
	free(p);
}

static int check_dirs(char **dirs, size_t n)
{
	struct stat st;
	int ok = 1;

	for (size_t i = 0; i < n; i++)
		if (stat(dirs[i], &st) < 0) {
			tl_warn_errno("%s", dirs[i]);
			ok = 0;
		} else if (!S_ISDIR(st.st_mode)) {
			tl_warn("%s: not a directory", dirs[i]);
			ok = 0;
		}
	return ok;
}


int main(int argc, char **argv)
{
	struct compare rc = { 0 };
	char **names = NULL, **sheets = NULL, **tags;
	size_t nnames = 0, anames = 0, nsheets = 0, asheets = 0;
	int c, status;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "ho:", longopts, usage)) != -1) {
		switch (c) {
		case 'n': split_words(optarg, &names, &nnames, &anames); break;
		case 'o': rc.outdir = optarg; break;
		case 's': split_words(optarg, &sheets, &nsheets, &asheets); break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	if (argc - optind < 2 || !rc.outdir)
		tl_usage(usage, TL_EXIT_USAGE);
	rc.n = (size_t)(argc - optind);
	rc.dirs = argv + optind;
	parse_sheets(sheets, nsheets, &rc);
	if (!nsheets)
		rc.groups = RC_ALL;
	tags = make_tags(names, nnames, argv + optind, rc.n);
	rc.tags = tags;
	status = tags ? TL_EXIT_BAD : TL_EXIT_USAGE;
	if (tags && check_dirs(argv + optind, rc.n)) {
		make_dir(rc.outdir);
		status = compare_run(&rc);
	}
	if (tags)
		free_list(tags, rc.n);
	free_list(names, nnames);
	free_list(sheets, nsheets);
	return status;
}
