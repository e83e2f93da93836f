/*
 * tree: TraceLens's Trace2Tree over compact records — the host call stack
 * (cpu_op, cuda_runtime, cuda_driver and, on request, python_function
 * events), CPU→GPU linking, fwd↔bwd links and the kernel-launcher
 * attribution of TraceLens's get_kernel_launchers.  The exact rules, quirks
 * included, are in tl-tree(1); this module is their one implementation.
 *
 * One struct tree holds one trace (one "src" of an event stream: use one
 * tree per src, since uids restart).  Events are added in uid order; only those the tree needs are kept, as fixed-size
 * struct tree_node records (host and GPU events, events carrying a linking
 * id or a Sequence number) with strings interned.  Node indexes are dense
 * and in uid order; tree_find() maps a uid to its node.
 *
 *	struct tree_cols cols;
 *	if (tree_cols_init(&cols, s) < 0) ...        missing column, message printed
 *	struct tree *t = tree_new(python ? TREE_PYTHON : 0);
 *	while ((r = stream_next(s)) > 0)
 *		if (r == STREAM_ROW) {
 *			struct tree_event ev;
 *			if (tree_event_read(&ev, s, &cols) < 0 || tree_add(t, &ev) < 0) ...
 *		}
 *	tree_build(t);                               link everything; add no more
 *	struct tree_walk *w = tree_walk_new();
 *	for (i = 0; i < tree_count(t); i++) {
 *		const struct tree_node *n = tree_at(t, i);
 *		... n->parent, tree_gpu_busy(t, w, i), tree_kernel_direct(t, w, i, &cnt) ...
 *	}
 *	tree_walk_free(w);
 *	tree_free(t);
 *
 * Node links (parent, first_child, next_sibling, fwd_bwd, launcher) are node
 * indexes, TREE_NONE when absent; ->uid gives the event's uid.  Children
 * follow TraceLens's order: host children by ts, then linked GPU events.
 * The busy-time queries walk the subtree in a struct tree_walk
 * (tree_walk_new) of the caller's: a built tree is only read, so threads
 * may ask at once, each with its own walk.
 */
#ifndef TL_TREE_H
#define TL_TREE_H

#include <stddef.h>
#include <stdint.h>

struct stream;

#define TREE_NONE UINT32_MAX

enum { TREE_PYTHON = 1 };		/* tree_new flags: add python_function frames */

/* tree_node.kind: the category as far as the tree cares */
enum tree_kind {
	TK_OTHER, TK_NOCAT, TK_CPU_OP, TK_RUNTIME, TK_DRIVER, TK_PYTHON,
	TK_KERNEL, TK_MEMCPY, TK_MEMSET
};

/* tree_node.link: the linking result, words from tree_link_word() */
enum tree_link {
	TLK_NONE,		/* not a runtime/driver or GPU event: "" */
	TLK_LINKED,		/* "linked": ac2g flow link */
	TLK_GRAPH,		/* "graph": cudaGraphLaunch/hipGraphLaunch correlation */
	TLK_NO_KEY,		/* runtime: "no-key", no args[linking key] */
	TLK_NO_S_FLOW,		/* runtime: "no-s-flow" */
	TLK_NO_F_FLOW,		/* runtime: "no-f-flow" */
	TLK_NO_GPU_EVENT,	/* runtime: "no-gpu-event", flows but nothing at f's pid/tid */
	TLK_HOST_TARGET,		/* runtime: "host-target", the f flow names a host event */
	TLK_UNLINKED		/* GPU: "unlinked" */
};

/* flags */
enum {
	TN_TREE = 1,		/* TraceLens's "tree" flag */
	TN_ROOT = 2,		/* cpu_op_root */
	TN_DROP = 4,		/* dropped by the event-bleed rule */
	TN_HOST = 8,		/* a selected host event (tree input) */
	TN_TIMED = 16,		/* ts and dur are numbers */
	TN_DUR_INT = 32,	/* dur was written as an integer (prints as one) */
	TN_FWD = 64,		/* fwd_bwd holds this backward event's forward op */
	TN_BWD = 128,		/* fwd_bwd holds this forward op's backward event */
	TN_LAUNCHER = 256,	/* some GPU event's launcher (§4.4) */
	TN_NOTHREAD = 512,	/* pid or tid is absent (None) */
	TN_HAS_DUR = 1024	/* dur is a number */
};

struct tree_node {
	double ts, dur;		/* t_end is always ts + dur, computed once */
	uint32_t uid;
	uint32_t parent, first_child, next_sibling;
	uint32_t name, cat;	/* tree_str() ids; 0 = "" (absent) */
	uint32_t pidtid;	/* thread key (TREE_NONE if pid or tid is absent) */
	uint32_t lk, ext;	/* args[linking key], args["External id"]: tree_str() ids */
	uint32_t gpu_n;		/* len(gpu_events) */
	uint32_t fwd_bwd;	/* see TN_FWD / TN_BWD */
	uint32_t launcher;	/* GPU events: the §4.4 launcher, TREE_NONE if none */
	uint32_t depth;		/* 32 bits: a chain of 65536 nested ops is a
				 * trace, not an error (same size: padding) */
	uint16_t flags;
	uint8_t kind, link;
};

/* One event row as the tree reads it: NUL-terminated texts, "" = absent. */
struct tree_event {
	unsigned long uid;
	const char *ph, *cat, *name, *pid, *tid, *ts, *dur, *id;
	const char *corr, *ext, *seq;
	int has_args;		/* the event has an args object */
	const char *args;	/* the args column, valid while tree_add reads it */
};

struct tree_cols {
	int uid, src, ph, cat, name, pid, tid, ts, dur, id, corr, ext, seq, args;
};

struct tree_stats {
	size_t events, nodes, host, roots, dropped, untimed;
	size_t gpu, gpu_linked, runtime, runtime_linked;
	const char *key;	/* "correlation" or "External id" */
};

/* Finds the event-stream columns; -1 (message printed) if one is missing. */
int tree_cols_init(struct tree_cols *c, const struct stream *s);
/* Fills ev from the current row; -1 (message printed) on a bad uid. */
int tree_event_read(struct tree_event *ev, const struct stream *s,
		    const struct tree_cols *c);

struct tree *tree_new(unsigned flags);
/* Adds one event; uids must increase.  -1 if not (nothing printed). */
int tree_add(struct tree *t, const struct tree_event *ev);
/*
 * Counts event uid as tree_add counts one it keeps no node and no flow
 * for (a caller that knows so from its fields: tree_io's thin rows); -1,
 * nothing changed, where uid does not increase.
 */
int tree_skip(struct tree *t, unsigned long uid);
void tree_build(struct tree *t);
void tree_free(struct tree *t);

size_t tree_count(const struct tree *t);
/* The uid of the last event added (node or not) in *uid: 1, or 0 for none. */
int tree_last_uid(const struct tree *t, unsigned long *uid);
const struct tree_node *tree_at(const struct tree *t, uint32_t i);
/* Node index of uid, or TREE_NONE when the event was not kept. */
uint32_t tree_find(const struct tree *t, unsigned long uid);
const char *tree_str(const struct tree *t, uint32_t id);
/* The node's "PID\tTID" texts as in the stream ("" for an absent one). */
const char *tree_thread(const struct tree *t, uint32_t i);
/*
 * TraceLens's get_node_by_ext_id_pid_tid: the first kept event (uid order)
 * whose External id, pid and tid have exactly these texts; TREE_NONE if none.
 */
uint32_t tree_find_ext(const struct tree *t, const char *ext, const char *pid,
		       const char *tid);
/* cpu_op roots in TraceLens's cpu_root_nodes order (ts order). */
const uint32_t *tree_roots(const struct tree *t, size_t *n);
const char *tree_link_word(int link);
int tree_is_gpu(const struct tree_node *n);
struct tree_stats tree_stats(const struct tree *t);

/* Scratch space for the busy-time walks (see above). */
struct tree_walk;
struct tree_walk *tree_walk_new(void);
void tree_walk_free(struct tree_walk *w);
/* Busy time (µs) of node i's gpu_events: TraceLens's total_subtree_kernel_time. */
double tree_gpu_busy(const struct tree *t, struct tree_walk *w, uint32_t i);
/*
 * For a kernel launcher, the busy time of the GPU events attributed to it
 * (total_direct_kernel_time) and their number; returns -1 with *n = 0
 * when i launches nothing directly.
 */
double tree_kernel_direct(const struct tree *t, struct tree_walk *w, uint32_t i, uint32_t *n);

#endif
