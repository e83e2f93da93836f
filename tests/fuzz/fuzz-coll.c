/*
 * fuzz-coll: tl-coll's two readers and what it builds from them.  An
 * input that starts with "#tl-coll" is one or more collectives streams
 * (tl-stream(5)), one per rank, each starting at a "#tl-coll" line: the
 * reduce reads them (coll_stream_read_mem) and builds every sheet of the
 * multi-rank report and coll_analysis, with nothing written.  Any other
 * input is an event or node stream: the map step (coll_extract) reads it,
 * writes its collectives stream to /dev/null, and the reduce runs on it.
 *
 * Dictionary: tsv
 */
#include <string.h>

#include "coll_extract.h"
#include "coll_report.h"
#include "coll_stream.h"
#include "fuzz.h"
#include "outbuf.h"

#define MAX_RANKS 8

/* The offsets where a line starting "#tl-coll" begins. */
static size_t split(const char *s, size_t n, size_t *at)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < MAX_RANKS; i++)
		if ((i == 0 || s[i - 1] == '\n') && n - i >= 8 && !memcmp(s + i, "#tl-coll", 8))
			at[k++] = i;
	return k;
}

static void reduce(struct coll_rank *r, size_t n, unsigned pick)
{
	struct coll_report_opts o = COLL_REPORT_OPTS_INIT;
	static const char *const agg[] = { "mean", "std", "sum", "first" };

	o.heatmap = 1;
	o.strict = pick & 1;
	if (pick & 2) {
		o.agg = agg;
		o.nagg = 4;
	}
	if (pick & 4)
		o.gpus_per_node = 2;
	coll_report_write(r, n, NULL, &o);
	coll_analysis_write(&r[0], NULL);
}

static void streams(const char *s, size_t size, unsigned pick)
{
	struct coll_rank r[MAX_RANKS];
	size_t at[MAX_RANKS + 1], n = split(s, size, at), ok = 0;

	at[n] = size;
	for (size_t i = 0; i < n; i++) {
		char name[16] = "rank0";
		name[4] = (char)('0' + i);
		if (coll_stream_read_mem(&r[ok], name, s + at[i], at[i + 1] - at[i]) == 0)
			ok++;
	}
	if (ok)
		reduce(r, ok, pick);
	for (size_t i = 0; i < ok; i++)
		coll_rank_release(&r[i]);
}

static void extract(const uint8_t *data, size_t size, unsigned pick)
{
	struct coll_rank r;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return;
	if (coll_extract(&r, path, pick & 8 ? 3 : -1) == 0) {
		struct outbuf *ob = outbuf_open_fd(1);
		coll_stream_write(&r, ob);
		outbuf_close(ob);
		reduce(&r, 1, pick);
		coll_rank_release(&r);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = fuzz_pick(data, size);

	fuzz_init("tl-coll");
	if (size >= 8 && !memcmp(data, "#tl-coll", 8))
		streams((const char *)data, size, pick);
	else
		extract(data, size, pick);
	return 0;
}
