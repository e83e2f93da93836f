/*
 * perf_kdetail: TraceLens's _summarize_kernel_stats (TP:1352-1425) and
 * trunc_kernel_details (GPR:329-386) over lists of detail dicts, whatever
 * they describe: the kernels of an op ({name, dur, stream}, with a
 * call_stack in python mode) or its overlapping kernels ({name, dur,
 * stream, overlap_pct}).
 *
 *	struct kdent *rows[N];  uint32_t lens[N];   one list per group row
 *	struct kdsum s;
 *	kdetail_summarize(rows, lens, N, &s);
 *	kdetail_full(&s, 1, &cell);          kernel_details_summary
 *	kdetail_trunc(&s, &cell2);           trunc_kernel_details
 *	s.order[i] is the template position of the i-th summary entry
 *	kdetail_release(&s);
 *
 * The template is the first non-empty list; lists of another length are
 * skipped; per template position the durations of every kept list give
 * count, total (np.sum), mean, median, std (ddof 0), min and max, numpy's
 * results bit for bit; the entries are sorted by (total, name).  An entry
 * whose dur is None (NaN here) adds nothing.  Where every duration of a
 * position is an int (a trace writing "dur": 5), total, min and max are
 * numpy ints and print as such.
 */
#ifndef TL_PERF_KDETAIL_H
#define TL_PERF_KDETAIL_H

#include <stddef.h>
#include <stdint.h>

#include "py_repr.h"

struct kdent {
	const char *name;
	const char *stream;	/* str() of args.stream, NULL = None */
	double dur;		/* NaN = None */
	int dur_int;		/* dur is a Python int (a JSON integer) */
	const char *extra;	/* ", 'key': value" printed after 'stream', or NULL */
};

struct kdstat {
	size_t pos;		/* position in the template list */
	size_t count;
	double total, mean, median, std, min, max;
	int is_int;		/* every duration an int: numpy's int64 sum, min, max */
};

struct kdsum {
	const struct kdent *tmpl;	/* the template list, NULL: all empty */
	size_t tmpl_row;
	size_t m;
	struct kdstat *st;		/* sorted by (total, name) */
};

void kdetail_summarize(const struct kdent *const *lists, const uint32_t *lens, size_t nrows,
		       struct kdsum *s);
/* The summary cell: "[]" when every list is empty; with_extra 0 leaves the
 * template's extra keys out (TraceLens pops call_stack in some sheets). */
void kdetail_full(const struct kdsum *s, int with_extra, struct pystr *out);
/* trunc_kernel_details: names cut to 64 code points + "...", mean rounded;
 * nothing (an empty cell) when every list is empty */
void kdetail_trunc(const struct kdsum *s, struct pystr *out);
void kdetail_release(struct kdsum *s);

#endif
