#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_stat.h"
#include "perf_kdetail.h"
#include "xalloc.h"
#include "banned.h"

static const struct kdent *sort_tmpl;

/* summary_list.sort(key=lambda k: (k["total_duration_us"], k["name"])) */
static int cmp_stat(const void *a, const void *b)
{
	const struct kdstat *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	c = strcmp(sort_tmpl[x->pos].name, sort_tmpl[y->pos].name);
	if (c)
		return c;
	/* list.sort is stable */
	return (x->pos > y->pos) - (x->pos < y->pos);
}

void kdetail_summarize(const struct kdent *const *lists, const uint32_t *lens, size_t nrows,
		       struct kdsum *s)
{
	size_t r, t = nrows, i;
	double *d;

	memset(s, 0, sizeof(*s));
	for (r = 0; r < nrows && t == nrows; r++)
		if (lens[r])
			t = r;
	if (t == nrows)
		return;
	s->tmpl = lists[t];
	s->tmpl_row = t;
	s->m = lens[t];
	s->st = xcalloc(s->m, sizeof(*s->st));
	d = xmalloc(st_mult(nrows + 1, sizeof(*d)));
	for (i = 0; i < s->m; i++) {
		struct kdstat *k = &s->st[i];
		size_t cnt = 0;
		int all_int = 1;
		for (r = 0; r < nrows; r++)
			if (lens[r] == s->m && lists[r][i].dur == lists[r][i].dur) {
				d[cnt++] = lists[r][i].dur;
				all_int &= lists[r][i].dur_int;
			}
		k->is_int = all_int && cnt;
		k->pos = i;
		k->count = cnt;
		k->total = np_sum(d, cnt);
		k->mean = np_mean(d, cnt);
		k->std = np_std(d, cnt);
		k->min = np_min(d, cnt);
		k->max = np_max(d, cnt);
		k->median = np_median(d, cnt);	/* reorders d: last */
	}
	free(d);
	sort_tmpl = s->tmpl;
	qsort(s->st, s->m, sizeof(*s->st), cmp_stat);
}

/* a numpy scalar: np.int64(N) for an int array's sum/min/max, else np.float64 */
static void add_np(struct pystr *out, double x, int is_int)
{
	char num[48];

	if (!is_int) {
		py_repr_np64(out, x);
		return;
	}
	snprintf(num, sizeof(num), "np.int64(%.0f)", x);
	pystr_adds(out, num);
}

static void add_stream(struct pystr *out, const char *stream)
{
	pystr_adds(out, ", 'stream': ");
	pystr_adds(out, stream ? stream : "None");
}

void kdetail_full(const struct kdsum *s, int with_extra, struct pystr *out)
{
	char num[32];

	pystr_addc(out, '[');
	for (size_t i = 0; i < s->m; i++) {
		const struct kdstat *k = &s->st[i];
		const struct kdent *e = &s->tmpl[k->pos];
		if (i)
			pystr_adds(out, ", ");
		pystr_adds(out, "{'name': ");
		py_repr_str(out, e->name, strlen(e->name));
		add_stream(out, e->stream);
		if (with_extra && e->extra)
			pystr_adds(out, e->extra);
		snprintf(num, sizeof(num), ", 'count': %zu", k->count);
		pystr_adds(out, num);
		pystr_adds(out, ", 'total_duration_us': ");
		add_np(out, k->total, k->is_int);
		if (k->count) {
			pystr_adds(out, ", 'mean_duration_us': ");
			py_repr_np64(out, k->mean);
			pystr_adds(out, ", 'median_duration_us': ");
			py_repr_np64(out, k->median);
			pystr_adds(out, ", 'std_dev_duration_us': ");
			py_repr_np64(out, k->std);
			pystr_adds(out, ", 'min_duration_us': ");
			add_np(out, k->min, k->is_int);
			pystr_adds(out, ", 'max_duration_us': ");
			add_np(out, k->max, k->is_int);
		}
		pystr_addc(out, '}');
	}
	pystr_addc(out, ']');
}

/* Python's name[:64] + "...": 64 code points, not bytes */
static void trunc_name(struct pystr *out, const char *s)
{
	size_t i = 0, cps = 0;

	while (s[i] && cps < 64) {
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		cps++;
	}
	if (!s[i]) {
		py_repr_str(out, s, i);
		return;
	}
	struct pystr t = {0};
	pystr_add(&t, s, i);
	pystr_adds(&t, "...");
	py_repr_str(out, t.buf, t.len);
	pystr_release(&t);
}

void kdetail_trunc(const struct kdsum *s, struct pystr *out)
{
	if (!s->m)
		return;
	pystr_addc(out, '[');
	for (size_t i = 0; i < s->m; i++) {
		const struct kdstat *k = &s->st[i];
		const struct kdent *e = &s->tmpl[k->pos];
		if (i)
			pystr_adds(out, ", ");
		pystr_adds(out, "{'name': ");
		trunc_name(out, e->name);
		add_stream(out, e->stream);
		pystr_adds(out, ", 'mean_duration_us': ");
		/* detail.get("mean_duration_us", 0): an int 0 without durations */
		if (k->count)
			py_repr_np64(out, np_round(k->mean, 2));
		else
			pystr_addc(out, '0');
		pystr_addc(out, '}');
	}
	pystr_addc(out, ']');
}

void kdetail_release(struct kdsum *s)
{
	free(s->st);
	memset(s, 0, sizeof(*s));
}
