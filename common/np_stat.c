#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>

#include "np_stat.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

static double pairwise(const double *a, size_t n)
{
	double r[8], res;
	size_t i, j;

	if (n < 8) {
		res = 0.;
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - (n % 8); i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

double np_sum(const double *x, size_t n)
{
	/*
	 * numpy starts the reduction from the identity 0.0 and feeds the
	 * inner loop at most one buffer (8192 elements) at a time, adding
	 * each block's pairwise sum to the running total.
	 */
	double s = 0.0;

	for (size_t i = 0; i < n; i += 8192)
		s += pairwise(x + i, n - i < 8192 ? n - i : 8192);
	return s;
}

double np_mean(const double *x, size_t n)
{
	return n ? np_sum(x, n) / (double)n : NAN;
}

static double sum_sq_dev(const double *x, size_t n, double mean)
{
	double *d = xmalloc(st_mult(n, sizeof(*d))), s;

	for (size_t i = 0; i < n; i++)
		d[i] = (x[i] - mean) * (x[i] - mean);
	s = np_sum(d, n);
	free(d);
	return s;
}

double np_std(const double *x, size_t n)
{
	if (!n)
		return NAN;
	return sqrt(sum_sq_dev(x, n, np_mean(x, n)) / (double)n);
}

int np_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void swap_d(double *x, size_t i, size_t j)
{
	double t = x[i];

	x[i] = x[j];
	x[j] = t;
}

/*
 * x[k] becomes the k-th smallest of x[0..n), everything before it no
 * larger, everything after no smaller: quickselect with three-way
 * partitions (runs of equal values cost one pass), the median of three
 * as pivot, and a sort of what is left once the partitions stop halving
 * (a bad pivot sequence stays O(n log n)).  No NaN in x.
 */
static void select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n, budget = 2;

	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	while (hi - lo > 16) {
		size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo, gt = hi;
		double a = x[lo], b = x[mid], c = x[hi - 1], p;

		if (!budget--)
			break;
		p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		while (i < gt) {	/* [lo, lt) < p, [lt, i) == p, [gt, hi) > p */
			if (x[i] < p)
				swap_d(x, lt++, i++);
			else if (x[i] > p)
				swap_d(x, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
	tl_qsort(x + lo, hi - lo, sizeof(*x), np_cmp_double);
}

/*
 * Sorting is what numpy's result is defined by; a selection gives the
 * same two middle values in O(n) (a tenth of tl-perf's time was the sort
 * of each kernel group's durations).  With a NaN or a -0.0 among them,
 * which of equal values lands in the middle could show, so those sort.
 */
double np_median(double *x, size_t n)
{
	size_t k = n / 2, i;
	double below;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		if (isnan(x[i]) || (x[i] == 0 && signbit(x[i])))
			break;
	if (i < n)
		tl_qsort(x, n, sizeof(*x), np_cmp_double);
	else
		select_kth(x, n, k);
	if (n % 2)
		return x[k];
	/* sorted: the one before; selected: the largest before */
	below = x[k - 1];
	for (size_t j = 0; i == n && j + 1 < k; j++)
		if (x[j] > below)
			below = x[j];
	/* numpy takes the mean of the two middle values: (0 + a + b) / 2 */
	return (0.0 + below + x[k]) / 2.0;
}

int64_t np_int64(double x)
{
	if (x >= -0x1p63 && x < 0x1p63)
		return (int64_t)x;
	return INT64_MIN;
}

int64_t np_add_int64(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

int64_t np_sub_int64(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

double np_round(double x, int decimals)
{
	double f = pow(10.0, decimals);
	return rint(x * f) / f;
}

/* Python's round(x, n) on a float: the decimal nearest the exact binary
 * value, ties to even (dtoa mode 3); glibc's printf rounds the same way */
double py_round(double x, int ndigits)
{
	char buf[400];

	if (x != x || isinf(x))
		return x;
	snprintf(buf, sizeof(buf), "%.*f", ndigits, x);
	return strtod(buf, NULL);
}

/* pandas' groupby sum and mean (group_sum, group_mean): Kahan-compensated */
double pd_gsum(const double *x, size_t n)
{
	double sum = 0, comp = 0;

	for (size_t i = 0; i < n; i++) {
		double y = x[i] - comp, t = sum + y;
		comp = t - sum - y;
		sum = t;
	}
	return sum;
}

double pd_mean(const double *x, size_t n)
{
	return n ? pd_gsum(x, n) / (double)n : NAN;
}

/* pandas' groupby var (group_var): Welford's running mean and M2 */
double pd_gstd(const double *x, size_t n)
{
	double mean = 0, m2 = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double old = mean;
		mean += (x[i] - old) / (double)(i + 1);
		m2 += (x[i] - mean) * (x[i] - old);
	}
	return sqrt(m2 / (double)(n - 1));
}

double pd_std(const double *x, size_t n)
{
	if (n < 2)
		return NAN;
	return sqrt(sum_sq_dev(x, n, np_mean(x, n)) / (double)(n - 1));
}

double pd_median(double *x, size_t n)
{
	return np_median(x, n);
}

double np_min(const double *x, size_t n)
{
	double m = n ? x[0] : NAN;
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double np_max(const double *x, size_t n)
{
	double m = n ? x[0] : NAN;
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

struct ivpos {
	double start, end;
	size_t pos;
};

static int cmp_ivpos(const void *a, const void *b)
{
	const struct ivpos *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Stable by start: equal starts keep their input order (Python's sort). */
static void sort_intervals(struct timeline_interval *iv, size_t n)
{
	struct ivpos *t;
	size_t i;

	for (i = 1; i < n; i++)
		if (iv[i].start < iv[i - 1].start)
			break;
	if (i >= n)
		return;
	t = xmalloc(st_mult(n, sizeof(*t)));
	for (i = 0; i < n; i++) {
		t[i].start = iv[i].start;
		t[i].end = iv[i].end;
		t[i].pos = i;
	}
	tl_qsort(t, n, sizeof(*t), cmp_ivpos);
	for (i = 0; i < n; i++) {
		iv[i].start = t[i].start;
		iv[i].end = t[i].end;
	}
	free(t);
}

double np_busy_time(struct timeline_interval *iv, size_t n)
{
	double sum = 0, s, e;
	size_t i;

	if (!n)
		return 0;
	sort_intervals(iv, n);
	s = iv[0].start;
	e = iv[0].end;
	for (i = 1; i < n; i++) {
		if (iv[i].start <= e) {
			if (iv[i].end > e)
				e = iv[i].end;
			continue;
		}
		sum += e - s;
		s = iv[i].start;
		e = iv[i].end;
	}
	return sum + (e - s);
}

static int np_less(double a, double b)
{
	return a < b || (b != b && a == a);
}

static void swap_idx(size_t *a, size_t *b)
{
	size_t t = *a;
	*a = *b;
	*b = t;
}

static void asift_down(const double *v, size_t *tosort, size_t i, size_t n)
{
	/* 0-based heap for numpy's aheapsort fallback */
	size_t tmp = tosort[i], j;
	while ((j = 2 * i + 1) < n) {
		if (j + 1 < n && np_less(v[tosort[j]], v[tosort[j + 1]]))
			j++;
		if (!np_less(v[tmp], v[tosort[j]]))
			break;
		tosort[i] = tosort[j];
		i = j;
	}
	tosort[i] = tmp;
}

static void aheapsort(const double *v, size_t *tosort, size_t n)
{
	for (size_t i = n / 2; i-- > 0; )
		asift_down(v, tosort, i, n);
	for (size_t k = n; k-- > 1; ) {
		swap_idx(&tosort[0], &tosort[k]);
		asift_down(v, tosort, 0, k);
	}
}

/* numpy/_core/src/npysort/quicksort.cpp aquicksort_ (SMALL_QUICKSORT 15) */
void np_argsort_quick(const double *v, size_t *tosort, size_t num)
{
	size_t *pl = tosort, *pr = tosort + num - 1, *stack[128], **sptr = stack;
	size_t *pm, *pi, *pj, *pk, vi;
	int depth[128], *psdepth = depth, cdepth = 0;
	double vp;

	for (size_t i = 0; i < num; i++)
		tosort[i] = i;
	if (num < 2)
		return;
	for (size_t m = num; m > 1; m >>= 1)
		cdepth++;
	cdepth *= 2;
	for (;;) {
		if (cdepth < 0) {
			aheapsort(v, pl, (size_t)(pr - pl) + 1);
			goto stack_pop;
		}
		while (pr - pl > 15) {
			pm = pl + ((pr - pl) >> 1);
			if (np_less(v[*pm], v[*pl])) swap_idx(pm, pl);
			if (np_less(v[*pr], v[*pm])) swap_idx(pr, pm);
			if (np_less(v[*pm], v[*pl])) swap_idx(pm, pl);
			vp = v[*pm];
			pi = pl;
			pj = pr - 1;
			swap_idx(pm, pj);
			for (;;) {
				do ++pi; while (np_less(v[*pi], vp));
				do --pj; while (np_less(vp, v[*pj]));
				if (pi >= pj)
					break;
				swap_idx(pi, pj);
			}
			pk = pr - 1;
			swap_idx(pi, pk);
			if (pi - pl < pr - pi) {
				*sptr++ = pi + 1;
				*sptr++ = pr;
				pr = pi - 1;
			} else {
				*sptr++ = pl;
				*sptr++ = pi - 1;
				pl = pi + 1;
			}
			*psdepth++ = --cdepth;
		}
		for (pi = pl + 1; pi <= pr; ++pi) {
			vi = *pi;
			vp = v[vi];
			pj = pi;
			pk = pi - 1;
			while (pj > pl && np_less(vp, v[*pk]))
				*pj-- = *pk--;
			*pj = vi;
		}
stack_pop:
		if (sptr == stack)
			break;
		pr = *(--sptr);
		pl = *(--sptr);
		cdepth = *(--psdepth);
	}
}

void pd_argsort_desc(const double *v, size_t *idx, size_t n)
{
	double *rev = xmalloc(st_mult(n ? n : 1, sizeof(*rev)));
	size_t *o = xmalloc(st_mult(n ? n : 1, sizeof(*o))), i, m = 0, k = 0;
	size_t *map = xmalloc(st_mult(n ? n : 1, sizeof(*map)));

	/* non-NaN values reversed, argsorted ascending, the result reversed */
	for (i = n; i-- > 0; )
		if (v[i] == v[i]) {
			map[m] = i;
			rev[m++] = v[i];
		}
	np_argsort_quick(rev, o, m);
	for (i = m; i-- > 0; )
		idx[k++] = map[o[i]];
	for (i = 0; i < n; i++)		/* NaN last, in order */
		if (v[i] != v[i])
			idx[k++] = i;
	free(rev);
	free(o);
	free(map);
}

void np_histogram(const double *x, size_t n, size_t bins, double *edge, size_t *count)
{
	double lo = np_min(x, n), hi = np_max(x, n), step, norm;

	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	/* np.linspace: i * step + start, the last edge set to stop */
	step = (hi - lo) / (double)bins;
	for (size_t i = 0; i <= bins; i++)
		edge[i] = (double)i * step + lo;
	edge[bins] = hi;
	for (size_t i = 0; i < bins; i++)
		count[i] = 0;
	norm = (double)bins / (hi - lo);
	for (size_t i = 0; i < n; i++) {
		/* numpy 1.24: (x - first_edge) * (bins / (last_edge - first_edge)) */
		long b = (long)((x[i] - lo) * norm);
		if (b == (long)bins)
			b--;
		if (x[i] < edge[b])
			b--;
		if (x[i] >= edge[b + 1] && b != (long)bins - 1)
			b++;
		count[b]++;
	}
}

/*
 * numpy 1.24 _quantile, "linear": virtual index (n - 1) * q; gamma its
 * distance from the floor (after clipping to the last index); _lerp
 * computes a + (b - a) * g, or b - (b - a) * (1 - g) when g >= 0.5.
 */
double np_quantile(const double *v, size_t n, double q)
{
	double virt, prev, gamma, a, b, diff;
	size_t lo, hi;

	if (!n)
		return NAN;
	virt = (double)(n - 1) * q;
	if (virt >= (double)(n - 1)) {
		lo = hi = n - 1;
		prev = -1;	/* numpy's index -1: gamma = virt + 1 */
	} else if (virt < 0) {
		lo = hi = 0;
		prev = 0;
	} else {
		prev = floor(virt);
		lo = (size_t)prev;
		hi = lo + 1;
	}
	gamma = virt - prev;
	a = v[lo];
	b = v[hi];
	diff = b - a;
	if (gamma >= 0.5)
		return b - diff * (1 - gamma);
	return a + diff * gamma;
}
