/*
 * fuzz-capture: tl-tree --capture's readers and TraceLens's graph-capture
 * merge — the capture traces' event stream (capture_set_read: one tree per
 * source, find_capture_roots), execution_details.json (or, without one,
 * the classification of each capture trace), the merge into the replay
 * trace's tree, the pseudo ops, and the tl-nodes 2 writer
 * (tree_graft_write, as tl-tree's main() calls it).  The input is the
 * replay trace's event stream, a form feed (\f) on a line of its own, the
 * capture traces' event stream, another form-feed line, and
 * execution_details.json; a missing third part means no --details, a
 * missing second part the replay stream as its own capture.  The input's
 * hash picks --python and --pseudo-ops.
 *
 * Dictionary: tsv
 */
#include <string.h>

#include "fuzz.h"
#include "stream.h"
#include "tree.h"
#include "tree_graft_io.h"

/* The next part of data after *off, up to a "\n\f\n" line (the newline
 * before it kept); *off moves past the separator, or to size. */
static size_t part(const uint8_t *data, size_t size, size_t *off, const uint8_t **p)
{
	const uint8_t *ff = memmem(data + *off, size - *off, "\n\f\n", 3);
	size_t n = ff ? (size_t)(ff - (data + *off)) + 1 : size - *off;

	*p = data + *off;
	*off = ff ? (size_t)(ff - data) + 3 : size;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = fuzz_pick(data, size);
	const uint8_t *p[3] = { data, NULL, NULL };
	size_t n[3] = { size, 0, 0 }, off = 0;
	char path[3][64];
	int fd[3] = { -1, -1, -1 }, k, nparts = 0;
	struct graft_opts o = { pick & 1 ? TREE_PYTHON : 0, NULL, NULL, (int)(pick >> 1 & 1), 0 };
	struct stream *s;

	fuzz_init("tl-tree");
	while (nparts < 3 && (off < size || nparts == 0)) {
		n[nparts] = part(data, size, &off, &p[nparts]);
		nparts++;
	}
	if (nparts < 2) {	/* the replay trace as its own capture */
		p[1] = p[0];
		n[1] = n[0];
	}
	for (k = 0; k < 3; k++) {
		if (k == 2 && nparts < 3)
			break;
		if ((fd[k] = fuzz_file(p[k], n[k], path[k], sizeof(path[k]))) < 0)
			goto out;
	}
	o.capture = path[1];
	o.details = fd[2] >= 0 ? path[2] : NULL;
	if ((s = stream_open(path[0], "events"))) {
		tree_graft_write(s, path[0], &o);
		stream_close(s);
	}
out:
	for (k = 0; k < 3; k++)
		if (fd[k] >= 0)
			close(fd[k]);
	return 0;
}
