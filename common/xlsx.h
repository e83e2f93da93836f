/*
 * xlsx: writes tables as an Office Open XML workbook (.xlsx), one
 * worksheet per table, as TraceLens's report writer (pandas to_excel,
 * index=False) lays them out.
 *
 *	struct xlsx *x = xlsx_open("report.xlsx");   NULL: message printed
 *	xlsx_add_csv(x, "ops_summary", &csv);         a table from common/csv.h
 *	if (xlsx_close(x) < 0)                        message printed
 *		...;
 *
 * The workbook is a zip (libarchive, deflate) of [Content_Types].xml,
 * _rels/.rels, xl/workbook.xml, xl/_rels/workbook.xml.rels,
 * xl/styles.xml and xl/worksheets/sheetN.xml — no shared strings, no
 * docProps.  Every entry has mtime 0 (DOS time 1980-01-01 00:00), owner
 * 0 and mode 0644, so the same tables give the same bytes.  Sheets are
 * written a megabyte of XML at a time, their sizes in data descriptors
 * without zip64 (a part past 4 GiB is a write error).
 *
 * Cells (row 1 is the header: bold, thin border, centred, frozen):
 *   - an empty field is no cell (pandas writes NaN so);
 *   - a field that reads as a JSON number as Python prints it ("12",
 *     "-0.5", "7.2192e-05", "1e+16"; no leading zeros, no "inf"/"nan",
 *     nothing that overflows a double) is a numeric cell, its text copied;
 *   - "True" / "False" are boolean cells (pandas writes bool columns so);
 *   - anything else is an inline string.  Text is XML-escaped; a carriage
 *     return is written &#13; so that XML readers keep it; characters XML
 *     1.0 cannot hold (C0 controls but tab and line feed, U+FFFE, U+FFFF)
 *     are written as Excel's _xHHHH_ escape, and a literal "_xHHHH_" as
 *     "_x005F_xHHHH_" so Excel reads it back unchanged.
 * Excel's limits are kept, each with a warning and a count: sheet names
 * (31 characters, none of []:*?/\, no leading or trailing apostrophe,
 * unique ignoring ASCII case, not "History": offending characters become
 * '_', long names are cut, clashes get "~2", "~3"...), 32767 characters
 * a cell (cut), 1048576 rows and 16384 columns a sheet (the rest dropped,
 * and xlsx_close then returns -1).
 *
 * Output goes to a temporary file beside path, renamed into place by
 * xlsx_close; path "-" writes stdout.  xlsx_close with no sheet added
 * writes nothing and returns -1 ("no sheet to write").
 */
#ifndef TL_XLSX_H
#define TL_XLSX_H

#include <stddef.h>

#include "csv.h"

struct xlsx;

struct xlsx *xlsx_open(const char *path);
/* Adds table c as a sheet called name (made Excel-safe as above). */
void xlsx_add_csv(struct xlsx *x, const char *name, const struct csv *c);
/* Writes the workbook parts, closes and frees x; 0, or -1 on error. */
int xlsx_close(struct xlsx *x);

/*
 * The Excel-safe form of name, malloc'd, not checked for clashes: what
 * xlsx_add_csv uses before it makes names unique.
 */
char *xlsx_sheet_name(const char *name);

#endif
