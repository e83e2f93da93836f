/*
 * libFuzzer harness for tl-coll's reduce: the collectives-stream reader
 * (common/coll_stream.c) and everything the reduce builds from what it
 * reads (the long table, every sheet, node columns, coll_analysis), with
 * nothing written.  The input is one or more collectives streams, each
 * starting at a "#tl-coll" line, one per rank.  Built and run by
 * tests/t7005-coll-fuzz.sh; by hand:
 *
 *	clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Icommon \
 *		tests/fuzz/coll_stream.c $(cat tests/fuzz/coll_stream.deps) -lm -o fuzz-coll
 *	./fuzz-coll -max_len=8192 SEEDS/
 *
 * A standalone harness: tests/fuzz/ had no shared convention when it was
 * written (the hardening work that brings one had not landed).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_report.h"
#include "coll_stream.h"
#include "err.h"

#define MAX_RANKS 8

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tl_set_progname("fuzz-coll-stream");
	return 0;
}

/* The offsets where a line starting "#tl-coll" begins. */
static size_t split(const char *s, size_t n, size_t *at)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < MAX_RANKS; i++)
		if ((i == 0 || s[i - 1] == '\n') && n - i >= 8 && !memcmp(s + i, "#tl-coll", 8))
			at[k++] = i;
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct coll_rank r[MAX_RANKS];
	struct coll_report_opts o = COLL_REPORT_OPTS_INIT;
	static const char *const agg[] = { "mean", "std", "sum", "first" };
	size_t at[MAX_RANKS + 1], n = split(s, size, at), ok = 0;

	if (!n)
		at[n++] = 0;
	at[n] = size;
	for (size_t i = 0; i < n; i++) {
		char name[16] = "rank0";
		name[4] = (char)('0' + i);
		if (coll_stream_read_mem(&r[ok], name, s + at[i], at[i + 1] - at[i]) == 0)
			ok++;
	}
	if (ok) {
		o.heatmap = 1;
		o.strict = size & 1;
		if (size & 2) {
			o.agg = agg;
			o.nagg = 4;
		}
		if (size & 4)
			o.gpus_per_node = 2;
		coll_report_write(r, ok, NULL, &o);
		coll_analysis_write(&r[0], NULL);
	}
	for (size_t i = 0; i < ok; i++)
		coll_rank_release(&r[i]);
	return 0;
}
