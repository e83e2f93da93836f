/*
 * fuzz-diff: tl-diff's node-stream reader (tree_read_read) and TraceDiff
 * itself — alignment, merged tree, diff statistics, op maps, --summary —
 * on two node streams.  The input is the baseline, a form feed (\f) on a
 * line of its own, and the variant; without one, the stream is compared
 * with itself.
 *
 * Dictionary: tsv
 */
#include <string.h>

#include "diff_merge.h"
#include "diff_report.h"
#include "fuzz.h"
#include "outbuf.h"
#include "strpool.h"
#include "tree_read.h"

static struct tree_read *load(const uint8_t *data, size_t size, struct strpool *sp)
{
	struct tree_read *t;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return NULL;
	t = tree_read_read(path, sp);
	close(fd);
	return t;
}

static void diff(struct tree_read *t1, struct tree_read *t2, unsigned pick)
{
	struct diff_merge *tm = diff_merge_new(t1, t2);
	struct diff_report *td;
	struct outbuf *ob = outbuf_open_fd(1);

	diff_merge_run(tm);
	td = diff_report_new(tm);
	diff_merge_write_tree(tm, ob, (int)(pick & 1));
	diff_report_write_stats_csv(td, ob);
	diff_report_write_summary_csv(td, ob);
	diff_report_write_map(td, ob);
	diff_report_write_map_side(td, ob, 0);
	diff_report_write_map_side(td, ob, 1);
	diff_report_write_summary(td, ob, pick & 2 ? 1 : 10);
	outbuf_close(ob);
	diff_report_free(td);
	diff_merge_free(tm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *ff = memmem(data, size, "\n\f\n", 3);
	size_t n1 = ff ? (size_t)(ff - data) + 1 : size;
	struct strpool *sp, *sp2;
	struct tree_read *t1, *t2 = NULL;

	fuzz_init("tl-diff");
	sp = strpool_new();
	sp2 = strpool_new();
	t1 = load(data, n1, sp);
	if (t1)	/* as tl-diff does: the variant's strings move into one pool */
		t2 = ff ? load(ff + 3, size - n1 - 2, sp2) : load(data, size, sp2);
	if (t2) {
		tree_read_repool(t2, sp);
		diff(t1, t2, fuzz_pick(data, size));
	}
	tree_read_free(t1);
	tree_read_free(t2);
	strpool_free(sp2);
	strpool_free(sp);
	return 0;
}
