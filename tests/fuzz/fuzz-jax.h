/*
 * fuzz-jax.h: tl-jax's report on an event stream, every sheet in CSV, as
 * tl-jax --csv -o DIR runs it; keyword filters when pick's low bit is set.
 * Shared by fuzz-jax (any stream) and fuzz-xplane (the streams its XPlane
 * conversion writes).
 */
#ifndef TL_FUZZ_JAX_H
#define TL_FUZZ_JAX_H

#include "jax_report.h"
#include "sheet.h"

static inline void fuzz_jax_sheets(const char *path, unsigned pick)
{
	static const char *kw[] = { "jit", "conv" };
	struct jax_opts jo = { NULL, 0 };
	struct jax_report *r;
	const char *name;

	if (pick & 1) {
		jo.keyword_filters = kw;
		jo.nfilters = 2;
	}
	r = jax_report_read(path, &jo);
	if (!r)
		return;
	for (size_t i = 0; (name = jax_report_sheet(r, i)); i++) {
		struct sheet *sh = sheet_open(NULL, SHEET_CSV);

		if (!sh)
			break;
		jax_report_write(r, name, sh);
		sheet_close(sh);
	}
	jax_report_free(r);
}

#endif
