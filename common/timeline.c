#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll_name.h"
#include "timeline.h"
#include "xalloc.h"
#include "banned.h"

/*
 * re.match(pattern + "(\.kd)?$", name) for a fixed list of alternatives.
 * Python's "$" also matches before one trailing newline, so that is
 * allowed too.
 */
static int legacy_match(const char *name, const char *const *alts)
{
	size_t n = strlen(name);

	if (n && name[n - 1] == '\n')
		n--;
	if (n >= 3 && !memcmp(name + n - 3, ".kd", 3))
		n -= 3;
	for (; *alts; alts++)
		if (strlen(*alts) == n && !memcmp(name, *alts, n))
			return 1;
	return 0;
}

static const char *const legacy_memcpy[] = {
	"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
	"MEMORY_COPY_DEVICE_TO_DEVICE", "__amd_rocclr_copyBuffer",
	"__amd_rocclr_copyBufferRect", "__amd_rocclr_copyBufferAligned",
	"__amd_rocclr_copyBufferRectAligned", NULL
};

static const char *const legacy_memset[] = {
	"__amd_rocclr_fillBuffer", "__amd_rocclr_fillBufferAligned", NULL
};

int gpu_classify(const char *cat, const char *name)
{
	int kernel = !strcmp(cat, "kernel");

	if (!strcmp(cat, "gpu_memcpy"))
		return GPU_MEMCPY;
	if (!kernel && strcmp(cat, "gpu_memset"))
		return GPU_NONE;
	if (kernel && legacy_match(name, legacy_memcpy))
		return GPU_MEMCPY;
	if (kernel && legacy_match(name, legacy_memset))
		return GPU_COMPUTATION;
	if (coll_name_match(name, strlen(name)))
		return GPU_COMMUNICATION;
	return GPU_COMPUTATION;
}

void timeline_init(struct timeline *t)
{
	memset(t, 0, sizeof(*t));
}

static void push(struct timeline *t, int k, double ts, double t_end)
{
	xgrow((void **)&t->v[k], &t->alloc[k], t->n[k] + 1, sizeof(*t->v[k]));
	t->v[k][t->n[k]++] = (struct ival){ ts, t_end };
}

void timeline_add(struct timeline *t, double ts, double t_end, int cls)
{
	push(t, cls, ts, t_end);
	push(t, GPU_NCLASS, ts, t_end);
}

size_t timeline_count(const struct timeline *t)
{
	return t->n[GPU_NCLASS];
}

static struct ival *scratch(struct timeline *t, int i, size_t need)
{
	xgrow((void **)&t->tmp[i], &t->tmp_alloc[i], need ? need : 1,
	      sizeof(*t->tmp[i]));
	return t->tmp[i];
}

static void row(struct breakdown *b, const char *type, double us)
{
	b->type[b->n] = type;
	b->us[b->n++] = us;
}

/* gaps = [(first start, last end)] - ALL, split at micro_us */
static void idle_rows(struct timeline *t, const struct ival *all, size_t n,
		      double micro_us, struct breakdown *b, double *sum)
{
	struct ival span = { all[0].start, all[n - 1].end };
	struct ival *gap = scratch(t, 0, n + 1);
	size_t ng = ival_subtract(all, n, &span, 1, gap);
	double micro = 0.0, macro = 0.0;

	for (size_t i = 0; i < ng; i++)
		if (gap[i].end - gap[i].start < micro_us)
			micro += gap[i].end - gap[i].start;
	for (size_t i = 0; i < ng; i++)
		if (!(gap[i].end - gap[i].start < micro_us))
			macro += gap[i].end - gap[i].start;
	row(b, "micro_idle_time", micro);
	row(b, "macro_idle_time", macro);
	*sum = *sum + micro + macro;
}

int timeline_compute(struct timeline *t, double micro_us, struct breakdown *b)
{
	size_t n[GPU_NCLASS + 1], ne, nm;
	struct ival *ex, *mc, *mx;
	double comp, comm, xcomm, mem, xmem, busy, total, sum;

	if (!timeline_count(t))
		return -1;
	for (int k = 0; k <= GPU_NCLASS; k++)
		n[k] = ival_merge(t->v[k], t->n[k]);
	struct ival *all = t->v[GPU_NCLASS], *cp = t->v[GPU_COMPUTATION],
		    *cm = t->v[GPU_COMMUNICATION], *mm = t->v[GPU_MEMCPY];

	total = all[n[GPU_NCLASS] - 1].end - all[0].start;
	comp = ival_sum(cp, n[GPU_COMPUTATION]);
	comm = ival_sum(cm, n[GPU_COMMUNICATION]);
	ex = scratch(t, 0, n[GPU_COMPUTATION] + n[GPU_COMMUNICATION]);
	ne = ival_subtract(cp, n[GPU_COMPUTATION], cm, n[GPU_COMMUNICATION], ex);
	xcomm = ival_sum(ex, ne);
	mem = ival_sum(mm, n[GPU_MEMCPY]);
	mc = scratch(t, 0, n[GPU_COMPUTATION] + n[GPU_MEMCPY]);
	nm = ival_subtract(cp, n[GPU_COMPUTATION], mm, n[GPU_MEMCPY], mc);
	mx = scratch(t, 1, n[GPU_COMMUNICATION] + nm);
	xmem = ival_sum(mx, ival_subtract(cm, n[GPU_COMMUNICATION], mc, nm, mx));
	busy = ival_sum(all, n[GPU_NCLASS]);

	b->n = 0;
	b->total = total;
	row(b, "computation_time", comp);
	row(b, "exposed_comm_time", xcomm);
	row(b, "exposed_memcpy_time", xmem);
	row(b, "busy_time", busy);
	/* summed in the order of TraceLens's assertion */
	sum = comp + xcomm + xmem;
	if (micro_us < 0) {
		row(b, "idle_time", total - busy);
		sum = sum + (total - busy);
	} else {
		idle_rows(t, all, n[GPU_NCLASS], micro_us, b, &sum);
	}
	row(b, "total_time", total);
	row(b, "total_comm_time", comm);
	row(b, "total_memcpy_time", mem);
	b->identity_ok = fabs(sum - total) < 1e-6;
	return 0;
}

void timeline_reset(struct timeline *t)
{
	for (int k = 0; k <= GPU_NCLASS; k++)
		t->n[k] = 0;
}

void timeline_release(struct timeline *t)
{
	for (int k = 0; k <= GPU_NCLASS; k++)
		free(t->v[k]);
	free(t->tmp[0]);
	free(t->tmp[1]);
	timeline_init(t);
}
