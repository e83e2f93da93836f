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
 * node[i] is the event with uid i.  To keep reading fast, events of other
 * categories (flows, instants, annotations: NC_OTHER) keep only their
 * parent and flags (user annotations NF_ANNOT also name, ts and dur), and
 * python frames (NC_PYTHON) no pid or tid, and no name unless they are in
 * the tree (tl-tree --python).  One source per stream: a stream with
 * a second #source is refused (run one trace at a time).  Python's
 * process/thread names (ph "M" events, spec core §1.8) are resolved with
 * tree_nodes_process_name() and friends, "Unknown" when absent.
 */
#ifndef TL_TREE_NODES_H
#define TL_TREE_NODES_H

#include <stddef.h>
#include <stdint.h>

enum node_cat {
	NC_OTHER, NC_CPU_OP, NC_RUNTIME, NC_DRIVER, NC_PYTHON,
	NC_KERNEL, NC_MEMCPY, NC_MEMSET, NC_META
};

enum {
	NF_TREE = 1,		/* tree column is 1 */
	NF_HAS_TS = 2,		/* ts present */
	NF_STREAM = 4,		/* args.stream present (stream holds its text) */
	NF_ROOT = 8,		/* root column is 1: a cpu_op root */
	NF_ANNOT = 16,		/* NC_OTHER with "user_annotation" in its cat: keeps
				 * name, ts, dur (TraceLens apply_annotation) */
	NF_DUR_INT = 32,	/* dur is a JSON integer (a Python int: numpy sums
				 * of such durations print as ints) */
};

struct node {
	double ts, dur, t_end;	/* t_end = ts + dur, once, as TraceLens */
	int32_t parent;		/* uid, -1 for none */
	int32_t fwd;		/* uid of the forward op (bwd events), -1 */
	uint32_t name, pid, tid, stream;	/* strpool ids (pid/tid/stream: JSON text) */
	uint32_t dims, types, strides, concrete;	/* compact JSON, 0 (= "") if absent */
	uint8_t cat, flags;
};

struct tree_nodes {
	struct node *node;
	size_t n;
	struct strpool *sp;
	const char *source;	/* the #source name, or the input's name */
	const char *device;	/* deviceProperties[0].name (#top), or NULL */
	/* metadata rows (ph "M"), in file order */
	struct tree_nodes_meta { uint32_t pid, tid, key, value; } *meta;
	size_t nmeta;
};

struct tree_nodes *tree_nodes_read(const char *path);
void tree_nodes_free(struct tree_nodes *ns);
const char *tree_nodes_str(const struct tree_nodes *ns, uint32_t id);
size_t tree_nodes_len(const struct tree_nodes *ns, uint32_t id);

static inline int node_is_gpu(const struct node *n)
{
	return n->cat == NC_KERNEL || n->cat == NC_MEMCPY || n->cat == NC_MEMSET;
}

/* metadata[pid][0]["process_name"], ["process_labels"], metadata[pid][tid]["thread_name"] */
const char *tree_nodes_process_name(const struct tree_nodes *ns, const struct node *n);
const char *tree_nodes_process_label(const struct tree_nodes *ns, const struct node *n);
const char *tree_nodes_thread_name(const struct tree_nodes *ns, const struct node *n);

#endif
