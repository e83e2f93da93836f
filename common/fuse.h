/*
 * fuse: tl-fuse's work, TraceLens's TraceFusion: the ranks' traces into one
 * Chrome/Perfetto trace, {"traceEvents":[...]} with one event per line,
 * streaming (one event is held at a time; memory is the largest event
 * plus one entry per process).  Each rank's trace is read with tl-cat's
 * reader (cat_input.h, json_scan.h, json.h) and its events are written in
 * file order, rank after rank, rewritten as TraceFusion does:
 *
 *   - dropped: "ph":"M" events named process_name, process_sort_index or
 *     process_labels (replaced at the end), events of cat "Trace", and of
 *     cat "python_function" unless python is set (all_cats keeps both);
 *   - args.rank = the rank (args is added when missing);
 *   - pid: a per-rank range (fuse_pid.h), the old value in args.pid_raw;
 *   - id (flow ids) and args.correlation and args["External id"]: an
 *     integer v in [0, 10^10) becomes rank * 10^10 + v, the old value in
 *     args.id_raw, args.correlation_raw, args["External id_raw"];
 *   - ts and everything else: unchanged (no clock alignment);
 *   - at the end, process_name "RANK r - GPU|CPU" and process_sort_index
 *     for every process that kept an event.
 *
 * With a window, an event with ts and dur is kept when [ts, ts+dur]
 * meets [start, end], one with ts only when start <= ts <= end; metadata
 * and events without ts are always kept.  Other top-level keys
 * (deviceProperties, ...) are not written, as in TraceFusion.
 *
 *	struct fuse_opts o = { ... };
 *	struct fuse *f = fuse_new(ob, &o, nranks);   writes the opening
 *	for each selected rank r, in order: rval |= fuse_rank(f, r, PATH);
 *	fuse_finish(f);                              names, closing, counts
 *	fuse_free(f);
 *
 * A trace with an error is reported ("tl-fuse: PATH: byte N: what"); the
 * events written before it stay (each is complete), and fuse_rank
 * returns 1.  The output is always a complete JSON document.
 */
#ifndef TL_FUSE_H
#define TL_FUSE_H

struct outbuf;

struct fuse_opts {
	int python;		/* keep cat python_function */
	int all_cats;		/* keep cat Trace and python_function */
	int window;		/* start/end are set */
	double start, end;	/* µs, the traces' own clock */
	int verbose;		/* a count line per rank */
};

struct fuse;

struct fuse *fuse_new(struct outbuf *ob, const struct fuse_opts *o,
		      unsigned nranks);
/* 0 ok, 1 the trace was bad (reported). */
int fuse_rank(struct fuse *f, unsigned rank, const char *path);
/* Writes the process names and the closing; prints the count line. */
void fuse_finish(struct fuse *f);
void fuse_free(struct fuse *f);

#endif
