/*
 * replay: a main() for the harnesses of tests/fuzz/ without libFuzzer, so
 * that gcc builds (plain and SAN=1) replay the committed inputs in make
 * check.  Each argument is a file or a folder of files; every file is fed
 * to LLVMFuzzerTestOneInput once.  Exits 0 when all ran (a harness that
 * finds a bug crashes or trips a sanitizer instead).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, alloc = 0, r;

	if (!fp) {
		perror(path);
		return 1;
	}
	do {
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		r = fread(buf + n, 1, alloc - n, fp);
		n += r;
	} while (r);
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a folder in name order, so runs are reproducible. */
static int run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int rval = 0;

	if (!d) {
		perror(dir);
		return 1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			names = realloc(names, alloc * sizeof(*names));
			if (!names)
				abort();
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		if (!names[n])
			abort();
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		rval |= run_file(names[i]);
		free(names[i]);
	}
	free(names);
	return rval;
}

int main(int argc, char **argv)
{
	struct stat st;
	int rval = 0;

	for (int i = 1; i < argc; i++)
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			rval |= run_dir(argv[i]);
		else
			rval |= run_file(argv[i]);
	return rval;
}
