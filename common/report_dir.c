#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "path.h"
#include "report_dir.h"
#include "xalloc.h"
#include "banned.h"

struct report_sheet {
	char *name;
	int state;		/* 0 absent, 1 read, -1 unreadable */
	struct csv c;
};

int report_dir_has(const struct report_dir *rd, const char *name)
{
	char *p = path_join(rd->path, name, "");
	struct stat st;
	int r = stat(p, &st) == 0;

	free(p);
	return r;
}

struct report_dir *report_dir_open(const char *path)
{
	struct report_dir *rd;
	struct stat st;

	if (stat(path, &st) < 0) {
		tl_warn_errno("%s", path);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		tl_warn("%s: not a folder (give a report folder)", path);
		return NULL;
	}
	rd = xcalloc(1, sizeof(*rd));
	rd->path = xstrdup(path);
	/* a trailing '/' would double in joined names */
	for (size_t n = strlen(rd->path); n > 1 && rd->path[n - 1] == '/'; n--)
		rd->path[n - 1] = 0;
	/* a job: tl-ranks's folder, or TraceLens's multi-rank collective sheets */
	if (report_dir_has(rd, "ranks.csv") || report_dir_has(rd, "straggler_summary.csv") ||
	    report_dir_has(rd, "nccl_implicit_sync.csv"))
		rd->kind = REPORT_JOB;
	else if (report_dir_has(rd, "diff_stats.csv"))
		rd->kind = REPORT_DIFF;
	else if (report_dir_has(rd, "gpu_timeline.csv") || report_dir_has(rd, "ops_summary.csv") ||
		 report_dir_has(rd, "kernel_summary.csv"))
		rd->kind = REPORT_TRACE;
	else {
		tl_warn("%s: not a report folder (no ranks.csv, straggler_summary.csv, "
			"nccl_implicit_sync.csv, diff_stats.csv, gpu_timeline.csv, ops_summary.csv "
			"or kernel_summary.csv)", path);
		report_dir_free(rd);
		return NULL;
	}
	return rd;
}

void report_dir_free(struct report_dir *rd)
{
	if (!rd)
		return;
	for (size_t i = 0; i < rd->nsheets; i++) {
		if (rd->sheets[i].state > 0)
			csv_release(&rd->sheets[i].c);
		free(rd->sheets[i].name);
	}
	free(rd->sheets);
	free(rd->path);
	free(rd);
}

const char *report_dir_name(const struct report_dir *rd)
{
	const char *s = strrchr(rd->path, '/');

	return s && s[1] ? s + 1 : rd->path;
}

const struct csv *report_dir_sheet(struct report_dir *rd, const char *name)
{
	struct report_sheet *sh;
	char *path;
	struct stat st;

	for (size_t i = 0; i < rd->nsheets; i++)
		if (!strcmp(rd->sheets[i].name, name))
			return rd->sheets[i].state > 0 ? &rd->sheets[i].c : NULL;
	xgrow((void **)&rd->sheets, &rd->alloc, rd->nsheets + 1, sizeof(*rd->sheets));
	sh = &rd->sheets[rd->nsheets++];
	sh->name = xstrdup(name);
	sh->state = 0;
	path = path_join(rd->path, name, ".csv");
	if (stat(path, &st) == 0) {
		sh->state = csv_read(&sh->c, path) == 0 ? 1 : -1;
		if (sh->state < 0)
			rd->bad = 1;
	}
	free(path);
	return sh->state > 0 ? &sh->c : NULL;
}

struct csv_rows *report_dir_rows(struct report_dir *rd, const char *name)
{
	char *path = path_join(rd->path, name, ".csv");
	struct csv_rows *r = NULL;
	struct stat st;

	if (stat(path, &st) == 0 && !(r = csv_rows_open(path)))
		rd->bad = 1;
	free(path);
	return r;
}

long report_col(const struct csv *c, const char *name)
{
	return c ? csv_col(c, name) : -1;
}

const char *report_str(const struct csv *c, size_t row, long col, size_t *len)
{
	const struct csv_field *f;

	if (!c || col < 0 || row >= c->nrows) {
		*len = 0;
		return "";
	}
	f = csv_at(c, row, (size_t)col);
	*len = f->n;
	return f->s;
}

double report_num(const struct csv *c, size_t row, long col)
{
	size_t n;
	const char *s = report_str(c, row, col, &n);

	return report_num_text(s, n);
}

double report_num_text(const char *s, size_t n)
{
	char buf[64], *end;
	double v;

	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n || n >= sizeof(buf))
		return NAN;
	tl_memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	v = strtod(buf, &end);
	return *end ? NAN : v;
}

const char *report_info(struct report_dir *rd, const char *key, size_t *len)
{
	const struct csv *c = report_dir_sheet(rd, "report_info");
	long k = report_col(c, "key"), v = report_col(c, "value");
	size_t kl = strlen(key);

	*len = 0;
	if (k < 0 || v < 0)
		return NULL;
	for (size_t r = 0; r < c->nrows; r++) {
		size_t n;
		const char *s = report_str(c, r, k, &n);
		if (n == kl && !memcmp(s, key, n))
			return report_str(c, r, v, len);
	}
	return NULL;
}
