/*
 * tree_gpulink: which GPU events TraceLens's Trace2Tree links to a launch
 * (sets "tree"), worked out from an event stream in one pass without
 * building the host tree (tracelens-core §2.1, §2.4, §6).
 *
 * A GPU event is linked iff, with K the linking key (correlation, or
 * External id when the first runtime/driver event whose name contains
 * "launch" lacks a correlation), its args[K] = c and either
 *   (a) a non-graph cuda_runtime/cuda_driver event has args[K] == c, an
 *       ac2g "s" flow with id c exists, the last ac2g "f" flow with id c
 *       sits on the GPU event's (pid, tid), and the GPU event is the last
 *       event with (pid, tid, args[K]) == (its pid, its tid, c); or
 *   (b) a cudaGraphLaunch/hipGraphLaunch event has args[K] == c.
 *
 *	struct tree_gpulink *g = tree_gpulink_new();
 *	for each row in file order: tree_gpulink_event(g, &row);
 *	tree_gpulink_finish(g);                  decides K, frees what K rules out
 *	linked = tree_gpulink_linked(g, uid, pid, tid, &corr, &ext);
 *	tree_gpulink_free(g);
 *
 * pid and tid are ids interned by the caller (equal text, equal id);
 * TREE_GPULINK_NONE means absent (or JSON null).  Link values are compared as
 * Python compares numbers: 8218, 8218.0 and 8.218e3 are the same id.
 */
#ifndef TL_TREE_GPULINK_H
#define TL_TREE_GPULINK_H

#include <stddef.h>
#include <stdint.h>

#define TREE_GPULINK_NONE UINT32_MAX

enum { LINKVAL_NONE, LINKVAL_INT, LINKVAL_FLOAT };
enum { TREE_GPULINK_CORRELATION, TREE_GPULINK_EXTERNAL_ID };

struct linkval {
	uint64_t v;		/* the int64 value, or the double's bits */
	int kind;		/* LINKVAL_* */
};

/* Parses a JSON number's text; kind LINKVAL_NONE if empty or not a number. */
struct linkval linkval_parse(const char *text);

struct tree_gpulink_row {
	uint64_t uid;
	const char *ph, *cat, *name;
	uint32_t pid, tid;
	int gpu;		/* cat is kernel, gpu_memcpy or gpu_memset */
	struct linkval id, corr, ext;
	const char *args;	/* compact JSON of the other args; "" if none */
};

struct tree_gpulink;

struct tree_gpulink *tree_gpulink_new(void);
void tree_gpulink_free(struct tree_gpulink *g);
void tree_gpulink_event(struct tree_gpulink *g, const struct tree_gpulink_row *r);
void tree_gpulink_finish(struct tree_gpulink *g);
/* TREE_GPULINK_CORRELATION or TREE_GPULINK_EXTERNAL_ID; valid after tree_gpulink_finish */
int tree_gpulink_key(const struct tree_gpulink *g);
int tree_gpulink_linked(const struct tree_gpulink *g, uint64_t uid, uint32_t pid,
		   uint32_t tid, const struct linkval *corr,
		   const struct linkval *ext);
/* Bytes held by the maps, for -v reports. */
size_t tree_gpulink_bytes(const struct tree_gpulink *g);

#endif
