/*
 * fuzz-jax: tl-jax's event-stream reader and TraceLens's JAX report on any
 * event stream (fuzz-xplane reaches the report only through streams its
 * XPlane conversion writes): HLO operand shapes, GEMM and conv models,
 * kernel launchers, the summaries, every sheet in CSV, with or without
 * keyword filters (picked from the input).
 *
 * Dictionary: tsv
 */
#include "fuzz.h"
#include "fuzz-jax.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fuzz_init("tl-jax");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	fuzz_jax_sheets(path, fuzz_pick(data, size));
	close(fd);
	return 0;
}
