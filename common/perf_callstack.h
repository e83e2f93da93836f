/*
 * perf_callstack: the nn.Module call stack of an op, as TraceLens's
 * traverse_parents_and_get_callstack(event, filter=("nn.Module",)) gives it
 * for --group_by_parent_module: the op's own name, then the names of its
 * ancestors (parent links) that contain "nn.Module", innermost first, each
 * cut to 256 characters plus "..".  parent_module is the first of those
 * ancestors with every "_<digits>" removed, or "NA".
 *
 *	struct pystr cs = {0}, pm = {0};
 *	perf_callstack(tp, uid, &cs, &pm);   cs: "['aten::mm', 'nn.Module: Linear_0']"
 *	                                     pm: "nn.Module: Linear"
 */
#ifndef TL_PERF_CALLSTACK_H
#define TL_PERF_CALLSTACK_H

#include <stdint.h>

struct perf_tree;
struct pystr;

void perf_callstack(const struct perf_tree *tp, uint32_t uid, struct pystr *call_stack,
		    struct pystr *parent_module);
/* re.sub(r"_\d+", "", s) appended to out */
void perf_strip_digit_suffixes(struct pystr *out, const char *s);
/* s cut to max characters (UTF-8 code points) plus "..", as name[:max] + "..",
 * when longer */
void perf_cut_name(struct pystr *out, const char *s, size_t max);

#endif
