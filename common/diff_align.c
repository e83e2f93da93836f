#include <stdlib.h>

#include "diff_align.h"
#include "xalloc.h"
#include "banned.h"

void diff_align_init(struct diff_align *al)
{
	al->ops = NULL;
	al->nr = al->alloc = 0;
	al->dp = NULL;
	al->dp_alloc = 0;
}

void diff_align_release(struct diff_align *al)
{
	free(al->ops);
	free(al->dp);
	diff_align_init(al);
}

void diff_align_push(struct diff_align *al, int op, int32_t i, int32_t j)
{
	xgrow((void **)&al->ops, &al->alloc, al->nr + 1, sizeof(*al->ops));
	al->ops[al->nr].op = op;
	al->ops[al->nr].i = i;
	al->ops[al->nr].j = j;
	al->nr++;
}

static void fill_table(uint32_t *dp, const uint32_t *n1, size_t m,
		       const uint32_t *n2, size_t n)
{
	size_t w = n + 1;

	for (size_t i = 0; i <= m; i++)
		dp[i * w] = (uint32_t)i;
	for (size_t j = 0; j <= n; j++)
		dp[j] = (uint32_t)j;
	for (size_t i = 1; i <= m; i++) {
		uint32_t *row = dp + i * w, *up = row - w;
		for (size_t j = 1; j <= n; j++) {
			uint32_t best = up[j] + 1, left = row[j - 1] + 1;
			uint32_t diag = up[j - 1] + (n1[i - 1] != n2[j - 1]);
			if (left < best)
				best = left;
			if (diag < best)
				best = diag;
			row[j] = best;
		}
	}
}

void diff_align_wf(struct diff_align *al, const uint32_t *n1, size_t m,
	      const uint32_t *n2, size_t n)
{
	size_t w, i, j, tail = 0;

	/*
	 * The backtrack matches equal last names first, so a common suffix is
	 * matched pair by pair whatever precedes it, and the table of the
	 * rest does not depend on it: align only the rest.
	 */
	while (tail < m && tail < n && n1[m - 1 - tail] == n2[n - 1 - tail])
		tail++;
	m -= tail, n -= tail;
	w = n + 1, i = m, j = n;
	al->nr = 0;
	xgrow((void **)&al->dp, &al->dp_alloc, st_mult(m + 1, w), sizeof(*al->dp));
	fill_table(al->dp, n1, m, n2, n);
	while (i > 0 || j > 0) {
		if (i > 0 && j > 0 && n1[i - 1] == n2[j - 1]) {
			diff_align_push(al, DIFF_ALIGN_MATCH, (int32_t)(i - 1), (int32_t)(j - 1));
			i--, j--;
		} else if (i > 0 && (j == 0 ||
			   al->dp[i * w + j] == al->dp[(i - 1) * w + j] + 1)) {
			diff_align_push(al, DIFF_ALIGN_DELETE, (int32_t)(i - 1), -1);
			i--;
		} else {
			diff_align_push(al, DIFF_ALIGN_INSERT, -1, (int32_t)(j - 1));
			j--;
		}
	}
	for (size_t a = 0, b = al->nr; a + 1 < b; a++, b--) {
		struct diff_align_op t = al->ops[a];
		al->ops[a] = al->ops[b - 1];
		al->ops[b - 1] = t;
	}
	for (size_t k = 0; k < tail; k++)
		diff_align_push(al, DIFF_ALIGN_MATCH, (int32_t)(m + k), (int32_t)(n + k));
}
