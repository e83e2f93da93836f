/*
 * report_md: report.md, the summary of a report folder to read in a
 * terminal or a Markdown viewer: the facts and verdict first
 * (report_facts.h), then short tables with units in every header.  Names
 * go through display_escape(DISPLAY_MARKDOWN) inside code spans, kernel
 * names demangled and cut only where they still identify their row
 * (report_name.h).  Linear in every dimension of the input: a 10 MB op
 * name costs 10 MB of work.
 *
 *	report_md_write(rd, ob);     0, or 1 if a sheet could not be read
 */
#ifndef TL_REPORT_MD_H
#define TL_REPORT_MD_H

#include "outbuf.h"
#include "report_dir.h"

/* Rows of each table, and the characters a name keeps at least. */
#define REPORT_MD_TOP 10
#define REPORT_NAME_CHARS 120

int report_md_write(struct report_dir *rd, struct outbuf *ob);

/* Pieces the job and diff summaries share (report_md.c). */
void md_text(struct outbuf *ob, const char *s, size_t n);
/* A name as a code span: s[0..cut), then "…" if cut < n. */
void md_code(struct outbuf *ob, const char *s, size_t n, size_t cut);
void md_num(struct outbuf *ob, double v, int prec);

#endif
