#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perf_dtype.h"
#include "err.h"
#include "share.h"
#include "xalloc.h"
#include "banned.h"

struct dtype_row {
	char *name, *precision;	/* precision NULL for '-' */
	double bytes, bpe;	/* -1 for '-' */
};

static struct dtype_row *rows;
static size_t nrows, arows;
static int loaded;

static double num_field(const char *s, const char *path, long lineno)
{
	char *end;
	double v;

	if (!strcmp(s, "-"))
		return -1;
	v = strtod(s, &end);
	if (end == s || *end || v <= 0)
		tl_die("%s:%ld: '%s' is not a size", path, lineno, s);
	return v;
}

static void add_row(char *line, const char *path, long lineno)
{
	char *f[4];
	int nf = 0;
	struct dtype_row *r;

	for (char *p = line; nf < 4; ) {
		char *tab = strchr(p, '\t');
		f[nf++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (nf != 4 || strchr(f[3], '\t'))
		tl_die("%s:%ld: want 4 fields (name bytes bpe precision)", path, lineno);
	xgrow((void **)&rows, &arows, nrows + 1, sizeof(*rows));
	r = &rows[nrows++];
	r->name = xstrdup(f[0]);
	r->bytes = num_field(f[1], path, lineno);
	r->bpe = num_field(f[2], path, lineno);
	r->precision = strcmp(f[3], "-") ? xstrdup(f[3]) : NULL;
}

void perf_dtype_init(const char *path)
{
	char *found = NULL, *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	ssize_t n;
	FILE *f;

	if (loaded)
		return;
	loaded = 1;
	if (!path && !(path = found = tl_share_path("dtypes.tsv")))
		tl_die("dtypes.tsv not found (set TL_SHARE to the share/tl folder)");
	if (!(f = fopen(path, "r")))
		tl_die_errno("%s", path);
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n && *line != '#')
			add_row(line, path, lineno);
	}
	free(line);
	fclose(f);
	free(found);
}

static const struct dtype_row *find(const char *name)
{
	if (!name)
		return NULL;
	perf_dtype_init(NULL);
	for (size_t i = 0; i < nrows; i++)
		if (!strcasecmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

double perf_dtype_bpe(const char *name)
{
	const struct dtype_row *r = find(name);
	return r ? r->bpe : -1;
}

double perf_dtype_bytes(const char *name)
{
	const struct dtype_row *r = find(name);
	return r ? r->bytes : -1;
}

const char *perf_dtype_precision(const char *name)
{
	const struct dtype_row *r = find(name);
	return r ? r->precision : NULL;
}
