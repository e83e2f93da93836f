/*
 * tree_graft_io: tl-tree's --capture and --pseudo-ops: one trace's event
 * stream in, its tree built, edited as TraceLens edits it after
 * build_tree (common/tree_capture.h, common/tree_pseudo.h), and written as
 * the node stream tl-nodes 2 (tl-stream(5)): every input row with the
 * tree columns of the edited tree, then the added nodes' rows before the
 * source's #end.
 *
 *	struct graft_opts o = { TREE_PYTHON, "capture.events", NULL, 1, 0 };
 *	rval = tree_graft_write(s, path, &o);     0, or 1 after a message
 *
 * Like tree_io_write_nodes, the input is read twice (a regular file) or
 * spooled; it must hold one trace (one source).
 */
#ifndef TL_TREE_GRAFT_IO_H
#define TL_TREE_GRAFT_IO_H

struct stream;

struct graft_opts {
	unsigned flags;		/* tree_new() flags */
	const char *capture;	/* the capture traces' event stream, or NULL */
	const char *details;	/* execution_details.json, or NULL: classify */
	int pseudo;		/* apply the pseudo-op extensions */
	int verbose;
};

int tree_graft_write(struct stream *s, const char *path, const struct graft_opts *o);

#endif
