/*
 * idle_trace: HTA's trace DataFrame for each rank, read from a tl-nodes
 * (or tl-events) stream.  HTA's analyses (idle_*.c, critpath_*.c) run on
 * these rows, so every rule of HTA's parser and loader that changes which
 * rows exist, their order or their values lives here:
 *
 *   - rows: the traceEvents elements with a "dur" and a "cat" (other than
 *     "Trace"), i.e. HTA's dropna(subset=["dur", "cat"]); index = uid;
 *   - ns rounding (round_down_time_stamps): when the trace's ts column is
 *     float64 in pandas (some element's ts is written as a float, or is
 *     missing), ts = ceil(ts), end = floor(ts + dur), dur = end - ts;
 *   - stream and correlation from args (default -1);
 *   - index_correlation (transform_correlation_to_index): rows with a
 *     correlation are split into GPU rows (stream >= 0 and correlation
 *     >= 0, or named "Event Sync"/"Context Sync") and CPU rows; each side
 *     points at the last row of the other side with the same correlation;
 *     unmatched rows get min(correlation, 0);
 *   - the ProfilerStep filter (_filter_irrelevant_gpu_kernels): when the
 *     loaded traces hold two or more distinct "ProfilerStep#N" names,
 *     each rank keeps its CPU rows that start before the last
 *     ProfilerStep starts, and each GPU row once per kept CPU row of the
 *     same correlation; the rows are then the kept GPU rows followed by
 *     the kept CPU rows.
 *
 *	struct idle_set set;
 *	idle_set_init(&set, keep_all);
 *	if (idle_set_read(&set, path) < 0) ...     message printed
 *	idle_set_finish(&set);                      filter, rank order
 *	for (i = 0; i < set.n; i++) use set.t[i]    ranks ascending
 *	idle_set_release(&set);
 *
 * Without keep_all (the breakdowns), CPU rows with no correlation and no
 * GPU stream are not stored, except the ProfilerStep annotations: no
 * breakdown reads them; their start times are kept for the filter's
 * counting.  The critical path needs every row (keep_all = 1).
 */
#ifndef TL_IDLE_TRACE_H
#define TL_IDLE_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct strpool;

struct idle_ev {
	int64_t index;		/* uid: position in traceEvents */
	double ts, dur;		/* after HTA's rounding; end = ts + dur exactly */
	int64_t stream;		/* args.stream, -1 when absent */
	int64_t corr;		/* args.correlation, -1 when absent */
	int64_t icorr;		/* HTA's index_correlation */
	uint32_t cat, name;	/* strpool ids */
	uint32_t pid, tid;	/* strpool ids of the compact JSON text */
	int32_t device;		/* args.device, -1 when absent */
};

/* A CUDA event sync's args (HTA's ARGS_SYNC), -1 when absent. */
struct idle_wait {
	int64_t index;
	int64_t stream;		/* wait_on_stream */
	int64_t corr;		/* wait_on_cuda_event_record_corr_id */
};

/* How pandas typed a column: printing follows it (7 vs 7.0 vs "x"). */
enum idle_dtype { IDLE_INT, IDLE_FLOAT, IDLE_OBJECT };

struct idle_trace {
	char *source;		/* #source name (file as given) */
	unsigned src;
	long rank;		/* distributedInfo.rank, 0 when absent */
	int rounded;		/* HTA rounded ts/dur to whole µs */
	enum idle_dtype ts_type, dur_type, pid_type, tid_type;
	struct idle_ev *ev;	/* rows in HTA's order */
	size_t n, alloc;
	double *plain_ts;	/* start times of rows not stored (see above) */
	size_t nplain, plain_alloc;
	size_t ncpu;		/* rows HTA's CPUOperatorFilter keeps, before the filter */
	/* args.wait_on_* of the rows that have them (keep_all only), by index */
	struct idle_wait *wait;
	size_t nwait, wait_alloc;
	double min_ts;		/* smallest ts of its rows, before alignment */
};

struct idle_set {
	struct strpool *sp;
	struct idle_trace *t;
	size_t n, alloc;
	int keep_all;
	unsigned char *is_symbol;	/* strpool id → seen as a cat or name */
	unsigned char *ktype;		/* strpool id → idle_kernel_type + 1, 0 unknown */
	size_t nsym_alloc;
	int filtered;		/* the ProfilerStep filter was applied */
	uint32_t event_sync, context_sync;	/* strpool ids of these names */
	double min_ts;		/* HTA's min_ts: subtracted from every ts */
};

void idle_set_init(struct idle_set *set, int keep_all);
void idle_set_release(struct idle_set *set);
/* Reads every source of a stream; 0, or -1 with a message printed. */
int idle_set_read(struct idle_set *set, const char *path);
/*
 * Sorts the traces by rank (-1 with a message when two share a rank),
 * makes every ts relative to the earliest one of all ranks (HTA's
 * _align_all_ranks) and applies the ProfilerStep filter.
 */
int idle_set_finish(struct idle_set *set);

/* The wait_on_* args of row index, or NULL. */
const struct idle_wait *idle_trace_wait(const struct idle_trace *t, int64_t index);

/* HTA's kernel type of a row's name (cached per name). */
int idle_ktype(struct idle_set *set, uint32_t name);

/* The id of a string that the traces use as a cat or name, else UINT32_MAX. */
uint32_t idle_symbol(const struct idle_set *set, const char *s);
const char *idle_str(const struct idle_set *set, uint32_t id);
size_t idle_len(const struct idle_set *set, uint32_t id);

#endif
