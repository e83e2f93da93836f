/*
 * fuzz-compare: tl-compare's CSV reader (csv_read, pandas-style typing in
 * pd_frame) and the comparison it feeds (outer merge on TraceLens's keys,
 * diff and pct columns, splits), on two report folders that each hold one
 * sheet.  The input is the baseline's CSV, a form feed (\f) on a line of
 * its own, and the variant's; without one both are the same CSV.  The
 * sheet's name (ops_summary, kernel_summary, GEMM, ...) is picked from
 * the input.
 *
 * Dictionary: csv
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "fuzz.h"

static const char *const sheets[] = {
	"gpu_timeline", "ops_summary", "kernel_summary", "ops_all", "ops_unique_args",
	"unified_perf_summary", "GEMM", "SDPA_fwd", "UnaryElementwise", "BinaryElementwise"
};

static char root[64];

static void rm_root(void)
{
	const char *sub[] = { "base", "var", "out" };
	char path[400];
	DIR *d;
	struct dirent *e;

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, sub[i]);
		if ((d = opendir(path))) {
			while ((e = readdir(d)))
				if (e->d_name[0] != '.') {
					snprintf(path, sizeof(path), "%s/%s/%s", root, sub[i], e->d_name);
					unlink(path);
				}
			closedir(d);
		}
		snprintf(path, sizeof(path), "%s/%s", root, sub[i]);
		rmdir(path);
	}
	rmdir(root);
}

static void put(const char *dir, const char *sheet, const uint8_t *data, size_t size)
{
	char path[160];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, sheet);
	if ((fp = fopen(path, "wb"))) {
		fwrite(data, 1, size, fp);
		fclose(fp);
	}
}

/* One scratch folder per process: base/, var/ and out/ under it. */
static void make_root(void)
{
	const char *tmp = getenv("TMPDIR");
	char d[96];

	snprintf(root, sizeof(root), "%s/tl-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(d, sizeof(d), "%s/base", root);
	mkdir(d, 0777);
	snprintf(d, sizeof(d), "%s/var", root);
	mkdir(d, 0777);
	snprintf(d, sizeof(d), "%s/out", root);
	mkdir(d, 0777);
	atexit(rm_root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *ff = memmem(data, size, "\n\f\n", 3);
	size_t n1 = ff ? (size_t)(ff - data) + 1 : size;
	const char *sheet = sheets[fuzz_pick(data, size) % (sizeof(sheets) / sizeof(*sheets))];
	char base[80], var[80], out[80], path[160];
	static char tb[] = "base", tv[] = "var";
	char *dirs[2] = { base, var }, *tags[2] = { tb, tv };
	struct compare rc = { 2, dirs, tags, RC_ALL, 0, out };

	fuzz_init("tl-compare");
	if (!root[0])
		make_root();
	snprintf(base, sizeof(base), "%s/base", root);
	snprintf(var, sizeof(var), "%s/var", root);
	snprintf(out, sizeof(out), "%s/out", root);
	put(base, sheet, data, n1);
	if (ff)
		put(var, sheet, ff + 3, size - n1 - 2);
	else
		put(var, sheet, data, size);
	compare_run(&rc);
	snprintf(path, sizeof(path), "%s/%s.csv", base, sheet);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s.csv", var, sheet);
	unlink(path);
	return 0;
}
