/*
 * tree_graft: a built call tree (common/tree.h) as TraceLens holds it after
 * build_tree — events with parent links, ordered children lists and
 * gpu_events lists — in a form that can be edited the way TraceLens edits
 * its trees afterwards: the graph-capture merge (common/tree_capture.h)
 * grafts copies of capture-trace subtrees under graph launches, and the
 * pseudo-op extensions (common/tree_pseudo.h) put new cpu_ops between an op
 * and its kernels.  TraceLens edits parent links and children lists
 * independently (a pseudo op lists a launcher that still names its old
 * parent), so both are kept as they are, and tl-stream(5)'s tl-nodes 2
 * writes both.
 *
 *	struct graft *g = graft_new();
 *	for each row of the trace: graft_note_row(g, s, &cols);  (with tree_add)
 *	tree_build(t); graft_attach(g, t, elements);     g now owns t
 *	... tree_capture_merge(g, ...); tree_pseudo_apply(g, ...);
 *	for (i = 0; i < graft_count(g); i++) use graft_at(g, i) ...
 *	graft_free(g);
 *
 * graft_note_row() keeps the few fields of a row that the edits read and
 * the tree does not: args.stream, args.correlation, args.kernel (capture
 * launches), user annotations, graph launches, and the Concrete Inputs of
 * TopK ops and Input Dims of vllm::outplace_fused_experts (pseudo ops).
 *
 * Nodes 0 .. tree_count(t)-1 are the tree's nodes, in the same order (uid
 * order); nodes added later follow, with uids counted on from `elements`
 * (TraceLens gives an added event UID len(events)).  Node links are node
 * indexes, GN_NONE when absent.
 *
 * gpu_events: TraceLens fills each host event's list once, at build time
 * (for each runtime call in uid order, its linked GPU events, appended to
 * the call and every ancestor), and later edits append to it.
 * graft_gpu_events() returns the build-time part (from the original tree,
 * which is kept for that) followed by what was appended.
 */
#ifndef TL_TREE_GRAFT_H
#define TL_TREE_GRAFT_H

#include <stddef.h>
#include <stdint.h>

#include "tree.h"

#define GN_NONE UINT32_MAX

/* where a node came from (tl-nodes 2 column graft) */
enum graft_origin {
	GO_TRACE,	/* an event of the trace itself */
	GO_COPY,	/* a copy of a capture trace's event */
	GO_CAPROOT,	/* TraceLens's "CaptureRoot" placeholder of a capture */
	GO_PSEUDO	/* a pseudo op */
};

enum {
	GF_TREE = 1,		/* "tree": in the call tree */
	GF_DROP = 2,		/* dropped by the event-bleed rule */
	GF_KIDS = 4,		/* children list edited: tl-nodes 2 writes it */
	GF_BUILD = 8,		/* has a build-time gpu_events part (trace nodes) */
	GF_RENAMED = 16,	/* name changed (sglang_profiler suffix) */
	GF_CORR = 32,		/* args.correlation replaced (corr field) */
	GF_HASGEV = 64,		/* TraceLens's "gpu_events" key exists */
	GF_NOTHREAD = 128	/* pid or tid absent */
};

struct gnode {
	double ts, dur;
	uint32_t uid;
	uint32_t parent;		/* node index, GN_NONE */
	uint32_t name;			/* graft_str() id */
	uint32_t *kids;			/* children, TraceLens's order */
	uint32_t nkids, akids;
	uint32_t *gev;			/* gpu_events appended after the build */
	uint32_t ngev, agev;
	uint32_t from;			/* GO_TRACE: tree node; GO_COPY: node of the capture's graft */
	uint32_t cap;			/* GO_COPY, GO_CAPROOT: capture number; GO_PSEUDO: spec number */
	uint32_t corr;			/* args.correlation text (graft_str id, 0 = None) */
	uint32_t tstext, durtext;	/* ts, dur texts written for added nodes (0: none) */
	uint32_t thread;		/* "PID\tTID" text (graft_str id) */
	uint8_t kind;			/* enum tree_kind */
	uint8_t origin;			/* enum graft_origin */
	uint8_t link;			/* enum tree_link, as built */
	uint16_t flags;
};

struct graft;
struct stream;

/* An event that graft_note_row() kept (annotations, graph launches). */
struct graft_event {
	uint32_t uid;
	uint32_t name, ts, dur;		/* graft_str ids of the texts, 0 = absent */
	double tsv, durv;		/* e.get("ts", 0), e.get("dur", 0) */
};

struct graft *graft_new(void);
void graft_note_row(struct graft *g, const struct stream *s, const struct tree_cols *c);
void graft_attach(struct graft *g, struct tree *t, uint32_t elements);
/* Undoes every edit: the graft is the tree as built again. */
void graft_reset(struct graft *g);
void graft_free(struct graft *g);

/* Rows of cat "user_annotation", and events whose name contains
 * "graphlaunch" (any case), in uid order. */
const struct graft_event *graft_annotations(const struct graft *g, size_t *n);
const struct graft_event *graft_launches(const struct graft *g, size_t *n);
/* Per-uid texts kept by graft_note_row (graft_str ids, 0 = absent). */
uint32_t graft_row_stream(const struct graft *g, uint32_t uid);
uint32_t graft_row_kernel(const struct graft *g, uint32_t uid);	/* args.kernel */
uint32_t graft_row_topk(const struct graft *g, uint32_t uid);	/* TopK Concrete Inputs */
uint32_t graft_row_dims(const struct graft *g, uint32_t uid);	/* outplace Input Dims */
/* Gives uid the texts src kept for its row suid (a copied event). */
void graft_copy_row(struct graft *g, uint32_t uid, const struct graft *src, uint32_t suid);

size_t graft_count(const struct graft *g);
struct gnode *graft_at(const struct graft *g, uint32_t i);
const struct tree *graft_tree(const struct graft *g);
/* Node of uid, or GN_NONE (events the tree does not keep). */
uint32_t graft_find(const struct graft *g, uint32_t uid);
const char *graft_str(const struct graft *g, uint32_t id);
uint32_t graft_intern(struct graft *g, const char *s);
const char *graft_name(const struct graft *g, uint32_t i);
/* The next uid an added node gets. */
uint32_t graft_next_uid(const struct graft *g);

/* A new node (kids, gpu_events empty; parent GN_NONE), uid graft_next_uid(). */
uint32_t graft_add(struct graft *g, int kind, int origin, const char *name);

/* Children lists (each edit sets GF_KIDS). */
void graft_kids_set(struct graft *g, uint32_t i, const uint32_t *kids, uint32_t n);
void graft_kid_append(struct graft *g, uint32_t i, uint32_t kid);
/* Removes the first kid; -1 if it is not there (Python's ValueError). */
int graft_kid_remove(struct graft *g, uint32_t i, uint32_t kid);
int graft_kid_index(const struct graft *g, uint32_t i, uint32_t kid);

/* gpu_events: the list (malloc'd, *n entries; NULL when empty). */
uint32_t *graft_gpu_events(const struct graft *g, uint32_t i, uint32_t *n);
void graft_gev_append(struct graft *g, uint32_t i, uint32_t gpu);
void graft_gev_set(struct graft *g, uint32_t i, const uint32_t *gev, uint32_t n);
/* "non_gpu_path": no gpu_events key at all. */
int graft_non_gpu(const struct graft *g, uint32_t i);

/* cpu_root_nodes, in TraceLens's list order. */
const uint32_t *graft_roots(const struct graft *g, size_t *n);
void graft_root_append(struct graft *g, uint32_t i);
void graft_root_remove(struct graft *g, uint32_t i);

/*
 * name2event_uids: names in the order TraceLens's dict first saw them
 * (host events in the order of the build's ts sweep, then GPU events as
 * linked, then added nodes), each with its nodes in that order.
 */
size_t graft_names(const struct graft *g);
uint32_t graft_names_name(const struct graft *g, size_t k);	/* graft_str id */
const uint32_t *graft_names_nodes(const struct graft *g, size_t k, size_t *n);
/* The nodes of one name; NULL (n = 0) if the name is not in the dict. */
const uint32_t *graft_named(const struct graft *g, const char *name, size_t *n);
void graft_name_append(struct graft *g, uint32_t name, uint32_t node);
/* Renames every node of name old to new (the dict entry moves, as
 * TraceLens's setdefault(new).extend + del old does). */
void graft_rename(struct graft *g, const char *old, const char *new);

int graft_is_gpu(const struct gnode *n);

#endif
