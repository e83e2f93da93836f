/*
 * fuzz-tree: tl-tree's event-stream reader and tree builder — the node
 * stream (tree_io_write_subset, with and without --python and --lean,
 * the rows read again from the file or spooled as from a pipe) and the
 * text views (--print of every root, --up and --node of a few nodes) — on
 * one event stream (tl-stream(5) tl-events 1).
 *
 * Dictionary: tsv
 */
#include "fuzz.h"
#include "outbuf.h"
#include "stream.h"
#include "tree.h"
#include "tree_io.h"
#include "tree_view.h"

static void views(const char *path, unsigned flags, unsigned pick)
{
	struct stream *s = stream_open(path, "events");
	struct tree_view_opts v = { (long)(pick % 4) - 1, (int)(pick >> 2 & 1) };
	struct outbuf *ob;
	struct tree *t;
	const uint32_t *roots;
	char *src = NULL;
	size_t n;

	if (!s)
		return;
	t = tree_io_read_source(s, NULL, flags, 0, &src);
	if (t) {
		ob = outbuf_open_fd(1);
		roots = tree_roots(t, &n);
		for (size_t k = 0; k < n; k++)
			tree_view_subtree(ob, t, roots[k], &v);
		/* --up and --node of a few nodes, the last (often deepest) too */
		n = tree_count(t);
		for (size_t i = 0; i < n; i += 1 + n / 4) {
			tree_view_parents(ob, t, (uint32_t)i);
			tree_view_node(ob, t, (uint32_t)i);
		}
		if (n) {
			tree_view_parents(ob, t, (uint32_t)(n - 1));
			tree_view_node(ob, t, (uint32_t)(n - 1));
		}
		outbuf_close(ob);
		tree_free(t);
	}
	free(src);
	stream_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = fuzz_pick(data, size);
	unsigned flags = pick & 8 ? TREE_PYTHON : 0;
	struct stream *s;
	char path[64];
	int fd;

	fuzz_init("tl-tree");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	if ((s = stream_open(path, "events"))) {
		struct tree_io_subset sub = { NULL, 0, (int)(pick >> 4 & 1) };
		tree_io_write_subset(s, pick & 32 ? NULL : path, flags, 0, &sub);
		stream_close(s);
	}
	views(path, flags, pick);
	close(fd);
	return 0;
}
