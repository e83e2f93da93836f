/*
 * pm-eval: run common/perfmodel on op arguments read from stdin, for the
 * corpus check tests/t0101-perfmodel-corpus.sh (not a unit test itself:
 * it prints no TAP).  One input line per op, tab-separated:
 *   name  dims  types  strides  concrete  bwd(0/1)  kernel names (\x1f-joined)
 * One output line per op:
 *   status  flops  bytes(or "None")  spec  perf_params dict
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_ops.h"
#include "perf_model.h"
#include "py_fmt.h"

static void eval_line(const struct perf_ops *db, char *line)
{
	char *f[7] = { 0 };
	const char *kern[64];
	size_t nk = 0;
	int nf = 0;
	struct pm_result r;
	struct pm_args a = { 0 };
	char fl[PY_FLOAT_MAX], by[PY_FLOAT_MAX];
	static const char *const st[] = { "ok", "nomodel", "notimpl", "fail" };

	for (char *p = line; nf < 7; nf++) {
		f[nf] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	for (char *p = f[6]; p && *p && nk < 64; ) {
		kern[nk++] = p;
		p = strchr(p, '\x1f');
		if (!p)
			break;
		*p++ = '\0';
	}
	a.dims = f[1];
	a.types = f[2];
	a.strides = f[3];
	a.concrete = f[4];
	perf_model_compute(perf_ops_lookup(db, f[0]), &a, kern, nk, f[5] && *f[5] == '1', &r);
	py_float_repr(r.flops, fl);
	py_float_repr(r.bytes, by);
	const char *d = pm_params_dict(&r);
	printf("%s\t%s\t%s\t%s\t%s\t%s\n", st[r.status], fl, r.has_bytes ? by : "None",
	       r.spec, d, r.why ? r.why : "");
	pm_result_release(&r);
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	struct perf_ops *db = perf_ops_load(argc > 1 ? argv[1] : NULL);

	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		eval_line(db, line);
	}
	free(line);
	perf_ops_free(db);
	perf_model_free_texts();
	return 0;
}
