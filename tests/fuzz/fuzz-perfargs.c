/*
 * fuzz-perfargs: the perf-model argument parser (perf_model_compute:
 * "Input Dims", "Input type", "Input Strides" and "Concrete Inputs" as
 * the event stream carries them, and every model kind that reads them).
 * The input is one line as tests/unit/pm-eval reads it:
 *   op name \t dims \t types \t strides \t concrete \t bwd \t kernels
 * (kernel names joined by \x1f); missing fields are absent arguments.
 *
 * Dictionary: json
 */
#include <string.h>

#include "fuzz.h"
#include "perf_model.h"
#include "perf_ops.h"

static struct perf_ops *db;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), *f[8] = { 0 };
	const char *kern[16];
	size_t nk = 0;
	struct pm_args a = { 0 };
	struct pm_result r;

	fuzz_init("tl-perf");
	if (!db)
		db = perf_ops_load(NULL);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	f[0] = line;
	for (int i = 1; i < 8 && f[i - 1]; i++)
		if ((f[i] = strchr(f[i - 1], '\t')))
			*f[i]++ = '\0';
	for (char *p = f[6]; p && *p && nk < 16; ) {
		kern[nk++] = p;
		if ((p = strchr(p, '\x1f')))
			*p++ = '\0';
	}
	a.dims = f[1];
	a.types = f[2];
	a.strides = f[3];
	a.concrete = f[4];
	a.annotation = f[7];
	perf_model_compute(perf_ops_lookup(db, f[0]), &a, kern, nk, f[5] && *f[5] == '1', &r);
	(void)pm_params_dict(&r);
	pm_result_release(&r);
	perf_model_free_texts();	/* one input's texts at a time */
	free(line);
	return 0;
}
