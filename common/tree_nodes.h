/*
 * tree_nodes: a node stream (tl-nodes 1, tl-stream(5)) held in memory as
 * compact records, for the programs that need the whole tree at once
 * (tl-perf).  Strings are interned; the JSON columns a report prints
 * (Input Dims, ...) are kept as their compact JSON text.
 *
 *	struct tree_nodes *ns = tree_nodes_read(path);   NULL: message printed
 *	for (i = 0; i < ns->n; i++) if (ns->node[i].cat == NC_KERNEL) ...
 *	tree_nodes_str(ns, ns->node[i].name)
 *	tree_nodes_free(ns);
 *
 * node[i] is the i-th event that holds a record, in uid order:
 * tree_nodes_uid() is its uid in the stream (parent, fwd and kids are
 * record indexes).  Flows, instants and python frames out of the tree
 * that have no parent hold none: they are counted (nevents) and their
 * times kept as one span (drop_t0, drop_t1).  To keep reading fast, events of other
 * categories (flows, instants, annotations: NC_OTHER) keep only their
 * parent and flags (user annotations NF_ANNOT also name, ts and dur), and
 * python frames (NC_PYTHON) no pid or tid, and no name unless they are in
 * the tree (tl-tree --python).  One source per stream: a stream with
 * a second #source is refused (run one trace at a time).  Python's
 * process/thread names (ph "M" events, spec core §1.8) are resolved with
 * tree_nodes_process_name() and friends, "Unknown" when absent.
 *
 * tl-nodes 2 (tl-tree --capture, --pseudo-ops) adds the children lists
 * TraceLens edited (kids: kid_off[i] indexes kid[], UINT32_MAX where the
 * children are the rows naming i as parent) and the order of its
 * cpu_root_nodes (root_order[i], 0 for none); both arrays are NULL for a
 * tl-nodes 1 stream.  Pseudo ops keep their args (struct node args).
 */
#ifndef TL_TREE_NODES_H
#define TL_TREE_NODES_H

#include <stddef.h>
#include <stdint.h>
#include "text_memo.h"

enum node_cat {
	NC_OTHER, NC_CPU_OP, NC_RUNTIME, NC_DRIVER, NC_PYTHON,
	NC_KERNEL, NC_MEMCPY, NC_MEMSET, NC_META
};

/*
 * An event's category from its ph and cat (NC_META for ph "M"), and
 * whether its cat names a user annotation ("user_annotation" in it): the
 * one list that tl-perf's records (tree_nodes_read) and tl-tree --lean's
 * cut rows (tree_io.c) both go by.  Text and length: a name with a NUL in
 * it is not one on the list.
 */
enum node_cat tree_nodes_cat(const char *ph, size_t phlen, const char *cat, size_t catlen);
int tree_nodes_annotation(const char *cat, size_t len);
/*
 * Whether a row of this ph and cat (as written, without escapes), with no
 * corr, ext, seq, stream or device, is one the tree keeps nothing of, so
 * that a lean stream may give it as a "#dropped" line before the tree is
 * built (tl-cat --lean, tl-tree --lean's spool): a python frame, unless
 * python (the tree keeps them: tl-tree --python), or a category the sheets
 * do not know but a user annotation or a flow (ac2g, which the tree links).
 */
int tree_nodes_thin(const char *ph, size_t phlen, const char *cat, size_t catlen, int python);
/*
 * The category part of that rule, by the kind c tree_nodes_cat gave: a
 * python frame, or a category the sheets do not know but a user
 * annotation (tl-tree --lean's rows cut after the tree is built go by it).
 */
int tree_nodes_thin_kind(enum node_cat c, const char *cat, size_t catlen);

enum {
	NF_TREE = 1,		/* tree column is 1 */
	NF_HAS_TS = 2,		/* ts present */
	NF_STREAM = 4,		/* args.stream present (stream holds its text) */
	NF_ROOT = 8,		/* root column is 1: a cpu_op root */
	NF_ANNOT = 16,		/* NC_OTHER with "user_annotation" in its cat: keeps
				 * name, ts, dur (TraceLens apply_annotation) */
	NF_DUR_INT = 32,	/* dur is a JSON integer (a Python int: numpy sums
				 * of such durations print as ints) */
	NF_HAS_DUR = 64		/* dur present (a pseudo op has none) */
};

struct node {
	double ts, dur;		/* node_end(): ts + dur, as TraceLens's t_end */
	int32_t parent;		/* uid, -1 for none */
	int32_t fwd;		/* uid of the forward op (bwd events), -1 */
	uint32_t name, pid, tid, stream;	/* strpool ids (pid/tid/stream: JSON text) */
	uint32_t dims, types, strides, concrete;	/* compact JSON, 0 (= "") if absent */
	uint32_t args;		/* pseudo ops: the args column, else 0 */
	uint8_t cat, flags;
};

struct tree_nodes {
	struct node *node;
	size_t n, nalloc;	/* records */
	uint32_t *uid;		/* uid of node[i]; NULL where that is i */
	size_t nevents;		/* events in the stream, records or not */
	double drop_t0, drop_t1;	/* first ts, last end of the dropped events */
	struct strpool *sp;
	const char *source;	/* the #source name, or the input's name */
	const char *device;	/* deviceProperties[0].name (#top), or NULL */
	/* metadata rows (ph "M"), in file order */
	struct tree_nodes_meta { uint32_t pid, tid, key, value; } *meta;
	size_t nmeta;
	/*
	 * The last answer of each metadata lookup below (process name, label,
	 * thread name): ops are asked about in runs of the same pid and tid
	 */
	struct tree_nodes_memo { uint32_t pid, tid; const char *value; int have; } *meta_memo;
	/* the last pid and tid text read and their ids: rows come a thread
	 * at a time, so most need no lookup */
	struct tree_nodes_text { struct text_memo text; uint32_t id; } last_pid, last_tid;
	size_t bad_time;	/* GPU events with an impossible ts or dur, left out */
	/* tl-nodes 2 */
	uint32_t *kid_off, *kid, *root_order;
	size_t nkid, akid;
};

struct tree_nodes *tree_nodes_read(const char *path);
void tree_nodes_free(struct tree_nodes *ns);
const char *tree_nodes_str(const struct tree_nodes *ns, uint32_t id);
size_t tree_nodes_len(const struct tree_nodes *ns, uint32_t id);
uint32_t tree_nodes_uid(const struct tree_nodes *ns, size_t i);
int32_t tree_nodes_index(const struct tree_nodes *ns, uint32_t uid);	/* -1: no record */

/* TraceLens's t_end, ts + dur: computed where it is read, the same double
 * as one stored (8 bytes less a record) */
static inline double node_end(const struct node *n)
{
	return n->ts + n->dur;
}

static inline int node_is_gpu(const struct node *n)
{
	return n->cat == NC_KERNEL || n->cat == NC_MEMCPY || n->cat == NC_MEMSET;
}

/* metadata[pid][0]["process_name"], ["process_labels"], metadata[pid][tid]["thread_name"] */
const char *tree_nodes_process_name(const struct tree_nodes *ns, const struct node *n);
const char *tree_nodes_process_label(const struct tree_nodes *ns, const struct node *n);
const char *tree_nodes_thread_name(const struct tree_nodes *ns, const struct node *n);

#endif
