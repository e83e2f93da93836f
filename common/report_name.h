/*
 * report_name: the names a table in report.md or report.html shows, as a
 * person reads them: C++-mangled kernel names demangled (display.h), and
 * long names cut with "…" - but never where the cut would make two
 * different names of the table look the same.  The CSVs keep the exact
 * text; this is only how it is shown.
 *
 *	struct report_names rn = { 0 };
 *	for each row: report_names_add(&rn, name, len);
 *	report_names_cut(&rn, 120);            at least 120 characters each
 *	for each row i: rn.s[i], rn.cut[i] bytes, then "…" if rn.cut[i] < rn.n[i]
 *	report_names_release(&rn);
 *
 * Cost: O(k log k) comparisons of k names, each linear in the names'
 * lengths; names longer than REPORT_NAME_DEMANGLE_MAX bytes are shown as
 * they are (the demangler is recursive: a crafted name must not cost more).
 */
#ifndef TL_REPORT_NAME_H
#define TL_REPORT_NAME_H

#include <stddef.h>

#define REPORT_NAME_DEMANGLE_MAX 65536

struct report_names {
	const char **s;		/* the text shown (demangled or the input) */
	size_t *n;		/* its length */
	size_t *cut;		/* bytes to show */
	char **own;		/* demangled copies to free */
	size_t count, alloc;
};

void report_names_add(struct report_names *rn, const char *s, size_t n);
void report_names_cut(struct report_names *rn, size_t min_chars);
void report_names_release(struct report_names *rn);

#endif
