/*
 * infer_write: the files tl-split writes, as TraceLens's
 * split_inference_trace_annotation.py writes them: each window as a
 * gzipped JSON trace (the input's top-level keys, in their order, with
 * traceEvents replaced), and the summary of all windows as
 * execution_details.json (json.dump(indent=2)) and execution_details.csv
 * (pandas to_csv(float_format="%.2f")).
 *
 *	struct infer_doc d = { rows, &cols, ncols, tops, ntops, NULL, 0 };
 *	infer_write_trace(&d, "out/x.json.gz", uids, n);     0, or -1 (message printed)
 *	infer_write_details("out", entries, nentries);
 */
#ifndef TL_INFER_WRITE_H
#define TL_INFER_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "infer_split.h"
#include "infer_steady.h"

struct stream_rows;
struct cat_json_cols;

/* A top-level key of the input trace: JSON text of its value. */
struct infer_top {
	char *key, *json;
	int after;		/* stood after traceEvents */
};

struct infer_doc {
	const struct stream_rows *rows;	/* the rows to write, src 0 */
	const struct cat_json_cols *cols;
	int ncols;
	const struct infer_top *top;
	size_t ntop;
	/* args.stream_index to add, by uid (-1: none), as TraceLens's call-tree
	 * fallback leaves it on the events it writes; NULL for none */
	const int32_t *stream_index;
	size_t nstream_index;
};

/* One entry of execution_details.json. */
struct infer_entry {
	size_t idx;
	char *path;
	size_t event_count, num_gpu_events;
	struct infer_num gpu_duration, gpu_busy_duration;
	struct infer_step *steps;
	size_t nsteps;
	struct infer_phase phase;
};

int infer_write_trace(const struct infer_doc *d, const char *path, const uint32_t *uid, size_t n);
int infer_write_details(const char *dir, const struct infer_entry *e, size_t n);
/* os.path.join(a, b) */
char *infer_path_join(const char *a, const char *b);

#endif
