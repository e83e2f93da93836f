/*
 * tl-xlsx: a report folder of SHEET.csv files (or CSV files named one by
 * one) as one Excel workbook, sheets in TraceLens's order.  The work is in
 * common/xlsx.c and common/sheet_order.c.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "err.h"
#include "opt.h"
#include "sheet_order.h"
#include "xalloc.h"
#include "xlsx.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-xlsx [-h] [-o FILE] DIR\n"
	"       tl-xlsx [-h] [-o FILE] CSV ...\n"
	"\n"
	"  -h, --help         print this help and exit\n"
	"  -o, --output FILE  write the workbook to FILE (- for stdout; default DIR.xlsx)";

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};

struct list {
	char **v;
	size_t n, alloc;
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The sheet name a file gives: its base name without ".csv". */
static char *sheet_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return xstrndup(base, strlen(base) - (has_suffix(base, ".csv") ? 4 : 0));
}

/* DIR/NAME.csv for every NAME in TraceLens's sheet order; -1 if none. */
static int list_dir(const char *dir, struct list *files)
{
	struct list names = { 0 };
	size_t dlen = strlen(dir);
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp) {
		tl_warn_errno("%s", dir);
		return -1;
	}
	while ((d = readdir(dp))) {
		if (!has_suffix(d->d_name, ".csv") || d->d_name[0] == '.')
			continue;
		xgrow((void **)&names.v, &names.alloc, names.n + 1, sizeof(char *));
		names.v[names.n++] = xstrndup(d->d_name, strlen(d->d_name) - 4);
	}
	closedir(dp);
	if (!names.n) {
		tl_warn("%s: no .csv files", dir);
		return -1;
	}
	sheet_order_sort(names.v, names.n);
	for (size_t i = 0; i < names.n; i++) {
		size_t len = strlen(names.v[i]);
		char *p = xmalloc(st_add(dlen, len) + 6);
		tl_memcpy(p, dir, dlen);
		p[dlen] = '/';
		tl_memcpy(p + dlen + 1, names.v[i], len);
		tl_memcpy(p + dlen + 1 + len, ".csv", 5);
		xgrow((void **)&files->v, &files->alloc, files->n + 1, sizeof(char *));
		files->v[files->n++] = p;
		free(names.v[i]);
	}
	free(names.v);
	return 0;
}

/*
 * DIR.xlsx or NAME.xlsx for NAME.csv, with trailing slashes and a "_csvs"
 * suffix dropped (TraceLens's X_perf_report_csvs/ is X_perf_report.xlsx).
 */
static char *default_output(const char *dir)
{
	size_t n = strlen(dir);
	char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n > 5 && !memcmp(dir + n - 5, "_csvs", 5) && dir[n - 6] != '/')
		n -= 5;
	else if (n > 4 && !memcmp(dir + n - 4, ".csv", 4) && dir[n - 5] != '/')
		n -= 4;
	p = xmalloc(n + 6);
	tl_memcpy(p, dir, n);
	tl_memcpy(p + n, ".xlsx", 6);
	return p;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds each file as a sheet; 1 if one could not be read. */
static int add_files(struct xlsx *x, char **files, size_t n)
{
	int rval = 0;

	for (size_t i = 0; i < n; i++) {
		struct csv c;
		char *name;
		if (is_dir(files[i])) {
			tl_warn("%s: is a directory", files[i]);
			rval = 1;
			continue;
		}
		if (csv_read(&c, files[i]) < 0) {
			rval = 1;
			continue;
		}
		name = sheet_of(files[i]);
		xlsx_add_csv(x, name, &c);
		free(name);
		csv_release(&c);
	}
	return rval;
}

int main(int argc, char **argv)
{
	struct list files = { 0 };
	char *out = NULL;
	struct xlsx *x;
	int c, rval;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "ho:", longopts, usage)) != -1) {
		switch (c) {
		case 'o': free(out); out = xstrdup(optarg); break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		tl_usage(usage, TL_EXIT_USAGE);
	if (argc == 1 && access(argv[0], F_OK) < 0) {
		tl_warn_errno("%s", argv[0]);
		free(out);
		return TL_EXIT_BAD;
	}
	if (argc == 1 && is_dir(argv[0]) && list_dir(argv[0], &files) < 0) {
		free(out);
		return TL_EXIT_BAD;
	}
	if (!out && argc > 1) {
		tl_warn("-o FILE is needed with more than one CSV file");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (!out)
		out = default_output(argv[0]);
	if (!(x = xlsx_open(out))) {
		free(out);
		return TL_EXIT_BAD;
	}
	rval = files.n ? add_files(x, files.v, files.n)
		       : add_files(x, argv, (size_t)argc);
	if (xlsx_close(x) < 0)
		rval = 1;
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	free(out);
	return rval;
}
