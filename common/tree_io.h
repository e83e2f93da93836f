/*
 * tree_io: reading the event stream into trees (common/tree.h), one per
 * source, and writing the node stream of tl-stream(5) to stdout.
 *
 *	struct stream *s = stream_open(path, "events");
 *	rval = tree_io_write_nodes(s, path, python ? TREE_PYTHON : 0, verbose);
 *
 * tree_io_write_nodes() gives each source (src) its own tree and passes
 * every row and directive through in order with the tree columns appended.
 * path (NULL or "-" for stdin) lets a regular file be read a second time
 * instead of spooled.  Returns 0, or 1 after a message on a bad stream.
 *
 *	char *src;
 *	struct tree *t = tree_io_read_source(s, want_src, flags, verbose, &src);
 *	... tree_free(t); free(src);
 *
 * tree_io_read_source() builds the tree of one source: want_src, or the
 * first one when NULL; NULL (message printed) when it has no rows or the
 * stream is bad.  With verbose, per-source counts go to stderr.
 */
#ifndef TL_TREE_IO_H
#define TL_TREE_IO_H

#include <stdio.h>

#include "stream.h"
#include "tree.h"

int tree_io_write_nodes(struct stream *s, const char *path, unsigned flags, int verbose);
/*
 * The same with fewer columns or rows (tl-tree --columns, --tree-rows):
 * columns names input and tree columns, comma-separated (NULL: all; uid
 * is always written; the columns keep the stream's order); tree_rows
 * writes only the rows with tree 1.  Directives are all written.  An
 * unknown name is a bad stream (1 after a message).
 */
struct tree_io_subset {
	const char *columns;
	int tree_rows;
	/*
	 * lean (tl-tree --lean, all columns): the rows no sheet reads —
	 * python frames out of the tree, flows, instants — as "#dropped"
	 * lines of their first nine columns (tl-stream(5))
	 */
	int lean;
};
int tree_io_write_subset(struct stream *s, const char *path, unsigned flags, int verbose,
			 const struct tree_io_subset *sub);
/*
 * The two ways of reading a stream twice: an unlinked temporary file to
 * spool the lines into (read back with getline), or the input itself
 * opened again past its two header lines (NULL unless a regular file).
 */
FILE *tree_io_spool(void);
FILE *tree_io_reread(const char *path);
struct tree *tree_io_read_source(struct stream *s, const char *want, unsigned flags, int verbose,
				char **src);

#endif
