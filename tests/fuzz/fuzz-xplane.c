/*
 * fuzz-xplane: tl-cat's JAX XPlane reader on the bytes as an .xplane.pb
 * (the wire-format checker, protobuf-c's unpacking of the XSpace, the
 * trace viewer's conversion: devices, threads, event order, stats and
 * their metadata, flows, and the HLO modules of the metadata plane,
 * unpacked and printed as XLA prints them), then tl-jax's report on the
 * stream it wrote, every sheet in CSV, as tl-cat FILE | tl-jax --csv -o
 * DIR runs them.  The reader is called directly, so that bytes the
 * content sniffing would send elsewhere still reach it.
 *
 * Dictionary: xplane
 */
#include "cat_event.h"
#include "cat_xplane.h"
#include "fuzz.h"
#include "jax_report.h"
#include "outbuf.h"
#include "sheet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *kw[] = { "jit", "conv" };
	struct jax_opts jo = { NULL, 0 };
	struct cat_event_out *w;
	struct outbuf *ob;
	struct jax_report *r;
	uint64_t elements = 0;
	char ev[64];
	const char *name;
	int efd, rc;

	fuzz_init("tl-cat");
	tl_set_progname("tl-cat");	/* the report below names itself */
	if ((efd = fuzz_file(NULL, 0, ev, sizeof(ev))) < 0)
		return 0;
	ob = outbuf_open_fd(efd);
	w = cat_event_out_new(ob, 0);
	cat_event_header(w);
	cat_event_source(w, 0, "fuzz.xplane.pb");
	rc = cat_xplane(w, data, size, "fuzz.xplane.pb", 0, &elements);
	if (rc >= 0)
		cat_event_end(w, 0, elements, 0);
	cat_event_out_free(w);
	outbuf_close(ob);
	if (rc < 0) {
		close(efd);
		return 0;
	}

	tl_set_progname("tl-jax");
	if (fuzz_pick(data, size) & 1) {
		jo.keyword_filters = kw;
		jo.nfilters = 2;
	}
	lseek(efd, 0, SEEK_SET);
	r = jax_report_read(ev, &jo);
	if (r) {
		for (size_t i = 0; (name = jax_report_sheet(r, i)); i++) {
			struct sheet *sh = sheet_open(NULL, SHEET_CSV);

			if (!sh)
				break;
			jax_report_write(r, name, sh);
			sheet_close(sh);
		}
		jax_report_free(r);
	}
	close(efd);
	return 0;
}
