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
#include "jax_report.h"
#include "sheet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *kw[] = { "jit", "conv" };
	struct jax_opts jo = { NULL, 0 };
	struct jax_report *r;
	const char *name;
	char path[64];
	int fd;

	fuzz_init("tl-jax");
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	if (fuzz_pick(data, size) & 1) {
		jo.keyword_filters = kw;
		jo.nfilters = 2;
	}
	r = jax_report_read(path, &jo);
	if (r) {
		for (size_t i = 0; (name = jax_report_sheet(r, i)); i++) {
			struct sheet *sh = sheet_open(NULL, SHEET_CSV);

			if (!sh)
				break;
			jax_report_write(r, name, sh);
			sheet_close(sh);
		}
		jax_report_free(r);
	}
	close(fd);
	return 0;
}
