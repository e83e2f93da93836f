/*
 * fuzz-perf: tl-perf's node-stream reader (tree_nodes_read) and every
 * sheet it writes — TraceLens's host-op sheets and the per-category
 * roofline sheets, with the arch table the trace's deviceProperties name
 * picks — on one node stream (tl-stream(5) tl-nodes 1).
 *
 * Dictionary: tsv
 */
#include "fuzz.h"
#include "perf_arch.h"
#include "perf_ops.h"
#include "perf_report.h"
#include "perf_sheet.h"
#include "perf_tree.h"
#include "sheet.h"
#include "tree_nodes.h"

static struct perf_ops *db;

static void write_all(struct perf_report *pr, struct perf_sheet *ps, unsigned pick)
{
	enum sheet_fmt fmt = pick & 1 ? SHEET_CSV : SHEET_TSV;
	const char *name;
	struct sheet *sh;

	for (int i = 0; perf_report_names[i]; i++) {
		/* explicit --sheet names are written even where TraceLens skips them */
		if (!(pick & 2) && !perf_report_wanted(pr, perf_report_names[i]))
			continue;
		sh = sheet_open(NULL, fmt);
		perf_report_write(pr, perf_report_names[i], sh);
		sheet_close(sh);
	}
	for (size_t i = 0; (name = perf_sheet_name(ps, i)); i++) {
		sh = sheet_open(NULL, fmt);
		perf_sheet_write(ps, name, sh);
		sheet_close(sh);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = fuzz_pick(data, size);
	struct tree_nodes *ns;
	struct perf_tree *tp;
	struct perf_report *pr;
	struct perf_sheet *ps;
	struct perf_arch *arch = NULL;
	char path[64];
	int fd;

	fuzz_init("tl-perf");
	if (!db)
		db = perf_ops_load(NULL);	/* once: it is read-only */
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	if ((ns = tree_nodes_read(path))) {
		if (ns->device)
			arch = perf_arch_detect(ns->device);
		tp = perf_tree_new(ns, db, (int)(pick >> 2 & 1));
		pr = perf_report_new(tp);
		pr->short_us = pick & 8 ? 0.5 : 10;
		pr->bins = pick & 16 ? 1 : 100;
		pr->topk = pick & 32 ? 2 : -1;
		ps = perf_sheet_new(pr, arch);
		pr->perf_cols = perf_sheet_unified_cols;
		pr->perf_ctx = ps;
		write_all(pr, ps, pick);
		perf_sheet_free(ps);
		perf_arch_free(arch);
		perf_report_free(pr);
		perf_tree_free(tp);
		tree_nodes_free(ns);
	}
	close(fd);
	return 0;
}
