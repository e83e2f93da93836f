/*
 * fuzz-pftrace: tl-pftrace's event-stream reader (Python int() on every
 * value TraceLens converts, begin_ns/delta_ns args, thread and length
 * filters) and its three reports — HIP activity with the Markdown report,
 * HIP API <-> kernel latency, memory copies — every sheet in CSV, with
 * options picked from the input (merged kernels, RCCL, groupings, an
 * exclusion regex, several kernels per API).
 *
 * Dictionary: tsv
 */
#include "fuzz.h"
#include "outbuf.h"
#include "pftrace_report.h"
#include "sheet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = fuzz_pick(data, size);
	struct pftrace_opts o;
	struct pftrace_report *r;
	struct outbuf *ob;
	const char *name;
	char path[64];
	int fd;

	fuzz_init("tl-pftrace");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	pftrace_opts_default(&o);
	o.merge_kernels = pick & 1;
	o.include_rccl = (pick >> 1) & 1;
	o.baseline_compute = (pick >> 2) & 1;
	o.group_by_name = (pick >> 3) & 1;
	o.hip_group = (int)((pick >> 4) & 3);
	o.allow_multi = (pick >> 6) & 1;
	o.include_nonlaunch = (pick >> 7) & 1;
	o.exclude_re = (pick >> 8) & 1 ? "rccl|^Cijk" : NULL;
	if ((pick >> 9) & 1)
		o.min_event_ns = 0;
	r = pftrace_report_read(path, &o);
	if (r) {
		for (size_t i = 0; (name = pftrace_report_sheet(r, i)); i++) {
			struct sheet *sh = sheet_open(NULL, SHEET_CSV);

			if (!sh)
				break;
			pftrace_report_write(r, name, sh);
			sheet_close(sh);
		}
		ob = outbuf_open_fd(1);
		pftrace_report_markdown(r, ob);
		outbuf_close(ob);
		pftrace_report_free(r);
	}
	close(fd);
	return 0;
}
