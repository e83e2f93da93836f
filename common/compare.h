/*
 * compare: compare finished report folders the way TraceLens's
 * compare_perf_reports_pytorch does (spec tracelens-diff-collectives §2).
 *
 * HowTo:
 *
 *	struct compare rc = { .n = 2, .dirs = dirs, .tags = tags,
 *			       .groups = RC_ALL, .outdir = "cmp" };
 *	status = compare_run(&rc);        0, or 1 if a sheet failed
 *
 * Each report folder holds SHEET.csv files.  The first report is the
 * baseline.  Groups, in output order:
 *   gpu_timeline    gpu_timeline.csv, key type, diff "time ms"
 *   ops_summary     ops_summary.csv, key name, sorted by the baseline
 *   kernel_summary  kernel_summary.csv, key "Kernel name" (or the legacy
 *                   rocprof layout, key name), sorted by the baseline
 *   ops_all         ops_all, ops_unique_args, unified_perf_summary, split
 *                   into SHEET_{intersect,only_baseline,only_variant}_TAG
 *   roofline        GEMM, SDPA_fwd/bwd, CONV_fwd/bwd, UnaryElementwise
 *                   (un_eltwise_*), BinaryElementwise (bin_eltwise_*), split
 * Non-key columns become TAG::COLUMN; each diff column COL gets
 * COL__TAG_diff and COL__TAG_pct for every non-baseline TAG.  Output goes
 * to OUTDIR/NAME.csv, one file per result sheet.  Rows a split sheet
 * cannot place (first diff column missing everywhere) are counted on
 * stderr.
 *
 * A sheet missing from the baseline is not compared: an error when its
 * group was named in groups_named, a note on stderr otherwise (silent for
 * the optional ops_all and roofline sheets, as in TraceLens).  A sheet
 * the baseline has but a variant lacks, or one that cannot be read or
 * lacks a key or diff column, is reported and skipped, and the status is 1.
 */
#ifndef TL_COMPARE_H
#define TL_COMPARE_H

#include <stddef.h>

enum {
	RC_GPU_TIMELINE = 1,
	RC_OPS_SUMMARY = 2,
	RC_KERNEL_SUMMARY = 4,
	RC_OPS_ALL = 8,
	RC_ROOFLINE = 16,
	RC_ALL = 31
};

struct compare {
	size_t n;		/* reports (>= 2); dirs[0] is the baseline */
	char *const *dirs;
	char *const *tags;	/* unique, one per report */
	unsigned groups;	/* RC_* bits to compare */
	unsigned groups_named;	/* those asked for by name, not by "all" */
	const char *outdir;	/* must exist */
};

/* The RC_* bit for a --sheets word ("all" is RC_ALL), or 0. */
unsigned compare_group(const char *name);
/* The default tag of a report folder: its base name without extension. */
char *compare_default_tag(const char *dir);
int compare_run(const struct compare *rc);

#endif
