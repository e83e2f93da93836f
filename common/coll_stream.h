/*
 * coll_stream: one rank's collectives stream ("#tl-coll 1", tl-stream(5)):
 * what NcclAnalyser reads of a trace, one row per collective kernel, plus
 * the trace facts the multi-rank report needs.  Written by
 * tl-coll --extract (coll_extract.c), read by the reduce.
 *
 *	struct coll_rank r;
 *	if (coll_stream_read(&r, path) < 0) ...        message printed
 *	for (i = 0; i < r.n; i++) use r.ev[i].field[COLL_F_DTYPE] ...
 *	coll_rank_release(&r);
 *
 *	coll_stream_write(&r, ob);                     the same stream back
 *
 * Fields hold the compact JSON of the kernel's args value (a string with
 * its quotes), NULL when the arg is absent or null; ts and dur the
 * numbers as written in the trace.
 */
#ifndef TL_COLL_STREAM_H
#define TL_COLL_STREAM_H

#include <stddef.h>
#include <stdint.h>

struct outbuf;

/* The args NcclAnalyser reads (build_df_long's metadata_fields), in its order. */
enum coll_field {
	COLL_F_PG_NAME, COLL_F_PG_RANKS, COLL_F_COLL_NAME, COLL_F_GROUP_SIZE,
	COLL_F_DTYPE, COLL_F_IN_NELEMS, COLL_F_OUT_NELEMS, COLL_F_IN_SPLIT,
	COLL_F_OUT_SPLIT, COLL_F_STREAM, COLL_NFIELDS
};

/* The args' names in the trace ("Process Group Name", ...) and the stream's columns. */
extern const char *const coll_field_arg[COLL_NFIELDS];
extern const char *const coll_field_col[COLL_NFIELDS];

/* Strings are interned in the rank's pool: equal texts share one copy. */
struct coll_event {
	uint64_t uid;		/* index in traceEvents */
	const char *name;	/* kernel name */
	const char *ts, *dur;	/* number text */
	const char *field[COLL_NFIELDS];
};

struct coll_rank {
	char *path;		/* the stream, for messages */
	char *source;		/* the trace it was extracted from; NULL if unknown */
	long rank;		/* -1: the stream's position in the list decides */
	long gpus;		/* len(deviceProperties); -1 if not a non-empty list */
	long world_size;	/* distributedInfo.world_size; -1 if none */
	long host_ops;		/* cpu_op and python_func events; 0: a GPU-only trace */
	struct coll_event *ev;
	size_t n, alloc;
	struct strpool *sp;	/* the events' strings */
};

void coll_rank_init(struct coll_rank *r);
void coll_rank_release(struct coll_rank *r);
/* Appends a zeroed event. */
struct coll_event *coll_rank_add(struct coll_rank *r);
/* s[0..n) interned in the rank's pool (stable until release). */
const char *coll_rank_intern(struct coll_rank *r, const char *s, size_t n);

int coll_stream_read(struct coll_rank *r, const char *path);
/* The same from a buffer (the fuzz harness): name is used in messages. */
int coll_stream_read_mem(struct coll_rank *r, const char *name, const char *buf, size_t len);
void coll_stream_write(const struct coll_rank *r, struct outbuf *ob);
/* A malloc'd copy of a TSV-escaped directive field, unescaped (tl-stream(5)). */
char *coll_tsv_unescape(const char *s);

#endif
