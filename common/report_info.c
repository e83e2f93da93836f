#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "py_fmt.h"
#include "report_info.h"
#include "xalloc.h"
#include "banned.h"

static void key(struct outbuf *ob, const char *k)
{
	outbuf_puts(ob, k);
	outbuf_putc(ob, ',');
}

static void str_row(struct outbuf *ob, const char *k, const char *v)
{
	key(ob, k);
	if (v)
		csv_cell(ob, v, strlen(v));
	outbuf_putc(ob, '\n');
}

static void num_row(struct outbuf *ob, const char *k, double v)
{
	key(ob, k);
	csv_float(ob, v);
	outbuf_putc(ob, '\n');
}

static void count_row(struct outbuf *ob, const char *k, size_t v)
{
	key(ob, k);
	outbuf_u64(ob, v);
	outbuf_putc(ob, '\n');
}

/* First start to last end of the events that keep their time. */
static double span_us(const struct tree_nodes *ns)
{
	double t0 = ns->drop_t0, t1 = ns->drop_t1;	/* the events without a record */

	for (size_t i = 0; i < ns->n; i++) {
		const struct node *n = &ns->node[i];
		if (n->cat == NC_META || !(n->flags & (NF_HAS_TS | NF_ANNOT)))
			continue;
		t0 = fmin(t0, n->ts);
		t1 = fmax(t1, fmax(node_end(n), n->ts));
	}
	return t1 >= t0 ? t1 - t0 : NAN;
}

static void counts(struct outbuf *ob, const struct tree_nodes *ns)
{
	struct hmap pids = HMAP_INIT;
	size_t gpu = 0, kernels = 0, ngpus = 0;

	for (size_t i = 0; i < ns->n; i++) {
		const struct node *n = &ns->node[i];
		uint32_t dummy;
		if (!node_is_gpu(n))
			continue;
		gpu++;
		kernels += n->cat == NC_KERNEL;
		if (!hmap_get(&pids, (uint64_t)n->pid + 1, &dummy)) {
			hmap_put(&pids, (uint64_t)n->pid + 1, 1);
			ngpus++;
		}
	}
	hmap_release(&pids);
	count_row(ob, "gpus", ngpus);
	count_row(ob, "events", ns->nevents);
	count_row(ob, "gpu_events", gpu);
	count_row(ob, "kernels", kernels);
}

void report_info_write(struct outbuf *ob, const struct tree_nodes *ns,
		       const struct perf_arch *arch, const char *how, double short_us)
{
	const char *file = arch ? strrchr(arch->path, '/') : NULL;

	outbuf_puts(ob, "key,value\n");
	str_row(ob, "trace", ns->source);
	str_row(ob, "device", ns->device);
	counts(ob, ns);
	num_row(ob, "trace_span_us", span_us(ns));
	str_row(ob, "arch", arch ? arch->name : NULL);
	str_row(ob, "arch_file", arch ? (file ? file + 1 : arch->path) : NULL);
	str_row(ob, "arch_how", how);
	num_row(ob, "short_kernel_us", short_us);
	if (!arch)
		return;
	num_row(ob, "mem_bw_gbps", arch->mem_bw_gbps);
	for (int i = 0; i < arch->npeak; i++) {
		const char *spec = arch->peak[i].spec;
		size_t n = strlen(spec) + 13;
		char *k = xmalloc(n);
		snprintf(k, n, "peak_tflops:%s", spec);
		csv_cell(ob, k, strlen(k));
		outbuf_putc(ob, ',');
		csv_float(ob, arch->peak[i].tflops);
		outbuf_putc(ob, '\n');
		free(k);
	}
}
