/*
 * py_tabulate: a small typed table (a pandas DataFrame's cells as Python
 * sees them in df.values: int, float or str) that can be written as a
 * report sheet or as the Markdown DataFrame.to_markdown(index=False)
 * gives with tabulate 0.8.9 (tablefmt "pipe"; no wcwidth).
 *
 *	struct tab t;
 *	tab_init(&t, cols, ncols);
 *	tab_int(&t, 3); tab_float(&t, 0.5); tab_str(&t, "gemm");   row-major
 *	tab_write_sheet(&t, sheet);
 *	py_tabulate_pipe(ob, &t, maxrows);        df.head(maxrows).to_markdown()
 *	tab_release(&t);
 *
 * tabulate's rules kept: a column's type is the most generic of its cells
 * (bool < int < float < str), where a str cell that Python's int() or
 * float() accepts counts as that number ("numparse"); float columns print
 * format(x, "g"); numbers are right-aligned with their decimal points
 * lined up, text left-aligned and stripped; widths count code points; the
 * pipe line marks alignment with colons.  Cells holding line breaks
 * (tabulate's multiline mode) are not laid out as tabulate would.
 */
#ifndef TL_PY_TABULATE_H
#define TL_PY_TABULATE_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"
#include "sheet.h"

enum tab_kind { TAB_INT, TAB_FLOAT, TAB_STR };

struct tab_cell {
	enum tab_kind kind;
	int64_t i;
	double f;
	char *s;
};

struct tab {
	size_t ncols, nrows, ncells, alloc;
	char **cols;
	struct tab_cell *cells;
};

void tab_init(struct tab *t, const char *const *cols, size_t ncols);
void tab_int(struct tab *t, int64_t v);
void tab_float(struct tab *t, double v);
void tab_str(struct tab *t, const char *s);
void tab_release(struct tab *t);
/* cell (row, col) */
const struct tab_cell *tab_at(const struct tab *t, size_t row, size_t col);
void tab_write_sheet(const struct tab *t, struct sheet *sh);
/* The first maxrows rows (a negative count drops that many from the end). */
void py_tabulate_pipe(struct outbuf *ob, const struct tab *t, long maxrows);

#endif
