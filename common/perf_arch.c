#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json_value.h"
#include "perf_arch.h"
#include "err.h"
#include "share.h"
#include "xalloc.h"
#include "banned.h"

static int add_line(struct perf_arch *a, char *line, const char *path, long lineno)
{
	char *key = line, *val, *end;
	double v;
	size_t alloc;

	val = strchr(line, '\t');
	if (!val) {
		tl_warn("%s:%ld: want key<TAB>value[<TAB>source]", path, lineno);
		return -1;
	}
	*val++ = '\0';
	if ((end = strchr(val, '\t')))
		*end = '\0';
	if (!strcmp(key, "name")) {
		free(a->name);
		a->name = xstrdup(val);
		return 0;
	}
	if (!strcmp(key, "match")) {
		alloc = (size_t)a->nmatch;
		xgrow((void **)&a->match, &alloc, (size_t)a->nmatch + 1, sizeof(*a->match));
		a->match[a->nmatch++] = xstrdup(val);
		return 0;
	}
	v = strtod(val, &end);
	if (end == val || *end || !(v > 0)) {
		tl_warn("%s:%ld: '%s' is not a positive number", path, lineno, val);
		return -1;
	}
	if (!strcmp(key, "mem_bw_gbps")) {
		a->mem_bw_gbps = v;
	} else if (!strncmp(key, "matrix_", 7) || !strncmp(key, "vector_", 7)) {
		alloc = (size_t)a->npeak;
		xgrow((void **)&a->peak, &alloc, (size_t)a->npeak + 1, sizeof(*a->peak));
		a->peak[a->npeak].spec = xstrdup(key);
		a->peak[a->npeak++].tflops = v;
	}
	/* other keys (memory_gb, ...) are information only */
	return 0;
}

static struct perf_arch *load_file(const char *path)
{
	FILE *f = fopen(path, "r");
	struct perf_arch *a;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long lineno = 0;
	int bad = 0;

	if (!f) {
		tl_warn_errno("%s", path);
		return NULL;
	}
	a = xcalloc(1, sizeof(*a));
	a->mem_bw_gbps = NAN;
	a->path = xstrdup(path);
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n && *line != '#' && add_line(a, line, path, lineno) < 0)
			bad = 1;
	}
	free(line);
	fclose(f);
	if (!bad && !a->name)
		tl_warn("%s: no 'name' line", path), bad = 1;
	if (bad) {
		perf_arch_free(a);
		return NULL;
	}
	return a;
}

/*
 * TraceLens's own arch JSON (--gpu_arch_json_path, read as it is):
 * {"name": ..., "mem_bw_gbps": N, "max_achievable_tflops": {"matrix_bf16": N,
 * ...}}; other keys are information only, as in TraceLens.
 */
static struct perf_arch *load_json(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, alloc = 0, got;
	struct json_value *v;
	const struct json_value *x;
	struct perf_arch *a;

	if (!f) {
		tl_warn_errno("%s", path);
		return NULL;
	}
	do {
		xgrow((void **)&text, &alloc, len + 4096, 1);
		got = fread(text + len, 1, alloc - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	v = json_value_parse(text, len);
	free(text);
	if (!v || v->type != JV_OBJ) {
		tl_warn("%s: not a JSON object (TraceLens's arch JSON)", path);
		json_value_free(v);
		return NULL;
	}
	a = xcalloc(1, sizeof(*a));
	a->mem_bw_gbps = NAN;
	a->path = xstrdup(path);
	x = json_value_get(v, "name");
	if (x && x->type == JV_STR) {
		a->name = xstrdup(x->s);
	} else {
		const char *b = strrchr(path, '/');
		a->name = xstrdup(b ? b + 1 : path);
	}
	x = json_value_get(v, "mem_bw_gbps");
	if (x && (x->type == JV_INT || x->type == JV_FLOAT))
		a->mem_bw_gbps = x->num;
	x = json_value_get(v, "max_achievable_tflops");
	if (x && x->type == JV_OBJ) {
		a->peak = xcalloc(x->n + 1, sizeof(*a->peak));
		for (size_t i = 0; i < x->n; i++) {
			const struct json_value *p = &x->kids[i];
			if (p->type != JV_INT && p->type != JV_FLOAT)
				continue;
			a->peak[a->npeak].spec = xstrdup(x->keys[i]);
			a->peak[a->npeak++].tflops = p->num;
		}
	}
	json_value_free(v);
	return a;
}

struct perf_arch *perf_arch_load(const char *name)
{
	char buf[256];
	char *path;
	struct perf_arch *a;
	size_t n = strlen(name);

	if (n > 5 && !strcmp(name + n - 5, ".json"))
		return load_json(name);
	if (strchr(name, '/') || strstr(name, ".tsv"))
		return load_file(name);
	snprintf(buf, sizeof(buf), "arch/%s.tsv", name);
	path = tl_share_path(buf);
	if (!path) {
		tl_warn("%s: unknown GPU arch (no share/tl/%s)", name, buf);
		return NULL;
	}
	a = load_file(path);
	free(path);
	return a;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The .tsv names in share/tl/arch, sorted so detection is deterministic. */
static char **arch_files(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t alloc = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".tsv")) {
			xgrow((void **)&v, &alloc, *n + 1, sizeof(*v));
			v[(*n)++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static size_t match_len(const struct perf_arch *a, const char *device)
{
	size_t best = 0;

	for (int i = 0; i < a->nmatch; i++) {
		size_t m = strlen(a->match[i]);
		for (const char *p = device; *p; p++)
			if (!strncasecmp(p, a->match[i], m) && m > best)
				best = m;
	}
	return best;
}

struct perf_arch *perf_arch_detect(const char *device)
{
	char *dir = tl_share_path("arch"), path[4096];
	char **files;
	size_t n, best_len = 0;
	struct perf_arch *best = NULL;

	if (!dir || !device || !*device) {
		free(dir);
		return NULL;
	}
	files = arch_files(dir, &n);
	for (size_t i = 0; i < n; i++) {
		struct perf_arch *a;
		size_t m;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		a = load_file(path);
		m = a ? match_len(a, device) : 0;
		if (m > best_len) {
			perf_arch_free(best);
			best = a;
			best_len = m;
		} else {
			perf_arch_free(a);
		}
		free(files[i]);
	}
	free(files);
	free(dir);
	return best;
}

void perf_arch_free(struct perf_arch *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->npeak; i++)
		free(a->peak[i].spec);
	for (int i = 0; i < a->nmatch; i++)
		free(a->match[i]);
	free(a->peak);
	free(a->match);
	free(a->name);
	free(a->path);
	free(a);
}

double perf_arch_peak(const struct perf_arch *a, const char *spec)
{
	for (int i = 0; a && spec && i < a->npeak; i++)
		if (!strcmp(a->peak[i].spec, spec))
			return a->peak[i].tflops;
	return NAN;
}

int perf_arch_roofline(const struct perf_arch *a, const char *spec, double flops, double bytes,
		  int has_bytes, double kernel_us, struct roofline *out)
{
	double peak = perf_arch_peak(a, spec), compute, memory;

	if (isnan(peak) || !a || isnan(a->mem_bw_gbps) || !has_bytes || !(flops / 1e9 > 0))
		return 0;
	/* TP:482-508, in TraceLens's order of operations */
	compute = (flops / 1e9) * 1e9 / (peak * 1e12) * 1e6;
	memory = bytes / (a->mem_bw_gbps * 1e9) * 1e6;
	out->time_us = compute > memory ? compute : memory;
	out->bound = compute >= memory ? "COMPUTE_BOUND" : "MEMORY_BOUND";
	out->pct = kernel_us > 0 ? out->time_us / kernel_us * 100 : NAN;
	return 1;
}
