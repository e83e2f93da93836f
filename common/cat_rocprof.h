/*
 * cat_rocprof: a rocprofv3 results document (rocprofiler-sdk's JSON
 * output, *_results.json: a top-level "rocprofiler-sdk-tool" array) into
 * the tl-events stream, record by record, as tl-cat(1) and tl-stream(5)
 * describe it:
 *
 *	every record of every buffer_records array → one row, uid = its index
 *	among all records in file order; ts and dur the record's nanosecond
 *	timestamps written as exact decimal microseconds; kernel names from
 *	kernel_symbols (TraceLens's choice of name), other names from strings;
 *	GPU agents are devices: pid = the agent's GPU index, tid = the stream;
 *	host records: pid = metadata.pid, tid = thread_id
 *	every other member of the tool object → #top "rocprofiler-sdk-tool.KEY"
 *	agents → also #top "deviceProperties", one entry per GPU agent
 *
 * Only the first element of the rocprofiler-sdk-tool array is read, as
 * TraceLens reads it; more are counted on stderr.  Memory is one record
 * at a time plus the tool object's other members.
 *
 *	struct json_pull p;  positioned at the document's first byte
 *	r = cat_rocprof(w, &p, name, src, keep_going, &elements, &skipped);
 *
 * Returns 0, or -1 after printing "tl-x: NAME: byte N: ..." (with
 * keep_going, a bad record is reported, counted in *skipped and keeps its
 * uid instead).
 */
#ifndef TL_CAT_ROCPROF_H
#define TL_CAT_ROCPROF_H

#include <stddef.h>
#include <stdint.h>

struct cat_event_out;
struct json_pull;

/* Is the document starting with s[0..n) a rocprofv3 results file?  1 yes,
 * 0 no, -1 cannot tell yet (more bytes needed). */
int cat_rocprof_sniff(const char *s, size_t n);

int cat_rocprof(struct cat_event_out *w, struct json_pull *p, const char *name,
		unsigned src, int keep_going, uint64_t *elements, uint64_t *skipped);

/*
 * ns as exact decimal microseconds into out (room for 32 bytes):
 * 63857982594840 → "63857982594.84", 2000 → "2", -5 → "-0.005".
 */
size_t cat_ns_to_us(int64_t ns, char *out);

#endif
