#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll_report.h"
#include "coll_sheets.h"
#include "coll_table.h"
#include "err.h"
#include "path.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* The sheets in TraceLens's order (its report_dfs, which is also the xlsx tab order). */
enum {
	S_SUMMARY_SYNC, S_SUMMARY_LONG, S_SUMMARY_A2AV, S_HEATMAP, S_LONG, S_SYNC,
	S_A2AV, S_STRAGGLER, NSHEETS
};
static const char *const sheet_name[NSHEETS] = {
	"nccl_summary_implicit_sync", "nccl_summary_long", "nccl_summary_all2allv",
	"nccl_all2allv_heatmap", "nccl_long", "nccl_implicit_sync", "nccl_all2allv",
	"straggler_summary",
};

static const char *const default_agg[] = { "mean", "median", "min", "max" };

/* mkdir -p */
static int make_dir(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; *s && !rc; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (!rc && mkdir(p, 0777) < 0 && errno != EEXIST)
		rc = -1;
	if (rc)
		tl_warn_errno("%s", p);
	free(p);
	return rc;
}

static int write_sheet(const char *dir, const char *name, const struct coll_frame *f)
{
	char *p = path_join(dir, name, ".csv");
	int rc = coll_frame_write_csv(f, p);

	free(p);
	return rc;
}

static void remove_sheet(const char *dir, const char *name)
{
	char *p = path_join(dir, name, ".csv");

	if (unlink(p) < 0 && errno != ENOENT)
		tl_warn_errno("%s", p);
	free(p);
}

static void check_world(const struct coll_rank *ranks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ranks[i].world_size >= 0 && (size_t)ranks[i].world_size != n) {
			tl_warn("warning: %s: distributedInfo.world_size is %ld, but %zu rank streams were given",
				ranks[i].path, ranks[i].world_size, n);
			return;
		}
}

struct sheets {
	struct coll_frame f[NSHEETS];
	int present[NSHEETS];
};

static int build(struct sheets *s, const struct coll_table *t, const struct coll_report_opts *o,
		 const char *const *agg, size_t nagg)
{
	if (coll_sheet_implicit(t, o->strict, &s->f[S_SYNC]) < 0 ||
	    coll_sheet_a2av(t, o->strict, &s->f[S_A2AV]) < 0)
		return -1;
	coll_sheet_implicit_summary(&s->f[S_SYNC], agg, nagg, &s->f[S_SUMMARY_SYNC]);
	coll_sheet_summary_long(t, &s->f[S_SUMMARY_LONG]);
	coll_sheet_a2av_summary(&s->f[S_A2AV], agg, nagg, &s->f[S_SUMMARY_A2AV]);
	if (o->heatmap)
		coll_sheet_heatmap(t, (long)t->nranks, &s->f[S_HEATMAP]);
	coll_sheet_long(t, &s->f[S_LONG]);
	coll_sheet_straggler(t, &s->f[S_SYNC], &s->f[S_STRAGGLER]);
	/* always written, empty or not; the others only when they have rows */
	s->present[S_SUMMARY_SYNC] = s->present[S_SUMMARY_LONG] = 1;
	s->present[S_LONG] = s->present[S_SYNC] = 1;
	s->present[S_SUMMARY_A2AV] = s->f[S_SUMMARY_A2AV].nrows > 0;
	s->present[S_HEATMAP] = s->f[S_HEATMAP].nrows > 0;
	s->present[S_A2AV] = s->f[S_A2AV].nrows > 0;
	s->present[S_STRAGGLER] = s->f[S_STRAGGLER].nrows > 0;
	return 0;
}

static long gpus_per_node(const struct coll_table *t, const struct coll_report_opts *o)
{
	if (o->gpus_per_node > 0)
		return o->gpus_per_node;
	/* detect_gpus_per_node on the first trace of the list: rank 0's */
	return t->nranks ? t->ranks[0].gpus : -1;
}

static int write_all(struct sheets *s, const char *dir)
{
	int rc = 0;

	for (int k = 0; k < NSHEETS; k++)
		if (s->present[k])
			rc |= write_sheet(dir, sheet_name[k], &s->f[k]);
		else
			remove_sheet(dir, sheet_name[k]);
	return rc;
}

int coll_report_write(struct coll_rank *ranks, size_t n, const char *dir,
		      const struct coll_report_opts *o)
{
	const char *const *agg = o->agg ? o->agg : default_agg;
	size_t nagg = o->agg ? o->nagg : 4;
	struct strpool *sp = strpool_new();
	struct coll_table t;
	struct sheets s;
	long gpn;
	int rc = 1;

	for (int k = 0; k < NSHEETS; k++)
		coll_frame_init(&s.f[k], sp);
	memset(s.present, 0, sizeof(s.present));
	if (coll_table_build(&t, ranks, n, sp) < 0)
		goto out;
	check_world(ranks, n);
	if (t.bad_nelems)
		tl_warn("warning: %zu collective%s with a dtype but no usable 'In msg nelems' or 'Out msg nelems': their sizes are left empty",
			t.bad_nelems, t.bad_nelems == 1 ? "" : "s");
	if (!t.n) {
		tl_warn("no collective kernels in the %zu rank stream%s: no sheets written",
			n, n == 1 ? "" : "s");
		if (dir && make_dir(dir) == 0)
			write_all(&s, dir);	/* clears an earlier run's sheets */
		rc = 0;
		goto out;
	}
	if (build(&s, &t, o, agg, nagg) < 0)
		goto out;
	if ((gpn = gpus_per_node(&t, o)) > 0)
		for (int k = 0; k < NSHEETS; k++)
			coll_sheet_node_columns(&s.f[k], gpn);
	if (!dir) {
		rc = 0;		/* built, not written (the fuzz harness) */
		goto out;
	}
	if (make_dir(dir) < 0)
		goto out;
	rc = write_all(&s, dir) ? 1 : 0;
out:
	coll_table_release(&t);
	for (int k = 0; k < NSHEETS; k++)
		coll_frame_release(&s.f[k]);
	strpool_free(sp);
	return rc;
}

int coll_analysis_write(struct coll_rank *r, const char *dir)
{
	struct strpool *sp = strpool_new();
	struct coll_table t;
	struct coll_frame f;
	int rc = 1;
	long rank = r->rank;

	coll_frame_init(&f, sp);
	/* NcclAnalyser([trace], None): the one trace is rank 0 unless it says otherwise */
	if (r->rank < 0)
		r->rank = 0;
	if (coll_table_build(&t, r, 1, sp) < 0)
		goto out;
	if (r->host_ops > 0)
		coll_sheet_summary_long(&t, &f);
	if (!dir) {
		rc = 0;
		goto out;
	}
	if (make_dir(dir) < 0)
		goto out;
	if (f.nrows)
		rc = write_sheet(dir, "coll_analysis", &f) ? 1 : 0;
	else {
		remove_sheet(dir, "coll_analysis");
		rc = 0;
	}
out:
	r->rank = rank;
	coll_table_release(&t);
	coll_frame_release(&f);
	strpool_free(sp);
	return rc;
}
