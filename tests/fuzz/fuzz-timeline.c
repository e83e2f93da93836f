/*
 * fuzz-timeline: tl-timeline's reader — an event stream (linked GPU events
 * found by tree_gpulink) or a node stream — and the breakdown writer, with
 * the options chosen from the input (--csv, --per-gpu, --per-stream,
 * --all-gpu, --micro-idle).
 *
 * Dictionary: tsv
 */
#include "fuzz.h"
#include "outbuf.h"
#include "timeline_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = fuzz_pick(data, size);
	struct timeline_scan_opts o = { .micro_us = pick & 1 ? 1.5 : -1 };
	struct outbuf *ob;
	char path[64];
	int fd;

	fuzz_init("tl-timeline");
	o.csv = !!(pick & 2);
	o.per_gpu = !!(pick & 4);
	o.per_stream = !!(pick & 8);
	o.all_gpu = !!(pick & 16);
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	ob = outbuf_open_fd(1);
	timeline_scan_run(path, &o, ob);
	outbuf_close(ob);
	close(fd);
	return 0;
}
