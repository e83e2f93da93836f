/*
 * cat_xplane: a JAX/XLA profile (an XSpace protobuf, *.xplane.pb) into the
 * tl-events stream, as the Chrome-trace JSON that xprof's trace viewer
 * writes for it ("trace_viewer@", the conversion TraceLens runs), so that
 * every later stage sees what TraceLens sees:
 *
 *	devices: host planes "/host:CPU..." (by name) are pids 701, 702, ...;
 *	GPU planes "/device:GPU:N" pid 1 + the plane id; "/device:CUSTOM:"
 *	planes 501 + id.  Each line with events is a thread: tid = its
 *	display id (else id) cut to 32 bits, named by its display name.
 *	rows: first the metadata events (process_name, process_sort_index
 *	per device; thread_name, thread_sort_index per thread, in id order),
 *	then every event, device by device, thread by thread, sorted by
 *	start, longer first; "ts"/"dur" are picoseconds / 1e6 written with
 *	%.17g (dur at least 1 ps), the name its metadata's (display name if
 *	any, the full name then in args.long_name), args its metadata's then
 *	its own stats, named by their stat metadata; stats the trace viewer
 *	hides are left out, flows become bind_id/flow_in/flow_out.
 *	HLO modules of the "/host:metadata" plane: #top "hlo_module.NAME"
 *	with {"module","program","text"}, text as XLA prints the module
 *	(cat_hlo.h); the XSpace's hostnames and each plane's own stats:
 *	#top "xplane.hostnames", "xplane.planes".
 *
 *	r = cat_xplane(w, bytes, n, name, src, &elements);   0, or -1 reported
 *
 * The whole file is in memory (protobuf-c unpacks one message).  A file
 * that is not an XSpace, or is cut short, gets "tl-x: NAME: byte N: what".
 */
#ifndef TL_CAT_XPLANE_H
#define TL_CAT_XPLANE_H

#include <stddef.h>
#include <stdint.h>

struct cat_event_out;

int cat_xplane(struct cat_event_out *w, const uint8_t *buf, size_t n, const char *name,
	       unsigned src, uint64_t *elements);
/* Does buf look like an XSpace: its first plane's name starts with '/'. */
int cat_xplane_sniff(const uint8_t *buf, size_t n);

#endif
