#include <ctype.h>
#include <string.h>

#include "perf_callstack.h"
#include "perf_tree.h"
#include "py_repr.h"
#include "banned.h"

void perf_strip_digit_suffixes(struct pystr *out, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_' && i + 1 < n && isdigit((unsigned char)s[i + 1])) {
			i++;
			while (i + 1 < n && isdigit((unsigned char)s[i + 1]))
				i++;
			continue;
		}
		pystr_addc(out, s[i]);
	}
}

void perf_cut_name(struct pystr *out, const char *s, size_t max)
{
	size_t chars = 0, i = 0, n = strlen(s);

	/* count code points: bytes that are not UTF-8 continuation bytes */
	while (i < n && chars < max) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	pystr_add(out, s, i);
	if (i < n)
		pystr_adds(out, "..");
}

void perf_callstack(const struct perf_tree *tp, uint32_t uid, struct pystr *call_stack,
		    struct pystr *parent_module)
{
	const struct tree_nodes *ns = tp->ns;
	int first = 1;
	struct pystr cut = { 0 };

	pystr_addc(call_stack, '[');
	py_repr_str(call_stack, tree_nodes_str(ns, ns->node[uid].name),
		    tree_nodes_len(ns, ns->node[uid].name));
	for (int32_t a = ns->node[uid].parent; a >= 0; a = ns->node[a].parent) {
		const char *name = tree_nodes_str(ns, ns->node[a].name);
		pystr_reset(&cut);
		perf_cut_name(&cut, name, 256);
		if (!cut.buf || !strstr(cut.buf, "nn.Module"))
			continue;
		pystr_adds(call_stack, ", ");
		py_repr_str(call_stack, cut.buf, cut.len);
		if (first)
			perf_strip_digit_suffixes(parent_module, cut.buf);
		first = 0;
	}
	pystr_addc(call_stack, ']');
	if (first)
		pystr_adds(parent_module, "NA");
	pystr_release(&cut);
}
