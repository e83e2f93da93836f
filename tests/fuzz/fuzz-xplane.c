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
#include "fuzz-jax.h"
#include "outbuf.h"
#include "sheet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cat_event_out *w;
	struct outbuf *ob;
	uint64_t elements = 0;
	char ev[64];
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
	lseek(efd, 0, SEEK_SET);
	fuzz_jax_sheets(ev, fuzz_pick(data, size));
	close(efd);
	return 0;
}
