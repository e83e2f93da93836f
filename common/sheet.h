/*
 * sheet: writes one report table, as TraceLens-exact CSV (pandas to_csv,
 * index=False) or as a tl TSV stream ("#tl-sheet 1", header, rows; TSV
 * escaping of tl-stream(5)).
 *
 *	struct sheet *sh = sheet_open(path, SHEET_CSV);   NULL: message printed
 *	sheet_header(sh, cols, ncols);
 *	sheet_str(sh, "aten::addmm"); sheet_float(sh, 197.598); sheet_int(sh, 26);
 *	sheet_empty(sh); sheet_bool(sh, 1);  sheet_endrow(sh);
 *	sheet_close(sh);
 *
 * Cells are written in order, separators added between them.  Floats are
 * Python's repr ("0.0", "1e-05"); NaN is an empty cell, as pandas writes
 * a missing value.  A path of NULL or "-" writes stdout.
 */
#ifndef TL_SHEET_H
#define TL_SHEET_H

#include <stddef.h>
#include <stdint.h>

enum sheet_fmt { SHEET_TSV, SHEET_CSV };

struct sheet;

struct sheet *sheet_open(const char *path, enum sheet_fmt fmt);
void sheet_close(struct sheet *sh);
void sheet_header(struct sheet *sh, const char *const *cols, size_t ncols);
void sheet_strn(struct sheet *sh, const char *s, size_t n);
void sheet_str(struct sheet *sh, const char *s);
void sheet_float(struct sheet *sh, double x);
void sheet_int(struct sheet *sh, int64_t v);
void sheet_bool(struct sheet *sh, int b);
void sheet_empty(struct sheet *sh);
void sheet_endrow(struct sheet *sh);

#endif
