/*
 * fuzz-rocprof: tl-cat's rocprofv3 results reader (told by its first key
 * "rocprofiler-sdk-tool": the pull parser over the tool record, every
 * buffer_records array, ns as exact decimal µs, agents as devices, the
 * #top directives), then tl-rocprof's report on the stream it wrote:
 * every sheet in CSV, with and without --fix-units (picked from the
 * input), as tl-cat FILE | tl-rocprof --csv -o DIR runs them.
 *
 * Dictionary: json
 */
#include <string.h>

#include "cat.h"
#include "fuzz.h"
#include "outbuf.h"
#include "rocprof_report.h"
#include "sheet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cat_opts co = { 0 };
	struct rocprof_opts ro = { 10, 100, -1, 0 };
	char in[64], ev[64];
	struct outbuf *ob;
	struct cat *c;
	struct rocprof_report *r;
	unsigned pick = fuzz_pick(data, size);
	int fd, efd;

	fuzz_init("tl-cat");
	tl_set_progname("tl-cat");	/* the report below names itself */
	if ((fd = fuzz_file(data, size, in, sizeof(in))) < 0)
		return 0;
	if ((efd = fuzz_file(NULL, 0, ev, sizeof(ev))) < 0) {
		close(fd);
		return 0;
	}
	co.keep_going = pick & 1;
	ob = outbuf_open_fd(efd);
	c = cat_new(ob, &co);
	cat_file(c, in);
	cat_free(c);
	outbuf_close(ob);
	close(fd);

	tl_set_progname("tl-rocprof");
	ro.fix_units = (pick >> 1) & 1;
	ro.topk = (pick >> 2) & 1 ? 3 : -1;
	ro.bins = 1 + (long)((pick >> 3) % 7);
	lseek(efd, 0, SEEK_SET);
	r = rocprof_report_read(ev, &ro);
	if (r) {
		for (int i = 0; rocprof_report_names[i]; i++) {
			struct sheet *sh = sheet_open(NULL, SHEET_CSV);

			if (!sh)
				break;
			rocprof_report_write(r, rocprof_report_names[i], sh);
			sheet_close(sh);
		}
		rocprof_report_free(r);
	}
	close(efd);
	return 0;
}
