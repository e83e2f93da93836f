/*
 * pmtest.h: what the perf-model unit tests share — the op table, the last
 * result, and checks of its params and numbers.  Each test file includes
 * it once and writes its own eval() that fills r.
 */
#ifndef TL_PMTEST_H
#define TL_PMTEST_H

#include <stdio.h>
#include <string.h>

#include "perf_ops.h"
#include "perf_model.h"
#include "tap.h"

static struct perf_ops *db;
static struct pm_result r;

/* The text of param `key` of the last result, or "(absent)". */
static const char *param(const char *key)
{
	for (size_t i = 0; i < r.nparam; i++)
		if (!strcmp(r.param[i].key, key))
			return r.param[i].str;
	return "(absent)";
}

/* Exact equality: the expectations are hand-computed doubles. */
static void num(double got, double want, const char *what)
{
	char w[200];

	snprintf(w, sizeof(w), "%s = %.17g", what, want);
	tap_ok(got == want, w);
	if (got != want)
		printf("#   got %.17g\n", got);
}

#endif
