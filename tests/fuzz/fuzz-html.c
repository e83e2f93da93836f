/*
 * fuzz-html: tl-html's reader of a report folder (report_dir: the CSV
 * sheets tl-report writes, read with common/csv.c) and both pages drawn
 * from it, report.md and report.html.  The input is the folder's sheets,
 * one after another, each ended by a line holding a form feed (\f); the
 * k-th becomes the k-th name of sheets[] below, written into a scratch
 * folder of this process (removed at exit).  The last, diff_stats, makes
 * it a tl-diff folder, whose page reads that sheet a row at a time
 * (csv_rows).  Seeds: the sheets of the tests' report folders.
 *
 * Dictionary: csv
 */
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "outbuf.h"
#include "report_dir.h"
#include "report_html.h"
#include "report_md.h"

static const char *const sheets[] = {
	"report_info", "gpu_timeline", "ops_summary", "kernel_summary",
	"unified_perf_summary", "ops_summary_by_category", "short_kernel_histogram",
	"short_kernels_summary", "timeline_strip", "idle/summary", "diff_stats",
};
#define NSHEETS (sizeof(sheets) / sizeof(sheets[0]))

static char dir[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static void rm_dir(void)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Writes data[0..n) as sheet k, or removes it when n is SIZE_MAX. */
static void put_sheet(size_t k, const uint8_t *data, size_t n)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, sheets[k]);
	if (n == (size_t)-1) {
		remove(path);
		return;
	}
	if (!(fp = fopen(path, "wb")))
		return;
	fwrite(data, 1, n, fp);
	fclose(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_html_opts o = { NULL };
	struct report_dir *rd;
	struct outbuf *ob;
	size_t k = 0, at = 0;

	fuzz_init("tl-html");
	if (!dir[0]) {
		char idle[80];
		snprintf(dir, sizeof(dir), "/tmp/tl-fuzz-html.%d", (int)getpid());
		snprintf(idle, sizeof(idle), "%s/idle", dir);
		mkdir(dir, 0700);
		mkdir(idle, 0700);
		atexit(rm_dir);
	}
	while (k < NSHEETS && at <= size) {
		const uint8_t *ff = memmem(data + at, size - at, "\n\f\n", 3);
		size_t end = ff ? (size_t)(ff - data) + 1 : size;

		put_sheet(k++, data + at, end - at);
		if (!ff)
			break;
		at = end + 2;
	}
	while (k < NSHEETS)
		put_sheet(k++, NULL, (size_t)-1);
	if (!(rd = report_dir_open(dir)))
		return 0;
	ob = outbuf_open_fd(1);
	report_md_write(rd, ob);
	report_dir_free(rd);
	if ((rd = report_dir_open(dir))) {	/* as tl-html: one page per run */
		report_html_write(rd, ob, &o);
		report_dir_free(rd);
	}
	outbuf_close(ob);
	return 0;
}
