/*
 * tree_capture: TraceLens's graph-capture merge
 * (Trace2Tree/trace_capture_merge_experimental.py) on a graft
 * (common/tree_graft.h).  A CUDA/HIP graph replay shows only the graph
 * launch and its kernels; the trace of the graph's capture shows the ops
 * that launched them, with shapes.  For each iteration annotation of the
 * replay trace, the capture trace of the nearest captured batch size is
 * chosen (execution_details.json), its capture windows are paired with the
 * graph launches of the iteration, each window's ops are copied under its
 * graph launch, and each kernel is re-parented to the copied launch call
 * it was captured from.  The rules, quirks included, are in tl-tree(1).
 *
 *	struct capture_set *cs = capture_set_read("capture.events", verbose);
 *	int r = tree_capture_merge(g, cs, "execution_details.json", verbose);
 *	r: 0 merged (or nothing to merge), 1 TraceLens's "merge failed"
 *	   (the caller drops every graft: TraceLens reports the tree unmerged),
 *	   -1 bad input (message printed)
 *	... write; capture_set_field(cs, cap, uid, "args") for copied rows
 *	capture_set_free(cs);
 *
 * The capture traces are one event stream (tl-cat of the capture files),
 * one source each; execution_details.json's "file" names a source by its
 * file name.  Without execution_details.json (NULL), each source is
 * classified as TraceLens's classify_graph_capture_trace does, and the
 * result printed to stderr.
 */
#ifndef TL_TREE_CAPTURE_H
#define TL_TREE_CAPTURE_H

#include <stdint.h>

struct graft;
struct tree;
struct capture_set;

struct capture_set *capture_set_read(const char *path, int verbose);
void capture_set_free(struct capture_set *cs);
const char *capture_set_name(const struct capture_set *cs, uint32_t cap);
/* The capture trace's tree (the graft copies were made from). */
const struct graft *capture_set_graft(const struct capture_set *cs, uint32_t cap);
/* The capture trace's tree as built (before find_capture_roots' edits). */
const struct tree *capture_set_tree(const struct capture_set *cs, uint32_t cap);
/* Field col of the capture row whose uid the copy's capture node had. */
const char *capture_set_field(const struct capture_set *cs, uint32_t cap, uint32_t node,
			      const char *col);
int tree_capture_merge(struct graft *g, struct capture_set *cs, const char *details,
		       int verbose);

#endif
